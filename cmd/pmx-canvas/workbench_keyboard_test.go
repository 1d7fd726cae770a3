package main

// The page by keyboard alone: Tab walks the toolbars, Enter acts, the
// board is one Tab stop whose nodes Tab walks, and Tab leaves it again.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
)

func TestWorkbenchToolbarByKeyboard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"First","content":"a","x":100,"y":100,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Second","content":"b","x":500,"y":100,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	name := func() string {
		return js(t, page, `const e = document.activeElement; return e === document.body ? "(body)" : (e.getAttribute("aria-label") || e.textContent.trim() || e.className)`)
	}
	unnamed := js(t, page, `return [...document.querySelectorAll(".canvas-toolbar button, .hud-layer button, .canvas-toolbar [tabindex]")]
		.filter((e) => !(e.getAttribute("aria-label") || e.textContent.trim()))
		.map((e) => e.outerHTML.slice(0, 80)).join("\n")`)
	if unnamed != "" {
		t.Fatalf("toolbar controls without an accessible name:\n%s", unnamed)
	}
	tab := func() string {
		t.Helper()
		if err := page.Keyboard.Type(input.Tab); err != nil {
			t.Fatal(err)
		}
		return name()
	}
	// From the page, Tab goes through the navigation toolbar in order.
	var walked []string
	for i := 0; i < 40 && (len(walked) == 0 || walked[len(walked)-1] != "Zoom in"); i++ {
		walked = append(walked, tab())
	}
	if got := strings.Join(walked, ","); got != "Fit canvas,Reset view,Zoom in" {
		t.Fatalf("Tab from the page walked %s", got)
	}
	zoom := func() string { return js(t, page, `return document.querySelector(".zoom-level").textContent`) }
	before := zoom()
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "Enter on Zoom in zooms", func() bool { return zoom() != before })
	// On through the toolbars to the board (one stop), then its nodes.
	walked = walked[:0]
	for i := 0; i < 40; i++ {
		walked = append(walked, tab())
		if js(t, page, `return document.activeElement?.classList.contains("canvas-viewport") ? "board" : ""`) == "board" {
			break
		}
	}
	for _, want := range []string{"Undo", "Redo", "Snapshots", "Search nodes and actions", "Keyboard shortcuts"} {
		if !strings.Contains(strings.Join(walked, ","), want) {
			t.Fatalf("Tab did not reach %q on its way to the board: %v", want, walked)
		}
	}
	if js(t, page, `return document.activeElement?.classList.contains("canvas-viewport") ? "board" : ""`) != "board" {
		t.Fatalf("Tab never reached the board: %v", walked)
	}
	active := func() string {
		return js(t, page, `return document.querySelector(".canvas-node.active")?.dataset.nodeId ?? ""`)
	}
	tab()
	until(t, "the first node active", func() bool { return active() == a })
	tab()
	until(t, "the second node active", func() bool { return active() == b })
	// Past the last node the focus leaves the board and no node stays active.
	tab()
	if !within(5*time.Second, func() bool {
		return js(t, page, `return document.activeElement && !document.activeElement.closest(".canvas-viewport") ? "out" : ""`) == "out" && active() == ""
	}) {
		t.Fatalf("after the last node, focus on %q (%s), active %q", name(), js(t, page, `return document.activeElement?.outerHTML.slice(0, 120) || ""`), active())
	}
	// Shift+Tab comes back to the board, onto the last node.
	if err := page.Keyboard.Press(input.ShiftLeft); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40 && js(t, page, `return document.activeElement?.closest(".canvas-viewport") ? "in" : ""`) != "in"; i++ {
		if err := page.Keyboard.Type(input.Tab); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Keyboard.Type(input.Tab); err != nil {
		t.Fatal(err)
	}
	_ = page.Keyboard.Release(input.ShiftLeft)
	until(t, "back on the last node", func() bool { return active() == b })
	noProblems(t, problems)
}

// The group menu's custom colour: the native picker shows the group's
// colour, and a #rrggbb typed into the field beside it (Enter) sets it; a
// bad value is marked and changes nothing.
func TestWorkbenchCustomGroupColor(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	g := p.must(200, "POST", "/api/canvas/group", `{"title":"Team","childIds":[]}`).str("id")
	p.must(200, "PATCH", "/api/canvas/node/"+g, `{"data":{"color":"#22c55e"}}`)
	page, problems := openBoard(t, p)
	color := func() any {
		return p.must(200, "GET", "/api/canvas/node/"+g, nil).body["data"].(map[string]any)["color"]
	}
	open := func() {
		t.Helper()
		x, y, _ := box(t, page, `[data-node-id="`+g+`"] .node-body`)
		rightClick(t, page, x, y)
		until(t, "the custom colour row", func() bool {
			return js(t, page, `return document.querySelector('.context-menu input[type=color][aria-label="Custom group color"]')?.value || ""`) == "#22c55e"
		})
	}
	open()
	field := `.context-menu .context-menu-hex`
	typeInto(t, page, field, "")
	chord(t, page, input.KeyA)
	if err := page.InsertText("zz"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	if got := js(t, page, `return document.querySelector('`+field+`')?.getAttribute("aria-invalid") || ""`); got != "true" {
		t.Fatalf("a bad colour is not marked: %q", got)
	}
	if color() != "#22c55e" {
		t.Fatalf("a bad colour changed the group: %v", color())
	}
	chord(t, page, input.KeyA)
	if err := page.InsertText("0EA5E9"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the custom colour on the server and the frame", func() bool {
		return color() == "#0ea5e9" && js(t, page, `return getComputedStyle(document.querySelector('[data-node-id="`+g+`"]')).borderTopColor`) == "rgb(14, 165, 233)"
	})
	if js(t, page, `return String(!!document.querySelector(".context-menu"))`) != "false" {
		t.Fatal("the menu stayed open after the colour was set")
	}
	noProblems(t, problems)
}

