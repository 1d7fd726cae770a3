package httpapi

import (
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// A client that fell behind gets only the newest full layout of what was
// queued for it; every other frame keeps its place.
func TestCoalesceKeepsOnlyTheNewestLayout(t *testing.T) {
	ev := func(seq uint64, name string) *messages.StreamEvent {
		return &messages.StreamEvent{Seq: seq, Name: name}
	}
	for _, tc := range []struct {
		in, want string
	}{
		{"", ""},
		{"1L", "1L"},
		{"1L 2L 3L", "3L"},
		{"1L 2A 3L 4L 5B", "2A 4L 5B"},
		{"1A 2B", "1A 2B"},
		{"1L 2A", "1L 2A"},
		{"1A 2L 3B 4L", "1A 3B 4L"},
	} {
		var batch []*messages.StreamEvent
		for _, f := range strings.Fields(tc.in) {
			name := map[byte]string{'L': LayoutEvent, 'A': "ax-event-created", 'B': "context-pins-changed"}[f[len(f)-1]]
			batch = append(batch, ev(uint64(f[0]-'0'), name))
		}
		var got []string
		for _, f := range coalesce(batch) {
			got = append(got, string(rune('0'+f.Seq))+map[string]string{LayoutEvent: "L", "ax-event-created": "A", "context-pins-changed": "B"}[f.Name])
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("coalesce(%s) = %s, want %s", tc.in, strings.Join(got, " "), tc.want)
		}
	}
}

// A subscriber is behind, and its batch coalesced, only when the queued
// layouts weigh more than coalesceBytes: small layouts all go out, one per
// mutation, as the reference sends them.
func TestBehindWeighsTheQueuedLayouts(t *testing.T) {
	layout := func(size int) *messages.StreamEvent {
		return &messages.StreamEvent{Name: LayoutEvent, Data: map[string]any{"pad": strings.Repeat("x", size)}}
	}
	other := &messages.StreamEvent{Name: "ax-event-created", Data: map[string]any{}}
	for _, tc := range []struct {
		name  string
		batch []*messages.StreamEvent
		want  bool
	}{
		{"one layout, however large", []*messages.StreamEvent{layout(4 << 20)}, false},
		{"three small layouts", []*messages.StreamEvent{layout(100), other, layout(100), layout(100)}, false},
		{"two layouts over the budget", []*messages.StreamEvent{layout(600 << 10), layout(600 << 10)}, true},
		{"many small layouts over the budget", func() []*messages.StreamEvent {
			var b []*messages.StreamEvent
			for i := 0; i < 40; i++ {
				b = append(b, layout(30<<10))
			}
			return b
		}(), true},
		{"no layouts", []*messages.StreamEvent{other, other}, false},
	} {
		if got := behind(tc.batch); got != tc.want {
			t.Errorf("%s: behind = %v, want %v", tc.name, got, tc.want)
		}
	}
}
