package main

// Black-box tests of server discovery: the CLI, watch, serve status/stop
// and pmx-canvas mcp find the workspace's server from its record
// (.pmx-canvas/server.json) on whatever port it runs; a record left by a
// killed server is ignored and removed; a refused daemon start leaves no
// lock file behind.

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// discRun runs the binary in dir with extra environment variables (and no
// PMX_ variables of the test's own environment).
func discRun(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = dwEnv(env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return code, out.String(), errOut.String()
}

func discRecord(t *testing.T, ws string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, ".pmx-canvas", "server.json"))
	if err != nil {
		t.Fatalf("server record: %v", err)
	}
	var r map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("server record: %v\n%s", err, b)
	}
	return r
}

func discNoRecord(t *testing.T, ws string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "server.json")); !os.IsNotExist(err) {
		t.Fatalf("a server record is left in %s (%v)", ws, err)
	}
}

// TestDiscoveryDaemonOnAnotherPort is the case: a daemon started
// with PMX_CANVAS_PORT on a non-default port is found, without that
// variable, by the CLI, watch, pmx-canvas mcp and serve status/stop run in
// the same workspace.
func TestDiscoveryDaemonOnAnotherPort(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	dwReapOnCleanup(t, ws)
	real, _ := filepath.EvalSymlinks(ws)
	port := freePort(t)
	base := "http://127.0.0.1:" + port

	code, out, errOut := discRun(t, ws, []string{"PMX_CANVAS_PORT=" + port}, "serve", "--daemon")
	if code != 0 {
		t.Fatalf("serve --daemon: exit %d %s", code, errOut)
	}
	pid := int(dwJSON(t, out)["pid"].(float64))
	dwKillOnCleanup(t, pid)
	rec := discRecord(t, ws)
	if rec["url"] != base || rec["pid"] != float64(pid) || rec["workspace"] != real || rec["port"] != float64(mustAtoi(t, port)) {
		t.Fatalf("record %v, want url %s pid %d workspace %s", rec, base, pid, real)
	}
	h := (&proc{t: t, url: base}).must(200, "GET", "/health", nil).body
	if h["pid"] != float64(pid) || h["workspace"] != real {
		t.Fatalf("/health %v lacks the identity (pid %d, workspace %s)", h, pid, real)
	}

	// The CLI, with no port or URL given.
	code, out, errOut = discRun(t, ws, nil, "node", "add", "--title", "Found", "--content", "by the record")
	if code != 0 {
		t.Fatalf("node add: exit %d %s", code, errOut)
	}
	srv := &proc{t: t, url: base}
	if n := len(srv.must(200, "GET", "/api/canvas/search?q=Found", nil).body["results"].([]any)); n != 1 {
		t.Fatalf("the node did not reach the daemon on %s: %d results", port, n)
	}
	// A subdirectory is another workspace: it is not found there.
	sub := filepath.Join(ws, "sub")
	_ = os.Mkdir(sub, 0o755)
	if code, _, errOut := discRun(t, sub, []string{"PMX_CANVAS_URL=http://127.0.0.1:1"}, "node", "list"); code != 1 || !strings.Contains(errOut, "from PMX_CANVAS_URL") {
		t.Fatalf("an explicit URL must win over the record: %d %s", code, errOut)
	}

	// watch: follows the daemon's stream.
	watch := exec.Command(binary, "watch", "--json", "--max-events", "1")
	watch.Dir, watch.Env = ws, dwEnv()
	wout, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	werr := &syncBuffer{}
	watch.Stderr = werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = watch.Process.Kill(); _ = watch.Wait() })
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(wout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(20 * time.Second)
	added := false
	for !added {
		// Add nodes until watch, which connects in the background, sees one.
		srv.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Watched"}`)
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("watch ended without an event: %s", werr.String())
			}
			if !strings.Contains(l, `"type":"add"`) || !strings.Contains(l, `"title":"Watched"`) {
				t.Fatalf("watch printed %q", l)
			}
			added = true
		case <-time.After(300 * time.Millisecond):
		case <-deadline:
			t.Fatalf("watch saw nothing from the daemon: %s", werr.String())
		}
	}

	// pmx-canvas mcp: forwards to the daemon instead of failing on the
	// store lock the daemon holds.
	mcp := exec.Command(binary, "mcp", "--log-level", "info")
	mcp.Dir, mcp.Env = ws, dwEnv()
	replies := mcpExchange(t, mcp,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"canvas_add_node","arguments":{"type":"markdown","title":"From MCP"}}}`,
	)
	if len(replies) < 2 || strings.Contains(replies[1], `"isError":true`) {
		t.Fatalf("mcp replies %v\n%s", replies, mcp.Stderr)
	}
	if n := len(srv.must(200, "GET", "/api/canvas/search?q=From%20MCP", nil).body["results"].([]any)); n != 1 {
		t.Fatalf("the MCP call did not reach the daemon: %d results (stderr %s)", n, mcp.Stderr)
	}
	if !strings.Contains(mcp.Stderr.(*syncBuffer).String(), "MCP forwards to the canvas daemon") {
		t.Fatalf("mcp did not say it forwards: %s", mcp.Stderr)
	}

	// serve status and serve stop find it too.
	code, out, _ = discRun(t, ws, nil, "serve", "status")
	if st := dwJSON(t, out); code != 0 || st["running"] != true || st["pid"] != float64(pid) {
		t.Fatalf("serve status: %v", st)
	}
	code, out, errOut = discRun(t, ws, nil, "serve", "stop")
	if st := dwJSON(t, out); code != 0 || st["stopped"] != true {
		t.Fatalf("serve stop: %v %s", st, errOut)
	}
	discNoRecord(t, ws) // removed on exit

	// Nothing runs now: the message names the server it tried and why.
	if defaultPortBusy() {
		t.Log("something listens on 4313 on this machine; the no-server message is not checked")
		return
	}
	code, _, errOut = discRun(t, ws, nil, "node", "list")
	e := dwJSON(t, errOut)
	if msg, _ := e["error"].(string); code != 1 || !strings.Contains(msg, "Cannot connect to pmx-canvas at http://127.0.0.1:4313 (the default port; no server is recorded for "+real+")") ||
		!strings.Contains(e["hint"].(string), "pmx-canvas serve --daemon") {
		t.Fatalf("node list with nothing running: %d %v", code, e)
	}
}

// defaultPortBusy: something (another user's server) listens on 4313,
// where a client falls back when nothing else is found.
func defaultPortBusy() bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:4313", 200*time.Millisecond)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDiscoveryStaleRecord: a server killed with SIGKILL leaves its
// record; the next client ignores it (the pid is gone), removes it and
// says so, and pmx-canvas mcp hosts the canvas itself.
func TestDiscoveryStaleRecord(t *testing.T) {
	dwRequireProc(t)
	ws := t.TempDir()
	p := startServer(t, ws)
	rec := discRecord(t, ws)
	if rec["url"] != p.url {
		t.Fatalf("record url %v, server %s", rec["url"], p.url)
	}
	_ = p.cmd.Process.Kill()
	p.kill()
	if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "server.json")); err != nil {
		t.Fatalf("SIGKILL should leave the record behind: %v", err)
	}
	pid := int(rec["pid"].(float64))
	code, _, errOut := discRun(t, ws, nil, "node", "list")
	// (With something on 4313 the command reaches it; the record must go
	// all the same.)
	if !defaultPortBusy() && (code != 1 || !strings.Contains(errOut, "removed a stale server record (pid "+strconv.Itoa(pid)+" is gone)")) {
		t.Fatalf("node list after a kill: %d %s", code, errOut)
	}
	discNoRecord(t, ws)

	// A record naming a live process that is no server of this workspace
	// (this test) is not used either, and not removed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	fake := `{"url":"http://` + ln.Addr().String() + `","pid":` + strconv.Itoa(os.Getpid()) + `,"workspace":"` + ws + `","port":1}`
	if err := os.WriteFile(filepath.Join(ws, ".pmx-canvas", "server.json"), []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	go func() { // answer like something that is not pmx-canvas
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			_ = c.Close()
		}
	}()
	code, _, errOut = discRun(t, ws, nil, "node", "list")
	if defaultPortBusy() {
		t.Log("something listens on 4313 on this machine; the fallback message is not checked")
	} else if code != 1 || !strings.Contains(errOut, "the recorded server http://"+ln.Addr().String()+" (pid "+strconv.Itoa(os.Getpid())+") did not answer") ||
		!strings.Contains(errOut, "127.0.0.1:4313 (the default port") {
		t.Fatalf("node list with a foreign record: %d %s", code, errOut)
	}
	_ = os.Remove(filepath.Join(ws, ".pmx-canvas", "server.json"))

	// mcp with a stale record: hosts the canvas itself (the killed
	// server's store lock went with it).
	p = startServer(t, ws)
	_ = p.cmd.Process.Kill()
	p.kill()
	port := freePort(t)
	mcp := exec.Command(binary, "mcp", "--port", port, "--log-level", "info")
	mcp.Dir, mcp.Env = ws, dwEnv()
	replies := mcpExchange(t, mcp,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"canvas_add_node","arguments":{"type":"markdown","title":"Hosted"}}}`,
	)
	if len(replies) < 2 || strings.Contains(replies[1], `"isError":true`) || strings.Contains(mcp.Stderr.(*syncBuffer).String(), "forwards") {
		t.Fatalf("mcp with a stale record: %v\n%s", replies, mcp.Stderr)
	}
}

