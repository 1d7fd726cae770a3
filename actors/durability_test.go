package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

// faultPlan panics on chosen calls of each fault hook.
type faultPlan struct {
	journalBefore, journalAfter, events map[int64]bool
	// layoutCommit panics as the Layout takes a journalCommitted.
	layoutCommit map[int64]bool
	// boomEvery makes every n-th write of each writer panic in its handler.
	boomEvery int
}

func panicsAt(calls ...int64) map[int64]bool {
	m := map[int64]bool{}
	for _, c := range calls {
		m[c] = true
	}
	return m
}

// install sets the hooks; fired counts the panics they raised.
func (p faultPlan) install(t *testing.T) (fired *atomic.Int64) {
	var before, after, events, commits atomic.Int64
	fired = &atomic.Int64{}
	journal := func(afterCommit bool) {
		if !afterCommit && p.journalBefore[before.Add(1)] {
			fired.Add(1)
			panic("injected fault: journal before commit")
		}
		if afterCommit && p.journalAfter[after.Add(1)] {
			fired.Add(1)
			panic("injected fault: journal after commit")
		}
	}
	emitHook := func() {
		if p.events[events.Add(1)] {
			fired.Add(1)
			panic("injected fault: events")
		}
	}
	panicHook = func(env *messages.Envelope) {
		if strings.Contains(string(env.Input), "boom") {
			fired.Add(1)
			panic("injected fault: layout handler")
		}
	}
	commitHook := func() {
		if p.layoutCommit[commits.Add(1)] {
			fired.Add(1)
			panic("injected fault: layout taking a commit")
		}
	}
	commitFaultHook.Store(&commitHook)
	journalFaultHook.Store(&journal)
	eventsFaultHook.Store(&emitHook)
	t.Cleanup(func() {
		journalFaultHook.Store(nil)
		eventsFaultHook.Store(nil)
		commitFaultHook.Store(nil)
		panicHook = nil
	})
	return fired
}

// planned is how many panics the plan raises (boom writes counted apart).
func (p faultPlan) planned() int64 {
	return int64(len(p.journalBefore) + len(p.journalAfter) + len(p.events) + len(p.layoutCommit))
}

// eventLog follows a canvas's stream across restarts (resuming with the
// last event number seen) and keeps every event number it got.
type eventLog struct {
	mu   sync.Mutex
	seqs []uint64
	stop chan struct{}
	done chan struct{}
}

func followEvents(t *testing.T, h *harness) *eventLog {
	l := &eventLog{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		var last *uint64
		for {
			// It reports what it took, so writes' replies wait for it
			// (delivery.go) and the faults below hit held replies too.
			sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{LastEventID: last, Acks: true})
			if err != nil {
				select {
				case <-l.stop:
					return
				case <-time.After(10 * time.Millisecond):
					continue
				}
			}
			take := func(e *messages.StreamEvent) {
				l.mu.Lock()
				l.seqs = append(l.seqs, e.Seq)
				l.mu.Unlock()
				s := e.Seq
				last = &s
				sub.Written(s)
			}
			if sub.Resumed {
				for _, e := range sub.Initial[1:] {
					take(e)
				}
			} else if last == nil {
				s := sub.Head
				last = &s
			}
		read:
			for {
				select {
				case e, ok := <-sub.Events:
					if !ok {
						break read
					}
					take(e)
				case <-l.stop:
					sub.Close()
					return
				}
			}
		}
	}()
	return l
}

func (l *eventLog) close() []uint64 {
	// Events are published after the commit that acknowledged the write,
	// so the last ones may still be on their way: give the stream up to
	// 5 s to deliver one before stopping (none at all still fails).
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		n := len(l.seqs)
		l.mu.Unlock()
		if n > 0 {
			break
		}
	}
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seqs
}

