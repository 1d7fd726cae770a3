package pmxcanvas

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Event is one event of a canvas's ordered event stream, as the SSE route
// (GET /api/workbench/events) sends it: canvas-layout-update,
// canvas-viewport-update, canvas-focus-node, context-pins-changed,
// theme-changed, ax-state-changed, ax-event-created, ax-interaction, and on
// connect connected, mcp-app-host-snapshot and the full layout; with
// SubscribeOptions.Changes, canvas-changes instead of later layouts.
type Event struct {
	// Seq is the canvas's event number (the SSE id). Connect frames carry
	// the head number.
	Seq  uint64
	Name string
	// Data is the event's JSON payload.
	Data json.RawMessage
}

// Decode decodes the payload into v.
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

// SubscribeOptions shape a subscription.
type SubscribeOptions struct {
	// LastEventID resumes after that event: the events after it are
	// replayed when the canvas still holds them, else the stream starts
	// with a fresh connect burst. Nil starts fresh.
	LastEventID *uint64
	// SkipInitial drops the connect burst (connected, host snapshot, full
	// layout, pins) and delivers only new events.
	SkipInitial bool
	// Buffer is the channel's capacity (0: 64).
	Buffer int
	// Changes delivers, after the first full layout, one canvas-changes
	// event per commit (what it changed) instead of canvas-layout-update
	// with the whole board, as the SSE route's ?changes=1 does.
	Changes bool
}

// Subscription is a live event stream. Events delivers in order until
// ctx ends, Close is called or the canvas closes; then it is closed and
// Err says why (nil after ctx or Close).
type Subscription struct {
	// Events delivers the stream.
	Events <-chan Event
	// Resumed is true when the stream began by replaying exactly the
	// events after LastEventID.
	Resumed bool
	// Head is the event number the stream began after.
	Head uint64

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
	err      error
}

// Close ends the subscription and waits until Events is closed.
func (s *Subscription) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
}

// Err returns why the stream ended, once Events is closed.
func (s *Subscription) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// Subscribe opens the canvas's event stream. A subscriber that falls
// behind the server's buffer is resumed from its last event number, so
// no event is lost while the canvas keeps it (1024 events).
func (c *Canvas) Subscribe(ctx context.Context, o SubscribeOptions) (*Subscription, error) {
	if c.h.closed.Load() {
		return nil, messages.Unavailable("the canvas is closed")
	}
	src, err := c.h.streamer.Subscribe(ctx, messages.SubscribeRequest{Canvas: c.canvas, LastEventID: o.LastEventID, Changes: o.Changes})
	if err != nil {
		return nil, callError(ctx, err)
	}
	buf := o.Buffer
	if buf <= 0 {
		buf = 64
	}
	out := make(chan Event, buf)
	s := &Subscription{Events: out, Resumed: src.Resumed, Head: src.Head, stop: make(chan struct{}), done: make(chan struct{})}
	go s.run(ctx, c, src, out, !o.SkipInitial, o.Changes)
	return s, nil
}

func (s *Subscription) run(ctx context.Context, c *Canvas, src *messages.Subscription, out chan<- Event, initial, changes bool) {
	defer close(s.done)
	defer close(out)
	defer func() { src.Close() }()
	last := src.Head
	send := func(ev *messages.StreamEvent) bool {
		b, err := ev.JSON()
		if err != nil {
			s.err = messages.Internal("encode %s event: %v", ev.Name, err)
			return false
		}
		data := make(json.RawMessage, len(b)) // the bytes are shared with other subscribers
		copy(data, b)
		select {
		case out <- Event{Seq: ev.Seq, Name: ev.Name, Data: data}:
			if ev.Seq > last {
				last = ev.Seq
			}
			return true
		case <-ctx.Done():
		case <-s.stop:
		}
		return false
	}
	if initial {
		for _, ev := range src.Initial {
			if !send(ev) {
				return
			}
		}
	}
	for {
		select {
		case ev, ok := <-src.Events:
			if ok {
				if !send(ev) {
					return
				}
				continue
			}
			// Dropped for lagging, or the canvas stopped: resume after the
			// last event delivered.
			if c.h.closed.Load() || ctx.Err() != nil {
				return
			}
			from := last
			next, err := c.h.streamer.Subscribe(ctx, messages.SubscribeRequest{Canvas: c.canvas, LastEventID: &from, Changes: changes})
			if err != nil {
				if ctx.Err() == nil {
					s.err = err
				}
				return
			}
			src.Close()
			src = next
			for _, ev := range src.Initial {
				if ev.Name == "connected" && src.Resumed {
					continue // a resume's own marker, not an event
				}
				if !send(ev) {
					return
				}
			}
		case <-ctx.Done():
			return
		case <-s.stop:
			return
		}
	}
}
