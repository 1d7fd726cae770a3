package main

// The workbench page as a human uses it: go-rod drives Debian's Chromium
// with real mouse and keyboard input against the real server, and the test
// checks what reached the server.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// js evaluates a function body in the page and returns its value as a
// string (JSON for non-strings).
func js(t *testing.T, page *rod.Page, body string) string {
	t.Helper()
	res, err := page.Eval("() => { " + body + " }")
	if err != nil {
		t.Fatalf("eval %q: %v", body, err)
	}
	if res.Value.Nil() {
		return ""
	}
	if s, ok := res.Value.Val().(string); ok {
		return s
	}
	return res.Value.JSON("", "")
}

// within polls cond for up to d and reports whether it held.
func within(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// until polls cond until it holds or 10 s pass.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// box returns the centre of an element's box and its bounds. The page
// re-renders on every layout update, so an element found may be replaced
// before it is measured: look again, for up to 5 s.
func box(t *testing.T, page *rod.Page, selector string) (cx, cy float64, r proto.DOMRect) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		el, err := page.Element(selector)
		if err != nil {
			t.Fatalf("%s: %v", selector, err)
		}
		if shape, err := el.Shape(); err == nil {
			if b := shape.Box(); b != nil {
				return b.X + b.Width/2, b.Y + b.Height/2, *b
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has no box on the screen", selector)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func drag(t *testing.T, page *rod.Page, fromX, fromY, dx, dy float64) {
	t.Helper()
	m := page.Mouse
	if err := m.MoveTo(proto.Point{X: fromX, Y: fromY}); err != nil {
		t.Fatal(err)
	}
	if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.MoveLinear(proto.Point{X: fromX + dx, Y: fromY + dy}, 8); err != nil {
		t.Fatal(err)
	}
	if err := m.Up(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
}

func click(t *testing.T, page *rod.Page, selector string, count int) {
	t.Helper()
	// The HUD settles after the first layout (its counts text changes
	// width, which moves the buttons beside it): click where the element
	// is the one under the pointer, or a loaded machine clicks beside it.
	deadline := time.Now().Add(5 * time.Second)
	x, y, _ := box(t, page, selector)
	for js(t, page, fmt.Sprintf(`const e = document.elementFromPoint(%v, %v); return e && e.closest(%q) ? "hit" : ""`, x, y, selector)) != "hit" {
		if time.Now().After(deadline) {
			t.Fatalf("%s is not under the pointer at (%v, %v)", selector, x, y)
		}
		time.Sleep(50 * time.Millisecond)
		x, y, _ = box(t, page, selector)
	}
	if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, count); err != nil {
		t.Fatal(err)
	}
}

func TestWorkbenchByHand(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Drag me","content":"# Alpha","x":100,"y":120,"width":400,"height":300}`)
	b := p.addNode(`{"type":"markdown","title":"Close me","x":700,"y":120,"width":300,"height":200}`)
	node := func(id string) map[string]any { return p.must(200, "GET", "/api/canvas/node/"+id, nil).body }
	pos := func(id string) (float64, float64) {
		n := node(id)["position"].(map[string]any)
		return n["x"].(float64), n["y"].(float64)
	}

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	nodeSel := func(id string) string { return fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id) }
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "2"
	})
	// A canvas whose viewport was never set opens fitted to its content
	// (not zoomed in past 100%): the nodes' box 100..1000 x 120..420 is
	// centred in the 1280x800 page.
	if got := js(t, page, `return document.querySelector(".canvas-viewport > div").style.transform`); got != "matrix(1, 0, 0, 1, 90, 130)" {
		t.Fatalf("world transform %q", got)
	}
	if got := js(t, page, `return document.querySelector(".status-dot").getAttribute("aria-label")`); got != "Canvas status: connected" {
		t.Fatalf("status %q", got)
	}
	if got := js(t, page, `return document.querySelector(".counts").textContent`); got != "4 nodes" {
		t.Fatalf("counts %q", got)
	}

	// Drag by the title bar: the server gets the new position on release.
	x, y, _ := box(t, page, nodeSel(a)+" .node-title")
	drag(t, page, x, y, 150, 80)
	until(t, "the moved node on the server", func() bool { nx, ny := pos(a); return nx == 250 && ny == 200 })

	// Resize by the corner handle; the size and userResized are stored.
	hx, hy, _ := box(t, page, nodeSel(a)+" .node-resize-handle")
	drag(t, page, hx, hy, 100, 50)
	until(t, "the resized node", func() bool {
		n := node(a)
		s := n["size"].(map[string]any)
		d, _ := n["data"].(map[string]any)
		return s["width"] == 500.0 && s["height"] == 350.0 && d["userResized"] == true
	})

	// The context pin toggle (visible on hover) pins the node for agents.
	click(t, page, nodeSel(a)+" .ctx-pin-btn", 1)
	until(t, "the context pin", func() bool {
		return strings.Contains(string(p.must(200, "GET", "/api/canvas/pinned-context", nil).raw), "Drag me")
	})
	until(t, "the pin bar", func() bool {
		return js(t, page, `return document.querySelector(".context-pin-text").textContent`) == "1 node in context"
	})

	// Rename by double-clicking the title.
	click(t, page, nodeSel(a)+" .node-title", 2)
	until(t, "the rename input", func() bool {
		return js(t, page, `return String(!!document.querySelector(".node-title-input"))`) == "true"
	})
	if err := page.Keyboard.Press(input.ControlLeft); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.KeyA); err != nil {
		t.Fatal(err)
	}
	_ = page.Keyboard.Release(input.ControlLeft)
	if err := page.InsertText("Renamed"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the new title", func() bool { return node(a)["title"] == "Renamed" })

	// Collapse, then close another node.
	click(t, page, nodeSel(a)+" .collapse-btn", 1)
	until(t, "the collapsed node", func() bool { return node(a)["collapsed"] == true })
	click(t, page, nodeSel(b)+" .close-btn", 1)
	until(t, "the closed node", func() bool { return p.do("GET", "/api/canvas/node/"+b, nil).status == 404 })

	// The theme toggle changes the canvas's theme for everyone.
	click(t, page, `[aria-label="Switch to light theme"]`, 1)
	until(t, "the light theme", func() bool { return p.must(200, "GET", "/api/canvas/theme", nil).str("theme") == "light" })

	// Zoom in (×1.25) and a trackpad pan (a wheel step under 50 px; a mouse
	// wheel's notch zooms) are committed as the canvas viewport.
	click(t, page, `[aria-label="Zoom in"]`, 1)
	until(t, "the zoom", func() bool {
		v := p.state("")["viewport"].(map[string]any)
		return v["scale"] == 1.25
	})
	y0 := p.state("")["viewport"].(map[string]any)["y"].(float64)
	if err := page.Mouse.MoveTo(proto.Point{X: 640, Y: 700}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Scroll(0, 40, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the wheel pan", func() bool {
		v := p.state("")["viewport"].(map[string]any)
		return v["y"] == y0-40 && v["scale"] == 1.25
	})

	// Double-click on empty board creates a note there.
	if err := page.Mouse.MoveTo(proto.Point{X: 1100, Y: 650}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 2); err != nil {
		t.Fatal(err)
	}
	until(t, "the new note", func() bool {
		for _, n := range nodesOf(p.state("")) {
			if n["title"] == "New note" {
				return true
			}
		}
		return false
	})
}

