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
