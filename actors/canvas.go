package actors

import (
	"errors"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/content/codegraph"
	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// canvasRef is the handle of one canvas, shared by the hub, the invoker and
// the canvas's actors. It holds what must outlive an actor restart: the
// published view, the routing table, and the Layout actor's working state.
type canvasRef struct {
	id      string
	sys     *System
	ready   chan struct{}
	loadErr error

	// view is the latest published state; reads use it without a mailbox.
	view atomic.Pointer[canvas.State]
	// inFlight counts the writes admitted and not yet answered.
	inFlight atomic.Int64
	// reloading is set from a reload request until the reload is done.
	reloading atomic.Bool
	// unsaved, when set, are the records the canvas could not commit when
	// it loaded (its seed, its event-number reservation) because the store
	// refused writes; the Journal's next commit carries them first.
	unsaved atomic.Pointer[[]persistence.Op]
	// subscribers counts open event-stream subscriptions; lastUse is when
	// the canvas was last looked up (unix ns). Passivation reads both.
	subscribers atomic.Int64
	lastUse     atomic.Int64

	// Published AX views (see axstate.go, gates.go, timeline.go).
	boardView    atomic.Pointer[boardView]
	gatesView    atomic.Pointer[ax.GateSet]
	timelineView atomic.Pointer[timelineRows]
	leases       atomic.Pointer[leaseSet]
	webviewView  atomic.Pointer[messages.WebviewStatus]
	// presence is who follows the event stream and who wrote lately,
	// published by the Events actor (presence.go).
	presence atomic.Pointer[messages.Presence]

	// Routing table, set by the supervisor when it spawns its children.
	layoutPID   atomic.Pointer[actor.PID]
	eventsPID   atomic.Pointer[actor.PID]
	journalPID  atomic.Pointer[actor.PID]
	axStatePID  atomic.Pointer[actor.PID]
	gatesPID    atomic.Pointer[actor.PID]
	timelinePID atomic.Pointer[actor.PID]
	webviewPID  atomic.Pointer[actor.PID]
	contentPID  atomic.Pointer[actor.PID]
	appsPID     atomic.Pointer[actor.PID]

	// layout is the Layout actor's working state. Only the Layout actor's
	// goroutine touches it; it lives here so a restarted Layout resumes
	// exactly where the failed one stopped (see layout.go).
	layout *layoutCore
	// workbench is the trace manager and the intent queue (workbench.go):
	// the Layout writes it, reads and the Events actor load its views.
	workbench workbenchState
	// apps is the registry of live app sessions (apps.go); their actors
	// are the Apps actor's children.
	apps *appsCore
	// The Journal's queue and the Events actor's numbering, kept here so
	// a restarted Journal still commits what was queued (a restarted
	// writer never hears "durable" for a write that is not) and a
	// restarted Events actor never numbers an event backwards.
	journal *journalCore
	events  *eventsCore
	// The AX actors' working state, kept here for the same reason.
	axState  *axStateCore
	gates    *gatesCore
	timeline *timelineCore
	webview  *webviewCore

	// AX counters for the stats read.
	gateWaiters  atomic.Int64
	claimWaiters atomic.Int64
	leaseCount   atomic.Int64

	// eventSeqStart is the first event number this process may use.
	eventSeqStart uint64

	// calls are the requests in flight to this canvas's actors (token ->
	// a function that answers the caller). A reload answers them all: a
	// stopped actor drops the messages still in its mailbox, and their
	// callers would otherwise wait for their deadline. This is invoker
	// bookkeeping, not canvas data.
	calls sync.Map

	// draining is set when the process shuts down: only then does a
	// stopping Journal commit what it still holds (a canvas reload fails
	// those writes instead).
	draining atomic.Bool

	// graph caches the imports of the canvas's file nodes between code
	// graph builds (derived data, safe for concurrent use).
	graph codegraph.Analyzer

	layoutRestarts atomic.Int64
	// loads counts supervisor starts: 1, plus one per escalated restart.
	loads     atomic.Int64
	readyOnce sync.Once
}

func (r *canvasRef) owner(o messages.Owner) *actor.PID {
	switch o {
	case messages.OwnerLayout:
		return r.layoutPID.Load()
	case messages.OwnerAxState:
		return r.axStatePID.Load()
	case messages.OwnerGates:
		return r.gatesPID.Load()
	case messages.OwnerTimeline:
		return r.timelinePID.Load()
	case messages.OwnerWebview:
		return r.webviewPID.Load()
	}
	return nil
}

// openCanvas asks the hub for a canvas handle.
type openCanvas struct{ id string }

// hubActor maps canvas ids to their supervisors, spawning them on first use.
type hubActor struct {
	sys      *System
	canvases map[string]*canvasRef
	pids     map[string]*actor.PID
}

func (h *hubActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *openCanvas:
		ref, ok := h.canvases[m.id]
		if ok && ref.failedToLoad() {
			// A load that failed (the store was failing, say) is tried
			// again by the next use, not remembered forever.
			if pid := h.pids[m.id]; pid != nil {
				_ = ctx.StopFuture(pid).Wait()
			}
			delete(h.canvases, m.id)
			delete(h.pids, m.id)
			ok = false
		}
		if !ok {
			ref = &canvasRef{id: m.id, sys: h.sys, ready: make(chan struct{})}
			props := actor.PropsFromProducer(func() actor.Actor { return &canvasSupervisor{ref: ref} },
				actor.WithSupervisor(childStrategy()))
			pid, err := ctx.SpawnNamed(props, "canvas-"+m.id)
			if err != nil {
				ctx.Respond(messages.Unavailable("canvas %q could not start: %v", m.id, err))
				return
			}
			h.canvases[m.id], h.pids[m.id] = ref, pid
		}
		ctx.Respond(ref)
	case passivateTick:
		h.passivateIdle(ctx)
	case *actor.Stopping:
		// Drain every canvas in order (Layout, then Journal) so queued
		// writes reach the store before the process exits.
		for _, ref := range h.canvases {
			drainCanvas(ctx, ref)
		}
	}
}