// Panics in the Journal (before and after a commit), the Layout and the
// Events actor while several writers add nodes: every acknowledged write is
// on disk, event numbers only increase, and every caller gets an answer (a
// hung waiter would show as a timeout).
func TestFaultsUnderConcurrentWriters(t *testing.T) {
	cases := []struct {
		name   string
		plan   faultPlan
		reload bool // the faults are a restart storm: the canvas reloads
	}{
		{name: "journal before commit", plan: faultPlan{journalBefore: panicsAt(3, 7, 11, 15)}},
		{name: "journal after commit", plan: faultPlan{journalAfter: panicsAt(2, 6, 10, 14)}},
		{name: "layout handler", plan: faultPlan{boomEvery: 9}},
		// A lost journalCommitted with no later commit to cover it would
		// leave its writers hanging: the restarted Layout asks again.
		{name: "layout taking a commit", plan: faultPlan{layoutCommit: panicsAt(3, 9, 17, 25)}},
		{name: "events", plan: faultPlan{events: panicsAt(5, 9, 13, 17)}},
		{name: "all at once", plan: faultPlan{journalBefore: panicsAt(4, 12), journalAfter: panicsAt(8, 16),
			events: panicsAt(6, 14), boomEvery: 11}},
		{name: "journal restart storm", reload: true,
			plan: faultPlan{journalBefore: panicsAt(5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			h := start(t, ws)
			h.mustCall("", "node.add", `{"type":"markdown","title":"before"}`)
			parked := parkOnGate(t, h)
			events := followEvents(t, h)
			fired := tc.plan.install(t)

			const writers, each = 4, 25
			var mu sync.Mutex
			acked := map[string]string{} // id -> title
			errs := map[messages.Code]int{}
			var wg sync.WaitGroup
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						title := fmt.Sprintf("w%d-%d", w, i)
						if tc.plan.boomEvery > 0 && i%tc.plan.boomEvery == tc.plan.boomEvery-1 {
							title += "-boom"
						}
						out, err := h.call("", "node.add", fmt.Sprintf(`{"type":"markdown","title":%q}`, title),
							func(e *messages.Envelope) { e.Deadline = time.Now().Add(20 * time.Second) })
						mu.Lock()
						if err != nil {
							errs[err.Code]++
						} else {
							acked[out["id"].(string)] = title
						}
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if tc.reload {
				// The canvas comes back from the store and takes writes.
				waitFor(t, "the reloaded canvas takes writes", func() bool {
					out, err := h.call("", "node.add", `{"type":"markdown","title":"after"}`)
					if err == nil {
						acked[out["id"].(string)] = "after"
					}
					return err == nil
				})
			}
			seqs := events.close()
			if tc.reload {
				select {
				case err := <-parked:
					if e, ok := err.(*messages.Error); !ok || e.Code != messages.CodeUnavailable {
						t.Fatalf("a wait parked across the reload got %v; want unavailable (wait again)", err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("a wait parked across the reload was never answered")
				}
			} else if len(parked) != 0 {
				t.Fatalf("the parked wait ended without a decision: %v", <-parked)
			}
			booms := int64(errs[messages.CodeInternal])
			if got := fired.Load() - booms; got != tc.plan.planned() {
				t.Fatalf("%d injected panics fired; the plan has %d", got, tc.plan.planned())
			}

			if errs[messages.CodeTimeout] > 0 {
				t.Fatalf("%d writes were never answered (timeouts); errors %v", errs[messages.CodeTimeout], errs)
			}
			for code, n := range errs {
				switch {
				case code == messages.CodeInternal && tc.plan.boomEvery > 0:
				case code == messages.CodeUnavailable && tc.reload:
				default:
					t.Fatalf("%d writes failed with %s; errors %v", n, code, errs)
				}
			}
			if len(acked) < writers*each/3 && !tc.reload {
				t.Fatalf("only %d of %d writes were acknowledged; errors %v", len(acked), writers*each, errs)
			}
			for i := 1; i < len(seqs); i++ {
				if seqs[i] <= seqs[i-1] {
					t.Fatalf("event numbers went backwards or repeated: %d after %d (at %d of %d)", seqs[i], seqs[i-1], i, len(seqs))
				}
			}
			if len(seqs) == 0 {
				t.Fatal("the stream delivered no events")
			}
			st := h.sys.Stats()
			if tc.reload != (st.CanvasReloads > 0) {
				t.Fatalf("canvas reloads %d; want reload=%v", st.CanvasReloads, tc.reload)
			}

			// Acknowledged means on disk: reopen the store and look.
			h.stop()
			nodesOnDisk(t, ws, acked)
			t.Logf("%d acknowledged, all on disk; %d events in order; errors %v; stats %+v", len(acked), len(seqs), errs, st)
		})
	}
}

// A Layout that panics while taking the Journal's word loses that word:
// with no later commit to cover it, only asking again (journalSync on
// restart) answers the write.
func TestLayoutThatLosesACommitAsksAgain(t *testing.T) {
	h := start(t, "")
	h.mustCall("", "node.add", `{"type":"markdown","title":"before"}`)
	fired := faultPlan{layoutCommit: panicsAt(1)}.install(t)
	out, err := h.call("", "node.add", `{"type":"markdown","title":"only"}`,
		func(e *messages.Envelope) { e.Deadline = time.Now().Add(10 * time.Second) })
	if err != nil {
		t.Fatalf("the write whose commit word was lost: %v", err)
	}
	if fired.Load() != 1 || h.sys.Stats().LayoutRestarts != 1 {
		t.Fatalf("fired %d, layout restarts %d; want 1 and 1", fired.Load(), h.sys.Stats().LayoutRestarts)
	}
	if got := h.mustCall("", "node.get", fmt.Sprintf(`{"id":%q}`, out["id"])); got["title"] != "only" {
		t.Fatalf("read after the recovered write: %v", got)
	}
}

// parkOnGate parks a minute-long wait on a new approval gate and returns
// where its answer goes: the gate's decision, or a reload's "wait again",
// never its deadline.
func parkOnGate(t *testing.T, h *harness) <-chan error {
	t.Helper()
	gate := h.mustCall("", "ax.approval.request", `{"title":"deploy"}`)["approvalGate"].(map[string]any)["id"].(string)
	parked := make(chan error, 1)
	go func() {
		_, _, err := h.await(context.Background(), "ax.approval.get", gate, 60000)
		parked <- err
	}()
	waitFor(t, "the await is parked", func() bool { return h.stat("gateWaiters") == 1 })
	return parked
}

// nodesOnDisk reopens the store of ws and fails unless every acknowledged
// node (id -> title) is on disk with its title; it returns the store
// (closed with the test) for further checks.
func nodesOnDisk(t *testing.T, ws string, acked map[string]string) *persistence.Store {
	t.Helper()
	store, err := persistence.Open(ws, persistence.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	state, _, err := store.LoadCanvas("main")
	if err != nil {
		t.Fatal(err)
	}
	for id, title := range acked {
		n, ok := state.Nodes.Get(id)
		if !ok {
			t.Fatalf("acknowledged node %s (%s) is not on disk (%d acknowledged)", id, title, len(acked))
		}
		if n.Data["title"] != title {
			t.Fatalf("node %s on disk has title %v; acknowledged %q", id, n.Data["title"], title)
		}
	}
	return store
}
