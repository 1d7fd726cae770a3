package content_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// counterApp is a TSX app with state: a button that counts its clicks.
const counterApp = `import { useState } from "react";

export default function App() {
  const [n, setN] = useState(0);
  return (
    <main>
      <h1 id="title">Counter</h1>
      <button id="inc" onClick={() => setN(n + 1)}>clicked {n} times</button>
    </main>
  );
}
`

// webArtifacts lists the board's web-artifact nodes.
func webArtifacts(s *server) []map[string]any {
	s.t.Helper()
	st := s.ok("GET", "/api/canvas/state", nil)
	var out []map[string]any
	for _, n := range st["nodes"].([]any) {
		if m := n.(map[string]any); m["kind"] == "web-artifact" {
			out = append(out, m)
		}
	}
	return out
}

// A web artifact built over HTTP: the reply's fields, the node's data, the
// surface's redirect to the artifact page, a rebuild that updates the
// node in place, and a build that opens nothing.
func TestWebArtifactBuild(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	r := s.ok("POST", "/api/canvas/web-artifact", map[string]any{"title": "Click Counter", "appTsx": counterApp,
		"indexCss": "button { font-size: 18px }", "files": map[string]any{"src/util.ts": "export const two = 2\n"}})
	wantPath := filepath.Join(s.ws, ".pmx-canvas", "artifacts", "click-counter.html")
	if r["ok"] != true || r["path"] != wantPath || r["openedInCanvas"] != true || r["timeoutMs"] != float64(600000) {
		t.Fatalf("reply %v", r)
	}
	if r["projectPath"] != filepath.Join(s.ws, ".pmx-canvas", "artifacts", ".web-artifacts", "click-counter") {
		t.Errorf("projectPath %v", r["projectPath"])
	}
	id, _ := r["id"].(string)
	if !strings.HasPrefix(id, "artifact-") || r["nodeId"] != id || r["url"] != "/artifact?path="+url.QueryEscape(wantPath) {
		t.Fatalf("id %v nodeId %v url %v", r["id"], r["nodeId"], r["url"])
	}
	if _, has := r["stdout"]; has {
		t.Errorf("stdout without includeLogs: %v", r)
	}
	meta := r["metadata"].(map[string]any)
	if meta["slug"] != "click-counter" || meta["sourceFileCount"] != float64(6) || meta["builder"] != "esbuild" {
		t.Errorf("metadata %v", meta)
	}
	out, err := os.ReadFile(wantPath)
	if err != nil || len(out) != int(r["bytes"].(float64)) || !strings.Contains(string(out), "clicked") {
		t.Fatalf("output file: %d bytes (reply %v), %v", len(out), r["bytes"], err)
	}

	n := s.ok("GET", "/api/canvas/node/"+id, nil)
	d := n["data"].(map[string]any)
	if n["type"] != "mcp-app" || n["kind"] != "web-artifact" || d["viewerType"] != "web-artifact" || d["hostMode"] != "hosted" ||
		d["path"] != wantPath || d["url"] != r["url"] || d["trustedDomain"] != true || d["sourceServer"] != "pmx-canvas" {
		t.Fatalf("node %v", n)
	}
	size := n["size"].(map[string]any)
	if size["width"] != float64(960) || size["height"] != float64(720) {
		t.Errorf("size %v", size)
	}
	if c, _ := d["content"].(string); !strings.HasPrefix(c, "Web artifact: Click Counter") || !strings.Contains(c, "useState") {
		t.Errorf("content %q", c)
	}
	if p, _ := d["sourcePreview"].(string); !strings.HasPrefix(p, `import { useState }`) {
		t.Errorf("sourcePreview %q", p)
	}

	// The surface redirects to the artifact page, which is the built file.
	s.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	code, _, _, hdr := s.do("GET", "/api/canvas/surface/"+id, nil)
	s.http.CheckRedirect = nil
	if code != 302 || hdr.Get("Location") != r["url"] {
		t.Fatalf("surface: %d %q", code, hdr.Get("Location"))
	}
	if code, _, raw, _ := s.do("GET", r["url"].(string), nil); code != 200 || !strings.Contains(string(raw), "clicked") {
		t.Fatalf("artifact page: %d %.200s", code, raw)
	}

	// A rebuild to the same output updates the node: no id, same nodeId,
	// still one node, the new source in its data.
	r2 := s.ok("POST", "/api/canvas/web-artifact", map[string]any{"title": "Click Counter", "appTsx": strings.Replace(counterApp, "Counter", "Counter v2", 1),
		"includeLogs": true})
	if _, has := r2["id"]; has || r2["nodeId"] != id {
		t.Fatalf("rebuild: id %v nodeId %v", r2["id"], r2["nodeId"])
	}
	if _, ok := r2["stdout"].(string); !ok {
		t.Errorf("includeLogs: no stdout in %v", r2)
	}
	if arts := webArtifacts(s); len(arts) != 1 || !strings.Contains(arts[0]["data"].(map[string]any)["content"].(string), "Counter v2") {
		t.Fatalf("after rebuild: %v", arts)
	}

	// openInCanvas:false builds without a node.
	r3 := s.ok("POST", "/api/canvas/web-artifact", map[string]any{"title": "Quiet", "appTsx": counterApp, "openInCanvas": false,
		"outputPath": "out/quiet.html", "projectPath": "build/quiet"})
	if r3["nodeId"] != nil || r3["openedInCanvas"] != false || r3["path"] != filepath.Join(s.ws, "out", "quiet.html") {
		t.Fatalf("openInCanvas:false: %v", r3)
	}
	if len(webArtifacts(s)) != 1 {
		t.Errorf("openInCanvas:false made a node")
	}
}

