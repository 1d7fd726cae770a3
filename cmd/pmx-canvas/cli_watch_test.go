package main

// Black-box tests of "pmx-canvas watch": the semantic lines for each kind of
// change, and resuming after a dropped connection. The watcher talks to the
// server through a TCP proxy the test controls, so a connection can be cut
// (and kept down) without restarting the server and losing its replay ring.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// dwProxy forwards TCP connections to a server.
type dwProxy struct {
	t      *testing.T
	ln     net.Listener
	url    string
	target string
	opened chan *dwConn

	mu    sync.Mutex
	down  bool
	conns []net.Conn
}

// dwConn is one proxied connection: the start of the request, and a
// channel closed when the server's first response bytes went through.
type dwConn struct {
	mu        sync.Mutex
	request   bytes.Buffer
	responded chan struct{}
}

func (c *dwConn) head() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.request.String()
}

func dwNewProxy(t *testing.T, serverURL string) *dwProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dwProxy{t: t, ln: ln, url: "http://" + ln.Addr().String(), target: strings.TrimPrefix(serverURL, "http://"),
		opened: make(chan *dwConn, 64)}
	go p.accept()
	t.Cleanup(func() { _ = ln.Close(); p.cut() })
	return p
}

func (p *dwProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			_ = c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			_ = c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		dc := &dwConn{responded: make(chan struct{})}
		p.opened <- dc
		go func() { // client -> server, keeping the request head
			buf := make([]byte, 32<<10)
			for {
				n, err := c.Read(buf)
				if n > 0 {
					dc.mu.Lock()
					if dc.request.Len() < 8<<10 {
						dc.request.Write(buf[:n])
					}
					dc.mu.Unlock()
					if _, werr := s.Write(buf[:n]); werr != nil {
						break
					}
				}
				if err != nil {
					break
				}
			}
			_ = s.Close()
		}()
		go func() { // server -> client
			buf := make([]byte, 32<<10)
			first := true
			for {
				n, err := s.Read(buf)
				if n > 0 {
					if _, werr := c.Write(buf[:n]); werr != nil {
						break
					}
					if first {
						first = false
						close(dc.responded)
					}
				}
				if err != nil {
					break
				}
			}
			_ = c.Close()
		}()
	}
}

// cut closes every open connection; with down, new ones are refused
// (accepted and closed at once) until up.
func (p *dwProxy) cut(down ...bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(down) > 0 {
		p.down = down[0]
	}
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

func (p *dwProxy) up() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// nextStream waits for the next connection the server answered: the
// watcher is subscribed once its event stream has started.
func (p *dwProxy) nextStream() *dwConn {
	p.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case c := <-p.opened:
			select {
			case <-c.responded:
				return c
			case <-deadline:
				p.t.Fatal("the server never answered the watcher")
			}
		case <-deadline:
			p.t.Fatal("the watcher did not connect")
		}
	}
}

// dwWatch is a running "pmx-canvas watch".
type dwWatch struct {
	t      *testing.T
	cmd    *exec.Cmd
	lines  chan string
	stderr *syncBuffer
	exited chan error
}

func dwStartWatch(t *testing.T, args ...string) *dwWatch {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"watch"}, args...)...)
	cmd.Env = dwEnv()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &dwWatch{t: t, cmd: cmd, lines: make(chan string, 100), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
		w.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	return w
}

// line returns the next output line, decoded as JSON.
func (w *dwWatch) line() map[string]any {
	w.t.Helper()
	select {
	case l, ok := <-w.lines:
		if !ok {
			w.t.Fatalf("watch ended early; stderr: %s", w.stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			w.t.Fatalf("not an NDJSON line: %q", l)
		}
		return m
	case <-time.After(15 * time.Second):
		w.t.Fatalf("no watch line within 15s; stderr: %s", w.stderr.String())
	}
	return nil
}

// exit waits for the watcher to exit and returns its code.
func (w *dwWatch) exit() int {
	w.t.Helper()
	for range w.lines {
		w.t.Error("unexpected extra line")
	}
	select {
	case err := <-w.exited:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		} else if err != nil {
			w.t.Fatal(err)
		}
		return 0
	case <-time.After(40 * time.Second):
		w.t.Fatal("watch did not exit")
	}
	return -1
}

// dwField digs a value out of decoded JSON: "nodes.0.id".
func dwField(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func dwExpect(t *testing.T, line map[string]any, want map[string]any) {
	t.Helper()
	for path, v := range want {
		got := dwField(line, path)
		if fmt.Sprint(got) != fmt.Sprint(v) {
			t.Fatalf("%s = %v, want %v in %v", path, got, v, line)
		}
	}
}

func TestWatchReportsEachKindOfChange(t *testing.T) {
	p := startServer(t, "")
	beta := p.addNode(`{"type":"markdown","title":"Beta","x":4000,"y":4000,"width":200,"height":100}`)
	proxy := dwNewProxy(t, p.url)
	w := dwStartWatch(t, "--json", "--max-events", "6", "--server-url", proxy.url)
	proxy.nextStream()

	alpha := p.addNode(`{"type":"markdown","title":"Alpha","x":2000,"y":1500,"width":200,"height":100}`)
	dwExpect(t, w.line(), map[string]any{"type": "add", "nodes.0.id": alpha, "nodes.0.title": "Alpha", "nodes.0.nodeType": "markdown", "nodes.1": nil})

	p.must(200, "PATCH", "/api/canvas/node/"+beta, `{"x":2250,"y":1500}`)
	dwExpect(t, w.line(), map[string]any{"type": "move-end", "nodes.0.id": beta, "nodes.0.reasons": []any{"joined cluster"}, "nodes.1": nil})

	edge := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, alpha, beta)).str("id")
	dwExpect(t, w.line(), map[string]any{"type": "connect", "edges.0.id": edge, "edges.0.fromId": alpha, "edges.0.toId": beta,
		"edges.0.fromTitle": "Alpha", "edges.0.toTitle": "Beta", "edges.0.edgeType": "flow"})

	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, alpha))
	dwExpect(t, w.line(), map[string]any{"type": "context-pin", "added.0.id": alpha, "added.0.title": "Alpha", "removed": []any{}})

	group := p.must(200, "POST", "/api/canvas/group", fmt.Sprintf(`{"title":"Pair","childIds":[%q,%q]}`, alpha, beta)).str("id")
	dwExpect(t, w.line(), map[string]any{"type": "group", "created.0.id": group, "created.0.title": "Pair", "created.0.childCount": 2, "updated": []any{}})

	p.must(200, "DELETE", "/api/canvas/edge?id="+edge, nil)
	dwExpect(t, w.line(), map[string]any{"type": "remove", "nodes": []any{}, "edges.0.id": edge})

	if code := w.exit(); code != 0 {
		t.Fatalf("watch exit %d after --max-events; stderr %s", code, w.stderr.String())
	}
}

