package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// Daemon mode: "serve --daemon" starts the server detached and waits for
// it; "serve status" and "serve stop" manage it through its pid file.
//
// Differences from the reference (cli.md §5, quirks 10 and 11):
//   - failures are {error, hint} JSON on stderr with exit 1, successes one
//     JSON document on stdout (the reference printed its errors on stdout);
//   - a start that times out (or is interrupted) kills the child's process
//     group, so no orphan is left;
//   - stop signals a pid only after checking it is a pmx-canvas server of
//     this workspace; a pid that belongs to another program is refused;
//   - files live under <workspace>/.pmx-canvas/ (the workspace, not the
//     current directory, when --workspace is given);
//   - a healthy server of another workspace on the port is not taken for
//     "already running".

func init() {
	commandAdders = append(commandAdders, func(root *cobra.Command, _ *ioStreams) {
		// --version prints the version; -v is not an alias (the reference
		// printed the version for "-v" anywhere on the command line).
		if root.Flags().Lookup("version") == nil {
			root.Flags().Bool("version", false, "print the version and exit")
		}
	})
}

const daemonDefaultWaitMs = 10000

// addDaemonFileFlags registers --log-file, --pid-file and --wait-ms.
func addDaemonFileFlags(cmd *cobra.Command, logFile, pidFile *string, waitMs *int, waitHelp string) {
	f := cmd.Flags()
	f.StringVar(logFile, "log-file", "", "daemon log file (default <workspace>/.pmx-canvas/daemon-<port>.log)")
	f.StringVar(pidFile, "pid-file", "", "daemon pid file (default <workspace>/.pmx-canvas/daemon-<port>.pid)")
	f.IntVar(waitMs, "wait-ms", daemonDefaultWaitMs, waitHelp+", in milliseconds")
}

// daemonTarget is where a daemon lives: its workspace, port and files, and
// the URL that reaches it.
type daemonTarget struct {
	workspace string
	port      int
	logFile   string
	pidFile   string
	base      string // http://<host>:<port>
	token     string
}

