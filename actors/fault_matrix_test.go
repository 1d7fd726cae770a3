package actors

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The fault matrix: each canvas actor panics at each kind of message it
// handles (twice, early in the run) while writers add nodes, work items,
// steering and approval gates, a wait is parked on a gate and a follower
// reads the event stream. Every row must hold the durability contract:
// every acknowledged write is on disk (layout and AX), event numbers only
// increase, no caller is left to time out, and the parked wait is not
// answered without a decision.
func TestFaultMatrix(t *testing.T) {
	early := []int64{2, 5}
	rows := []struct {
		actor, kind string
		at          []int64 // which occurrences panic
	}{
		{"layout", "*actors.invokeRequest", early},
		{"layout", "*actors.journalCommitted", early},
		{"journal", "*actors.journalWrite", early},
		{"journal", "actors.flushNow", early},
		{"events", "*actors.publish", early},
		{"events", "*actors.subscribe", []int64{1}}, // the follower's subscription: it retries
		{"ax-state", "*actors.invokeRequest", early},
		{"ax-state", "*actors.journalCommitted", early},
		{"gates", "*actors.invokeRequest", early},
		{"gates", "*actors.journalCommitted", early},
		{"gates", "*actors.awaitGate", early},
		{"timeline", "*actors.invokeRequest", early},
		{"timeline", "*actors.journalCommitted", early},
		{"timeline", "*actors.claimSteering", early},
	}
	for _, row := range rows {
		t.Run(row.actor+" "+row.kind, func(t *testing.T) {
			ws := t.TempDir()
			h := start(t, ws)
			h.mustCall("", "node.add", `{"type":"markdown","title":"before"}`)
			parked := parkOnGate(t, h)
			var seen, fired atomic.Int64
			hook := func(name string, msg any) {
				if name != row.actor || fmt.Sprintf("%T", msg) != row.kind {
					return
				}
				if n := seen.Add(1); slices.Contains(row.at, n) {
					fired.Add(1)
					panic(fmt.Sprintf("injected fault: %s at %s #%d", row.actor, row.kind, n))
				}
			}
			messageFaultHook.Store(&hook)
			t.Cleanup(func() { messageFaultHook.Store(nil) })
			events := followEvents(t, h)

			// A second parked wait that the faults may hit while it parks.
			gate2 := h.mustCall("", "ax.approval.request", `{"title":"second"}`)["approvalGate"].(map[string]any)["id"].(string)
			go func() { _, _, _ = h.await(context.Background(), "ax.approval.get", gate2, 200) }()

			const writers, each = 4, 18
			var mu sync.Mutex
			nodes := map[string]string{}  // id -> title
			work := map[string]bool{}     // work item ids
			steering := map[string]bool{} // steering ids
			errs := map[messages.Code]int{}
			var wg sync.WaitGroup
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					deadline := func(e *messages.Envelope) { e.Deadline = time.Now().Add(20 * time.Second) }
					for i := range each {
						var op, in string
						switch (w + i) % 6 {
						case 0, 1:
							op, in = "node.add", fmt.Sprintf(`{"type":"markdown","title":"w%d-%d"}`, w, i)
						case 2:
							op, in = "ax.work.create", fmt.Sprintf(`{"title":"work %d-%d"}`, w, i)
						case 3:
							op, in = "ax.steer", fmt.Sprintf(`{"message":"steer %d-%d"}`, w, i)
						case 4:
							// A gate, and a short wait parked on it.
							g, err := h.call("", "ax.approval.request", `{"title":"gate"}`, deadline)
							if err == nil {
								_, _, _ = h.await(context.Background(), "ax.approval.get", g["approvalGate"].(map[string]any)["id"].(string), 20)
							}
							continue
						case 5:
							// A delivery claim that parks briefly.
							op, in = "ax.delivery.pending", fmt.Sprintf(`{"consumer":"c%d","waitMs":20,"leaseMs":1000}`, w)
						}
						out, err := h.call("", op, in, deadline)
						mu.Lock()
						switch {
						case err != nil:
							errs[err.Code]++
							if err.Code == messages.CodeTimeout {
								t.Logf("%s timed out: %s", op, err.Message)
							}
						case op == "node.add":
							nodes[out["id"].(string)] = fmt.Sprintf("w%d-%d", w, i)
						case op == "ax.work.create":
							work[out["workItem"].(map[string]any)["id"].(string)] = true
						case op == "ax.steer":
							steering[out["steering"].(map[string]any)["id"].(string)] = true
						}
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			messageFaultHook.Store(nil)
			// The canvas still takes writes after the faults.
			waitFor(t, "writes after the faults", func() bool {
				_, err := h.call("", "node.add", `{"type":"markdown","title":"after"}`)
				return err == nil
			})
			seqs := events.close()

			if fired.Load() == 0 {
				t.Fatalf("no fault fired: %s never got %s %d times", row.actor, row.kind, row.at[0])
			}
			if errs[messages.CodeTimeout] > 0 {
				t.Fatalf("%d calls were never answered (timeouts); errors %v", errs[messages.CodeTimeout], errs)
			}
			for code, n := range errs {
				if code != messages.CodeInternal && code != messages.CodeUnavailable {
					t.Fatalf("%d calls failed with %s; errors %v", n, code, errs)
				}
			}
			for i := 1; i < len(seqs); i++ {
				if seqs[i] <= seqs[i-1] {
					t.Fatalf("event numbers went backwards or repeated: %d after %d", seqs[i], seqs[i-1])
				}
			}
			select {
			case err := <-parked:
				if e, ok := err.(*messages.Error); !ok || e.Code != messages.CodeUnavailable {
					t.Fatalf("the parked wait ended without a decision: %v", err)
				}
			default:
			}

			// Acknowledged means on disk.
			h.stop()
			store := nodesOnDisk(t, ws, nodes)
			loaded, err := store.LoadAX("main")
			if err != nil {
				t.Fatal(err)
			}
			onDisk := map[string]bool{}
			for _, wi := range loaded.Board.WorkItems {
				onDisk[wi.ID] = true
			}
			for _, s := range loaded.Steering {
				onDisk[s.ID] = true
			}
			for id := range work {
				if !onDisk[id] {
					t.Fatalf("acknowledged work item %s is not on disk", id)
				}
			}
			for id := range steering {
				if !onDisk[id] {
					t.Fatalf("acknowledged steering %s is not on disk", id)
				}
			}
			t.Logf("%d faults; acknowledged %d nodes, %d work items, %d steering, all on disk; %d events in order; errors %v",
				fired.Load(), len(nodes), len(work), len(steering), len(seqs), errs)
		})
	}
}
