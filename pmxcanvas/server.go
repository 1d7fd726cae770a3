// Package pmxcanvas runs a pmx-canvas server inside a Go program: the same
// actors, store and HTTP surface the pmx-canvas binary runs.
package pmxcanvas

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/actors"
	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/content/webpage"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
	httpapi "github.com/pmxcanvas/pmx-canvas/surfaces/http"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// DefaultPort is the reference's port.
const DefaultPort = 4313

// ErrStoreLocked is returned by Start when another process has the
// workspace's store open (errors.Is).
var ErrStoreLocked = persistence.ErrLocked

// Options configure a server.
type Options struct {
	// Workspace is the directory whose .pmx-canvas/ holds the store.
	// Empty means the current directory.
	Workspace string
	// Host is the address to bind; empty means 127.0.0.1. A non-loopback
	// host requires Token.
	Host string
	// Port to listen on; 0 picks a free port.
	Port int
	// NoHTTP runs the actors and store without an HTTP listener.
	NoHTTP bool
	// Token, when set, is required as a bearer token on every request; it
	// must have at least 16 characters and no whitespace.
	Token string
	// AllowOrigins are browser origins (scheme://host[:port]) whose pages
	// may change the canvas besides the server's own workbench, e.g. a
	// reverse proxy's public origin. Nothing else on this machine's other
	// ports may.
	AllowOrigins []string
	// FetchAllow names hosts, IPs or CIDRs that webpage nodes may fetch
	// although they are loopback, private or link-local. A loopback-bound
	// server fetches anything; one bound beyond refuses those otherwise.
	FetchAllow []string
	// AppCommands are the stdio MCP app-server commands a server bound
	// beyond loopback may start for mcpapp.open (a loopback-bound server
	// starts any; one bound beyond refuses the others).
	AppCommands []string
	// DiagramServerURL is the Excalidraw MCP app's endpoint for
	// diagram.open (default https://mcp.excalidraw.com/mcp).
	DiagramServerURL string
	// FetchTimeout bounds each webpage fetch (0: 10s).
	FetchTimeout time.Duration
	// WatchDebounce is how long a watched workspace file must be quiet
	// before the nodes showing it are refreshed (0: 50ms).
	WatchDebounce time.Duration
	// BodyLimit caps HTTP request bodies in bytes (0: 32 MiB).
	BodyLimit int
	// SSEPing is the event-stream heartbeat (0: 8s).
	SSEPing time.Duration
	// SSEWriteTimeout drops an event-stream client that does not read for
	// this long (0: 10s); it resumes with Last-Event-ID.
	SSEWriteTimeout time.Duration
	// FrameWait is the longest a canvas write's reply waits until its
	// event-stream frames are written to every subscriber that keeps up,
	// so a writer's reply does not overtake what watchers are sent. 0
	// means 10ms; negative: replies do not wait.
	FrameWait time.Duration
	// SeedDockedWidgets gives never-used canvases the reference's docked
	// status and context widgets (the CLI server does this).
	SeedDockedWidgets bool
	Logger            *slog.Logger
	// Env overrides clock and randomness (tests).
	Env *canvas.Env

	// MaxInFlight caps the writes one canvas holds at once; one more is
	// refused with 503 overloaded and Retry-After (0: 4096; negative: no
	// cap).
	MaxInFlight int
	// AgentRate, when positive, limits each agent (X-PMX-Agent / agentId)
	// to that many writes per second in bursts of AgentBurst (0: the rate,
	// at least 1); faster writes are refused with 429 rate-limited.
	AgentRate  float64
	AgentBurst int
	// MaxSnapshots and MaxSnapshotBytes cap each canvas's snapshots; a
	// save past a cap deletes the oldest (0: 100 and 256 MiB; negative: no
	// cap).
	MaxSnapshots     int
	MaxSnapshotBytes int64
	// PassivateAfter stops a canvas idle this long (no use, subscriber,
	// wait, lease, webview or write in flight) until its next use loads it
	// again (0: 10 minutes; negative: never).
	PassivateAfter time.Duration

	// Store tuning, for benchmarks of the durability cost.
	NoSync   bool
	MaxBatch int
	// SyncHook injects fsync faults (tests).
	SyncHook func() error

	// Webview, when set, starts the main canvas's automation webview (a
	// headless browser showing the workbench) once the server listens; a
	// failure to start it fails Start. The reference's
	// start({automationWebView}).
	Webview *messages.WebviewStartInput
	// WebviewTimeout bounds each webview step (0: the positive integer
	// milliseconds in PMX_CANVAS_WEBVIEW_TIMEOUT_MS, else 5s).
	WebviewTimeout time.Duration
	// WebviewEngine replaces the Chromium engine (tests).
	WebviewEngine automation.Engine
	// WebviewBrowser is the automation webview's browser: binary
	// (ChromePath; empty means PMX_CANVAS_CHROME_PATH, then chromium or
	// chrome on PATH), extra switches (ChromeArgv) and a profile directory
	// inside the workspace (DataStoreDir; empty means a temporary one).
	// Width and Height are ignored: each start chooses its viewport.
	WebviewBrowser automation.Options
	// WebviewAllowRequestBrowser lets webview.start requests choose the
	// browser binary, switches and profile, as the reference did. Unsafe:
	// whoever may call webview.start may then run any program as this
	// process.
	WebviewAllowRequestBrowser bool
}