func drainCanvas(ctx actor.Context, ref *canvasRef) {
	ref.draining.Store(true)
	for _, pid := range []*actor.PID{ref.appsPID.Load(), ref.contentPID.Load(), ref.webviewPID.Load(), ref.layoutPID.Load(), ref.axStatePID.Load(), ref.gatesPID.Load(),
		ref.timelinePID.Load(), ref.journalPID.Load(), ref.eventsPID.Load()} {
		if pid != nil {
			_ = ctx.PoisonFuture(pid).Wait()
		}
	}
}

// canvasSupervisor loads one canvas and supervises its actors. A child that
// panics is restarted alone (one-for-one); a restart storm escalates here,
// and the hub restarts this supervisor with backoff, which reloads the
// canvas from the store.
type canvasSupervisor struct {
	ref *canvasRef
}

func (c *canvasSupervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		c.start(ctx)
	case *reloadCanvas:
		// The hub restarts a failed supervisor, which reloads the canvas
		// from the store and fails what was pending.
		panic("canvas reload: " + m.reason)
	}
}

func (c *canvasSupervisor) start(ctx actor.Context) {
	ref := c.ref
	sys := ref.sys
	defer ref.readyOnce.Do(func() { close(ref.ready) })
	if ref.loads.Add(1) > 1 {
		c.failPending(ctx)
	}

	state, err := c.load()
	if err != nil {
		ref.loadErr = err
		sys.cfg.Logger.Error("canvas failed to load", "canvas", ref.id, "err", err)
		return
	}
	start, err := sys.cfg.Store.ReserveEventSeq(ref.id, eventSeqBlock)
	switch {
	case errors.Is(err, persistence.ErrStoreFailed):
		// The store refuses writes (a failing disk): the canvas still
		// opens for reads, and its event numbers are reserved by its
		// first commit once writes resume (no event is numbered before a
		// commit), so they never repeat.
		ref.keepUnsaved(persistence.EventSeqOp(ref.id, start+eventSeqBlock))
	case err != nil:
		ref.loadErr = err
		return
	}
	ref.eventSeqStart = start
	defer ref.reloading.Store(false)
	ref.view.Store(state)
	ref.layout = &layoutCore{state: state}
	ref.journal = newJournalCore()
	ref.events = newEventsCore(ref, start)
	if err := c.loadAX(state); err != nil {
		ref.loadErr = err
		sys.cfg.Logger.Error("canvas AX state failed to load", "canvas", ref.id, "err", err)
		return
	}

	journal, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }), "journal")
	events, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newEventsActor(ref) }), "events")
	layout, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &layoutActor{ref: ref} }), "layout")
	axState, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newAxStateActor(ref) }), "ax-state")
	gates, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newGatesActor(ref) }), "gates")
	timeline, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newTimelineActor(ref) }), "timeline")
	// The Webview actor is idle until a start: the browser launches then.
	if ref.webview == nil { // a reloaded canvas keeps its browser session
		ref.webview = newWebviewCore()
	}
	status := ref.webview.status
	ref.webviewView.Store(&status)
	webview, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &webviewActor{ref: ref} }), "webview")
	ref.webviewPID.Store(webview)
	ref.journalPID.Store(journal)
	ref.eventsPID.Store(events)
	ref.axStatePID.Store(axState)
	ref.gatesPID.Store(gates)
	ref.timelinePID.Store(timeline)
	ref.layoutPID.Store(layout)
	// The Content actor writes through the Layout: it starts last.
	content, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newContentActor(ref) }), "content")
	ref.contentPID.Store(content)
	// The Apps actor re-opens app nodes through the Layout: it starts last.
	if ref.apps == nil {
		ref.apps = newAppsCore()
	}
	apps, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &appsActor{ref: ref} }), "apps")
	ref.appsPID.Store(apps)
}

