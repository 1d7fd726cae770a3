package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// invokeRequest carries one write envelope to its owning actor.
type invokeRequest struct {
	env *messages.Envelope
	op  *messages.Op
	// before is an ax-interaction payload the AX owner emits just ahead of
	// the write's own frame.
	before map[string]any
}

// invokeResult is the reply to an invokeRequest.
type invokeResult struct {
	reply *messages.Reply
	err   *messages.Error
}

// journalWrite asks the Journal to make one write durable. from is the
// actor to tell when it is (Layout, AxState, Gates or Timeline); seq is that
// actor's own write counter, one number per write sent to the Journal (not
// the revision: snapshot writes do not change it, and each write must be
// released by its own commit).
type journalWrite struct {
	from *actor.PID
	seq  uint64
	ops  []persistence.Op
	// meta, for a layout step, is the state after it: a commit carries the
	// canvas meta record (revision, next ordinal, pins, viewport, theme) of
	// the newest such state among its writes, once.
	meta *canvas.State
}

// journalCommitted tells a writer that every write of its up to upTo is
// durable, or that the store failed.
type journalCommitted struct {
	upTo uint64
	err  error
}

// layoutCore is the Layout actor's state. It lives in the canvas handle so a
// restarted Layout continues from it: handlers are pure transactions, so a
// panic inside one leaves this untouched, and writes already sent to the
// Journal stay pending here until their commit arrives.
type layoutCore struct {
	// state is the working state: published view plus pending writes.
	state *canvas.State
	// pending are writes applied to state and sent to the Journal, in
	// revision order, waiting for their commit.
	pending []*pendingWrite
	// inflight maps idempotency keys of pending writes.
	inflight map[string]*pendingWrite
	// failed is set once the store fails; writes are refused after that.
	failed *messages.Error
	// seq numbers the writes sent to the Journal.
	seq uint64
}

type pendingWrite struct {
	// seq is the Journal write this one waits for: its own, or, for a
	// write that stores nothing, the last one sent before it.
	seq    uint64
	state  *canvas.State
	events []canvas.Event
	// change is what the write changed and agent who made it, for the
	// canvas-changes frame.
	change      *canvas.Change
	agent       string
	reply       *messages.Reply
	waiters     []*actor.PID
	idemKey     string
	fingerprint string
	// ax is what the write means for the AX state; its reply waits for the
	// AX actors to apply it.
	ax *axEffect
	// files is what the write did to file nodes, and fetches the webpage
	// nodes it created in a batch, for the Content actor.
	files   []fileNodeChange
	apps    *appNodesChanged
	fetches []string
}

// idempotencyTTL is how long a keyed write's reply is remembered.
const idempotencyTTL = 24 * time.Hour

// idempotencyRecord is a remembered reply of a keyed write.
type idempotencyRecord struct {
	Fingerprint string          `json:"fingerprint"`
	Status      int             `json:"status"`
	Body        json.RawMessage `json:"body"`
	Revision    uint64          `json:"revision"`
}

// layoutActor owns a canvas's layout: nodes, edges, annotations, pins,
// viewport and theme. It runs write handlers as transactions over the
// working state, hands the resulting records to the Journal, and publishes
// the new view, replies and emits events only once the Journal says the
// write is durable. Several writes may be in flight at once; the Journal
// commits them in groups.
type layoutActor struct {
	ref *canvasRef
}

// panicHook lets tests inject a fault into the write path.
var panicHook func(env *messages.Envelope)

// commitFaultHook lets tests inject a panic as the Layout takes the
// Journal's word that writes are durable (the word is lost with the
// failed instance; the restarted one asks again).
var commitFaultHook atomic.Pointer[func()]

func (a *layoutActor) Receive(ctx actor.Context) {
	defer answerPanics(ctx)
	injectFault("layout", ctx)
	switch m := ctx.Message().(type) {
	case *actor.Started:
		// A restarted Layout may have lost the Journal's word on writes
		// it still holds: ask again.
		syncJournal(ctx, a.ref, len(a.ref.layout.pending))
	case *actor.Restarting:
		a.ref.layoutRestarts.Add(1)
	case *invokeRequest:
		if expired(ctx, m) {
			return
		}
		a.invoke(ctx, m)
	case *journalCommitted:
		a.committed(ctx, m)
	}
}

