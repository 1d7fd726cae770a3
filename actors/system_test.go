package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

type harness struct {
	t     *testing.T
	ws    string
	store *persistence.Store
	sys   *System
}

func start(t *testing.T, ws string, mut ...func(*Config, *persistence.Options)) *harness {
	t.Helper()
	if ws == "" {
		ws = t.TempDir()
	}
	cfg := Config{Logger: quiet(), SeedDockedWidgets: true}
	sopts := persistence.Options{Logger: quiet()}
	for _, m := range mut {
		m(&cfg, &sopts)
	}
	store, err := persistence.Open(ws, sopts)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = store
	sys, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ws: ws, store: store, sys: sys}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	if h.sys == nil {
		return
	}
	_ = h.sys.Shutdown(context.Background())
	_ = h.store.Close()
	h.sys = nil
}

// call invokes an op with a JSON input and returns the reply body as a map.
func (h *harness) call(canvasID, op, input string, mod ...func(*messages.Envelope)) (map[string]any, *messages.Error) {
	h.t.Helper()
	env := &messages.Envelope{Canvas: canvasID, Op: op, Source: "api", Input: json.RawMessage(input)}
	for _, m := range mod {
		m(env)
	}
	reply, err := h.sys.Invoke(context.Background(), env)
	if err != nil {
		var e *messages.Error
		if errors.As(err, &e) {
			return nil, e
		}
		h.t.Fatalf("%s: %v", op, err)
	}
	b, _ := json.Marshal(reply.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out, nil
}

func (h *harness) mustCall(canvasID, op, input string, mod ...func(*messages.Envelope)) map[string]any {
	h.t.Helper()
	out, err := h.call(canvasID, op, input, mod...)
	if err != nil {
		h.t.Fatalf("%s %s: %v", op, input, err)
	}
	return out
}

func (h *harness) nodeIDs(canvasID string) []string {
	layout := h.mustCall(canvasID, "layout.get", `{}`)
	var ids []string
	for _, n := range layout["nodes"].([]any) {
		ids = append(ids, n.(map[string]any)["id"].(string))
	}
	return ids
}

func TestWriteThenReadYourWrites(t *testing.T) {
	h := start(t, "")
	layout := h.mustCall("", "layout.get", `{}`)
	if got := len(layout["nodes"].([]any)); got != 2 {
		t.Fatalf("a new canvas has the 2 docked widgets, got %d nodes", got)
	}
	rev0 := layout["revision"].(float64)
	added := h.mustCall("", "node.add", `{"type":"markdown","title":"Hello"}`)
	if added["revision"].(float64) != rev0+1 {
		t.Fatalf("revision %v after add, want %v", added["revision"], rev0+1)
	}
	// The reply is sent only after the view is published: read it now.
	got := h.mustCall("", "node.get", fmt.Sprintf(`{"id":%q}`, added["id"]))
	if got["title"] != "Hello" {
		t.Fatalf("read after write: %v", got)
	}
	pos := added["position"].(map[string]any)
	if pos["x"] != 40.0 || pos["y"] != 80.0 {
		t.Fatalf("first node at the board origin (40,80) (docked widgets are not obstacles), got %v", pos)
	}
}

func TestIfRevision(t *testing.T) {
	h := start(t, "")
	rev := uint64(h.mustCall("", "layout.get", `{}`)["revision"].(float64))
	stale := rev - 1
	_, err := h.call("", "node.add", `{"type":"markdown"}`, func(e *messages.Envelope) { e.IfRevision = &stale })
	if err == nil || err.Code != messages.CodeRevisionConflict || err.Extra["revision"] != rev {
		t.Fatalf("stale ifRevision: %v", err)
	}
	out := h.mustCall("", "node.add", `{"type":"markdown"}`, func(e *messages.Envelope) { e.IfRevision = &rev })
	if out["revision"].(float64) != float64(rev+1) {
		t.Fatalf("conditional write revision %v", out["revision"])
	}
	if n := len(h.nodeIDs("")); n != 3 {
		t.Fatalf("the refused write must change nothing: %d nodes", n)
	}
}

func TestIdempotencyKey(t *testing.T) {
	ws := t.TempDir()
	h := start(t, ws)
	key := func(k string) func(*messages.Envelope) { return func(e *messages.Envelope) { e.IdempotencyKey = k } }
	first := h.mustCall("", "node.add", `{"type":"markdown","title":"once"}`, key("k1"))
	again := h.mustCall("", "node.add", `{ "title": "once", "type": "markdown" }`, key("k1"))
	if first["id"] != again["id"] || first["revision"] != again["revision"] {
		t.Fatalf("retry returned a different result: %v vs %v", first["id"], again["id"])
	}
	if _, err := h.call("", "node.add", `{"type":"markdown","title":"other"}`, key("k1")); err == nil || err.Code != messages.CodeIdempotencyMismatch {
		t.Fatalf("reused key with another body: %v", err)
	}
	if n := len(h.nodeIDs("")); n != 3 {
		t.Fatalf("retries must change nothing: %d nodes", n)
	}
	// The remembered reply survives a restart.
	h.stop()
	h = start(t, ws)
	after := h.mustCall("", "node.add", `{"type":"markdown","title":"once"}`, key("k1"))
	if after["id"] != first["id"] {
		t.Fatalf("after restart the retry created %v", after["id"])
	}
	if n := len(h.nodeIDs("")); n != 3 {
		t.Fatalf("retry after restart changed the canvas: %d nodes", n)
	}
}

func TestConcurrentRetriesOfOneKeyApplyOnce(t *testing.T) {
	h := start(t, "")
	var wg sync.WaitGroup
	results := make([]string, 16)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out := h.mustCall("", "node.add", `{"type":"markdown","title":"x"}`, func(e *messages.Envelope) { e.IdempotencyKey = "same" })
			results[i] = out["id"].(string)
		}(i)
	}
	wg.Wait()
	for _, r := range results {
		if r != results[0] {
			t.Fatalf("concurrent retries got different nodes: %v", results)
		}
	}
	if n := len(h.nodeIDs("")); n != 3 {
		t.Fatalf("%d nodes, want 3", n)
	}
}