// Bad builds are 400s naming what is wrong, and change nothing.
func TestWebArtifactBuildErrors(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(s.ws, "escape")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		body map[string]any
		want string
	}{
		{"syntax error", map[string]any{"title": "Broken", "appTsx": "export default function App() {\n  return <div>\n}\n"}, "src/App.tsx:3:"},
		{"missing import", map[string]any{"title": "Broken", "appTsx": "import x from './nope'\nexport default () => x\n"}, "src/App.tsx:1:"},
		{"blank title", map[string]any{"title": "  ", "appTsx": counterApp}, "Missing required fields: title, appTsx."},
		{"no appTsx", map[string]any{"title": "A"}, "Missing required fields: title, appTsx."},
		{"output outside", map[string]any{"title": "A", "appTsx": counterApp, "outputPath": "../x.html"}, "outputPath"},
		{"output absolute outside", map[string]any{"title": "A", "appTsx": counterApp, "outputPath": filepath.Join(outside, "x.html")}, "is outside the workspace"},
		{"output through a symlink", map[string]any{"title": "A", "appTsx": counterApp, "outputPath": "escape/x.html"}, "leaves the workspace through a symlink"},
		{"project outside", map[string]any{"title": "A", "appTsx": counterApp, "projectPath": "/tmp"}, "projectPath"},
		{"flag as dep", map[string]any{"title": "A", "appTsx": counterApp, "deps": []any{"--registry=http://evil"}}, `invalid dep "--registry=http://evil"`},
		{"init script", map[string]any{"title": "A", "appTsx": counterApp, "initScriptPath": "init.sh"}, "initScriptPath is not supported"},
		{"file escapes project", map[string]any{"title": "A", "appTsx": counterApp, "files": map[string]any{"../../x.ts": "1"}}, "escapes the project"},
		{"zero timeout", map[string]any{"title": "A", "appTsx": counterApp, "timeoutMs": 0}, "timeoutMs"},
		{"files not strings", map[string]any{"title": "A", "appTsx": counterApp, "files": map[string]any{"a.ts": 1}}, "files"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			s.fails(400, c.want, "POST", "/api/canvas/web-artifact", c.body)
		})
	}
	s.t = t
	if n := len(webArtifacts(s)); n != 0 {
		t.Errorf("%d nodes after failed builds", n)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("a build wrote outside the workspace: %v", entries)
	}
}

