package actors

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// Gate kinds, as the await operations name them.
const (
	gateApproval    = "approval"
	gateElicitation = "elicitation"
	gateMode        = "mode"
)

// gateKey is the reply key of a gate kind ({ok, <key>, pending}).
var gateKey = map[string]string{gateApproval: "approvalGate", gateElicitation: "elicitation", gateMode: "modeRequest"}

// awaitGate parks a waiter on a gate until it is decided, it vanishes, the
// wait ends, or the caller cancels. The reply goes to a channel the caller
// selects on together with its own context, so a caller that goes away
// cancels at once (cancelWait) instead of holding a future.
type awaitGate struct {
	kind, id string
	wait     time.Duration
	token    uint64
	reply    chan *invokeResult
}

// cancelWait removes a parked waiter (its caller went away).
type cancelWait struct{ token uint64 }

// waitTick is the deadline timer's message: answer the waiters that are due.
type waitTick struct{}

// authorizeCall asks Gates to apply approval-required policy to a call
// (see ax.AuthorizeCall). The reply is an *authorization.
type authorizeCall struct {
	name, source string
}

type authorization struct {
	allowed bool
	gate    *ax.ApprovalGate
	err     *messages.Error
}

type gateWaiter struct {
	token    uint64
	kind, id string
	reply    chan *invokeResult
	dl       *deadline
}

// gatesCore is the Gates actor's state (kept in the canvas handle).
type gatesCore struct {
	gates   ax.GateSet
	ords    recordOrds
	orphans orphanMemory[[]string]
	waiters map[string]map[uint64]*gateWaiter // gate id -> token -> waiter
	byToken map[uint64]*gateWaiter
	timers  deadlines
	w       axWriter
}

// gatesActor owns a canvas's approval gates, elicitations and mode requests
// and the waiters parked on them (the AX shell runs it).
type gatesActor struct {
	ref *canvasRef
}

func newGatesActor(ref *canvasRef) actor.Actor {
	return &axShell[*gateCall, *gateResult]{ref: ref, name: "gates", label: "Gates",
		handlers: gateHandlers, owner: &gatesActor{ref: ref}}
}

func (a *gatesActor) writer() *axWriter  { return &a.ref.gates.w }
func (a *gatesActor) timers() *deadlines { return &a.ref.gates.timers }
func (a *gatesActor) rollback()          { a.ref.gates.gates = *a.ref.gatesView.Load() }

func (a *gatesActor) receive(ctx actor.Context) {
	core := a.ref.gates
	switch m := ctx.Message().(type) {
	case *awaitGate:
		a.await(m)
	case *cancelWait:
		if w := core.byToken[m.token]; w != nil {
			a.drop(w)
		}
	case waitTick:
		view := *a.ref.gatesView.Load()
		for _, o := range core.timers.due(time.Now()) {
			w := o.(*gateWaiter)
			w.dl = nil
			a.drop(w)
			w.reply <- &invokeResult{reply: gateReply(w.kind, lookupGate(view, w.kind, w.id))}
		}
	case *authorizeCall:
		a.authorize(ctx, m)
	}
}

// gateCall is what a Gates handler gets.
type gateCall struct {
	gates ax.GateSet
	env   *messages.Envelope
	nodes *canvas.State
	e     *canvas.Env
}

// gateResult is what a Gates handler produces: the next gate set, the reply
// body, the ax-state-changed payload, and the gate decided (to wake its
// waiters).
type gateResult struct {
	gates   ax.GateSet
	body    map[string]any
	frame   map[string]any
	decided string
}

type gateHandler = axHandler[*gateCall, *gateResult]

func (a *gatesActor) newCall(req *invokeRequest) *gateCall {
	return &gateCall{gates: a.ref.gates.gates, env: req.env, nodes: a.ref.view.Load(), e: a.ref.sys.cfg.Env}
}

func (a *gatesActor) commit(ctx actor.Context, req *invokeRequest, res *gateResult, sender *actor.PID) {
	a.apply(ctx, res.gates, func(ctx actor.Context) {
		a.ref.answerWrite(ctx, req, sender, evAxStateChanged, res.frame, res.body)
		if res.decided != "" {
			a.wake(res.decided)
		}
	}, failTo(sender))
}

// apply makes gates the working state, stores what changed and publishes it
// once durable, then runs then.
func (a *gatesActor) apply(ctx actor.Context, gates ax.GateSet, then func(actor.Context), fail func(actor.Context, *messages.Error)) {
	core := a.ref.gates
	cid := a.ref.id
	ops := listOps(nil, cid, persistence.AxApproval, &core.ords, core.gates.Approvals, gates.Approvals, ax.ApprovalID)
	ops = listOps(ops, cid, persistence.AxElicit, &core.ords, core.gates.Elicitations, gates.Elicitations, ax.ElicitationID)
	ops = listOps(ops, cid, persistence.AxMode, &core.ords, core.gates.Modes, gates.Modes, ax.ModeID)
	core.gates = gates
	view := &gates
	core.w.write(ctx, a.ref, ops, func(ctx actor.Context) {
		a.ref.gatesView.Store(view)
		then(ctx)
	}, fail)
}

