package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// boardView is what the AxState actor publishes: the board and the latest
// host report. Never modified once published.
type boardView struct {
	Board ax.Board
	Host  *ax.HostCapability
}

// axStateCore is the AxState actor's state, kept in the canvas handle so a
// restarted actor resumes from it (its handlers are pure, so a panic leaves
// it untouched).
type axStateCore struct {
	board ax.Board
	host  *ax.HostCapability
	ords  recordOrds
	// orphans remembers what deleting a node took from the board, so an
	// undo of the deletion can put it back.
	orphans orphanMemory[ax.Orphaned]
	w       axWriter
}

// axStateActor owns a canvas's focus, work items, review annotations,
// policy and host capability (the AX shell runs it).
type axStateActor struct {
	ref *canvasRef
}

func newAxStateActor(ref *canvasRef) actor.Actor {
	return &axShell[*boardCall, *boardResult]{ref: ref, name: "ax-state", label: "AxState",
		handlers: boardHandlers, owner: &axStateActor{ref: ref}}
}

func (a *axStateActor) writer() *axWriter     { return &a.ref.axState.w }
func (a *axStateActor) timers() *deadlines    { return nil }
func (a *axStateActor) receive(actor.Context) {}

func (a *axStateActor) rollback() {
	v := a.ref.boardView.Load()
	a.ref.axState.board, a.ref.axState.host = v.Board, v.Host
}

// boardResult is what an AxState handler produces.
type boardResult struct {
	board ax.Board
	host  *ax.HostCapability
	body  map[string]any
	frame map[string]any // the ax-state-changed payload
}

// boardCall is what an AxState handler gets.
type boardCall struct {
	core  *axStateCore
	env   *messages.Envelope
	nodes *canvas.State // the latest published layout
	e     *canvas.Env
	ref   *canvasRef
}

type boardHandler = axHandler[*boardCall, *boardResult]

func (a *axStateActor) newCall(req *invokeRequest) *boardCall {
	return &boardCall{core: a.ref.axState, env: req.env, nodes: a.ref.view.Load(), e: a.ref.sys.cfg.Env, ref: a.ref}
}

func (a *axStateActor) commit(ctx actor.Context, req *invokeRequest, res *boardResult, sender *actor.PID) {
	a.apply(ctx, res.board, res.host, func(ctx actor.Context) {
		a.ref.answerWrite(ctx, req, sender, evAxStateChanged, res.frame, res.body)
	}, failTo(sender))
}

// apply makes board and host the working state, stores what changed and
// publishes them once durable, then runs then.
func (a *axStateActor) apply(ctx actor.Context, board ax.Board, host *ax.HostCapability,
	then func(actor.Context), fail func(actor.Context, *messages.Error)) {
	core := a.ref.axState
	cid := a.ref.id
	ops := boardOps(cid, &core.ords, core.board, board)
	if host != core.host && host != nil {
		ops = append(ops, persistence.AxSet(persistence.AxHostKey(cid), host))
	}
	core.board, core.host = board, host
	view := &boardView{Board: board, Host: host}
	core.w.write(ctx, a.ref, ops, func(ctx actor.Context) {
		a.ref.boardView.Store(view)
		then(ctx)
	}, fail)
}

// effect applies the AX side of a committed layout write (node deletion or
// restoration, snapshot restore, clear, their undo and redo, node focus),
// then hands the effect on to Gates.
func (a *axStateActor) effect(ctx actor.Context, eff *axEffect) {
	core := a.ref.axState
	env := a.ref.sys.cfg.Env
	board := core.board
	for _, n := range eff.removed {
		var o ax.Orphaned
		board, o = ax.OrphanBoard(board, n.id)
		if o.Any() {
			core.orphans.put(n.id, o)
		}
		eff.boardOrphans = append(eff.boardOrphans, o)
	}
	for _, id := range eff.restored {
		if o, ok := core.orphans.take(id); ok {
			board = ax.RestoreBoard(board, o)
		}
	}
	if s := eff.swap; s != nil {
		target, _ := ax.Split(s.target)
		if s.revert {
			board = ax.RevertBoard(board, target, s.since)
		} else {
			board = ax.ReplaceBoard(board, target)
		}
	}
	var focusFrame map[string]any
	if eff.focus != nil {
		board.Focus = ax.SetFocus([]any{*eff.focus}, "api", a.ref.view.Load(), env)
		focusFrame = map[string]any{"focus": board.Focus}
	}
	eff.boardChanged = !sameBoard(core.board, board)
	a.apply(ctx, board, core.host, func(ctx actor.Context) {
		if focusFrame != nil {
			a.ref.emitAX(ctx, evAxStateChanged, focusFrame)
		}
		ctx.Send(a.ref.gatesPID.Load(), eff)
	}, func(ctx actor.Context, err *messages.Error) { eff.finish(ctx, err) })
}

