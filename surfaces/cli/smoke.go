package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

// smoke: the self-check a new user runs first. It starts a throwaway
// server in a temporary workspace (in this process, on a free loopback
// port), runs a short scenario through HTTP, the SSE event stream and MCP,
// and reports each check. stdout gets one JSON document {ok, version,
// workspace, url, checks:[{name, ok, ms, error?}]}; stderr a human table.
// Exit 0 when every check passes, else 1.

func init() {
	commandAdders = append(commandAdders, func(root *cobra.Command, s *ioStreams) {
		root.AddCommand(newSmokeCommand(s))
	})
}

type smokeOptions struct {
	keep    bool
	quiet   bool
	timeout time.Duration
}

func newSmokeCommand(s *ioStreams) *cobra.Command {
	o := &smokeOptions{}
	cmd := &cobra.Command{
		Use:   "smoke",
		Short: "Self-check: start a throwaway server and exercise HTTP, SSE and MCP",
		Long: `Start a throwaway server in a temporary workspace (127.0.0.1, a free port; your
canvases are not touched), then run a short scenario: health, add two nodes
and an edge and read the state back over HTTP; see the layout frames on the
SSE stream and resume it with Last-Event-ID; add a node through MCP and read
it over HTTP. Prints the result as one JSON document on stdout and a table on
stderr; exits 0 when every check passes, 1 otherwise.`,
		Example: `  pmx-canvas smoke
  pmx-canvas smoke --quiet | jq .ok
  pmx-canvas smoke --keep     # keep the temporary workspace for a look`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSmoke(cmd, o, s) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.keep, "keep", false, "keep the temporary workspace (its path is in the output)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no table on stderr")
	f.DurationVar(&o.timeout, "timeout", 10*time.Second, "time allowed for each check")
	return cmd
}

type smokeCheck struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Ms    int64  `json:"ms"`
	Error string `json:"error,omitempty"`
}

type smokeReport struct {
	OK        bool         `json:"ok"`
	Version   string       `json:"version"`
	Workspace string       `json:"workspace"`
	URL       string       `json:"url"`
	Checks    []smokeCheck `json:"checks"`
}