func TestWatchHumanLines(t *testing.T) {
	p := startServer(t, "")
	proxy := dwNewProxy(t, p.url)
	w := dwStartWatch(t, "--max-events", "2", "--events", "add,connect", "--server-url", proxy.url)
	proxy.nextStream()
	// One write at a time, each line awaited: two writes close together may
	// arrive as one coalesced frame ("add 2 nodes"), which is also right but
	// not what this test reads.
	var got []string
	next := func() {
		select {
		case l := <-w.lines:
			got = append(got, l)
		case <-time.After(15 * time.Second):
			t.Fatalf("lines so far %q", got)
		}
	}
	a := p.addNode(`{"type":"markdown","title":"Design Doc","x":100,"y":1000}`)
	next()
	b := p.addNode(`{"type":"status","title":"Build","x":900,"y":1000}`)
	next()
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"depends-on"}`, a, b))
	want := []string{`add 1 node: "Design Doc"`, `add 1 node: "Build"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q want %q", got, want)
	}
	if code := w.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

var dwLastEventID = regexp.MustCompile(`(?i)\r\nLast-Event-Id: (\d+)\r\n`)

// TestWatchResumesAfterADroppedConnection cuts the watcher's connection,
// changes the canvas while it cannot reconnect, then lets it back: the
// changes made meanwhile are reported (replayed from Last-Event-ID), in
// order, and the stream carries on live.
func TestWatchResumesAfterADroppedConnection(t *testing.T) {
	p := startServer(t, "")
	beta := p.addNode(`{"type":"markdown","title":"Beta","x":4000,"y":4000}`)
	proxy := dwNewProxy(t, p.url)
	w := dwStartWatch(t, "--json", "--max-events", "4", "--server-url", proxy.url)
	first := proxy.nextStream()
	if dwLastEventID.MatchString(first.head()) {
		t.Fatalf("the first connection sent Last-Event-ID:\n%s", first.head())
	}

	alpha := p.addNode(`{"type":"markdown","title":"Alpha","x":100,"y":4000}`)
	dwExpect(t, w.line(), map[string]any{"type": "add", "nodes.0.id": alpha})

	proxy.cut(true) // drop the stream and refuse reconnections
	edge := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, alpha, beta)).str("id")
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, beta))
	select {
	case l := <-w.lines:
		t.Fatalf("a line arrived while disconnected: %s", l)
	case <-time.After(300 * time.Millisecond):
	}
	proxy.up()
	second := proxy.nextStream()
	m := dwLastEventID.FindStringSubmatch(second.head())
	if m == nil || m[1] == "0" {
		t.Fatalf("the reconnection did not resume with Last-Event-ID:\n%s", second.head())
	}

	dwExpect(t, w.line(), map[string]any{"type": "connect", "edges.0.id": edge})
	dwExpect(t, w.line(), map[string]any{"type": "context-pin", "added.0.id": beta})
	group := p.must(200, "POST", "/api/canvas/group", fmt.Sprintf(`{"title":"Live","childIds":[%q]}`, alpha)).str("id")
	dwExpect(t, w.line(), map[string]any{"type": "group", "created.0.id": group})
	if code := w.exit(); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, w.stderr.String())
	}
}

func TestWatchGivesUpWhenTheStreamStaysDown(t *testing.T) {
	p := startServer(t, "")
	proxy := dwNewProxy(t, p.url)
	w := dwStartWatch(t, "--reconnect", "500ms", "--server-url", proxy.url)
	proxy.nextStream()
	proxy.cut(true)
	if code := w.exit(); code != 1 {
		t.Fatalf("exit %d", code)
	}
	var e map[string]any
	if err := json.Unmarshal([]byte(w.stderr.String()), &e); err != nil || !strings.HasPrefix(e["error"].(string), "Watch stream failed: ") ||
		e["hint"] != "Check that the server still runs (pmx-canvas serve status), then watch again; a longer --reconnect (e.g. 2m) waits for it to come back." {
		t.Fatalf("stderr %q", w.stderr.String())
	}

	// Nothing listening at all: exit 1 at once, saying how to start one.
	code, out, errOut := dwRun(t, t.TempDir(), "watch", "--server-url", "http://127.0.0.1:"+freePort(t))
	if code != 1 || out != "" || !strings.Contains(errOut, "Cannot connect to pmx-canvas event stream at") {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
}
