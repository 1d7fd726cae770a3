package actors

import (
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// TimelineRetention is how many rows each timeline table keeps.
const TimelineRetention = 500

// timelineRows is what the Timeline actor publishes: the newest rows of
// each table, oldest first. Never modified once published.
type timelineRows struct {
	Events   []*ax.Event
	Evidence []*ax.Evidence
	Steering []*ax.Steering
}

// lease is a delivery claim: the steering row is hidden from other
// consumers until it is marked or the lease ends.
type lease struct {
	consumer string
	until    time.Time
}

// leaseSet is the published set of active leases (steering id -> lease).
type leaseSet map[string]lease

// visibleTo reports whether a steering row may be handed to consumer now.
func (l leaseSet) visibleTo(id, consumer string, now time.Time) bool {
	le, ok := l[id]
	return !ok || le.consumer == consumer || !now.Before(le.until)
}

// claimSteering parks a delivery claim until something is pending for the
// consumer (or answers at once), optionally leasing what it returns.
type claimSteering struct {
	in    *messages.AxDeliveryPendingInput
	wait  time.Duration
	lease time.Duration
	token uint64
	reply chan *invokeResult
}

type claimWaiter struct {
	m  *claimSteering
	dl *deadline
}

// timelineCore is the Timeline actor's state (kept in the canvas handle).
type timelineCore struct {
	rows    timelineRows
	seq     persistence.AxSeq
	leases  leaseSet
	leaseDl map[string]*deadline
	claims  map[uint64]*claimWaiter
	timers  deadlines
	w       axWriter
}

// timelineActor owns a canvas's events, evidence and steering messages,
// their delivery leases and the delivery waiters (the AX shell runs it).
type timelineActor struct {
	ref *canvasRef
}

func newTimelineActor(ref *canvasRef) actor.Actor {
	return &axShell[*timelineCall, *timelineResult]{ref: ref, name: "timeline", label: "Timeline",
		handlers: timelineHandlers, owner: &timelineActor{ref: ref}}
}

func (a *timelineActor) writer() *axWriter  { return &a.ref.timeline.w }
func (a *timelineActor) timers() *deadlines { return &a.ref.timeline.timers }
func (a *timelineActor) rollback()          { a.ref.timeline.rows = *a.ref.timelineView.Load() }

func (a *timelineActor) receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *claimSteering:
		a.claim(m)
	case *cancelWait:
		if w := a.ref.timeline.claims[m.token]; w != nil {
			a.dropClaim(w)
		}
	case waitTick:
		a.tick()
	}
}

// timelineResult is what a Timeline handler produces.
type timelineResult struct {
	rows  timelineRows
	seq   persistence.AxSeq
	ops   []persistence.Op
	body  map[string]any
	frame map[string]any // ax-event-created payload; nil for none
	// steered is set when a steering row was added (wakes claims); marked
	// names a row marked delivered (ends its lease).
	steered bool
	marked  string
}

// timelineCall is what a Timeline handler gets.
type timelineCall struct {
	core *timelineCore
	env  *messages.Envelope
	e    *canvas.Env
	cid  string
	now  time.Time
}

type timelineHandler = axHandler[*timelineCall, *timelineResult]

func (a *timelineActor) newCall(req *invokeRequest) *timelineCall {
	return &timelineCall{core: a.ref.timeline, env: req.env, e: a.ref.sys.cfg.Env, cid: a.ref.id, now: time.Now()}
}

func (a *timelineActor) commit(ctx actor.Context, req *invokeRequest, res *timelineResult, sender *actor.PID) {
	if res.ops == nil {
		// Nothing to store (re-marking a delivered row): answer in order.
		a.ref.timeline.w.write(ctx, a.ref, nil, func(ctx actor.Context) {
			replyTo(ctx, sender, &messages.Reply{Body: res.body}, nil)
		}, failTo(sender))
		return
	}
	a.apply(ctx, res, func(ctx actor.Context) {
		a.ref.answerWrite(ctx, req, sender, evAxEventCreated, res.frame, res.body)
	}, failTo(sender))
}

// apply makes res the working state, stores it, and once durable publishes
// it, ends the lease of a marked row, wakes claims, then runs then.
func (a *timelineActor) apply(ctx actor.Context, res *timelineResult, then func(actor.Context), fail func(actor.Context, *messages.Error)) {
	core := a.ref.timeline
	core.rows, core.seq = res.rows, res.seq
	view := res.rows
	core.w.write(ctx, a.ref, res.ops, func(ctx actor.Context) {
		a.ref.timelineView.Store(&view)
		if res.marked != "" {
			a.endLease(res.marked)
		}
		then(ctx)
		if res.steered {
			a.wakeClaims(time.Now())
		}
	}, fail)
}

