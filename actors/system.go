// Package actors is the actor runtime of pmx-canvas: a Hub that owns one
// CanvasSupervisor per canvas, and under each supervisor the actors that own
// that canvas's state (Layout), its event stream (Events) and its writes to
// the store (Journal).
//
// Ownership and message flow (see docs/architecture.md):
//
//	Hub ──spawns──▶ CanvasSupervisor ──spawns──▶ Layout, Events, Journal
//	invoker ──write envelope──▶ Layout ──ops──▶ Journal ──committed──▶ Layout
//	Layout ──publish view, reply, events──▶ Events ──frames──▶ subscribers
//	reads: invoker ──▶ latest published view (no mailbox)
//
// Each piece of state has one owning goroutine; no mutex guards canvas data.
// Asks go one way only (nothing here waits on a reply from an actor that may
// be waiting on it).
package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	cmap "github.com/orcaman/concurrent-map"

	"github.com/pmxcanvas/pmx-canvas/content/framedocs"
	"github.com/pmxcanvas/pmx-canvas/content/webpage"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// protoactor's process registry is 1024 concurrent maps of
// cmap.SHARD_COUNT shards each (32 by default): 32,768 locked maps, 2.5 MB
// per actor system before the first actor, most of the server's fixed
// heap. A canvas server holds a few actors per open canvas, so 4 shards per
// bucket (4,096 maps) spread its locks ample at an eighth of the memory.
// cmap reads the count on every lookup, so it is set once, here, before any
// map exists, and never changed.
func init() { cmap.SHARD_COUNT = 4 }

// Config configures a System.
type Config struct {
	Store  *persistence.Store
	Logger *slog.Logger
	// SessionID is the server session id carried by events ("pmx-<ms36>").
	SessionID string
	// Env supplies clock and randomness to the domain core.
	Env *canvas.Env
	// SeedDockedWidgets gives a never-used canvas the reference's two
	// docked widgets (status-main, context-main), as the CLI server does.
	SeedDockedWidgets bool
	// RingSize is how many events each canvas keeps for Last-Event-ID
	// resume. 0 means 1024.
	RingSize int
	// RingLayouts caps the layout frames among them (0 means 64): each
	// holds the state of its commit, rendered only if a resume asks, so
	// the cap bounds the old states a canvas keeps alive. A client further
	// behind gets a fresh layout.
	RingLayouts int
	// SubscriberBuffer is how many events a subscriber may lag before it is
	// dropped (and must resume). 0 means 4096.
	SubscriberBuffer int
	// DeliveryBound is the longest a canvas write's reply waits for its
	// frames to be written to the subscribers that report their writes
	// (delivery.go). 0 means 10ms; negative: replies do not wait.
	DeliveryBound time.Duration
	// DefaultTimeout bounds an operation without a deadline. 0 means 30s.
	DefaultTimeout time.Duration
	// MaxBatch caps how many writes one group commit takes; 0 is no cap.
	// 1 disables group commit (used to measure its effect).
	MaxBatch int
	// SurfaceSecret signs the tokens that bind sandboxed surfaces to their
	// nodes. nil means a random secret per process.
	SurfaceSecret []byte
	// Webview configures each canvas's automation webview.
	Webview WebviewConfig
	// MaxInFlight caps the writes a canvas holds at once (see
	// admission.go). 0 means DefaultMaxInFlight; negative is no cap.
	MaxInFlight int
	// AgentRate, when positive, limits each named agent to that many
	// writes per second, in bursts of AgentBurst (0: the rate, at least 1).
	AgentRate  float64
	AgentBurst int
	// MaxSnapshots and MaxSnapshotBytes cap each canvas's snapshots (count,
	// and bytes of saved content); a save past a cap deletes the oldest.
	// 0 means DefaultMaxSnapshots / DefaultMaxSnapshotBytes; negative is
	// no cap.
	MaxSnapshots     int
	MaxSnapshotBytes int64
	// PassivateAfter stops a canvas that has been idle this long (no use,
	// subscriber, parked wait, lease, webview or write in flight); its next
	// use loads it from the store. 0 means 10 minutes; negative never.
	// PassivateEvery is how often idle canvases are looked for (0: a
	// tenth of PassivateAfter, at least 10 ms).
	PassivateAfter time.Duration
	PassivateEvery time.Duration
	// Workspace is the directory file and image nodes may show files
	// from; empty means the directory holding the store's .pmx-canvas.
	Workspace string
	// WatchDebounce is how long a watched file must be quiet before its
	// nodes are refreshed (0: 50ms).
	WatchDebounce time.Duration
	// Loopback says the server listens on loopback only: it may then fetch
	// loopback and private pages and open browser windows (open-external).
	Loopback bool
	// BaseURL is the server's own address (http://host:port), for
	// open-external; empty when it has no HTTP listener.
	BaseURL string
	// Fetch configures webpage fetches (timeout, caps, address policy).
	Fetch webpage.Options
	// Apps configures hosted MCP Apps.
	Apps AppsConfig
}

