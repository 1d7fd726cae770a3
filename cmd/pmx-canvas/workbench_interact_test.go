package main

// The board's interactions (issue 17): snap guides while dragging
// (web-client.md §5.6), arrow keys walking the graph (§4.7), animated
// edges (§6.1), "Connect from here" (§6.2, §9.1), the node menu's
// type-specific items (§9.1), and what the reference's later releases
// fixed: closing status nodes, "Pin as context" apart from "Lock
// position", the mouse wheel zooming (§4.2), chrome and edges legible
// zoomed out (§4.5), and a fit to the real window. Real mouse, wheel and
// keys through go-rod; outcomes read from the DOM and the server.

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// waitCards waits for n cards on the board.
func waitCards(t *testing.T, page *rod.Page, n int) {
	t.Helper()
	until(t, fmt.Sprintf("%d cards", n), func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == fmt.Sprint(n)
	})
}

// worldMatrix is the world layer's transform: scale, x, y.
func worldMatrix(t *testing.T, page *rod.Page) (s, x, y float64) {
	t.Helper()
	v := js(t, page, `const m = new DOMMatrix(getComputedStyle(document.querySelector(".world")).transform); return m.a + "," + m.e + "," + m.f`)
	if _, err := fmt.Sscanf(v, "%g,%g,%g", &s, &x, &y); err != nil {
		t.Fatalf("world transform %q: %v", v, err)
	}
	return s, x, y
}

// serverView is the canvas's committed viewport.
func serverView(p *proc) (s, x, y float64) {
	v := p.state("")["viewport"].(map[string]any)
	return v["scale"].(float64), v["x"].(float64), v["y"].(float64)
}

func positionOf(p *proc, id string) (float64, float64) {
	n := p.must(200, "GET", "/api/canvas/node/"+id, nil).body["position"].(map[string]any)
	return n["x"].(float64), n["y"].(float64)
}

func activeCard(t *testing.T, page *rod.Page) string {
	t.Helper()
	return js(t, page, `return document.querySelector(".canvas-node.active")?.dataset.nodeId ?? ""`)
}

// edgesOf lists the canvas's edges as "from>to:type".
func edgesOf(p *proc) []string {
	var out []string
	es, _ := p.state("")["edges"].([]any)
	for _, e := range es {
		m := e.(map[string]any)
		out = append(out, fmt.Sprintf("%s>%s:%s", m["from"], m["to"], m["type"]))
	}
	return out
}

func press(t *testing.T, page *rod.Page, keys ...input.Key) {
	t.Helper()
	for _, k := range keys {
		if err := page.Keyboard.Type(k); err != nil {
			t.Fatal(err)
		}
	}
}

// openMenuOn right-clicks a card's body.
func openMenuOn(t *testing.T, page *rod.Page, id string) string {
	t.Helper()
	x, y, _ := box(t, page, cardSel(id)+" .node-body")
	rightClick(t, page, x, y)
	until(t, "the node menu", func() bool { return menuItems(t, page) != "" })
	return menuItems(t, page)
}

