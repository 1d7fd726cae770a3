package actors

import (
	"net/url"
	"strings"

	"context"

	"github.com/pmxcanvas/pmx-canvas/content/framedocs"
	"github.com/pmxcanvas/pmx-canvas/content/surface"
	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/web/viewer"
)

// surfaceCSP runs a surface's scripts in an opaque origin: it can reach
// the canvas only through the parent page's postMessage checks.
const surfaceCSP = "sandbox allow-scripts"

func init() {
	workspaceHandlers["surface.get"] = surfaceGet
	workspaceHandlers["frame-document.create"] = frameDocumentCreate
	workspaceHandlers["frame-document.get"] = frameDocumentGet
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// surfaceGet opens a node as a site: html nodes as their surface
// document; json-render and graph nodes, web artifacts, URL apps and
// webpages as a redirect to what shows them.
func surfaceGet(_ context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.SurfaceGetInput)
	n, ok := ref.view.Load().Nodes.Get(in.ID)
	if !ok {
		return nil, canvas.NodeNotFound(in.ID)
	}
	theme := surface.Theme(str(in.Theme))
	d := n.Data
	text := func(k string) string { v, _ := d[k].(string); return v }
	switch n.Type {
	case "html":
		author := text("html")
		if author == "" {
			author = text("content")
		}
		if author == "" {
			return nil, messages.NotFound("HTML node %q has no content.", in.ID)
		}
		o := surface.Options{NodeID: n.ID, Title: canvas.Title(n), Theme: theme, Present: str(in.Present) == "1",
			ThemeToken: str(in.ThemeToken), PresentToken: str(in.PresentToken), AXToken: str(in.AxToken), FrameToken: str(in.FrameToken)}
		if caps := ax.EffectiveCapabilities(n); caps.Enabled && len(caps.Allowed) > 0 && o.AXToken != "" {
			o.AX, o.State = true, surfaceSnapshot(ref)
		}
		return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: surface.Document(author, o), CSP: surfaceCSP}, nil
	case "json-render", "graph", "mermaid":
		q := url.Values{"nodeId": {n.ID}, "theme": {theme}}
		if str(in.Display) == "expanded" {
			q.Set("display", "expanded")
		}
		return &messages.Redirect{Location: "/api/canvas/json-render/view?" + q.Encode()}, nil
	case "webpage":
		if u := text("url"); safeRedirect(u) {
			return &messages.Redirect{Location: u}, nil
		}
		return nil, messages.NotFound("Webpage node %q has no url.", in.ID)
	case "mcp-app":
		if p := text("path"); p != "" && canvas.Kind(n) == "web-artifact" {
			return &messages.Redirect{Location: "/artifact?path=" + url.QueryEscape(p)}, nil
		}
		if h := text("html"); h != "" && text("mode") == "ext-app" {
			return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: []byte(h), CSP: surfaceCSP}, nil
		}
		if u := text("url"); safeRedirect(u) {
			return &messages.Redirect{Location: u}, nil
		}
		return nil, messages.NotFound("MCP app node %q has no openable surface.", in.ID)
	}
	return nil, messages.NotFound("Node %q is a %s node, which cannot be opened as a site.", in.ID, n.Type)
}

// safeRedirect allows http(s) URLs and same-origin paths (one leading
// slash: "//host" would leave the origin).
func safeRedirect(u string) bool {
	switch {
	case strings.HasPrefix(u, "http://"), strings.HasPrefix(u, "https://"):
		return true
	case strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") && !strings.HasPrefix(u, "/\\"):
		return true
	}
	return false
}

func frameDocumentCreate(_ context.Context, s *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.FrameDocumentInput)
	id, err := s.frames.Put(*in.HTML, str(in.Sandbox))
	switch err {
	case nil:
		return &messages.FrameDocument{OK: true, URL: "/api/canvas/frame-documents/" + id}, nil
	case framedocs.ErrTooLarge:
		return nil, messages.Make(messages.CodeBodyTooLarge, "%s", err.Error()).With("field", "html")
	case framedocs.ErrBadTokens:
		return nil, messages.BadRequest("%s", err.Error()).With("field", "sandbox")
	}
	return nil, messages.BadRequest("%s", err.Error()).With("field", "html")
}

func frameDocumentGet(_ context.Context, s *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	d, ok := s.frames.Get(env.Args.(*messages.FrameDocumentGetInput).ID)
	if !ok {
		return nil, messages.NotFound("Frame document not found.")
	}
	return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: []byte(d.HTML), CSP: "sandbox " + d.Sandbox}, nil
}

func init() { workspaceHandlers["jsonrender.view"] = jsonRenderView }

// jsonRenderView is the viewer document of a json-render or graph node.
func jsonRenderView(_ context.Context, _ *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.JSONRenderViewInput)
	n, ok := ref.view.Load().Nodes.Get(in.NodeID)
	if ok && n.Type == "mermaid" {
		src, _ := n.Data["content"].(string)
		doc := viewer.Document(viewer.Options{Kind: viewer.KindMermaid, NodeID: n.ID, Theme: surface.Theme(str(in.Theme)),
			Display: str(in.Display), Title: canvas.Title(n), Source: src})
		return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: doc, CSP: surfaceCSP}, nil
	}
	if !ok || (n.Type != "json-render" && n.Type != "graph") {
		return nil, messages.NotFound("json-render node %q not found.", in.NodeID).With("field", "nodeId")
	}
	spec, ok := n.Data["spec"].(map[string]any)
	if !ok {
		return nil, messages.NotFound("json-render spec missing on node %q.", in.NodeID)
	}
	kind := viewer.KindJSONRender
	if n.Type == "graph" {
		kind = viewer.KindGraph
	}
	doc := viewer.Document(viewer.Options{Kind: kind, NodeID: n.ID, Theme: surface.Theme(str(in.Theme)), Display: str(in.Display),
		Title: canvas.Title(n), Spec: spec})
	return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: doc, CSP: surfaceCSP}, nil
}