// AppsConfig configures hosted MCP Apps.
type AppsConfig struct {
	// AllowCommands are the stdio app-server commands a server bound
	// beyond loopback may start (a loopback-bound server starts any).
	AllowCommands []string
	// DiagramURL is the Excalidraw MCP app's endpoint for diagram.open
	// (default content/diagram.DefaultServerURL).
	DiagramURL string
}

func (c Config) passivateAfter() time.Duration {
	if c.PassivateAfter == 0 {
		return 10 * time.Minute
	}
	return c.PassivateAfter
}

func (c Config) passivateEvery() time.Duration {
	if c.PassivateEvery > 0 {
		return c.PassivateEvery
	}
	return max(10*time.Millisecond, c.passivateAfter()/10)
}

// Default snapshot caps per canvas.
const (
	DefaultMaxSnapshots     = 100
	DefaultMaxSnapshotBytes = 256 << 20
)

func (c Config) snapshotCaps() canvas.SnapshotCaps {
	caps := canvas.SnapshotCaps{Count: c.MaxSnapshots, Bytes: c.MaxSnapshotBytes}
	switch {
	case caps.Count == 0:
		caps.Count = DefaultMaxSnapshots
	case caps.Count < 0:
		caps.Count = 0
	}
	switch {
	case caps.Bytes == 0:
		caps.Bytes = DefaultMaxSnapshotBytes
	case caps.Bytes < 0:
		caps.Bytes = 0
	}
	return caps
}

// System is the running actor tree of one server process.
type System struct {
	cfg Config
	as  *actor.ActorSystem
	hub *actor.PID

	canvases sync.Map // canvas id -> *canvasRef
	// tokens numbers parked waits, so a caller that goes away can cancel
	// its own.
	tokens atomic.Uint64
	// buckets rate-limit agents' writes (admission.go).
	buckets agentBuckets
	// passivations counts canvases stopped for being idle; stopTicks ends
	// the passivation ticker.
	passivations atomic.Int64
	stopTicks    chan struct{}
	// content is the workspace and its file watcher (content.go).
	content *contentKit
	// frames are the documents handed to sandboxed frames (surface.go).
	frames *framedocs.Store
	// fetch is the webpage fetcher, built on first use (refresh.go).
	fetchOnce sync.Once
	fetch     *webpage.Fetcher
	fetchErr  error
	// rasterSlots bounds the PNG exports running at once: each launches a
	// browser, and two cores hold few (export.go).
	rasterSlots chan struct{}

	mu      sync.Mutex
	stopped bool
}

// Start builds the actor system and its hub.
func Start(cfg Config) (*System, error) {
	if cfg.Store == nil {
		return nil, errors.New("actors: Config.Store is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if cfg.Env == nil {
		cfg.Env = canvas.DefaultEnv()
	}
	if cfg.SessionID == "" {
		cfg.SessionID = "pmx-" + strconv.FormatInt(cfg.Env.Now().UnixMilli(), 36)
	}
	if cfg.RingSize <= 0 {
		cfg.RingSize = 1024
	}
	if cfg.RingLayouts <= 0 {
		cfg.RingLayouts = 64
	}
	if cfg.SubscriberBuffer <= 0 {
		cfg.SubscriberBuffer = 4096
	}
	if cfg.DeliveryBound == 0 {
		cfg.DeliveryBound = 10 * time.Millisecond
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = 30 * time.Second
	}
	if len(cfg.SurfaceSecret) == 0 {
		cfg.SurfaceSecret = NewSurfaceSecret()
	}
	logger := cfg.Logger.With("component", "actors")
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		// protoactor logs every supervision event at info; keep warnings.
		return slog.New(levelFilter{logger.Handler(), slog.LevelWarn})
	}))
	s := &System{cfg: cfg, as: as, frames: framedocs.New(), rasterSlots: make(chan struct{}, 2)}
	if err := s.startContent(); err != nil {
		return nil, err
	}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &hubActor{sys: s, canvases: map[string]*canvasRef{}, pids: map[string]*actor.PID{}}
	},
		actor.WithSupervisor(canvasSupervisorStrategy()))
	pid, err := as.Root.SpawnNamed(props, "hub")
	if err != nil {
		return nil, fmt.Errorf("spawn hub: %w", err)
	}
	s.hub = pid
	s.stopTicks = make(chan struct{})
	if cfg.passivateAfter() > 0 {
		go s.passivationTicker()
	}
	return s, nil
}

