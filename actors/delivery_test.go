package actors

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// addAsync starts a node add and returns where its outcome arrives.
func addAsync(h *harness, title string) <-chan error {
	out := make(chan error, 1)
	go func() {
		env := &messages.Envelope{Op: "node.add", Source: "api", Input: json.RawMessage(`{"type":"markdown","title":"` + title + `"}`)}
		_, err := h.sys.Invoke(context.Background(), env)
		out <- err
	}()
	return out
}

// nextLayout reads the subscription up to its next layout frame.
func nextLayout(t *testing.T, sub *messages.Subscription) *messages.StreamEvent {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-sub.Events:
			if !ok {
				t.Fatal("subscription closed")
			}
			if ev.Name == messages.LayoutEvent {
				return ev
			}
		case <-timeout:
			t.Fatal("no layout frame within 5s")
		}
	}
}

func replied(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no reply within 5s")
	}
}

// notReplied checks no reply came within a while: a reply that is not held
// arrives at once, so a broken hold fails this.
func notReplied(t *testing.T, done <-chan error, why string) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("the reply (err %v) came before %s", err, why)
	case <-time.After(100 * time.Millisecond):
	}
}

func withBound(d time.Duration) func(*Config, *persistence.Options) {
	return func(c *Config, _ *persistence.Options) { c.DeliveryBound = d }
}

func TestReplyWaitsUntilTheSubscriberWroteItsFrame(t *testing.T) {
	h := start(t, "", withBound(time.Hour))
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Acks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	sub.Written(sub.Head)

	done := addAsync(h, "held")
	frame := nextLayout(t, sub)
	notReplied(t, done, "the subscriber wrote the frame")
	sub.Written(frame.Seq - 1) // an earlier frame does not release it
	notReplied(t, done, "the subscriber wrote the frame")
	sub.Written(frame.Seq)
	replied(t, done)
}

func TestReplyDoesNotWaitForASubscriberThatDoesNotReport(t *testing.T) {
	h := start(t, "", withBound(time.Hour))
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if sub.Written != nil {
		t.Fatal("a subscription without Acks has a Written report")
	}
	done := addAsync(h, "not held")
	replied(t, done)
	nextLayout(t, sub)
}

func TestClosedSubscriberReleasesTheReplies(t *testing.T) {
	h := start(t, "", withBound(time.Hour))
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Acks: true})
	if err != nil {
		t.Fatal(err)
	}
	done := addAsync(h, "held")
	nextLayout(t, sub)
	notReplied(t, done, "the subscriber closed")
	sub.Close()
	replied(t, done)
}

// A subscriber that misses the bound lags: the replies stop waiting for it
// until it has written every frame, so one slow reader costs writers one
// bound, not one per write.
func TestLateSubscriberLagsUntilItWrites(t *testing.T) {
	const bound = 500 * time.Millisecond
	h := start(t, "", withBound(bound))
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Acks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	quick, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Acks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer quick.Close()
	go func() { // writes every frame at once
		for ev := range quick.Events {
			quick.Written(ev.Seq)
		}
	}()
	// The subscriber's side of deliveries, looked up while nothing else
	// changes the subscriber table.
	var late *acks
	for _, s := range refOf(t, h.sys, "main").events.subs {
		if s.ch == sub.Events {
			late = s.acks
		}
	}
	if late == nil {
		t.Fatal("the acking subscription has no acks")
	}

	began := time.Now()
	replied(t, addAsync(h, "first"))
	if waited := time.Since(began); waited < bound {
		t.Fatalf("the first reply came after %v, before the bound %v expired", waited, bound)
	}
	first := nextLayout(t, sub)
	lagging := func() bool {
		late.mu.Lock()
		defer late.mu.Unlock()
		return late.lagging && len(late.pending) == 0
	}
	eventually(t, lagging)

	// Lagging, it holds nothing: the next reply comes without its write.
	replied(t, addAsync(h, "second"))
	frame := nextLayout(t, sub)
	if !lagging() {
		t.Fatal("the lagging subscriber was made to hold the second write's reply")
	}

	// Writing an older frame is not catching up; writing the newest is,
	// and then it counts again.
	sub.Written(first.Seq)
	if !lagging() {
		t.Fatal("a subscriber still behind stopped lagging")
	}
	sub.Written(frame.Seq)
	done := addAsync(h, "third")
	frame = nextLayout(t, sub)
	notReplied(t, done, "the caught-up subscriber wrote the frame")
	sub.Written(frame.Seq)
	replied(t, done)
}
