package actors

import (
	"context"
	"fmt"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// interact runs a node-originated interaction (ax.md §8) with our
// additions: a sandboxed surface must present the server-issued surface
// token of its node, the workbench surface (no node; the human's answers)
// the canvas's workbench token and is recorded as the browser, and the
// tool policy applies to the interaction type (and to the command an
// ax.command.invoke names).
//
// The reply is the reference's public result: {ok:true, type, sourceNodeId,
// primitive} or {ok:false, status, code, error[, approvalGate]} with that
// status. Every outcome emits ax-interaction; an accepted one emits it just
// before the primitive's own frame.
func (s *System) interact(ctx context.Context, ref *canvasRef, env *messages.Envelope) (*messages.Reply, error) {
	in := env.Args.(*messages.AxInteractionInput)
	nodes := ref.view.Load()
	it, rej := ax.ParseInteraction(in)
	if rej != nil {
		return s.reject(ref, rej, nil), nil
	}
	if rej = ax.CheckInteraction(it, nodes); rej != nil {
		return s.reject(ref, rej, nil), nil
	}
	if it.Scoped && !ax.ValidSurfaceToken(s.cfg.SurfaceSecret, ref.id, it.SourceNodeID, in.SurfaceToken) {
		return s.reject(ref, &ax.Rejection{Status: 403, Code: "invalid-surface-token", Type: it.Type, SourceNodeID: it.SourceNodeID,
			Error: fmt.Sprintf("Surface %q must present the surface token issued for node %q.", it.SourceSurface, it.SourceNodeID)}, nil), nil
	}
	if it.SourceSurface == ax.WorkbenchSurface && !ax.ValidWorkbenchToken(s.cfg.SurfaceSecret, ref.id, in.SurfaceToken) {
		return s.reject(ref, &ax.Rejection{Status: 403, Code: "invalid-surface-token", Type: it.Type, SourceNodeID: it.SourceNodeID,
			Error: "The workbench must present the canvas's workbench token (GET /api/canvas/ax/surface-token?surface=workbench)."}, nil), nil
	}
	action, rej := ax.InteractionAction(it, nodes)
	if rej != nil {
		return s.reject(ref, rej, nil), nil
	}
	if rej = preflight(ref, it, action); rej != nil {
		return s.reject(ref, rej, nil), nil
	}
	source := axSource(in.Source, env)
	if it.SourceSurface == ax.WorkbenchSurface {
		source = ax.WorkbenchSource // the person deciding is at the browser
	}
	// The policy applies to the interaction type here, and to the command
	// an ax.command.invoke names when the command step runs.
	if perr := s.checkPolicy(ctx, ref, it.Type, source); perr != nil {
		return s.reject(ref, &ax.Rejection{Status: perr.Status, Code: string(perr.Code), Error: perr.Message,
			Type: it.Type, SourceNodeID: it.SourceNodeID}, gateOf(perr)), nil
	}
	sub := *env
	sub.Source = source
	before := map[string]any{"ok": true, "type": it.Type, "sourceNodeId": it.SourceNodeID}
	reply, err := s.step(ctx, ref, action.Op, &sub, action.Input, before)
	if err != nil {
		e := messages.AsError(err)
		return s.reject(ref, &ax.Rejection{Status: e.Status, Code: stepCode(it.Type, e), Error: e.Message,
			Type: it.Type, SourceNodeID: it.SourceNodeID}, gateOf(e)), nil
	}
	return &messages.Reply{Body: map[string]any{"ok": true, "type": it.Type, "sourceNodeId": it.SourceNodeID,
		"primitive": primitiveOf(reply.Body)}}, nil
}

// reject emits the ax-interaction outcome of a refused interaction and
// builds its reply.
func (s *System) reject(ref *canvasRef, r *ax.Rejection, gate *ax.ApprovalGate) *messages.Reply {
	frame := map[string]any{"ok": false, "type": r.Type, "sourceNodeId": r.SourceNodeID, "code": r.Code, "error": r.Error}
	if pid := ref.eventsPID.Load(); pid != nil {
		s.as.Root.Send(pid, &publish{items: []publishItem{{events: []canvas.Event{{Name: evAxInteraction, Data: frame}}}}})
	}
	body := map[string]any{"ok": false, "status": r.Status, "code": r.Code, "error": r.Error}
	if gate != nil {
		body["approvalGate"] = gate
	}
	return &messages.Reply{Status: r.Status, Body: body}
}

// preflight runs the reference's target checks (ax.md §8.2, 7a-7d) against
// the published views, so a refused interaction never emits ok:true.
func preflight(ref *canvasRef, it *ax.Interaction, a ax.Action) *ax.Rejection {
	rej := func(status int, code, format string, args ...any) *ax.Rejection {
		return &ax.Rejection{Status: status, Code: code, Error: fmt.Sprintf(format, args...), Type: it.Type, SourceNodeID: it.SourceNodeID}
	}
	switch in := a.Input.(type) {
	case *messages.AxWorkUpdateInput:
		if find(ref.boardView.Load().Board.WorkItems, in.ID, ax.WorkID) == nil {
			return rej(404, "work-item-not-found", "Work item %q not found.", in.ID)
		}
	case *messages.AxResolveInput:
		if a.Op == "ax.mode.resolve" {
			if m := find(ref.gatesView.Load().Modes, in.ID, ax.ModeID); m == nil || m.Status != "pending" {
				return rej(404, ax.RejectModeRequestNotFound, "Mode request %q not found or already resolved.", in.ID)
			}
			break
		}
		if g := find(ref.gatesView.Load().Approvals, in.ID, ax.ApprovalID); g == nil || g.Status != "pending" {
			return rej(404, "approval-not-found", "Approval %q not found or already resolved.", in.ID)
		}
	case *messages.AxElicitationRespondInput:
		if e := find(ref.gatesView.Load().Elicitations, in.ID, ax.ElicitationID); e == nil || e.Status != "pending" {
			return rej(404, ax.RejectElicitationNotFound, "Elicitation %q not found or already answered.", in.ID)
		}
	case *messages.AxCommandInput:
		name, _ := in.Name.(string)
		known := false
		for _, c := range ax.Commands() {
			known = known || c.Name == name
		}
		if !known {
			return rej(400, "unknown-command", "Unknown command %q.", name)
		}
	}
	return nil
}

// gateOf is the approval gate a policy refusal carries, if any.
func gateOf(e *messages.Error) *ax.ApprovalGate {
	g, _ := e.Extra["approvalGate"].(*ax.ApprovalGate)
	return g
}

// stepCode is the rejection code of a primitive that failed after the
// preflight (a race with another writer, or the store).
func stepCode(typ string, e *messages.Error) string {
	switch {
	case e.Status == 404 && typ == "ax.work.update":
		return "work-item-not-found"
	case e.Status == 404 && typ == "ax.approval.resolve":
		return "approval-not-found"
	case e.Status == 404 && typ == "ax.elicitation.respond":
		return ax.RejectElicitationNotFound
	case e.Status == 404 && typ == "ax.mode.resolve":
		return ax.RejectModeRequestNotFound
	case e.Status == 400 && typ == "ax.review.add":
		return "invalid-review-anchor"
	case e.Status == 400 && e.Code != messages.CodeInvalidInput:
		return "invalid-payload"
	}
	return string(e.Code)
}

// primitiveOf is the record in a primitive's {ok:true, <key>: record} reply.
func primitiveOf(body any) any {
	m, ok := body.(map[string]any)
	if !ok {
		return body
	}
	for k, v := range m {
		if k != "ok" {
			return v
		}
	}
	return nil
}
