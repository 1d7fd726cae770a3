package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// recorder is a process that keeps every message sent to it, synchronously
// in the sender's goroutine: once a later reply from the same actor is
// recorded, an earlier one it sent is recorded too.
type recorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *recorder) SendUserMessage(_ *actor.PID, m any) {
	_, msg, _ := actor.UnwrapEnvelope(m)
	r.mu.Lock()
	r.msgs = append(r.msgs, msg)
	r.mu.Unlock()
}
func (r *recorder) SendSystemMessage(*actor.PID, any) {}
func (r *recorder) Stop(*actor.PID)                   {}

func (r *recorder) got() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any(nil), r.msgs...)
}

var recorderIDs atomic.Int64

func newRecorder(as *actor.ActorSystem) (*recorder, *actor.PID) {
	r := &recorder{}
	pid, _ := as.ProcessRegistry.Add(r, fmt.Sprintf("recorder-%d", recorderIDs.Add(1)))
	return r, pid
}

// waitFor polls until cond holds (a condition, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// send puts one write in the Layout's mailbox with rec as its sender.
func send(t *testing.T, h *harness, ref *canvasRef, op, input string, mod ...func(*messages.Envelope)) *recorder {
	t.Helper()
	o, _ := messages.Lookup(op)
	env := &messages.Envelope{Op: op, Source: "api", Input: json.RawMessage(input)}
	for _, m := range mod {
		m(env)
	}
	args, derr := o.DecodeInput(env.Input)
	if derr != nil {
		t.Fatalf("%s: %v", op, derr)
	}
	env.Args = args
	rec, pid := newRecorder(h.sys.as)
	h.sys.as.Root.RequestWithCustomSender(ref.layoutPID.Load(), &invokeRequest{env: env, op: o}, pid)
	return rec
}

// A write that does not change the revision (snapshot save, delete, gc)
// is acknowledged by its own commit, never by the commit of an earlier
// write at the same revision.
func TestEveryWriteWaitsForItsOwnCommit(t *testing.T) {
	cases := []struct {
		op, input string
		setup     func(h *harness) string // returns the input when it needs an id
	}{
		{op: "snapshot.save", input: `{"name":"s1"}`},
		{op: "snapshot.delete", setup: func(h *harness) string {
			id := h.mustCall("", "snapshot.save", `{"name":"gone"}`)["snapshot"].(map[string]any)["id"]
			return fmt.Sprintf(`{"id":%q}`, id)
		}},
		{op: "snapshot.gc", setup: func(h *harness) string {
			h.mustCall("", "snapshot.save", `{"name":"old"}`)
			h.mustCall("", "snapshot.save", `{"name":"new"}`)
			return `{"keep":1}`
		}},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			var blocking atomic.Bool
			entered, release := make(chan struct{}, 8), make(chan struct{})
			h := start(t, "", func(_ *Config, o *persistence.Options) {
				o.SyncHook = func() error {
					if blocking.Load() {
						entered <- struct{}{}
						<-release
					}
					return nil
				}
			})
			// Runs before the harness stops: never leave a commit held.
			t.Cleanup(func() { blocking.Store(false); close(release) })
			h.mustCall("", "node.add", `{"type":"markdown"}`)
			input := tc.input
			if tc.setup != nil {
				input = tc.setup(h)
			}
			ref, _ := h.sys.canvas(context.Background(), "main")
			before := h.store.LastCommit()
			stale := uint64(1 << 40)
			barrier := func() {
				b := send(t, h, ref, "node.add", `{"type":"markdown"}`, func(e *messages.Envelope) { e.IfRevision = &stale })
				waitFor(t, "the Layout answers a conflicting write", func() bool { return len(b.got()) == 1 })
			}

			held := func(what string) {
				select {
				case <-entered:
				case <-time.After(10 * time.Second):
					t.Fatalf("no commit reached the disk: %s", what)
				}
			}
			blocking.Store(true)
			add := send(t, h, ref, "node.add", `{"type":"markdown","title":"first"}`)
			held("the add's commit") // on its way to disk, held there
			op := send(t, h, ref, tc.op, input)
			barrier() // the Layout has taken the op and sent it to the Journal
			if got := op.got(); len(got) != 0 {
				t.Fatalf("%s answered before any commit: %+v", tc.op, got[0])
			}
			release <- struct{}{}
			held("the op's own commit")
			waitFor(t, "the add is acknowledged", func() bool { return len(add.got()) == 1 })
			barrier() // the Layout has handled the add's commit in full
			if got := op.got(); len(got) != 0 {
				t.Fatalf("%s was acknowledged before its own commit reached the disk: %+v", tc.op, got[0])
			}
			blocking.Store(false)
			release <- struct{}{}
			waitFor(t, tc.op+" is acknowledged", func() bool { return len(op.got()) == 1 })
			if res := op.got()[0].(*invokeResult); res.err != nil {
				t.Fatalf("%s: %v", tc.op, res.err)
			}
			if after := h.store.LastCommit(); after != before+2 {
				t.Fatalf("commits %d -> %d; want the add's and the op's", before, after)
			}
		})
	}
}