func newDaemonTarget(workspace, host string, port int, logFile, pidFile, token string) (*daemonTarget, error) {
	if workspace == "" {
		workspace = "."
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	t := &daemonTarget{workspace: ws, port: port, token: token}
	stem := filepath.Join(ws, ".pmx-canvas", "daemon-"+strconv.Itoa(port))
	if t.logFile, err = daemonAbsOr(logFile, stem+".log"); err != nil {
		return nil, err
	}
	if t.pidFile, err = daemonAbsOr(pidFile, stem+".pid"); err != nil {
		return nil, err
	}
	t.base = "http://" + net.JoinHostPort(daemonClientHost(host), strconv.Itoa(port))
	if t.token == "" {
		t.token = os.Getenv("PMX_CANVAS_TOKEN")
	}
	return t, nil
}

func daemonAbsOr(path, def string) (string, error) {
	if path == "" {
		return def, nil
	}
	return filepath.Abs(path)
}

// daemonClientHost is the address a client dials for a server bound to host.
func daemonClientHost(host string) string {
	h := strings.Trim(host, "[]")
	switch h {
	case "", "0.0.0.0", "::", "localhost":
		return "127.0.0.1"
	}
	return h
}

func (t *daemonTarget) healthURL() string { return t.base + "/health" }

// workbenchURL is the page a human opens.
func (t *daemonTarget) workbenchURL() string { return t.base + "/workbench" }

// fields are the keys every daemon document carries.
func (t *daemonTarget) fields(extra ...any) jsonobj.Object {
	out := jsonobj.Object{{"ok", true}, {"daemon", true}}
	for i := 0; i+1 < len(extra); i += 2 {
		out = append(out, jsonobj.KV{extra[i].(string), extra[i+1]})
	}
	return append(out,
		jsonobj.KV{"url", t.workbenchURL()}, jsonobj.KV{"healthUrl", t.healthURL()},
		jsonobj.KV{"logFile", t.logFile}, jsonobj.KV{"pidFile", t.pidFile}, jsonobj.KV{"workspace", t.workspace})
}

// daemonJSON renders a daemon document, keys in the given order. Its
// values are strings, numbers, booleans and null, which always encode.
func daemonJSON(doc jsonobj.Object) json.RawMessage {
	b, _ := doc.MarshalJSON()
	return b
}

// healthOf asks the server for /health within timeout. It returns the
// workspace the server reports, or an error when nothing healthy answers.
func (t *daemonTarget) healthOf(ctx context.Context, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.healthURL(), nil)
	if err != nil {
		return "", err
	}
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	res, err := http.DefaultClient.Do(req) // keep-alive: see remote.ProbeToken
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var h struct {
		OK        bool   `json:"ok"`
		Workspace string `json:"workspace"`
	}
	if res.StatusCode/100 != 2 {
		return "", fmt.Errorf("%s answered HTTP %d", t.healthURL(), res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil || !h.OK {
		return "", fmt.Errorf("%s is not a pmx-canvas server", t.healthURL())
	}
	return h.Workspace, nil
}

// health reports whether a pmx-canvas server answers on the port and
// whether it serves this workspace.
func (t *daemonTarget) health(ctx context.Context) (responsive, ours bool, workspace string) {
	ws, err := t.healthOf(ctx, time.Second)
	if err != nil {
		return false, false, ""
	}
	return true, ws == "" || daemonSameDir(ws, t.workspace), ws
}

func daemonSameDir(a, b string) bool {
	clean := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return clean(a) == clean(b)
}

// daemonReadPid returns the pid in the file, or 0 when the file is missing,
// empty or not a positive integer.
func daemonReadPid(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

func daemonFileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// daemonWritePid writes "<pid>\n" atomically.
func daemonWritePid(path string, pid int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ---- serve --daemon ----

// daemonSkipFlags are the flags the parent handles; the child gets the
// rest as given, plus its port, workspace and --no-open.
var daemonSkipFlags = map[string]bool{
	"daemon": true, "log-file": true, "pid-file": true, "wait-ms": true,
	"port": true, "workspace": true, "no-open": true, "token": true, "token-file": true, "help": true, "version": true,
}

// daemonChildArgs rebuilds the server's command line for the detached child.
func daemonChildArgs(flags *pflag.FlagSet, t *daemonTarget) []string {
	args := []string{"serve"}
	flags.Visit(func(f *pflag.Flag) {
		if daemonSkipFlags[f.Name] {
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return append(args, "--port="+strconv.Itoa(t.port), "--workspace="+t.workspace, "--no-open")
}

func runDaemonStart(cmd *cobra.Command, o *serveOptions, port int) error {
	if port == 0 {
		return die("Pick one: pmx-canvas serve --daemon --port 4313", "--daemon needs a fixed port, not 0")
	}
	if o.waitMs <= 0 {
		return die("Use a positive number, e.g. --wait-ms 10000", "Invalid value for --wait-ms: %d", o.waitMs)
	}
	t, err := newDaemonTarget(o.workspace, o.host, port, o.logFile, o.pidFile, o.token)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	unlock, err := daemonLockStart(t.pidFile, time.Duration(o.waitMs)*time.Millisecond)
	if err != nil {
		return die("Wait for it, then run `pmx-canvas serve status`.", "Cannot start the daemon: %v", err)
	}
	defer unlock()
	if responsive, ours, ws := t.health(ctx); responsive {
		if !ours {
			return die(fmt.Sprintf("Pick another port: pmx-canvas serve --daemon --port %d, or stop the server of %s first.", port+1, ws),
				"Port %d is already serving another workspace (%s)", port, ws)
		}
		var pid any
		if p := daemonReadPid(t.pidFile); p > 0 {
			pid = p
		}
		return output(cmd.OutOrStdout(), daemonJSON(t.fields("alreadyRunning", true, "pid", pid)))
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this program to start the daemon: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(t.logFile), 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(t.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open the daemon log: %w", err)
	}
	logStart, _ := logf.Seek(0, 2)
	fmt.Fprintf(logf, "--- pmx-canvas daemon starting at %s (port %d) ---\n", time.Now().Format(time.RFC3339), port)

	child := exec.Command(exe, daemonChildArgs(cmd.Flags(), t)...)
	child.Dir, _ = os.Getwd()
	child.Env = os.Environ()
	if t.token != "" {
		// On the environment, not the command line, where ps shows it.
		child.Env = append(child.Env, "PMX_CANVAS_TOKEN="+t.token)
	}
	child.Stdout, child.Stderr = logf, logf
	daemonDetach(child)
	err = child.Start()
	_ = logf.Close()
	if err != nil {
		return fmt.Errorf("start the daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()

	failure := func(reason string) error {
		return &cliError{Msg: reason, Hint: daemonLogTail(t.logFile, logStart)}
	}
	deadline := time.NewTimer(time.Duration(o.waitMs) * time.Millisecond)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			daemonKillRest(child.Process.Pid) // whatever it left in its group
			return failure("Daemon " + daemonExitReason(err))
		case <-ctx.Done():
			daemonKillGroup(child.Process.Pid, exited)
			return failure(fmt.Sprintf("Interrupted while waiting for %s; the daemon (pid %d) was stopped", t.healthURL(), child.Process.Pid))
		case <-deadline.C:
			daemonKillGroup(child.Process.Pid, exited)
			return failure(fmt.Sprintf("Timed out after %d ms waiting for %s; the daemon (pid %d) was stopped", o.waitMs, t.healthURL(), child.Process.Pid))
		case <-tick.C:
			if responsive, ours, _ := t.health(ctx); !responsive || !ours {
				continue
			}
			select {
			case err := <-exited: // the answer came from another server
				daemonKillRest(child.Process.Pid)
				return failure("Daemon " + daemonExitReason(err))
			default:
			}
			pid := child.Process.Pid
			if err := daemonWritePid(t.pidFile, pid); err != nil {
				daemonKillGroup(pid, exited)
				return fmt.Errorf("write the pid file: %w", err)
			}
			// The child runs on in its own session after this process exits.
			return output(cmd.OutOrStdout(), daemonJSON(t.fields("pid", pid)))
		}
	}
}

func daemonExitReason(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "exited via signal " + ws.Signal().String()
		}
		return "exited with code " + strconv.Itoa(ee.ExitCode())
	}
	if err == nil {
		return "exited with code 0"
	}
	return "failed: " + err.Error()
}

// daemonLogTail is the hint of a failed start: the log lines written since
// this start (at most 20).
func daemonLogTail(path string, from int64) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "See the daemon log: " + path
	}
	if from >= 0 && from <= int64(len(b)) {
		b = b[from:]
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "Recent log output (" + path + "):\n" + strings.Join(lines, "\n")
}

// ---- serve status / serve stop ----

type daemonCtlOptions struct {
	port      int
	host      string
	workspace string
	token     string
	logFile   string
	pidFile   string
	waitMs    int
}

func addDaemonCtlFlags(cmd *cobra.Command, o *daemonCtlOptions) {
	f := cmd.Flags()
	f.IntVar(&o.port, "port", 0, "the daemon's port (env PMX_CANVAS_PORT, alias PMX_WEB_CANVAS_PORT; default: the workspace's recorded server, else 4313)")
	f.StringVar(&o.host, "host", "127.0.0.1", "the address the daemon binds")
	f.StringVar(&o.workspace, "workspace", "", "the daemon's workspace (default: current directory)")
	f.StringVar(&o.token, "token", "", "bearer token of the daemon (env PMX_CANVAS_TOKEN)")
}

// target is the daemon status and stop act on: the given port (--port,
// PMX_CANVAS_PORT), else the port of the server the workspace's record
// names (verified with /health), else 4313.
func (o *daemonCtlOptions) target(cmd *cobra.Command) (*daemonTarget, error) {
	port, _, err := explicitPort(cmd, o.port)
	if err != nil {
		return nil, err
	}
	if port == 0 {
		port = pmxcanvas.DefaultPort
		if t, err := newDaemonTarget(o.workspace, o.host, port, "", "", o.token); err == nil {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if r, _ := remote.CheckRecord(ctx, t.workspace, t.token); r != nil && r.Port > 0 {
				port = r.Port
			}
		}
	}
	return newDaemonTarget(o.workspace, o.host, port, o.logFile, o.pidFile, o.token)
}

func newServeStatusCommand() *cobra.Command {
	o := &daemonCtlOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Report whether the daemon runs (always exit 0)",
		Long: `Report the daemon of this workspace and port as one JSON document:
{ok, daemon, running, responsive, pid, pidRunning, pidIsServer, url, healthUrl,
logFile, pidFile, workspace, pidFileExists}. "responsive" is /health answering
for this workspace; "pidIsServer" says the pid file's process is a pmx-canvas
server of this workspace. A pid file left by a daemon that is gone is removed.`,
		Example: `  pmx-canvas serve status
  pmx-canvas serve status --port 4400 --workspace ./project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := o.target(cmd)
			if err != nil {
				return err
			}
			return output(cmd.OutOrStdout(), daemonJSON(daemonStatus(cmd.Context(), t)))
		},
	}
	addDaemonCtlFlags(cmd, o)
	var wait int
	addDaemonFileFlags(cmd, &o.logFile, &o.pidFile, &wait, "ignored")
	_ = cmd.Flags().MarkHidden("wait-ms")
	return cmd
}

func daemonStatus(ctx context.Context, t *daemonTarget) jsonobj.Object {
	if ctx == nil {
		ctx = context.Background()
	}
	pid := daemonReadPid(t.pidFile)
	pidRunning, pidIsServer := false, false
	if pid > 0 {
		pidRunning = daemonAlive(pid)
		if pidRunning {
			pidIsServer, _ = daemonIsOurs(pid, t)
		}
	}
	responsive, ours, _ := t.health(ctx)
	running := (responsive && ours) || pidIsServer
	if !running && daemonFileExists(t.pidFile) {
		_ = os.Remove(t.pidFile)
	}
	var pidValue any
	if pid > 0 {
		pidValue = pid
	}
	return append(t.fields("running", running, "responsive", responsive && ours, "pid", pidValue,
		"pidRunning", pidRunning, "pidIsServer", pidIsServer),
		jsonobj.KV{"pidFileExists", daemonFileExists(t.pidFile)})
}

func newServeStopCommand() *cobra.Command {
	o := &daemonCtlOptions{}
	cmd := &cobra.Command{
		Use:   "stop",
		Short: "Stop the daemon started with serve --daemon",
		Long: `Stop the daemon of this workspace and port: read its pid file, check that the
pid is a pmx-canvas server of this workspace, send it SIGTERM and wait until
it has exited (--wait-ms), then remove the pid file. A pid file whose process
is gone is removed; a pid that belongs to another program is never signalled.
Prints one JSON document: {ok, daemon, stopped, pid, ...}.`,
		Example: `  pmx-canvas serve stop
  pmx-canvas serve stop --port 4400 --wait-ms 20000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := o.target(cmd)
			if err != nil {
				return err
			}
			if o.waitMs <= 0 {
				return die("Use a positive number, e.g. --wait-ms 10000", "Invalid value for --wait-ms: %d", o.waitMs)
			}
			doc, err := daemonStop(cmd.Context(), t, time.Duration(o.waitMs)*time.Millisecond)
			if err != nil {
				return err
			}
			return output(cmd.OutOrStdout(), daemonJSON(doc))
		},
	}
	addDaemonCtlFlags(cmd, o)
	addDaemonFileFlags(cmd, &o.logFile, &o.pidFile, &o.waitMs, "how long to wait for the daemon to exit")
	return cmd
}

func daemonStop(ctx context.Context, t *daemonTarget, wait time.Duration) (jsonobj.Object, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	pid := daemonReadPid(t.pidFile)
	responsive, ours, _ := t.health(ctx)
	if pid == 0 {
		if responsive && ours {
			return nil, die("It was not started with `pmx-canvas serve --daemon`: stop it where it runs (Ctrl+C), or pass the right --pid-file.",
				"Server on port %d is responsive, but no pid file was found at %s.", t.port, t.pidFile)
		}
		_ = os.Remove(t.pidFile)
		return t.fields("stopped", false, "running", false, "reason", "No running daemon found."), nil
	}
	if !daemonAlive(pid) {
		_ = os.Remove(t.pidFile)
		return t.fields("stopped", false, "running", responsive && ours,
			"reason", fmt.Sprintf("Removed stale pid file for %d.", pid), "pid", pid), nil
	}
	if ok, what := daemonIsOurs(pid, t); !ok {
		// The pid was reused by another program (or the file is wrong):
		// never signal it. The file does not describe a daemon of ours.
		_ = os.Remove(t.pidFile)
		hint := "The stale pid file was removed; nothing was signalled."
		if responsive && ours {
			hint += fmt.Sprintf(" A pmx-canvas server still answers on port %d: stop it where it runs.", t.port)
		}
		return nil, die(hint, "Pid %d from %s is not a pmx-canvas server of %s (it runs: %s); not signalling it.",
			pid, t.pidFile, t.workspace, what)
	}
	if err := daemonTerminate(pid); err != nil {
		return nil, die("Check the pid's owner, or stop it where it runs.", "Cannot signal daemon %d: %v", pid, err)
	}
	deadline := time.Now().Add(wait)
	for daemonAlive(pid) {
		if time.Now().After(deadline) {
			return nil, die(fmt.Sprintf("It may still be shutting down: check `pmx-canvas serve status`, or wait longer with --wait-ms, or kill it: kill -9 %d", pid),
				"Timed out waiting for daemon %d to stop.", pid)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	_ = os.Remove(t.pidFile)
	return t.fields("stopped", true, "pid", pid), nil
}
