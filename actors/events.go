package actors

import (
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// publish hands committed events to the Events actor, in commit order.
type publish struct{ items []publishItem }

type publishItem struct {
	state  *canvas.State // nil for AX frames
	events []canvas.Event
	// change and agent make the canvas-changes frame after a layout frame.
	change *canvas.Change
	agent  string
	// delivery holds the write's reply until its frames are written
	// (delivery.go); nil when the reply went out already.
	delivery *delivery
}

// subscribe opens a subscription; the reply is a *messages.Subscription.
type subscribe struct{ req messages.SubscribeRequest }

// unsubscribe ends a subscription.
type unsubscribe struct{ id uint64 }

// eventsCore is the Events actor's state. It lives in the canvas handle so
// a restarted Events actor keeps numbering where the failed one stopped
// (event numbers only ever increase) and keeps its replay ring, so clients
// resume across the restart; items still in the inbox are published by the
// restarted actor.
type eventsCore struct {
	seq    uint64
	ring   *eventRing
	subs   map[uint64]*subscriber
	nextID uint64
	// presence is who follows the stream and who wrote lately (presence.go).
	presence presenceCore
	latest   *canvas.State
	// inbox holds published items not yet emitted, in order.
	inbox []publishItem
	// delivering is the delivery of the item being emitted, if it holds
	// replies; held are those not released yet.
	delivering *delivery
	held       heldSet
	// head is seq for the subscribers' writers to read.
	head atomic.Uint64
}

func newEventsCore(ref *canvasRef, start uint64) *eventsCore {
	return &eventsCore{
		seq:    start,
		ring:   newEventRing(2*ref.sys.cfg.RingSize, ref.sys.cfg.RingLayouts), // a commit's layout and change frames take two slots
		subs:   map[uint64]*subscriber{},
		latest: ref.view.Load(),
	}
}

// eventsFaultHook lets tests inject a panic before each item is emitted.
var eventsFaultHook atomic.Pointer[func()]

// eventsActor numbers a canvas's events in arrival order, keeps the latest
// ones in a ring for Last-Event-ID resume, and fans each one out to every
// subscriber. A subscriber that lags more than its buffer is dropped (its
// channel closed) instead of slowing everyone; it resumes from the ring.
type eventsActor struct {
	ref *canvasRef
	*eventsCore
}

// subscriber is one open subscription.
type subscriber struct {
	ch chan *messages.StreamEvent
	// changes: it gets canvas-changes frames instead of later full layouts
	// (SubscribeRequest.Changes).
	changes bool
	// acks is nil unless its writer reports what it wrote
	// (SubscribeRequest.Acks): only then do replies wait for it.
	acks *acks
}

func newEventsActor(ref *canvasRef) *eventsActor {
	return &eventsActor{ref: ref, eventsCore: ref.events}
}

func (e *eventsActor) Receive(ctx actor.Context) {
	defer answerPanics(ctx)
	injectFault("events", ctx)
	switch m := ctx.Message().(type) {
	case *actor.Started:
		e.drain(ctx) // what a failed instance left unpublished
	case *publish:
		e.inbox = append(e.inbox, m.items...)
		e.drain(ctx)
	case *deliveryExpired:
		for _, sub := range e.subs {
			if sub.acks != nil {
				sub.acks.expire(m.d)
			}
		}
		m.d.release()
	case *subscribe:
		ctx.Respond(e.subscribe(ctx, m.req))
	case *unsubscribe:
		e.dropSub(m.id)
	case *actor.Restarting, *actor.Stopping:
		// Subscribers reconnect and resume; they must not hang on a
		// channel nobody will write again. Replies held by the item that
		// failed go out: the writes are durable.
		for id := range e.subs {
			e.dropSub(id)
		}
		if d := e.delivering; d != nil {
			e.delivering = nil
			d.release()
		}
	}
	e.ref.subscribers.Store(int64(len(e.subs)))
	e.presence.publish(e.ref)
}

// drain emits the inbox in order; an item leaves it once emitted. The
// replies an item holds are released when its frames are written.
func (e *eventsActor) drain(ctx actor.Context) {
	for len(e.inbox) > 0 {
		if hook := eventsFaultHook.Load(); hook != nil {
			(*hook)()
		}
		item := e.inbox[0]
		e.inbox = e.inbox[1:]
		e.delivering = item.delivery
		e.emitItem(item)
		if d := e.delivering; d != nil {
			e.delivering = nil
			if d.need.Load() > 1 {
				self := ctx.Self()
				root := ctx.ActorSystem().Root
				d.bound = time.AfterFunc(e.ref.sys.cfg.DeliveryBound, func() { root.Send(self, &deliveryExpired{d}) })
			}
			d.done()
		}
	}
	e.inbox = nil
}

// emitItem emits one published item's frames.
func (e *eventsActor) emitItem(item publishItem) {
	// AX frames carry no layout: they take the latest one's revision.
	base := e.latest.Revision
	if item.state != nil {
		e.latest = item.state
	}
	if item.change != nil && item.agent != "" {
		e.presence.wrote(item.agent, item.change, e.latest.Revision, e.ref.sys.cfg.Env.Timestamp())
	}
	for _, ev := range item.events {
		e.emit(e.frame(e.latest, ev, item.agent))
		if ev.Name == canvas.EventLayoutUpdate && item.change != nil {
			// The commit's change frame shares its layout frame's
			// number: each stream gets one of the two (?changes=1).
			e.emitAgain(&messages.StreamEvent{Name: canvas.EventChanges, Data: canvas.ChangesFrame{State: e.latest,
				Change: item.change, BaseRevision: base, Agent: item.agent,
				SessionID: e.ref.sys.cfg.SessionID, Timestamp: e.ref.sys.cfg.Env.Timestamp()}})
		}
	}
}

func (e *eventsActor) emit(se *messages.StreamEvent) {
	e.seq++
	e.emitAgain(se)
}

// emitAgain sends se under the last event's number.
func (e *eventsActor) emitAgain(se *messages.StreamEvent) {
	se.Seq = e.seq
	e.head.Store(e.seq)
	e.ring.push(se)
	for id, sub := range e.subs {
		if !messages.KeepEvent(se.Name, sub.changes, false) {
			continue // the other of a commit's two frames
		}
		select {
		case sub.ch <- se:
			if d := e.delivering; d != nil && sub.acks != nil && sub.acks.hold(se.Seq, d) {
				d.need.Add(1)
			}
		default:
			e.dropSub(id)
		}
	}
}

// dropSub ends subscription id: its channel closes and it leaves presence.
func (e *eventsActor) dropSub(id uint64) {
	if sub, ok := e.subs[id]; ok {
		delete(e.subs, id)
		close(sub.ch)
		if sub.acks != nil {
			sub.acks.drop()
		}
		e.presence.left(id)
	}
}

// frame builds the stream event for a domain event; the payload gets the
// reference's sessionId and timestamp envelope, and the agent of the
// commit that sent it when it names one (a commit that changes only the
// context pins sends no canvas-changes frame: this is how a feed names its
// writer).
func (e *eventsActor) frame(state *canvas.State, ev canvas.Event, agent string) *messages.StreamEvent {
	ts := e.ref.sys.cfg.Env.Timestamp()
	if ev.Name == canvas.EventLayoutUpdate {
		return &messages.StreamEvent{Name: ev.Name, Data: layoutFrame{state: state, sessionID: e.ref.sys.cfg.SessionID, timestamp: ts}}
	}
	data := make(map[string]any, len(ev.Data)+3)
	for k, v := range ev.Data {
		data[k] = v
	}
	data["sessionId"] = e.ref.sys.cfg.SessionID
	data["timestamp"] = ts
	data["revision"] = state.Revision
	if agent != "" {
		data["agent"] = agent
	}
	return &messages.StreamEvent{Name: ev.Name, Data: data}
}

func (e *eventsActor) subscribe(ctx actor.Context, req messages.SubscribeRequest) *messages.Subscription {
	head := e.seq
	sessionID := e.ref.sys.cfg.SessionID
	ts := e.ref.sys.cfg.Env.Timestamp()
	continuity := "fresh"
	var requested any
	if req.Session != "" {
		requested = req.Session
		continuity = "rotated"
		if req.Session == sessionID {
			continuity = "resumed"
		}
	}

	var replay []*messages.StreamEvent
	resumed := false
	if last := req.LastEventID; last != nil && *last <= head && *last+1 >= e.ring.oldest(head) {
		resumed = true
		replay = e.ring.after(*last)
	}
	connectedSeq := head
	if resumed {
		connectedSeq = *req.LastEventID
	}
	connected := &messages.StreamEvent{Seq: connectedSeq, Name: "connected", Data: map[string]any{
		"sessionId": sessionID, "requestedSessionId": requested, "continuity": continuity,
		"path": nil, "theme": e.latest.Theme, "timestamp": ts,
		"canvas": e.ref.id, "resumed": resumed, "replayed": countEvents(replay), "revision": e.latest.Revision,
	}}
	initial := []*messages.StreamEvent{connected}
	if resumed {
		initial = append(initial, replay...)
	} else {
		pins := e.latest.Pins
		if pins == nil {
			pins = []string{}
		}
		initial = append(initial,
			&messages.StreamEvent{Seq: head, Name: "mcp-app-host-snapshot", Data: map[string]any{
				"reason": "connect-snapshot", "runtimeEnabled": true, "activeSessionId": nil,
				"sessions": []any{}, "capabilities": []any{},
				"metrics":   map[string]any{"hostedOpens": 0, "fallbackTotal": 0, "fallbackByReason": map[string]any{}},
				"timestamp": ts,
			}},
			&messages.StreamEvent{Seq: head, Name: canvas.EventLayoutUpdate,
				Data: layoutFrame{state: e.latest, sessionID: sessionID, timestamp: ts}},
			&messages.StreamEvent{Seq: head, Name: "context-pins-changed", Data: map[string]any{
				"count": len(pins), "nodeIds": pins, "sessionId": sessionID, "timestamp": ts,
			}},
		)
		if e.ref.workbench.traceOn.Load() {
			// Ours: the reference sends no trace state on connect, so a
			// reloaded workbench showed the trace off while it was on. Off
			// is what a fresh connect means without it.
			initial = append(initial, &messages.StreamEvent{Seq: head, Name: eventTraceState, Data: map[string]any{
				"enabled": true, "sessionId": sessionID, "timestamp": ts,
			}})
		}
	}

	ch := make(chan *messages.StreamEvent, e.ref.sys.cfg.SubscriberBuffer)
	e.nextID++
	id := e.nextID
	sub := &subscriber{ch: ch, changes: req.Changes}
	if req.Acks {
		sub.acks = &acks{head: &e.head}
	}
	e.subs[id] = sub
	kept := initial[:0]
	for _, ev := range initial {
		if messages.KeepEvent(ev.Name, req.Changes, !resumed) {
			kept = append(kept, ev)
		}
	}
	initial = kept
	e.presence.joined(id, req.Client, ts)
	self := ctx.Self()
	root := ctx.ActorSystem().Root
	out := &messages.Subscription{
		Resumed: resumed, Initial: initial, Events: ch, Head: head,
		Close: func() { root.Send(self, &unsubscribe{id: id}) },
	}
	if sub.acks != nil {
		out.Written = sub.acks.written
	}
	return out
}

// countEvents counts the events a stream replays: a commit's change frame
// and layout frame are one event (each stream gets one of them).
func countEvents(evs []*messages.StreamEvent) int {
	n := 0
	for _, ev := range evs {
		if ev.Name != canvas.EventChanges {
			n++
		}
	}
	return n
}

// layoutFrame is the canvas-layout-update payload. It renders the layout
// lazily, outside the actor, when the first subscriber needs the bytes.
type layoutFrame struct {
	state     *canvas.State
	sessionID string
	timestamp string
}

// MarshalJSON implements json.Marshaler.
func (f layoutFrame) MarshalJSON() ([]byte, error) { return f.JSONBytes() }

// JSONBytes renders the frame from the layout's cached node JSON.
func (f layoutFrame) JSONBytes() ([]byte, error) {
	layout, err := f.state.RawLayoutJSON().JSONBytes()
	if err != nil {
		return nil, err
	}
	tail, err := json.Marshal(struct {
		SessionID string `json:"sessionId"`
		Timestamp string `json:"timestamp"`
		Revision  uint64 `json:"revision"`
	}{f.sessionID, f.timestamp, f.state.Revision})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(layout)+len(tail)+12)
	out = append(out, `{"layout":`...)
	out = append(out, layout...)
	out = append(out, ',')
	return append(out, tail[1:]...), nil
}

