package main

// Drag-and-drop and paste onto the board (web-client.md §17, §5.9), and
// the overlay's "Open as site" and "Present" with presentation mode (§13,
// §13.2), and the markdown note's inline editor (§5.10). OS drags are Chromium's own drag events (Input.dispatchDragEvent, with
// files from disk); pastes are Ctrl+V of what is on the clipboard; the
// nodes are checked on the server.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// osDrag sends one of Chromium's drag events at (x, y), as a drag from
// another application carrying files and typed items.
func osDrag(t *testing.T, page *rod.Page, typ proto.InputDispatchDragEventType, x, y float64, files []string, items map[string]string) {
	t.Helper()
	data := &proto.InputDragData{Files: files, DragOperationsMask: 1, Items: []*proto.InputDragDataItem{}}
	for mime, v := range items {
		data.Items = append(data.Items, &proto.InputDragDataItem{MIMEType: mime, Data: v})
	}
	if err := (proto.InputDispatchDragEvent{Type: typ, X: x, Y: y, Data: data}).Call(page); err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
}

// osDrop drags files and items into the page at (x, y) and drops them.
func osDrop(t *testing.T, page *rod.Page, x, y float64, files []string, items map[string]string) {
	t.Helper()
	osDrag(t, page, proto.InputDispatchDragEventTypeDragEnter, x, y, files, items)
	osDrag(t, page, proto.InputDispatchDragEventTypeDragOver, x, y, files, items)
	osDrag(t, page, proto.InputDispatchDragEventTypeDrop, x, y, files, items)
}

// boardNodes are the canvas's nodes of a type, from the server.
func boardNodes(p *proc, typ string) []map[string]any {
	var out []map[string]any
	for _, n := range nodesOf(p.state("")) {
		if n["type"] == typ {
			out = append(out, n)
		}
	}
	return out
}

func dataOf(n map[string]any) map[string]any { d, _ := n["data"].(map[string]any); return d }

// openBoard opens the workbench on an empty board (the two docked widgets).
func openBoard(t *testing.T, p *proc) (*rod.Page, func() []string) {
	t.Helper()
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	until(t, "the board", func() bool {
		return js(t, page, `return document.querySelector(".status-dot")?.getAttribute("aria-label") ?? ""`) == "Canvas status: connected"
	})
	return page, problems
}

// worldAt is the board point under the client point (x, y).
func worldAt(t *testing.T, page *rod.Page, x, y float64) (float64, float64) {
	t.Helper()
	var wx, wy float64
	s := js(t, page, fmt.Sprintf(`const v = document.querySelector(".canvas-viewport"), r = v.getBoundingClientRect();
		const m = new DOMMatrix(getComputedStyle(document.querySelector(".world")).transform);
		return ((%v - r.left - m.e) / m.a) + "," + ((%v - r.top - m.f) / m.d)`, x, y))
	if _, err := fmt.Sscanf(s, "%g,%g", &wx, &wy); err != nil {
		t.Fatalf("world point %q: %v", s, err)
	}
	return wx, wy
}

// centreOf is a node's centre from its stored geometry.
func centreOf(n map[string]any) (float64, float64) {
	pos, size := n["position"].(map[string]any), n["size"].(map[string]any)
	return pos["x"].(float64) + size["width"].(float64)/2, pos["y"].(float64) + size["height"].(float64)/2
}

func near(a, b float64) bool { return math.Abs(a-b) <= 2 }

