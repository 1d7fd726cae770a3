package pmxcanvas

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// next reads one event or fails after a timeout.
func next(t *testing.T, sub *Subscription) Event {
	t.Helper()
	select {
	case ev, ok := <-sub.Events:
		if !ok {
			t.Fatalf("stream closed: %v", sub.Err())
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
	return Event{}
}

func names(evs []Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name
	}
	return out
}

func TestSubscribeConnectBurstAndChanges(t *testing.T) {
	c := openT(t)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	sub := must[*Subscription](t)(c.Subscribe(ctx, SubscribeOptions{}))
	defer sub.Close()
	var burst []Event
	for i := 0; i < 4; i++ {
		burst = append(burst, next(t, sub))
	}
	want := []string{"connected", "mcp-app-host-snapshot", "canvas-layout-update", "context-pins-changed"}
	for i, n := range names(burst) {
		if n != want[i] || burst[i].Seq != sub.Head {
			t.Fatalf("connect burst: %v (seq %d, head %d), want %v", names(burst), burst[i].Seq, sub.Head, want)
		}
	}
	var conn struct {
		Canvas  string `json:"canvas"`
		Resumed bool   `json:"resumed"`
	}
	noErr(t, burst[0].Decode(&conn))
	if conn.Canvas != "main" || conn.Resumed || sub.Resumed {
		t.Fatalf("connected: %+v, Resumed %v", conn, sub.Resumed)
	}

	// Five kinds of change, each its event, numbered in order.
	n := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	must[*Pins](t)(c.SetContextPins(bg, []string{n.ID}, PinSet))
	noErr(t, c.SetTheme(bg, "light"))
	must[*Viewport](t)(c.SetViewport(bg, ViewportPatch{X: Ptr(10.0)}))
	must[*WorkItem](t)(c.AddWorkItem(bg, WorkItemInput{Title: "w"}))
	must[*Steering](t)(c.SendSteering(bg, "hi"))
	want = []string{"canvas-layout-update", "context-pins-changed", "theme-changed", "canvas-viewport-update", "ax-state-changed", "ax-event-created"}
	var got []Event
	for len(got) < len(want) {
		got = append(got, next(t, sub))
	}
	for i := range want {
		if got[i].Name != want[i] {
			t.Fatalf("events %v, want %v", names(got), want)
		}
		if got[i].Seq != sub.Head+uint64(i)+1 {
			t.Fatalf("event %d seq %d, want %d", i, got[i].Seq, sub.Head+uint64(i)+1)
		}
	}
	var frame struct {
		Layout Layout `json:"layout"`
	}
	noErr(t, got[0].Decode(&frame))
	if len(frame.Layout.Nodes) != 1 || frame.Layout.Nodes[0].ID != n.ID {
		t.Fatalf("layout frame: %+v", frame.Layout)
	}
	var theme struct{ Theme string }
	if noErr(t, got[2].Decode(&theme)); theme.Theme != "light" {
		t.Fatalf("theme frame: %s", got[2].Data)
	}
}

func TestSubscribeResumeAfterLastEventID(t *testing.T) {
	c := openT(t)
	first := must[*Subscription](t)(c.Subscribe(bg, SubscribeOptions{SkipInitial: true}))
	must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	seen := next(t, first)
	first.Close()
	if _, open := <-first.Events; open || first.Err() != nil {
		t.Fatalf("closed subscription: open %v, err %v", open, first.Err())
	}

	// Missed while away: two changes.
	must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B"}))
	noErr(t, c.SetTheme(bg, "light"))

	last := seen.Seq
	sub := must[*Subscription](t)(c.Subscribe(bg, SubscribeOptions{LastEventID: &last}))
	defer sub.Close()
	if !sub.Resumed {
		t.Fatal("not resumed")
	}
	ev := next(t, sub)
	if ev.Name != "connected" {
		t.Fatalf("first frame of a resume: %s", ev.Name)
	}
	a, b := next(t, sub), next(t, sub)
	if a.Name != "canvas-layout-update" || a.Seq != last+1 || b.Name != "theme-changed" || b.Seq != last+2 {
		t.Fatalf("replay: %s#%d %s#%d after %d", a.Name, a.Seq, b.Name, b.Seq, last)
	}
}

func TestSubscribeEndsWithContextAndClose(t *testing.T) {
	c := openT(t)
	ctx, cancel := context.WithCancel(bg)
	sub := must[*Subscription](t)(c.Subscribe(ctx, SubscribeOptions{SkipInitial: true}))
	cancel()
	select {
	case _, open := <-sub.Events:
		if open {
			t.Fatal("event after cancel")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stream still open after cancel")
	}
	if sub.Err() != nil {
		t.Fatalf("Err after cancel: %v", sub.Err())
	}
	sub.Close() // after the stream ended: no block, no panic

	// Closing the canvas ends its subscriptions.
	live := must[*Subscription](t)(c.Subscribe(bg, SubscribeOptions{SkipInitial: true}))
	noErr(t, c.Close(bg))
	select {
	case _, open := <-live.Events:
		if open {
			t.Fatal("event after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stream still open after canvas Close")
	}

	_, err := openT(t).WithCanvas("no good").Subscribe(bg, SubscribeOptions{})
	wantErr(t, err, 400, messages.CodeInvalidInput, "canvas id")
}

// fakeStreamer serves scripted subscriptions to test the resume logic.
type fakeStreamer struct {
	reqs []messages.SubscribeRequest
	subs []*messages.Subscription
	err  error
}

func (f *fakeStreamer) Subscribe(_ context.Context, req messages.SubscribeRequest) (*messages.Subscription, error) {
	f.reqs = append(f.reqs, req)
	if len(f.subs) == 0 {
		return nil, f.err
	}
	s := f.subs[0]
	f.subs = f.subs[1:]
	return s, nil
}

func scripted(head uint64, resumed bool, initial []*messages.StreamEvent, events ...*messages.StreamEvent) *messages.Subscription {
	ch := make(chan *messages.StreamEvent, len(events))
	for _, e := range events {
		ch <- e
	}
	close(ch) // the server dropped the subscriber after these
	return &messages.Subscription{Head: head, Resumed: resumed, Initial: initial, Events: ch, Close: func() {}}
}

func ev(seq uint64, name string) *messages.StreamEvent {
	return &messages.StreamEvent{Seq: seq, Name: name, Data: map[string]any{"n": seq}}
}

// A subscriber the server drops (it fell behind) resumes from the last
// event it delivered, skipping the resume's own connected marker; when
// resuming fails the stream ends with the error.
func TestSubscribeResumesWhenDropped(t *testing.T) {
	fs := &fakeStreamer{err: messages.Unavailable("gone")}
	fs.subs = []*messages.Subscription{
		scripted(10, false, []*messages.StreamEvent{ev(10, "connected")}, ev(11, "a"), ev(12, "b")),
		scripted(12, true, []*messages.StreamEvent{ev(12, "connected"), ev(13, "c")}, ev(14, "d")),
	}
	c := &Canvas{h: &handle{streamer: fs}, canvas: "main", source: SourceSDK}
	sub := must[*Subscription](t)(c.Subscribe(bg, SubscribeOptions{}))
	var got []Event
	for e := range sub.Events {
		got = append(got, e)
	}
	want := []string{"connected", "a", "b", "c", "d"}
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", names(got), want)
	}
	for i := range want {
		if got[i].Name != want[i] {
			t.Fatalf("events %v, want %v", names(got), want)
		}
	}
	if len(fs.reqs) != 3 || fs.reqs[1].LastEventID == nil || *fs.reqs[1].LastEventID != 12 || *fs.reqs[2].LastEventID != 14 {
		t.Fatalf("resume requests: %+v", fs.reqs)
	}
	var e *messages.Error
	if !errors.As(sub.Err(), &e) || e.Code != messages.CodeUnavailable {
		t.Fatalf("Err after a failed resume: %v", sub.Err())
	}
	if string(got[1].Data) != `{"n":11}` {
		t.Fatalf("data: %s", got[1].Data)
	}
}