// passivationTicker asks the hub, every PassivateEvery, to stop the
// canvases idle for PassivateAfter.
func (s *System) passivationTicker() {
	t := time.NewTicker(s.cfg.passivateEvery())
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.as.Root.Send(s.hub, passivateTick{})
		case <-s.stopTicks:
			return
		}
	}
}

// SessionID returns the server session id.
func (s *System) SessionID() string { return s.cfg.SessionID }

// canvas returns the ready handle of a canvas, spawning it on first use.
func (s *System) canvas(ctx context.Context, id string) (*canvasRef, error) {
	ref, ok := s.canvases.Load(id)
	if !ok {
		res, err := s.as.Root.RequestFuture(s.hub, &openCanvas{id: id}, s.cfg.DefaultTimeout).Result()
		if err != nil {
			return nil, messages.Unavailable("canvas %q did not open: %v", id, err)
		}
		if e, isErr := res.(*messages.Error); isErr {
			return nil, e
		}
		ref = res.(*canvasRef)
		s.canvases.Store(id, ref)
	}
	r := ref.(*canvasRef)
	r.lastUse.Store(time.Now().UnixNano())
	select {
	case <-r.ready:
	case <-ctx.Done():
		return nil, messages.Unavailable("canvas %q is still loading", id)
	}
	if r.loadErr != nil {
		s.canvases.Delete(id)
		return nil, messages.Unavailable("canvas %q failed to load: %v", id, r.loadErr)
	}
	return r, nil
}

// Invoke runs one operation: writes through the owning actor's mailbox,
// reads against the latest published view.
func (s *System) Invoke(ctx context.Context, env *messages.Envelope) (*messages.Reply, error) {
	op, ok := messages.Lookup(env.Op)
	if !ok {
		return nil, messages.BadRequest("unknown operation %q", env.Op)
	}
	if err := messages.ValidateCanvasID(env.CanvasID()); err != nil {
		return nil, err
	}
	if env.Args == nil {
		args, derr := op.DecodeInput(env.Input)
		if derr != nil {
			return nil, derr
		}
		env.Args = args
	}
	ref, err := s.canvas(ctx, env.CanvasID())
	if err != nil {
		return nil, err
	}
	return s.dispatch(ctx, ref, op, env, nil)
}

// dispatch runs a decoded operation on an open canvas: composites in the
// router, parking reads in their owner's mailbox, plain reads against the
// published views, writes through their owner. before is an AX frame the
// owner emits just ahead of the write's own (an interaction's outcome).
func (s *System) dispatch(ctx context.Context, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	if op.Owner == messages.OwnerWorkspace {
		return s.runWorkspace(ctx, ref, op, env)
	}
	if hook := contentHooks[op.Name]; hook != nil {
		return hook(ctx, s, ref, op, env, before)
	}
	if op.Owner == messages.OwnerRouter {
		return s.route(ctx, ref, op, env, before)
	}
	if op.Parks {
		if p, ok := env.Args.(messages.Parker); ok {
			if wait, mailbox := p.Park(); wait > 0 || mailbox {
				return s.park(ctx, ref, op, env, wait)
			}
		}
	}
	if op.Kind == messages.Read {
		return runRead(ref, op, env)
	}
	return s.ask(ctx, ref, ref.owner(op.Owner), op, env, before)
}

