package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pmxcanvas/pmx-canvas/messages"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// Black-box tests of "pmx-canvas mcp" over its real stdio, with mcp-go's
// client.

// mcpSession is a running "pmx-canvas mcp" with an initialized client.
type mcpSession struct {
	t      *testing.T
	c      *mcpclient.Client
	port   string
	stderr *syncBuffer

	mu            sync.Mutex
	notifications []mcp.JSONRPCNotification
}

// startMCP runs "pmx-canvas mcp" in ws with the given extra args and env.
func startMCP(t *testing.T, ws string, env []string, args ...string) *mcpSession {
	t.Helper()
	if ws == "" {
		ws = t.TempDir()
	}
	port := freePort(t)
	stderr := &syncBuffer{}
	full := append([]string{"mcp", "--workspace", ws, "--log-level", "info"}, args...)
	env = append([]string{"PMX_CANVAS_PORT=" + port}, env...)
	c, err := mcpclient.NewStdioMCPClientWithOptions(binary, env, full,
		transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	s := &mcpSession{t: t, c: c, port: port, stderr: stderr}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		s.mu.Lock()
		s.notifications = append(s.notifications, n)
		s.mu.Unlock()
	})
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil { // wires the notification handler
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "pmx-canvas-test", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	if res.ServerInfo.Name != "pmx-canvas" || res.ServerInfo.Version != messages.Version {
		t.Fatalf("serverInfo %+v", res.ServerInfo)
	}
	return s
}

// call runs a tool and returns its text and isError.
func (s *mcpSession) call(tool string, args map[string]any) (string, bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return s.callCtx(ctx, tool, args)
}

func (s *mcpSession) callCtx(ctx context.Context, tool string, args map[string]any) (string, bool) {
	s.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return "transport error: " + err.Error(), true
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError
}

