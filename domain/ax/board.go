package ax

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Canvas-bound state: focus, work items, review annotations, policy, host
// (ax.md §3.1-3.4, §3.7, §3.11).

func emptyPolicy() Policy {
	return Policy{Tools: PolicyTools{Allowed: []string{}, Excluded: []string{}, ApprovalRequired: []string{}}}
}

func emptyBoard() Board {
	return Board{
		Focus:     Focus{NodeIDs: []string{}},
		WorkItems: []*WorkItem{},
		Reviews:   []*ReviewAnnotation{},
		Policy:    emptyPolicy(),
	}
}

func emptyGates() GateSet {
	return GateSet{Approvals: []*ApprovalGate{}, Elicitations: []*Elicitation{}, Modes: []*ModeRequest{}}
}

func stateOf(b Board, g GateSet) State {
	focus := b.Focus
	focus.NodeIDs = orEmpty(focus.NodeIDs)
	policy := b.Policy
	policy.Tools.Allowed = orEmpty(policy.Tools.Allowed)
	policy.Tools.Excluded = orEmpty(policy.Tools.Excluded)
	policy.Tools.ApprovalRequired = orEmpty(policy.Tools.ApprovalRequired)
	return State{
		Version:           1,
		Focus:             focus,
		WorkItems:         orEmpty(b.WorkItems),
		ApprovalGates:     orEmpty(g.Approvals),
		ReviewAnnotations: orEmpty(b.Reviews),
		Elicitations:      orEmpty(g.Elicitations),
		ModeRequests:      orEmpty(g.Modes),
		Policy:            policy,
	}
}

// primaryOf is the focus primary: the first kept id. The first requested id
// is the primary when it is kept, and then it is also the first kept id.
func primaryOf(ids []string) *string {
	if len(ids) == 0 {
		return nil
	}
	return strPtr(ids[0])
}

func setFocus(nodeIDs []any, source string, nodes *canvas.State, env *canvas.Env) Focus {
	ids := boundNodeIDs(nodeIDs, nodes)
	return Focus{
		NodeIDs:       ids,
		PrimaryNodeID: primaryOf(ids),
		UpdatedAt:     strPtr(env.Timestamp()),
		Source:        sourcePtr(source),
	}
}

// --- Work items ---

func errInvalidWorkStatus(v string) *messages.Error {
	return messages.BadRequest("%s", `invalid work item status "`+v+`"; expected one of: `+strings.Join(WorkStatuses, ", ")+".")
}

func validateWorkStatus(status *string) *messages.Error {
	if status != nil && !slices.Contains(WorkStatuses, *status) {
		return errInvalidWorkStatus(*status)
	}
	return nil
}

func createWork(in *messages.AxWorkCreateInput, source string, nodes *canvas.State, env *canvas.Env) (*WorkItem, *messages.Error) {
	if in == nil || blank(in.Title) {
		return nil, messages.BadRequest("work item requires a title.")
	}
	if err := validateWorkStatus(in.Status); err != nil {
		return nil, err
	}
	now := env.Timestamp()
	return &WorkItem{
		ID:        env.NewID(prefixWork, idRandLen),
		Title:     *in.Title,
		Status:    enumOr(in.Status, WorkStatuses, "todo"),
		Detail:    optionalString(in.Detail),
		NodeIDs:   boundNodeIDs(in.NodeIDs, nodes),
		CreatedAt: now,
		UpdatedAt: now,
		Source:    sourcePtr(source),
	}, nil
}

func updateWork(old *WorkItem, in *messages.AxWorkUpdateInput, source string, nodes *canvas.State, env *canvas.Env) (*WorkItem, *messages.Error) {
	if in == nil {
		in = &messages.AxWorkUpdateInput{}
	}
	if err := validateWorkStatus(in.Status); err != nil {
		return nil, err
	}
	if old == nil {
		return nil, messages.NotFound("work item not found.")
	}
	w := *old
	if in.Title != nil {
		w.Title = *in.Title
	}
	if in.Status != nil {
		w.Status = *in.Status
	}
	if in.Detail.Set {
		if in.Detail.Null {
			w.Detail = nil
		} else {
			w.Detail = optionalString(&in.Detail.Value)
		}
	}
	if in.NodeIDs != nil {
		w.NodeIDs = boundNodeIDs(in.NodeIDs, nodes)
	}
	w.UpdatedAt = env.Timestamp()
	w.UpdatedBy = sourcePtr(source)
	return &w, nil
}

// --- Review annotations ---

// reviewAnchor resolves the anchor type of a new review (ax.md §3.4): an
// explicit valid anchorType, else node when a non-empty nodeId was given,
// else file.
func reviewAnchor(anchorType, nodeID *string) string {
	if anchorType != nil && slices.Contains(AnchorTypes, *anchorType) {
		return *anchorType
	}
	if nodeID != nil && *nodeID != "" {
		return "node"
	}
	return "file"
}

// reviewRegion keeps the numeric line/endLine and string label of a region
// object; anything that is not an object is no region.
func reviewRegion(v any) *Region {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	r := &Region{}
	if f, ok := jsonnum.Float(m["line"]); ok {
		r.Line = &f
	}
	if f, ok := jsonnum.Float(m["endLine"]); ok {
		r.EndLine = &f
	}
	if s, ok := m["label"].(string); ok {
		r.Label = &s
	}
	return r
}