// TestDiscoveryRefusedDaemonLeavesNoLock: serve --daemon on a port another
// workspace's server holds is refused and leaves nothing in the workspace
// (no daemon-<port>.pid.lock, no .pmx-canvas directory it created); a
// successful start and stop leave no lock either.
func TestDiscoveryRefusedDaemonLeavesNoLock(t *testing.T) {
	dwRequireProc(t)
	other := startServer(t, "")
	port := other.url[strings.LastIndexByte(other.url, ':')+1:]
	ws := t.TempDir()
	dwReapOnCleanup(t, ws)
	code, _, errOut := discRun(t, ws, nil, "serve", "--daemon", "--port", port)
	if e := dwJSON(t, errOut); code != 1 || !strings.Contains(e["error"].(string), "is already serving another workspace") {
		t.Fatalf("refused start: %d %v", code, e)
	}
	if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "daemon-"+port+".pid.lock")); !os.IsNotExist(err) {
		t.Fatalf("the refused start left its lock file (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas")); !os.IsNotExist(err) {
		t.Fatalf("the refused start left a .pmx-canvas directory (%v)", err)
	}

	// A start that succeeds and its stop leave no lock either.
	free := freePort(t)
	if code, out, errOut := discRun(t, ws, nil, "serve", "--daemon", "--port", free); code != 0 {
		t.Fatalf("start: %d %s", code, errOut)
	} else {
		dwKillOnCleanup(t, int(dwJSON(t, out)["pid"].(float64)))
	}
	if _, err := os.Stat(filepath.Join(ws, ".pmx-canvas", "daemon-"+free+".pid.lock")); !os.IsNotExist(err) {
		t.Fatalf("a successful start left its lock file (%v)", err)
	}
	if code, _, errOut := discRun(t, ws, nil, "serve", "stop"); code != 0 {
		t.Fatalf("stop: %d %s", code, errOut)
	}
	entries, _ := os.ReadDir(filepath.Join(ws, ".pmx-canvas"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lock") || e.Name() == "server.json" {
			t.Fatalf("left behind after stop: %s", e.Name())
		}
	}

	// A foreground serve on a port in use says so once and what to do.
	code, _, errOut = discRun(t, ws, nil, "serve", "--port", port, "--no-open")
	e := dwJSON(t, errOut)
	msg, _ := e["error"].(string)
	if code != 1 || msg != "Cannot listen on 127.0.0.1:"+port+": address already in use by the pmx-canvas server of "+other.ws ||
		!strings.Contains(e["hint"].(string), "pmx-canvas serve --port") || strings.Contains(errOut, "--help") {
		t.Fatalf("serve on a busy port: %d %v", code, e)
	}
}

