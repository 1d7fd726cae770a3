package actors

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// The whole write path in process (envelope → Layout → Journal → reply),
// without HTTP and without fsync, so CPU and allocation changes show.
func BenchmarkInvokeNodeAdd(b *testing.B) {
	store, err := persistence.Open(b.TempDir(), persistence.Options{Logger: quiet(), NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	sys, err := Start(Config{Store: store, Logger: quiet()})
	if err != nil {
		b.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	op, _ := messages.Lookup("node.add")
	input := json.RawMessage(`{"type":"markdown","title":"bench","content":"x"}`)
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			args, _ := op.DecodeInput(input)
			if _, err := sys.Invoke(context.Background(), &messages.Envelope{Op: "node.add", Input: input, Args: args}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