// CheckToken reports why token cannot guard a server (shorter than 16
// characters, or holding whitespace); "" is no token and passes.
func CheckToken(token string) error { return httpapi.CheckToken(token) }

// Server is a running pmx-canvas.
type Server struct {
	Workspace string
	store     *persistence.Store
	system    *actors.System
	http      *httpapi.Server
	listener  net.Listener
	served    chan error
	log       *slog.Logger
}

// Start opens the workspace store, starts the actors and, unless NoHTTP,
// listens for HTTP.
func Start(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	ws := opts.Workspace
	if ws == "" {
		ws = "."
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, err
	}
	host := opts.Host
	if host == "" {
		host = "127.0.0.1"
	}
	if !opts.NoHTTP && !httpapi.IsLoopback(host) && opts.Token == "" {
		return nil, fmt.Errorf("binding %s exposes the canvas beyond this machine: set a token (PMX_CANVAS_TOKEN or --token-file)", host)
	}
	if err := httpapi.CheckToken(opts.Token); err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	origins := make([]string, 0, len(opts.AllowOrigins))
	for _, o := range opts.AllowOrigins {
		norm, err := httpapi.NormalizeOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("allow-origin: %w", err)
		}
		origins = append(origins, norm)
	}
	var ln net.Listener
	if !opts.NoHTTP {
		ln, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(opts.Port)))
		if err != nil {
			return nil, listenError(host, opts.Port, err)
		}
	}
	store, err := persistence.Open(ws, persistence.Options{Logger: opts.Logger, NoSync: opts.NoSync, SyncHook: opts.SyncHook})
	if err != nil {
		if ln != nil {
			_ = ln.Close()
		}
		return nil, err
	}
	sys, err := actors.Start(actors.Config{
		Store: store, Logger: opts.Logger, Env: opts.Env,
		SeedDockedWidgets: opts.SeedDockedWidgets, MaxBatch: opts.MaxBatch,
		MaxInFlight: opts.MaxInFlight, AgentRate: opts.AgentRate, AgentBurst: opts.AgentBurst,
		MaxSnapshots: opts.MaxSnapshots, MaxSnapshotBytes: opts.MaxSnapshotBytes, PassivateAfter: opts.PassivateAfter,
		DeliveryBound: opts.FrameWait, Workspace: ws, WatchDebounce: opts.WatchDebounce, Loopback: httpapi.IsLoopback(host), BaseURL: strings.TrimSuffix(workbenchURL(ln, host), "/workbench"),
		Fetch: webpage.Options{Timeout: opts.FetchTimeout, Policy: webpage.Policy{Allow: opts.FetchAllow}},
		Apps:  actors.AppsConfig{AllowCommands: opts.AppCommands, DiagramURL: opts.DiagramServerURL},
		Webview: actors.WebviewConfig{
			Engine: opts.WebviewEngine, WorkbenchURL: workbenchURL(ln, host), Token: opts.Token,
			Workspace: ws, StepTimeout: webviewTimeout(opts.WebviewTimeout),
			Browser: opts.WebviewBrowser, AllowRequestBrowser: opts.WebviewAllowRequestBrowser,
		},
	})
	if err != nil {
		_ = store.Close()
		if ln != nil {
			_ = ln.Close()
		}
		return nil, err
	}
	s := &Server{Workspace: ws, store: store, system: sys, log: opts.Logger}
	if ln != nil {
		s.listener = ln
		s.http = httpapi.New(httpapi.Options{
			Invoker: sys, Streamer: sys, Workspace: ws, Version: messages.Version,
			Host: host, Token: opts.Token, AllowOrigins: origins, Logger: opts.Logger, BodyLimit: opts.BodyLimit,
			PingInterval: opts.SSEPing, StreamWriteTimeout: opts.SSEWriteTimeout,
		})
		s.served = make(chan error, 1)
		go func() { s.served <- s.http.Serve(ln) }()
		s.writeRecord(host)
	}
	if opts.Webview != nil {
		if err := s.startWebview(opts.Webview); err != nil {
			_ = s.Close(context.Background())
			return nil, err
		}
	}
	return s, nil
}