func runSmoke(cmd *cobra.Command, o *smokeOptions, s *ioStreams) error {
	if o.timeout <= 0 {
		return die("Use a positive duration, e.g. --timeout 10s", "Invalid value for --timeout: %s", o.timeout)
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	r := &smokeRun{ctx: ctx, timeout: o.timeout, http: &http.Client{Timeout: o.timeout}}
	r.run()
	if r.ws != "" && !o.keep {
		_ = os.RemoveAll(r.ws)
	}
	rep := smokeReport{OK: true, Version: messages.Version, Workspace: r.ws, URL: r.base, Checks: r.checks}
	for _, c := range r.checks {
		rep.OK = rep.OK && c.OK
	}
	if !o.quiet {
		writeSmokeTable(s.Err, &rep)
	}
	if err := output(cmd.OutOrStdout(), rep); err != nil {
		return err
	}
	for _, c := range rep.Checks {
		if !c.OK {
			return &cliError{Msg: fmt.Sprintf("smoke: check %q failed: %s", c.Name, c.Error),
				Hint: "The JSON on stdout lists every check; --keep keeps the temporary workspace to look at."}
		}
	}
	return nil
}

func writeSmokeTable(w io.Writer, rep *smokeReport) {
	fmt.Fprintf(w, "pmx-canvas %s smoke test (workspace %s, %s)\n", rep.Version, rep.Workspace, rep.URL)
	width := 0
	for _, c := range rep.Checks {
		width = max(width, len(c.Name))
	}
	passed := 0
	for _, c := range rep.Checks {
		mark := "FAIL"
		if c.OK {
			mark = "PASS"
			passed++
		}
		line := fmt.Sprintf("  %s  %-*s %6dms", mark, width, c.Name, c.Ms)
		if c.Error != "" {
			line += "  " + c.Error
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%d/%d checks passed\n", passed, len(rep.Checks))
}

// smokeRun is one scenario; each step records a check, and a failed step
// stops the run (later steps depend on earlier ones).
type smokeRun struct {
	ctx     context.Context
	timeout time.Duration
	http    *http.Client
	checks  []smokeCheck
	failed  bool

	ws, base string
	srv      *pmxcanvas.Server
	frames   chan sseFrame
	stopSSE  context.CancelFunc
	head     uint64 // event number when the stream opened
	nodeA    string
	nodeB    string
	edge     string
	mcp      *smokeMCP
	mcpNode  string
}

func (r *smokeRun) step(name string, fn func() error) {
	if r.failed {
		r.checks = append(r.checks, smokeCheck{Name: name, Error: "skipped: an earlier check failed"})
		return
	}
	start := time.Now()
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return fn()
	}()
	c := smokeCheck{Name: name, OK: err == nil, Ms: time.Since(start).Milliseconds()}
	if err != nil {
		c.Error = err.Error()
		r.failed = true
	}
	r.checks = append(r.checks, c)
}

func (r *smokeRun) run() {
	defer r.teardown()
	r.step("start server", r.start)
	r.step("http: health", r.health)
	r.step("sse: connect", r.openStream)
	r.step("http: add nodes and an edge", r.write)
	r.step("http: read state", r.readState)
	r.step("sse: layout frames", r.layoutFrames)
	r.step("sse: resume with Last-Event-ID", r.resume)
	r.step("mcp: initialize", r.mcpInit)
	r.step("mcp: tool call", r.mcpCall)
	r.step("mcp: node visible over http", r.mcpVisible)
}

func (r *smokeRun) teardown() {
	if r.stopSSE != nil {
		r.stopSSE()
	}
	if r.mcp != nil {
		r.mcp.close()
	}
	if r.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		err := r.srv.Close(ctx)
		if !r.failed {
			c := smokeCheck{Name: "stop server", OK: err == nil, Ms: time.Since(start).Milliseconds()}
			if err != nil {
				c.Error = err.Error()
			}
			r.checks = append(r.checks, c)
		}
	}
}

func (r *smokeRun) start() error {
	ws, err := os.MkdirTemp("", "pmx-canvas-smoke-")
	if err != nil {
		return err
	}
	r.ws = ws
	srv, err := pmxcanvas.Start(pmxcanvas.Options{
		Workspace: ws, Port: 0, SeedDockedWidgets: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	r.srv, r.base = srv, srv.URL()
	return nil
}

// call sends a request and decodes a JSON object reply; status must match.
func (r *smokeRun) call(method, path string, body any, status int) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(r.ctx, method, r.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := r.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		return nil, fmt.Errorf("%s %s: HTTP %d, want %d: %s", method, path, res.StatusCode, status, bytes.TrimSpace(raw))
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s %s: not a JSON object: %v", method, path, err)
	}
	return out, nil
}

func (r *smokeRun) health() error {
	h, err := r.call("GET", "/health", nil, 200)
	if err != nil {
		return err
	}
	if h["ok"] != true {
		return fmt.Errorf("/health: ok is %v", h["ok"])
	}
	if ws, _ := h["workspace"].(string); !daemonSameDir(ws, r.ws) {
		return fmt.Errorf("/health reports workspace %q, want %q", ws, r.ws)
	}
	return nil
}

// openStream subscribes to the event stream and waits for its opening
// burst (connected, then the full layout).
func (r *smokeRun) openStream() error {
	ctx, cancel := context.WithCancel(r.ctx)
	r.stopSSE = cancel
	frames, err := r.subscribe(ctx, "")
	if err != nil {
		return err
	}
	r.frames = frames
	f, err := r.nextFrame(frames, "connected")
	if err != nil {
		return err
	}
	if r.head, err = strconv.ParseUint(f.id, 10, 64); err != nil {
		return fmt.Errorf("connected frame has id %q", f.id)
	}
	f, err = r.nextFrame(frames, "canvas-layout-update")
	if err != nil {
		return err
	}
	if l, _ := watchDecodeLayout(f.data); l == nil || len(l.Nodes) != 2 {
		return fmt.Errorf("the opening layout frame should hold the 2 docked widgets: %s", smokeTruncate(string(f.data), 200))
	}
	return nil
}

func (r *smokeRun) subscribe(ctx context.Context, lastEventID string) (chan sseFrame, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", r.base+"/api/workbench/events", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	res, err := (&http.Client{}).Do(req) // no timeout: a stream
	if err != nil {
		return nil, err
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		res.Body.Close()
		return nil, fmt.Errorf("GET /api/workbench/events: HTTP %d, Content-Type %q", res.StatusCode, ct)
	}
	frames := make(chan sseFrame, 64)
	go func() {
		defer close(frames)
		defer res.Body.Close()
		_ = readSSE(res.Body, nil, func(f sseFrame) error {
			select {
			case frames <- f:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	return frames, nil
}

// nextFrame returns the next frame named event, skipping others.
func (r *smokeRun) nextFrame(frames chan sseFrame, event string) (sseFrame, error) {
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				return sseFrame{}, fmt.Errorf("the event stream ended before a %s frame", event)
			}
			if f.event == event {
				return f, nil
			}
		case <-timer.C:
			return sseFrame{}, fmt.Errorf("no %s frame within %s", event, r.timeout)
		}
	}
}

func (r *smokeRun) write() error {
	a, err := r.call("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": "Smoke A", "content": "# Hello from smoke", "x": 100, "y": 300}, 200)
	if err != nil {
		return err
	}
	b, err := r.call("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": "Smoke B", "x": 900, "y": 300}, 200)
	if err != nil {
		return err
	}
	r.nodeA, _ = a["id"].(string)
	r.nodeB, _ = b["id"].(string)
	if r.nodeA == "" || r.nodeB == "" {
		return errors.New("POST /api/canvas/node returned no id")
	}
	e, err := r.call("POST", "/api/canvas/edge", map[string]any{"from": r.nodeA, "to": r.nodeB, "type": "flow"}, 200)
	if err != nil {
		return err
	}
	if r.edge, _ = e["id"].(string); r.edge == "" {
		return errors.New("POST /api/canvas/edge returned no id")
	}
	return nil
}

func (r *smokeRun) readState() error {
	st, err := r.call("GET", "/api/canvas/state", nil, 200)
	if err != nil {
		return err
	}
	found := map[string]bool{}
	nodes, _ := st["nodes"].([]any)
	for _, n := range nodes {
		if m, ok := n.(map[string]any); ok {
			id, _ := m["id"].(string)
			found[id] = true
		}
	}
	edges, _ := st["edges"].([]any)
	for _, e := range edges {
		if m, ok := e.(map[string]any); ok {
			id, _ := m["id"].(string)
			found[id] = true
		}
	}
	for _, id := range []string{r.nodeA, r.nodeB, r.edge} {
		if !found[id] {
			return fmt.Errorf("the state lacks %s (%d nodes, %d edges)", id, len(nodes), len(edges))
		}
	}
	if len(nodes) != 4 || len(edges) != 1 {
		return fmt.Errorf("the state has %d nodes and %d edges, want 4 and 1", len(nodes), len(edges))
	}
	return nil
}

// layoutFrames checks one layout frame per write, in order, the last one
// holding the edge.
// layoutFrames reads layout frames until one shows both nodes and the
// edge. A subscriber that is behind gets only the newest of the layout
// frames queued for it (the server coalesces them), so three writes may
// arrive as fewer frames; each must be numbered after the one before.
func (r *smokeRun) layoutFrames() error {
	var last uint64 = r.head
	for i := 1; ; i++ {
		f, err := r.nextFrame(r.frames, "canvas-layout-update")
		if err != nil {
			return fmt.Errorf("frame %d: %w", i, err)
		}
		id, _ := strconv.ParseUint(f.id, 10, 64)
		if id <= last {
			return fmt.Errorf("frame %d has id %s, not after %d", i, f.id, last)
		}
		last = id
		if smokeLayoutHas(f.data, r.nodeA) && smokeLayoutHas(f.data, r.nodeB) && smokeLayoutHas(f.data, r.edge) {
			return nil
		}
	}
}

func smokeLayoutHas(data json.RawMessage, id string) bool {
	l, _ := watchDecodeLayout(data)
	if l == nil {
		return false
	}
	for _, n := range l.Nodes {
		if n != nil && n.ID == id {
			return true
		}
	}
	for _, e := range l.Edges {
		if e != nil && e.ID == id {
			return true
		}
	}
	return false
}

// resume reconnects from the event number the stream opened at: the
// server must replay the three writes.
func (r *smokeRun) resume() error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	frames, err := r.subscribe(ctx, strconv.FormatUint(r.head, 10))
	if err != nil {
		return err
	}
	f, err := r.nextFrame(frames, "connected")
	if err != nil {
		return err
	}
	var c struct {
		Resumed  bool `json:"resumed"`
		Replayed int  `json:"replayed"`
	}
	_ = json.Unmarshal(f.data, &c)
	if !c.Resumed || c.Replayed != 3 {
		return fmt.Errorf("connected says resumed=%v replayed=%d, want true and 3", c.Resumed, c.Replayed)
	}
	var lastLayout sseFrame
	for i := 0; i < 3; i++ {
		if lastLayout, err = r.nextFrame(frames, "canvas-layout-update"); err != nil {
			return fmt.Errorf("replayed frame %d: %w", i+1, err)
		}
	}
	if !smokeLayoutHas(lastLayout.data, r.edge) {
		return errors.New("the last replayed layout lacks the edge")
	}
	return nil
}