// An empty board shows the welcome card.
func TestWorkbenchWelcome(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page := browsertest.Open(t, p.url+"/workbench?canvas=empty", 1024, 700)
	until(t, "the welcome card", func() bool {
		return js(t, page, `const w = document.querySelector(".welcome-card"); return w && !w.hidden ? w.querySelector("strong").textContent : ""`) == "Shape What The Agent Sees"
	})
}

// With --token the page authorises its writes with the token it was
// opened with, on the canvas it was opened for.
func TestWorkbenchWithTokenWrites(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "", "--token", "s3cret-0123456789abcdef")
	auth := []string{"Authorization", "Bearer s3cret-0123456789abcdef"}
	id := p.must(200, "POST", "/api/canvas/node?canvas=team", `{"type":"markdown","title":"Pin me","x":100,"y":120}`, auth...).str("id")
	page := browsertest.Open(t, p.url+"/workbench?canvas=team&token=s3cret-0123456789abcdef", 1280, 800)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] .ctx-pin-btn`, id)
	until(t, "the node", func() bool {
		return js(t, page, fmt.Sprintf(`return String(!!document.querySelector(%q))`, sel)) == "true"
	})
	click(t, page, sel, 1)
	until(t, "the pin on the team canvas", func() bool {
		return strings.Contains(string(p.must(200, "GET", "/api/canvas/pinned-context?canvas=team", nil, auth...).raw), "Pin me")
	})
	if strings.Contains(string(p.must(200, "GET", "/api/canvas/pinned-context", nil, auth...).raw), "Pin me") {
		t.Fatal("the pin landed on the main canvas")
	}
}

// chord presses key with Ctrl held.
func chord(t *testing.T, page *rod.Page, key input.Key) {
	t.Helper()
	if err := page.Keyboard.Press(input.ControlLeft); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = page.Keyboard.Release(input.ControlLeft) }()
	if err := page.Keyboard.Type(key); err != nil {
		t.Fatal(err)
	}
}

func rightClick(t *testing.T, page *rod.Page, x, y float64) {
	t.Helper()
	if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonRight, 1); err != nil {
		t.Fatal(err)
	}
}

// menuItems lists the open context menu's items ("-" for separators).
func menuItems(t *testing.T, page *rod.Page) string {
	t.Helper()
	return js(t, page, `const m = document.querySelector(".context-menu"); if (!m) return "";
		return [...m.children].map(c => c.classList.contains("context-menu-separator") ? "-" : c.textContent).join("|")`)
}

func clickMenuItem(t *testing.T, page *rod.Page, label string) {
	t.Helper()
	js(t, page, fmt.Sprintf(`const b = [...document.querySelectorAll(".context-menu-item")].find(b => b.textContent === %q);
		b.setAttribute("data-test-target", "1"); return ""`, label))
	click(t, page, `[data-test-target="1"]`, 1)
}

func TestWorkbenchPaletteMenusAndKeys(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	alpha := p.addNode(`{"type":"markdown","title":"Alpha notes","x":100,"y":120,"width":300,"height":200}`)
	p.addNode(`{"type":"markdown","title":"Beta plan","x":700,"y":120,"width":300,"height":200}`)
	build := p.addNode(`{"type":"status","title":"Build","x":100,"y":500}`)
	view := func() map[string]any { return p.state("")["viewport"].(map[string]any) }
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "3"
	})

	// Ctrl+K, type, Enter: the match glows, the rest dims, and the view
	// centres on the chosen node (its centre 850,220 in a 1280×800 page).
	chord(t, page, input.KeyK)
	until(t, "the palette", func() bool {
		return js(t, page, `return String(document.activeElement.className)`) == "command-palette-input"
	})
	if err := page.InsertText("beta"); err != nil {
		t.Fatal(err)
	}
	until(t, "the highlight", func() bool {
		return strings.Contains(js(t, page, fmt.Sprintf(`return document.querySelector('[data-node-id=%q]').className`, alpha)), "search-dimmed") &&
			js(t, page, `return String(document.querySelectorAll(".canvas-node.search-match").length)`) == "1"
	})
	if got := js(t, page, `return document.querySelector(".command-palette-item .command-palette-label").textContent`); got != "Beta plan" {
		t.Fatalf("first result %q", got)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the focus on Beta", func() bool { v := view(); return v["x"] == -210.0 && v["y"] == 180.0 && v["scale"] == 1.0 })
	if got := js(t, page, `return String(!!document.querySelector(".command-palette-backdrop") || !!document.querySelector(".search-dimmed"))`); got != "false" {
		t.Fatal("the palette or its highlight stayed")
	}

	// Ctrl+0 resets the view. Under a loaded CI machine headless Chromium
	// has once lost this chord (the view never moved in 10 s), so a second
	// press is allowed; two lost presses still fail.
	reset := func() bool { v := view(); return v["x"] == 0.0 && v["y"] == 0.0 }
	chord(t, page, input.Digit0)
	if !within(3*time.Second, reset) {
		t.Log("Ctrl+0 not seen within 3 s; pressing it again")
		chord(t, page, input.Digit0)
	}
	until(t, "the reset view", reset)

	// The node menu: its items, and "Lock position" (arrange-lock).
	x, y, _ := box(t, page, fmt.Sprintf(`[data-node-id=%q] .node-body`, alpha))
	rightClick(t, page, x, y)
	if got := menuItems(t, page); got != "Focus|Expand ⤢|Collapse|Lock position|Pin as context|Connect from here|0 edges connected|-|Close" {
		t.Fatalf("node menu %q", got)
	}
	clickMenuItem(t, page, "Lock position")
	until(t, "the locked node", func() bool {
		return dataOf(p.must(200, "GET", "/api/canvas/node/"+alpha, nil).body)["arrangeLocked"] == true
	})

	// A status node can be docked from its menu.
	x, y, _ = box(t, page, fmt.Sprintf(`[data-node-id=%q] .node-body`, build))
	rightClick(t, page, x, y)
	if got := menuItems(t, page); !strings.HasSuffix(got, "|-|Dock left of toolbar|Dock right of toolbar|-|Close") {
		t.Fatalf("status menu %q", got)
	}
	clickMenuItem(t, page, "Dock left of toolbar")
	until(t, "the docked node", func() bool { return p.must(200, "GET", "/api/canvas/node/"+build, nil).body["dockPosition"] == "left" })

	// The board menu creates a group where it was opened; Escape closes a menu.
	rightClick(t, page, 900, 600)
	if got := menuItems(t, page); got != "New note|-|New group" {
		t.Fatalf("board menu %q", got)
	}
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the menu to close", func() bool { return menuItems(t, page) == "" })
	rightClick(t, page, 900, 600)
	clickMenuItem(t, page, "New group")
	until(t, "the new group", func() bool {
		for _, n := range nodesOf(p.state("")) {
			if n["type"] == "group" && n["position"].(map[string]any)["x"] == 900.0 {
				return true
			}
		}
		return false
	})

	// Tab to the board (one Tab stop past the toolbars), then Tab makes
	// the first board node active.
	tabToFirstNode(t, page)
	until(t, "an active node", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node.active").length)`) == "1"
	})
}

