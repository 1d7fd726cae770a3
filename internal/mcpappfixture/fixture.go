// Package mcpappfixture is a small MCP server that declares an MCP App (the
// SEP-1865 `ui://` extension), written with mcp-go's server package. It is
// the Go port of the reference product's tests/fixtures/mcp-app-fixture.ts,
// so tests of MCP App hosting need neither bun nor the network.
//
// It serves one UI resource, ui://fixture/counter.html (a real tiny MCP App
// in inline JavaScript, see counter.html), and these tools:
//
//   - show_counter (model-visible, title "Counter App", {start?: number = 1}):
//     "Counter ready at N." with structuredContent {count: N, checkpointId:
//     "fixture-checkpoint"}; declares the counter resource under
//     _meta.ui.resourceUri (and the older flat key _meta["ui/resourceUri"]).
//   - create_view (model-visible, title "Diagram App", {elements: string}):
//     "Diagram ready."; declares the same resource only under the older flat
//     key _meta["ui/resourceUri"], so hosts' fallback for it is exercised.
//   - plain_tool (model-visible, no UI): "plain tool called.".
//   - whoami (model-visible, no UI): the serving process's PID as text.
//   - increment (app-only, _meta.ui.visibility ["app"]): adds one to the
//     server's counter, "Counter incremented to N." with structuredContent
//     {count: N}. The counter starts at 0 for every NewServer (so for every
//     stdio child and every StartHTTP server) and show_counter does not
//     change it: two increments after opening the app give a count of 2.
//   - save_checkpoint (app-only, {id, data: string}): "Saved checkpoint <id>."
//   - read_checkpoint (app-only, {id}): the stored data as text, or the empty
//     text "" when nothing is stored under id.
//
// A test binary becomes the stdio app server by calling MaybeRunChild first
// thing in TestMain and dialling StdioTransport(), which re-executes the test
// binary itself (os.Args[0]) with PMX_MCPAPP_FIXTURE=stdio.
//
// To simulate an app server that dies, set PMX_MCPAPP_FIXTURE_EXIT_AFTER=<n>
// in the transport's env: the stdio child answers n tool calls, then, on the
// next one, writes a line to stderr and exits with status 3 without
// answering. Tests can also kill the child by the PID the client reports.
package mcpappfixture

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
)

// Names the fixture uses; tests elsewhere assert them.
const (
	// ResourceURI is the fixture's only UI resource.
	ResourceURI = "ui://fixture/counter.html"
	// ResourceMIMEType is the MCP Apps HTML profile the resource is served as.
	ResourceMIMEType = "text/html;profile=mcp-app"
	// CheckpointID is the checkpointId show_counter returns.
	CheckpointID = "fixture-checkpoint"
	// EnvMode selects the child mode: "stdio" serves MCP on stdin/stdout.
	EnvMode = "PMX_MCPAPP_FIXTURE"
	// EnvExitAfter makes the stdio child exit with status 3 on the tool call
	// after this many.
	EnvExitAfter = "PMX_MCPAPP_FIXTURE_EXIT_AFTER"
	// ExitStatus is the status the child exits with under EnvExitAfter.
	ExitStatus = 3
)

//go:embed counter.html
var counterHTML string

// CounterHTML is the fixture app's HTML exactly as the server sends it.
func CounterHTML() string { return counterHTML }

// state is one server's memory: the counter and the checkpoints.
type state struct {
	count       atomic.Int64
	mu          sync.Mutex
	checkpoints map[string]string
	calls       atomic.Int64
	exitAfter   int64 // negative: never exit
}

// NewServer returns a fresh fixture server with its own counter and
// checkpoints.
func NewServer() *server.MCPServer { return newServer(-1) }

