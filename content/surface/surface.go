// Package surface builds the documents sandboxed HTML surfaces run in: an
// html node's fragment (or full document) wrapped with the theme
// stylesheet, data-theme, and the bridges the parent workbench talks to —
// theme, presentation, the AX bridge (window.PMX_AX) and the content-height
// reporter. The documents are served with CSP "sandbox allow-scripts" (an
// opaque origin), so a surface reaches the canvas only through the parent
// page's postMessage checks, never the API itself.
//
// Message protocol (parent ⇄ frame; each carries the frame's nonce as
// token, which the parent minted and passed in the URL):
//
//	parent → frame {source:"pmx-canvas-theme", token, theme}
//	parent → frame {source:"pmx-canvas-present", token, present}
//	frame → parent {source:"pmx-canvas-ax", token, nodeId, correlationId, interaction:{type, payload}}
//	parent → frame {source:"pmx-canvas-ax-ack", token, correlationId, result}
//	parent → frame {source:"pmx-canvas-html-node", type:"ax-update", token, state}
//	frame → parent {type:"pmx-frame-height", frameToken, height}
package surface

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
)

// Options shape a surface document.
type Options struct {
	NodeID string
	Title  string
	// Theme is dark, light or high-contrast (anything else: dark).
	Theme   string
	Present bool
	// Tokens are the parent's nonces (sanitised here to [A-Za-z0-9_-],
	// 64 characters).
	ThemeToken, PresentToken, AXToken, FrameToken string
	// AX enables window.PMX_AX (the node's effective AX capabilities are
	// enabled and allow something); State seeds PMX_AX.state.
	AX    bool
	State any
}

// Theme normalises a theme name.
func Theme(t string) string {
	switch t {
	case "light", "high-contrast":
		return t
	}
	return "dark"
}

var unsafeToken = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// Token sanitises a nonce: [A-Za-z0-9_-], at most max characters.
func Token(s string, max int) string {
	s = unsafeToken.ReplaceAllString(s, "")
	if len(s) > max {
		s = s[:max]
	}
	return s
}

// Stylesheet is the theme stylesheet every surface gets: the canvas's
// colours as CSS variables per data-theme, and readable defaults.
const Stylesheet = `:root{color-scheme:dark;--bg:#0f1115;--panel:#161922;--surface:#1c2030;--border:#2a3042;--text:#e6e8ef;--text-secondary:#b4bac8;--text-muted:#7d8497;--accent:#7aa2f7;--ok:#9ece6a;--warn:#e0af68;--danger:#f7768e}
[data-theme=light]{color-scheme:light;--bg:#f7f7f9;--panel:#ffffff;--surface:#f0f1f5;--border:#d8dbe3;--text:#1d2130;--text-secondary:#3f4657;--text-muted:#6b7285;--accent:#2f5bd3;--ok:#2e7d32;--warn:#9a6400;--danger:#c62828}
[data-theme=high-contrast]{color-scheme:dark;--bg:#000;--panel:#000;--surface:#111;--border:#fff;--text:#fff;--text-secondary:#fff;--text-muted:#ddd;--accent:#ffd400;--ok:#00ff6a;--warn:#ffd400;--danger:#ff4d4d}
html,body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
a{color:var(--accent)}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}`