// withShift runs f with Shift held.
func withShift(t *testing.T, page *rod.Page, f func()) {
	t.Helper()
	if err := page.Keyboard.Press(input.ShiftLeft); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = page.Keyboard.Release(input.ShiftLeft) }()
	f()
}

func TestWorkbenchEdgesSelectionAndInk(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"A","x":100,"y":120,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"B","x":600,"y":120,"width":300,"height":200}`)
	c := p.addNode(`{"type":"markdown","title":"C","x":100,"y":450,"width":300,"height":200}`)
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "3"
	})
	sel := func(id, inner string) string { return fmt.Sprintf(`[data-node-id=%q] %s`, id, inner) }
	edges := func() []any { e, _ := p.state("")["edges"].([]any); return e }

	// Drag from A's right port onto B: a relation edge.
	x, y, _ := box(t, page, sel(a, ".node-body"))
	if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil { // hover shows the ports
		t.Fatal(err)
	}
	// The ports grow in over 0.12 s (scale 0 to 1); a press before that
	// misses the port and lands on the node.
	until(t, "the ports shown", func() bool {
		return js(t, page, `return getComputedStyle(document.querySelector('`+sel(a, ".node-port-right")+`')).transform`) == "matrix(1, 0, 0, 1, 0, 0)"
	})
	px, py, _ := box(t, page, sel(a, ".node-port-right"))
	bx, by, _ := box(t, page, sel(b, ".node-body"))
	drag(t, page, px, py, bx-px, by-py)
	until(t, "the new edge", func() bool {
		e := edges()
		return len(e) == 1 && e[0].(map[string]any)["from"] == a && e[0].(map[string]any)["to"] == b &&
			e[0].(map[string]any)["type"] == "relation"
	})
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow","label":"next"}`, b, c))
	until(t, "both edges drawn", func() bool {
		return js(t, page, `return [...document.querySelectorAll(".edge-layer line")].map(l => l.classList[1] + ":" + (l.getAttribute("marker-end") || "-")).join()`) ==
			"edge-relation:-,edge-flow:url(#edge-arrow)"
	})
	if got := js(t, page, `return document.querySelector(".edge-layer .edge-label").textContent`); got != "next" {
		t.Fatalf("edge label %q", got)
	}

	// Shift+click two bodies, then Group.
	withShift(t, page, func() {
		click(t, page, sel(a, ".node-body"), 1)
		click(t, page, sel(b, ".node-body"), 1)
	})
	until(t, "the selection bar", func() bool {
		return js(t, page, `return document.querySelector(".selection-bar").hidden ? "" : document.querySelector(".selection-text").textContent`) == "2 nodes selected"
	})
	click(t, page, `.selection-bar [data-sel="group"]`, 1)
	until(t, "the group", func() bool {
		for _, n := range nodesOf(p.state("")) {
			if n["type"] == "group" {
				kids := fmt.Sprint(n["data"].(map[string]any)["children"])
				return strings.Contains(kids, a) && strings.Contains(kids, b)
			}
		}
		return false
	})

	// Shift+drag a lasso around C, then pin the selection as context.
	_, _, cr := box(t, page, sel(c, ".node-body"))
	withShift(t, page, func() { drag(t, page, cr.X-20, cr.Y-60, cr.Width+40, cr.Height+80) })
	until(t, "the lasso selection", func() bool {
		return js(t, page, `return [...document.querySelectorAll(".canvas-node.selected")].map(n => n.dataset.nodeId).join()`) == c
	})
	click(t, page, `.selection-bar [data-sel="pin"]`, 1)
	until(t, "C in context", func() bool {
		return strings.Contains(string(p.must(200, "GET", "/api/canvas/pinned-context", nil).raw), c)
	})

	// Ink: a pen stroke, a text note, then the eraser removes the stroke.
	annotations := func() []any { v, _ := p.state("")["annotations"].([]any); return v }
	click(t, page, `[aria-label="Annotate canvas"]`, 1)
	if got := js(t, page, `return document.querySelector('[aria-label="Stop annotating"]').getAttribute("aria-pressed")`); got != "true" {
		t.Fatalf("pen pressed %q", got)
	}
	drag(t, page, 700, 500, 200, 60)
	until(t, "the stroke", func() bool { return len(annotations()) == 1 })
	click(t, page, `[aria-label="Text annotations"]`, 1)
	if err := page.Mouse.MoveTo(proto.Point{X: 800, Y: 700}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the text input", func() bool {
		return js(t, page, `return String(document.activeElement.className)`) == "annotation-text-input"
	})
	if err := page.InsertText("look here"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the text note", func() bool {
		for _, an := range annotations() {
			if an.(map[string]any)["text"] == "look here" {
				return true
			}
		}
		return false
	})
	click(t, page, `[aria-label="Erase annotations"]`, 1)
	if err := page.Mouse.MoveTo(proto.Point{X: 800, Y: 530}); err != nil { // on the stroke's middle
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the erased stroke", func() bool {
		v := annotations()
		return len(v) == 1 && v[0].(map[string]any)["type"] == "text"
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the tool off", func() bool {
		return js(t, page, `return String(document.querySelector(".annotation-capture-layer").hidden)`) == "true"
	})
}