// boardHandlers are the AxState write handlers. Each is pure: it reads the
// core and returns the next board.
var boardHandlers = map[string]boardHandler{
	"ax.focus.set": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxFocusInput)
		b := c.core.board
		b.Focus = ax.SetFocus(in.NodeIDs, axSource(in.Source, c.env), c.nodes, c.e)
		return &boardResult{board: b, host: c.core.host, body: okBody("focus", b.Focus), frame: map[string]any{"focus": b.Focus}}, nil
	},
	"ax.patch": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxPatchInput)
		focus, err := decodePatchFocus(in.Focus)
		if err != nil {
			return nil, err
		}
		b := c.core.board
		b.Focus = ax.SetFocus(focus.NodeIDs, axSource(focus.Source, c.env), c.nodes, c.e)
		return &boardResult{board: b, host: c.core.host,
			body:  map[string]any{"ok": true, "state": ax.StateOf(b, *c.ref.gatesView.Load())},
			frame: map[string]any{"focus": b.Focus}}, nil
	},
	"ax.policy.set": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxPolicyInput)
		p, err := ax.MergePolicy(c.core.board.Policy, in)
		if err != nil {
			return nil, err
		}
		b := c.core.board
		b.Policy = p
		return &boardResult{board: b, host: c.core.host, body: okBody("policy", p), frame: map[string]any{"policy": p}}, nil
	},
	"ax.host-capability.report": func(c *boardCall) (*boardResult, *messages.Error) {
		h := ax.ReportHost(c.env.Args.(*messages.AxHostInput), c.e)
		return &boardResult{board: c.core.board, host: &h, body: okBody("host", &h), frame: map[string]any{"host": &h}}, nil
	},
	"ax.work.create": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxWorkCreateInput)
		w, err := ax.CreateWork(in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		b := c.core.board
		b.WorkItems = upsert(b.WorkItems, w, ax.WorkID)
		return &boardResult{board: b, host: c.core.host, body: okBody("workItem", w), frame: map[string]any{"workItem": w}}, nil
	},
	"ax.work.update": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxWorkUpdateInput)
		if err := ax.ValidateWorkStatus(in.Status); err != nil {
			return nil, err
		}
		old := find(c.core.board.WorkItems, in.ID, ax.WorkID)
		if old == nil {
			return nil, messages.NotFound("work item not found.")
		}
		w, err := ax.UpdateWork(old, in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		b := c.core.board
		b.WorkItems = upsert(b.WorkItems, w, ax.WorkID)
		return &boardResult{board: b, host: c.core.host, body: okBody("workItem", w), frame: map[string]any{"workItem": w}}, nil
	},
	"ax.review.add": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxReviewAddInput)
		r, err := ax.AddReview(in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		b := c.core.board
		b.Reviews = upsert(b.Reviews, r, ax.ReviewID)
		return &boardResult{board: b, host: c.core.host, body: okBody("reviewAnnotation", r), frame: map[string]any{"reviewAnnotation": r}}, nil
	},
	"ax.review.update": func(c *boardCall) (*boardResult, *messages.Error) {
		in := c.env.Args.(*messages.AxReviewUpdateInput)
		old := find(c.core.board.Reviews, in.ID, ax.ReviewID)
		if old == nil {
			return nil, messages.NotFound("review annotation not found.")
		}
		r := ax.UpdateReview(old, in, axSource(in.Source, c.env), c.e)
		b := c.core.board
		b.Reviews = upsert(b.Reviews, r, ax.ReviewID)
		return &boardResult{board: b, host: c.core.host, body: okBody("reviewAnnotation", r), frame: map[string]any{"reviewAnnotation": r}}, nil
	},
}

// boardOps are the store records for a board change: singletons that
// changed, records added or changed, records removed.
func boardOps(cid string, ords *recordOrds, old, next ax.Board) []persistence.Op {
	var ops []persistence.Op
	if !sameFocus(old.Focus, next.Focus) {
		ops = append(ops, persistence.AxSet(persistence.AxFocusKey(cid), next.Focus))
	}
	if !samePolicy(old.Policy, next.Policy) {
		ops = append(ops, persistence.AxSet(persistence.AxPolicyKey(cid), next.Policy))
	}
	ops = listOps(ops, cid, persistence.AxWork, ords, old.WorkItems, next.WorkItems, ax.WorkID)
	ops = listOps(ops, cid, persistence.AxReview, ords, old.Reviews, next.Reviews, ax.ReviewID)
	return ops
}

func sameBoard(a, b ax.Board) bool {
	return sameFocus(a.Focus, b.Focus) && samePolicy(a.Policy, b.Policy) &&
		sameList(a.WorkItems, b.WorkItems) && sameList(a.Reviews, b.Reviews)
}

func sameFocus(a, b ax.Focus) bool {
	return sameSlice(a.NodeIDs, b.NodeIDs) && a.PrimaryNodeID == b.PrimaryNodeID && a.UpdatedAt == b.UpdatedAt && a.Source == b.Source
}

func samePolicy(a, b ax.Policy) bool {
	return sameSlice(a.Tools.Allowed, b.Tools.Allowed) && sameSlice(a.Tools.Excluded, b.Tools.Excluded) &&
		sameSlice(a.Tools.ApprovalRequired, b.Tools.ApprovalRequired) &&
		a.Prompt.SystemAppend == b.Prompt.SystemAppend && a.Prompt.Mode == b.Prompt.Mode
}