// await answers at once when the gate is missing, decided, or no wait was
// asked for; otherwise it parks the waiter.
func (a *gatesActor) await(m *awaitGate) {
	core := a.ref.gates
	rec := lookupGate(*a.ref.gatesView.Load(), m.kind, m.id)
	if rec == nil || !gatePending(rec) || m.wait <= 0 {
		m.reply <- &invokeResult{reply: gateReply(m.kind, rec)}
		return
	}
	w := &gateWaiter{token: m.token, kind: m.kind, id: m.id, reply: m.reply}
	if core.waiters == nil {
		core.waiters, core.byToken = map[string]map[uint64]*gateWaiter{}, map[uint64]*gateWaiter{}
	}
	set := core.waiters[m.id]
	if set == nil {
		set = map[uint64]*gateWaiter{}
		core.waiters[m.id] = set
	}
	set[m.token] = w
	core.byToken[m.token] = w
	w.dl = core.timers.add(time.Now().Add(m.wait), w)
	a.ref.gateWaiters.Add(1)
}

// drop removes a waiter without answering it.
func (a *gatesActor) drop(w *gateWaiter) {
	core := a.ref.gates
	if _, ok := core.byToken[w.token]; !ok {
		return
	}
	delete(core.byToken, w.token)
	if set := core.waiters[w.id]; set != nil {
		delete(set, w.token)
		if len(set) == 0 {
			delete(core.waiters, w.id)
		}
	}
	if w.dl != nil {
		core.timers.remove(w.dl)
		w.dl = nil
	}
	a.ref.gateWaiters.Add(-1)
}

// wake answers every waiter on gate id whose gate is now decided or gone.
// The reply is built once and shared: every waiter gets the same record.
func (a *gatesActor) wake(id string) {
	core := a.ref.gates
	set := core.waiters[id]
	if len(set) == 0 {
		return
	}
	view := *a.ref.gatesView.Load()
	var replies [3]*invokeResult
	for _, w := range set {
		rec := lookupGate(view, w.kind, w.id)
		if rec != nil && gatePending(rec) {
			continue
		}
		i := gateIndex(w.kind)
		if replies[i] == nil {
			replies[i] = &invokeResult{reply: gateReply(w.kind, rec)}
		}
		a.drop(w)
		w.reply <- replies[i]
	}
}

// wakeAll re-checks every parked waiter (after a wholesale change).
func (a *gatesActor) wakeAll() {
	for id := range a.ref.gates.waiters {
		a.wake(id)
	}
}

func (a *gatesActor) authorize(ctx actor.Context, m *authorizeCall) {
	core := a.ref.gates
	sender := ctx.Sender()
	if core.w.broken(a.ref) {
		ctx.Respond(&authorization{err: core.w.failed})
		return
	}
	next, allowed, gate, created := ax.AuthorizeCall(core.gates, m.name, m.source, a.ref.sys.cfg.Env)
	res := &authorization{allowed: allowed, gate: gate}
	a.apply(ctx, next, func(ctx actor.Context) {
		if created {
			a.ref.emitAX(ctx, evAxStateChanged, map[string]any{"approvalGate": gate})
		}
		ctx.Send(sender, res)
	}, func(ctx actor.Context, err *messages.Error) { ctx.Send(sender, &authorization{err: err}) })
}

// effect applies the gate side of a committed layout write, publishes it,
// answers waiters whose gates it decided or removed, and passes the effect
// on to Timeline (audit notes) or answers the write.
func (a *gatesActor) effect(ctx actor.Context, eff *axEffect) {
	core := a.ref.gates
	gates := core.gates
	for _, n := range eff.removed {
		var ids []string
		gates, ids = ax.OrphanGates(gates, n.id)
		if len(ids) > 0 {
			core.orphans.put(n.id, ids)
		}
		eff.gateOrphans = append(eff.gateOrphans, ids)
	}
	for _, id := range eff.restored {
		if ids, ok := core.orphans.take(id); ok {
			gates = ax.RestoreGates(gates, id, ids)
		}
	}
	if s := eff.swap; s != nil {
		_, target := ax.Split(s.target)
		if s.revert {
			gates = ax.RevertGates(gates, target, s.since)
		} else {
			gates = ax.ReplaceGates(gates, target)
		}
	}
	changed := eff.boardChanged || !sameGates(core.gates, gates)
	a.apply(ctx, gates, func(ctx actor.Context) {
		if changed && eff.focus == nil {
			state := ax.StateOf(a.ref.boardView.Load().Board, *a.ref.gatesView.Load())
			a.ref.emitAX(ctx, evAxStateChanged, map[string]any{"state": state, "reason": eff.reason()})
		}
		if eff.swap != nil {
			a.wakeAll()
		}
		if eff.audit && len(eff.removed) > 0 {
			ctx.Send(a.ref.timelinePID.Load(), eff)
			return
		}
		eff.finish(ctx, nil)
	}, func(ctx actor.Context, err *messages.Error) { eff.finish(ctx, err) })
}