func TestWorkbenchSnapshotsMinimapAndShortcuts(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Keep me here","x":100,"y":120,"width":300,"height":200}`)
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "1"
	})
	snapshots := func() []any {
		var list []any
		_ = jsonUnmarshal(string(p.must(200, "GET", "/api/canvas/snapshots?all=true", nil).raw), &list)
		return list
	}

	// Save a snapshot from the panel, move the node away, restore it.
	click(t, page, `[aria-label="Snapshots"]`, 1)
	until(t, "the snapshot name field", func() bool { return js(t, page, `return String(document.activeElement.className)`) == "snapshot-name" })
	if err := page.InsertText("before"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the saved snapshot", func() bool { s := snapshots(); return len(s) == 1 && s[0].(map[string]any)["name"] == "before" })
	until(t, "the listed snapshot", func() bool {
		return js(t, page, `return document.querySelector(".snapshot-row-name")?.textContent || ""`) == "before"
	})
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"position":{"x":900,"y":500}}`)
	click(t, page, ".snapshot-restore", 1)
	click(t, page, ".snapshot-confirm", 1)
	until(t, "the restored position", func() bool {
		pos := p.must(200, "GET", "/api/canvas/node/"+a, nil).body["position"].(map[string]any)
		return pos["x"] == 100.0 && pos["y"] == 120.0
	})
	until(t, "the panel to close", func() bool {
		return js(t, page, `return String(!!document.querySelector(".snapshot-panel"))`) == "false"
	})
	click(t, page, `[aria-label="Snapshots"]`, 1)
	until(t, "the list", func() bool {
		return js(t, page, `return String(!!document.querySelector(".snapshot-delete"))`) == "true"
	})
	click(t, page, ".snapshot-delete", 1)
	click(t, page, ".snapshot-confirm", 1)
	until(t, "the deleted snapshot", func() bool { return len(snapshots()) == 0 })
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}

	// The minimap: a click centres the view on that point of the board.
	until(t, "the minimap", func() bool { return js(t, page, `return String(!document.querySelector(".minimap").hidden)`) == "true" })
	_, _, mr := box(t, page, ".minimap")
	if err := page.Mouse.MoveTo(proto.Point{X: mr.X + mr.Width - 10, Y: mr.Y + mr.Height - 10}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the view to move", func() bool {
		v := p.state("")["viewport"].(map[string]any)
		return v["x"].(float64) < 0 && v["y"].(float64) < 0
	})
	click(t, page, `[aria-label="Hide minimap"]`, 1)
	if got := js(t, page, `return String(document.querySelector(".minimap").hidden) + " " + String(!!document.querySelector('[aria-label="Show minimap"]'))`); got != "true true" {
		t.Fatalf("minimap toggle %q", got)
	}

	// "?" opens the shortcut overlay, Esc closes it.
	if err := page.Keyboard.Type(input.Key('?')); err != nil {
		t.Fatal(err)
	}
	until(t, "the shortcut overlay", func() bool {
		return js(t, page, `return document.querySelector(".shortcut-overlay strong")?.textContent || ""`) == "Keyboard Shortcuts"
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay to close", func() bool {
		return js(t, page, `return String(!!document.querySelector(".shortcut-overlay"))`) == "false"
	})

	// Arrange lays the board out on the server.
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"position":{"x":3000,"y":3000}}`)
	click(t, page, `[aria-label="Arrange layout"]`, 1)
	until(t, "the arranged node", func() bool {
		return p.must(200, "GET", "/api/canvas/node/"+a, nil).body["position"].(map[string]any)["x"] != 3000.0
	})
}