const errNodeAnchoredReview = "node-anchored review annotation requires a nodeId that exists on the canvas."

func addReview(in *messages.AxReviewAddInput, source string, nodes *canvas.State, env *canvas.Env) (*ReviewAnnotation, *messages.Error) {
	if in == nil || blank(in.Body) {
		return nil, messages.BadRequest("review annotation requires a body.")
	}
	anchor := reviewAnchor(in.AnchorType, in.NodeID)
	r := &ReviewAnnotation{
		Kind:       enumOr(in.Kind, ReviewKinds, "comment"),
		Body:       *in.Body,
		Severity:   enumOr(in.Severity, Severities, "info"),
		Status:     "open",
		AnchorType: anchor,
		Author:     optionalString(in.Author),
		Source:     sourcePtr(source),
	}
	switch anchor {
	case "node":
		if in.NodeID == nil || !liveNode(nodes, *in.NodeID) {
			return nil, messages.BadRequest(errNodeAnchoredReview)
		}
		r.NodeID = strPtr(*in.NodeID)
	case "file":
		r.File = optionalString(in.File)
	case "region":
		r.Region = reviewRegion(in.Region)
	}
	r.ID = env.NewID(prefixReview, idRandLen)
	r.CreatedAt = env.Timestamp()
	r.UpdatedAt = r.CreatedAt
	return r, nil
}

func updateReview(old *ReviewAnnotation, in *messages.AxReviewUpdateInput, source string, env *canvas.Env) *ReviewAnnotation {
	if old == nil {
		return nil
	}
	r := *old
	if in != nil {
		if in.Body != nil {
			r.Body = *in.Body
		}
		r.Status = enumOr(in.Status, ReviewStatuses, r.Status)
		r.Severity = enumOr(in.Severity, Severities, r.Severity)
		r.Kind = enumOr(in.Kind, ReviewKinds, r.Kind)
	}
	r.UpdatedAt = env.Timestamp()
	r.UpdatedBy = sourcePtr(source)
	return &r
}

// --- Policy ---

func mergePolicy(old Policy, in *messages.AxPolicyInput) (Policy, *messages.Error) {
	p := Policy{
		Tools: PolicyTools{
			Allowed:          orEmpty(old.Tools.Allowed),
			Excluded:         orEmpty(old.Tools.Excluded),
			ApprovalRequired: orEmpty(old.Tools.ApprovalRequired),
		},
		Prompt: old.Prompt,
	}
	if in == nil {
		return p, nil
	}
	// Non-object tools/prompt are ignored, as in the reference.
	if tools, ok := rawObject(in.Tools); ok {
		for _, f := range []struct {
			key  string
			dest *[]string
		}{
			{"allowed", &p.Tools.Allowed},
			{"excluded", &p.Tools.Excluded},
			{"approvalRequired", &p.Tools.ApprovalRequired},
		} {
			v, present := tools[f.key]
			if !present {
				continue
			}
			list, err := policyList("tools."+f.key, v)
			if err != nil {
				return old, err
			}
			*f.dest = list
		}
	}
	if prompt, ok := rawObject(in.Prompt); ok {
		if v, present := prompt["systemAppend"]; present {
			p.Prompt.SystemAppend = optionalAny(v)
		}
		if v, present := prompt["mode"]; present {
			p.Prompt.Mode = optionalAny(v)
		}
	}
	return p, nil
}

// rawObject decodes raw when it is a JSON object.
func rawObject(raw json.RawMessage) (map[string]any, bool) {
	trimmed := strings.TrimSpace(string(raw))
	if !strings.HasPrefix(trimmed, "{") {
		return nil, false
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(trimmed), &m); err != nil {
		return nil, false
	}
	return m, true
}

// policyList reads a policy tool list: null clears it, an array of strings
// replaces it, anything else is a 400 naming the field.
func policyList(field string, v any) ([]string, *messages.Error) {
	if v == nil {
		return []string{}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errPolicyList(field)
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, errPolicyList(field)
		}
		out = append(out, s)
	}
	return out, nil
}

func errPolicyList(field string) *messages.Error {
	return messages.InvalidInput("policy %s must be an array of strings.", field).With("field", field)
}

// --- Host capability ---

func reportHost(in *messages.AxHostInput, env *canvas.Env) HostCapability {
	if in == nil {
		in = &messages.AxHostInput{}
	}
	flag := func(key string, top any) bool {
		if v, ok := in.Capabilities[key]; ok {
			return v == true
		}
		return top == true
	}
	raw, _ := in.Raw.(map[string]any)
	return HostCapability{
		Host:             optionalAny(in.Host),
		Canvas:           flag("canvas", in.Canvas),
		Hooks:            flag("hooks", in.Hooks),
		Tools:            flag("tools", in.Tools),
		SessionMessaging: flag("sessionMessaging", in.SessionMessaging),
		Permissions:      flag("permissions", in.Permissions),
		Files:            flag("files", in.Files),
		UIPrompts:        flag("uiPrompts", in.UIPrompts),
		ReportedAt:       env.Timestamp(),
		Raw:              cloneMap(raw),
	}
}