func newServer(exitAfter int64) *server.MCPServer {
	st := &state{checkpoints: map[string]string{}, exitAfter: exitAfter}
	s := server.NewMCPServer("mcp-app-fixture", "1.0.0",
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithRecovery(),
	)

	s.AddResource(mcp.NewResource(ResourceURI, "Fixture counter",
		mcp.WithResourceDescription("A tiny counter MCP App."),
		mcp.WithMIMEType(ResourceMIMEType),
	), func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI:      ResourceURI,
			MIMEType: ResourceMIMEType,
			Text:     counterHTML,
			Meta: map[string]any{"ui": map[string]any{
				"csp": map[string]any{"connectDomains": []string{}, "resourceDomains": []string{}},
			}},
		}}, nil
	})

	uiMeta := func(extra map[string]any) *mcp.Meta { return mcp.NewMetaFromMap(extra) }

	showCounter := mcp.NewTool("show_counter",
		mcp.WithToolTitle("Counter App"),
		mcp.WithDescription("Show the fixture counter app."),
		mcp.WithNumber("start", mcp.Description("The count to show first."), mcp.DefaultNumber(1)),
	)
	showCounter.Meta = uiMeta(map[string]any{
		"ui":             map[string]any{"resourceUri": ResourceURI},
		"ui/resourceUri": ResourceURI,
	})
	s.AddTool(showCounter, st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := req.GetFloat("start", 1)
		return mcp.NewToolResultStructured(
			map[string]any{"count": start, "checkpointId": CheckpointID},
			"Counter ready at "+strconv.FormatFloat(start, 'f', -1, 64)+".",
		), nil
	}))

	createView := mcp.NewTool("create_view",
		mcp.WithToolTitle("Diagram App"),
		mcp.WithDescription("Show a diagram (fixture stand-in for Excalidraw's create_view)."),
		mcp.WithString("elements", mcp.Required(), mcp.Description("The elements as a JSON string.")),
	)
	createView.Meta = uiMeta(map[string]any{"ui/resourceUri": ResourceURI})
	s.AddTool(createView, st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("Diagram ready."), nil
	}))

	s.AddTool(mcp.NewTool("plain_tool", mcp.WithDescription("A tool without any UI.")),
		st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("plain tool called."), nil
		}))

	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("The PID of the process serving this MCP server.")),
		st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.Itoa(os.Getpid())), nil
		}))

	appOnly := func(name, description string, opts ...mcp.ToolOption) mcp.Tool {
		t := mcp.NewTool(name, append([]mcp.ToolOption{mcp.WithDescription(description)}, opts...)...)
		t.Meta = uiMeta(map[string]any{"ui": map[string]any{"visibility": []string{"app"}}})
		return t
	}

	s.AddTool(appOnly("increment", "Add one to the counter."),
		st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := st.count.Add(1)
			return mcp.NewToolResultStructured(map[string]any{"count": n},
				fmt.Sprintf("Counter incremented to %d.", n)), nil
		}))

	s.AddTool(appOnly("save_checkpoint", "Store data under id.",
		mcp.WithString("id", mcp.Required()), mcp.WithString("data", mcp.Required())),
		st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			id, err := req.RequireString("id")
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			data := req.GetString("data", "")
			st.mu.Lock()
			st.checkpoints[id] = data
			st.mu.Unlock()
			return mcp.NewToolResultText("Saved checkpoint " + id + "."), nil
		}))

	s.AddTool(appOnly("read_checkpoint", "The data stored under id, or empty text.",
		mcp.WithString("id", mcp.Required())),
		st.tool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			id := req.GetString("id", "")
			st.mu.Lock()
			data := st.checkpoints[id]
			st.mu.Unlock()
			return mcp.NewToolResultText(data), nil
		}))

	return s
}

// tool wraps a handler with the exit-after countdown.
func (st *state) tool(h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if n := st.calls.Add(1); st.exitAfter >= 0 && n > st.exitAfter {
			fmt.Fprintf(os.Stderr, "mcpappfixture: exiting with status %d after %d tool calls\n", ExitStatus, st.exitAfter)
			os.Exit(ExitStatus)
		}
		return h(ctx, req)
	}
}

// ServeStdio serves a fresh fixture server on os.Stdin and os.Stdout until
// stdin ends or the process gets SIGTERM or SIGINT.
func ServeStdio() error { return serveStdio(-1) }

func serveStdio(exitAfter int64) error {
	return server.ServeStdio(newServer(exitAfter))
}

// HTTPHandler serves a fresh fixture server over streamable HTTP at /mcp.
func HTTPHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(NewServer()))
	return mux
}

// StartHTTP starts HTTPHandler on a loopback httptest server, closed when
// the test ends, and returns the MCP endpoint's URL.
func StartHTTP(t testing.TB) (url string) {
	t.Helper()
	srv := httptest.NewServer(HTTPHandler())
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// MaybeRunChild turns the process into the stdio fixture server when
// PMX_MCPAPP_FIXTURE=stdio is set, and then exits it; otherwise it returns.
// Call it first thing in TestMain so a test binary can re-execute itself as
// the app server (see StdioTransport).
func MaybeRunChild() {
	if os.Getenv(EnvMode) != "stdio" {
		return
	}
	exitAfter := int64(-1)
	if v := os.Getenv(EnvExitAfter); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			fmt.Fprintf(os.Stderr, "mcpappfixture: %s=%q is not a count of tool calls\n", EnvExitAfter, v)
			os.Exit(2)
		}
		exitAfter = n
	}
	if err := serveStdio(exitAfter); err != nil {
		fmt.Fprintf(os.Stderr, "mcpappfixture: stdio server: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// StdioTransport is the transport that runs this test binary (os.Args[0],
// made absolute through os.Executable so a Cwd does not break it) as the
// stdio fixture server. It works only in a binary whose TestMain calls
// MaybeRunChild.
func StdioTransport() mcpapp.Transport {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return mcpapp.Transport{
		Type:    "stdio",
		Command: self,
		Env:     map[string]string{EnvMode: "stdio"},
	}
}