// Stored content cannot reach the page: markup in markdown is sanitised,
// links are http(s) only, and an html node's scripts run in its surface's
// sandbox (allow-scripts without allow-same-origin: an opaque origin, so
// its parent.__pwned = 3 cannot touch the workbench).
func TestWorkbenchEscapesContent(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	md := p.addNode(`{"type":"markdown","title":"Evil","x":100,"y":120,"content":"<img src=x onerror=\"window.__pwned=1\"> [x](javascript:window.__pwned=2) [ok](https://example.com)"}`)
	p.addNode(`{"type":"html","title":"Surface","x":800,"y":120,"html":"<script>parent.__pwned=3</script><p>hi</p>"}`)
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "2"
	})
	// The surface has loaded (its script ran before its paragraph), and
	// any injected handler has had its chance.
	until(t, "the html surface", func() bool {
		f, err := page.MustElement("iframe").Frame()
		if err != nil {
			return false
		}
		v, err := f.Eval(`() => document.body ? document.body.innerText : ""`)
		return err == nil && strings.Contains(v.Value.Str(), "hi")
	})
	time.Sleep(300 * time.Millisecond)
	// Markdown is rendered and sanitised on the server: the image stays,
	// without its handler; the javascript: link loses its href.
	got := js(t, page, fmt.Sprintf(`const b = document.querySelector('[data-node-id=%q] .node-body');
		return [String(window.__pwned), [...b.querySelectorAll("img")].filter(i => i.getAttribute("onerror")).length,
			[...b.querySelectorAll("a[href]")].map(a => a.href).join(),
			document.querySelector("iframe").getAttribute("sandbox"), b.querySelector(".md-pending") ? "pending" : "rendered"].join("|")`, md))
	if got != "undefined|0|https://example.com/|allow-scripts|rendered" {
		t.Fatalf("escaping: %s", got)
	}
}

