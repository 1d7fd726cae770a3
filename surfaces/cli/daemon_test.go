package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestDaemonVersionFlagHasNoShorthand(t *testing.T) {
	if code, out, _ := dwExecute("--version"); code != 0 || strings.TrimSpace(out) != messages.Version {
		t.Fatalf("--version: %d %q", code, out)
	}
	code, out, errOut := dwExecute("-v")
	if code != 1 || out != "" || !strings.Contains(errOut, `unknown shorthand flag: 'v' in -v`) {
		t.Fatalf("-v: %d %q %q", code, out, errOut)
	}
}

func TestDaemonChildArgs(t *testing.T) {
	cmd := &cobra.Command{Use: "serve"}
	o := &serveOptions{}
	addServeFlags(cmd, o)
	if err := cmd.ParseFlags([]string{"--daemon", "--port", "4400", "--workspace", "x", "--log-level=debug",
		"--sse-ping", "2s", "--token", "secret", "--wait-ms", "5", "--pid-file", "p", "--log-file", "l", "--max-body", "1024"}); err != nil {
		t.Fatal(err)
	}
	tg := &daemonTarget{port: 4400, workspace: "/abs/ws"}
	got := strings.Join(daemonChildArgs(cmd.Flags(), tg), " ")
	want := "serve --log-level=debug --max-body=1024 --sse-ping=2s --port=4400 --workspace=/abs/ws --no-open"
	if got != want {
		t.Fatalf("child args\n got %s\nwant %s", got, want)
	}
}

func TestDaemonTargetPaths(t *testing.T) {
	ws := t.TempDir()
	tg, err := newDaemonTarget(ws, "0.0.0.0", 4400, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(ws)
	if tg.pidFile != filepath.Join(real, ".pmx-canvas", "daemon-4400.pid") ||
		tg.logFile != filepath.Join(real, ".pmx-canvas", "daemon-4400.log") ||
		tg.healthURL() != "http://127.0.0.1:4400/health" {
		t.Fatalf("target %+v", tg)
	}
	tg, _ = newDaemonTarget(ws, "::1", 4400, "rel.log", "/abs/x.pid", "")
	cwd, _ := os.Getwd()
	if tg.logFile != filepath.Join(cwd, "rel.log") || tg.pidFile != "/abs/x.pid" || tg.base != "http://[::1]:4400" {
		t.Fatalf("target %+v", tg)
	}
}

func TestDaemonReadPid(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]int{"42\n": 42, " 7 ": 7, "": 0, "-3": 0, "abc": 0, "0": 0} {
		p := filepath.Join(dir, "f.pid")
		_ = os.WriteFile(p, []byte(content), 0o644)
		if got := daemonReadPid(p); got != want {
			t.Errorf("readPid(%q) = %d, want %d", content, got, want)
		}
	}
	if daemonReadPid(filepath.Join(dir, "missing")) != 0 {
		t.Error("missing file")
	}
	p := filepath.Join(dir, "sub", "d.pid")
	if err := daemonWritePid(p, 1234); err != nil || daemonReadPid(p) != 1234 {
		t.Fatalf("writePidFile: %v", err)
	}
}

func TestDaemonProcessIdentity(t *testing.T) {
	if !daemonAlive(os.Getpid()) {
		t.Fatal("this process is alive")
	}
	// A child that exited but was not reaped yet is a zombie: not alive.
	zombie := exec.Command("true")
	if err := zombie.Start(); err != nil {
		t.Skip("no true(1):", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for daemonAlive(zombie.Process.Pid) {
		if time.Now().After(deadline) {
			t.Fatal("an exited child still counts as alive")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = zombie.Wait()
	if daemonAlive(zombie.Process.Pid) {
		t.Fatal("a reaped child is alive")
	}

	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Skip("no sleep(1):", err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()
	tg := &daemonTarget{port: 4400, workspace: t.TempDir()}
	if ok, what := daemonIsOurs(sleeper.Process.Pid, tg); ok || what != "sleep 30" {
		t.Fatalf("sleep is ours? %v %q", ok, what)
	}
	if ok, _ := daemonIsOurs(os.Getpid(), tg); ok {
		t.Fatal("the test binary is not a server")
	}
}

func TestDaemonFlagValue(t *testing.T) {
	args := []string{"pmx-canvas", "serve", "--port=4400", "--workspace", "/w"}
	if v, ok := daemonFlagValue(args, "port"); !ok || v != "4400" {
		t.Fatal(v)
	}
	if v, ok := daemonFlagValue(args, "workspace"); !ok || v != "/w" {
		t.Fatal(v)
	}
	if _, ok := daemonFlagValue(args, "host"); ok {
		t.Fatal("host")
	}
}

func TestDaemonJSONKeyOrder(t *testing.T) {
	tg := &daemonTarget{base: "http://127.0.0.1:1", logFile: "/l", pidFile: "/p", workspace: "/w"}
	raw := daemonJSON(tg.fields("pid", 7, "reason", nil))
	want := `{"ok":true,"daemon":true,"pid":7,"reason":null,"url":"http://127.0.0.1:1/workbench","healthUrl":"http://127.0.0.1:1/health","logFile":"/l","pidFile":"/p","workspace":"/w"}`
	if string(raw) != want || !json.Valid(raw) {
		t.Fatalf("got %s", raw)
	}
}

func TestDaemonNeedsAPort(t *testing.T) {
	code, out, errOut := dwExecute("serve", "--daemon", "--port", "0", "--workspace", t.TempDir())
	if code != 1 || out != "" || !strings.Contains(errOut, `"error":"--daemon needs a fixed port, not 0"`) {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	code, _, errOut = dwExecute("serve", "stop", "--wait-ms", "0", "--port", strconv.Itoa(1), "--workspace", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "Invalid value for --wait-ms: 0") {
		t.Fatalf("%d %q", code, errOut)
	}
}
