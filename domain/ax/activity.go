package ax

import (
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Activity ingest (ax.md §9): a harness forwards the agent's tool and
// session events and the board reacts.

// activityEventKinds maps activity kinds to event kinds.
var activityEventKinds = map[string]string{
	"tool-start":    "tool-start",
	"tool-result":   "tool-result",
	"failure":       "failure",
	"error":         "failure",
	"session-start": "assistant-message",
	"session-end":   "assistant-message",
	"command":       "command",
	"note":          "assistant-message",
}

// reaction reads reactions[key]: false turns it off, an object turns it on
// with overrides, anything else leaves the default.
func reaction(reactions map[string]any, key string, def bool) (bool, map[string]any) {
	switch v := reactions[key].(type) {
	case bool:
		if !v {
			return false, nil
		}
	case map[string]any:
		return true, v
	}
	return def, map[string]any{}
}

// overrideEnum reads a string override that must be one of values.
func overrideEnum(o map[string]any, key string, values []string) *string {
	if s, ok := o[key].(string); ok && slices.Contains(values, s) {
		return &s
	}
	return nil
}

// overrideString reads a string override (other types are dropped).
func overrideString(o map[string]any, key string) *string {
	if s, ok := o[key].(string); ok {
		return &s
	}
	return nil
}

func planActivity(in *messages.AxActivityInput, nodes *canvas.State) (ActivityPlan, *messages.Error) {
	if in == nil || in.Kind == nil || !slices.Contains(ActivityKinds, *in.Kind) {
		return ActivityPlan{}, messages.BadRequest("%s", "activity requires a valid 'kind': one of "+strings.Join(ActivityKinds, ", ")+".")
	}
	if blank(in.Title) {
		return ActivityPlan{}, messages.BadRequest("activity requires a title.")
	}
	kind, title := *in.Kind, *in.Title
	var outcome *string
	if in.Outcome != nil && (*in.Outcome == "success" || *in.Outcome == "failure") {
		outcome = strPtr(*in.Outcome)
	}
	ref := optionalString(in.Ref)
	summaryText := title
	if !blank(in.Summary) {
		summaryText = *in.Summary
	}
	isFailure := kind == "failure" || kind == "error" || (outcome != nil && *outcome == "failure")
	isToolSuccess := kind == "tool-result" && outcome != nil && *outcome == "success"
	var anchorNodeID *string
	for _, v := range in.NodeIDs {
		if s, ok := v.(string); ok && liveNode(nodes, s) {
			anchorNodeID = strPtr(s)
			break
		}
	}
	nodeIDs := func() []any { return slices.Clone(orEmpty(in.NodeIDs)) }

	// 1. The event, always. Canonical keys are written last so caller data
	// cannot spoof them.
	data := cloneMap(in.Data)
	if data == nil {
		data = map[string]any{}
	}
	data["activityKind"] = kind
	if outcome != nil {
		data["outcome"] = *outcome
	}
	if ref != nil {
		data["ref"] = *ref
	}
	var detail *string
	if in.Summary != nil {
		detail = strPtr(*in.Summary)
	}
	plan := ActivityPlan{Event: &messages.AxEventInput{
		Kind:    strPtr(activityEventKinds[kind]),
		Summary: strPtr(title),
		Detail:  detail,
		NodeIDs: nodeIDs(),
		Data:    data,
		Source:  in.Source,
	}}

	// 2-3. Work item.
	if on, o := reaction(in.Reactions, "workItem", isFailure); on {
		status := overrideEnum(o, "status", WorkStatuses)
		if status == nil {
			status = strPtr("blocked")
		}
		d := overrideString(o, "detail")
		if d == nil {
			d = strPtr(summaryText)
		}
		plan.WorkItem = &messages.AxWorkCreateInput{Title: strPtr(title), Status: status, Detail: d, NodeIDs: nodeIDs(), Source: in.Source}
	}

	// 4. Evidence.
	defEvidence := ""
	switch {
	case isFailure:
		defEvidence = "logs"
	case isToolSuccess:
		defEvidence = "tool-result"
	}
	if on, o := reaction(in.Reactions, "evidence", defEvidence != ""); on {
		k := overrideEnum(o, "kind", EvidenceKinds)
		if k == nil {
			k = strPtr(defEvidence)
			if defEvidence == "" {
				k = strPtr("logs")
			}
		}
		body := overrideString(o, "body")
		if body == nil && in.Summary != nil {
			body = strPtr(*in.Summary)
		}
		plan.Evidence = &messages.AxEvidenceInput{Kind: k, Title: strPtr(title), Body: body, Ref: ref, NodeIDs: nodeIDs(), Source: in.Source}
	}

	// 5. Review, left out when its node anchor would be invalid.
	if on, o := reaction(in.Reactions, "review", isFailure); on {
		rk := overrideEnum(o, "kind", ReviewKinds)
		if rk == nil {
			rk = strPtr("finding")
		}
		sev := overrideEnum(o, "severity", Severities)
		if sev == nil {
			sev = strPtr("error")
		}
		nodeID := overrideString(o, "nodeId")
		if nodeID == nil || *nodeID == "" {
			nodeID = anchorNodeID
		}
		review := &messages.AxReviewAddInput{
			Body:       strPtr(summaryText),
			Kind:       rk,
			Severity:   sev,
			AnchorType: overrideEnum(o, "anchorType", AnchorTypes),
			NodeID:     nodeID,
			File:       ref,
			Source:     in.Source,
		}
		if reviewAnchor(review.AnchorType, review.NodeID) != "node" || (nodeID != nil && liveNode(nodes, *nodeID)) {
			plan.Review = review
		}
	}
	return plan, nil
}