// The workbench runs under the Content-Security-Policy the server sends:
// loading it and drawing every node type breaks none of its directives.
func TestWorkbenchRunsUnderItsContentSecurityPolicy(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	for _, body := range []string{
		`{"type":"markdown","title":"M","content":"# Title\n\n**bold** <b style=\"color:red\">x</b>"}`,
		`{"type":"image","content":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}`,
		`{"type":"html","html":"<p style=\"color:red\">x</p>"}`,
		`{"type":"webpage","url":"http://127.0.0.1:9/"}`,
		`{"type":"status","title":"S","content":"ok"}`,
	} {
		p.must(200, "POST", "/api/canvas/node", body)
	}
	page := browsertest.Open(t, "about:blank", 1280, 800)
	if _, err := page.EvalOnNewDocument(`window.__cspViolations = []; document.addEventListener("securitypolicyviolation", e => window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI));`); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(p.url + "/workbench"); err != nil {
		t.Fatal(err)
	}
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "5"
	})
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Live","content":"drawn after load"}`)
	until(t, "the live node", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "6"
	})
	if got := js(t, page, `return JSON.stringify(window.__cspViolations)`); got != "[]" {
		t.Fatalf("CSP violations: %s", got)
	}
}

// TestWorkbenchFirstLoad: the board shows what it holds. A canvas whose
// viewport was never set opens fitted to its nodes (auto-placed ones start
// in view; one far away is brought in by zooming out), without saving that
// view; a saved viewport is kept. The chrome draws its icons as inline SVG
// (no symbol characters a font may lack) and /favicon.ico answers.
func TestWorkbenchFirstLoad(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	for _, title := range []string{"Plan", "Tests", "Notes"} {
		p.addNode(`{"type":"markdown","title":"` + title + `","content":"# ` + title + `"}`)
	}
	first := nodesOf(p.state(""))
	for _, n := range first {
		if n["dockPosition"] != nil {
			continue
		}
		if x := n["position"].(map[string]any)["x"].(float64); x+n["size"].(map[string]any)["width"].(float64) > 1400 && n["title"] == "Plan" {
			t.Fatalf("the first auto-placed node is off a 1400 px screen: %v", n["position"])
		}
	}
	p.addNode(`{"type":"markdown","title":"Far away","x":3200,"y":1800,"width":300,"height":200}`)

	inView := func(page *rod.Page) string {
		return js(t, page, `
			const vp = document.querySelector(".canvas-viewport").getBoundingClientRect();
			const out = [];
			for (const n of document.querySelectorAll(".canvas-node")) {
				const r = n.getBoundingClientRect();
				if (r.left < vp.left - 1 || r.top < vp.top - 1 || r.right > vp.right + 1 || r.bottom > vp.bottom + 1)
					out.push(n.dataset.nodeId + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
			}
			return out.length ? "outside: " + out.join("; ") : "ok:" + document.querySelectorAll(".canvas-node").length;`)
	}
	page := browsertest.Open(t, p.url+"/workbench", 1400, 900)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "4"
	})
	if got := inView(page); got != "ok:4" {
		t.Fatalf("first load does not show every node: %s", got)
	}
	if v := p.state("")["viewport"].(map[string]any); v["x"] != 0.0 || v["y"] != 0.0 || v["scale"] != 1.0 {
		t.Fatalf("the fit on load was saved as the canvas viewport: %v", v)
	}

	// Icons are SVG; no button shows a symbol character.
	if got := js(t, page, `
		const bad = [];
		for (const b of document.querySelectorAll(".canvas-toolbar button, .canvas-node button, .toolbar-logo")) {
			const text = b.textContent.trim();
			if (/[^\x20-\x7E\u00D7]/.test(text) || (!text && !b.querySelector("svg")))
				bad.push((b.getAttribute("aria-label") || b.className) + "=" + JSON.stringify(text));
		}
		return bad.join(", ");`); got != "" {
		t.Fatalf("buttons without an icon or with symbol glyphs: %s", got)
	}
	if got := js(t, page, `return document.querySelector('link[rel="icon"]').href`); got != p.url+"/favicon.svg" {
		t.Fatalf("favicon link %q", got)
	}
	for _, path := range []string{"/favicon.ico", "/favicon.svg"} {
		r := p.must(200, "GET", path, nil)
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "image/svg+xml") || !strings.Contains(string(r.raw), "<svg") {
			t.Fatalf("%s: %s %q", path, ct, r.raw)
		}
	}

	// A saved viewport is the view a page opens with.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":-500,"y":-200,"scale":0.5}`)
	page2 := browsertest.Open(t, p.url+"/workbench", 1400, 900)
	until(t, "the saved view", func() bool {
		return js(t, page2, `return document.querySelector(".canvas-viewport > div").style.transform`) == "matrix(0.5, 0, 0, 0.5, -500, -200)"
	})
}

// A layout change arriving while a zoom animates does not cancel the zoom:
// its viewport is still committed.
func TestWorkbenchZoomSurvivesALayoutUpdate(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	p.must(200, "POST", "/api/canvas/viewport", `{"x":10,"y":10,"scale":1}`) // a saved view: no first-load fit
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	// Synced: the first layout (which sets the view) has arrived.
	until(t, "the synced board", func() bool {
		return js(t, page, `const d = document.querySelector(".status-dot"); return d ? d.getAttribute("aria-label") : ""`) == "Canvas status: connected"
	})
	click(t, page, `[aria-label="Zoom in"]`, 1)
	for i := 0; i < 5; i++ { // layout updates during the 300 ms animation
		p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"during the zoom"}`)
	}
	until(t, "the committed zoom", func() bool { return p.state("")["viewport"].(map[string]any)["scale"] == 1.25 })
}