// MCP (the legacy tool and canvas_app build-artifact) and the Go package
// build the same artifact as HTTP.
func TestWebArtifactOnMCPAndGo(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	ctx := context.Background()
	var legacy, composite messages.WebArtifactBuilt
	for _, c := range []struct {
		tool string
		args mcpapi.Args
		out  *messages.WebArtifactBuilt
	}{
		{"canvas_build_web_artifact", mcpapi.Args{"title": "Via Tool", "appTsx": counterApp}, &legacy},
		{"canvas_app", mcpapi.Args{"action": "build-artifact", "title": "Via App", "appTsx": counterApp, "deps": []any{}}, &composite},
	} {
		r := mcp.Call(ctx, c.tool, c.args)
		if r.IsError {
			t.Fatalf("%s: %s", c.tool, r.Text)
		}
		if err := json.Unmarshal([]byte(r.Text), c.out); err != nil || !c.out.OK || c.out.ID == "" {
			t.Fatalf("%s: %s %v", c.tool, r.Text, err)
		}
	}
	if !strings.HasSuffix(legacy.Path, "via-tool.html") || !strings.HasSuffix(composite.Path, "via-app.html") {
		t.Errorf("paths %q %q", legacy.Path, composite.Path)
	}
	// Bad input: the same text as HTTP.
	r := mcp.Call(ctx, "canvas_app", mcpapi.Args{"action": "build-artifact", "title": "B", "appTsx": "export default () => <div>"})
	if !r.IsError || !strings.Contains(r.Text, "src/App.tsx:1:") {
		t.Errorf("syntax error over MCP: %+v", r)
	}

	built, err := s.Canvas().BuildWebArtifact(ctx, &messages.WebArtifactBuildInput{Title: pmxcanvas.Ptr("Via Go"),
		AppTsx: pmxcanvas.Ptr(counterApp), OpenInCanvas: pmxcanvas.Ptr(false)})
	if err != nil || !built.OK || built.NodeID != nil || !strings.HasSuffix(built.Path, "via-go.html") {
		t.Fatalf("Go BuildWebArtifact: %+v %v", built, err)
	}
	_, err = s.Canvas().BuildWebArtifact(ctx, &messages.WebArtifactBuildInput{Title: pmxcanvas.Ptr("x"), AppTsx: pmxcanvas.Ptr(counterApp),
		OutputPath: pmxcanvas.Ptr("/etc/x.html")})
	if e := messages.AsError(err); e == nil || e.Status != 400 || e.Extra["field"] != "outputPath" {
		t.Errorf("Go outside: %v", err)
	}
	if n := len(webArtifacts(s)); n != 2 {
		t.Errorf("%d web-artifact nodes, want 2", n)
	}
}

// The built artifact, opened through the server as the workbench opens it
// (the node's url), runs in Chromium: React renders and the state updates.
func TestWebArtifactInChromium(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	s := start(t, pmxcanvas.Options{})
	r := s.ok("POST", "/api/canvas/web-artifact", map[string]any{"title": "Counter", "appTsx": counterApp})
	page := browsertest.Open(t, "about:blank", 800, 600)
	problems := browsertest.Problems(t, page)
	if err := page.Navigate(s.base + r["url"].(string)); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	btn := page.MustElement("#inc")
	if txt := btn.MustText(); txt != "clicked 0 times" {
		t.Fatalf("button reads %q", txt)
	}
	btn.MustClick()
	btn.MustClick()
	if txt := btn.MustText(); txt != "clicked 2 times" {
		t.Errorf("after two clicks the button reads %q", txt)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser problems: %v", p)
	}
}
