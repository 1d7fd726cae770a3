package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/pmxcanvas/pmx-canvas/internal/gcfloor"
	"github.com/pmxcanvas/pmx-canvas/internal/memtrim"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

type serveOptions struct {
	port       int
	host       string
	workspace  string
	token      string
	tokenFile  string
	origins    []string
	fetchAllow []string
	appCmds    []string
	diagramURL string
	noOpen     bool
	demo       bool
	logLevel   string
	maxBody    int
	ssePing    time.Duration
	sseWrite   time.Duration
	maxBatch   int
	inFlight   int
	agentRate  float64
	agentBurst int
	maxSnaps   int
	maxSnapMiB int64
	passivate  time.Duration
	noFsync    bool
	cpuProf    string
	memProf    string
	gcFloorMiB int64
	frameWait  time.Duration

	theme string

	// The automation webview at start (--webview-*).
	webview        bool
	webviewBackend string
	webviewWidth   int
	webviewHeight  int
	webviewChrome  string
	webviewArgv    string
	webviewDataDir string
	webviewAllow   bool

	// Daemon mode (daemon.go).
	daemon  bool
	logFile string
	pidFile string
	waitMs  int
}

func addServeFlags(cmd *cobra.Command, o *serveOptions) {
	f := cmd.Flags()
	f.IntVar(&o.port, "port", 0, "port to listen on (env PMX_CANVAS_PORT, alias PMX_WEB_CANVAS_PORT; default 4313)")
	f.StringVar(&o.host, "host", "127.0.0.1", "address to bind; anything but loopback requires --token")
	f.StringVar(&o.workspace, "workspace", "", "workspace directory holding .pmx-canvas/ (default: current directory)")
	f.StringVar(&o.token, "token", "", "bearer token every request must carry, 16+ characters; visible to every local user in the process list, so prefer PMX_CANVAS_TOKEN or --token-file")
	f.StringVar(&o.tokenFile, "token-file", "", "read the bearer token from this file (first line; keep it mode 0600)")
	f.StringSliceVar(&o.origins, "allow-origin", nil, "a browser origin besides the server's own whose pages may change the canvas, e.g. https://canvas.example (repeatable)")
	f.StringArrayVar(&o.appCmds, "allow-app-command", nil, "a stdio MCP app-server command that mcpapp.open may start although the server is bound beyond loopback (repeatable)")
	f.StringVar(&o.diagramURL, "diagram-server-url", os.Getenv("PMX_CANVAS_DIAGRAM_URL"), "the Excalidraw MCP app endpoint diagram add uses (env PMX_CANVAS_DIAGRAM_URL; default https://mcp.excalidraw.com/mcp)")
	f.StringSliceVar(&o.fetchAllow, "fetch-allow", nil, "a host name, IP or CIDR webpage nodes may fetch although it is loopback, private or link-local (a server bound beyond loopback refuses those; repeatable)")
	f.BoolVar(&o.noOpen, "no-open", false, "do not open a browser at start")
	f.BoolVar(&o.demo, "demo", false, "lay out the demo board (one node of every type, edges, a group, a pending approval, steering) when the canvas is empty; writes its files under pmx-demo/")
	f.StringVar(&o.theme, "theme", "", "set the main canvas's theme at start: dark, light or high-contrast (env PMX_CANVAS_THEME)")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn, error (logs go to stderr)")
	f.IntVar(&o.maxBody, "max-body", 32<<20, "largest request body accepted, in bytes")
	f.DurationVar(&o.ssePing, "sse-ping", 8*time.Second, "interval of SSE ping frames")
	_ = f.MarkHidden("sse-ping")
	f.DurationVar(&o.sseWrite, "sse-write-timeout", 10*time.Second, "drop an event-stream client that does not read for this long")
	_ = f.MarkHidden("sse-write-timeout")
	f.IntVar(&o.inFlight, "max-in-flight", 0, "writes one canvas holds at once before it answers 503 overloaded with Retry-After (default 4096; -1: no cap)")
	f.Float64Var(&o.agentRate, "agent-rate", 0, "writes per second each agent (X-PMX-Agent or agentId) may send; faster ones get 429 rate-limited (0: no limit)")
	f.IntVar(&o.agentBurst, "agent-burst", 0, "burst of --agent-rate writes an agent may send at once (default: the rate, at least 1)")
	f.IntVar(&o.maxSnaps, "max-snapshots", 0, "snapshots kept per canvas; a save past it deletes the oldest (default 100; -1: no cap)")
	f.Int64Var(&o.maxSnapMiB, "max-snapshot-mib", 0, "MiB of saved snapshot content kept per canvas; a save past it deletes the oldest (default 256; -1: no cap)")
	f.DurationVar(&o.passivate, "passivate-after", 10*time.Minute, "stop a canvas idle this long (no client, wait or lease) until its next use reloads it; 0 or less: never")
	f.IntVar(&o.maxBatch, "journal-max-batch", 0, "cap on writes per group commit; 1 disables group commit (benchmarks)")
	f.BoolVar(&o.noFsync, "unsafe-no-fsync", false, "skip fsync: acknowledged writes may be lost on power failure (benchmarks only)")
	_ = f.MarkHidden("journal-max-batch")
	_ = f.MarkHidden("unsafe-no-fsync")
	f.Int64Var(&o.gcFloorMiB, "gc-floor-mib", 0, "let the heap grow to this many MiB before the garbage collector runs: fewer collections in a write burst (lower tail latency) for more memory, part of which stays resident after the burst (0: off; ignored when GOGC is set)")
	f.DurationVar(&o.frameWait, "frame-wait", 10*time.Millisecond, "longest a write's reply waits until its event-stream frames are written to every subscriber that keeps up, so the reply never overtakes them (0: do not wait)")
	f.StringVar(&o.cpuProf, "cpuprofile", "", "write a CPU profile of the whole run to this file")
	_ = f.MarkHidden("cpuprofile")
	f.StringVar(&o.memProf, "memprofile", "", "write a heap profile to this file at shutdown")
	_ = f.MarkHidden("memprofile")
	f.BoolVar(&o.webview, "webview-automation", false, "start the headless automation webview (Chromium showing the workbench) at start")
	f.StringVar(&o.webviewBackend, "webview-backend", "", "automation webview backend: chrome")
	f.IntVar(&o.webviewWidth, "webview-width", 0, "automation webview viewport width (default 1280)")
	f.IntVar(&o.webviewHeight, "webview-height", 0, "automation webview viewport height (default 800)")
	f.StringVar(&o.webviewChrome, "webview-chrome-path", "", "browser executable for the automation webview (env PMX_CANVAS_CHROME_PATH; default chromium or chrome on PATH)")
	f.StringVar(&o.webviewArgv, "webview-chrome-argv", "", "extra browser arguments for the automation webview, comma-separated")
	f.StringVar(&o.webviewDataDir, "webview-data-dir", "", "persistent browser profile directory, inside the workspace (default: a temporary profile)")
	f.BoolVar(&o.webviewAllow, "webview-allow-request-browser", false, "UNSAFE: let webview start requests set chromePath, chromeArgv and dataStoreDir (any client that can start the webview can then run any program)")
	f.BoolVar(&o.daemon, "daemon", false, "start the server in the background, wait until it is healthy, print its pid and URL as JSON")
	addDaemonFileFlags(cmd, &o.logFile, &o.pidFile, &o.waitMs, "how long to wait for the daemon to become healthy")
}