func (r *smokeRun) mcpInit() error {
	m, err := startSmokeMCP(r.ctx, r.ws, r.base, r.srv)
	if err != nil {
		return err
	}
	r.mcp = m
	res, err := m.call("initialize", map[string]any{
		"protocolVersion": "2025-03-26", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "pmx-canvas-smoke", "version": messages.Version},
	}, r.timeout)
	if err != nil {
		return err
	}
	var init struct {
		ServerInfo struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(res, &init); err != nil || init.ServerInfo.Name != "pmx-canvas" {
		return fmt.Errorf("initialize: unexpected result %s", smokeTruncate(string(res), 200))
	}
	return m.notify("notifications/initialized")
}

func (r *smokeRun) mcpCall() error {
	res, err := r.mcp.call("tools/call", map[string]any{
		"name":      "canvas_add_node",
		"arguments": map[string]any{"type": "markdown", "title": "Smoke MCP", "content": "added over MCP"},
	}, r.timeout)
	if err != nil {
		return err
	}
	var out struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(res, &out); err != nil || len(out.Content) == 0 {
		return fmt.Errorf("canvas_add_node: unexpected result %s", smokeTruncate(string(res), 200))
	}
	if out.IsError {
		return fmt.Errorf("canvas_add_node failed: %s", out.Content[0].Text)
	}
	var node struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out.Content[0].Text), &node); err != nil || node.ID == "" {
		return fmt.Errorf("canvas_add_node returned no id: %s", smokeTruncate(out.Content[0].Text, 200))
	}
	r.mcpNode = node.ID
	return nil
}

