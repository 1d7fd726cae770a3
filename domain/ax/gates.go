package ax

import (
	"slices"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Gates: approval, elicitation and mode requests (ax.md §3.3, §3.5, §3.6,
// §5.1). Resolving never overwrites Source (who asked); ResolvedBy records
// who decided.

func requestApproval(in *messages.AxApprovalRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*ApprovalGate, *messages.Error) {
	if in == nil || blank(in.Title) {
		return nil, messages.BadRequest("approval request requires a title.")
	}
	return &ApprovalGate{
		ID:        env.NewID(prefixApproval, idRandLen),
		Title:     *in.Title,
		Detail:    optionalString(in.Detail),
		Action:    optionalString(in.Action),
		Status:    statusPending,
		NodeIDs:   boundNodeIDs(in.NodeIDs, nodes),
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

const errDecision = "resolve requires decision approved or rejected."

func validateDecision(decision *string) (string, *messages.Error) {
	if decision == nil || !slices.Contains(Decisions, *decision) {
		return "", messages.BadRequest(errDecision)
	}
	return *decision, nil
}

func resolveApproval(old *ApprovalGate, decision string, resolution *string, source string, env *canvas.Env) (*ApprovalGate, *messages.Error) {
	if !slices.Contains(Decisions, decision) {
		return nil, messages.BadRequest(errDecision)
	}
	if old == nil || old.Status != statusPending {
		return nil, messages.NotFound("approval gate not found or already resolved.")
	}
	g := *old
	g.Status = decision
	g.ResolvedAt = strPtr(env.Timestamp())
	g.Resolution = optionalString(resolution)
	g.ResolvedBy = sourcePtr(source)
	return &g, nil
}

func requestElicitation(in *messages.AxElicitationRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*Elicitation, *messages.Error) {
	if in == nil || blank(in.Prompt) {
		return nil, messages.BadRequest("elicitation requires a prompt.")
	}
	fields, _ := stringsOnly(in.Fields)
	return &Elicitation{
		ID:        env.NewID(prefixElicitation, idRandLen),
		Prompt:    *in.Prompt,
		Fields:    orEmpty(fields),
		Status:    statusPending,
		NodeIDs:   boundNodeIDs(in.NodeIDs, nodes),
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

func respondElicitation(old *Elicitation, response any, source string, env *canvas.Env) (*Elicitation, *messages.Error) {
	if old == nil || old.Status != statusPending {
		return nil, messages.NotFound("elicitation not found or already answered.")
	}
	e := *old
	if m, ok := response.(map[string]any); ok {
		e.Response = cloneMap(m)
	} else {
		e.Response = map[string]any{}
	}
	e.Status = statusAnswered
	e.ResolvedAt = strPtr(env.Timestamp())
	e.ResolvedBy = sourcePtr(source)
	return &e, nil
}

func requestMode(in *messages.AxModeRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*ModeRequest, *messages.Error) {
	if in == nil || in.Mode == nil || !slices.Contains(Modes, *in.Mode) {
		return nil, messages.BadRequest("mode request requires mode plan|execute|autonomous.")
	}
	return &ModeRequest{
		ID:        env.NewID(prefixMode, idRandLen),
		Mode:      *in.Mode,
		Reason:    optionalString(in.Reason),
		Status:    statusPending,
		NodeIDs:   boundNodeIDs(in.NodeIDs, nodes),
		CreatedAt: env.Timestamp(),
		Source:    sourcePtr(source),
	}, nil
}

func resolveMode(old *ModeRequest, decision string, resolution *string, source string, env *canvas.Env) (*ModeRequest, *messages.Error) {
	if !slices.Contains(Decisions, decision) {
		return nil, messages.BadRequest(errDecision)
	}
	if old == nil || old.Status != statusPending {
		return nil, messages.NotFound("mode request not found or already resolved.")
	}
	m := *old
	m.Status = decision
	m.ResolvedAt = strPtr(env.Timestamp())
	m.Resolution = optionalString(resolution)
	m.ResolvedBy = sourcePtr(source)
	return &m, nil
}