// TestDiscoveryMCPLockedWithoutRecord: when the store is held by a process
// that cannot be found (its record is gone), pmx-canvas mcp says what it
// tried and how to point at the server, instead of a bare lock error.
func TestDiscoveryMCPLockedWithoutRecord(t *testing.T) {
	ws := t.TempDir()
	p := startServer(t, ws)
	real, _ := filepath.EvalSymlinks(ws)
	if err := os.Remove(filepath.Join(ws, ".pmx-canvas", "server.json")); err != nil {
		t.Fatal(err)
	}
	mcp := exec.Command(binary, "mcp")
	mcp.Dir, mcp.Env = ws, dwEnv()
	mcp.Stdin = strings.NewReader("")
	out, err := mcp.CombinedOutput()
	if err == nil {
		t.Fatalf("mcp started beside a server it could not find: %s", out)
	}
	e := dwJSON(t, string(out))
	if msg, _ := e["error"].(string); !strings.HasPrefix(msg, "Cannot serve MCP: workspace store is locked by another process") ||
		!strings.Contains(msg, "tried: no server is recorded for "+real) || !strings.Contains(e["hint"].(string), "PMX_CANVAS_URL=") {
		t.Fatalf("mcp error %v", e)
	}
	// With the URL it forwards.
	mcp = exec.Command(binary, "mcp", "--log-level", "info")
	mcp.Dir, mcp.Env = ws, dwEnv("PMX_CANVAS_URL="+p.url)
	replies := mcpExchange(t, mcp,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if len(replies) != 1 || !strings.Contains(replies[0], `"serverInfo"`) {
		t.Fatalf("mcp with PMX_CANVAS_URL: %v %s", replies, mcp.Stderr)
	}
}