// Document wraps author HTML into the surface document. A full document
// (one with <html> or <head>) keeps its markup and gets the stylesheet and
// bridges at the top of <head>; a fragment is put into a <body>.
func Document(author string, o Options) []byte {
	theme := Theme(o.Theme)
	head := `<meta charset="utf-8"><style id="pmx-surface-theme">` + Stylesheet + `</style>` + Bridges(o)
	lower := strings.ToLower(author)
	var b strings.Builder
	if strings.Contains(lower, "<html") || strings.Contains(lower, "<head") {
		doc := author
		if !strings.Contains(lower, "<title") && o.Title != "" {
			head += "<title>" + html.EscapeString(o.Title) + "</title>"
		}
		if i := strings.Index(lower, "<head"); i >= 0 {
			j := strings.IndexByte(lower[i:], '>')
			if j >= 0 {
				doc = author[:i+j+1] + head + author[i+j+1:]
			}
		} else {
			i := strings.Index(lower, "<html")
			j := strings.IndexByte(lower[i:], '>')
			doc = author[:i+j+1] + "<head>" + head + "</head>" + author[i+j+1:]
		}
		doc = setThemeAttr(doc, theme, o.Present)
		if !strings.HasPrefix(strings.TrimSpace(lower), "<!doctype") {
			b.WriteString("<!doctype html>")
		}
		b.WriteString(doc)
		return []byte(b.String())
	}
	title := o.Title
	if title == "" {
		title = "Surface"
	}
	b.WriteString(`<!doctype html><html lang="en" data-theme="` + theme + `"`)
	if o.Present {
		b.WriteString(` data-present=""`)
	}
	b.WriteString(`><head>` + head + `<title>` + html.EscapeString(title) + `</title></head><body>`)
	b.WriteString(author)
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// setThemeAttr puts data-theme (and data-present) on the <html> tag.
func setThemeAttr(doc, theme string, present bool) string {
	lower := strings.ToLower(doc)
	i := strings.Index(lower, "<html")
	if i < 0 {
		return doc
	}
	attrs := ` data-theme="` + theme + `"`
	if present {
		attrs += ` data-present=""`
	}
	return doc[:i+5] + attrs + doc[i+5:]
}

// Bridges is the inline script of the bridges (theme, presentation, AX,
// height) for o.
func Bridges(o Options) string {
	cfg := map[string]any{
		"nodeId": Token(o.NodeID, 64), "themeToken": Token(o.ThemeToken, 64), "presentToken": Token(o.PresentToken, 64),
		"axToken": Token(o.AXToken, 64), "frameToken": Token(o.FrameToken, 64), "ax": o.AX && o.AXToken != "",
	}
	if cfg["ax"] == true {
		cfg["state"] = o.State
	}
	return `<script>(function(){var C=` + ScriptJSON(cfg) + `;` + bridgeJS + `})()</script>`
}

// ScriptJSON is v as JSON safe inside a <script>: <, >, & and the line
// separators are escaped, so no value can close the script.
func ScriptJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	r := strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`)
	return r.Replace(string(b))
}

// HeightReporter is the script that reports a page's height to its frame
// (artifacts use it alone).
func HeightReporter(frameToken string) string {
	return `<script>(function(){var C=` + ScriptJSON(map[string]any{"frameToken": Token(frameToken, 80)}) + `;` + heightJS + `})()</script>`
}

const heightJS = `if(C.frameToken){var last=0;var send=function(){var h=Math.ceil(document.documentElement.scrollHeight);if(h!==last){last=h;parent.postMessage({type:"pmx-frame-height",frameToken:C.frameToken,nodeId:C.nodeId,height:h},"*")}};if(window.ResizeObserver){new ResizeObserver(send).observe(document.documentElement)}addEventListener("load",send);send()}`

const bridgeJS = `var root=document.documentElement;
var fire=function(n,d){try{dispatchEvent(new CustomEvent(n,{detail:d}))}catch(e){}};
var pending={},seq=0,handlers={};
addEventListener("message",function(e){var d=e.data;if(!d||typeof d!=="object"||e.source!==parent)return;
if(d.source==="pmx-canvas-theme"&&C.themeToken&&d.token===C.themeToken){root.setAttribute("data-theme",d.theme==="light"||d.theme==="high-contrast"?d.theme:"dark");fire("pmx-theme",d.theme)}
else if(d.source==="pmx-canvas-present"&&C.presentToken&&d.token===C.presentToken){if(d.present){root.setAttribute("data-present","")}else{root.removeAttribute("data-present")}fire("pmx-present",!!d.present)}
else if(C.ax&&d.source==="pmx-canvas-ax-ack"&&d.token===C.axToken){var p=pending[d.correlationId];if(p){delete pending[d.correlationId];clearTimeout(p.t);p.r(d.result)}(handlers.ack||[]).forEach(function(f){f(d)});fire("pmx-ax-ack",d)}
else if(C.ax&&d.source==="pmx-canvas-html-node"&&d.type==="ax-update"&&d.token===C.axToken){window.PMX_AX.state=d.state;(handlers.state||[]).forEach(function(f){f(d.state)});fire("pmx-ax-state",d.state)}});
if(C.ax){window.PMX_AX={nodeId:C.nodeId,state:C.state,
emit:function(type,payload){var id=C.nodeId+"-"+(++seq)+"-"+Date.now();return new Promise(function(r){var t=setTimeout(function(){delete pending[id];r({ok:false,status:504,code:"ax-ack-timeout",error:"ax-ack-timeout"})},10000);pending[id]={r:r,t:t};parent.postMessage({source:"pmx-canvas-ax",token:C.axToken,nodeId:C.nodeId,correlationId:id,interaction:{type:String(type),payload:payload||{}}},"*")})},
on:function(n,f){(handlers[n]=handlers[n]||[]).push(f)}}}
` + heightJS