func newServeCommand(stderr io.Writer) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the canvas server (foreground, or --daemon in the background)",
		Long: `Run the canvas server in the foreground until Ctrl+C or SIGTERM.

With --daemon the server starts detached in the background (its own session,
output appended to the log file), this command waits until /health answers
for the workspace, writes the pid file and prints one JSON document:
{ok, daemon, pid, url, healthUrl, logFile, pidFile, workspace}. Pid and log
files default to <workspace>/.pmx-canvas/daemon-<port>.{pid,log}.
"serve status" and "serve stop" manage it.`,
		Example: `  pmx-canvas serve --port 4313
  pmx-canvas serve --workspace ./project --no-open
  pmx-canvas serve --daemon --port 4313 --wait-ms 20000
  pmx-canvas serve status --port 4313
  pmx-canvas serve stop --port 4313
  openssl rand -hex 16 > ~/.pmx-token && chmod 600 ~/.pmx-token
  pmx-canvas serve --host 0.0.0.0 --token-file ~/.pmx-token`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, o, stderr) },
	}
	addServeFlags(cmd, o)
	cmd.AddCommand(newServeStatusCommand(), newServeStopCommand())
	return cmd
}

// resolvePort applies the one rule every surface uses: the --port flag, then
// PMX_CANVAS_PORT, then the reference's PMX_WEB_CANVAS_PORT, then 4313.
func resolvePort(cmd *cobra.Command, flag int) (int, error) {
	if cmd.Flags().Changed("port") {
		return flag, nil
	}
	if v := envOr("PMX_CANVAS_PORT", "PMX_WEB_CANVAS_PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 || p > 65535 {
			return 0, fmt.Errorf("PMX_CANVAS_PORT %q is not a port number", v)
		}
		return p, nil
	}
	return pmxcanvas.DefaultPort, nil
}

