package actors

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The replay ring keeps at most maxLayouts layout frames (each holds its
// commit's state): older commits fall out whole, the other events between
// the kept commits stay, and a slot that let an event go holds nothing.
func TestEventRingCapsItsLayoutFrames(t *testing.T) {
	r := newEventRing(2048, 4)
	seq := uint64(0)
	push := func(name string) {
		if name != canvas.EventChanges {
			seq++
		}
		r.push(&messages.StreamEvent{Seq: seq, Name: name})
	}
	for i := 0; i < 10; i++ {
		push(canvas.EventLayoutUpdate)
		push(canvas.EventChanges) // the commit's twin, same number
		push("ax-event-created")
	}
	if r.layouts != 4 {
		t.Fatalf("%d layout frames kept, want 4", r.layouts)
	}
	// 10 commits of 3 events (layout 2k-1 with its change twin, ax 2k):
	// layout 11 fell out; its twin is no commit of its own, so the oldest
	// event to resume after it is ax 12.
	if got := r.oldest(seq); got != 12 {
		t.Fatalf("oldest = %d, want 12", got)
	}
	if got := len(r.after(12)); got != 12 {
		t.Fatalf("after(12) = %d events, want 12", got)
	}
	live := 0
	for _, e := range r.buf {
		if e != nil {
			live++
		}
	}
	if live != r.n || r.n != 14 {
		t.Fatalf("%d slots hold events, ring says %d (want 14: twin 11, ax 12, four commits)", live, r.n)
	}
	// The count cap still applies on its own.
	small := newEventRing(3, 64)
	for i := 0; i < 5; i++ {
		small.push(&messages.StreamEvent{Seq: uint64(i + 1), Name: "ax-event-created"})
	}
	if small.n != 3 || small.oldest(5) != 3 {
		t.Fatalf("count cap: n=%d oldest=%d", small.n, small.oldest(5))
	}
}
