package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// Memory stays flat under a stream of writes that do not grow the canvas:
// history keeps 200 entries, the replay ring 1024 events, and nothing else
// holds old states. (A history entry that pointed into its transaction once
// kept every older state alive.)
func TestMemoryIsBoundedUnderWrites(t *testing.T) {
	h := start(t, "", func(_ *Config, o *persistence.Options) { o.NoSync = true })
	id := h.mustCall("", "node.add", `{"type":"markdown","title":"moving"}`)["id"].(string)
	op, _ := messages.Lookup("node.update")
	move := func(n int) {
		for i := 0; i < n; i++ {
			input := json.RawMessage(fmt.Sprintf(`{"id":%q,"x":%d}`, id, i))
			args, _ := op.DecodeInput(input)
			if _, err := h.sys.Invoke(context.Background(), &messages.Envelope{Op: "node.update", Input: input, Args: args}); err != nil {
				t.Fatal(err)
			}
		}
	}
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	move(3000) // fill history and the replay ring
	before := heap()
	move(6000)
	if grew := heap() - before; grew > 2<<20 {
		t.Fatalf("6,000 moves of one node grew the heap by %d KiB", grew>>10)
	}
}
