package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// Actor-level tests of the AX owners: AxState, Gates, Timeline.

// await invokes a gate read with a wait under ctx and returns the body.
func (h *harness) await(ctx context.Context, op, id string, waitMs int) (map[string]any, int, error) {
	env := &messages.Envelope{Op: op, Source: "api", Input: json.RawMessage(fmt.Sprintf(`{"id":%q,"waitMs":%d}`, id, waitMs))}
	reply, err := h.sys.Invoke(ctx, env)
	if err != nil {
		return nil, 0, err
	}
	b, _ := json.Marshal(reply.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out, reply.StatusCode(), nil
}

func (h *harness) stat(key string) float64 {
	return h.mustCall("", "ax.stats", `{}`)[key].(float64)
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestGateWaitersAreReleasedByTheResolve(t *testing.T) {
	h := start(t, "")
	gate := h.mustCall("", "ax.approval.request", `{"title":"deploy"}`)["approvalGate"].(map[string]any)["id"].(string)
	type result struct {
		body   map[string]any
		status int
		err    error
	}
	out := make(chan result, 3)
	for range 3 {
		go func() {
			b, s, err := h.await(context.Background(), "ax.approval.get", gate, 30000)
			out <- result{b, s, err}
		}()
	}
	// One more waiter whose caller goes away.
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, _, err := h.await(ctx, "ax.approval.get", gate, 30000)
		gone <- err
	}()
	eventually(t, func() bool { return h.stat("gateWaiters") == 4 })
	cancel()
	if err := <-gone; err == nil {
		t.Fatal("a cancelled wait must fail")
	}
	eventually(t, func() bool { return h.stat("gateWaiters") == 3 })

	h.mustCall("", "ax.approval.resolve", fmt.Sprintf(`{"id":%q,"decision":"rejected","source":"browser"}`, gate))
	for range 3 {
		r := <-out
		g, _ := r.body["approvalGate"].(map[string]any)
		if r.err != nil || r.status != 200 || r.body["pending"] != false || g["status"] != "rejected" || g["resolvedBy"] != "browser" {
			t.Fatalf("released waiter: %+v", r)
		}
	}
	if n := h.stat("gateWaiters"); n != 0 {
		t.Fatalf("%v waiters left", n)
	}
}

func TestGateWaitDeadlineAnswersPending(t *testing.T) {
	h := start(t, "")
	gate := h.mustCall("", "ax.mode.request", `{"mode":"plan"}`)["modeRequest"].(map[string]any)["id"].(string)
	start := time.Now()
	body, status, err := h.await(context.Background(), "ax.mode.get", gate, 100)
	if err != nil || status != 200 || body["pending"] != true || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("deadline: %v %d %v after %v", body, status, err, time.Since(start))
	}
	if _, status, _ := h.await(context.Background(), "ax.mode.get", "mode-nope", 100); status != 404 {
		t.Fatalf("unknown gate: %d", status)
	}
	if n := h.stat("gateWaiters"); n != 0 {
		t.Fatalf("%v waiters left", n)
	}
}

func TestDeliveryLeaseHidesRowsUntilItEnds(t *testing.T) {
	h := start(t, "")
	st := h.mustCall("", "ax.steer", `{"message":"one","source":"browser"}`)["steering"].(map[string]any)["id"].(string)
	claim := h.mustCall("", "ax.delivery.pending", `{"consumer":"a","leaseMs":150}`)
	if p := claim["pending"].([]any); len(p) != 1 {
		t.Fatalf("claim: %v", claim)
	}
	if p := h.mustCall("", "ax.delivery.pending", `{"consumer":"b"}`)["pending"].([]any); len(p) != 0 {
		t.Fatalf("b sees a's lease: %v", p)
	}
	if _, err := h.call("", "ax.delivery.mark", fmt.Sprintf(`{"id":%q,"consumer":"b"}`, st)); err == nil || err.Code != messages.CodeLeaseHeld {
		t.Fatalf("mark under a's lease: %v", err)
	}
	// b waits; the lease ends and b is answered with the row.
	got := h.mustCall("", "ax.delivery.pending", `{"consumer":"b","waitMs":5000}`)
	if p := got["pending"].([]any); len(p) != 1 {
		t.Fatalf("after the lease: %v", got)
	}
	if n := h.stat("leases"); n != 0 {
		t.Fatalf("%v leases left", n)
	}
	h.mustCall("", "ax.delivery.mark", fmt.Sprintf(`{"id":%q,"consumer":"b"}`, st))
	if _, err := h.call("", "ax.delivery.mark", `{"id":"steer-nope"}`); err == nil || err.Status != 404 {
		t.Fatalf("unknown mark: %v", err)
	}
}