// failPending answers every write the failed actors still held with an
// error before the canvas reloads from the store: none of them was
// acknowledged, and none will be (the reload drops the Journal's queue; a
// write whose commit had already reached the disk is in the reloaded
// state, which is why the error says it may have been stored).
func (c *canvasSupervisor) failPending(ctx actor.Context) {
	ref := c.ref
	failure := messages.Unavailable("canvas %q reloaded after repeated faults; this request was not acknowledged (a write may or may not be stored): read the canvas and retry", ref.id)
	n := 0
	if core := ref.layout; core != nil {
		for _, p := range core.pending {
			for _, w := range p.waiters {
				ctx.Send(w, &invokeResult{err: failure})
				n++
			}
		}
		core.pending, core.inflight = nil, nil
	}
	var writers []*axWriter
	if ref.axState != nil {
		writers = append(writers, &ref.axState.w)
	}
	if ref.gates != nil {
		writers = append(writers, &ref.gates.w)
	}
	if ref.timeline != nil {
		writers = append(writers, &ref.timeline.w)
	}
	for _, w := range writers {
		for _, p := range w.pending {
			if p.fail != nil {
				p.fail(ctx, failure)
				n++
			}
		}
		w.pending = nil
	}
	if ref.journal != nil {
		ref.journal.queue = nil
	}
	if ref.events != nil {
		// Committed writes whose replies waited for their frames: they
		// are durable, so they are answered as such.
		ref.events.held.releaseAll()
	}
	// Parked waits are answered too, so their callers wait again on the
	// reloaded canvas instead of sitting out their deadline.
	rewait := messages.Unavailable("canvas %q reloaded after repeated faults; wait again", ref.id)
	answer := func(ch chan *invokeResult) {
		select {
		case ch <- &invokeResult{err: rewait}:
		default: // answered already
		}
	}
	if ref.gates != nil {
		for _, w := range ref.gates.byToken {
			answer(w.reply)
		}
	}
	if ref.timeline != nil {
		for _, w := range ref.timeline.claims {
			answer(w.m.reply)
		}
	}
	// And every request still in flight, which a stopped actor may have
	// dropped unread (answering one twice is harmless: the first wins).
	ref.calls.Range(func(_, v any) bool {
		v.(func(*messages.Error))(failure)
		n++
		return true
	})
	if n > 0 {
		ref.sys.cfg.Logger.Error("canvas reloading after repeated faults; failed the requests it had not answered",
			"canvas", ref.id, "requests", n)
	}
}

