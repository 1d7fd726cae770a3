package content_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// The workspace-content operations answer the same over MCP and the Go
// package as over HTTP (tests/parity checks their bad inputs; the CLI's
// commands are in cmd/pmx-canvas/testdata/script/content.txtar).
func TestContentOnMCPAndGo(t *testing.T) {
	web, hits := fixture(t)
	s := start(t, pmxcanvas.Options{})
	s.write("src/main.ts", "import { u } from './util'\n")
	s.write("src/util.ts", "export const u = 1\n")
	s.write("shot.png", string(pngBytes(8, 6)))
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	ctx := context.Background()
	call := func(tool string, args mcpapi.Args) *mcpapi.Result {
		t.Helper()
		r := mcp.Call(ctx, tool, args)
		if r.IsError {
			t.Fatalf("%s: %s", tool, r.Text)
		}
		return r
	}
	c := s.Canvas()

	mainID := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "src/main.ts"}))
	s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "src/util.ts"})

	// The code graph: Go package, MCP tool and MCP resource agree with HTTP.
	g, err := c.CodeGraph(ctx)
	if err != nil || g.TotalFileNodes != 2 || len(g.Nodes) != 2 || strings.Join(g.Nodes[0].Imports, ",") != "src/util.ts" {
		t.Fatalf("Go CodeGraph: %+v %v", g, err)
	}
	var viaTool messages.CodeGraph
	if err := json.Unmarshal([]byte(call("canvas_code_graph", nil).Text), &viaTool); err != nil || viaTool.Nodes[0].ID != mainID {
		t.Errorf("canvas_code_graph: %+v %v", viaTool, err)
	}

	// Files: read and save.
	saved, err := c.FileSave(ctx, &messages.FileSaveInput{Path: "notes.md", Content: pmxcanvas.Ptr("# hi")})
	if err != nil || !saved.OK {
		t.Fatalf("Go FileSave: %+v %v", saved, err)
	}
	var doc messages.FileDoc
	if err := json.Unmarshal([]byte(call("canvas_read_file", mcpapi.Args{"path": "notes.md"}).Text), &doc); err != nil || doc.Content != "# hi" {
		t.Errorf("canvas_read_file: %+v %v", doc, err)
	}
	if r := mcp.Call(ctx, "canvas_read_file", mcpapi.Args{"path": "/etc/passwd"}); !r.IsError || !strings.Contains(r.Text, "outside the workspace") {
		t.Errorf("canvas_read_file outside: %+v", r)
	}
	_, err = c.FileGet(ctx, &messages.WorkspacePathInput{Path: "/etc/passwd"})
	if e := messages.AsError(err); e == nil || e.Status != 400 || !strings.Contains(e.Message, "outside the workspace") {
		t.Errorf("Go FileGet outside: %v", err)
	}

	// An image node's file as MCP image content, and as Go bytes.
	img := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "image", "content": "shot.png"}))
	if r := call("canvas_get_image", mcpapi.Args{"id": img}); r.ImageMime != "image/png" || len(r.Image) != len(pngBytes(8, 6)) {
		t.Errorf("canvas_get_image: mime %q, %d bytes", r.ImageMime, len(r.Image))
	}
	if b, err := c.ImageGet(ctx, &messages.ImageGetInput{ID: img}); err != nil || b.ContentType != "image/png" {
		t.Errorf("Go ImageGet: %v %v", b, err)
	}

	// Webpage refresh: the legacy tool, the composite's update refresh:true
	// and the Go package each fetch once; a failure is isError / an error.
	page := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + "/article"}))
	before := hits.Load()
	call("canvas_refresh_webpage_node", mcpapi.Args{"id": page})
	call("canvas_node", mcpapi.Args{"action": "update", "id": page, "refresh": true})
	if res, err := c.NodeRefresh(ctx, &messages.NodeRefreshInput{ID: page}); err != nil || !res.OK || res.Node == nil {
		t.Errorf("Go NodeRefresh: %+v %v", res, err)
	}
	if hits.Load() != before+3 {
		t.Errorf("%d fetches, want 3", hits.Load()-before)
	}
	r := mcp.Call(ctx, "canvas_refresh_webpage_node", mcpapi.Args{"id": page, "url": web.URL + "/missing"})
	if !r.IsError || !strings.Contains(r.Text, "Request failed with 404") {
		t.Errorf("failed refresh over MCP: %+v", r)
	}
	_, err = c.NodeRefresh(ctx, &messages.NodeRefreshInput{ID: page})
	if e := messages.AsError(err); e == nil || e.Status != 502 || e.Code != messages.CodeFetchFailed {
		t.Errorf("failed refresh over Go: %v", err)
	}

	if out := call("canvas_render_markdown", mcpapi.Args{"markdown": "*x*"}); !strings.Contains(out.Text, "<em>x</em>") {
		t.Errorf("canvas_render_markdown: %s", out.Text)
	}
}