func TestPanicInLayoutIsSurvived(t *testing.T) {
	ws := t.TempDir()
	h := start(t, ws)
	kept := h.mustCall("", "node.add", `{"type":"markdown","title":"before"}`)
	panicHook = func(env *messages.Envelope) {
		if strings.Contains(string(env.Input), "boom") {
			panic("injected fault")
		}
	}
	t.Cleanup(func() { panicHook = nil })

	_, err := h.call("", "node.add", `{"type":"markdown","title":"boom"}`)
	if err == nil || err.Status != 500 {
		t.Fatalf("the failing call must get a 500, got %v", err)
	}
	after := h.mustCall("", "node.add", `{"type":"markdown","title":"after"}`)
	if after["revision"].(float64) != kept["revision"].(float64)+1 {
		t.Fatalf("revision after the fault: %v (before %v)", after["revision"], kept["revision"])
	}
	if h.sys.Stats().LayoutRestarts != 1 {
		t.Fatalf("the Layout actor must have restarted once, restarts=%d", h.sys.Stats().LayoutRestarts)
	}
	ids := h.nodeIDs("")
	if len(ids) != 4 || ids[2] != kept["id"] || ids[3] != after["id"] {
		t.Fatalf("nodes after the fault: %v", ids)
	}
	h.stop()
	h = start(t, ws)
	if got := h.nodeIDs(""); strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Fatalf("after restart: %v, want %v", got, ids)
	}
}