func (a *layoutActor) invoke(ctx actor.Context, req *invokeRequest) {
	core := a.ref.layout
	env := req.env
	if core.failed != nil && a.ref.storeFailed() {
		ctx.Respond(&invokeResult{err: core.failed})
		return
	}
	core.failed = nil // the store recovered: writes resume
	var fp string
	if env.IdempotencyKey != "" {
		fp = fingerprint(env)
		if p := core.inflight[env.IdempotencyKey]; p != nil {
			if p.fingerprint != fp {
				ctx.Respond(&invokeResult{err: messages.IdempotencyMismatch(env.IdempotencyKey)})
				return
			}
			p.waiters = append(p.waiters, ctx.Sender())
			return
		}
		if rec, ok := a.rememberedReply(env.IdempotencyKey); ok {
			if rec.Fingerprint != fp {
				ctx.Respond(&invokeResult{err: messages.IdempotencyMismatch(env.IdempotencyKey)})
				return
			}
			ctx.Respond(&invokeResult{reply: &messages.Reply{Status: rec.Status, Body: rec.Body, Revision: rec.Revision}})
			return
		}
	}
	if env.IfRevision != nil && *env.IfRevision != core.state.Revision {
		ctx.Respond(&invokeResult{err: messages.RevisionConflict(*env.IfRevision, core.state.Revision)})
		return
	}
	handler, ok := writeHandlers[req.op.Name]
	if !ok {
		ctx.Respond(&invokeResult{err: messages.Internal("no handler for %s", req.op.Name)})
		return
	}

	tx := canvas.Begin(core.state, a.ref.sys.cfg.Env)
	tx.SetAgent(env.Agent)
	c := &call{tx: tx, env: env, ref: a.ref}
	body, herr := a.run(ctx, handler, c)
	if herr != nil {
		ctx.Respond(&invokeResult{err: herr})
		return
	}
	next, change, events := tx.Commit()
	if change.Empty() && len(events) == 0 {
		// Nothing to store (undo with nothing to undo, a dry-run gc, ...).
		// Reply in order behind any write still waiting for its commit, so
		// the reply never reveals state that may not become durable.
		reply := &messages.Reply{Body: body, Revision: core.state.Revision}
		if n := len(core.pending); n > 0 {
			last := core.pending[n-1]
			core.pending = append(core.pending, &pendingWrite{seq: last.seq, state: last.state, reply: reply, waiters: []*actor.PID{ctx.Sender()}})
			return
		}
		ctx.Respond(&invokeResult{reply: reply})
		return
	}
	switch b := body.(type) {
	case map[string]any:
		b["revision"] = next.Revision
	case interface{ SetRevision(uint64) }:
		b.SetRevision(next.Revision)
	}
	reply := &messages.Reply{Body: body, Revision: next.Revision}
	ops := persistence.RecordOps(a.ref.id, change)
	core.seq++
	p := &pendingWrite{seq: core.seq, state: next, events: events, change: change, agent: env.Agent,
		reply: reply, waiters: []*actor.PID{ctx.Sender()},
		ax: axEffectOf(change, c.axFocus), files: fileChangesOf(change), fetches: c.fetches,
		apps: appChangesOf(env.Op, change)}
	if env.IdempotencyKey != "" {
		bodyJSON, err := json.Marshal(body)
		if err == nil {
			rec := idempotencyRecord{Fingerprint: fp, Status: reply.StatusCode(), Body: bodyJSON, Revision: next.Revision}
			op := persistence.Set(persistence.IdempotencyKey(a.ref.id, env.IdempotencyKey), mustMarshal(rec))
			op.TTL = idempotencyTTL
			ops = append(ops, op)
			p.idemKey, p.fingerprint = env.IdempotencyKey, fp
			if core.inflight == nil {
				core.inflight = map[string]*pendingWrite{}
			}
			core.inflight[p.idemKey] = p
		}
	}
	core.state = next
	core.pending = append(core.pending, p)
	ctx.Send(a.ref.journalPID.Load(), &journalWrite{from: ctx.Self(), seq: p.seq, ops: ops, meta: next})
}

// run calls a handler. If it panics, the caller gets a 500 and the panic is
// re-raised so the supervisor restarts this actor; the working state is
// untouched because the transaction was never committed.
func (a *layoutActor) run(ctx actor.Context, h writeHandler, c *call) (body any, err *messages.Error) {
	defer func() {
		if r := recover(); r != nil {
			a.ref.sys.cfg.Logger.Error("layout handler panicked; restarting the Layout actor",
				"canvas", a.ref.id, "op", c.env.Op, "panic", r)
			ctx.Respond(&invokeResult{err: messages.Internal("Internal error processing the request.")})
			panic(r)
		}
	}()
	if panicHook != nil {
		panicHook(c.env)
	}
	return h(c)
}

func (a *layoutActor) rememberedReply(key string) (idempotencyRecord, bool) {
	var rec idempotencyRecord
	v, ok, err := a.ref.sys.cfg.Store.Get(persistence.IdempotencyKey(a.ref.id, key))
	if err != nil || !ok {
		return rec, false
	}
	if json.Unmarshal([]byte(v), &rec) != nil {
		return rec, false
	}
	return rec, true
}