// A card dragged to within 8 px of another card's edge snaps onto it and
// a guide line shows along that edge while the button is down; on drop
// the guide goes and the server has the snapped position.
func TestWorkbenchSnapGuides(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"Anchor","x":100,"y":100,"width":300,"height":200}`)
	mover := p.addNode(`{"type":"markdown","title":"Mover","x":500,"y":420,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 2)
	if s, _, _ := worldMatrix(t, page); s != 1 {
		t.Fatalf("the board opened at scale %v, want 1", s)
	}

	// 395 px left: the left edge would be at 105, 5 px from the anchor's
	// left edge at 100.
	x, y, _ := box(t, page, cardSel(mover)+" .node-title")
	m := page.Mouse
	if err := m.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.MoveLinear(proto.Point{X: x - 395, Y: y}, 10); err != nil {
		t.Fatal(err)
	}
	until(t, "the guide at x=100", func() bool {
		return js(t, page, `return [...document.querySelectorAll(".snap-guide-line")].map(l => l.dataset.axis + l.dataset.at).join()`) == "x100"
	})
	if got := js(t, page, fmt.Sprintf(`return document.querySelector(%q).style.left`, cardSel(mover))); got != "100px" {
		t.Fatalf("the card is at left %s while snapped, want 100px", got)
	}
	if err := m.Up(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the guides to go", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".snap-guide-line").length)`) == "0"
	})
	until(t, "the snapped position on the server", func() bool { x, y := positionOf(p, mover); return x == 100 && y == 420 })

	// Far from every line it does not snap: 37 px down lands 37 px down.
	x, y, _ = box(t, page, cardSel(mover)+" .node-title")
	drag(t, page, x, y, 0, 37)
	until(t, "the unsnapped move", func() bool { x, y := positionOf(p, mover); return x == 100 && y == 457 })

	// A group does not snap to its own members (they move with it): a
	// step that brings its left edge to 4 px from its child's left edge
	// (where the child was) lands as dragged, the child moved with it.
	child := p.addNode(`{"type":"markdown","title":"Child","x":1400,"y":1400,"width":200,"height":120}`)
	group := p.must(200, "POST", "/api/canvas/group", map[string]any{"title": "Frame", "childIds": []string{child}}).str("id")
	gx, gy := positionOf(p, group)
	cx, cy := positionOf(p, child)
	step := cx - gx - 4
	if step < 20 {
		t.Fatalf("the group frame is %v px left of its child; the test needs more", cx-gx)
	}
	p.must(200, "POST", "/api/canvas/viewport", map[string]any{"x": 200 - gx, "y": 200 - gy, "scale": 1})
	until(t, "the view on the group", func() bool { s, x, _ := worldMatrix(t, page); return s == 1 && x == 200-gx })
	x, y, _ = box(t, page, cardSel(group)+" .node-title")
	drag(t, page, x, y, step, 0)
	until(t, "the group and its child moved as dragged", func() bool {
		nx, ny := positionOf(p, group)
		ncx, ncy := positionOf(p, child)
		return nx == gx+step && ny == gy && ncx == cx+step && ncy == cy
	})
	noProblems(t, problems)
}

// With a card active the arrow keys move to the connected card in that
// direction (the best dot/dist − 0.001·dist), falling back to any card
// when none is connected that way, and the view centres on it; not while
// a text field has the keys.
func TestWorkbenchArrowKeysWalkTheGraph(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	mid := p.addNode(`{"type":"markdown","title":"Middle","x":500,"y":300,"width":200,"height":100}`)
	right := p.addNode(`{"type":"markdown","title":"Right linked","x":900,"y":300,"width":200,"height":100}`)
	p.addNode(`{"type":"markdown","title":"Right near","x":740,"y":300,"width":120,"height":100}`)
	up := p.addNode(`{"type":"markdown","title":"Up linked","x":520,"y":0,"width":200,"height":100}`)
	down := p.addNode(`{"type":"markdown","title":"Down alone","x":500,"y":600,"width":200,"height":100}`)
	p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": mid, "to": right, "type": "relation"})
	p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": up, "to": mid, "type": "flow"})
	page, problems := openBoard(t, p)
	waitCards(t, page, 5)

	click(t, page, cardSel(mid)+" .node-body", 1)
	until(t, "Middle active", func() bool { return activeCard(t, page) == mid })
	// centred checks that the view has the card's centre (cx, cy) in the
	// middle of the 1280×800 viewport, on the server too.
	centred := func(what string, cx, cy float64) {
		t.Helper()
		until(t, "the view on "+what, func() bool {
			s, x, y := serverView(p)
			ws, wx, wy := worldMatrix(t, page)
			return math.Abs(640-cx*s-x) < 1 && math.Abs(400-cy*s-y) < 1 && math.Abs(ws-s) < 1e-6 && math.Abs(wx-x) < 1 && math.Abs(wy-y) < 1
		})
	}
	walkTo := func(key input.Key, want, what string, cx, cy float64) {
		t.Helper()
		press(t, page, key)
		until(t, what+" active", func() bool { return activeCard(t, page) == want })
		centred(what, cx, cy)
	}
	// Right: the linked card, not the nearer unlinked one.
	walkTo(input.ArrowRight, right, "Right linked", 1000, 350)
	walkTo(input.ArrowLeft, mid, "Middle", 600, 350)
	walkTo(input.ArrowUp, up, "Up linked", 620, 50)
	walkTo(input.ArrowDown, mid, "Middle", 600, 350)
	// Down: nothing linked that way, so the card below.
	walkTo(input.ArrowDown, down, "Down alone", 600, 650)

	// Typing in a title: the arrows move the caret, not the selection.
	click(t, page, cardSel(down)+" .node-title", 2)
	until(t, "the rename field", func() bool {
		return js(t, page, `return document.activeElement?.className ?? ""`) == "node-title-input"
	})
	press(t, page, input.ArrowUp, input.ArrowRight)
	if got := activeCard(t, page); got != down {
		t.Fatalf("an arrow in the title field moved the selection to %s", got)
	}
	press(t, page, input.Escape)
	noProblems(t, problems)
}