func runServe(cmd *cobra.Command, o *serveOptions, stderr io.Writer) error {
	port, err := resolvePort(cmd, o.port)
	if err != nil {
		return err
	}
	token, err := serverToken(o.token, o.tokenFile)
	if err != nil {
		return err
	}
	if err := pmxcanvas.CheckToken(token); err != nil {
		return die("Generate one: openssl rand -hex 16 > FILE && chmod 600 FILE, then --token-file FILE", "Refusing the token: %v", err)
	}
	if o.daemon {
		o.token = token
		return runDaemonStart(cmd, o, port)
	}
	theme := o.theme
	if !cmd.Flags().Changed("theme") {
		theme = os.Getenv("PMX_CANVAS_THEME")
	}
	switch theme {
	case "", "dark", "light", "high-contrast":
	default:
		return die("Use: dark, light, high-contrast", "Invalid theme: %q", theme)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if os.Getenv("GOGC") == "" {
		// The canvas keeps its whole state in memory and allocates per
		// request; a GC target of 200% trades some memory for markedly
		// less GC CPU under write load, and a floor under the heap goal
		// keeps a small heap from collecting several times a second in a
		// write burst (docs/benchmarks.md). memtrim returns the slack
		// when the server goes idle.
		if o.gcFloorMiB > 0 {
			defer gcfloor.Start(uint64(o.gcFloorMiB)<<20, 200).Stop()
		} else {
			debug.SetGCPercent(200)
		}
	}
	if o.cpuProf != "" {
		f, err := os.Create(o.cpuProf)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// Signals are caught before the server listens: a SIGTERM that comes
	// as soon as /health answers still gets a clean shutdown.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	srv, err := pmxcanvas.Start(pmxcanvas.Options{
		Workspace: o.workspace, Host: o.host, Port: port, Token: token, AllowOrigins: o.origins, FetchAllow: o.fetchAllow,
		AppCommands: o.appCmds, DiagramServerURL: o.diagramURL,
		SeedDockedWidgets: !o.demo, Logger: logger, BodyLimit: o.maxBody,
		SSEPing: o.ssePing, SSEWriteTimeout: o.sseWrite, FrameWait: frameWait(o.frameWait), MaxBatch: o.maxBatch, NoSync: o.noFsync,
		MaxInFlight: o.inFlight, AgentRate: o.agentRate, AgentBurst: o.agentBurst,
		MaxSnapshots: o.maxSnaps, MaxSnapshotBytes: mibOrCap(o.maxSnapMiB), PassivateAfter: passivateFlag(o.passivate),
		Webview: o.webviewStart(), WebviewBrowser: o.webviewBrowser(), WebviewAllowRequestBrowser: o.webviewAllow,
	})
	if err != nil {
		if cerr := serveStartError(err, o.host, port, o.workspace); cerr != nil {
			return cerr
		}
		return fmt.Errorf("failed to start PMX Canvas: %w", err)
	}
	if theme != "" {
		// The reference read its theme variable before the flag set it, so
		// --theme did nothing (quirk 4); here it applies at start.
		if err := setStartTheme(srv, theme); err != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			_ = srv.Close(ctx)
			return fmt.Errorf("failed to start PMX Canvas: --theme: %w", err)
		}
	}
	if o.demo {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		seeded, err := srv.SeedDemo(ctx)
		cancel()
		switch {
		case err != nil:
			logger.Error("demo board not seeded", "err", err)
		case seeded:
			logger.Info("demo board seeded", "files", "pmx-demo/")
		default:
			logger.Info("demo board skipped: the canvas is not empty")
		}
	}
	trimCtx, stopTrim := context.WithCancel(context.Background())
	defer stopTrim()
	go memtrim.Run(trimCtx, memtrim.Default)
	url := "http://localhost:" + strconv.Itoa(srv.Addr().(*net.TCPAddr).Port)
	printBanner(stderr, url, srv.Workspace)
	if o.webview {
		fmt.Fprintf(stderr, "  Webview automation: active\n\n")
	}

	var serveErr error
	select {
	case sig := <-sigs:
		if sig == os.Interrupt {
			fmt.Fprintln(stderr, "\nShutting down...")
		}
	case serveErr = <-srv.Done():
	}
	if o.memProf != "" {
		if f, err := os.Create(o.memProf); err == nil {
			runtime.GC()
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Close(ctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if serveErr != nil && !errors.Is(serveErr, context.Canceled) {
		return serveErr
	}
	return nil
}

// webviewStart is the webview start input the --webview-* flags ask for,
// or nil without --webview-automation: the backend and the viewport. The
// browser itself is server configuration (webviewBrowser), used by every
// start.
func (o *serveOptions) webviewStart() *messages.WebviewStartInput {
	if !o.webview {
		return nil
	}
	in := &messages.WebviewStartInput{}
	if o.webviewBackend != "" {
		in.Backend = &o.webviewBackend
	}
	if o.webviewWidth > 0 {
		w := float64(o.webviewWidth)
		in.Width = &w
	}
	if o.webviewHeight > 0 {
		h := float64(o.webviewHeight)
		in.Height = &h
	}
	return in
}

// webviewBrowser is the automation webview's browser configuration from
// --webview-chrome-path, --webview-chrome-argv and --webview-data-dir. The
// profile directory is confined to the workspace like every path (the
// reference did not confine the flag).
func (o *serveOptions) webviewBrowser() automation.Options {
	return automation.Options{ChromePath: o.webviewChrome, ChromeArgv: csv(o.webviewArgv), DataStoreDir: o.webviewDataDir}
}

func printBanner(w io.Writer, url, workspace string) {
	fmt.Fprintf(w, `
  PMX Canvas %s running at %s
  Workbench: %s/workbench
  Health: %s/health
  Workspace: %s

  Agent CLI (run in the workspace, it finds this server):
    pmx-canvas node add --title Hello --content "# Hi"
    curl -s %s/api/canvas/state

  MCP config for this server (pmx-canvas on PATH: make install):
    { "mcpServers": { "pmx-canvas": { "command": "pmx-canvas", "args": ["mcp"], "env": { "PMX_CANVAS_URL": "%s" } } } }

  Press Ctrl+C to stop

`, messages.Version, url, url, url, workspace, url, strings.Replace(url, "localhost", "127.0.0.1", 1))
}

// setStartTheme sets the main canvas's theme unless it already has it.
func setStartTheme(srv *pmxcanvas.Server, theme string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	inv := srv.Invoker()
	get, err := inv.Invoke(ctx, &messages.Envelope{Canvas: messages.DefaultCanvas, Op: "theme.get", Source: "cli", Input: json.RawMessage(`{}`)})
	if err == nil {
		if b, merr := json.Marshal(get.Body); merr == nil {
			var cur struct {
				Theme string `json:"theme"`
			}
			if json.Unmarshal(b, &cur) == nil && cur.Theme == theme {
				return nil
			}
		}
	}
	in, _ := json.Marshal(map[string]string{"theme": theme})
	_, err = inv.Invoke(ctx, &messages.Envelope{Canvas: messages.DefaultCanvas, Op: "theme.set", Source: "cli", Input: in})
	return err
}

// serverToken resolves the server's bearer token: --token, else the first
// line of --token-file, else PMX_CANVAS_TOKEN. The file and the variable
// are the safe ways: a --token value is readable by every local user in
// /proc/<pid>/cmdline. The server checks the token's strength.
func serverToken(flag, file string) (string, error) {
	if flag != "" && file != "" {
		return "", die("Use one of them; --token-file keeps the token out of the process list.", "--token and --token-file both given")
	}
	if flag != "" {
		return flag, nil
	}
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return "", die("Write the token to a file readable only by you: openssl rand -hex 16 > FILE && chmod 600 FILE", "Cannot read --token-file: %v", err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		token := strings.TrimSpace(line)
		if token == "" {
			return "", die("Write the token on the file's first line: openssl rand -hex 16 > FILE", "--token-file %s is empty", file)
		}
		return token, nil
	}
	return os.Getenv("PMX_CANVAS_TOKEN"), nil
}

// mibOrCap turns a MiB flag into bytes, keeping 0 (default) and negative
// (no cap) as they are.
func mibOrCap(mib int64) int64 {
	if mib <= 0 {
		return mib
	}
	return mib << 20
}

// passivateFlag maps --passivate-after to the option: 0 or less is never.
func passivateFlag(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// frameWait maps the --frame-wait flag to the option: 0 on the command line
// means no wait, which the option spells negative.
func frameWait(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