// committed releases every pending write up to m.upTo: publish the view,
// emit their events in order, then reply.
func (a *layoutActor) committed(ctx actor.Context, m *journalCommitted) {
	if hook := commitFaultHook.Load(); hook != nil {
		(*hook)()
	}
	core := a.ref.layout
	if m.err != nil {
		failure := messages.StoreFailed(m.err)
		core.failed = failure
		for _, p := range core.pending {
			for _, w := range p.waiters {
				ctx.Send(w, &invokeResult{err: failure})
			}
		}
		core.pending, core.inflight = nil, nil
		core.state = a.ref.view.Load() // back to the last durable state
		return
	}
	n := 0
	for n < len(core.pending) && core.pending[n].seq <= m.upTo {
		n++
	}
	if n == 0 {
		return
	}
	done := core.pending[:n]
	core.pending = append([]*pendingWrite(nil), core.pending[n:]...)
	a.ref.view.Store(done[n-1].state)

	items := make([]publishItem, 0, n)
	hold := a.ref.sys.cfg.DeliveryBound > 0 && a.ref.subscribers.Load() > 0
	for _, p := range done {
		if len(p.events) > 0 {
			item := publishItem{state: p.state, events: p.events, change: p.change, agent: p.agent}
			if hold && p.ax == nil && len(p.waiters) > 0 {
				item.delivery = a.ref.events.held.hold(ctx.ActorSystem().Root, p.waiters, p.reply)
				p.waiters = nil
			}
			items = append(items, item)
		}
	}
	if len(items) > 0 {
		ctx.Send(a.ref.eventsPID.Load(), &publish{items: items})
	}
	var fileChanges []fileNodeChange
	var fetches []string
	for _, p := range done {
		fileChanges = append(fileChanges, p.files...)
		fetches = append(fetches, p.fetches...)
	}
	if pid := a.ref.contentPID.Load(); pid != nil && (len(fileChanges) > 0 || len(fetches) > 0) {
		ctx.Send(pid, &fileNodesChanged{changes: fileChanges, fetches: fetches})
	}
	if pid := a.ref.appsPID.Load(); pid != nil {
		for _, p := range done {
			if p.apps != nil {
				ctx.Send(pid, p.apps)
			}
		}
	}
	for _, p := range done {
		if p.ax != nil {
			// The AX actors apply the write's AX side, then answer.
			p.ax.waiters, p.ax.reply = p.waiters, p.reply
			ctx.Send(a.ref.axStatePID.Load(), p.ax)
		} else {
			for _, w := range p.waiters {
				ctx.Send(w, &invokeResult{reply: p.reply})
			}
		}
		if p.idemKey != "" {
			delete(core.inflight, p.idemKey)
		}
	}
}

// fingerprint identifies a request for idempotency: same op and same input
// (compared as JSON values, so key order and spacing do not matter).
func fingerprint(env *messages.Envelope) string {
	input := []byte(env.Input)
	var v any
	if json.Unmarshal(input, &v) == nil {
		if m, ok := v.(map[string]any); ok {
			delete(m, messages.MetaAgentID)
			delete(m, messages.MetaIfRevision)
			delete(m, messages.MetaCanvas)
		}
		if canon, err := json.Marshal(v); err == nil {
			input = canon
		}
	}
	h := sha256.New()
	h.Write([]byte(env.Op))
	h.Write([]byte{0})
	h.Write(input)
	return hex.EncodeToString(h.Sum(nil))
}

func mustMarshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// axEffectOf is what a committed change means for the AX state, or nil:
// a restore or clear (or its undo/redo) swaps the canvas-bound AX state;
// otherwise deleted nodes are orphaned (with an audit note unless this is
// an undo or redo) and nodes an undo brought back get their AX references
// back; node.focus moves the AX focus.
func axEffectOf(ch *canvas.Change, focus *string) *axEffect {
	eff := &axEffect{focus: focus}
	switch {
	case ch.AX != nil:
		eff.swap = &axSwapTarget{target: ch.AX.After.(ax.State), reason: ch.AX.Reason}
	case ch.AXReplay != nil:
		s := ch.AXReplay.Swap
		if ch.AXReplay.Undo {
			eff.swap = &axSwapTarget{target: s.Before.(ax.State), revert: true, since: s.At, reason: "undo"}
		} else {
			eff.swap = &axSwapTarget{target: s.After.(ax.State), reason: "redo"}
		}
	default:
		for _, n := range ch.Nodes {
			switch {
			case n.Before != nil && n.After == nil:
				eff.removed = append(eff.removed, removedNode{id: n.ID, title: orphanTitle(n.Before)})
			case n.Before == nil && n.After != nil && ch.Replayed:
				eff.restored = append(eff.restored, n.ID)
			}
		}
		eff.audit = !ch.Replayed
	}
	if eff.swap == nil && len(eff.removed) == 0 && len(eff.restored) == 0 && eff.focus == nil {
		return nil
	}
	return eff
}

// orphanTitle is the node's name in the audit note: data.title when it is
// a string (even empty, as the reference), else the id.
func orphanTitle(n *canvas.Node) string {
	if t, ok := n.Data["title"].(string); ok {
		return t
	}
	return n.ID
}