// loadAX reads the canvas's AX state, drops references to nodes that no
// longer exist (silently, as the reference does at load), and publishes it.
func (c *canvasSupervisor) loadAX(nodes *canvas.State) error {
	ref := c.ref
	loaded, err := ref.sys.cfg.Store.LoadAX(ref.id)
	if err != nil {
		return err
	}
	if loaded.Skipped > 0 {
		ref.sys.cfg.Logger.Warn("skipped AX records that did not decode", "canvas", ref.id, "count", loaded.Skipped)
	}
	board, gates := loaded.Board, loaded.Gates
	for _, id := range danglingNodeIDs(board, gates, nodes) {
		board, _ = ax.OrphanBoard(board, id)
		gates, _ = ax.OrphanGates(gates, id)
	}
	// Each actor numbers its own records: no map is shared between them.
	ref.axState = &axStateCore{board: board, host: loaded.Host, ords: recordOrds{ord: maps.Clone(loaded.Ords), next: loaded.NextOrd}}
	ref.gates = &gatesCore{gates: gates, ords: recordOrds{ord: maps.Clone(loaded.Ords), next: loaded.NextOrd}}
	ref.timeline = &timelineCore{seq: loaded.Seq, leases: leaseSet{},
		rows: timelineRows{Events: loaded.Events, Evidence: loaded.Evidence, Steering: loaded.Steering}}
	ref.boardView.Store(&boardView{Board: board, Host: loaded.Host})
	ref.gatesView.Store(&gates)
	rows := ref.timeline.rows
	ref.timelineView.Store(&rows)
	ref.leases.Store(&leaseSet{})
	return nil
}

