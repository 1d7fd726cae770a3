package content_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
	"github.com/pmxcanvas/pmx-canvas/web"
)

// boardHost is an MCP host for the board app, on loopback: it talks to
// this server's MCP surface as a client (tools/list, resources/read,
// tools/call) and shows the app with the workbench's own host bridge
// (appbridge.js), forwarding the app's tool calls to the server.
func boardHost(t *testing.T, s *server) (*httptest.Server, *client.Client) {
	t.Helper()
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpapi.NewServer(mcpapi.Options{Caller: &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}, Version: messages.Version})
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	bridge, err := fs.ReadFile(web.Workbench, "appbridge.js")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/appbridge.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(bridge)
	})
	mux.HandleFunc("/board.html", func(w http.ResponseWriter, r *http.Request) {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = mcpapi.BoardURI
		res, err := c.ReadResource(r.Context(), req)
		if err != nil || len(res.Contents) != 1 {
			http.Error(w, "resources/read failed", 500)
			return
		}
		text := res.Contents[0].(mcp.TextResourceContents)
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
		_, _ = io.WriteString(w, text.Text)
	})
	mux.HandleFunc("/call", func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		_ = json.NewDecoder(r.Body).Decode(&p)
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = p.Name, p.Arguments
		res, err := c.CallTool(r.Context(), req)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	})
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/host.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, strings.ReplaceAll(hostPage, "SERVER_TOOLS", r.URL.Query().Get("tools")))
	})
	h := httptest.NewServer(mux)
	t.Cleanup(h.Close)
	return h, c
}

const hostPage = `<!doctype html><html><body>
<script type="module">
import { hostApp } from "/appbridge.js";
const call = async (method, params) => {
  if (method !== "tools/call") throw new Error(method + " is not forwarded by this host");
  const res = await fetch("/call", { method: "POST", body: JSON.stringify(params) });
  return res.json();
};
// What the agent's call returned is the app's tool result.
const first = await call("tools/call", { name: "canvas_show", arguments: {} });
const frame = document.createElement("iframe");
frame.id = "app";
frame.setAttribute("sandbox", "allow-scripts");
frame.style.cssText = "width:800px;height:640px;border:0";
frame.src = "/board.html";
hostApp(frame, { call, toolInput: {}, toolResult: first, serverTools: "SERVER_TOOLS" === "on" });
document.body.append(frame);
</script></body></html>`

// The board as an MCP App: canvas_show declares ui://pmx-canvas/board, the
// resource is an MCP App document, and a host running the workbench's
// bridge shows the board — read-only when it does not let apps call
// tools; with tool calls, pinning and approving act on the canvas.
func TestBoardMCPApp(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	s := start(t, pmxcanvas.Options{})
	a := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": "Plan", "x": 0, "y": 0}))
	b := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "status", "title": "Build", "x": 700, "y": 0}))
	s.ok("POST", "/api/canvas/edge", map[string]any{"from": a, "to": b, "type": "flow"})
	gate := s.ok("POST", "/api/canvas/ax/approval", map[string]any{"title": "Ship it?", "detail": "All tests pass."})["approvalGate"].(map[string]any)["id"].(string)
	host, c := boardHost(t, s)

	// tools/list: canvas_show declares the app; resources/read serves it.
	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var declared any
	for _, tool := range tools.Tools {
		if tool.Name == "canvas_show" && tool.Meta != nil {
			declared = tool.Meta.AdditionalFields["ui"]
		}
	}
	if m, _ := declared.(map[string]any); m["resourceUri"] != mcpapi.BoardURI {
		t.Fatalf("canvas_show _meta.ui = %v", declared)
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = mcpapi.BoardURI
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	content := res.Contents[0].(mcp.TextResourceContents)
	if content.MIMEType != "text/html;profile=mcp-app" || content.Meta["ui"] == nil {
		t.Fatalf("board resource: %s %v", content.MIMEType, content.Meta)
	}

	page := browsertest.Open(t, "about:blank", 1000, 800)
	problems := browsertest.Problems(t, page)
	open := func(tools string) *rodFrame {
		t.Helper()
		if err := page.Navigate(host.URL + "/host.html?tools=" + tools); err != nil {
			t.Fatal(err)
		}
		var f *rodFrame
		eventually(t, "the board app frame", func() bool {
			el, err := page.Element("iframe#app")
			if err != nil {
				return false
			}
			fr, err := el.Frame()
			if err != nil {
				return false
			}
			v, err := fr.Eval(`() => document.body && document.body.getAttribute("data-initialized")`)
			if err != nil || v.Value.Str() != "true" {
				return false
			}
			f = &rodFrame{t: t, p: fr}
			return true
		})
		return f
	}

	// Read-only: the board from the tool result, no buttons.
	ro := open("off")
	eventually(t, "the nodes drawn from the tool result", func() bool { return ro.eval(`document.querySelectorAll("#nodes li").length`) == "2" })
	if got := ro.eval(`document.querySelector("[data-approval-id]").textContent`); !strings.Contains(got, "Ship it?") || !strings.Contains(got, "Decide it in the PMX Canvas workbench.") {
		t.Errorf("read-only approval: %q", got)
	}
	if n := ro.eval(`document.querySelectorAll("button").length`); n != "0" {
		t.Errorf("read-only board has %s buttons", n)
	}
	if n := ro.eval(`document.querySelectorAll("#map rect").length + "/" + document.querySelectorAll("#map line").length`); n != "2/1" {
		t.Errorf("map draws %s rects/lines, want 2/1", n)
	}

	// With tool calls: pin a node and approve the gate through the host.
	rw := open("on")
	eventually(t, "the pin buttons", func() bool { return rw.eval(`document.querySelectorAll("#nodes button.pin").length`) == "2" })
	rw.eval(`document.querySelector('#nodes li[data-node-id="` + a + `"] button.pin').click(), ""`)
	eventually(t, "the pin on the canvas", func() bool {
		_, _, raw, _ := s.do("GET", "/api/canvas/pinned-context", nil)
		return strings.Contains(string(raw), "Plan")
	})
	rw.eval(`document.querySelector('[data-approval-id="` + gate + `"] button.approve').click(), ""`)
	eventually(t, "the approval decided", func() bool {
		_, _, raw, _ := s.do("GET", "/api/canvas/ax/approval", nil)
		return strings.Contains(string(raw), `"status":"approved"`)
	})
	eventually(t, "the board to refresh", func() bool {
		return rw.eval(`document.querySelectorAll("[data-approval-id]").length`) == "0" &&
			rw.eval(`document.querySelector("#map rect.pinned") ? "yes" : "no"`) == "yes"
	})
	if p := problems(); len(p) > 0 {
		t.Errorf("browser problems: %v", p)
	}
}

// rodFrame evaluates expressions in a frame.
type rodFrame struct {
	t *testing.T
	p *rod.Page
}

func (f *rodFrame) eval(expr string) string {
	f.t.Helper()
	v, err := f.p.Eval(`() => String(` + expr + `)`)
	if err != nil {
		f.t.Fatalf("%s: %v", expr, err)
	}
	return v.Value.Str()
}
