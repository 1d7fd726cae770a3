// Package viewer makes the documents that show json-render, graph and
// mermaid nodes inside the canvas's sandboxed iframes. A document is one
// self-contained HTML page: the viewer's script and stylesheet (built from
// web/viewer/src by `make web` and embedded from dist/) are inlined, and
// the node's payload is written into it as JSON, so the page loads nothing
// from the server or the network. That is what lets it run with the
// opaque origin of SandboxCSP, where it could not fetch from the server.
//
// The page talks to the canvas only through postMessage:
//
//	viewer → parent  {type:"pmx-frame-height", nodeId, height}
//	viewer → parent  {type:"pmx-json-render-action", nodeId, action, params, state}
//	parent → viewer  {type:"pmx-theme", theme}
package viewer

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
)

// Node kinds a document can show.
const (
	KindJSONRender = "json-render"
	KindGraph      = "graph"
	KindMermaid    = "mermaid"
)

// SandboxCSP is the Content-Security-Policy a server sends with a
// document: scripts run, but in an opaque origin (no same-origin), so the
// document can reach neither the canvas's cookies nor its API.
const SandboxCSP = "sandbox allow-scripts"

// docCSP is the document's own policy (a meta tag, on top of SandboxCSP):
// only its inline script and styles run, and nothing is fetched but
// images a spec names. A stray network load fails loudly instead of
// working by accident.
const docCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
	"img-src data: blob: https:; font-src data:; base-uri 'none'; form-action 'none'"

// The bundles are embedded as strings: they stay in the binary's
// read-only data, paged in only when a document is served, instead of
// being copied to the heap at start (6.8 MB).
var (
	//go:embed dist/viewer.js
	viewerJS string
	//go:embed dist/viewer-mermaid.js
	mermaidJS string
	//go:embed dist/viewer.css
	viewerCSS string
)

// Options say what a document shows.
type Options struct {
	// Kind is KindJSONRender, KindGraph or KindMermaid; anything else is
	// shown as json-render.
	Kind string
	// NodeID names the node in the messages the document posts.
	NodeID string
	// Theme is "dark" (the default), "light" or "high-contrast".
	Theme string
	// Display is "inline" (the default: in a canvas node, content at its
	// own height) or "expanded" (the focus overlay: content fills it).
	Display string
	// Title is the document's <title>.
	Title string
	// Spec is the json-render spec of a json-render or graph node: any
	// value encoding/json encodes as an object (a map, a struct, or a
	// json.RawMessage).
	Spec any
	// Source is the diagram source of a mermaid node.
	Source string
}

// payload is window.__PMX_VIEWER__, read by src/frame.ts.
type payload struct {
	Kind    string `json:"kind"`
	NodeID  string `json:"nodeId"`
	Theme   string `json:"theme"`
	Display string `json:"display"`
	Spec    any    `json:"spec,omitempty"`
	Source  string `json:"source,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Document returns the complete HTML document for o. The payload is JSON
// with <, >, & and U+2028/U+2029 escaped (encoding/json's HTML-safe form),
// so no value in it can end the script it sits in.
func Document(o Options) []byte {
	p := payload{
		Kind:    o.Kind,
		NodeID:  o.NodeID,
		Theme:   theme(o.Theme),
		Display: display(o.Display),
	}
	switch p.Kind {
	case KindMermaid:
		p.Source = o.Source
	case KindGraph:
	default:
		p.Kind = KindJSONRender
	}
	if p.Kind != KindMermaid {
		p.Spec = o.Spec
	}
	data, err := json.Marshal(p)
	if err != nil {
		// The spec cannot be encoded (a channel, a NaN): say so in the
		// frame rather than serve a broken page.
		p.Spec = nil
		p.Error = fmt.Sprintf("The spec cannot be encoded as JSON: %v", err)
		data, _ = json.Marshal(p)
	}
	script := viewerJS
	if p.Kind == KindMermaid {
		script = mermaidJS
	}
	title := o.Title
	if title == "" {
		title = p.Kind
	}
	// The .dark class is what the components' dark: styles key on; high
	// contrast is a dark theme.
	class := ` class="dark"`
	if p.Theme == "light" {
		class = ""
	}

	var b bytes.Buffer
	b.Grow(len(script) + len(viewerCSS) + len(data) + 1024)
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"en\"%s data-theme=\"%s\" data-display=\"%s\" data-kind=\"%s\">\n", class, p.Theme, p.Display, p.Kind)
	b.WriteString("<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", docCSP)
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(title))
	b.WriteString("<style>")
	b.WriteString(viewerCSS)
	b.WriteString("</style>\n</head>\n<body>\n<div id=\"pmx-root\"></div>\n")
	b.WriteString("<script>window.__PMX_VIEWER__=")
	b.Write(data)
	b.WriteString(";</script>\n<script>")
	b.WriteString(script)
	b.WriteString("</script>\n</body>\n</html>\n")
	return b.Bytes()
}

// theme returns t if it is one of the canvas themes, else "dark".
func theme(t string) string {
	switch t {
	case "light", "high-contrast":
		return t
	}
	return "dark"
}

// display returns "expanded" or "inline".
func display(d string) string {
	if d == "expanded" {
		return d
	}
	return "inline"
}