// The drop zone shows while files or URLs are dragged over the board, and
// goes when the drag is given up (a drag that leaves the window may end
// without a leave event: a second without dragover ends it).
func TestWorkbenchDropZone(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	zone := func() string {
		return js(t, page, `const z = document.querySelector(".canvas-viewport .drop-zone-overlay");
			return z ? (z.hidden ? "hidden" : "shown:" + z.querySelector(".drop-zone-plus").textContent + " " + z.querySelector(".drop-zone-text").textContent) : "none"`)
	}
	if got := zone(); got != "hidden" {
		t.Fatalf("drop zone before a drag: %q", got)
	}
	items := map[string]string{"text/uri-list": "https://example.com/"}
	osDrag(t, page, proto.InputDispatchDragEventTypeDragEnter, 600, 400, nil, items)
	osDrag(t, page, proto.InputDispatchDragEventTypeDragOver, 600, 400, nil, items)
	until(t, "the drop zone", func() bool { return zone() == "shown:+ Drop files or URLs to add to canvas" })
	// Moving over the HUD inside the viewport keeps it (enter/leave are
	// counted, so crossing children does not flicker it).
	osDrag(t, page, proto.InputDispatchDragEventTypeDragOver, 640, 420, nil, items)
	if got := zone(); !strings.HasPrefix(got, "shown") {
		t.Fatalf("drop zone while moving: %q", got)
	}
	osDrag(t, page, proto.InputDispatchDragEventTypeDragCancel, 640, 420, nil, items)
	until(t, "the drop zone gone after the drag ends", func() bool { return zone() == "hidden" })
	if got := len(boardNodes(p, "webpage")); got != 0 {
		t.Fatalf("a cancelled drag created %d nodes", got)
	}
	noProblems(t, problems)
}

// A dropped source file becomes a file node holding its text (not a path
// on the server), named by the file, with its language, centred on the
// drop point; its lines show on the card.
func TestWorkbenchDropTextFile(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	src := filepath.Join(t.TempDir(), "main.go")
	code := "package main\n\nfunc main() { println(\"dropped/in\") }\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	wx, wy := worldAt(t, page, 500, 420)
	osDrop(t, page, 500, 420, []string{src}, nil)
	var n map[string]any
	until(t, "the file node on the server", func() bool {
		ns := boardNodes(p, "file")
		if len(ns) == 1 {
			n = ns[0]
		}
		return n != nil
	})
	d := dataOf(n)
	if d["title"] != "main.go" || d["fileContent"] != code || d["language"] != "go" || d["lineCount"] != 3.0 || d["missing"] != nil || d["path"] != nil {
		t.Fatalf("file node data %v", d)
	}
	if cx, cy := centreOf(n); !near(cx, wx) || !near(cy, wy) {
		t.Fatalf("file node centred at (%v, %v), dropped at (%v, %v)", cx, cy, wx, wy)
	}
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, n["id"])
	until(t, "the file's lines on the card", func() bool {
		return js(t, page, `const c = document.querySelector('`+sel+`'); return c ? c.querySelector(".file-language").textContent + "|" + c.querySelector(".file-text").textContent + "|" + c.querySelector(".file-line-count").textContent : ""`) ==
			"Go|"+strings.TrimSuffix(code, "\n")+"|3 lines"
	})
	noProblems(t, problems)
}

// A dropped markdown file becomes a markdown note with its text, drawn
// rendered; two files dropped together sit side by side.
func TestWorkbenchDropMarkdownFiles(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "notes.md"), filepath.Join(dir, "todo.txt")
	if err := os.WriteFile(a, []byte("# Dropped notes\n\nSome *text*.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("buy milk"), 0o644); err != nil {
		t.Fatal(err)
	}
	osDrop(t, page, 640, 400, []string{a, b}, nil)
	until(t, "both nodes", func() bool { return len(boardNodes(p, "markdown")) == 1 && len(boardNodes(p, "file")) == 1 })
	md, txt := boardNodes(p, "markdown")[0], boardNodes(p, "file")[0]
	if d := dataOf(md); d["title"] != "notes.md" || d["content"] != "# Dropped notes\n\nSome *text*.\n" {
		t.Fatalf("markdown node %v", d)
	}
	// A one-line text is the file's content, not a path the server looks up.
	if d := dataOf(txt); d["title"] != "todo.txt" || d["fileContent"] != "buy milk" || d["missing"] != nil {
		t.Fatalf("text file node %v", d)
	}
	mp, tp := md["position"].(map[string]any), txt["position"].(map[string]any)
	if mp["y"] != tp["y"] || tp["x"].(float64)-mp["x"].(float64) != 740 {
		t.Fatalf("the two nodes at %v and %v, want one row 720+20 apart", mp, tp)
	}
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, md["id"])
	until(t, "the rendered note", func() bool {
		return js(t, page, `return document.querySelector('`+sel+` .md-rendered h1')?.textContent ?? ""`) == "Dropped notes"
	})
	noProblems(t, problems)
}

