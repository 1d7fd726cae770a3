package mcpapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"github.com/pmxcanvas/pmx-canvas/internal/testenv"
)

// TestMain lets this test binary double as the stdio fixture server.
func TestMain(m *testing.M) {
	mcpappfixture.MaybeRunChild()
	testenv.Main(m)
}

// dial connects to tr and closes the client when the test ends.
func dial(t *testing.T, tr mcpapp.Transport, o mcpapp.Options) *mcpapp.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := mcpapp.Dial(ctx, tr, o)
	if err != nil {
		t.Fatalf("Dial(%+v): %v", tr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// transports are the fixture over both transports.
func transports(t *testing.T) []struct {
	name string
	tr   mcpapp.Transport
} {
	return []struct {
		name string
		tr   mcpapp.Transport
	}{
		{"stdio", mcpappfixture.StdioTransport()},
		{"http", mcpapp.Transport{Type: "http", URL: mcpappfixture.StartHTTP(t)}},
	}
}

// toolResult is the part of a CallToolResult the tests read.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent map[string]any `json:"structuredContent"`
	IsError           bool           `json:"isError"`
}

func decodeResult(t *testing.T, raw json.RawMessage) toolResult {
	t.Helper()
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return r
}

func (r toolResult) text() string {
	if len(r.Content) == 0 {
		return "<no content>"
	}
	return r.Content[0].Text
}

func TestSessionOverBothTransports(t *testing.T) {
	for _, tc := range transports(t) {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, tc.tr, mcpapp.Options{Timeout: 10 * time.Second})
			ctx := context.Background()
			if tc.name == "stdio" && c.PID() <= 0 {
				t.Errorf("PID() = %d for stdio", c.PID())
			}
			if tc.name == "http" && c.PID() != 0 {
				t.Errorf("PID() = %d for http, want 0", c.PID())
			}

			op, err := c.Open(ctx, "show_counter", nil)
			if err != nil {
				t.Fatalf("Open(show_counter): %v", err)
			}
			if op.ResourceURI != mcpappfixture.ResourceURI {
				t.Errorf("ResourceURI = %q", op.ResourceURI)
			}
			if op.Title != "Counter App" {
				t.Errorf("Title = %q, want Counter App", op.Title)
			}
			if op.RawHTML != mcpappfixture.CounterHTML() {
				t.Errorf("RawHTML is not the fixture's HTML")
			}
			for _, want := range []string{mcpapp.StorageShim, `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`, `id="count"`} {
				if !strings.Contains(op.HTML, want) {
					t.Errorf("HTML lacks %q", want)
				}
			}
			if !strings.Contains(string(op.ResourceMeta), `"csp"`) {
				t.Errorf("ResourceMeta = %s, want the csp", op.ResourceMeta)
			}
			if !strings.Contains(string(op.Tool), `"resourceUri":"ui://fixture/counter.html"`) {
				t.Errorf("Tool = %s, want its _meta.ui", op.Tool)
			}
			r := decodeResult(t, op.Result)
			if op.IsError || r.text() != "Counter ready at 1." || r.StructuredContent["checkpointId"] != mcpappfixture.CheckpointID {
				t.Errorf("Result = %s (IsError %v)", op.Result, op.IsError)
			}

			// create_view declares its resource under the older flat key only.
			op2, err := c.Open(ctx, "create_view", map[string]any{"elements": "[]"})
			if err != nil {
				t.Fatalf("Open(create_view): %v", err)
			}
			if op2.Title != "Diagram App" || op2.ResourceURI != mcpappfixture.ResourceURI || decodeResult(t, op2.Result).text() != "Diagram ready." {
				t.Errorf("create_view: title %q uri %q result %s", op2.Title, op2.ResourceURI, op2.Result)
			}

			for i, want := range []float64{1, 2} {
				raw, err := c.CallTool(ctx, "increment", nil)
				if err != nil {
					t.Fatalf("increment %d: %v", i+1, err)
				}
				r := decodeResult(t, raw)
				if r.StructuredContent["count"] != want || r.text() != fmt.Sprintf("Counter incremented to %v.", want) {
					t.Errorf("increment %d = %s, want count %v", i+1, raw, want)
				}
			}

			for _, step := range []struct {
				tool string
				args map[string]any
				want string
			}{
				{"read_checkpoint", map[string]any{"id": "c1"}, ""},
				{"save_checkpoint", map[string]any{"id": "c1", "data": `{"x":1}`}, "Saved checkpoint c1."},
				{"read_checkpoint", map[string]any{"id": "c1"}, `{"x":1}`},
			} {
				raw, err := c.CallTool(ctx, step.tool, step.args)
				if err != nil {
					t.Fatalf("%s: %v", step.tool, err)
				}
				if got := decodeResult(t, raw).text(); got != step.want {
					t.Errorf("%s(%v) text = %q, want %q", step.tool, step.args, got, step.want)
				}
			}

			res, err := c.ReadResource(ctx, mcpappfixture.ResourceURI)
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			if !strings.Contains(string(res), `"mimeType":"text/html;profile=mcp-app"`) {
				t.Errorf("ReadResource = %.200s", res)
			}

			for _, lc := range []struct {
				name string
				call func(context.Context) (json.RawMessage, error)
				key  string
				want int
			}{
				{"ListTools", c.ListTools, "tools", 7},
				{"ListResources", c.ListResources, "resources", 1},
				{"ListResourceTemplates", c.ListResourceTemplates, "resourceTemplates", 0},
				{"ListPrompts", c.ListPrompts, "prompts", 0},
			} {
				raw, err := lc.call(ctx)
				if err != nil {
					t.Errorf("%s: %v", lc.name, err)
					continue
				}
				var m map[string][]json.RawMessage
				if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 || m[lc.key] == nil || len(m[lc.key]) != lc.want {
					t.Errorf("%s = %s, want {%q: %d items}", lc.name, raw, lc.key, lc.want)
				}
			}

			for _, ec := range []struct {
				tool, want string
				kind       error
			}{
				{"plain_tool", `Tool "plain_tool" does not declare an MCP App resource.`, mcpapp.ErrNoAppResource},
				{"nope", `Tool "nope" not found on the MCP server.`, mcpapp.ErrToolNotFound},
			} {
				_, err := c.Open(ctx, ec.tool, nil)
				if err == nil || err.Error() != ec.want || !errors.Is(err, ec.kind) {
					t.Errorf("Open(%s) error = %v, want %q", ec.tool, err, ec.want)
				}
			}

			// A JSON-RPC error from the server names the method.
			if _, err := c.ReadResource(ctx, "ui://fixture/missing.html"); err == nil || !strings.HasPrefix(err.Error(), "resources/read: ") {
				t.Errorf("ReadResource(missing) error = %v", err)
			}
			if c.Err() != nil {
				t.Errorf("Err() = %v on a live session", c.Err())
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		tr   mcpapp.Transport
		want string // "" is valid
	}{
		{"stdio", mcpapp.Transport{Type: "stdio", Command: "node", Args: []string{"a.js"}, Env: map[string]string{"A": "1"}}, ""},
		{"http", mcpapp.Transport{Type: "http", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}, ""},
		{"no type", mcpapp.Transport{Command: "node"}, `transport.type must be "stdio" or "http"`},
		{"bad type", mcpapp.Transport{Type: "sse", URL: "http://x"}, `transport.type must be "stdio" or "http"`},
		{"no command", mcpapp.Transport{Type: "stdio", Command: "  "}, `transport.command is required for type "stdio"`},
		{"bad env key", mcpapp.Transport{Type: "stdio", Command: "x", Env: map[string]string{"A=B": "1"}}, `transport.env key "A=B" is not a valid environment variable name`},
		{"nul arg", mcpapp.Transport{Type: "stdio", Command: "x", Args: []string{"a\x00"}}, `transport.args[0] must not contain a NUL byte`},
		{"no url", mcpapp.Transport{Type: "http"}, `transport.url is required for type "http"`},
		{"ftp url", mcpapp.Transport{Type: "http", URL: "ftp://example.com"}, "transport.url must be an http or https URL"},
		{"no host", mcpapp.Transport{Type: "http", URL: "http:///mcp"}, "transport.url must be an http or https URL"},
		{"relative", mcpapp.Transport{Type: "http", URL: "/mcp"}, "transport.url must be an http or https URL"},
		{"bad header", mcpapp.Transport{Type: "http", URL: "http://127.0.0.1/", Headers: map[string]string{"X-A": "a\nb"}}, `transport.headers["X-A"] is not a valid HTTP header value`},
		{"bad header name", mcpapp.Transport{Type: "http", URL: "http://127.0.0.1/", Headers: map[string]string{"X A": "a"}}, `transport.headers key "X A" is not a valid HTTP header name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tr.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Validate() = %q, want %q", got, tc.want)
			}
			if tc.want != "" {
				if _, err := mcpapp.Dial(context.Background(), tc.tr, mcpapp.Options{}); err == nil || err.Error() != tc.want {
					t.Errorf("Dial error = %v, want the Validate error", err)
				}
			}
		})
	}
}

func TestTransportJSON(t *testing.T) {
	var tr mcpapp.Transport
	in := `{"type":"stdio","command":"bun","args":["x.ts"],"cwd":"/w","env":{"K":"V"},"url":"","headers":{"H":"v"}}`
	if err := json.Unmarshal([]byte(in), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Type != "stdio" || tr.Command != "bun" || tr.Args[0] != "x.ts" || tr.Cwd != "/w" || tr.Env["K"] != "V" || tr.Headers["H"] != "v" {
		t.Errorf("decoded %+v", tr)
	}
	out, _ := json.Marshal(mcpapp.Transport{Type: "http", URL: "http://127.0.0.1/mcp"})
	if string(out) != `{"type":"http","url":"http://127.0.0.1/mcp"}` {
		t.Errorf("encoded %s", out)
	}
}

// waitDone waits for c.Done or fails the test.
func waitDone(t *testing.T, c *mcpapp.Client, within time.Duration) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(within):
		t.Fatalf("Done() not closed within %v (Err %v)", within, c.Err())
	}
}

// processGone reports whether process pid no longer runs: it does not
// exist, or (on Linux) it is a zombie waiting for init to reap it.
func processGone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return len(bytes.TrimSpace(rest)) > 0 && bytes.TrimSpace(rest)[0] == 'Z'
}

func TestStdioServerKilled(t *testing.T) {
	c := dial(t, mcpappfixture.StdioTransport(), mcpapp.Options{Timeout: 10 * time.Second})
	ctx := context.Background()
	raw, err := c.CallTool(ctx, "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := decodeResult(t, raw).text(); got != fmt.Sprint(c.PID()) {
		t.Fatalf("whoami = %s, PID() = %d", got, c.PID())
	}
	if err := syscall.Kill(c.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, 5*time.Second)
	if err := c.Err(); err == nil || err.Error() != "app server exited: signal: killed" {
		t.Errorf("Err() = %v", err)
	}
	start := time.Now()
	_, err = c.CallTool(ctx, "increment", nil)
	if err == nil || !strings.Contains(err.Error(), "app server exited: signal: killed") {
		t.Errorf("CallTool after death = %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("CallTool after death took %v", d)
	}
	c.Close()
	if c.Err().Error() != "app server exited: signal: killed" {
		t.Errorf("Close replaced the death reason: %v", c.Err())
	}
}

func TestStdioServerExits(t *testing.T) {
	tr := mcpappfixture.StdioTransport()
	tr.Env[mcpappfixture.EnvExitAfter] = "1"
	c := dial(t, tr, mcpapp.Options{Timeout: 10 * time.Second})
	ctx := context.Background()
	if _, err := c.Open(ctx, "show_counter", nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := c.CallTool(ctx, "increment", nil)
	want := "app server exited: exit status 3; stderr: mcpappfixture: exiting with status 3 after 1 tool calls"
	if err == nil || err.Error() != "tools/call: "+want {
		t.Errorf("CallTool = %v, want tools/call: %s", err, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the failing call took %v", d)
	}
	waitDone(t, c, 5*time.Second)
	if c.Err() == nil || c.Err().Error() != want {
		t.Errorf("Err() = %v", c.Err())
	}
}

func TestCloseKillsProcessGroup(t *testing.T) {
	c := dial(t, mcpappfixture.StdioTransport(), mcpapp.Options{})
	pid := c.PID()
	if processGone(pid) {
		t.Fatalf("server %d not running", pid)
	}
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if !processGone(pid) {
		t.Errorf("process %d still exists after Close", pid)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	waitDone(t, c, time.Second)
	if !errors.Is(c.Err(), mcpapp.ErrClosed) {
		t.Errorf("Err() = %v, want ErrClosed", c.Err())
	}
	if _, err := c.ListTools(context.Background()); !errors.Is(err, mcpapp.ErrClosed) {
		t.Errorf("ListTools after Close = %v", err)
	}
}

func TestCloseKillsGrandchildren(t *testing.T) {
	// A shell that starts a long sleep in the background, then serves the
	// fixture; Close must take the sleep down with it.
	self := mcpappfixture.StdioTransport()
	tr := mcpapp.Transport{
		Type:    "stdio",
		Command: "/bin/sh",
		Args:    []string{"-c", `sleep 60 & echo "grandchild $!" >&2; exec "$0"`, self.Command},
		Env:     self.Env,
	}
	var stderr syncBuffer
	c := dial(t, tr, mcpapp.Options{Stderr: &stderr})
	var grandchild int
	deadline := time.Now().Add(5 * time.Second)
	for grandchild == 0 && time.Now().Before(deadline) {
		fmt.Sscanf(stderr.String(), "grandchild %d", &grandchild)
		time.Sleep(10 * time.Millisecond)
	}
	if grandchild == 0 {
		t.Fatalf("no grandchild pid in stderr %q", stderr.String())
	}
	c.Close()
	deadline = time.Now().Add(3 * time.Second)
	for !processGone(grandchild) {
		// Killed, it waits for init to reap it; a zombie counts as gone.
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived Close", grandchild)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestHTTPServerStopped(t *testing.T) {
	srv := httptest.NewServer(mcpappfixture.HTTPHandler())
	defer srv.Close()
	c := dial(t, mcpapp.Transport{Type: "http", URL: srv.URL + "/mcp"}, mcpapp.Options{Timeout: 3 * time.Second})
	if _, err := c.Open(context.Background(), "show_counter", nil); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	start := time.Now()
	_, err := c.CallTool(context.Background(), "increment", nil)
	if err == nil || !strings.Contains(err.Error(), "app server connection lost") {
		t.Errorf("CallTool after the server stopped = %v", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the failing call took %v", d)
	}
	waitDone(t, c, time.Second)
	start = time.Now()
	if _, err := c.ListTools(context.Background()); err == nil || !strings.Contains(err.Error(), "app server connection lost") {
		t.Errorf("ListTools after the loss = %v", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("a call on a lost session took %v", d)
	}
}

func TestDialFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL + "/mcp"
	closed.Close()
	for _, tc := range []struct {
		name string
		tr   mcpapp.Transport
		want []string
	}{
		{"no such command", mcpapp.Transport{Type: "stdio", Command: "/nonexistent/pmx-app-server"},
			[]string{`start the app server "/nonexistent/pmx-app-server"`}},
		{"command exits", mcpapp.Transport{Type: "stdio", Command: "/bin/sh", Args: []string{"-c", "echo first >&2; echo boom >&2; exit 7"}},
			[]string{"initialize: app server exited: exit status 7; stderr: first | boom"}},
		{"connection refused", mcpapp.Transport{Type: "http", URL: closedURL},
			[]string{"initialize: ", "connection refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			c, err := mcpapp.Dial(context.Background(), tc.tr, mcpapp.Options{Timeout: 5 * time.Second})
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Dial error = %q, want it to contain %q", err, w)
				}
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Errorf("Dial took %v to fail", d)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	// A stdio "server" that never answers.
	tr := mcpapp.Transport{Type: "stdio", Command: "/bin/sh", Args: []string{"-c", "exec sleep 30"}}
	start := time.Now()
	_, err := mcpapp.Dial(context.Background(), tr, mcpapp.Options{Timeout: 300 * time.Millisecond})
	if err == nil || err.Error() != "initialize: the app server did not answer within 300ms" {
		t.Errorf("Dial = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Dial took %v", d)
	}

	// A caller's context is honoured too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = mcpapp.Dial(ctx, mcpappfixture.StdioTransport(), mcpapp.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Dial with a cancelled context = %v", err)
	}
}

// recordingHandler keeps the body of every request before serving it.
type recordingHandler struct {
	next   http.Handler
	mu     sync.Mutex
	bodies []string
}

func (h *recordingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.bodies = append(h.bodies, string(body))
	h.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.next.ServeHTTP(w, r)
}

func TestInitializeAdvertisesTheUIExtension(t *testing.T) {
	rec := &recordingHandler{next: mcpappfixture.HTTPHandler()}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	dial(t, mcpapp.Transport{Type: "http", URL: srv.URL + "/mcp", Headers: map[string]string{"X-Pmx-Test": "1"}}, mcpapp.Options{})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var init struct {
		Method string `json:"method"`
		Params struct {
			ClientInfo   mcp.Implementation `json:"clientInfo"`
			Capabilities struct {
				Extensions map[string]struct {
					MimeTypes []string `json:"mimeTypes"`
				} `json:"extensions"`
			} `json:"capabilities"`
		} `json:"params"`
	}
	if len(rec.bodies) == 0 || json.Unmarshal([]byte(rec.bodies[0]), &init) != nil || init.Method != "initialize" {
		t.Fatalf("first request: %v", rec.bodies)
	}
	if init.Params.ClientInfo.Name != "pmx-canvas-app-host" {
		t.Errorf("clientInfo = %+v", init.Params.ClientInfo)
	}
	ui := init.Params.Capabilities.Extensions["io.modelcontextprotocol/ui"]
	if len(ui.MimeTypes) != 1 || ui.MimeTypes[0] != "text/html;profile=mcp-app" {
		t.Errorf("initialize = %s, want the UI extension advertised", rec.bodies[0])
	}
}

func TestHeadersAreSent(t *testing.T) {
	var mu sync.Mutex
	var got []string
	fixture := mcpappfixture.HTTPHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		fixture.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := dial(t, mcpapp.Transport{Type: "http", URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer t0ken"}}, mcpapp.Options{})
	if _, err := c.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, h := range got {
		if h != "Bearer t0ken" {
			t.Errorf("request %d Authorization = %q", i, h)
		}
	}
}

func TestListsFollowPagination(t *testing.T) {
	s := server.NewMCPServer("paged", "1.0.0", server.WithPaginationLimit(2),
		server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false))
	for i := range 5 {
		s.AddTool(mcp.NewTool(fmt.Sprintf("t%d", i)), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
		s.AddResource(mcp.NewResource(fmt.Sprintf("file:///r%d", i), fmt.Sprintf("r%d", i)), func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return nil, nil
		})
	}
	rec := &recordingHandler{next: server.NewStreamableHTTPServer(s)}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	c := dial(t, mcpapp.Transport{Type: "http", URL: srv.URL + "/mcp"}, mcpapp.Options{})
	for _, lc := range []struct {
		call func(context.Context) (json.RawMessage, error)
		key  string
	}{{c.ListTools, "tools"}, {c.ListResources, "resources"}} {
		raw, err := lc.call(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string][]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || len(m[lc.key]) != 5 {
			t.Errorf("%s: %s, want 5 items", lc.key, raw)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	cursors := 0
	for _, b := range rec.bodies {
		if strings.Contains(b, `"cursor"`) {
			cursors++
		}
	}
	if cursors != 4 {
		t.Errorf("%d requests with a cursor, want 4 (two more pages each)", cursors)
	}
}

func TestConcurrentCalls(t *testing.T) {
	for _, tc := range transports(t) {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, tc.tr, mcpapp.Options{Timeout: 10 * time.Second})
			var wg sync.WaitGroup
			errs := make(chan error, 20)
			for range 20 {
				wg.Go(func() {
					if _, err := c.CallTool(context.Background(), "increment", nil); err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			raw, err := c.CallTool(context.Background(), "increment", nil)
			if err != nil || decodeResult(t, raw).StructuredContent["count"] != float64(21) {
				t.Errorf("21st increment = %s, %v", raw, err)
			}
		})
	}
}