// An edge with animated:true draws a moving dash; other edges do not
// move, and with prefers-reduced-motion nothing moves.
func TestWorkbenchAnimatedEdges(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"A","x":100,"y":100,"width":200,"height":100}`)
	b := p.addNode(`{"type":"markdown","title":"B","x":500,"y":100,"width":200,"height":100}`)
	c := p.addNode(`{"type":"markdown","title":"C","x":100,"y":400,"width":200,"height":100}`)
	moving := p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": a, "to": b, "type": "flow", "animated": true}).str("id")
	still := p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": a, "to": c, "type": "relation"}).str("id")
	page, problems := openBoard(t, p)
	waitCards(t, page, 3)
	edge := func(id, expr string) string {
		return js(t, page, fmt.Sprintf(`const l = document.querySelector('.edge-layer line[data-edge-id=%q]'); if (!l) return ""; const cs = getComputedStyle(l); return String(%s)`, id, expr))
	}
	until(t, "the edges", func() bool { return edge(moving, "1") == "1" && edge(still, "1") == "1" })
	if got := edge(moving, `[l.classList.contains("animated"), cs.animationName, cs.strokeDasharray].join("|")`); got != "true|pmx-edge-flow|8px, 4px" {
		t.Fatalf("animated edge: %q", got)
	}
	if got := edge(still, `[l.classList.contains("animated"), cs.animationName, cs.strokeDasharray].join("|")`); got != "false|none|none" {
		t.Fatalf("still edge: %q", got)
	}
	// The dash moves: its offset changes from one reading to the next.
	first := edge(moving, "cs.strokeDashoffset")
	until(t, "the dash to move", func() bool { return edge(moving, "cs.strokeDashoffset") != first })

	if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}).Call(page); err != nil {
		t.Fatal(err)
	}
	until(t, "no motion with reduced motion", func() bool {
		return edge(moving, `[l.classList.contains("animated"), cs.animationName, cs.strokeDasharray].join("|")`) == "true|none|8px, 4px"
	})
	noProblems(t, problems)
}

// "Connect from here" arms a connection; the next click on another card
// creates a relation edge on the server; Esc gives it up; the other
// card's menu item "Connect from "<title>"" also completes it.
func TestWorkbenchConnectFromHere(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Source","x":100,"y":100,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Target","x":600,"y":100,"width":300,"height":200}`)
	c := p.addNode(`{"type":"markdown","title":"Third","x":100,"y":450,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 3)
	banner := func() string {
		return js(t, page, `return document.querySelector(".connect-banner")?.textContent ?? ""`)
	}

	if got := openMenuOn(t, page, a); !strings.Contains(got, "|Connect from here|0 edges connected|") {
		t.Fatalf("menu %q", got)
	}
	clickMenuItem(t, page, "Connect from here")
	until(t, "the banner", func() bool { return strings.HasPrefix(banner(), `Connecting from "Source"`) })
	click(t, page, cardSel(b)+" .node-body", 1)
	until(t, "the edge on the server", func() bool { e := edgesOf(p); return len(e) == 1 && e[0] == a+">"+b+":relation" })
	until(t, "the banner to go", func() bool { return banner() == "" })
	until(t, "the edge drawn", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".edge-layer line").length)`) == "1"
	})

	// Esc gives it up: a click on the third card then only selects it.
	openMenuOn(t, page, a)
	clickMenuItem(t, page, "Connect from here")
	until(t, "the banner", func() bool { return banner() != "" })
	press(t, page, input.Escape)
	until(t, "the banner to go after Esc", func() bool { return banner() == "" })
	click(t, page, cardSel(c)+" .node-body", 1)
	until(t, "Third active", func() bool { return activeCard(t, page) == c })
	if e := edgesOf(p); len(e) != 1 {
		t.Fatalf("edges after Esc: %v", e)
	}

	// From the menu: armed on Target, Third's menu offers the connection.
	openMenuOn(t, page, b)
	clickMenuItem(t, page, "Connect from here")
	until(t, "the banner", func() bool { return strings.HasPrefix(banner(), `Connecting from "Target"`) })
	if got := openMenuOn(t, page, c); !strings.Contains(got, `|Connect from "Target"|Connect from here (replace)|`) {
		t.Fatalf("armed menu %q", got)
	}
	clickMenuItem(t, page, `Connect from "Target"`)
	until(t, "the second edge", func() bool {
		e := edgesOf(p)
		return len(e) == 2 && (e[1] == b+">"+c+":relation" || e[0] == b+">"+c+":relation")
	})
	until(t, "the banner to go", func() bool { return banner() == "" })
	noProblems(t, problems)
}