// webviewTimeout resolves the webview step timeout: the option, then
// PMX_CANVAS_WEBVIEW_TIMEOUT_MS (positive integers only), then the default.
func webviewTimeout(opt time.Duration) time.Duration {
	if opt > 0 {
		return opt
	}
	if ms, err := strconv.Atoi(os.Getenv("PMX_CANVAS_WEBVIEW_TIMEOUT_MS")); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return 0
}

// startWebview starts the main canvas's automation webview.
func (s *Server) startWebview(in *messages.WebviewStartInput) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := s.system.Invoke(ctx, &messages.Envelope{Op: "webview.start", Source: "sdk", Args: in})
	if err != nil {
		// The message, not the operation error: the start failed, not a
		// request (a CLI shows "failed to start PMX Canvas: ...").
		return fmt.Errorf("automation webview: %s", messages.AsError(err).Message)
	}
	return nil
}

// workbenchURL is the loopback address of the workbench page the
// automation webview loads ("" without HTTP). A wildcard bind is reached
// on 127.0.0.1, as the reference does.
func workbenchURL(ln net.Listener, host string) string {
	if ln == nil {
		return ""
	}
	port := ln.Addr().(*net.TCPAddr).Port
	h := strings.Trim(host, "[]")
	if httpapi.IsLoopback(h) || net.ParseIP(h) != nil && net.ParseIP(h).IsUnspecified() {
		h = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(h, strconv.Itoa(port)) + "/workbench"
}

// ListenError is a failure to listen on the requested address. Its text
// names the address once: "listen on 127.0.0.1:4313: address already in
// use". errors.Is(err, syscall.EADDRINUSE) tells a port in use.
type ListenError struct {
	Host string
	Port int
	Err  error
}

func (e *ListenError) Error() string {
	return "listen on " + net.JoinHostPort(e.Host, strconv.Itoa(e.Port)) + ": " + e.Err.Error()
}

func (e *ListenError) Unwrap() error { return e.Err }

// listenError keeps the cause of a failed listen without the net package's
// repetition of the address ("listen tcp 127.0.0.1:4313: bind: ...").
func listenError(host string, port int, err error) error {
	cause := err
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		cause = op.Err
		var sys *os.SyscallError
		if errors.As(cause, &sys) && sys.Err != nil {
			cause = sys.Err
		}
	}
	return &ListenError{Host: host, Port: port, Err: cause}
}

// writeRecord writes the workspace's server record
// (.pmx-canvas/server.json: URL, pid, workspace), so clients in the
// workspace find this server on whatever port it listens. Close removes it.
// A failure is logged, not fatal: clients can still be pointed at the
// server with a URL or port.
func (s *Server) writeRecord(host string) {
	port := s.listener.Addr().(*net.TCPAddr).Port
	h := strings.Trim(host, "[]")
	if ip := net.ParseIP(h); strings.EqualFold(h, "localhost") || ip != nil && ip.IsUnspecified() {
		h = "127.0.0.1"
	}
	r := remote.Record{
		URL: "http://" + net.JoinHostPort(h, strconv.Itoa(port)), PID: os.Getpid(), Workspace: s.Workspace,
		Port: port, Version: messages.Version, StartedAt: time.Now().UTC().Format(time.RFC3339),
	}
	if err := remote.WriteRecord(r); err != nil {
		s.log.Warn("could not write the server record; clients in this workspace must be given the URL", "err", err)
	}
}

// Addr returns the HTTP listen address, or nil without HTTP.
func (s *Server) Addr() net.Addr {
	if s.listener == nil {
		return nil
	}
	return s.listener.Addr()
}

// URL returns the base URL of the HTTP surface ("" without HTTP).
func (s *Server) URL() string {
	if s.listener == nil {
		return ""
	}
	return "http://" + s.listener.Addr().String()
}

// Invoker runs operations in process.
func (s *Server) Invoker() messages.Invoker { return s.system }

// Streamer opens event streams in process.
func (s *Server) Streamer() messages.Streamer { return s.system }

// System returns the actor system (tests and diagnostics).
func (s *Server) System() *actors.System { return s.system }

// HTTP returns the HTTP surface, or nil.
func (s *Server) HTTP() *httpapi.Server { return s.http }

// Done is closed with the HTTP serve error when the listener stops.
func (s *Server) Done() <-chan error { return s.served }

// Close shuts down in order: stop taking requests and let in-flight ones
// finish (their writes commit), drain the actors, flush and close the store.
func (s *Server) Close(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
	}
	var errs []error
	if s.http != nil {
		remote.RemoveRecord(s.Workspace, os.Getpid())
		errs = append(errs, s.http.Shutdown(ctx))
	}
	errs = append(errs, s.system.Shutdown(ctx), s.store.Close())
	return errors.Join(errs...)
}