// The node menu from the keyboard: on the active node Shift+F10 opens it
// with the focus on its first item, the arrows walk it (not the graph),
// Escape closes it and gives the focus back, End then Enter runs Close.
func TestWorkbenchNodeMenuByKeyboard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"First","content":"a","x":100,"y":100,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Second","content":"b","x":500,"y":100,"width":300,"height":200}`)
	p.must(200, "POST", "/api/canvas/edge", map[string]any{"from": a, "to": b, "type": "relation"})
	page, problems := openBoard(t, p)
	tabToFirstNode(t, page)
	active := func() string {
		return js(t, page, `return document.querySelector(".canvas-node.active")?.dataset.nodeId ?? ""`)
	}
	until(t, "the first node active", func() bool { return active() == a })
	shiftF10 := func() {
		t.Helper()
		if err := page.Keyboard.Press(input.ShiftLeft); err != nil {
			t.Fatal(err)
		}
		if err := page.Keyboard.Type(input.F10); err != nil {
			t.Fatal(err)
		}
		if err := page.Keyboard.Release(input.ShiftLeft); err != nil {
			t.Fatal(err)
		}
	}
	focused := func() string {
		return js(t, page, `const e = document.activeElement; return e?.closest(".context-menu") ? (e.textContent || e.getAttribute("aria-label")) : "(outside)"`)
	}
	shiftF10()
	until(t, "the menu with the focus on its first item", func() bool { return focused() == "Focus" })
	if err := page.Keyboard.Type(input.ArrowDown); err != nil {
		t.Fatal(err)
	}
	if got := focused(); got == "Focus" || got == "(outside)" {
		t.Fatalf("ArrowDown did not move in the menu: %q", got)
	}
	if active() != a {
		t.Fatalf("ArrowDown in the menu walked the graph to %q", active())
	}
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the menu closed, the focus back on the board", func() bool {
		return js(t, page, `return !document.querySelector(".context-menu") && document.activeElement?.classList.contains("canvas-viewport") ? "y" : ""`) == "y"
	})
	shiftF10()
	until(t, "the menu again", func() bool { return focused() == "Focus" })
	if err := page.Keyboard.Type(input.End); err != nil {
		t.Fatal(err)
	}
	if got := focused(); got != "Close" {
		t.Fatalf("End focused %q, want Close", got)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the node closed on the server", func() bool {
		for _, n := range nodesOf(p.state("")) {
			if n["id"] == a {
				return false
			}
		}
		return true
	})
	noProblems(t, problems)
}

// Alt+arrows move the active node 20 px (with Shift 1 px), a group with
// its children, and each press reaches the server.
func TestWorkbenchMoveNodeByKeyboard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Mover","content":"a","x":100,"y":100,"width":300,"height":200}`)
	page, problems := openBoard(t, p)
	tabToFirstNode(t, page)
	until(t, "the node active", func() bool {
		return js(t, page, `return document.querySelector(".canvas-node.active")?.dataset.nodeId ?? ""`) == a
	})
	with := func(mods []input.Key, k input.Key) {
		t.Helper()
		for _, m := range mods {
			if err := page.Keyboard.Press(m); err != nil {
				t.Fatal(err)
			}
		}
		if err := page.Keyboard.Type(k); err != nil {
			t.Fatal(err)
		}
		for i := len(mods) - 1; i >= 0; i-- {
			if err := page.Keyboard.Release(mods[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	pos := func() string {
		n := p.must(200, "GET", "/api/canvas/node/"+a, nil).body
		ps, _ := n["position"].(map[string]any)
		return fmt.Sprintf("%v,%v", ps["x"], ps["y"])
	}
	with([]input.Key{input.AltLeft}, input.ArrowRight)
	with([]input.Key{input.AltLeft}, input.ArrowRight)
	with([]input.Key{input.AltLeft}, input.ArrowDown)
	with([]input.Key{input.AltLeft, input.ShiftLeft}, input.ArrowLeft)
	until(t, "the node moved on the server", func() bool { return pos() == "139,120" })
	if got := js(t, page, `const e = document.querySelector(".canvas-node.active"); return e.style.left + "," + e.style.top`); got != "139px,120px" {
		t.Fatalf("the card is at %s", got)
	}
	noProblems(t, problems)
}

// tabToFirstNode presses Tab until the board has the focus (one Tab stop
// past the toolbars), then once more: the first node is active.
func tabToFirstNode(t *testing.T, page *rod.Page) {
	t.Helper()
	for i := 0; i < 40 && js(t, page, `return document.activeElement?.classList.contains("canvas-viewport") ? "board" : ""`) != "board"; i++ {
		if err := page.Keyboard.Type(input.Tab); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Keyboard.Type(input.Tab); err != nil {
		t.Fatal(err)
	}
}