func TestStoreFailureRefusesWritesAndKeepsLastDurableState(t *testing.T) {
	var failing atomic.Bool
	h := start(t, "", func(_ *Config, o *persistence.Options) {
		o.SyncHook = func() error {
			if failing.Load() {
				return errors.New("injected EIO")
			}
			return nil
		}
	})
	h.mustCall("", "node.add", `{"type":"markdown","title":"durable"}`)
	failing.Store(true)
	if _, err := h.call("", "node.add", `{"type":"markdown","title":"lost"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("write during fsync failure: %v", err)
	}
	// While the disk keeps failing, the store's probes fail and writes
	// stay refused; reads keep serving the last durable state.
	time.Sleep(300 * time.Millisecond)
	if _, err := h.call("", "node.add", `{"type":"markdown"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("writes stay refused while the disk fails: %v", err)
	}
	layout := h.mustCall("", "layout.get", `{}`)
	for _, n := range layout["nodes"].([]any) {
		if n.(map[string]any)["title"] == "lost" {
			t.Fatal("the unacknowledged write is visible to readers")
		}
	}
	if len(layout["nodes"].([]any)) != 3 {
		t.Fatalf("reads still serve the last durable state: %d nodes", len(layout["nodes"].([]any)))
	}
	if _, err := h.call("", "ax.steer", `{"message":"refused"}`); err == nil || err.Code != messages.CodeStoreFailed {
		t.Fatalf("an AX write while the disk fails: %v", err)
	}
	// Once the disk works again a probe commit succeeds and writes
	// resume, on the layout and the AX layer, without a restart.
	failing.Store(false)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := h.call("", "node.add", `{"type":"markdown","title":"after recovery"}`)
		if err == nil {
			break
		}
		if err.Code != messages.CodeStoreFailed || time.Now().After(deadline) {
			t.Fatalf("writes did not resume after the disk recovered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.mustCall("", "ax.steer", `{"message":"after recovery"}`)
	h.mustCall("", "ax.work.create", `{"title":"after recovery"}`)
}

func TestCanvasesAreIsolated(t *testing.T) {
	h := start(t, "")
	h.mustCall("a", "node.add", `{"type":"markdown","title":"in a"}`)
	h.mustCall("a", "node.add", `{"type":"markdown","title":"in a 2"}`)
	h.mustCall("b", "node.add", `{"type":"markdown","title":"in b"}`)
	if na, nb, nm := len(h.nodeIDs("a")), len(h.nodeIDs("b")), len(h.nodeIDs("")); na != 4 || nb != 3 || nm != 2 {
		t.Fatalf("nodes a=%d b=%d main=%d", na, nb, nm)
	}
	ra := h.mustCall("a", "layout.get", `{}`)["revision"]
	rb := h.mustCall("b", "layout.get", `{}`)["revision"]
	if ra == rb {
		t.Fatalf("revisions are per canvas: a=%v b=%v", ra, rb)
	}
	if _, err := h.call("bad id!", "layout.get", `{}`); err == nil || err.Status != 400 {
		t.Fatalf("invalid canvas id: %v", err)
	}
}

func TestEventsOrderResumeAndFreshLayout(t *testing.T) {
	h := start(t, "", func(c *Config, _ *persistence.Options) { c.RingSize = 4 })
	ctx := context.Background()
	sub, err := h.sys.Subscribe(ctx, messages.SubscribeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(evs []*messages.StreamEvent) string {
		var s []string
		for _, e := range evs {
			s = append(s, e.Name)
		}
		return strings.Join(s, ",")
	}
	if got := names(sub.Initial); got != "connected,mcp-app-host-snapshot,canvas-layout-update,context-pins-changed" {
		t.Fatalf("connect burst = %s", got)
	}
	changes, err := h.sys.Subscribe(ctx, messages.SubscribeRequest{Changes: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(changes.Initial); got != "connected,mcp-app-host-snapshot,canvas-layout-update,context-pins-changed" {
		t.Fatalf("a changes stream's connect burst has the full layout too: %s", got)
	}
	for i := 0; i < 3; i++ {
		h.mustCall("", "node.add", `{"type":"markdown"}`)
	}
	// A reference stream gets each commit's layout frame; a changes
	// stream its change frame, under the same number.
	var seqs []uint64
	for i := 0; i < 3; i++ {
		select {
		case ev := <-sub.Events:
			if ev.Name != canvas.EventLayoutUpdate {
				t.Fatalf("event %s", ev.Name)
			}
			seqs = append(seqs, ev.Seq)
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
	}
	for i := 0; i < 3; i++ {
		select {
		case ev := <-changes.Events:
			if ev.Name != canvas.EventChanges || ev.Seq != seqs[i] {
				t.Fatalf("changes stream event %d: %s %d, want %s %d", i, ev.Name, ev.Seq, canvas.EventChanges, seqs[i])
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no change event")
		}
	}
	changes.Close()
	if seqs[1] != seqs[0]+1 || seqs[2] != seqs[1]+1 {
		t.Fatalf("event numbers must be consecutive: %v", seqs)
	}
	sub.Close()

	// Resume from the first: get exactly the two after it.
	last := seqs[0]
	res, _ := h.sys.Subscribe(ctx, messages.SubscribeRequest{LastEventID: &last})
	if !res.Resumed || names(res.Initial) != "connected,canvas-layout-update,canvas-layout-update" || res.Initial[2].Seq != seqs[2] {
		t.Fatalf("resume: resumed=%v initial=%s", res.Resumed, names(res.Initial))
	}
	res.Close()

	// Too far behind for the 4-event ring: a fresh full layout instead.
	for i := 0; i < 5; i++ {
		h.mustCall("", "node.add", `{"type":"markdown"}`)
	}
	old, _ := h.sys.Subscribe(ctx, messages.SubscribeRequest{LastEventID: &last})
	if old.Resumed || !strings.Contains(names(old.Initial), "canvas-layout-update") {
		t.Fatalf("a client past the ring must get a fresh burst, got resumed=%v %s", old.Resumed, names(old.Initial))
	}
	js, _ := old.Initial[2].JSON()
	var frame struct {
		Layout struct{ Nodes []any } `json:"layout"`
	}
	_ = json.Unmarshal(js, &frame)
	if len(frame.Layout.Nodes) != 10 {
		t.Fatalf("fresh layout has %d nodes, want 10", len(frame.Layout.Nodes))
	}
	old.Close()
}

func TestSlowSubscriberIsDroppedNotBlocking(t *testing.T) {
	h := start(t, "", func(c *Config, _ *persistence.Options) { c.SubscriberBuffer = 2 })
	sub, _ := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{})
	for i := 0; i < 6; i++ { // never read: the buffer of 2 overflows
		h.mustCall("", "node.add", `{"type":"markdown"}`)
	}
	// The events go out after the writes are acknowledged: read only once
	// the Events actor has dropped the subscriber, or a reader that keeps
	// up is (rightly) not dropped.
	eventually(t, func() bool { return h.stat("subscribers") == 0 })
	n := 0
	for range sub.Events { // closed after the buffered ones
		n++
	}
	if n != 2 {
		t.Fatalf("a dropped subscriber keeps its buffered events and then sees a closed channel, got %d", n)
	}
}

// probe records the messages an actor sends it.
type probe struct {
	mu   sync.Mutex
	msgs []any
}

func (p *probe) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped:
		return
	}
	p.mu.Lock()
	p.msgs = append(p.msgs, ctx.Message())
	p.mu.Unlock()
}

func (p *probe) received() []any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]any(nil), p.msgs...)
}

// The Journal answers a run of writes with journalCommitted messages whose
// upTo covers every write, in order, and groups writes queued together.
func TestJournalCommitsInGroupsAndReportsToLayout(t *testing.T) {
	store, err := persistence.Open(t.TempDir(), persistence.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet() }))
	defer as.Shutdown()
	ref := &canvasRef{id: "main", sys: &System{cfg: Config{Store: store, Logger: quiet()}}, journal: newJournalCore()}
	p := &probe{}
	writer := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
	journal := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }))

	for rev := uint64(1); rev <= 50; rev++ {
		as.Root.Send(journal, &journalWrite{from: writer, seq: rev, ops: []persistence.Op{persistence.Set(fmt.Sprintf("k%02d", rev), "v")}})
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs := p.received()
		if len(msgs) > 0 && msgs[len(msgs)-1].(*journalCommitted).upTo == 50 {
			prev := uint64(0)
			for _, m := range msgs {
				c := m.(*journalCommitted)
				if c.err != nil || c.upTo <= prev {
					t.Fatalf("commits out of order or failed: %+v", msgs)
				}
				prev = c.upTo
			}
			if len(msgs) >= 50 {
				t.Fatalf("50 queued writes took %d commits; group commit should batch them", len(msgs))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("journal did not commit everything: %v", msgs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for rev := 1; rev <= 50; rev++ {
		if _, ok, _ := store.Get(fmt.Sprintf("k%02d", rev)); !ok {
			t.Fatalf("write %d not in the store", rev)
		}
	}
}

func TestEveryOperationHasAHandler(t *testing.T) {
	for _, op := range messages.Catalog {
		if op.Owner == messages.OwnerWorkspace {
			if workspaceHandlers[op.Name] == nil {
				t.Errorf("workspace op %s has no handler", op.Name)
			}
			continue
		}
		switch op.Kind {
		case messages.Read:
			if readHandlers[op.Name] == nil {
				t.Errorf("read op %s has no handler", op.Name)
			}
		case messages.Write:
			var ok bool
			switch op.Owner {
			case messages.OwnerLayout:
				ok = writeHandlers[op.Name] != nil
			case messages.OwnerAxState:
				ok = boardHandlers[op.Name] != nil
			case messages.OwnerGates:
				ok = gateHandlers[op.Name] != nil
			case messages.OwnerTimeline:
				ok = timelineHandlers[op.Name] != nil
			case messages.OwnerRouter:
				ok = slices.Contains(routerOps, op.Name)
			case messages.OwnerWebview:
				ok = webviewHandlers[op.Name] != nil
			}
			if !ok {
				t.Errorf("write op %s has no %s handler", op.Name, op.Owner)
			}
		}
	}
	for _, m := range []map[string]boardHandler{boardHandlers} {
		for name := range m {
			if op, ok := messages.Lookup(name); !ok || op.Owner != messages.OwnerAxState || op.Kind != messages.Write {
				t.Errorf("AxState handler %s is not a catalog AxState write", name)
			}
		}
	}
	for name := range gateHandlers {
		if op, ok := messages.Lookup(name); !ok || op.Owner != messages.OwnerGates || op.Kind != messages.Write {
			t.Errorf("Gates handler %s is not a catalog Gates write", name)
		}
	}
	for name := range timelineHandlers {
		if op, ok := messages.Lookup(name); !ok || op.Kind != messages.Write {
			t.Errorf("Timeline handler %s is not a catalog write", name)
		}
	}
	for name := range readHandlers {
		if op, ok := messages.Lookup(name); !ok || op.Kind != messages.Read {
			t.Errorf("read handler %s is not a catalog read op", name)
		}
	}
	for name := range writeHandlers {
		if internal := internalOps[name]; internal != nil {
			if _, inCatalog := messages.Lookup(name); inCatalog || internal.Owner != messages.OwnerLayout {
				t.Errorf("internal write %s must be a Layout write outside the catalog", name)
			}
			continue
		}
		if op, ok := messages.Lookup(name); !ok || op.Kind != messages.Write {
			t.Errorf("write handler %s is not a catalog write op", name)
		}
	}
}

// More than 10 failures of the Layout in 10 s escalate: the hub restarts the
// canvas supervisor (with backoff), which reloads the canvas from the store.
// The canvas serves again afterwards, with every acknowledged write.
func TestRestartStormEscalatesAndRecovers(t *testing.T) {
	h := start(t, "")
	kept := h.mustCall("", "node.add", `{"type":"markdown","title":"kept"}`)
	panicHook = func(env *messages.Envelope) {
		if strings.Contains(string(env.Input), "boom") {
			panic("injected fault")
		}
	}
	t.Cleanup(func() { panicHook = nil })
	short := func(e *messages.Envelope) { e.Deadline = time.Now().Add(time.Second) }
	for i := 0; i < 12; i++ {
		_, _ = h.call("", "node.add", `{"type":"markdown","title":"boom"}`, short)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := h.call("", "node.add", `{"type":"markdown","title":"after the storm"}`, short)
		if err == nil {
			if out["revision"].(float64) <= kept["revision"].(float64) {
				t.Fatalf("revision went back: %v after %v", out["revision"], kept["revision"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("canvas did not recover from the restart storm: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ids := h.nodeIDs("")
	if len(ids) != 4 || ids[2] != kept["id"] {
		t.Fatalf("nodes after recovery: %v", ids)
	}
	if st := h.sys.Stats(); st.CanvasReloads != 1 || st.LayoutRestarts < 10 {
		t.Fatalf("want one escalated reload after 10+ restarts, got %+v", st)
	}
}

// The surfaces filter streams by the names messages declares; the domain
// emits them under its own constants.
func TestStreamEventNamesAgree(t *testing.T) {
	if canvas.EventLayoutUpdate != messages.LayoutEvent || canvas.EventChanges != messages.ChangesEvent {
		t.Fatalf("domain %q/%q, messages %q/%q", canvas.EventLayoutUpdate, canvas.EventChanges, messages.LayoutEvent, messages.ChangesEvent)
	}
}