// tinyPNG is a 3×2 PNG.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for x := 0; x < 3; x++ {
		for y := 0; y < 2; y++ {
			img.Set(x, y, color.RGBA{R: 200, G: uint8(40 * x), B: 90, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A dropped image becomes an image node of its bytes (a data URI) that the
// card draws.
func TestWorkbenchDropImage(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	file := filepath.Join(t.TempDir(), "dot.png")
	pngBytes := tinyPNG(t)
	if err := os.WriteFile(file, pngBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	osDrop(t, page, 400, 300, []string{file}, nil)
	until(t, "the image node", func() bool { return len(boardNodes(p, "image")) == 1 })
	n := boardNodes(p, "image")[0]
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes)
	if d := dataOf(n); d["title"] != "dot.png" || d["src"] != want {
		t.Fatalf("image node %v", d)
	}
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] img`, n["id"])
	until(t, "the drawn image", func() bool {
		return js(t, page, `const i = document.querySelector('`+sel+`'); return i && i.complete ? i.naturalWidth + "x" + i.naturalHeight : ""`) == "3x2"
	})
	noProblems(t, problems)
}

// pages is a loopback web server of titled pages.
func pages(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Page %s</title><meta name="description" content="About %s."></head><body><article><h1>Page %s</h1><p>The text of page %s, long enough to be the article of the page.</p></article></body></html>`, name, name, name, name)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Dropped URLs (a uri-list with a comment, and plain text naming the same
// page again) become one webpage node per page, fetched by the server.
func TestWorkbenchDropURLs(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	srv := pages(t)
	page, problems := openBoard(t, p)
	items := map[string]string{
		"text/uri-list": "# dragged links\r\n" + srv.URL + "/one\r\n" + srv.URL + "/two\r\n",
		"text/plain":    srv.URL + "/one\nnot a link\njavascript:alert(1)",
	}
	osDrop(t, page, 640, 400, nil, items)
	until(t, "two webpage nodes, fetched", func() bool {
		ns := boardNodes(p, "webpage")
		return len(ns) == 2 && dataOf(ns[0])["status"] != "fetching" && dataOf(ns[1])["status"] != "fetching"
	})
	time.Sleep(300 * time.Millisecond) // nothing more arrives
	ns := boardNodes(p, "webpage")
	if len(ns) != 2 {
		t.Fatalf("%d webpage nodes", len(ns))
	}
	titles := map[string]bool{}
	for _, n := range ns {
		d := dataOf(n)
		titles[fmt.Sprint(d["pageTitle"])] = true
		if d["status"] != "ready" {
			t.Fatalf("webpage node %v", d)
		}
		if s := n["size"].(map[string]any); s["width"] != 520.0 || s["height"] != 420.0 {
			t.Fatalf("webpage size %v", s)
		}
	}
	if !titles["Page one"] || !titles["Page two"] {
		t.Fatalf("webpage titles %v", titles)
	}
	until(t, "the pages' titles on their cards", func() bool {
		return js(t, page, `return [...document.querySelectorAll('.canvas-node[data-node-type="webpage"]')].map(c => c.textContent).join("|")`) != "" &&
			strings.Contains(js(t, page, `return [...document.querySelectorAll('.canvas-node[data-node-type="webpage"]')].map(c => c.textContent).join("|")`), "Page two")
	})
	noProblems(t, problems)
}

// grantClipboard lets the page write the clipboard (the test puts what is
// pasted there).
func grantClipboard(t *testing.T, page *rod.Page, origin string) {
	t.Helper()
	if err := (proto.BrowserGrantPermissions{Origin: origin, Permissions: []proto.BrowserPermissionType{
		proto.BrowserPermissionTypeClipboardReadWrite, proto.BrowserPermissionTypeClipboardSanitizedWrite}}).Call(page.Browser()); err != nil {
		t.Fatal(err)
	}
}

// Ctrl+V of a URL on the board makes a webpage node centred in the
// viewport; the same paste into a text field does not.
func TestWorkbenchPasteURL(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	srv := pages(t)
	page, problems := openBoard(t, p)
	grantClipboard(t, page, p.url)
	if _, err := page.Eval(`(u) => navigator.clipboard.writeText(u)`, srv.URL+"/pasted"); err != nil {
		t.Fatal(err)
	}
	// Into the rename box of a note: text, no node.
	note := p.addNode(`{"type":"markdown","title":"Note","x":40,"y":80,"width":300,"height":200}`)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, note)
	click(t, page, sel+" .node-title", 2)
	until(t, "the rename input", func() bool {
		return js(t, page, `return String(!!document.querySelector(".node-title-input"))`) == "true"
	})
	chord(t, page, input.KeyA)
	chord(t, page, input.KeyV)
	until(t, "the pasted text in the input", func() bool {
		return js(t, page, `return document.querySelector(".node-title-input")?.value ?? ""`) == srv.URL+"/pasted"
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if got := len(boardNodes(p, "webpage")); got != 0 {
		t.Fatalf("a paste into a text field made %d webpage nodes", got)
	}
	// On the board (focus on the page): a webpage node in the middle.
	if err := page.Mouse.MoveTo(proto.Point{X: 900, Y: 650}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	r := js(t, page, `const r = document.querySelector(".canvas-viewport").getBoundingClientRect(); return (r.left + r.width / 2) + "," + (r.top + r.height / 2)`)
	var vx, vy float64
	if _, err := fmt.Sscanf(r, "%g,%g", &vx, &vy); err != nil {
		t.Fatal(err)
	}
	cx, cy := worldAt(t, page, vx, vy)
	chord(t, page, input.KeyV)
	until(t, "the pasted page's node, fetched", func() bool {
		ns := boardNodes(p, "webpage")
		return len(ns) == 1 && dataOf(ns[0])["status"] != "fetching"
	})
	n := boardNodes(p, "webpage")[0]
	if d := dataOf(n); d["url"] != srv.URL+"/pasted" || d["pageTitle"] != "Page pasted" {
		t.Fatalf("pasted webpage %v", d)
	}
	if x, y := centreOf(n); !near(x, cx) || !near(y, cy) {
		t.Fatalf("pasted node centred at (%v, %v), viewport centre (%v, %v)", x, y, cx, cy)
	}
	noProblems(t, problems)
}

// Ctrl+V of a copied image on the board makes an image node of it.
func TestWorkbenchPasteImage(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	grantClipboard(t, page, p.url)
	b64 := base64.StdEncoding.EncodeToString(tinyPNG(t))
	if _, err := page.Eval(`async (b) => {
		const bytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
		await navigator.clipboard.write([new ClipboardItem({ "image/png": new Blob([bytes], { type: "image/png" }) })]);
	}`, b64); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.MoveTo(proto.Point{X: 900, Y: 650}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	chord(t, page, input.KeyV)
	until(t, "the pasted image's node", func() bool { return len(boardNodes(p, "image")) == 1 })
	n := boardNodes(p, "image")[0]
	if src, _ := dataOf(n)["src"].(string); !strings.HasPrefix(src, "data:image/png;base64,") {
		t.Fatalf("pasted image src %.60q", src)
	}
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] img`, n["id"])
	until(t, "the drawn image", func() bool {
		return js(t, page, `const i = document.querySelector('`+sel+`'); return i && i.complete ? i.naturalWidth + "x" + i.naturalHeight : ""`) == "3x2"
	})
	noProblems(t, problems)
}

// deckSlide is the deck's current slide number inside a frame.
func deckSlide(t *testing.T, f *rod.Page) string {
	t.Helper()
	res, err := f.Eval(`() => document.querySelector("[data-current]")?.textContent + "|" + document.documentElement.classList.contains("is-presenting")`)
	if err != nil {
		return ""
	}
	return res.Value.Str()
}

// A deck's overlay has Present (a plain html node's does not): it covers
// the window with the deck in presentation mode; the arrow keys move the
// slides, End and Home jump, Tab reaches the exit button, Esc leaves.
func TestWorkbenchPresentDeck(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	deck := p.must(200, "POST", "/api/canvas/node", `{"type":"html","primitive":"presentation","title":"Q3 review","x":40,"y":80,"width":480,"height":320,
		"data":{"slides":[{"title":"One"},{"title":"Two"},{"title":"Three"}]}}`).str("id")
	plain := p.addNode(`{"type":"html","title":"Plain","html":"<p>plain</p>","x":600,"y":80,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	until(t, "two frames", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node iframe").length)`) == "2"
	})

	click(t, page, fmt.Sprintf(`.canvas-node[data-node-id=%q] .expand-btn`, plain), 1)
	until(t, "the plain overlay", func() bool { return strings.HasPrefix(overlayState(t, page), plain+"|") })
	// Its buttons: no Present, no "Open in system browser" (× last).
	if got := js(t, page, `return [...document.querySelectorAll(".expanded-overlay-actions button")].map(b => b.textContent.trim() || b.getAttribute("aria-label")).join("|")`); got != "Pin as context|Copy|Open as site|Close (Esc)" {
		t.Fatalf("plain html overlay actions %q", got)
	}
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay closed", func() bool { return overlayState(t, page) == "" })

	click(t, page, fmt.Sprintf(`.canvas-node[data-node-id=%q] .expand-btn`, deck), 1)
	until(t, "the deck overlay", func() bool { return strings.HasPrefix(overlayState(t, page), deck+"|Q3 review|") })
	click(t, page, ".expanded-overlay-present", 1)
	until(t, "the presentation", func() bool {
		return js(t, page, `const d = document.querySelector(".html-presentation"), s = d?.querySelector(".html-presentation-stage"); if (!d) return "";
			const r = s.getBoundingClientRect();
			return [d.getAttribute("role"), d.getAttribute("aria-modal"), d.getAttribute("aria-label"), r.left, r.top, r.width === innerWidth, r.height === innerHeight].join("|")`) ==
			"dialog|true|Present Q3 review|0|0|true|true"
	})
	src := js(t, page, `return document.querySelector(".html-presentation-frame").src`)
	if !strings.Contains(src, "present=1") || !strings.Contains(src, "presentToken=") {
		t.Fatalf("presentation frame src %q", src)
	}
	frame := page.MustElement(".html-presentation-frame").MustFrame()
	until(t, "the deck presenting slide 1", func() bool { return deckSlide(t, frame) == "1|true" })
	// The exit button is there, invisible until focused.
	if got := js(t, page, `return getComputedStyle(document.querySelector(".html-presentation-exit")).opacity`); got != "0" {
		t.Fatalf("exit button opacity %q before focus", got)
	}
	for _, step := range []struct {
		key  input.Key
		want string
	}{{input.ArrowRight, "2"}, {input.ArrowRight, "3"}, {input.ArrowLeft, "2"}, {input.Home, "1"}, {input.End, "3"}} {
		if err := page.Keyboard.Type(step.key); err != nil {
			t.Fatal(err)
		}
		until(t, "slide "+step.want, func() bool { return deckSlide(t, frame) == step.want+"|true" })
	}
	if err := page.Keyboard.Type(input.Tab); err != nil {
		t.Fatal(err)
	}
	until(t, "the focused exit button", func() bool {
		return js(t, page, `const b = document.querySelector(".html-presentation-exit"); return document.activeElement === b ? getComputedStyle(b).opacity + "|" + b.textContent : ""`) == "1|Exit presentation"
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the presentation closed, the overlay still open", func() bool {
		return js(t, page, `return String(!!document.querySelector(".html-presentation"))`) == "false" && strings.HasPrefix(overlayState(t, page), deck+"|")
	})
	// The exit button closes it too.
	click(t, page, ".expanded-overlay-present", 1)
	until(t, "the presentation again", func() bool {
		return js(t, page, `return String(!!document.querySelector(".html-presentation"))`) == "true"
	})
	if err := page.Keyboard.Type(input.Tab); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the presentation closed by its button", func() bool {
		return js(t, page, `return String(!!document.querySelector(".html-presentation"))`) == "false"
	})
	noProblems(t, problems)
}

// "Open as site" (the overlay's and the card's ↗) opens the node's surface
// in a new tab, in the board's theme.
func TestWorkbenchOpenAsSite(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	id := p.addNode(`{"type":"html","title":"Site","html":"<h1 id=hello>Hello site</h1>","x":40,"y":80,"width":360,"height":240}`)
	note := p.addNode(`{"type":"markdown","title":"Note","content":"text","x":460,"y":80,"width":300,"height":200}`)
	p.must(200, "POST", "/api/canvas/theme", `{"theme":"light"}`)
	page, problems := openBoard(t, p)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id)
	until(t, "the card's Open as site", func() bool {
		return js(t, page, `return String(!!document.querySelector('`+sel+` .site-btn'))`) == "true"
	})
	if got := js(t, page, fmt.Sprintf(`return String(!!document.querySelector('.canvas-node[data-node-id=%q] .site-btn'))`, note)); got != "false" {
		t.Fatal("a markdown note has Open as site")
	}
	opened := func(clickIt func()) {
		t.Helper()
		wait := page.WaitOpen()
		clickIt()
		tab, err := wait()
		if err != nil {
			t.Fatal(err)
		}
		until(t, "the site's page", func() bool {
			res, err := tab.Eval(`() => document.documentElement.dataset.theme + "|" + (document.getElementById("hello")?.textContent ?? "")`)
			return err == nil && res.Value.Str() == "light|Hello site"
		})
		info, err := tab.Info()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(info.URL, "/api/canvas/surface/"+id) || !strings.Contains(info.URL, "theme=light") {
			t.Fatalf("site URL %q", info.URL)
		}
		// Back to the board (a page in the background draws nothing).
		if err := tab.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := page.Activate(); err != nil {
			t.Fatal(err)
		}
	}
	opened(func() { click(t, page, sel+" .site-btn", 1) })
	click(t, page, sel+" .expand-btn", 1)
	until(t, "the overlay", func() bool { return strings.HasPrefix(overlayState(t, page), id+"|") })
	opened(func() { click(t, page, ".expanded-overlay-site", 1) })
	noProblems(t, problems)
}

// markdownOf is a markdown node's content on the server.
func markdownOf(p *proc, id string) string {
	n := p.must(200, "GET", "/api/canvas/node/"+id, nil).body
	c, _ := dataOf(n)["content"].(string)
	return c
}

// placeCaretAtEnd clicks into the element and moves the caret to the end
// of its text with the keyboard.
func placeCaretAtEnd(t *testing.T, page *rod.Page, selector string) {
	t.Helper()
	click(t, page, selector, 1)
	chord(t, page, input.End)
}

// The expanded note is the editable document: typing with the keyboard and
// Ctrl+B change it, and it saves itself (no button) as Markdown.
func TestWorkbenchInlineMarkdownEdit(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	id := p.addNode(`{"type":"markdown","title":"Inline","content":"# Plan\n\nFirst step.\n\n- one\n- two","x":60,"y":80,"width":360,"height":240}`)
	page, problems := openBoard(t, p)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id)
	until(t, "the card", func() bool {
		return js(t, page, `return document.querySelector('`+sel+` .md-rendered h1')?.textContent ?? ""`) == "Plan"
	})
	click(t, page, sel+" .expand-btn", 1)
	until(t, "the editable document", func() bool {
		return js(t, page, `const e = document.querySelector(".expanded-overlay-body .md-reader-editable"); return e ? e.isContentEditable + "|" + e.getAttribute("aria-label") + "|" + (e.querySelector("li")?.textContent ?? "") : ""`) == "true|Document (editable)|one"
	})
	placeCaretAtEnd(t, page, ".expanded-overlay-body .md-reader-editable")
	// After "two": a new item, typed; then a bold word in it.
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	if err := page.InsertText("three "); err != nil {
		t.Fatal(err)
	}
	chord(t, page, input.KeyB)
	if err := page.Keyboard.Type(input.KeyN, input.KeyO, input.KeyW); err != nil {
		t.Fatal(err)
	}
	chord(t, page, input.KeyB)
	until(t, "the edit saved by itself", func() bool { return markdownOf(p, id) == "# Plan\n\nFirst step.\n\n- one\n- two\n- three **now**" })
	until(t, "the hint back to Esc", func() bool {
		return js(t, page, `return document.querySelector(".expanded-overlay-hint").textContent`) == "Esc to close"
	})
	// Keys typed in the document are the document's: "?" is text, not the
	// shortcut sheet.
	if err := page.Keyboard.Type(input.Key('?'), input.Slash); err != nil {
		t.Fatal(err)
	}
	chord(t, page, input.KeyS)
	if !within(5*time.Second, func() bool { return strings.HasSuffix(markdownOf(p, id), "**now**?/") }) {
		t.Fatalf("after Ctrl+S: %q", markdownOf(p, id))
	}
	if got := js(t, page, `return String(!!document.querySelector(".shortcut-overlay-backdrop"))`); got != "false" {
		t.Fatal("typing in the document opened the shortcut sheet")
	}
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the card shows the edit", func() bool {
		return js(t, page, `return [...document.querySelectorAll('`+sel+` .md-rendered li')].map(l => l.textContent).join(",")`) == "one,two,three now?/"
	})
	noProblems(t, problems)
}