func TestPanicInAnAXActorIsSurvived(t *testing.T) {
	ws := t.TempDir()
	h := start(t, ws)
	h.mustCall("", "ax.work.create", `{"title":"before"}`)
	h.mustCall("", "ax.steer", `{"message":"kept"}`)
	panicHook = func(env *messages.Envelope) {
		if strings.Contains(string(env.Input), "boom") {
			panic("injected fault")
		}
	}
	t.Cleanup(func() { panicHook = nil })
	for _, op := range []string{"ax.work.create", "ax.approval.request", "ax.event.record"} {
		if _, err := h.call("", op, `{"title":"boom","kind":"note","summary":"boom"}`); err == nil || err.Status != 500 {
			t.Fatalf("%s: the failing call must get a 500, got %v", op, err)
		}
	}
	h.mustCall("", "ax.work.create", `{"title":"after"}`)
	h.mustCall("", "ax.steer", `{"message":"after"}`)
	work := h.mustCall("", "ax.work.list", `{}`)["workItems"].([]any)
	if len(work) != 2 || work[0].(map[string]any)["title"] != "before" || work[1].(map[string]any)["title"] != "after" {
		t.Fatalf("work after the fault: %v", work)
	}
	h.stop()
	h = start(t, ws)
	if steer := h.mustCall("", "ax.timeline.get", `{}`)["steering"].([]any); len(steer) != 2 {
		t.Fatalf("steering after restart: %v", steer)
	}
}

func TestAXStoreFailureRefusesWrites(t *testing.T) {
	var failing atomic.Bool
	h := start(t, "", func(_ *Config, o *persistence.Options) {
		o.SyncHook = func() error {
			if failing.Load() {
				return errors.New("injected EIO")
			}
			return nil
		}
	})
	h.mustCall("", "ax.work.create", `{"title":"durable"}`)
	failing.Store(true)
	if _, err := h.call("", "ax.work.create", `{"title":"lost"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("write during fsync failure: %v", err)
	}
	failing.Store(false)
	if _, err := h.call("", "ax.work.create", `{"title":"refused"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("AX writes stay refused: %v", err)
	}
	if w := h.mustCall("", "ax.work.list", `{}`)["workItems"].([]any); len(w) != 1 {
		t.Fatalf("reads serve the last durable state: %v", w)
	}
}

func TestNodeRemovalRepliesAfterTheAXSide(t *testing.T) {
	h := start(t, "")
	n := h.mustCall("", "node.add", `{"type":"markdown","title":"N"}`)["id"].(string)
	h.mustCall("", "ax.focus.set", fmt.Sprintf(`{"nodeIds":[%q]}`, n))
	h.mustCall("", "ax.work.create", fmt.Sprintf(`{"title":"w","nodeIds":[%q]}`, n))
	h.mustCall("", "node.remove", fmt.Sprintf(`{"id":%q}`, n))
	// No polling: the delete's reply came after the AX actors applied it.
	state := h.mustCall("", "ax.get", `{"includeContext":false}`)["state"].(map[string]any)
	if ids := state["focus"].(map[string]any)["nodeIds"].([]any); len(ids) != 0 {
		t.Fatalf("focus after delete: %v", ids)
	}
	if ids := state["workItems"].([]any)[0].(map[string]any)["nodeIds"].([]any); len(ids) != 0 {
		t.Fatalf("work item after delete: %v", ids)
	}
	if ev := h.mustCall("", "ax.timeline.get", `{}`)["events"].([]any); len(ev) != 1 {
		t.Fatalf("audit notes: %v", ev)
	}
}

// TestJournalTellsEachWriterItsOwnCommits drives the Journal with two
// writers and asserts the messages each one gets back.
func TestJournalTellsEachWriterItsOwnCommits(t *testing.T) {
	_, as, ref := journalUnderTest(t)
	a, b := &probe{}, &probe{}
	pa := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
	pb := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return b }))
	journal := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }))
	for i := uint64(1); i <= 20; i++ {
		as.Root.Send(journal, &journalWrite{from: pa, seq: i, ops: []persistence.Op{persistence.Set(fmt.Sprintf("a%02d", i), "v")}})
		as.Root.Send(journal, &journalWrite{from: pb, seq: i, ops: []persistence.Op{persistence.Set(fmt.Sprintf("b%02d", i), "v")}})
	}
	check := func(p *probe, last uint64) {
		t.Helper()
		eventually(t, func() bool {
			msgs := p.received()
			return len(msgs) > 0 && msgs[len(msgs)-1].(*journalCommitted).upTo == last
		})
		prev := uint64(0)
		for _, m := range p.received() {
			c := m.(*journalCommitted)
			if c.err != nil || c.upTo <= prev {
				t.Fatalf("commit messages out of order: %+v after %d", c, prev)
			}
			prev = c.upTo
		}
	}
	check(a, 20)
	check(b, 20)
}