// gateHandlers are the Gates write handlers (pure).
var gateHandlers = map[string]gateHandler{
	"ax.approval.request": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxApprovalRequestInput)
		g, err := ax.RequestApproval(in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Approvals = upsert(next.Approvals, g, ax.ApprovalID)
		return &gateResult{gates: next, body: okBody("approvalGate", g), frame: map[string]any{"approvalGate": g}}, nil
	},
	"ax.approval.resolve": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxResolveInput)
		decision, err := ax.ValidateDecision(in.Decision)
		if err != nil {
			return nil, err
		}
		g, err := ax.ResolveApproval(find(c.gates.Approvals, in.ID, ax.ApprovalID), decision, in.Resolution, axSource(in.Source, c.env), c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Approvals = upsert(next.Approvals, g, ax.ApprovalID)
		return &gateResult{gates: next, body: okBody("approvalGate", g), frame: map[string]any{"approvalGate": g}, decided: g.ID}, nil
	},
	"ax.elicitation.request": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxElicitationRequestInput)
		el, err := ax.RequestElicitation(in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Elicitations = upsert(next.Elicitations, el, ax.ElicitationID)
		return &gateResult{gates: next, body: okBody("elicitation", el), frame: map[string]any{"elicitation": el}}, nil
	},
	"ax.elicitation.respond": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxElicitationRespondInput)
		el, err := ax.RespondElicitation(find(c.gates.Elicitations, in.ID, ax.ElicitationID), in.Response, axSource(in.Source, c.env), c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Elicitations = upsert(next.Elicitations, el, ax.ElicitationID)
		return &gateResult{gates: next, body: okBody("elicitation", el), frame: map[string]any{"elicitation": el}, decided: el.ID}, nil
	},
	"ax.mode.request": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxModeRequestInput)
		m, err := ax.RequestMode(in, axSource(in.Source, c.env), c.nodes, c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Modes = upsert(next.Modes, m, ax.ModeID)
		return &gateResult{gates: next, body: okBody("modeRequest", m), frame: map[string]any{"modeRequest": m}}, nil
	},
	"ax.mode.resolve": func(c *gateCall) (*gateResult, *messages.Error) {
		in := c.env.Args.(*messages.AxResolveInput)
		decision, err := ax.ValidateDecision(in.Decision)
		if err != nil {
			return nil, err
		}
		m, err := ax.ResolveMode(find(c.gates.Modes, in.ID, ax.ModeID), decision, in.Resolution, axSource(in.Source, c.env), c.e)
		if err != nil {
			return nil, err
		}
		next := c.gates
		next.Modes = upsert(next.Modes, m, ax.ModeID)
		return &gateResult{gates: next, body: okBody("modeRequest", m), frame: map[string]any{"modeRequest": m}, decided: m.ID}, nil
	},
}

func sameGates(a, b ax.GateSet) bool {
	return sameList(a.Approvals, b.Approvals) && sameList(a.Elicitations, b.Elicitations) && sameList(a.Modes, b.Modes)
}

// lookupGate returns the record of a gate (nil when there is none) as an
// interface holding a typed pointer.
func lookupGate(g ax.GateSet, kind, id string) any {
	switch kind {
	case gateApproval:
		if r := find(g.Approvals, id, ax.ApprovalID); r != nil {
			return r
		}
	case gateElicitation:
		if r := find(g.Elicitations, id, ax.ElicitationID); r != nil {
			return r
		}
	case gateMode:
		if r := find(g.Modes, id, ax.ModeID); r != nil {
			return r
		}
	}
	return nil
}

func gatePending(rec any) bool {
	switch r := rec.(type) {
	case *ax.ApprovalGate:
		return r.Status == "pending"
	case *ax.Elicitation:
		return r.Status == "pending"
	case *ax.ModeRequest:
		return r.Status == "pending"
	}
	return false
}

func gateIndex(kind string) int {
	switch kind {
	case gateElicitation:
		return 1
	case gateMode:
		return 2
	}
	return 0
}

// gateReply is the await reply {ok, <key>, pending} (keys in the
// reference's order), 404 when the gate does not exist. It is rendered
// once, so a resolve that wakes many waiters serialises the gate once.
func gateReply(kind string, rec any) *messages.Reply {
	if rec == nil {
		return &messages.Reply{Status: 404, Body: json.RawMessage(`{"ok":false,"` + gateKey[kind] + `":null,"pending":false}`)}
	}
	js, err := json.Marshal(rec)
	if err != nil {
		return &messages.Reply{Status: 500, Body: messages.Internal("render gate: %v", err).Body()}
	}
	body := make([]byte, 0, len(js)+48)
	body = append(body, `{"ok":true,"`...)
	body = append(body, gateKey[kind]...)
	body = append(body, `":`...)
	body = append(body, js...)
	body = append(body, `,"pending":`...)
	body = strconv.AppendBool(body, gatePending(rec))
	body = append(body, '}')
	return &messages.Reply{Body: json.RawMessage(body)}
}