// effect records the orphan audit notes of a node deletion and answers the
// layout write.
func (a *timelineActor) effect(ctx actor.Context, eff *axEffect) {
	core := a.ref.timeline
	c := &timelineCall{core: core, e: a.ref.sys.cfg.Env, cid: a.ref.id}
	res := &timelineResult{rows: core.rows, seq: core.seq}
	var notes []*ax.Event
	for i, n := range eff.removed {
		var o ax.Orphaned
		if i < len(eff.boardOrphans) {
			o = eff.boardOrphans[i]
		}
		o.NodeID = n.id
		if i < len(eff.gateOrphans) {
			o.ReanchoredIDs = append(append([]string(nil), o.ReanchoredIDs...), eff.gateOrphans[i]...)
		}
		if !o.Any() {
			continue
		}
		note := ax.OrphanNote(n.title, o, c.e)
		c.appendEvent(res, note)
		notes = append(notes, note)
	}
	if len(notes) == 0 {
		eff.finish(ctx, nil)
		return
	}
	a.apply(ctx, res, func(ctx actor.Context) {
		for _, note := range notes {
			a.ref.emitAX(ctx, evAxEventCreated, map[string]any{"event": note})
		}
		eff.finish(ctx, nil)
	}, func(ctx actor.Context, err *messages.Error) { eff.finish(ctx, err) })
}

// recordEvent is the result of a handler that records one event.
func (c *timelineCall) recordEvent(ev *ax.Event, err *messages.Error) (*timelineResult, *messages.Error) {
	if err != nil {
		return nil, err
	}
	res := &timelineResult{rows: c.core.rows, seq: c.core.seq}
	c.appendEvent(res, ev)
	res.body, res.frame = okBody("event", ev), map[string]any{"event": ev}
	return res, nil
}

// appendEvent numbers ev and appends it to the events.
func (c *timelineCall) appendEvent(res *timelineResult, ev *ax.Event) {
	appendRow(c, res, persistence.AxEvent, &res.rows.Events, &res.seq.Events, ev, func(e *ax.Event) *uint64 { return &e.Seq })
}

// appendRow numbers row from its table's counter, appends it to rows with
// retention, and adds the store records: the row, the rows that fell out,
// and the counters.
func appendRow[T any](c *timelineCall, res *timelineResult, kind string, rows *[]T, counter *uint64, row T, seq func(T) *uint64) {
	*counter++
	*seq(row) = *counter
	var dropped []T
	*rows, dropped = appendRetained(*rows, row)
	res.ops = append(res.ops, persistence.AxPutRow(c.cid, kind, *counter, row))
	for _, d := range dropped {
		res.ops = append(res.ops, persistence.AxDeleteRow(c.cid, kind, *seq(d)))
	}
	res.ops = append(res.ops, persistence.AxSet(persistence.AxSeqKey(c.cid), res.seq))
}

// appendRetained returns list + item keeping the newest TimelineRetention,
// and the rows that fell out. list is never modified.
func appendRetained[T any](list []T, item T) (out, dropped []T) {
	drop := max(0, len(list)+1-TimelineRetention)
	out = make([]T, 0, len(list)+1-drop)
	out = append(out, list[drop:]...)
	return append(out, item), list[:drop]
}