// watchRequests records the page's requests ("METHOD path").
func watchRequests(t *testing.T, page *rod.Page) func() []string {
	t.Helper()
	if err := (proto.NetworkEnable{}).Call(page); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	go page.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		mu.Lock()
		got = append(got, e.Request.Method+" "+strings.SplitN(strings.TrimPrefix(e.Request.URL, "http://"), "/", 2)[1])
		mu.Unlock()
	})()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func seen(reqs []string, want string) bool {
	for _, r := range reqs {
		if r == "POST "+strings.TrimPrefix(want, "/") || strings.HasSuffix(r, want) {
			return true
		}
	}
	return false
}

// clipboard reads the page's clipboard.
func clipboard(t *testing.T, page *rod.Page) string {
	t.Helper()
	res, err := page.Eval(`async () => navigator.clipboard.readText()`)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.Str()
}

// openedTab clicks a menu item that opens a tab and returns the tab.
func openedTab(t *testing.T, page *rod.Page, label string) *rod.Page {
	t.Helper()
	before := map[proto.TargetTargetID]bool{}
	ps, err := page.Browser().Pages()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range ps {
		before[q.TargetID] = true
	}
	clickMenuItem(t, page, label)
	var tab *rod.Page
	until(t, "the new tab", func() bool {
		ps, err := page.Browser().Pages()
		if err != nil {
			return false
		}
		for _, q := range ps {
			if !before[q.TargetID] {
				tab = q
				return true
			}
		}
		return false
	})
	return tab
}

func tabURL(t *testing.T, tab *rod.Page) string {
	t.Helper()
	var u string
	until(t, "the tab's address", func() bool {
		info, err := tab.Info()
		if err == nil && info.URL != "" && info.URL != "about:blank" {
			u = info.URL
			return true
		}
		return false
	})
	return u
}

