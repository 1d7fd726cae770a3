package main

// Every node type drawn by its renderer: each test creates nodes over HTTP
// (as an agent does) and asserts what the card's body shows in Chromium —
// the content, not only that a card exists.

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// in evaluates expr (a JS expression over b, the node's .node-body) for
// the node id and returns its value as a string ("" when the body is not
// there yet).
func in(t *testing.T, page *rod.Page, id, expr string) string {
	t.Helper()
	return js(t, page, fmt.Sprintf(`const b = document.querySelector('.canvas-node[data-node-id=%q] .node-body');
		if (!b) return ""; const v = (() => %s)(); return v === undefined || v === null ? "" : String(v)`, id, expr))
}

// shows waits until expr (see in) is want for the node.
func shows(t *testing.T, page *rod.Page, id, what, expr, want string) {
	t.Helper()
	var got string
	if !within(10*time.Second, func() bool { got = in(t, page, id, expr); return got == want }) {
		t.Fatalf("%s: got %q, want %q", what, got, want)
	}
}

// pageFixture serves one HTML page on loopback whose title names the
// version, which a test can bump (the board's server fetches it; nothing
// reaches the internet).
func pageFixture(t *testing.T) (url string, version *atomic.Int32) {
	t.Helper()
	version = &atomic.Int32{}
	version.Store(1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Fixture Page v%d</title><meta name="description" content="A page served on loopback."></head>
<body><article><h1>Fixture Page</h1><p>The renderer shows this paragraph as the excerpt of the page, long enough for readability to keep it.</p>
<p>A second paragraph, so the article has some body to it.</p></article></body></html>`, version.Load())
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/", version
}

func TestWorkbenchRendersEveryNodeType(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(p.ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("answer.ts", "export const answer = 42;\nexport function add(a: number, b: number) {\n  return a + b;\n}\n")
	write("scores.csv", "name,score\nada,3\nbob,5\n")
	write("doc.pdf", "%PDF-1.4\n%%EOF\n")
	pageURL, pageVersion := pageFixture(t)

	md := p.addNode(`{"type":"markdown","title":"Note","content":"# Heading\n\nSome **bold** text.","x":40,"y":40,"width":320,"height":200}`)
	status := p.addNode(`{"type":"status","title":"Agent","x":400,"y":40,"width":300,"height":140,
		"data":{"phase":"thinking","detail":"planning next step","activeTool":"canvas_search","message":"Tool failed twice","level":"error"}}`)
	ledger := p.addNode(`{"type":"ledger","title":"Log","content":"Entry 1: build ok\\nEntry 2: tests 15/15","x":740,"y":40,"width":320,"height":200,
		"data":{"passedChecks":15,"failedChecks":0}}`)
	trace := p.addNode(`{"type":"trace","title":"read","toolName":"read_file","category":"file","status":"success","resultSummary":"src/app.ts","duration":"12ms","x":1100,"y":40,"width":220,"height":56}`)
	failed := p.addNode(`{"type":"trace","title":"review","toolName":"subagent:review","category":"subagent","status":"failed","error":"timeout after 30s","x":1100,"y":120,"width":220,"height":56}`)
	file := p.addNode(`{"type":"file","content":"answer.ts","x":40,"y":300,"width":420,"height":240}`)
	csv := p.addNode(`{"type":"file","content":"scores.csv","x":500,"y":300,"width":320,"height":200}`)
	pdf := p.addNode(`{"type":"file","content":"doc.pdf","x":860,"y":300,"width":320,"height":240}`)
	image := p.addNode(`{"type":"image","title":"Pixel","content":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==","x":1220,"y":300,"width":300,"height":240,"data":{"caption":"One pixel","warning":"Captured from a login page"}}`)
	web := p.addNode(fmt.Sprintf(`{"type":"webpage","url":%q,"x":40,"y":600,"width":420,"height":380}`, pageURL))
	diff := p.addNode(`{"type":"diff","content":"--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n ctx\n-old line\n+new line\n","x":500,"y":600,"width":420,"height":240}`)
	app := p.addNode(`{"type":"mcp-app","title":"Embedded app","content":"Placeholder until the app is opened.","x":960,"y":600,"width":300,"height":160}`)
	ctx := p.addNode(`{"type":"context","title":"Working context","content":"Keep the **API** stable.",
		"data":{"tokenLimit":100000,"currentTokens":42000,"messagesLength":7,
			"cards":[{"key":"agents","label":"AGENTS.md","summary":"How agents work here.","path":"AGENTS.md","state":"loaded","category":"profile","sourceKind":"workspace","required":true},
				{"key":"plan","label":"Plan","state":"missing","category":"planning","sourceKind":"global"}],
			"auxTabs":[{"id":"t1","title":"Spec draft"}]}}`)
	// A context node is created docked and collapsed: put it on the board.
	p.must(200, "POST", "/api/canvas/update", fmt.Sprintf(`{"updates":[{"id":%q,"dockPosition":null,"collapsed":false,"position":{"x":1300,"y":600},"size":{"width":320,"height":220}}]}`, ctx))
	green := p.must(200, "POST", "/api/canvas/group", `{"title":"Empty green","color":"#22c55e","x":1300,"y":900,"width":300,"height":160}`).str("id")
	team := p.must(200, "POST", "/api/canvas/group", fmt.Sprintf(`{"title":"Traces","childIds":[%q,%q]}`, trace, failed)).str("id")

	page := browsertest.Open(t, p.url+"/workbench", 1400, 900)
	problems := browsertest.Problems(t, page)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "15"
	})

	// markdown: the server's rendered HTML.
	shows(t, page, md, "markdown", `[b.querySelector(".md-rendered h1")?.textContent, b.querySelector(".md-rendered strong")?.textContent].join("|")`, "Heading|bold")

	// status: the phase in its colour (pulsing), the detail, the tool, the
	// message in its level's colour.
	shows(t, page, status, "status", `[b.querySelector(".status-phase").textContent, b.querySelector(".status-phase").className,
		b.querySelector(".status-phase-dot").className, b.querySelector(".status-detail").textContent,
		b.querySelector(".status-tool").textContent.trim(), !!b.querySelector(".status-tool svg"),
		b.querySelector(".status-message.level-error").textContent].join("|")`,
		"thinking|status-phase tone-purple|status-phase-dot tone-purple pulsing|planning next step|canvas_search|true|Tool failed twice")
	if got := in(t, page, status, `getComputedStyle(b.querySelector(".status-phase")).textTransform + " " + getComputedStyle(b.querySelector(".status-message")).color`); got != "uppercase rgb(255, 106, 127)" {
		t.Errorf("status styles %q", got)
	}

	// Docked beside the toolbar, a status keeps a one-line summary.
	p.must(200, "POST", "/api/canvas/update", fmt.Sprintf(`{"updates":[{"id":%q,"dockPosition":"left"}]}`, status))
	until(t, "the docked status summary", func() bool {
		return js(t, page, fmt.Sprintf(`const d = document.querySelector('.hud-left [data-node-id=%q]');
			return d ? d.querySelector(".docked-status .status-phase").textContent + "|" + d.querySelector(".docked-status .status-tool").textContent.trim() : ""`, status)) == "thinking|canvas_search"
	})

	// ledger: one line per entry (the two characters \n split too), then
	// key/value rows with humanised keys.
	shows(t, page, ledger, "ledger", `[...b.querySelectorAll(".ledger-line")].map(l => l.textContent).join("|") + "#" +
		[...b.querySelectorAll(".ledger-row")].map(r => r.querySelector(".ledger-key").textContent + "=" + r.querySelector(".ledger-value").textContent).join("|")`,
		"Entry 1: build ok|Entry 2: tests 15/15#Failed Checks=0|Passed Checks=15")

	// trace: a pill (no title bar) with the status glyph, the tool in its
	// category's colour, the summary (a failure's error in red), the duration.
	shows(t, page, trace, "trace pill", `[b.querySelector(".trace-pill").className, !!b.querySelector(".trace-glyph svg.icon-check"),
		b.querySelector(".trace-tool.category-file").textContent, b.querySelector(".trace-summary").textContent,
		b.querySelector(".trace-duration").textContent, getComputedStyle(b.parentElement.querySelector(".node-titlebar")).display,
		b.parentElement.classList.contains("trace-node")].join("|")`,
		"trace-pill trace-success|true|read_file|src/app.ts|12ms|none|true")
	shows(t, page, failed, "failed trace", `[!!b.querySelector(".trace-glyph svg.icon-cross"), b.querySelector(".trace-tool.category-subagent").textContent,
		b.querySelector(".trace-summary.trace-error").textContent, getComputedStyle(b.querySelector(".trace-summary")).color].join("|")`,
		"true|subagent:review|timeout after 30s|rgb(255, 106, 127)")

	// A pill has no title bar: it is dragged by its body.
	tracePos := func() map[string]any {
		return p.must(200, "GET", "/api/canvas/node/"+trace, nil).body["position"].(map[string]any)
	}
	before := tracePos()
	tx, ty, _ := box(t, page, fmt.Sprintf(`[data-node-id=%q] .trace-pill`, trace))
	drag(t, page, tx, ty, 0, 120)
	until(t, "the dragged trace on the server", func() bool {
		now := tracePos()
		return now["x"] == before["x"] && now["y"].(float64) > before["y"].(float64)+20
	})

	// file: the language chip, the path, the line count, line numbers and
	// the text; a CSV as a table; a PDF in a frame of its bytes.
	shows(t, page, file, "file", `[b.querySelector(".file-language").textContent, b.querySelector(".file-path").textContent.endsWith("/answer.ts"),
		b.querySelector(".file-line-count").textContent, b.querySelector(".file-gutter").textContent,
		b.querySelector(".file-text").textContent.split("\n")[0], !!b.querySelector('[title="Reload file"] svg')].join("|")`,
		"TypeScript|true|4 lines|1\n2\n3\n4|export const answer = 42;|true")
	// ⊕ records the file as AX evidence.
	click(t, page, fmt.Sprintf(`[data-node-id=%q] .file-evidence`, file), 1)
	until(t, "the file evidence", func() bool {
		ev, _ := p.must(200, "GET", "/api/canvas/ax/timeline", nil).body["evidence"].([]any)
		for _, e := range ev {
			m := e.(map[string]any)
			if m["kind"] == "file" && m["title"] == "answer.ts" && strings.HasSuffix(fmt.Sprint(m["ref"]), "/answer.ts") {
				return true
			}
		}
		return false
	})

	shows(t, page, csv, "csv table", `[b.querySelector(".file-language").textContent,
		[...b.querySelectorAll(".file-table th")].map(c => c.textContent).join(","),
		[...b.querySelectorAll(".file-table tbody tr")].map(r => [...r.children].map(c => c.textContent).join(",")).join(";")].join("|")`,
		"CSV|name,score|ada,3;bob,5")
	shows(t, page, pdf, "pdf frame", `[b.querySelector(".file-language").textContent,
		(b.querySelector("iframe.file-pdf-frame")?.getAttribute("src") || "").startsWith("/api/canvas/file-bytes?path=")].join("|")`, "PDF|true")

	// image: the image, its natural size, the caption and the warning; the
	// wheel over it zooms the image, not the board.
	shows(t, page, image, "image", `[b.querySelector(".image-stage img").getAttribute("src").slice(0, 15), b.querySelector(".image-size")?.textContent,
		b.querySelector(".image-caption").textContent, b.querySelector(".node-banner.warn").textContent.trim()].join("|")`,
		"data:image/png;|1×1|One pixel|Captured from a login page")
	transform := js(t, page, `return document.querySelector(".canvas-viewport > div").style.transform`)
	ix, iy, _ := box(t, page, fmt.Sprintf(`[data-node-id=%q] .image-stage`, image))
	if err := page.Mouse.MoveTo(proto.Point{X: ix, Y: iy}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Scroll(0, -100, 1); err != nil {
		t.Fatal(err)
	}
	shows(t, page, image, "zoomed image", `b.querySelector(".image-zoom-reset")?.textContent.trim()`, "120%")
	if got := js(t, page, `return document.querySelector(".canvas-viewport > div").style.transform`); got != transform {
		t.Errorf("the wheel over the image moved the board: %s -> %s", transform, got)
	}
	// Zoomed, a drag pans the image (and neither moves the node nor the board).
	pos := func() string { return fmt.Sprint(p.must(200, "GET", "/api/canvas/node/"+image, nil).body["position"]) }
	imageAt := pos()
	drag(t, page, ix, iy, 30, 20)
	shows(t, page, image, "panned image", `b.querySelector(".image-stage img").style.transform`, "translate(30px, 20px) scale(1.2)")
	if got := js(t, page, `return document.querySelector(".canvas-viewport > div").style.transform`); got != transform || pos() != imageAt {
		t.Errorf("the pan moved the board or the node: %s, %s -> %s", got, imageAt, pos())
	}

	// webpage: host, title, status, description, excerpt, fetch time and
	// HTTP status; Refresh re-fetches the page (a click, through the server).
	shows(t, page, web, "webpage", fmt.Sprintf(`[b.querySelector(".webpage-title").textContent, b.querySelector(".webpage-status").textContent,
		b.querySelector(".webpage-description").textContent, b.querySelector(".webpage-excerpt").textContent.slice(0, 40),
		b.querySelector(".webpage-meta").textContent.includes("HTTP 200"), b.querySelector(".webpage-host").textContent === new URL(%q).host].join("|")`, pageURL),
		"Fixture Page v1|ready|A page served on loopback.|The renderer shows this paragraph as the|true|true")
	pageVersion.Store(2)
	click(t, page, fmt.Sprintf(`[data-node-id=%q] .webpage-refresh`, web), 1)
	shows(t, page, web, "refreshed webpage", `b.querySelector(".webpage-title").textContent`, "Fixture Page v2")

	// diff: the file with its counts, the hunk header, added and removed
	// lines coloured, with their line numbers.
	shows(t, page, diff, "diff", `[b.querySelector(".diff-path").textContent, b.querySelector(".diff-counts").textContent,
		b.querySelector(".diff-hunk-header").textContent,
		[...b.querySelectorAll(".diff-line")].map(l => l.className.replace("diff-line diff-", "") + ":" + l.querySelector(".diff-text").textContent).join(",")].join("|")`,
		"x.go|+1 −1|@@ -1,2 +1,2 @@|context:ctx,remove:old line,add:new line")
	if got := in(t, page, diff, `["add", "remove"].map(k => getComputedStyle(b.querySelector(".diff-" + k)).color).join(" ")`); got != "rgb(47, 208, 127) rgb(255, 106, 127)" {
		t.Errorf("diff line colours %q", got)
	}

	// context: token use, the cards with their chips, the references.
	shows(t, page, ctx, "context", `[b.querySelector(".context-usage-text").textContent,
		[...b.querySelectorAll(".context-card")].map(c => [c.querySelector(".context-card-title").textContent, c.querySelector(".context-card-summary").textContent,
			[...c.querySelectorAll(".chip")].map(x => x.textContent).join(",")].join("/")).join(";"),
		[...b.querySelectorAll(".context-refs li")].map(l => l.textContent).join()].join("|")`,
		"42% — 42.0k / 100.0k tokens · 7 messages|AGENTS.md/How agents work here./Loaded,Operator,Workspace,Required;Plan/Available in startup context./Missing,Product,Global|Spec draft")

	// mcp-app without an app: its text.
	shows(t, page, app, "app", `b.querySelector(".app-content")?.textContent`, "Placeholder until the app is opened.")

	// groups: the frame in the group's colour; the members counted by type,
	// or the empty hint.
	groupStyle := func(id string) string {
		return js(t, page, fmt.Sprintf(`const e = document.querySelector('[data-node-id=%q]'); const s = getComputedStyle(e);
			return s.borderTopColor + " " + s.borderTopStyle`, id))
	}
	if got := groupStyle(green); got != "rgb(34, 197, 94) dashed" {
		t.Errorf("green group frame %q", got)
	}
	shows(t, page, green, "empty group", `b.querySelector(".group-count").textContent + "|" + b.querySelector(".group-hint").textContent`,
		"0 nodes|Drag nodes here or use the selection bar to group nodes")
	if got := groupStyle(team); got != "rgb(75, 188, 255) dashed" {
		t.Errorf("default group frame %q", got)
	}
	shows(t, page, team, "group", `b.querySelector(".group-count").textContent + "|" + b.querySelector(".group-types").textContent`, "2 nodes|2 trace")
	p.must(200, "PATCH", "/api/canvas/node/"+team, `{"data":{"color":"#a855f7"}}`)
	until(t, "the new group colour", func() bool { return groupStyle(team) == "rgb(168, 85, 247) dashed" })

	// The group menu sets the colour (a swatch) and resets it to the theme's.
	groupColor := func() any {
		return p.must(200, "GET", "/api/canvas/node/"+green, nil).body["data"].(map[string]any)["color"]
	}
	gx, gy, _ := box(t, page, fmt.Sprintf(`[data-node-id=%q] .node-body`, green))
	rightClick(t, page, gx, gy)
	if got := menuItems(t, page); !strings.HasSuffix(got, "|-|Group color|Custom group color|Theme default color|Ungroup (0 nodes)|-|Close") {
		t.Fatalf("group menu %q", got)
	}
	click(t, page, `.context-menu [aria-label="Set group color to Red"]`, 1)
	// (The group is active now, after the right-click: its frame is solid.)
	until(t, "the red group", func() bool { return groupColor() == "#ef4444" && groupStyle(green) == "rgb(239, 68, 68) solid" })
	rightClick(t, page, gx, gy)
	clickMenuItem(t, page, "Theme default color")
	until(t, "the theme's group colour", func() bool { return groupColor() == nil && groupStyle(green) == "rgb(75, 188, 255) solid" })

	// No card is left without its renderer, and nothing went wrong.
	if got := js(t, page, `return [...document.querySelectorAll(".node-body")].filter(b => /Unknown node type|Empty node/.test(b.textContent)).map(b => b.parentElement.dataset.nodeType).join()`); got != "" {
		t.Errorf("cards without content: %s", got)
	}
	if got := problems(); len(got) > 0 {
		t.Errorf("browser problems: %v", got)
	}
}

// html surfaces and html primitives are sandboxed frames of GET
// /api/canvas/surface/:id, the viewer's nodes frames of the viewer page
// their surface names, and they draw their content — on a canvas other
// than the default one too (every frame is addressed to the page's canvas).
func TestWorkbenchRendersSurfaceFrames(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	const canvas = "?canvas=team"
	add := func(body string) string { return p.must(200, "POST", "/api/canvas/node"+canvas, body).str("id") }
	htmlID := add(`{"type":"html","title":"Surface","html":"<h1 id=\"hello\">Hello surface</h1><script>document.getElementById('hello').dataset.ran = 'yes'</script>","x":40,"y":40,"width":360,"height":240}`)
	prim := add(`{"type":"html","primitive":"choice-grid","title":"Pick a database","data":{"items":[{"title":"Postgres","summary":"Relational."},{"title":"SQLite","summary":"Embedded."}]},"x":440,"y":40,"width":420,"height":320}`)
	ui := p.must(200, "POST", "/api/canvas/json-render"+canvas, `{"title":"Build","x":40,"y":400,"width":360,"height":240,"spec":{"root":"card","elements":{"card":{"type":"Card","props":{"title":"Build"},"children":["badge"]},"badge":{"type":"Badge","props":{"text":"passing","variant":"success"},"children":[]}}}}`).str("id")
	graph := p.must(200, "POST", "/api/canvas/graph"+canvas, `{"graphType":"bar","title":"Build minutes","x":440,"y":400,"width":420,"height":300,"data":[{"day":"Mon","minutes":12},{"day":"Tue","minutes":9}],"xKey":"day","yKey":"minutes"}`).str("id")
	mermaid := add(`{"type":"mermaid","content":"flowchart LR\n  A[Plan] --> B[Ship]","x":900,"y":40,"width":360,"height":260}`)

	page := browsertest.Open(t, p.url+"/workbench"+canvas, 1400, 900)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node iframe").length)`) == "5"
	})
	frameOf := func(id string) (*rod.Element, string) {
		sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] iframe`, id)
		el := page.MustElement(sel)
		return el, js(t, page, fmt.Sprintf(`const f = document.querySelector(%q), u = new URL(f.src);
			return [f.getAttribute("sandbox"), u.pathname + (u.searchParams.get("nodeId") ? "?nodeId=" + u.searchParams.get("nodeId") : ""), u.searchParams.get("canvas")].join("|")`, sel))
	}
	// frameText waits until the frame's document body contains want.
	frameText := func(id, want string) {
		t.Helper()
		el, _ := frameOf(id)
		var got string
		if !within(20*time.Second, func() bool {
			f, err := el.Frame()
			if err != nil {
				return false
			}
			v, err := f.Eval(`() => document.body ? document.body.innerText : ""`)
			if err != nil {
				return false
			}
			got = v.Value.Str()
			return strings.Contains(got, want)
		}) {
			t.Fatalf("frame of %s: %q does not contain %q", id, got, want)
		}
	}

	const viewerSandbox = "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox"
	for _, c := range []struct{ id, want string }{
		{htmlID, "allow-scripts|/api/canvas/surface/" + htmlID},
		{prim, "allow-scripts|/api/canvas/surface/" + prim},
		{ui, viewerSandbox + "|/api/canvas/json-render/view?nodeId=" + ui},
		{graph, viewerSandbox + "|/api/canvas/json-render/view?nodeId=" + graph},
		{mermaid, viewerSandbox + "|/api/canvas/json-render/view?nodeId=" + mermaid},
	} {
		if _, got := frameOf(c.id); got != c.want+"|team" {
			t.Errorf("frame of %s: %q, want %q", c.id, got, c.want+"|team")
		}
	}
	// The html surface runs its script in an opaque origin.
	frameText(htmlID, "Hello surface")
	el, _ := frameOf(htmlID)
	f := el.MustFrame()
	if got := f.MustEval(`() => document.getElementById("hello").dataset.ran + " " + String(window.origin)`).Str(); got != "yes null" {
		t.Errorf("html surface script/origin: %q", got)
	}
	frameText(prim, "Postgres")
	frameText(ui, "passing")
	frameText(graph, "Build minutes")
	frameText(mermaid, "Plan")

	// The theme reaches an html surface and the viewer by message, without
	// a reload.
	gel, _ := frameOf(graph)
	g := gel.MustFrame()
	for _, fr := range []*rod.Page{f, g} {
		fr.MustEval(`() => { window.__kept = 1 }`)
	}
	click(t, page, `[aria-label="Switch to light theme"]`, 1)
	for name, fr := range map[string]*rod.Page{"surface": f, "viewer": g} {
		until(t, "the light theme in the "+name, func() bool {
			v, err := fr.Eval(`() => document.documentElement.getAttribute("data-theme") + " " + window.__kept`)
			return err == nil && v.Value.Str() == "light 1"
		})
	}

	// A frame grows to its content (and stores the size): an html surface
	// taller than its node. One the human resized keeps its size.
	tall := add(`{"type":"html","title":"Tall","html":"<div style=\"height:700px\">tall</div>","x":1300,"y":40,"width":300,"height":200}`)
	kept := add(`{"type":"html","title":"Kept","html":"<div style=\"height:700px\">kept</div>","x":1300,"y":300,"width":300,"height":200,"data":{"userResized":true}}`)
	height := func(id string) float64 {
		return p.must(200, "GET", "/api/canvas/node/"+id+canvas, nil).body["size"].(map[string]any)["height"].(float64)
	}
	until(t, "the tall surface to grow", func() bool { h := height(tall); return h >= 700+61 && h <= 720+61 })
	frameText(kept, "kept")
	time.Sleep(500 * time.Millisecond) // past the grow's settling time
	if h := height(kept); h != 200 {
		t.Errorf("a resized node grew to %v", h)
	}
}
