package actors

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// A canvas admits MaxInFlight writes at once: with its store held, the
// next write is refused at once (503 overloaded, retryAfterMs) instead of
// queueing, reads still answer, another canvas still writes, and once the
// store goes on the admitted writes complete and new ones are admitted.
func TestAdmissionCapsWritesInFlightPerCanvas(t *testing.T) {
	hold := make(chan struct{})
	var holding sync.Once
	started := make(chan struct{})
	var armed bool
	var mu sync.Mutex
	h := start(t, "", func(c *Config, o *persistence.Options) {
		c.MaxInFlight = 2
		o.SyncHook = func() error {
			mu.Lock()
			a := armed
			mu.Unlock()
			if a {
				holding.Do(func() { close(started) })
				<-hold
			}
			return nil
		}
	})
	h.mustCall("", "node.add", `{"type":"markdown"}`)
	h.mustCall("other", "node.add", `{"type":"markdown"}`)
	mu.Lock()
	armed = true
	mu.Unlock()

	done := make(chan *messages.Error, 2)
	for range 2 {
		go func() {
			_, err := h.call("", "node.add", `{"type":"markdown","title":"admitted"}`)
			done <- err
		}()
	}
	<-started
	deadline := time.Now().Add(5 * time.Second)
	for refOf(t, h.sys, "main").inFlight.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	_, err := h.call("", "node.add", `{"type":"markdown","title":"refused"}`)
	if err == nil || err.Code != messages.CodeOverloaded || err.Status != 503 || err.Extra[messages.RetryAfterKey] != int64(100) {
		t.Fatalf("third write: %v", err)
	}
	h.mustCall("", "layout.get", `{}`)
	close(hold)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("admitted write: %v", err)
		}
	}
	mu.Lock()
	armed = false
	mu.Unlock()
	h.mustCall("", "node.add", `{"type":"markdown","title":"after"}`)
	titles := map[string]int{}
	for _, n := range h.mustCall("", "layout.get", `{}`)["nodes"].([]any) {
		if s, ok := n.(map[string]any)["title"].(string); ok {
			titles[s]++
		}
	}
	if titles["admitted"] != 2 || titles["refused"] != 0 || titles["after"] != 1 {
		t.Fatalf("titles %v", titles)
	}
	if n := refOf(t, h.sys, "main").inFlight.Load(); n != 0 {
		t.Fatalf("%d writes still counted in flight", n)
	}
}

// With AgentRate, each agent gets its own token bucket: a runaway agent is
// refused (429 rate-limited with the wait) while other agents and writes
// without an agent go on.
func TestAdmissionRateLimitsEachAgent(t *testing.T) {
	h := start(t, "", func(c *Config, _ *persistence.Options) {
		c.AgentRate = 0.01 // one token per 100 s: none refill during the test
		c.AgentBurst = 2
	})
	as := func(agent string) func(*messages.Envelope) { return func(e *messages.Envelope) { e.Agent = agent } }
	h.mustCall("", "node.add", `{"type":"markdown"}`, as("runaway"))
	h.mustCall("a", "node.add", `{"type":"markdown"}`, as("runaway")) // across canvases
	_, err := h.call("", "node.add", `{"type":"markdown"}`, as("runaway"))
	if err == nil || err.Code != messages.CodeRateLimited || err.Status != 429 {
		t.Fatalf("third write of the runaway agent: %v", err)
	}
	if ms := err.Extra[messages.RetryAfterKey].(int64); ms < 99_000 || ms > 100_000 {
		t.Fatalf("retry after %d ms, want about 100 s", ms)
	}
	h.mustCall("", "node.add", `{"type":"markdown"}`, as("polite"))
	h.mustCall("", "node.add", `{"type":"markdown"}`)
	h.mustCall("", "layout.get", `{}`, as("runaway")) // reads are not limited
}