// A write the Journal never received (its Journal panicked as it arrived)
// shows as a gap in its writer's numbers: the Journal does not commit or
// acknowledge past it, and asks the canvas to reload instead.
func TestJournalGapAsksForAReload(t *testing.T) {
	store, as, ref := journalUnderTest(t)
	writer := &probe{}
	pw := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return writer }))
	parent := &parentProbe{child: actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }), spawned: make(chan *actor.PID, 1)}
	as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return parent }))
	journal := <-parent.spawned
	as.Root.Send(journal, &journalWrite{from: pw, seq: 1, ops: []persistence.Op{persistence.Set("one", "v")}})
	eventually(t, func() bool { return len(writer.received()) == 1 })
	as.Root.Send(journal, &journalWrite{from: pw, seq: 3, ops: []persistence.Op{persistence.Set("three", "v")}}) // 2 never came
	eventually(t, func() bool { return len(parent.received()) == 1 })
	if _, ok := parent.received()[0].(*reloadCanvas); !ok || !ref.reloading.Load() {
		t.Fatalf("the parent got %T; reloading %v", parent.received()[0], ref.reloading.Load())
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(writer.received()); n != 1 {
		t.Fatalf("the writer was told of %d commits; write 3 must not be acknowledged", n)
	}
	if _, ok, _ := store.Get("three"); ok {
		t.Fatal("the write after the gap was committed")
	}
}

// parentProbe spawns one child and records what the child sends it.
type parentProbe struct {
	probe
	child   *actor.Props
	spawned chan *actor.PID
}

func (p *parentProbe) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*actor.Started); ok {
		p.spawned <- ctx.Spawn(p.child)
		return
	}
	p.probe.Receive(ctx)
}

// journalUnderTest is a store, an actor system and a canvas handle for
// driving a Journal by hand; both end with the test.
func journalUnderTest(t *testing.T) (*persistence.Store, *actor.ActorSystem, *canvasRef) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), persistence.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	as := actor.NewActorSystem()
	t.Cleanup(as.Shutdown)
	return store, as, &canvasRef{id: "main", sys: &System{cfg: Config{Store: store, Logger: quiet()}}, journal: newJournalCore()}
}

// The Journal writes one canvas meta record per commit, the newest of the
// layout steps in it; AX writes (no meta) leave it alone.
func TestJournalWritesTheNewestMetaRecord(t *testing.T) {
	store, as, ref := journalUnderTest(t)
	w := &probe{}
	pw := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return w }))
	journal := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }))
	for i := uint64(1); i <= 30; i++ {
		write := &journalWrite{from: pw, seq: i, ops: []persistence.Op{persistence.Set(fmt.Sprintf("r%02d", i), "v")}}
		if i%3 != 0 { // every third is an AX write: records only
			st := canvas.NewState()
			st.Revision = i
			write.meta = st
		}
		as.Root.Send(journal, write)
	}
	eventually(t, func() bool {
		msgs := w.received()
		return len(msgs) > 0 && msgs[len(msgs)-1].(*journalCommitted).upTo == 30
	})
	v, ok, err := store.Get(persistence.MetaKey("main"))
	if err != nil || !ok {
		t.Fatalf("meta record: %q %v %v", v, ok, err)
	}
	var meta struct{ Revision uint64 }
	if err := json.Unmarshal([]byte(v), &meta); err != nil || meta.Revision != 29 {
		t.Fatalf("meta record %s: revision %d, want 29 (the newest layout step's)", v, meta.Revision)
	}
}