// danglingNodeIDs lists node ids the AX state names that the layout lacks.
func danglingNodeIDs(b ax.Board, g ax.GateSet, nodes *canvas.State) []string {
	seen := map[string]bool{}
	var out []string
	check := func(ids []string) {
		for _, id := range ids {
			if _, ok := nodes.Nodes.Get(id); !ok && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	check(b.Focus.NodeIDs)
	for _, w := range b.WorkItems {
		check(w.NodeIDs)
	}
	for _, r := range b.Reviews {
		if r.NodeID != nil {
			check([]string{*r.NodeID})
		}
	}
	for _, a := range g.Approvals {
		check(a.NodeIDs)
	}
	for _, e := range g.Elicitations {
		check(e.NodeIDs)
	}
	for _, m := range g.Modes {
		check(m.NodeIDs)
	}
	return out
}

// load reads the canvas from the store, seeding a never-used canvas.
func (c *canvasSupervisor) load() (*canvas.State, error) {
	sys := c.ref.sys
	state, _, err := sys.cfg.Store.LoadCanvas(c.ref.id)
	if err != nil {
		return nil, err
	}
	if state.Populated {
		return state, nil
	}
	if sys.cfg.SeedDockedWidgets {
		tx := canvas.Begin(state, sys.cfg.Env)
		canvas.SeedDockedWidgets(tx)
		state, _, _ = tx.Commit()
	} else {
		state.Populated = true
	}
	ops := persistence.StateOps(c.ref.id, state)
	if err := sys.cfg.Store.Commit(ops); err != nil {
		if !errors.Is(err, persistence.ErrStoreFailed) {
			return nil, err
		}
		c.ref.keepUnsaved(ops...) // readable now, stored with the first write
	}
	return state, nil
}

// keepUnsaved adds records for the Journal's next commit.
func (r *canvasRef) keepUnsaved(ops ...persistence.Op) {
	var all []persistence.Op
	if prev := r.unsaved.Load(); prev != nil {
		all = append(all, *prev...)
	}
	all = append(all, ops...)
	r.unsaved.Store(&all)
}

// eventSeqBlock is how many event numbers a canvas reserves per process.
const eventSeqBlock = 1 << 32

// childStrategy restarts a failed child alone; more than 10 failures in 10
// seconds escalate to the hub.
func childStrategy() actor.SupervisorStrategy {
	return &escalatingStrategy{maxFailures: 10, window: 10 * time.Second}
}

type escalatingStrategy struct {
	maxFailures int
	window      time.Duration
}

func (s *escalatingStrategy) HandleFailure(_ *actor.ActorSystem, supervisor actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason interface{}, message interface{}) {
	rs.Fail()
	if rs.NumberOfFailures(s.window) > s.maxFailures {
		rs.Reset()
		supervisor.EscalateFailure(reason, message)
		return
	}
	supervisor.RestartChildren(child)
}

// canvasSupervisorStrategy is the hub's strategy: a failing canvas
// supervisor restarts with exponential backoff.
func canvasSupervisorStrategy() actor.SupervisorStrategy {
	return actor.NewExponentialBackoffStrategy(30*time.Second, 200*time.Millisecond)
}

// storeFailed reports whether the store still refuses writes.
func (r *canvasRef) storeFailed() bool { return r.sys.cfg.Store.Failed() != nil }

// failedToLoad reports whether the canvas finished loading with an error.
func (r *canvasRef) failedToLoad() bool { return r.loaded() && r.loadErr != nil }

// loaded reports whether the canvas finished loading (well or not).
func (r *canvasRef) loaded() bool {
	select {
	case <-r.ready:
		return true
	default:
		return false
	}
}

// passivateTick asks the hub to passivate idle canvases.
type passivateTick struct{}

// idle reports whether a canvas holds nothing a stop would lose: no event
// subscriber, parked wait, lease, webview session or write in flight, and
// no use for after.
func (r *canvasRef) idle(now time.Time, after time.Duration) bool {
	if !r.loaded() || r.loadErr != nil {
		return false
	}
	if now.Sub(time.Unix(0, r.lastUse.Load())) < after {
		return false
	}
	if st := r.webviewView.Load(); st != nil && st.Active {
		return false
	}
	if r.apps != nil && r.apps.count() > 0 {
		return false // a live app session is a process or connection the human may use
	}
	return r.subscribers.Load() == 0 && r.gateWaiters.Load() == 0 && r.claimWaiters.Load() == 0 &&
		r.leaseCount.Load() == 0 && r.inFlight.Load() == 0
}

// passivateIdle stops the canvases that have been idle for
// Config.PassivateAfter: their state is durable, so the next use loads
// them again from the store. The canvas leaves the lookup map first, so
// no new call reaches it while it stops.
func (h *hubActor) passivateIdle(ctx actor.Context) {
	after := h.sys.cfg.passivateAfter()
	now := time.Now()
	for id, ref := range h.canvases {
		if !ref.idle(now, after) {
			continue
		}
		h.sys.canvases.CompareAndDelete(id, ref)
		if !ref.idle(now, after) { // used meanwhile: keep it
			h.sys.canvases.Store(id, ref)
			continue
		}
		drainCanvas(ctx, ref)
		if pid := h.pids[id]; pid != nil {
			_ = ctx.StopFuture(pid).Wait()
		}
		delete(h.canvases, id)
		delete(h.pids, id)
		h.sys.passivations.Add(1)
		h.sys.cfg.Logger.Debug("canvas passivated", "canvas", id)
	}
}