// ask sends a write to its owner and waits for the reply.
func (s *System) ask(ctx context.Context, ref *canvasRef, pid *actor.PID, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	if pid == nil {
		return nil, messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	timeout := s.cfg.DefaultTimeout
	if !env.Deadline.IsZero() {
		timeout = time.Until(env.Deadline)
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
		timeout = time.Until(d)
	}
	if timeout <= 0 {
		return nil, messages.Timeout(env.Op)
	}
	release, aerr := s.admit(ref, env)
	if aerr != nil {
		return nil, aerr
	}
	defer release()
	res, ferr := s.request(ref, pid, &invokeRequest{env: env, op: op, before: before}, timeout)
	if errors.Is(ferr, actor.ErrDeadLetter) {
		// The owner stopped before it read the request (a canvas reload):
		// it was not applied.
		return nil, messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	if ferr != nil {
		return nil, messages.Timeout(env.Op)
	}
	out := res.(*invokeResult)
	if out.err != nil {
		return nil, out.err
	}
	return out.reply, nil
}

// request sends msg to one of ref's actors and waits for the reply. The
// call is registered in the canvas handle before the message goes out, so
// a canvas reload can answer it (with an *invokeResult error) even if the
// actor dropped the message unread. The reply arrives at a replyProcess:
// unlike a protoactor future, it takes concurrent answers safely (the
// first wins).
func (s *System) request(ref *canvasRef, pid *actor.PID, msg any, timeout time.Duration) (any, error) {
	p := &replyProcess{ch: make(chan any, 1)}
	self, _ := s.as.ProcessRegistry.Add(p, "reply"+s.as.ProcessRegistry.NextId())
	defer s.as.ProcessRegistry.Remove(self)
	token := s.tokens.Add(1)
	ref.calls.Store(token, func(e *messages.Error) { p.deliver(&invokeResult{err: e}) })
	defer ref.calls.Delete(token)
	s.as.Root.RequestWithCustomSender(pid, msg, self)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case m := <-p.ch:
		if _, dead := m.(*actor.DeadLetterResponse); dead {
			return nil, actor.ErrDeadLetter
		}
		return m, nil
	case <-timer.C:
		return nil, actor.ErrTimeout
	}
}

// replyProcess receives the one reply of a request.
type replyProcess struct{ ch chan any }

func (p *replyProcess) deliver(m any) {
	select {
	case p.ch <- m:
	default: // answered already
	}
}

// SendUserMessage implements actor.Process.
func (p *replyProcess) SendUserMessage(_ *actor.PID, m any) {
	_, msg, _ := actor.UnwrapEnvelope(m)
	p.deliver(msg)
}

// SendSystemMessage implements actor.Process.
func (p *replyProcess) SendSystemMessage(_ *actor.PID, m any) { p.deliver(m) }

// Stop implements actor.Process.
func (p *replyProcess) Stop(*actor.PID) {}

// Subscribe opens a canvas's event stream.
func (s *System) Subscribe(ctx context.Context, req messages.SubscribeRequest) (*messages.Subscription, error) {
	cid := req.Canvas
	if cid == "" {
		cid = messages.DefaultCanvas
	}
	if err := messages.ValidateCanvasID(cid); err != nil {
		return nil, err
	}
	ref, err := s.canvas(ctx, cid)
	if err != nil {
		return nil, err
	}
	pid := ref.eventsPID.Load()
	if pid == nil {
		return nil, messages.Unavailable("canvas %q is restarting; retry", cid)
	}
	res, ferr := s.request(ref, pid, &subscribe{req: req}, s.cfg.DefaultTimeout)
	if errors.Is(ferr, actor.ErrDeadLetter) {
		return nil, messages.Unavailable("canvas %q is restarting; retry", cid)
	}
	if ferr != nil {
		return nil, messages.Timeout("subscribe")
	}
	if r, ok := res.(*invokeResult); ok { // answered by a reload
		return nil, r.err
	}
	sub := res.(*messages.Subscription)
	return sub, nil
}

// Shutdown stops every canvas after draining its mailboxes, so queued writes
// reach the store, then stops the actor system.
func (s *System) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.mu.Unlock()
	close(s.stopTicks)
	// Stopping the hub drains every canvas (queued writes reach the
	// store); ctx bounds the wait, and the actor system stops either way.
	drained := make(chan error, 1)
	go func() { drained <- s.as.Root.PoisonFuture(s.hub).Wait() }()
	var err error
	select {
	case err = <-drained:
		if errors.Is(err, actor.ErrTimeout) {
			err = nil
		}
	case <-ctx.Done():
		err = fmt.Errorf("shutdown: canvases still draining: %w", ctx.Err())
	}
	s.as.Shutdown()
	s.content.close()
	return err
}

// Stats are counters for tests and the debug endpoint.
type Stats struct {
	// LayoutRestarts counts Layout actor restarts after a fault.
	LayoutRestarts int64
	// CanvasReloads counts canvas supervisors restarted by the hub (a
	// restart storm escalated), each reloading its canvas from the store.
	CanvasReloads int64
	Canvases      int
	// Passivations counts canvases stopped for being idle.
	Passivations int64
}

// Stats returns runtime counters.
func (s *System) Stats() Stats {
	st := Stats{Passivations: s.passivations.Load()}
	s.canvases.Range(func(_, v any) bool {
		st.Canvases++
		ref := v.(*canvasRef)
		st.LayoutRestarts += ref.layoutRestarts.Load()
		if n := ref.loads.Load(); n > 1 {
			st.CanvasReloads += n - 1
		}
		return true
	})
	return st
}

// levelFilter drops records below a level.
type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (f levelFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.Handler.Enabled(ctx, l)
}

func (f levelFilter) WithAttrs(attrs []slog.Attr) slog.Handler {
	return levelFilter{f.Handler.WithAttrs(attrs), f.min}
}

func (f levelFilter) WithGroup(name string) slog.Handler {
	return levelFilter{f.Handler.WithGroup(name), f.min}
}