// A note backed by a workspace file (data.path): the inline edit is saved
// to the file and to the node.
func TestWorkbenchInlineMarkdownSavesFile(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	file := filepath.Join(p.ws, "plan.md")
	if err := os.WriteFile(file, []byte("# Plan\n\nDraft.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := p.addNode(`{"type":"markdown","title":"plan.md","content":"# Plan\n\nDraft.\n","data":{"path":"plan.md"},"x":60,"y":80,"width":360,"height":240}`)
	page, problems := openBoard(t, p)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id)
	click(t, page, sel+" .expand-btn", 1)
	until(t, "the editable document", func() bool {
		return js(t, page, `return document.querySelector(".expanded-overlay-body .md-reader-editable p")?.textContent ?? ""`) == "Draft."
	})
	click(t, page, ".expanded-overlay-body .md-reader-editable p", 1)
	chord(t, page, input.End)
	if err := page.InsertText(" Reviewed by Ana."); err != nil {
		t.Fatal(err)
	}
	chord(t, page, input.KeyS)
	until(t, "the file on disk", func() bool {
		got, _ := os.ReadFile(file)
		return string(got) == "# Plan\n\nDraft. Reviewed by Ana."
	})
	until(t, "the node's content", func() bool { return markdownOf(p, id) == "# Plan\n\nDraft. Reviewed by Ana." })
	noProblems(t, problems)
}

// The inline editor's Markdown of the server's rendering of a document is
// the document: headings, emphasis, strikethrough, code, links, quotes,
// nested and ordered lists, fenced code, tables and rules survive an edit.
func TestWorkbenchInlineMarkdownRoundTrip(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	src := "# Title\n\nA *b* **c** ~~d~~ `e` [f](https://x.test/).\n\n> quote\n\n- one\n  - nested\n- two\n\n1. first\n2. second\n\n```go\nfunc main() {}\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n---\n\nLiteral \\*stars\\* and snake_case."
	rendered := p.must(200, "POST", "/api/render", map[string]any{"markdown": src}).str("html")
	res, err := page.Eval(`async (h) => { const m = await import("/workbench/md-inline.js"); const d = document.createElement("div"); d.innerHTML = h; return m.toMarkdown(d); }`, rendered)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value.Str(); got != src {
		t.Fatalf("round trip:\n%s\nwant:\n%s\n(html %s)", got, src, rendered)
	}
	noProblems(t, problems)
}
