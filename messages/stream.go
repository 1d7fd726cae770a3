package messages

import (
	"context"
	"encoding/json"
	"sync"
	"weak"
)

// StreamEvent is one event of a canvas's ordered event stream.
type StreamEvent struct {
	// Seq is the canvas's event number (the SSE id). Snapshot frames sent
	// on connect carry the head number instead of a new one.
	Seq  uint64
	Name string
	// Data is the payload; any JSON-serialisable immutable value.
	Data any

	mu     sync.Mutex
	cached weak.Pointer[[]byte]
}

// JSON returns the serialised payload. Concurrent subscribers share one
// serialisation; the bytes are held weakly so a replay ring of large layout
// frames does not pin their JSON in memory once nobody is sending them.
func (e *StreamEvent) JSON() ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p := e.cached.Value(); p != nil {
		return *p, nil
	}
	var b []byte
	var err error
	if pre, ok := e.Data.(interface{ JSONBytes() ([]byte, error) }); ok {
		b, err = pre.JSONBytes() // already compact and valid: skip re-validation
	} else {
		b, err = json.Marshal(e.Data)
	}
	if err != nil {
		return nil, err
	}
	e.cached = weak.Make(&b)
	return b, nil
}

// SubscribeRequest asks for a canvas's event stream.
type SubscribeRequest struct {
	Canvas string
	// LastEventID is the last event the client saw (SSE Last-Event-ID);
	// nil for a fresh connection.
	LastEventID *uint64
	// Session is the client's ?session= value, echoed in "connected".
	Session string
	// Changes asks for canvas-changes frames instead of full layouts after
	// the connect snapshot (KeepEvent); the canvas sends each subscriber
	// only the frames its stream keeps.
	Changes bool
	// Client labels the subscriber in presence.get (?client=, e.g. a
	// browser tab's name); "" when it gave none.
	Client string
	// Acks promises that the subscriber reports what it has written with
	// Subscription.Written: a write's reply then waits (briefly) until the
	// subscriber has written the write's frames.
	Acks bool
}

// Subscription is a live event stream.
type Subscription struct {
	// Resumed is true when Initial replays exactly the events after
	// LastEventID; otherwise Initial is a fresh connect burst (connected,
	// host snapshot, full layout, pins).
	Resumed bool
	// Initial are the frames to send before Events.
	Initial []*StreamEvent
	// Events delivers new events in order. It is closed when the
	// subscriber fell too far behind or the canvas stopped; the client then
	// reconnects with its Last-Event-ID.
	Events <-chan *StreamEvent
	// Head is the event number the stream starts after.
	Head uint64
	// Close ends the subscription.
	Close func()
	// Written, set when SubscribeRequest.Acks was, reports that every
	// event up to seq has been written to the client.
	Written func(seq uint64)
}

// Invoker runs operations. The local implementation sends envelopes to the
// actors of this process; the remote one forwards them to a running server.
type Invoker interface {
	Invoke(ctx context.Context, env *Envelope) (*Reply, error)
}

// Streamer opens canvas event streams.
type Streamer interface {
	Subscribe(ctx context.Context, req SubscribeRequest) (*Subscription, error)
}

// The event names a stream filter looks at: the whole layout after a
// commit, and the same commit's change (the two share an event number).
const (
	LayoutEvent  = "canvas-layout-update"
	ChangesEvent = "canvas-changes"
)

// KeepEvent reports whether a stream sends the event: a changes stream
// (changes) gets canvas-changes frames and no full layout but a fresh
// connection's snapshot (snapshot); a reference stream gets no
// canvas-changes frames.
func KeepEvent(name string, changes, snapshot bool) bool {
	switch {
	case changes && name == LayoutEvent && !snapshot:
		return false
	case !changes && name == ChangesEvent:
		return false
	}
	return true
}
