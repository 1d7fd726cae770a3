package actors

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

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

	// Routing table, set by the supervisor when it spawns its children.
	layoutPID  atomic.Pointer[actor.PID]
	eventsPID  atomic.Pointer[actor.PID]
	journalPID atomic.Pointer[actor.PID]

	// layout is the Layout actor's working state. Only the Layout actor's
	// goroutine touches it; it lives here so a restarted Layout resumes
	// exactly where the failed one stopped (see layout.go).
	layout *layoutCore

	// eventSeqStart is the first event number this process may use.
	eventSeqStart uint64

	layoutRestarts atomic.Int64
	// loads counts supervisor starts: 1, plus one per escalated restart.
	loads     atomic.Int64
	readyOnce sync.Once
}

func (r *canvasRef) owner(o messages.Owner) *actor.PID {
	switch o {
	case messages.OwnerLayout:
		return r.layoutPID.Load()
	}
	return nil
}

// openCanvas asks the hub for a canvas handle.
type openCanvas struct{ id string }

// hubActor maps canvas ids to their supervisors, spawning them on first use.
type hubActor struct {
	sys      *System
	canvases map[string]*canvasRef
}

func (h *hubActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *openCanvas:
		ref, ok := h.canvases[m.id]
		if !ok {
			ref = &canvasRef{id: m.id, sys: h.sys, ready: make(chan struct{})}
			props := actor.PropsFromProducer(func() actor.Actor { return &canvasSupervisor{ref: ref} },
				actor.WithSupervisor(childStrategy()))
			if _, err := ctx.SpawnNamed(props, "canvas-"+m.id); err != nil {
				ctx.Respond(messages.Unavailable("canvas %q could not start: %v", m.id, err))
				return
			}
			h.canvases[m.id] = ref
		}
		ctx.Respond(ref)
	case *actor.Stopping:
		// Drain every canvas in order (Layout, then Journal) so queued
		// writes reach the store before the process exits.
		for _, ref := range h.canvases {
			drainCanvas(ctx, ref)
		}
	}
}

func drainCanvas(ctx actor.Context, ref *canvasRef) {
	for _, pid := range []*actor.PID{ref.layoutPID.Load(), ref.journalPID.Load(), ref.eventsPID.Load()} {
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
	switch ctx.Message().(type) {
	case *actor.Started:
		c.start(ctx)
	}
}

func (c *canvasSupervisor) start(ctx actor.Context) {
	ref := c.ref
	sys := ref.sys
	defer ref.readyOnce.Do(func() { close(ref.ready) })
	ref.loads.Add(1)

	state, err := c.load()
	if err != nil {
		ref.loadErr = err
		sys.cfg.Logger.Error("canvas failed to load", "canvas", ref.id, "err", err)
		return
	}
	start, err := sys.cfg.Store.ReserveEventSeq(ref.id, eventSeqBlock)
	if err != nil {
		ref.loadErr = err
		return
	}
	ref.eventSeqStart = start
	ref.view.Store(state)
	ref.layout = &layoutCore{state: state}

	journal, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &journalActor{ref: ref} }), "journal")
	events, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newEventsActor(ref) }), "events")
	layout, _ := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &layoutActor{ref: ref} }), "layout")
	ref.journalPID.Store(journal)
	ref.eventsPID.Store(events)
	ref.layoutPID.Store(layout)
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
	if err := sys.cfg.Store.Commit(persistence.StateOps(c.ref.id, state)); err != nil {
		return nil, err
	}
	return state, nil
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
