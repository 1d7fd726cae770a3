package main

// Black-box tests: they build the real binary once and talk to it over
// HTTP and SSE, as a client of the reference would.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binary string

func TestMain(m *testing.M) {
	// The test binary doubles as the stdio MCP-App fixture (apps.txtar).
	mcpappfixture.MaybeRunChild()
	// Webpage nodes the tests create never look a name up (no internet).
	if os.Getenv("PMX_CANVAS_OFFLINE") == "" {
		os.Setenv("PMX_CANVAS_OFFLINE", "1")
	}
	dir, err := os.MkdirTemp("", "pmx-canvas-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "pmx-canvas")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binary failed:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running server process.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	url    string
	ws     string
	stderr *syncBuffer
	exited chan error
	// killed makes kill idempotent (a test's kill and the cleanup's).
	killed sync.Once
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var bannerURL = regexp.MustCompile(`running at (http://localhost:\d+)`)

// startServer runs "pmx-canvas serve" on a free port in ws (a new temp dir
// when empty) and waits until /health answers.
func startServer(t testing.TB, ws string, args ...string) *proc {
	t.Helper()
	if ws == "" {
		ws = t.TempDir()
	}
	full := append([]string{"serve", "--port", "0", "--workspace", ws, "--no-open"}, args...)
	cmd := exec.Command(binary, full...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cmd.Stdout = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, ws: ws, stderr: stderr, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for p.url == "" {
		if m := bannerURL.FindStringSubmatch(stderr.String()); m != nil {
			p.url = strings.Replace(m[1], "localhost", "127.0.0.1", 1)
			break
		}
		select {
		case err := <-p.exited:
			t.Fatalf("server exited before it was ready: %v\n%s", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("server did not start:\n%s", stderr.String())
		}
	}
	t.Cleanup(func() { p.kill() })
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop() {
	p.t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		p.exited <- err
		if err != nil {
			p.t.Fatalf("server exited with %v after SIGTERM\n%s", err, p.stderr.String())
		}
	case <-time.After(20 * time.Second):
		p.t.Fatalf("server did not stop after SIGTERM\n%s", p.stderr.String())
	}
}

func (p *proc) kill() {
	p.killed.Do(func() {
		_ = p.cmd.Process.Kill() // an error means it has exited already
		select {
		case err := <-p.exited:
			p.exited <- err
		case <-time.After(5 * time.Second):
		}
	})
}

type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r *response) str(key string) string {
	s, _ := r.body[key].(string)
	return s
}

var client = &http.Client{Timeout: 30 * time.Second}

// do sends a request; body may be a string (sent verbatim) or any value
// (sent as JSON).
func (p *proc) do(method, path string, body any, headers ...string) *response {
	p.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, p.url+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Host") {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := &response{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// must asserts the status and returns the response.
func (p *proc) must(status int, method, path string, body any, headers ...string) *response {
	p.t.Helper()
	r := p.do(method, path, body, headers...)
	if r.status != status {
		p.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, status, r.raw)
	}
	return r
}

func (p *proc) addNode(body string) string {
	p.t.Helper()
	return p.must(200, "POST", "/api/canvas/node", body).str("id")
}

func (p *proc) state(canvas string) map[string]any {
	p.t.Helper()
	path := "/api/canvas/state"
	if canvas != "" {
		path += "?canvas=" + canvas
	}
	return p.must(200, "GET", path, nil).body
}

func nodesOf(state map[string]any) []map[string]any {
	var out []map[string]any
	for _, n := range state["nodes"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// raw sends a hand-written HTTP request (for requests net/http refuses to
// build) and returns the status and body.
func (p *proc) raw(request string) (int, string) {
	p.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		p.t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		p.t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// sseFrame is one parsed SSE frame.
type sseFrame struct {
	id    string
	event string
	data  map[string]any
}

// sseStream reads frames from an open event stream.
type sseStream struct {
	res    *http.Response
	frames chan sseFrame
}

func (p *proc) openStream(query string, headers ...string) *sseStream {
	p.t.Helper()
	req, _ := http.NewRequest("GET", p.url+"/api/workbench/events"+query, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := (&http.Client{}).Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		p.t.Fatalf("events content type %q", ct)
	}
	s := &sseStream{res: res, frames: make(chan sseFrame, 1024)}
	go func() {
		defer close(s.frames)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		var f sseFrame
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				s.frames <- f
				f = sseFrame{}
			case strings.HasPrefix(line, "id: "):
				f.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				f.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(line[6:]), &f.data)
			default:
				s.frames <- sseFrame{event: "MALFORMED: " + line}
			}
		}
	}()
	p.t.Cleanup(func() { s.close() })
	return s
}

func (s *sseStream) next(t *testing.T) sseFrame {
	t.Helper()
	// One deadline for the call: pings do not extend it (a missing frame
	// once hung a test for ten minutes, a ping every few seconds resetting
	// a per-receive timer).
	deadline := time.After(10 * time.Second)
	for {
		select {
		case f, ok := <-s.frames:
			if !ok {
				t.Fatal("event stream ended")
			}
			if f.event == "ping" {
				continue
			}
			return f
		case <-deadline:
			t.Fatal("no event within 10s")
		}
	}
}

// quiet asserts no frame (other than pings) arrives within d.
func (s *sseStream) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	timer := time.After(d)
	for {
		select {
		case f := <-s.frames:
			if f.event != "ping" {
				t.Fatalf("unexpected frame %s %v", f.event, f.data)
			}
		case <-timer:
			return
		}
	}
}

func (s *sseStream) close() { _ = s.res.Body.Close() }

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strings.TrimPrefix(ln.Addr().String(), "127.0.0.1:")
}

// runUntilHealthy starts cmd and waits until url/health answers.
func runUntilHealthy(t testing.TB, cmd *exec.Cmd, url, ws string) *proc {
	t.Helper()
	stderr := &syncBuffer{}
	cmd.Stderr, cmd.Stdout = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, url: url, ws: ws, stderr: stderr, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(p.kill)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if res, err := http.Get(url + "/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not healthy: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hangingRequest sends "<METHOD> <path>" on a raw connection and returns a
// function that hangs up without reading the reply (a client going away).
func (p *proc) hangingRequest(requestLine string) (hangUp func()) {
	p.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		p.t.Fatal(err)
	}
	host := strings.TrimPrefix(p.url, "http://")
	if _, err := conn.Write([]byte(requestLine + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n")); err != nil {
		p.t.Fatal(err)
	}
	return func() { _ = conn.Close() }
}