// A file node's menu: Open in browser (the artifact page of its file),
// Copy path, Refresh file (the server re-reads it).
func TestWorkbenchFileMenuItems(t *testing.T) {
	requireChromium(t)
	ws := t.TempDir()
	file := filepath.Join(ws, "notes.txt")
	if err := os.WriteFile(file, []byte("first version of the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, ws)
	id := p.addNode(`{"type":"file","content":"notes.txt","x":100,"y":100,"width":500,"height":300}`)
	path, _ := dataOf(p.must(200, "GET", "/api/canvas/node/"+id, nil).body)["path"].(string)
	if path == "" {
		t.Fatal("the file node has no data.path")
	}
	page, problems := openBoard(t, p)
	grantClipboard(t, page, p.url)
	reqs := watchRequests(t, page)
	waitCards(t, page, 1)

	if got := openMenuOn(t, page, id); !strings.HasSuffix(got, "|-|Open in browser|Copy path|Refresh file|-|Close") {
		t.Fatalf("file menu %q", got)
	}
	clickMenuItem(t, page, "Copy path")
	until(t, "the path on the clipboard", func() bool { return clipboard(t, page) == path })

	openMenuOn(t, page, id)
	tab := openedTab(t, page, "Open in browser")
	if u := tabURL(t, tab); !strings.Contains(u, "/artifact?path=") {
		t.Fatalf("opened %q", u)
	}
	until(t, "the file in the tab", func() bool {
		res, err := tab.Eval(`() => document.body ? document.body.innerText : ""`)
		return err == nil && strings.Contains(res.Value.Str(), "first version of the notes")
	})
	_ = tab.Close()

	openMenuOn(t, page, id)
	clickMenuItem(t, page, "Refresh file")
	until(t, "the refresh request", func() bool { return seen(reqs(), "/api/canvas/node/"+id+"/refresh") })

	// An image read from a file: Refresh image re-reads it (its new size).
	pic := filepath.Join(ws, "pic.png")
	if err := os.WriteFile(pic, sizedPNG(t, 3, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	img := p.addNode(`{"type":"image","content":"pic.png","x":700,"y":100,"width":300,"height":200}`)
	width := func() any { return dataOf(p.must(200, "GET", "/api/canvas/node/"+img, nil).body)["width"] }
	if w := width(); w != 3.0 {
		t.Fatalf("image width %v, want 3", w)
	}
	waitCards(t, page, 2)
	if got := openMenuOn(t, page, img); !strings.HasSuffix(got, "|-|Open in browser|Copy path|Refresh image|-|Close") {
		t.Fatalf("image menu %q", got)
	}
	if err := os.WriteFile(pic, sizedPNG(t, 8, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	clickMenuItem(t, page, "Refresh image")
	until(t, "the re-read image", func() bool { return width() == 8.0 })
	noProblems(t, problems)
}

func sizedPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A webpage node's menu: Refresh webpage (the server fetches it again),
// Open in browser (its address), Copy URL.
func TestWorkbenchWebpageMenuItems(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	url, version := pageFixture(t)
	id := p.must(200, "POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": url, "x": 100, "y": 100, "width": 520, "height": 400}).str("id")
	pageTitle := func() string {
		t, _ := dataOf(p.must(200, "GET", "/api/canvas/node/"+id, nil).body)["pageTitle"].(string)
		return t
	}
	until(t, "the first fetch", func() bool { return pageTitle() == "Fixture Page v1" })
	page, problems := openBoard(t, p)
	grantClipboard(t, page, p.url)
	waitCards(t, page, 1)

	if got := openMenuOn(t, page, id); !strings.HasSuffix(got, "|-|Refresh webpage|Open in browser|Copy URL|-|Close") {
		t.Fatalf("webpage menu %q", got)
	}
	version.Store(2)
	clickMenuItem(t, page, "Refresh webpage")
	until(t, "the refetched page", func() bool { return pageTitle() == "Fixture Page v2" })

	openMenuOn(t, page, id)
	clickMenuItem(t, page, "Copy URL")
	until(t, "the URL on the clipboard", func() bool { return clipboard(t, page) == url })

	openMenuOn(t, page, id)
	tab := openedTab(t, page, "Open in browser")
	if u := tabURL(t, tab); u != url {
		t.Fatalf("opened %q, want %q", u, url)
	}
	_ = tab.Close()
	noProblems(t, problems)
}

// A status node on the board closes like any card: its × and its menu's
// Close delete it on the server.
func TestWorkbenchCloseStatusNode(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	build := p.addNode(`{"type":"status","title":"Build","x":100,"y":100}`)
	deploy := p.addNode(`{"type":"status","title":"Deploy","x":600,"y":100}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 2)

	until(t, "the status card's close button", func() bool {
		return js(t, page, fmt.Sprintf(`return String(!!document.querySelector(%q))`, cardSel(build)+" .close-btn")) == "true"
	})
	click(t, page, cardSel(build)+" .close-btn", 1)
	until(t, "Build deleted", func() bool { return p.do("GET", "/api/canvas/node/"+build, nil).status == 404 })
	until(t, "Build's card gone", func() bool {
		return js(t, page, fmt.Sprintf(`return String(!!document.querySelector(%q))`, cardSel(build))) == "false"
	})
	if got := openMenuOn(t, page, deploy); !strings.HasSuffix(got, "|-|Close") {
		t.Fatalf("status menu %q", got)
	}
	clickMenuItem(t, page, "Close")
	until(t, "Deploy deleted", func() bool { return p.do("GET", "/api/canvas/node/"+deploy, nil).status == 404 })
	noProblems(t, problems)
}

// "Lock position" (the arrange lock, data.arrangeLocked) and "Pin as
// context" (the agent's context pins) are two items that change two
// things; a context pin does not read as a locked position (the wire's
// pinned is true for context-pinned nodes too).
func TestWorkbenchPinAndLockLabels(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	id := p.addNode(`{"type":"markdown","title":"Plan","x":100,"y":100,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 1)
	locked := func() bool {
		return dataOf(p.must(200, "GET", "/api/canvas/node/"+id, nil).body)["arrangeLocked"] == true
	}
	inContext := func() bool {
		ids, _ := p.must(200, "GET", "/api/canvas/pinned-context", nil).body["nodeIds"].([]any)
		return len(ids) == 1 && ids[0] == id
	}
	items := func() string {
		got := openMenuOn(t, page, id)
		parts := strings.Split(got, "|")
		return strings.Join(parts[3:5], "|")
	}
	card := func() string {
		return js(t, page, fmt.Sprintf(`const e = document.querySelector(%q); return [e.classList.contains("pinned"), e.classList.contains("context-pinned"), !!e.querySelector(".pin-indicator")].join()`, cardSel(id)))
	}
	if got := items(); got != "Lock position|Pin as context" {
		t.Fatalf("menu items %q", got)
	}
	if got := js(t, page, fmt.Sprintf(`return document.querySelector(%q).title`, cardSel(id)+" .ctx-pin-btn")); got != "Pin as context" {
		t.Fatalf("title-bar pin %q", got)
	}

	// Pin as context: in the agent's context, the position not locked.
	clickMenuItem(t, page, "Pin as context")
	until(t, "in context", inContext)
	until(t, "the context pin marker", func() bool { return card() == "false,true,false" })
	if locked() {
		t.Fatal("Pin as context locked the position")
	}
	if got := items(); got != "Lock position|Remove from context" {
		t.Fatalf("menu items when in context %q", got)
	}
	// The same after a reload, whose layout has pinned:true for the
	// context-pinned node (the reference's wire format).
	press(t, page, input.Escape)
	if err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	until(t, "the reloaded board", func() bool {
		return js(t, page, `return document.querySelector(".status-dot")?.getAttribute("aria-label") ?? ""`) == "Canvas status: connected"
	})
	waitCards(t, page, 1)
	if n := p.must(200, "GET", "/api/canvas/node/"+id, nil).body; n["pinned"] != true {
		t.Fatalf("the wire's pinned of a context-pinned node is %v (the test relies on true)", n["pinned"])
	}
	until(t, "the context pin marker after the reload", func() bool { return card() == "false,true,false" })
	if got := items(); got != "Lock position|Remove from context" {
		t.Fatalf("menu items when in context, after a reload %q", got)
	}

	// Lock position: locked, still in context.
	clickMenuItem(t, page, "Lock position")
	until(t, "locked", locked)
	until(t, "the lock marker", func() bool { return card() == "true,true,true" })
	if !inContext() {
		t.Fatal("Lock position took the node out of context")
	}
	if got := items(); got != "Unlock position|Remove from context" {
		t.Fatalf("menu items when locked and in context %q", got)
	}

	// Remove from context: still locked.
	clickMenuItem(t, page, "Remove from context")
	until(t, "out of context", func() bool { return !inContext() })
	until(t, "the lock marker alone", func() bool { return card() == "true,false,true" })
	if got := items(); got != "Unlock position|Pin as context" {
		t.Fatalf("menu items when locked %q", got)
	}
	clickMenuItem(t, page, "Unlock position")
	until(t, "unlocked", func() bool { return !locked() })
	until(t, "no markers", func() bool { return card() == "false,false,false" })
	if n := p.must(200, "GET", "/api/canvas/node/"+id, nil).body; n["pinned"] != false {
		t.Fatalf("unlocked node still pinned: %v", n["pinned"])
	}
	noProblems(t, problems)
}

// wheel sends one wheel event at (x, y).
func wheel(t *testing.T, page *rod.Page, x, y, dx, dy float64, modifiers int) {
	t.Helper()
	if err := (proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseWheel, X: x, Y: y, DeltaX: dx, DeltaY: dy, Modifiers: modifiers}).Call(page); err != nil {
		t.Fatal(err)
	}
}

// The mouse wheel zooms about the pointer (the point under it stays put);
// Ctrl+wheel (a trackpad pinch) zooms too; a trackpad's two-finger scroll
// (fractional, sideways steps) pans. Each is committed to the server.
func TestWorkbenchWheelZooms(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"A","x":100,"y":100,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 1)
	if err := page.Mouse.MoveTo(proto.Point{X: 700, Y: 500}); err != nil {
		t.Fatal(err)
	}
	s0, _, _ := worldMatrix(t, page)
	wx, wy := worldAt(t, page, 700, 500)

	// One notch up (100 px): ×1.2 about the pointer.
	wheel(t, page, 700, 500, 0, -100, 0)
	until(t, "the zoom in on the server", func() bool { s, _, _ := serverView(p); return math.Abs(s-s0*1.2) < 1e-6 })
	if nx, ny := worldAt(t, page, 700, 500); math.Abs(nx-wx) > 0.5 || math.Abs(ny-wy) > 0.5 {
		t.Fatalf("the point under the pointer moved from %v,%v to %v,%v", wx, wy, nx, ny)
	}
	// Ctrl + a small step (a pinch): zooms out a little.
	s1, _, _ := worldMatrix(t, page)
	wheel(t, page, 700, 500, 0, 10, 2)
	until(t, "the pinch zoom on the server", func() bool { s, _, _ := serverView(p); return math.Abs(s-s1*0.98) < 1e-6 })
	// A trackpad scroll pans by its deltas at the same scale.
	s2, x2, y2 := worldMatrix(t, page)
	wheel(t, page, 700, 500, 6, 12.5, 0)
	until(t, "the pan on the server", func() bool {
		s, x, y := serverView(p)
		return s == s2 && math.Abs(x-(x2-6)) < 1e-6 && math.Abs(y-(y2-12.5)) < 1e-6
	})
	noProblems(t, problems)
}

// Zoomed out to 40% the title bars and edges are counter-scaled: the
// title text is at least 10 px and the buttons at least 19 px on screen,
// an edge at least 1.4 px wide; at 100% they are their plain sizes.
func TestWorkbenchLegibleZoomedOut(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Far away","x":100,"y":100,"width":600,"height":400}`)
	b := p.addNode(`{"type":"markdown","title":"Other","x":1000,"y":100,"width":600,"height":400}`)
	edge := p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": a, "to": b, "type": "relation"}).str("id")
	page, problems := openBoard(t, p)
	waitCards(t, page, 2)
	measure := func() string {
		return js(t, page, fmt.Sprintf(`const s = new DOMMatrix(getComputedStyle(document.querySelector(".world")).transform).a;
			const title = document.querySelector('%s .node-title'), btn = document.querySelector('%s .close-btn');
			const line = document.querySelector('.edge-layer line[data-edge-id=%q]');
			if (!line) return "";
			return [s, parseFloat(getComputedStyle(title).fontSize) * s, btn.getBoundingClientRect().width,
				parseFloat(getComputedStyle(line).strokeWidth) * s].map(v => Math.round(v * 100) / 100).join("|")`, cardSel(a), cardSel(a), edge))
	}
	p.must(200, "POST", "/api/canvas/viewport", map[string]any{"x": 0, "y": 0, "scale": 1})
	until(t, "100%", func() bool { return measure() == "1|12|22|1.5" })

	p.must(200, "POST", "/api/canvas/viewport", map[string]any{"x": 0, "y": 0, "scale": 0.4})
	until(t, "40%", func() bool { return strings.HasPrefix(measure(), "0.4|") })
	// The chrome takes its size once the view rests (it scales with the
	// world while the view moves).
	var s, title, button, stroke float64
	legible := func() bool {
		if _, err := fmt.Sscanf(strings.ReplaceAll(measure(), "|", " "), "%g %g %g %g", &s, &title, &button, &stroke); err != nil {
			t.Fatal(err)
		}
		return title >= 10 && button >= 19 && stroke >= 1.4
	}
	if !within(3*time.Second, legible) {
		t.Fatalf("at 40%%: title %v px, button %v px, edge %v px on screen", title, button, stroke)
	}
	noProblems(t, problems)
}

// Fit fits the board into the viewport the window has now: after the
// window is resized, the same Fit gives the view of the new size.
func TestWorkbenchFitUsesTheWindow(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// The board's box: 0..2000 × 0..1000 (2120 × 1120 with the padding).
	p.addNode(`{"type":"markdown","title":"Top left","x":0,"y":0,"width":400,"height":300}`)
	p.addNode(`{"type":"markdown","title":"Bottom right","x":1600,"y":700,"width":400,"height":300}`)
	page, problems := openBoard(t, p)
	waitCards(t, page, 2)
	fitIs := func(w, h float64) func() bool {
		scale := math.Min(1, math.Min(w/2120, h/1120))
		return func() bool {
			s, x, y := serverView(p)
			return math.Abs(s-scale) < 1e-6 && math.Abs(x-(w/2-1000*scale)) < 0.01 && math.Abs(y-(h/2-500*scale)) < 0.01
		}
	}
	p.must(200, "POST", "/api/canvas/viewport", map[string]any{"x": 0, "y": 0, "scale": 1})
	until(t, "the reset view", func() bool { s, _, _ := worldMatrix(t, page); return s == 1 })
	click(t, page, `[data-action="fit"]`, 1)
	until(t, "the fit of 1280×800", fitIs(1280, 800))

	if err := page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 1600, Height: 700, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	until(t, "the resized window", func() bool {
		return js(t, page, `const v = document.querySelector(".canvas-viewport"); return v.clientWidth + "x" + v.clientHeight`) == "1600x700"
	})
	click(t, page, `[data-action="fit"]`, 1)
	until(t, "the fit of 1600×700", fitIs(1600, 700))
	noProblems(t, problems)
}