// eventRing keeps the newest events for resume: at most len(buf) of them,
// and of those at most maxLayouts layout frames (each keeps its commit's
// state alive until it falls out).
type eventRing struct {
	buf        []*messages.StreamEvent
	start      int
	n          int
	layouts    int
	maxLayouts int
}

func newEventRing(size, maxLayouts int) *eventRing {
	return &eventRing{buf: make([]*messages.StreamEvent, size), maxLayouts: maxLayouts}
}

func (r *eventRing) push(e *messages.StreamEvent) {
	if r.n == len(r.buf) {
		r.dropOldest()
	}
	r.buf[(r.start+r.n)%len(r.buf)] = e
	r.n++
	if e.Name == canvas.EventLayoutUpdate {
		r.layouts++
	}
	for r.maxLayouts > 0 && r.layouts > r.maxLayouts {
		r.dropOldest()
	}
}

// dropOldest lets the oldest event go (its slot no longer holds it).
func (r *eventRing) dropOldest() {
	if r.buf[r.start].Name == canvas.EventLayoutUpdate {
		r.layouts--
	}
	r.buf[r.start] = nil
	r.start = (r.start + 1) % len(r.buf)
	r.n--
}

// oldest returns the number of the oldest event kept, or head+1 when empty.
func (r *eventRing) oldest(head uint64) uint64 {
	if r.n == 0 {
		return head + 1
	}
	if first := r.buf[r.start]; first.Name == canvas.EventChanges {
		return first.Seq + 1 // its layout twin is gone: the commit is not whole here
	}
	return r.buf[r.start].Seq
}

// after returns the kept events numbered above seq, in order.
func (r *eventRing) after(seq uint64) []*messages.StreamEvent {
	var out []*messages.StreamEvent
	for i := 0; i < r.n; i++ {
		e := r.buf[(r.start+i)%len(r.buf)]
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}