var timelineHandlers = map[string]timelineHandler{
	"ax.event.record": func(c *timelineCall) (*timelineResult, *messages.Error) {
		in := c.env.Args.(*messages.AxEventInput)
		return c.recordEvent(ax.NewEvent(in, ax.EventKinds, axSource(in.Source, c.env), c.e))
	},
	"ax.command.invoke": func(c *timelineCall) (*timelineResult, *messages.Error) {
		in := c.env.Args.(*messages.AxCommandInput)
		return c.recordEvent(ax.CommandEvent(in.Name, in.Args, axSource(in.Source, c.env), c.e))
	},
	"ax.evidence.add": func(c *timelineCall) (*timelineResult, *messages.Error) {
		in := c.env.Args.(*messages.AxEvidenceInput)
		ev, err := ax.NewEvidence(in, axSource(in.Source, c.env), c.e)
		if err != nil {
			return nil, err
		}
		res := &timelineResult{rows: c.core.rows, seq: c.core.seq}
		appendRow(c, res, persistence.AxEvidence, &res.rows.Evidence, &res.seq.Evidence, ev, func(e *ax.Evidence) *uint64 { return &e.Seq })
		res.body, res.frame = okBody("evidence", ev), map[string]any{"evidence": ev}
		return res, nil
	},
	"ax.steer": func(c *timelineCall) (*timelineResult, *messages.Error) {
		in := c.env.Args.(*messages.AxSteerInput)
		st, err := ax.NewSteering(in, axSource(in.Source, c.env), c.e)
		if err != nil {
			return nil, err
		}
		res := &timelineResult{rows: c.core.rows, seq: c.core.seq, steered: true}
		appendRow(c, res, persistence.AxSteering, &res.rows.Steering, &res.seq.Steering, st, func(s *ax.Steering) *uint64 { return &s.Seq })
		res.body, res.frame = okBody("steering", st), map[string]any{"steering": st}
		return res, nil
	},
	"ax.delivery.mark": func(c *timelineCall) (*timelineResult, *messages.Error) {
		in := c.env.Args.(*messages.AxDeliveryMarkInput)
		i := -1
		for j, s := range c.core.rows.Steering {
			if s.ID == in.ID {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, messages.NotFound("steering message %q not found.", in.ID)
		}
		old := c.core.rows.Steering[i]
		if old.Delivered {
			return &timelineResult{rows: c.core.rows, seq: c.core.seq, body: map[string]any{"ok": true, "delivered": true}}, nil
		}
		if le, held := c.core.leases[in.ID]; held && le.consumer != in.Consumer && c.now.Before(le.until) {
			return nil, messages.Make(messages.CodeLeaseHeld, "steering message %q is leased by another consumer until %s.",
				in.ID, le.until.UTC().Format("2006-01-02T15:04:05.000Z")).With("leaseExpiresAt", le.until.UTC().Format(time.RFC3339Nano))
		}
		st := *old
		st.Delivered = true
		if in.Consumer != "" {
			consumer := in.Consumer
			st.DeliveredTo = &consumer
		}
		res := &timelineResult{rows: c.core.rows, seq: c.core.seq, marked: in.ID}
		res.rows.Steering = append([]*ax.Steering(nil), c.core.rows.Steering...)
		res.rows.Steering[i] = &st
		res.ops = []persistence.Op{persistence.AxPutRow(c.cid, persistence.AxSteering, st.Seq, &st)}
		res.body = map[string]any{"ok": true, "delivered": true}
		res.frame = map[string]any{"steeringDelivered": in.ID}
		return res, nil
	},
}

// claim answers a delivery claim, or parks it until something is pending
// for its consumer.
func (a *timelineActor) claim(m *claimSteering) {
	core := a.ref.timeline
	if m.lease > 0 && m.in.Consumer == "" {
		m.reply <- &invokeResult{err: messages.InvalidInput("leaseMs requires a consumer (who holds the lease).").With("field", "consumer")}
		return
	}
	now := time.Now()
	if body, ok := a.tryClaim(m, now); ok || m.wait <= 0 {
		a.answerClaim(m, body)
		return
	}
	if core.claims == nil {
		core.claims = map[uint64]*claimWaiter{}
	}
	w := &claimWaiter{m: m}
	w.dl = core.timers.add(now.Add(m.wait), w)
	core.claims[m.token] = w
	a.ref.claimWaiters.Add(1)
}

// tryClaim builds the claim reply when something is pending for the
// consumer (ok false and no reply otherwise: a parked claim is checked on
// every steer, and most checks find nothing). Returned rows are leased when
// the claim asks for a lease.
func (a *timelineActor) tryClaim(m *claimSteering, now time.Time) (map[string]any, bool) {
	core := a.ref.timeline
	rows := *a.ref.timelineView.Load()
	pending := pendingSteering(rows, core.leases, m.in.Consumer, ax.ParseLimit(m.in.Limit), now)
	if len(pending) == 0 {
		return nil, false
	}
	body := claimReply(a.ref, m.in.Consumer, pending)
	if m.lease > 0 {
		until := now.Add(m.lease)
		next := make(leaseSet, len(core.leases)+len(pending))
		for k, v := range core.leases {
			next[k] = v
		}
		if core.leaseDl == nil {
			core.leaseDl = map[string]*deadline{}
		}
		for _, s := range pending {
			next[s.ID] = lease{consumer: m.in.Consumer, until: until}
			core.timers.remove(core.leaseDl[s.ID])
			core.leaseDl[s.ID] = core.timers.add(until, leaseEnd(s.ID))
		}
		a.publishLeases(next)
		body["leaseMs"] = m.lease.Milliseconds()
		body["leaseExpiresAt"] = until.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	return body, true
}

// answerClaim sends a claim its reply: body, or nothing pending.
func (a *timelineActor) answerClaim(m *claimSteering, body map[string]any) {
	if body == nil {
		body = claimReply(a.ref, m.in.Consumer, []*ax.Steering{})
	}
	m.reply <- &invokeResult{reply: &messages.Reply{Body: body}}
}

// claimReply is {ok, pending, pendingActivity}, the delivery read's reply.
func claimReply(ref *canvasRef, consumer string, pending []*ax.Steering) map[string]any {
	return map[string]any{"ok": true, "pending": pending, "pendingActivity": pendingActivity(ref, consumer)}
}

// leaseEnd is the deadline owner of a lease.
type leaseEnd string

func (a *timelineActor) publishLeases(next leaseSet) {
	a.ref.timeline.leases = next
	a.ref.leases.Store(&next)
	a.ref.leaseCount.Store(int64(len(next)))
}

// endLease drops a row's lease (marked delivered).
func (a *timelineActor) endLease(id string) {
	core := a.ref.timeline
	if _, ok := core.leases[id]; !ok {
		return
	}
	core.timers.remove(core.leaseDl[id])
	delete(core.leaseDl, id)
	next := make(leaseSet, len(core.leases))
	for k, v := range core.leases {
		if k != id {
			next[k] = v
		}
	}
	a.publishLeases(next)
}

func (a *timelineActor) dropClaim(w *claimWaiter) {
	core := a.ref.timeline
	if _, ok := core.claims[w.m.token]; !ok {
		return
	}
	delete(core.claims, w.m.token)
	core.timers.remove(w.dl)
	w.dl = nil
	a.ref.claimWaiters.Add(-1)
}

// tick handles due deadlines: expired leases make rows visible again (and
// may satisfy parked claims); expired claims answer with nothing pending.
func (a *timelineActor) tick() {
	core := a.ref.timeline
	now := time.Now()
	expired := false
	for _, o := range core.timers.due(now) {
		switch v := o.(type) {
		case leaseEnd:
			delete(core.leaseDl, string(v))
			expired = true
		case *claimWaiter:
			v.dl = nil
			a.dropClaim(v)
			body, _ := a.tryClaim(v.m, now)
			a.answerClaim(v.m, body)
		}
	}
	if expired {
		next := make(leaseSet, len(core.leases))
		for k, v := range core.leases {
			if now.Before(v.until) {
				next[k] = v
			}
		}
		a.publishLeases(next)
		a.wakeClaims(now)
	}
}

// wakeClaims answers parked claims that now have something pending, oldest
// claim first (so the first to wait is the first to lease).
func (a *timelineActor) wakeClaims(now time.Time) {
	core := a.ref.timeline
	if len(core.claims) == 0 {
		return
	}
	tokens := make([]uint64, 0, len(core.claims))
	for t := range core.claims {
		tokens = append(tokens, t)
	}
	sort.Slice(tokens, func(i, j int) bool { return tokens[i] < tokens[j] })
	for _, t := range tokens {
		w := core.claims[t]
		if body, ok := a.tryClaim(w.m, now); ok {
			a.dropClaim(w)
			a.answerClaim(w.m, body)
		}
	}
}

// pendingSteering lists undelivered steering for consumer, oldest first:
// rows from consumer itself are excluded (loop safety), and so are rows
// leased to another consumer and rows addressed to another one (a read
// that names no consumer sees them all). limit applies last.
func pendingSteering(rows timelineRows, leases leaseSet, consumer string, limit int, now time.Time) []*ax.Steering {
	out := []*ax.Steering{}
	for _, s := range rows.Steering {
		if s.Delivered {
			continue
		}
		if consumer != "" && s.Source != nil && *s.Source == consumer {
			continue
		}
		if consumer != "" && s.To != nil && *s.To != consumer {
			continue // addressed to another consumer
		}
		if !leases.visibleTo(s.ID, consumer, now) {
			continue
		}
		out = append(out, s)
		if len(out) == limit {
			break
		}
	}
	return out
}

// pendingActivity is the pending-activity digest from the published board
// and gates.
func pendingActivity(ref *canvasRef, consumer string) []ax.PendingItem {
	items := ax.PendingActivity(ref.boardView.Load().Board, *ref.gatesView.Load(), consumer)
	if items == nil {
		items = []ax.PendingItem{}
	}
	return items
}
