package ax

import (
	"math"
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Timeline records (ax.md §3.8-3.10), commands (§10), limits (§1.6) and the
// pending-activity digest (§3.12, §6.2).

// Timeline limits (ax.md §1.6).
const (
	TimelineRetention    = 500
	TimelineDefaultLimit = 50
	TimelineMaxLimit     = 200
	ContextEventLimit    = 20
	ContextEvidenceLimit = 10
	ContextSteeringLimit = 10
)

func newEvent(in *messages.AxEventInput, kinds []string, source string, env *canvas.Env) (*Event, *messages.Error) {
	if in == nil || in.Kind == nil || !slices.Contains(kinds, *in.Kind) || in.Summary == nil {
		return nil, messages.BadRequest("event requires kind and summary.")
	}
	return &Event{
		ID:      env.NewID(prefixEvent, idRandLen),
		Kind:    *in.Kind,
		Summary: *in.Summary,
		// Stored in its read form ("" is null), so a create response and a
		// later read agree.
		Detail:    optionalString(in.Detail),
		NodeIDs:   timelineNodeIDs(in.NodeIDs),
		Data:      cloneMap(in.Data),
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

func newEvidence(in *messages.AxEvidenceInput, source string, env *canvas.Env) (*Evidence, *messages.Error) {
	if in == nil || in.Kind == nil || !slices.Contains(EvidenceKinds, *in.Kind) || blank(in.Title) {
		return nil, messages.BadRequest("evidence requires kind and title.")
	}
	var body *string
	if in.Body != nil { // any string is kept, even ""
		body = strPtr(*in.Body)
	}
	return &Evidence{
		ID:        env.NewID(prefixEvidence, idRandLen),
		Kind:      *in.Kind,
		Title:     *in.Title,
		Body:      body,
		Ref:       optionalString(in.Ref),
		NodeIDs:   timelineNodeIDs(in.NodeIDs),
		Data:      cloneMap(in.Data),
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

func newSteering(in *messages.AxSteerInput, source string, env *canvas.Env) (*Steering, *messages.Error) {
	if in == nil || blank(in.Message) {
		return nil, messages.BadRequest("steer requires a non-empty message.")
	}
	return &Steering{
		ID:        env.NewID(prefixSteering, idRandLen),
		Message:   *in.Message,
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
		To:        trimmedOrNil(in.To),
		Kind:      in.Kind,
		NodeID:    in.NodeID,
	}, nil
}

// trimmedOrNil is s without surrounding space, nil when nothing is left.
func trimmedOrNil(s *string) *string {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil
	}
	t := strings.TrimSpace(*s)
	return &t
}

// commandList is the fixed allowlist (ax.md §10), in listing order.
var commandList = []Command{
	{"pmx.plan", "Enter planning: outline the approach before executing."},
	{"pmx.execute", "Proceed from plan to execution."},
	{"pmx.promote-context", "Promote focused/pinned nodes into durable agent context."},
	{"pmx.summarize", "Summarize the current canvas/work state."},
	{"pmx.review", "Start a review pass over the focused nodes."},
}

// lookupCommand finds a command by exact name.
func lookupCommand(name string) (Command, bool) {
	for _, c := range commandList {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

func errUnknownCommand(name string) string { return `Unknown command "` + name + `".` }

func commandEvent(name any, args any, source string, env *canvas.Env) (*Event, *messages.Error) {
	s, ok := name.(string)
	if !ok {
		return nil, messages.BadRequest("command requires a name.")
	}
	cmd, ok := lookupCommand(s)
	if !ok {
		return nil, messages.BadRequest("%s", errUnknownCommand(s))
	}
	data := map[string]any{"command": cmd.Name}
	if m, ok := args.(map[string]any); ok {
		data["args"] = cloneMap(m)
	}
	return &Event{
		ID:        env.NewID(prefixEvent, idRandLen),
		Kind:      "command",
		Summary:   cmd.Name,
		Detail:    strPtr(cmd.Description),
		NodeIDs:   []string{},
		Data:      data,
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

func parseLimit(v any) int {
	f, ok := number(v)
	if !ok || math.IsInf(f, 0) || f <= 0 {
		return TimelineDefaultLimit
	}
	// Floored first, so a value in (0, 1) counts as <= 0 (the reference
	// asked the store for 0 rows).
	f = math.Floor(f)
	switch {
	case f < 1:
		return TimelineDefaultLimit
	case f > TimelineMaxLimit:
		return TimelineMaxLimit
	}
	return int(f)
}

// visibleTo reports whether an item from source is shown to consumer: every
// item when there is no consumer, null-source items always.
func visibleTo(source *string, consumer string) bool {
	return consumer == "" || source == nil || *source != consumer
}

func pendingActivity(b Board, g GateSet, consumer string) []PendingItem {
	out := []PendingItem{}
	add := func(kind, id, title, status string, nodeIDs []string, source *string) {
		if visibleTo(source, consumer) {
			out = append(out, PendingItem{Kind: kind, ID: id, Title: title, Status: status, NodeIDs: slices.Clone(orEmpty(nodeIDs)), Source: source})
		}
	}
	for _, w := range b.WorkItems {
		if slices.Contains(OpenWorkStatuses, w.Status) {
			add("work-item", w.ID, w.Title, w.Status, w.NodeIDs, w.Source)
		}
	}
	for _, a := range g.Approvals {
		if a.Status == statusPending {
			add("approval-gate", a.ID, a.Title, a.Status, a.NodeIDs, a.Source)
		}
	}
	for _, e := range g.Elicitations {
		if e.Status == statusPending {
			add("elicitation", e.ID, e.Prompt, e.Status, e.NodeIDs, e.Source)
		}
	}
	for _, m := range g.Modes {
		if m.Status == statusPending {
			title := "mode: " + m.Mode
			if m.Reason != nil && *m.Reason != "" {
				title = m.Mode + ": " + *m.Reason
			}
			add("mode-request", m.ID, title, m.Status, m.NodeIDs, m.Source)
		}
	}
	return out
}