func (r *smokeRun) mcpVisible() error {
	n, err := r.call("GET", "/api/canvas/node/"+r.mcpNode, nil, 200)
	if err != nil {
		return err
	}
	if title, _ := n["title"].(string); title != "Smoke MCP" {
		return fmt.Errorf("the node added over MCP reads title %q over HTTP", title)
	}
	return nil
}

func smokeTruncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// smokeMCP is an MCP server on in-memory pipes with a minimal JSON-RPC
// client: the same stdio server "pmx-canvas mcp" runs, forwarding to the
// throwaway server over HTTP.
type smokeMCP struct {
	in     *io.PipeWriter // client -> server
	lines  chan []byte    // server -> client, one JSON-RPC message each
	done   chan error
	nextID int
}

func startSmokeMCP(ctx context.Context, ws, base string, srv *pmxcanvas.Server) (*smokeMCP, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	m := &smokeMCP{in: inW, lines: make(chan []byte, 64), done: make(chan error, 1)}
	port := 0
	if a := srv.Addr(); a != nil {
		if _, p, err := net.SplitHostPort(a.String()); err == nil {
			port, _ = strconv.Atoi(p)
		}
	}
	go func() {
		err := pmxcanvas.ServeMCP(ctx, pmxcanvas.MCPOptions{
			Workspace: ws, Port: port, URL: base, In: inR, Out: outW,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		_ = outW.Close()
		m.done <- err
	}()
	go func() {
		defer close(m.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			m.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	return m, nil
}

func (m *smokeMCP) send(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	_, err := m.in.Write(append(b, '\n'))
	return err
}

func (m *smokeMCP) notify(method string) error {
	return m.send(map[string]any{"method": method})
}

// call sends a request and waits for its response, skipping notifications.
func (m *smokeMCP) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	m.nextID++
	id := m.nextID
	errc := make(chan error, 1)
	go func() { errc <- m.send(map[string]any{"id": id, "method": method, "params": params}) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case err := <-errc:
			if err != nil {
				return nil, fmt.Errorf("%s: %w", method, err)
			}
		case line, ok := <-m.lines:
			if !ok {
				err := <-m.done
				return nil, fmt.Errorf("%s: the MCP server stopped: %v", method, err)
			}
			var msg struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &msg) != nil || msg.ID == nil || *msg.ID != id {
				continue
			}
			if msg.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, msg.Error.Message)
			}
			return msg.Result, nil
		case <-timer.C:
			return nil, fmt.Errorf("%s: no response within %s", method, timeout)
		}
	}
}

func (m *smokeMCP) close() {
	_ = m.in.Close()
	select {
	case <-m.done:
	case <-time.After(5 * time.Second):
	}
}
