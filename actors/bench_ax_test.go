package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// BenchmarkAwaitRelease parks N waiters on one gate in the Gates actor and
// resolves it. It reports the release latency (resolve sent → each waiter's
// reply received) and the actor-side heap per parked waiter (the waiter
// record, its reply channel, its deadline entry and map slots), measured
// with the waiters' messages sent straight to the actor so no caller
// goroutine or envelope is counted.
func BenchmarkAwaitRelease(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("waiters=%d", n), func(b *testing.B) {
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
			invoke := func(op, input string) map[string]any {
				reply, err := sys.Invoke(context.Background(), &messages.Envelope{Op: op, Source: "api", Input: json.RawMessage(input)})
				if err != nil {
					b.Fatal(err)
				}
				raw, _ := json.Marshal(reply.Body)
				var out map[string]any
				_ = json.Unmarshal(raw, &out)
				return out
			}
			invoke("ax.stats", `{}`) // open the canvas
			ref, _ := sys.canvases.Load("main")
			gates := ref.(*canvasRef).gatesPID.Load()

			var lats []time.Duration
			var perWaiter float64
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				id := invoke("ax.approval.request", `{"title":"bench"}`)["approvalGate"].(map[string]any)["id"].(string)
				replies := make([]chan *invokeResult, n)
				for i := range replies {
					replies[i] = make(chan *invokeResult, 1)
				}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i, ch := range replies {
					sys.as.Root.Send(gates, &awaitGate{kind: gateApproval, id: id, wait: time.Minute, token: uint64(1<<40 + i), reply: ch})
				}
				for ref.(*canvasRef).gateWaiters.Load() != int64(n) {
					time.Sleep(time.Millisecond)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				// The reply channels were allocated before the first reading;
				// count them too: the actor holds them.
				perWaiter = float64(after.HeapAlloc-before.HeapAlloc)/float64(n) + float64(chanSize)
				b.StartTimer()
				t0 := time.Now()
				invoke("ax.approval.resolve", fmt.Sprintf(`{"id":%q,"decision":"approved"}`, id))
				for _, ch := range replies {
					<-ch
					lats = append(lats, time.Since(t0))
				}
			}
			slices.Sort(lats)
			b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lats[len(lats)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(perWaiter, "B/waiter")
		})
	}
}

// chanSize is the heap size of a buffered chan *invokeResult of capacity 1
// (the runtime's hchan header plus one slot).
const chanSize = 96 + 8
