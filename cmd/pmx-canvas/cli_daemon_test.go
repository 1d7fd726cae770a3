package main

// Black-box tests of the daemon lifecycle: serve --daemon, serve status,
// serve stop, with the real binary. Helpers here are prefixed "dw" (daemon
// and watch tests) so they do not collide with other CLI test files.

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dwEnv is the environment without the variables that would point the
// binary at another server.
func dwEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PMX_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// dwRun runs the binary in dir and returns its exit code and output.
func dwRun(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return discRun(t, dir, nil, args...)
}

// dwJSON decodes one JSON document.
func dwJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, s)
	}
	return m
}

// dwProcStat returns a process's state, parent, process group and session.
func dwProcStat(pid int) (state string, ppid, pgrp, sid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, 0, false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ppid, _ = strconv.Atoi(f[1])
	pgrp, _ = strconv.Atoi(f[2])
	sid, _ = strconv.Atoi(f[3])
	return f[0], ppid, pgrp, sid, true
}

// dwAlive: the process exists and is not a zombie.
func dwAlive(pid int) bool {
	state, _, _, _, ok := dwProcStat(pid)
	return ok && state != "Z" && state != "X"
}

// dwProcsMentioning lists live processes whose command line contains s.
func dwProcsMentioning(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !dwAlive(pid) {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), s) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// dwKillOnCleanup kills pid at the end of the test (if a test fails
// half-way, no daemon outlives it).
func dwKillOnCleanup(t *testing.T, pid int) {
	t.Cleanup(func() {
		if dwAlive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// dwReapOnCleanup kills, at the end of the test, any server process still
// running for workspace ws (a daemon the test started; a failing test must
// not leave it behind).
func dwReapOnCleanup(t *testing.T, ws string) {
	t.Cleanup(func() {
		for _, p := range dwProcsMentioning("--workspace=" + ws) {
			if pid, err := strconv.Atoi(p[:strings.IndexByte(p, ':')]); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

func dwHealthy(url string) bool {
	c := &http.Client{Timeout: time.Second}
	res, err := c.Get(url + "/health")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == 200
}

var dwVersion = regexp.MustCompile(`^\d+\.\d+\.\d+\S*\n$`)

func dwRequireProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
}

func TestDaemonStartStatusStop(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	dwReapOnCleanup(t, ws)
	real, _ := filepath.EvalSymlinks(ws)
	port := freePort(t)
	base := "http://127.0.0.1:" + port
	pidFile := filepath.Join(real, ".pmx-canvas", "daemon-"+port+".pid")
	logFile := filepath.Join(real, ".pmx-canvas", "daemon-"+port+".log")

	code, out, errOut := dwRun(t, ws, "serve", "--daemon", "--port", port, "--log-level", "debug")
	if code != 0 || errOut != "" {
		t.Fatalf("start: exit %d, stderr %q", code, errOut)
	}
	doc := dwJSON(t, out)
	pid := int(doc["pid"].(float64))
	dwKillOnCleanup(t, pid)
	want := map[string]any{"ok": true, "daemon": true, "url": base + "/workbench", "healthUrl": base + "/health",
		"logFile": logFile, "pidFile": pidFile, "workspace": real}
	for k, v := range want {
		if doc[k] != v {
			t.Errorf("start %s = %v, want %v", k, doc[k], v)
		}
	}
	if got, _ := os.ReadFile(pidFile); string(got) != strconv.Itoa(pid)+"\n" {
		t.Fatalf("pid file holds %q", got)
	}
	if !dwHealthy(base) {
		t.Fatal("daemon not healthy after start")
	}
	// Detached: it leads its own session and process group.
	if _, _, pgrp, sid, ok := dwProcStat(pid); !ok || pgrp != pid || sid != pid {
		t.Fatalf("daemon pgrp %d sid %d, want both %d", pgrp, sid, pid)
	}
	// The child got the server flags, a fixed port and workspace, --no-open.
	cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if got := strings.ReplaceAll(string(cmdline), "\x00", " "); !strings.Contains(got, "serve --log-level=debug --port="+port+" --workspace="+real+" --no-open") {
		t.Fatalf("child command line %q", got)
	}
	if log, _ := os.ReadFile(logFile); !strings.Contains(string(log), "running at http://localhost:"+port) {
		t.Fatalf("log lacks the banner:\n%s", log)
	}

	code, out, _ = dwRun(t, ws, "serve", "status", "--port", port)
	st := dwJSON(t, out)
	if code != 0 || st["running"] != true || st["responsive"] != true || st["pid"] != float64(pid) ||
		st["pidRunning"] != true || st["pidIsServer"] != true || st["pidFileExists"] != true {
		t.Fatalf("status: exit %d %v", code, st)
	}

	// A second start finds it running.
	code, out, _ = dwRun(t, ws, "serve", "--daemon", "--port", port)
	if again := dwJSON(t, out); code != 0 || again["alreadyRunning"] != true || again["pid"] != float64(pid) {
		t.Fatalf("second start: exit %d %v", code, again)
	}

	code, out, errOut = dwRun(t, ws, "serve", "stop", "--port", port)
	stop := dwJSON(t, out)
	if code != 0 || errOut != "" || stop["stopped"] != true || stop["pid"] != float64(pid) {
		t.Fatalf("stop: exit %d %v %s", code, stop, errOut)
	}
	if dwAlive(pid) || dwHealthy(base) {
		t.Fatal("daemon still running after stop")
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Fatalf("pid file left after stop: %v", err)
	}
	code, out, _ = dwRun(t, ws, "serve", "status", "--port", port)
	if st := dwJSON(t, out); code != 0 || st["running"] != false || st["pid"] != nil || st["pidFileExists"] != false {
		t.Fatalf("status after stop: %v", st)
	}
	code, out, _ = dwRun(t, ws, "serve", "stop", "--port", port)
	if st := dwJSON(t, out); code != 0 || st["stopped"] != false || st["reason"] != "No running daemon found." {
		t.Fatalf("stop with nothing running: %v", st)
	}
}

func TestDaemonStalePidFile(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	port := freePort(t)
	pidFile := filepath.Join(ws, ".pmx-canvas", "daemon-"+port+".pid")
	// A pid that is certainly gone: a child that has exited and been reaped.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	dead := gone.Process.Pid
	write := func() {
		_ = os.MkdirAll(filepath.Dir(pidFile), 0o755)
		if err := os.WriteFile(pidFile, []byte(strconv.Itoa(dead)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write()
	code, out, _ := dwRun(t, ws, "serve", "status", "--port", port)
	st := dwJSON(t, out)
	if code != 0 || st["running"] != false || st["pid"] != float64(dead) || st["pidRunning"] != false || st["pidFileExists"] != false {
		t.Fatalf("status with a stale pid file: %v", st)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Fatal("status left the stale pid file")
	}
	write()
	code, out, _ = dwRun(t, ws, "serve", "stop", "--port", port)
	st = dwJSON(t, out)
	if code != 0 || st["stopped"] != false || st["running"] != false || st["reason"] != "Removed stale pid file for "+strconv.Itoa(dead)+"." {
		t.Fatalf("stop with a stale pid file: %v", st)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Fatal("stop left the stale pid file")
	}
}

func TestDaemonStopRefusesAnotherProgram(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	port := freePort(t)
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Skip(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- sleeper.Wait() }()
	t.Cleanup(func() { _ = sleeper.Process.Kill(); <-exited })
	pid := sleeper.Process.Pid
	pidFile := filepath.Join(ws, ".pmx-canvas", "daemon-"+port+".pid")
	_ = os.MkdirAll(filepath.Dir(pidFile), 0o755)
	_ = os.WriteFile(pidFile, []byte(strconv.Itoa(pid)+"\n"), 0o644)

	code, out, _ := dwRun(t, ws, "serve", "status", "--port", port)
	if st := dwJSON(t, out); code != 0 || st["running"] != false || st["pidRunning"] != true || st["pidIsServer"] != false {
		t.Fatalf("status: %v", st)
	}
	_ = os.WriteFile(pidFile, []byte(strconv.Itoa(pid)+"\n"), 0o644) // status removed it: not our daemon

	code, out, errOut := dwRun(t, ws, "serve", "stop", "--port", port, "--wait-ms", "2000")
	if code != 1 || out != "" {
		t.Fatalf("stop: exit %d, stdout %q", code, out)
	}
	e := dwJSON(t, errOut)
	if msg, _ := e["error"].(string); !strings.Contains(msg, "Pid "+strconv.Itoa(pid)+" from "+pidFile+" is not a pmx-canvas server") ||
		!strings.Contains(msg, "(it runs: sleep 60); not signalling it.") || e["hint"] == nil {
		t.Fatalf("stop error %v", e)
	}
	select {
	case err := <-exited:
		t.Fatalf("serve stop signalled another program: sleep exited (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if !dwAlive(pid) {
		t.Fatal("sleep is gone")
	}
}

func TestDaemonStopWithoutPidFileOfAForegroundServer(t *testing.T) {
	ws := t.TempDir()
	p := startServer(t, ws)
	port := p.url[strings.LastIndexByte(p.url, ':')+1:]
	code, out, errOut := dwRun(t, ws, "serve", "stop", "--port", port)
	e := dwJSON(t, errOut)
	if code != 1 || out != "" || !strings.Contains(e["error"].(string), "Server on port "+port+" is responsive, but no pid file was found") {
		t.Fatalf("exit %d %v", code, e)
	}
	if !dwHealthy(p.url) {
		t.Fatal("the foreground server was stopped")
	}
	// Another workspace's server on the port is not "already running".
	other := t.TempDir()
	code, out, errOut = dwRun(t, other, "serve", "--daemon", "--port", port)
	if e := dwJSON(t, errOut); code != 1 || out != "" || !strings.Contains(e["error"].(string), "is already serving another workspace") {
		t.Fatalf("daemon on a foreign server's port: exit %d %v", code, e)
	}
	if procs := dwProcsMentioning(other); len(procs) > 0 {
		t.Fatalf("left processes: %v", procs)
	}
}

// TestDaemonStartFailuresLeaveNoOrphan: a child that cannot bind (the port
// is held by a plain listener) and a child that is not healthy in time are
// both gone when serve --daemon returns, and no pid file is written.
func TestDaemonStartFailuresLeaveNoOrphan(t *testing.T) {
	dwRequireProc(t)
	t.Run("port taken", func(t *testing.T) {
		ws := t.TempDir()
		dwReapOnCleanup(t, ws)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		code, out, errOut := dwRun(t, ws, "serve", "--daemon", "--port", port, "--wait-ms", "20000")
		e := dwJSON(t, errOut)
		if code != 1 || out != "" || e["error"] != "Daemon exited with code 1" ||
			!strings.Contains(e["hint"].(string), "address already in use") {
			t.Fatalf("exit %d %v", code, e)
		}
		if procs := dwProcsMentioning(ws); len(procs) > 0 {
			t.Fatalf("left processes: %v", procs)
		}
		if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "daemon-"+port+".pid")); !os.IsNotExist(err) {
			t.Fatal("a pid file was written for a failed start")
		}
	})
	t.Run("timeout", func(t *testing.T) {
		ws := t.TempDir()
		dwReapOnCleanup(t, ws)
		port := freePort(t)
		code, out, errOut := dwRun(t, ws, "serve", "--daemon", "--port", port, "--wait-ms", "1")
		e := dwJSON(t, errOut)
		msg, _ := e["error"].(string)
		if code != 1 || out != "" || !strings.HasPrefix(msg, "Timed out after 1 ms waiting for http://127.0.0.1:"+port+"/health; the daemon (pid ") {
			t.Fatalf("exit %d %v", code, e)
		}
		pid, _ := strconv.Atoi(strings.TrimSuffix(msg[strings.Index(msg, "(pid ")+5:], ") was stopped"))
		if pid <= 0 {
			t.Fatalf("no pid in %q", msg)
		}
		if dwAlive(pid) {
			t.Fatalf("the timed-out daemon %d is still running", pid)
		}
		if procs := dwProcsMentioning(ws); len(procs) > 0 {
			t.Fatalf("left processes: %v", procs)
		}
		if dwHealthy("http://127.0.0.1:" + port) {
			t.Fatal("something serves the port")
		}
		if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "daemon-"+port+".pid")); !os.IsNotExist(err) {
			t.Fatal("a pid file was written for a failed start")
		}
	})
}

func TestDaemonVersionFlag(t *testing.T) {
	code, out, _ := dwRun(t, t.TempDir(), "--version")
	if code != 0 || !dwVersion.MatchString(out) {
		t.Fatalf("--version: %d %q", code, out)
	}
	code, out, errOut := dwRun(t, t.TempDir(), "-v")
	if code != 1 || out != "" || !strings.Contains(errOut, "unknown shorthand flag: 'v'") {
		t.Fatalf("-v: %d %q %q", code, out, errOut)
	}
}

// TestDaemonConcurrentStarts: two "serve --daemon" at once for one port
// and workspace give one server; the second reports it as already running.
func TestDaemonConcurrentStarts(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	dwReapOnCleanup(t, ws)
	port := freePort(t)
	type result struct {
		code     int
		out, err string
	}
	results := make(chan result, 2)
	for i := 0; i < 2; i++ {
		go func() {
			code, out, errOut := dwRun(t, ws, "serve", "--daemon", "--port", port)
			results <- result{code, out, errOut}
		}()
	}
	var pids []float64
	already := 0
	rs := []result{<-results, <-results}
	for i, r := range rs {
		if r.code != 0 {
			t.Fatalf("start %d: exit %d %s", i, r.code, r.err)
		}
		doc := dwJSON(t, r.out)
		pid, _ := doc["pid"].(float64)
		pids = append(pids, pid)
		if doc["alreadyRunning"] == true {
			already++
		}
	}
	if already != 1 || pids[0] != pids[1] || pids[0] == 0 {
		t.Fatalf("pids %v, alreadyRunning %d", pids, already)
	}
	if procs := dwProcsMentioning("--workspace=" + ws); len(procs) != 1 {
		t.Fatalf("server processes: %v", procs)
	}
	if code, out, _ := dwRun(t, ws, "serve", "stop", "--port", port); code != 0 || dwJSON(t, out)["stopped"] != true {
		t.Fatalf("stop: %d %s", code, out)
	}
}

// TestServeTheme: --theme applies at start (the reference ignored it), and
// PMX_CANVAS_THEME does the same; a bad value is refused before binding.
func TestServeTheme(t *testing.T) {
	ws := t.TempDir()
	p := startServer(t, ws, "--theme", "light")
	if th := p.must(200, "GET", "/api/canvas/theme", nil).str("theme"); th != "light" {
		t.Fatalf("theme %q", th)
	}
	if h := p.must(200, "GET", "/api/canvas/history", nil).body; h["canUndo"] != false {
		t.Fatalf("setting the start theme made history: %v", h)
	}
	p.stop()
	t.Setenv("PMX_CANVAS_THEME", "high-contrast")
	p = startServer(t, ws)
	if th := p.must(200, "GET", "/api/canvas/theme", nil).str("theme"); th != "high-contrast" {
		t.Fatalf("theme from the environment %q", th)
	}
	p.stop()
	code, out, errOut := dwRun(t, ws, "serve", "--theme", "blue", "--port", "0")
	if code != 1 || out != "" || !strings.Contains(errOut, `"error":"Invalid theme: \"blue\"","hint":"Use: dark, light, high-contrast"`) {
		t.Fatalf("bad theme: %d %q %q", code, out, errOut)
	}
}
