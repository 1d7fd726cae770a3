package ax

import (
	"slices"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Policy enforcement. Unlike the reference (ax.md §7: declarative only),
// the server enforces the canvas policy for commands and interactions.

// Policy refusal codes (PolicyDecision.Code).
const (
	CodeToolExcluded                   = messages.CodeToolExcluded
	CodeToolNotAllowed   messages.Code = "tool-not-allowed"
	CodeApprovalRequired               = messages.CodeApprovalRequired
)

func checkPolicy(p Policy, name string) PolicyDecision {
	switch {
	case slices.Contains(p.Tools.Excluded, name):
		return PolicyDecision{Code: CodeToolExcluded, Message: `"` + name + `" is excluded by the canvas policy.`}
	case len(p.Tools.Allowed) > 0 && !slices.Contains(p.Tools.Allowed, name):
		return PolicyDecision{Code: CodeToolNotAllowed, Message: `"` + name + `" is not in the canvas policy's allowed tools.`}
	case slices.Contains(p.Tools.ApprovalRequired, name):
		// Fail closed: not Allowed until AuthorizeCall finds an approval.
		return PolicyDecision{NeedsApproval: true, Code: CodeApprovalRequired,
			Message: `"` + name + `" requires an approved "` + PolicyAction(name) + `" approval gate.`}
	}
	return PolicyDecision{Allowed: true}
}

func authorizeCall(g GateSet, name, source string, env *canvas.Env) (GateSet, bool, *ApprovalGate, bool) {
	action := PolicyAction(name)
	isAction := func(a *ApprovalGate) bool { return a.Action != nil && *a.Action == action }

	// An approved, unconsumed gate allows exactly one call.
	if i := slices.IndexFunc(g.Approvals, func(a *ApprovalGate) bool {
		return isAction(a) && a.Status == "approved" && a.ConsumedAt == nil
	}); i >= 0 {
		c := *g.Approvals[i]
		c.ConsumedAt = strPtr(env.Timestamp())
		next := g
		next.Approvals = slices.Clone(g.Approvals)
		next.Approvals[i] = &c
		return next, true, &c, false
	}
	// A pending gate for the call is the one to wait for.
	if i := slices.IndexFunc(g.Approvals, func(a *ApprovalGate) bool {
		return isAction(a) && a.Status == statusPending
	}); i >= 0 {
		return g, false, g.Approvals[i], false
	}
	gate := &ApprovalGate{
		ID:        env.NewID(prefixApproval, idRandLen),
		Title:     `Approve "` + name + `"`,
		Detail:    strPtr(`The canvas policy requires approval before "` + name + `" runs; approving allows one call.`),
		Action:    strPtr(action),
		Status:    statusPending,
		NodeIDs:   []string{},
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}
	next := g
	next.Approvals = append(slices.Clone(orEmpty(g.Approvals)), gate)
	return next, false, gate, true
}
