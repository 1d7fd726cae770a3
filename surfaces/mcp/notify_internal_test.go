package mcpapi

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// fakeStreamer hands out subscriptions whose streams end after one event,
// and records each request.
type fakeStreamer struct {
	mu   sync.Mutex
	reqs []messages.SubscribeRequest
}

func (f *fakeStreamer) Subscribe(_ context.Context, req messages.SubscribeRequest) (*messages.Subscription, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	n := uint64(len(f.reqs))
	f.mu.Unlock()
	ch := make(chan *messages.StreamEvent, 1)
	ch <- &messages.StreamEvent{Seq: 10 * n, Name: "canvas-layout-update"}
	close(ch) // the subscriber was dropped (or the canvas reloaded)
	return &messages.Subscription{Events: ch, Head: 10*n - 1, Close: func() {}}, nil
}

func (f *fakeStreamer) requests() []messages.SubscribeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]messages.SubscribeRequest(nil), f.reqs...)
}

// Resource notifications outlive the end of an event stream: the server
// subscribes again from the last event it saw, instead of going quiet.
func TestNotificationsResumeAfterTheStreamEnds(t *testing.T) {
	f := &fakeStreamer{}
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(Options{Caller: &Caller{Registry: reg, DefaultCanvas: "main"}, Streamer: f})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.notify(ctx); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for len(f.requests()) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	reqs := f.requests()
	if len(reqs) < 3 {
		t.Fatalf("%d subscriptions; the stream was not followed again", len(reqs))
	}
	if reqs[0].LastEventID != nil || reqs[1].LastEventID == nil || *reqs[1].LastEventID != 10 || *reqs[2].LastEventID != 20 {
		t.Fatalf("resumed from %v, %v; want the last event seen (10, then 20)", reqs[1].LastEventID, reqs[2].LastEventID)
	}
}