func refOf(t *testing.T, s *System, id string) *canvasRef {
	t.Helper()
	ref, err := s.canvas(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestTokenBucket(t *testing.T) {
	var b agentBuckets
	t0 := time.Unix(0, 0)
	for i, tc := range []struct {
		at   time.Duration
		wait time.Duration
	}{
		{0, 0}, {0, 0}, {0, 500 * time.Millisecond}, // burst 2, rate 2/s
		{250 * time.Millisecond, 250 * time.Millisecond},
		{500 * time.Millisecond, 0},
		{500 * time.Millisecond, 500 * time.Millisecond},
		{10 * time.Second, 0}, {10 * time.Second, 0}, {10 * time.Second, 500 * time.Millisecond},
	} {
		if got := b.take("x", 2, 2, t0.Add(tc.at)); got != tc.wait {
			t.Fatalf("take %d at %v: wait %v, want %v", i, tc.at, got, tc.wait)
		}
	}
}

// An owner that dequeues a request after its deadline answers it with a
// timeout that says it was not applied, and does not apply it: the caller
// was told it timed out, and a retry must not find it applied as well.
func TestExpiredRequestsAreNotApplied(t *testing.T) {
	h := start(t, "")
	ref := refOf(t, h.sys, "main")
	for _, tc := range []struct {
		op, input string
		pid       func() *actor.PID
	}{
		{"node.add", `{"type":"markdown","title":"zombie"}`, ref.layoutPID.Load},
		{"ax.work.create", `{"title":"zombie"}`, ref.axStatePID.Load},
		{"ax.approval.request", `{"title":"zombie"}`, ref.gatesPID.Load},
		{"ax.steer", `{"message":"zombie"}`, ref.timelinePID.Load},
	} {
		op, _ := messages.Lookup(tc.op)
		args, derr := op.DecodeInput(json.RawMessage(tc.input))
		if derr != nil {
			t.Fatal(derr)
		}
		env := &messages.Envelope{Canvas: "main", Op: tc.op, Source: "api", Input: json.RawMessage(tc.input), Args: args,
			Deadline: time.Now().Add(-time.Millisecond)} // it waited past its deadline
		res, err := h.sys.request(ref, tc.pid(), &invokeRequest{env: env, op: op}, 5*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		out := res.(*invokeResult)
		if out.err == nil || out.err.Code != messages.CodeTimeout || out.err.Extra["applied"] != false {
			t.Fatalf("%s: %+v", tc.op, out)
		}
	}
	for _, probe := range []string{"layout.get", "ax.get", "ax.timeline.get"} {
		b, _ := json.Marshal(h.mustCall("", probe, `{}`))
		if strings.Contains(string(b), "zombie") {
			t.Fatalf("an expired request was applied: %s", b)
		}
	}
}

// A canvas whose load failed (here: a damaged record) is loaded again by
// its next use once the cause is gone, instead of answering 503 until a
// restart.
func TestFailedCanvasLoadIsRetried(t *testing.T) {
	h := start(t, "")
	if err := h.store.Commit([]persistence.Op{persistence.Set(persistence.MetaKey("broken"), "not json")}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.call("broken", "layout.get", `{}`); err == nil || err.Status != 503 {
		t.Fatalf("a canvas with a damaged record: %v", err)
	}
	if err := h.store.Commit([]persistence.Op{persistence.Delete(persistence.MetaKey("broken"))}); err != nil {
		t.Fatal(err)
	}
	h.mustCall("broken", "layout.get", `{}`)
	h.mustCall("broken", "node.add", `{"type":"markdown"}`)
}

// While the store refuses writes a never-opened canvas still opens for
// reads; its seed and event-number reservation are stored by its first
// commit once writes resume, and survive a restart.
func TestCanvasOpensForReadsWhileTheStoreFails(t *testing.T) {
	ws := t.TempDir()
	var failing atomic.Bool
	opts := func(c *Config, o *persistence.Options) {
		c.SeedDockedWidgets = true
		o.RecoverFirst, o.RecoverMax = 10*time.Millisecond, 20*time.Millisecond
		o.SyncHook = func() error {
			if failing.Load() {
				return errors.New("injected EIO")
			}
			return nil
		}
	}
	h := start(t, ws, opts)
	h.mustCall("", "node.add", `{"type":"markdown"}`)
	failing.Store(true)
	if _, err := h.call("", "node.add", `{"type":"markdown"}`); err == nil {
		t.Fatal("a write on a failing disk succeeded")
	}
	if n := len(h.nodeIDs("fresh")); n != 2 {
		t.Fatalf("a new canvas read on a failing disk: %d nodes, want the 2 docked widgets", n)
	}
	if _, err := h.call("fresh", "node.add", `{"type":"markdown"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("a write to it: %v", err)
	}
	failing.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := h.call("fresh", "node.add", `{"type":"markdown","title":"first"}`); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("writes did not resume: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.stop()
	r := start(t, ws, opts)
	if n := len(r.nodeIDs("fresh")); n != 3 {
		t.Fatalf("after a restart: %d nodes, want 3", n)
	}
	if seq, err := r.store.EventSeq("fresh"); err != nil || seq == 0 {
		t.Fatalf("the event numbers were never reserved: %d %v", seq, err)
	}
}

// Shutdown honours its context: with a commit stuck in fsync the drain
// cannot finish, and Shutdown returns at the deadline with an error
// instead of hanging.
func TestShutdownHonoursItsDeadline(t *testing.T) {
	block := make(chan struct{})
	var stuck atomic.Bool
	h := start(t, "", func(_ *Config, o *persistence.Options) {
		o.SyncHook = func() error {
			if stuck.Load() {
				<-block
			}
			return nil
		}
	})
	defer close(block)
	h.mustCall("", "node.add", `{"type":"markdown"}`)
	stuck.Store(true)
	go func() { _, _ = h.call("", "node.add", `{"type":"markdown"}`) }()
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	err := h.sys.Shutdown(ctx)
	if err == nil || time.Since(t0) > 3*time.Second {
		t.Fatalf("Shutdown with a stuck drain: %v after %v", err, time.Since(t0))
	}

}

// An idle canvas is passivated (its actors stop; its state is durable) and
// loaded again, whole, by its next use; a canvas with an event subscriber
// or a parked wait is kept.
func TestIdleCanvasesArePassivatedAndReloaded(t *testing.T) {
	h := start(t, "", func(c *Config, _ *persistence.Options) {
		c.PassivateAfter, c.PassivateEvery = 100*time.Millisecond, 10*time.Millisecond
	})
	h.mustCall("idle", "node.add", `{"type":"markdown","title":"kept on disk"}`)
	h.mustCall("idle", "ax.steer", `{"message":"still here"}`)
	h.mustCall("watched", "node.add", `{"type":"markdown"}`)
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Canvas: "watched"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	deadline := time.Now().Add(5 * time.Second)
	for h.sys.Stats().Passivations < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the idle canvas was not passivated")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // a few more ticks: the watched canvas stays
	if _, open := h.sys.canvases.Load("watched"); !open || h.sys.Stats().Passivations != 1 {
		t.Fatalf("passivations %d; the watched canvas open: %v", h.sys.Stats().Passivations, open)
	}
	if _, open := h.sys.canvases.Load("idle"); open {
		t.Fatal("the passivated canvas is still in the lookup map")
	}
	b, _ := json.Marshal(h.mustCall("idle", "layout.get", `{}`))
	if !strings.Contains(string(b), "kept on disk") {
		t.Fatalf("the reloaded canvas lost its node: %s", b)
	}
	b, _ = json.Marshal(h.mustCall("idle", "ax.timeline.get", `{}`))
	if !strings.Contains(string(b), "still here") {
		t.Fatalf("the reloaded canvas lost its timeline: %s", b)
	}
	h.mustCall("idle", "node.add", `{"type":"markdown"}`)
}