// okJSON runs a tool, fails on isError and decodes the text.
func (s *mcpSession) okJSON(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	text, isErr := s.call(tool, args)
	if isErr {
		s.t.Fatalf("%s %v: isError %s\n%s", tool, args, text, s.stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		s.t.Fatalf("%s: not JSON: %s", tool, text)
	}
	return out
}

func (s *mcpSession) toolNames() []string {
	s.t.Helper()
	res, err := s.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func TestMCPInitializeAndToolsList(t *testing.T) {
	s := startMCP(t, "", nil)
	if got := strings.Join(s.toolNames(), ","); got != strings.Join(mcpapi.ListOrder(), ",") {
		t.Fatalf("tools/list order:\n%s\nwant\n%s", got, strings.Join(mcpapi.ListOrder(), ","))
	}
	for _, compact := range []*mcpSession{
		startMCP(t, "", nil, "--tools=compact"),
		startMCP(t, "", []string{"PMX_CANVAS_MCP_TOOLS=compact"}),
	} {
		names := compact.toolNames()
		if len(names) != 21 {
			t.Fatalf("compact surface: %d tools: %v", len(names), names)
		}
		for _, want := range mcpapi.CompactTools {
			if !strings.Contains(","+strings.Join(names, ",")+",", ","+want+",") {
				t.Fatalf("compact surface lacks %s", want)
			}
		}
	}
	// The reference's bare form works too.
	cmd := exec.Command(binary, "--mcp", "--no-open", "--port", "1")
	cmd.Dir = t.TempDir()
	out := mcpExchange(t, cmd, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !strings.Contains(out[0], `"serverInfo":{"name":"pmx-canvas"`) {
		t.Fatalf("--mcp: %v", out)
	}
}

func TestMCPErrorsAreIsError(t *testing.T) {
	s := startMCP(t, "", nil)
	if text, isErr := s.call("canvas_remove_node", map[string]any{"id": "nope"}); !isErr || text != `Node "nope" not found.` {
		t.Fatalf("op error: %v %q", isErr, text)
	}
	// A wrong-typed argument gets the operation's text, as over HTTP.
	if text, isErr := s.call("canvas_remove_node", map[string]any{"id": 5}); !isErr ||
		text != `invalid input for node.remove: field "id" must be a string, got number` {
		t.Fatalf("schema error: %v %q", isErr, text)
	}
	if text, isErr := s.call("canvas_remove_node", map[string]any{"id": "status-main", "canvas": "other"}); isErr || !strings.Contains(text, `"removed":"status-main"`) {
		t.Fatalf("canvas argument: %v %q", isErr, text)
	}
}

// mcpExchange writes JSON-RPC lines to a fresh "pmx-canvas mcp" and returns
// every stdout line it printed before stdin closed (one line per reply).
func mcpExchange(t *testing.T, cmd *exec.Cmd, lines ...string) []string {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var out []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for _, l := range lines {
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(l, `"id"`) {
			continue
		}
		done := make(chan bool, 1)
		go func() { done <- sc.Scan() }()
		select {
		case ok := <-done:
			if !ok {
				t.Fatalf("stdout ended: %v\n%s", sc.Err(), stderr.String())
			}
			out = append(out, sc.Text())
		case <-time.After(20 * time.Second):
			t.Fatalf("no reply to %s\n%s", l, stderr.String())
		}
	}
	_ = stdin.Close()
	rest, _ := io.ReadAll(stdout)
	for _, l := range strings.Split(strings.TrimSpace(string(rest)), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// stdout carries only JSON-RPC, also on a workspace with stored state
// (the reference printed "Canvas state restored" into the stream).
func TestMCPStdoutCarriesOnlyJSONRPC(t *testing.T) {
	ws := t.TempDir()
	p := startServer(t, ws)
	p.addNode(`{"type":"markdown","title":"stored"}`)
	p.stop()

	cmd := exec.Command(binary, "mcp", "--workspace", ws, "--log-level", "debug")
	cmd.Env = append(cmd.Environ(), "PMX_CANVAS_PORT="+freePort(t))
	lines := mcpExchange(t, cmd,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"canvas_remove_node","arguments":{"id":"context-main"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"canvas_remove_node","arguments":{"id":"nope"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	)
	if len(lines) < 4 {
		t.Fatalf("replies: %v", lines)
	}
	for _, l := range lines {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", l)
		}
	}
	if !strings.Contains(strings.Join(lines, "\n"), `\"removed\":\"context-main\"`) {
		t.Fatalf("tool call on stored state: %v", lines)
	}
}

// waitStats polls the MCP process's own HTTP server (local mode).
func (s *mcpSession) stat(key string) float64 {
	s.t.Helper()
	p := &proc{t: s.t, url: "http://127.0.0.1:" + s.port}
	r := p.do("GET", "/api/canvas/ax/stats", nil)
	v, _ := r.body[key].(float64)
	return v
}

// Parked awaits do not hold up other calls, and a cancelled request ends
// its wait in the server at once.
func TestMCPParkedAwaitsDoNotStarveOtherCalls(t *testing.T) {
	s := startMCP(t, "", nil)
	gate := s.okJSON("canvas_request_approval", map[string]any{"title": "hold"})["approvalGate"].(map[string]any)["id"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 20)
	for range 20 {
		go func() {
			text, _ := s.callCtx(ctx, "canvas_await_approval", map[string]any{"id": gate, "timeoutMs": 120000})
			done <- text
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.stat("gateWaiters") != 20 {
		if time.Now().After(deadline) {
			t.Fatalf("%v waiters parked, want 20\n%s", s.stat("gateWaiters"), s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	q := s.okJSON("canvas_query", map[string]any{"action": "search", "query": "status"})
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("canvas_query took %v behind 20 parked awaits", el)
	}
	if q["resultCount"] == nil {
		t.Fatalf("query: %v", q)
	}
	// Cancelling the requests (notifications/cancelled) ends the waits.
	cancel()
	for range 20 {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("a cancelled await did not return")
		}
	}
	deadline = time.Now().Add(10 * time.Second)
	for s.stat("gateWaiters") != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%v waiters left after cancelling", s.stat("gateWaiters"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// And a resolve still releases a fresh await.
	res := make(chan map[string]any, 1)
	go func() {
		res <- s.okJSON("canvas_await_approval", map[string]any{"id": gate, "timeoutMs": 60000})
	}()
	for s.stat("gateWaiters") != 1 {
		time.Sleep(20 * time.Millisecond)
	}
	s.okJSON("canvas_resolve_approval", map[string]any{"id": gate, "decision": "approved"})
	select {
	case r := <-res:
		if r["pending"] != false || r["approvalGate"].(map[string]any)["status"] != "approved" {
			t.Fatalf("released await: %v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the resolve did not release the await")
	}
}

// updatedURIs returns the URIs of notifications/resources/updated received
// so far, and forgets them.
func (s *mcpSession) updatedURIs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, n := range s.notifications {
		if n.Method == string(mcp.MethodNotificationResourceUpdated) {
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			out = append(out, uri)
		}
	}
	s.notifications = nil
	return out
}

func TestMCPResourcesAndSubscriptions(t *testing.T) {
	s := startMCP(t, "", nil)
	ctx := context.Background()
	list, err := s.c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var fixed []string
	for _, r := range list.Resources {
		if !strings.HasPrefix(r.URI, "canvas://skills/") {
			fixed = append(fixed, r.URI)
		}
	}
	want := "canvas://schema canvas://pinned-context canvas://ax canvas://ax-context canvas://ax-timeline canvas://ax-work " +
		"canvas://ax-pending-steering canvas://ax-delivery canvas://layout canvas://summary canvas://spatial-context " +
		"canvas://history canvas://code-graph canvas://skills ui://pmx-canvas/board"
	sort.Strings(fixed)
	wantList := strings.Fields(want)
	sort.Strings(wantList)
	if strings.Join(fixed, " ") != strings.Join(wantList, " ") {
		t.Fatalf("resources: %v", fixed)
	}
	if len(list.Resources) < 15 {
		t.Fatalf("no skill resources: %d", len(list.Resources))
	}
	for _, r := range list.Resources {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = r.URI
		res, err := s.c.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		text := res.Contents[0].(mcp.TextResourceContents)
		if text.URI != r.URI || text.Text == "" || text.MIMEType != r.MIMEType {
			t.Fatalf("read %s: %+v", r.URI, text)
		}
		if text.MIMEType == "application/json" && !json.Valid([]byte(text.Text)) {
			t.Fatalf("%s is not JSON: %.200s", r.URI, text.Text)
		}
	}
	prompt, err := s.c.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "pmx-current-context"}})
	if err != nil || !strings.HasPrefix(prompt.Messages[0].Content.(mcp.TextContent).Text, "Current PMX Canvas context:\n\n") {
		t.Fatalf("prompt: %v %+v", err, prompt)
	}

	// Nothing is sent before a subscription; then only the subscribed
	// URIs a change touches.
	s.okJSON("canvas_node", map[string]any{"action": "add", "type": "markdown", "title": "quiet"})
	time.Sleep(200 * time.Millisecond)
	if got := s.updatedURIs(); len(got) != 0 {
		t.Fatalf("notifications without a subscription: %v", got)
	}
	for _, uri := range []string{"canvas://layout", "canvas://ax-work"} {
		if err := s.c.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: uri}}); err != nil {
			t.Fatal(err)
		}
	}
	s.okJSON("canvas_node", map[string]any{"action": "add", "type": "markdown", "title": "loud"})
	waitNotified(t, s, "canvas://layout")
	s.okJSON("canvas_add_work_item", map[string]any{"title": "w"})
	waitNotified(t, s, "canvas://ax-work")
	if err := s.c.Unsubscribe(ctx, mcp.UnsubscribeRequest{Params: mcp.UnsubscribeParams{URI: "canvas://layout"}}); err != nil {
		t.Fatal(err)
	}
	s.okJSON("canvas_node", map[string]any{"action": "add", "type": "markdown", "title": "after unsubscribe"})
	time.Sleep(200 * time.Millisecond)
	if got := s.updatedURIs(); len(got) != 0 {
		t.Fatalf("notified after unsubscribing: %v", got)
	}
}

// waitNotified waits until exactly the one URI was notified (once per
// change), and nothing else.
func waitNotified(t *testing.T, s *mcpSession, uri string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var got []string
	for time.Now().Before(deadline) {
		got = append(got, s.updatedURIs()...)
		if len(got) > 0 {
			time.Sleep(150 * time.Millisecond) // collect any stragglers
			got = append(got, s.updatedURIs()...)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 1 || got[0] != uri {
		t.Fatalf("notifications %v, want exactly [%s]\n%s", got, uri, s.stderr.String())
	}
}

var _ = fmt.Sprintf
