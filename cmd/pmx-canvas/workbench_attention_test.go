package main

// The workbench's attention layer, its attribution and its one stream, as
// a human uses them: go-rod drives Chromium with real mouse input against
// the real server. The focus field around the context pins, the toasts and
// pulses of what a change means (and none for pins that were there when
// the page loaded), a human's edits named in another tab's feed, one event
// stream per tab serving the board, the feed and the AX panel, and edges
// culled with the cards on a large board.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// attnPage opens the workbench and waits for n cards.
func attnPage(t *testing.T, p *proc, n int) (*rod.Page, func() []string) {
	t.Helper()
	page, problems := openAXPage(t, p)
	until(t, fmt.Sprintf("%d cards", n), func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == fmt.Sprint(n)
	})
	until(t, "connected", func() bool {
		return js(t, page, `return document.querySelector(".status-dot").dataset.status`) == "connected"
	})
	return page, problems
}

// recordToasts makes the page keep the text of every attention toast it
// shows, in order (window.__toasts), and returns a reader.
func recordToasts(t *testing.T, page *rod.Page) func() []string {
	t.Helper()
	js(t, page, `
		window.__toasts = [];
		new MutationObserver(() => {
			for (const b of document.querySelectorAll(".attention-toast")) {
				if (b.__seen) continue;
				b.__seen = true;
				window.__toasts.push(b.dataset.kind + "|" + b.textContent + "|" + b.title);
			}
		}).observe(document.querySelector(".attention-toasts"), { childList: true, subtree: true });
		return ""`)
	return func() []string {
		s := js(t, page, `return window.__toasts.join("\n")`)
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
}

func hasToast(toasts []string, prefix string) bool {
	for _, s := range toasts {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// styleBox is an element's inline left|top|width|height.
func styleBox(t *testing.T, page *rod.Page, sel string) string {
	t.Helper()
	return js(t, page, fmt.Sprintf(`const e = document.querySelector(%q); return e ? [e.style.left, e.style.top, e.style.width, e.style.height].join("|") : ""`, sel))
}

func TestWorkbenchFocusFieldAroundPins(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// P's centre is (1100, 1050); N1..N6 have centres 250..500 px from it,
	// F 900 px.
	add := func(title string, x, y int) string {
		return p.addNode(fmt.Sprintf(`{"type":"markdown","title":%q,"x":%d,"y":%d,"width":200,"height":100}`, title, x, y))
	}
	pin := add("P", 1000, 1000)
	n := []string{add("N1", 1250, 1000), add("N2", 700, 1000), add("N3", 1000, 1350), add("N4", 1000, 600),
		add("N5", 1318, 1318), add("N6", 646, 646)}
	far := add("F", 1900, 1000)
	page, problems := attnPage(t, p, 8)
	if got := js(t, page, `return document.querySelector(".focus-field").hidden ? "hidden" : "shown"`); got != "hidden" {
		t.Fatalf("the focus field shows with no pins: %s", got)
	}

	// The human pins P with its card's context button.
	click(t, page, cardSel(pin)+" .ctx-pin-btn", 1)
	until(t, "P pinned on the server", func() bool {
		ids, _ := p.must(200, "GET", "/api/canvas/pinned-context", nil).body["nodeIds"].([]any)
		return len(ids) == 1 && ids[0] == pin
	})
	primary := fmt.Sprintf(`.focus-field .focus-primary[data-node-id=%q]`, pin)
	until(t, "P's halo", func() bool { return styleBox(t, page, primary) != "" })
	// P's halo is its box grown by 24 px; the secondary halos are the five
	// nearest (not N6 at 500 px, not F at 900 px), grown by 18 px.
	if got := styleBox(t, page, primary); got != "976px|976px|248px|148px" {
		t.Errorf("P's halo: %s", got)
	}
	secondary := js(t, page, `return [...document.querySelectorAll(".focus-field .focus-secondary")].map(e => e.dataset.nodeId).sort().join()`)
	want := []string{n[0], n[1], n[2], n[3], n[4]}
	if secondary != strings.Join(sortedCopy(want), ",") {
		t.Errorf("secondary halos %s, want N1..N5 %v (N6 %s, F %s)", secondary, want, n[5], far)
	}
	if got := styleBox(t, page, fmt.Sprintf(`.focus-secondary[data-node-id=%q]`, n[0])); got != "1232px|982px|236px|136px" {
		t.Errorf("N1's halo: %s", got)
	}
	// One region around P and its neighbours (x 700..1518, y 600..1450),
	// padded 54 × 46.
	if got := styleBox(t, page, fmt.Sprintf(`.focus-region[data-pin=%q]`, pin)); got != "646px|554px|926px|942px" {
		t.Errorf("P's region: %s", got)
	}
	// The field is behind the cards: first in the world.
	if got := js(t, page, `return document.querySelector(".world").firstElementChild.className`); got != "focus-field" {
		t.Errorf("the world's first layer is %q", got)
	}
	if got := js(t, page, `return getComputedStyle(document.querySelector(".focus-region")).filter`); got != "blur(18px)" {
		t.Errorf("the region's filter: %q", got)
	}
	rgb := func() string {
		return js(t, page, `return getComputedStyle(document.querySelector(".focus-primary")).backgroundColor`)
	}
	if got := rgb(); !strings.Contains(got, "244, 197, 66") {
		t.Errorf("the dark theme's halo is %q, want amber", got)
	}

	// While N1 is dragged the field is hidden; after the drop N1's halo
	// follows it.
	x, y, _ := box(t, page, cardSel(n[0])+" .node-type-badge")
	m := page.Mouse
	if err := m.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.MoveLinear(proto.Point{X: x + 30, Y: y + 20}, 5); err != nil {
		t.Fatal(err)
	}
	if got := js(t, page, `return getComputedStyle(document.querySelector(".focus-field")).visibility`); got != "hidden" {
		t.Errorf("the field while dragging: visibility %s", got)
	}
	if err := m.Up(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "N1's halo to follow it", func() bool {
		return styleBox(t, page, fmt.Sprintf(`.focus-secondary[data-node-id=%q]`, n[0])) != "1232px|982px|236px|136px"
	})
	if got := js(t, page, `return getComputedStyle(document.querySelector(".focus-field")).visibility`); got != "visible" {
		t.Errorf("the field after the drop: visibility %s", got)
	}

	// The light theme's field is blue.
	click(t, page, `[data-action="theme"]`, 1)
	until(t, "the light theme's halo", func() bool { return strings.Contains(rgb(), "26, 122, 191") })

	// Unpinning P empties the field.
	click(t, page, cardSel(pin)+" .ctx-pin-btn", 1)
	until(t, "the field to empty", func() bool {
		return js(t, page, `const f = document.querySelector(".focus-field"); return f.hidden && f.children.length === 0 ? "y" : ""`) == "y"
	})
	noProblems(t, problems)
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

func TestWorkbenchAttentionToastOnConnect(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Alpha","x":100,"y":120,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Beta","x":900,"y":120,"width":300,"height":200}`)
	page, problems := attnPage(t, p, 2)
	toasts := recordToasts(t, page)

	// The human connects A to B by dragging A's port onto B.
	x, y, _ := box(t, page, cardSel(a)+" .node-body")
	if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	until(t, "the ports shown", func() bool {
		return js(t, page, `return getComputedStyle(document.querySelector('`+cardSel(a)+` .node-port-right')).transform`) == "matrix(1, 0, 0, 1, 0, 0)"
	})
	px, py, _ := box(t, page, cardSel(a)+" .node-port-right")
	bx, by, _ := box(t, page, cardSel(b)+" .node-body")
	drag(t, page, px, py, bx-px, by-py)
	until(t, "the edge on the server", func() bool {
		e, _ := p.state("")["edges"].([]any)
		return len(e) == 1
	})
	until(t, "the relationship toast", func() bool {
		return js(t, page, `const b = document.querySelector(".attention-toast"); return b ? b.dataset.kind + "|" + b.textContent + "|" + b.title : ""`) ==
			"relationship|Relationship added|“Alpha” → “Beta”"
	})
	// An agent removes B: the next toast says so, after the first.
	p.must(200, "DELETE", "/api/canvas/node/"+b, nil, "X-PMX-Agent", "alice")
	until(t, "the removal toast", func() bool { return hasToast(toasts(), "remove|Items removed|“Beta” and 1 relationship") })
	if got := toasts(); len(got) != 2 || !strings.HasPrefix(got[0], "relationship|") {
		t.Errorf("toasts %q, want the relationship's then the removal's", got)
	}
	// A toast shows for clamp(1600 + 18 × detail, 1800, 2800) ms and then
	// goes.
	until(t, "the toasts to go", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".attention-toast").length)`) == "0"
	})

	// The next one opens the feed when clicked: the commit's entry names
	// its writer and what it meant.
	c := p.addNode(`{"type":"markdown","title":"Gamma","x":900,"y":500,"width":300,"height":200}`)
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"relation"}`, a, c), "X-PMX-Agent", "bob")
	until(t, "the toast of bob's edge", func() bool {
		return js(t, page, `return document.querySelector(".attention-toast")?.title || ""`) == "“Alpha” → “Gamma”"
	})
	click(t, page, ".attention-toast", 1)
	until(t, "the feed open on the updates", func() bool {
		return js(t, page, `return document.querySelector('.ax-tab[data-tab="updates"]')?.getAttribute("aria-selected") || ""`) == "true"
	})
	if got := js(t, page, `return document.querySelector('.ax-feed li[data-agent="bob"]')?.textContent || ""`); !strings.Contains(got, "Relationship added: “Alpha” → “Gamma”") {
		t.Errorf("bob's entry in the feed: %q", got)
	}
	if got := js(t, page, `return document.querySelector('.ax-feed li[data-agent="alice"]')?.textContent || ""`); !strings.Contains(got, "alice removed “Beta”") || !strings.Contains(got, "Items removed: “Beta” and 1 relationship") {
		t.Errorf("alice's entry in the feed: %q", got)
	}
	if got := js(t, page, `return String(document.querySelectorAll(".attention-toast").length)`); got != "0" {
		t.Errorf("the clicked toast stays: %s", got)
	}
	noProblems(t, problems)
}

func TestWorkbenchAttentionPulse(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Left","x":100,"y":120,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Right","x":1000,"y":120,"width":300,"height":200}`)
	page, problems := attnPage(t, p, 2)
	toasts := recordToasts(t, page)
	// Record when each card starts and stops pulsing.
	js(t, page, `
		window.__pulses = [];
		const state = new Map();
		new MutationObserver((list) => {
			for (const m of list) {
				const e = m.target;
				if (!e.classList || !e.dataset.nodeId) continue;
				const on = e.classList.contains("attention-pulse");
				if (on !== !!state.get(e)) { state.set(e, on); window.__pulses.push([e.dataset.nodeId, on, performance.now()]); }
			}
		}).observe(document.querySelector(".nodes"), { subtree: true, attributes: true, attributeFilter: ["class"] });
		return ""`)

	// The human drags Right next to Left (a 100 px gap): a cluster forms,
	// and both cards pulse for 900 ms.
	x, y, _ := box(t, page, cardSel(b)+" .node-titlebar")
	scale := 0.0
	fmt.Sscan(js(t, page, `return String(new DOMMatrix(getComputedStyle(document.querySelector(".world")).transform).a)`), &scale)
	drag(t, page, x, y, -500*scale, 0)
	until(t, "Right moved on the server", func() bool {
		pos := p.must(200, "GET", "/api/canvas/node/"+b, nil).body["position"].(map[string]any)
		return pos["x"].(float64) < 600
	})
	until(t, "the cluster toast", func() bool { return hasToast(toasts(), "cluster|Cluster formed|“Right” joined “Left”") })
	if !within(5*time.Second, func() bool {
		return js(t, page, `return String(document.querySelectorAll(".attention-pulse").length)`) == "0" &&
			js(t, page, `return String(window.__pulses.length)`) == "4"
	}) {
		t.Fatalf("the pulses (card, on, ms): %s (Left %s, Right %s)", js(t, page, `return JSON.stringify(window.__pulses)`), a, b)
	}
	var spans []float64
	for _, id := range []string{a, b} {
		var d float64
		fmt.Sscan(js(t, page, fmt.Sprintf(`const ps = window.__pulses.filter(p => p[0] === %q); return ps.length === 2 && ps[0][1] && !ps[1][1] ? String(ps[1][2] - ps[0][2]) : "-1"`, id)), &d)
		spans = append(spans, d)
	}
	for i, d := range spans {
		if d < 850 || d > 1500 {
			t.Errorf("card %d pulsed for %.0f ms, want 900", i, d)
		}
	}

	// The same event twice within 1.2 s is one toast: an agent adds an
	// edge, removes it and adds it again at once.
	e1 := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"relation"}`, a, b), "X-PMX-Agent", "alice").str("id")
	p.must(200, "DELETE", "/api/canvas/edge", `{"edge_id":"`+e1+`"}`, "X-PMX-Agent", "alice")
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"relation"}`, a, b), "X-PMX-Agent", "alice")
	until(t, "the remove toast", func() bool { return hasToast(toasts(), "remove|") })
	time.Sleep(1200 * time.Millisecond) // the window in which a repeat would show
	n := 0
	for _, s := range toasts() {
		if strings.HasPrefix(s, "relationship|Relationship added|“Left” → “Right”") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d relationship toasts for two identical edges in 1.2 s, want 1: %q", n, toasts())
	}
	noProblems(t, problems)
}

// TestWorkbenchAttentionGroupToast: the human selects two cards and groups
// them from the selection bar: "Group created" names the group and its
// members pulse; an agent ungrouping it is "Group updated".
func TestWorkbenchAttentionGroupToast(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"One","x":100,"y":120,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Two","x":900,"y":120,"width":300,"height":200}`)
	page, problems := attnPage(t, p, 2)
	toasts := recordToasts(t, page)
	withShift(t, page, func() {
		click(t, page, cardSel(a)+" .node-body", 1)
		click(t, page, cardSel(b)+" .node-body", 1)
	})
	click(t, page, `.selection-bar [data-sel="group"]`, 1)
	var group string
	until(t, "the group on the server", func() bool {
		for _, n := range nodesOf(p.state("")) {
			if n["type"] == "group" {
				group = n["id"].(string)
				return true
			}
		}
		return false
	})
	until(t, "the group toast", func() bool { return hasToast(toasts(), "group|Group created|“Group” · 2 items") })
	until(t, "the members pulsing", func() bool {
		return js(t, page, fmt.Sprintf(`return [%q, %q].every(id => document.querySelector('.canvas-node[data-node-id="' + id + '"]').classList.contains("attention-pulse")) ? "y" : ""`, a, b)) == "y"
	})
	p.must(200, "POST", "/api/canvas/group/ungroup", fmt.Sprintf(`{"groupId":%q}`, group), "X-PMX-Agent", "alice")
	until(t, "the ungroup toast", func() bool { return hasToast(toasts(), "group|Group updated|“Group” · 0 items") })
	noProblems(t, problems)
}

// TestWorkbenchAttentionNeighborhoodToast: with a pin on the board, the
// human drags a far card next to it: it enters the pin's neighbourhood
// (a secondary halo appears) and the toast says so; dragged away again it
// leaves.
func TestWorkbenchAttentionNeighborhoodToast(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	pin := p.addNode(`{"type":"markdown","title":"Plan","x":100,"y":100,"width":300,"height":200}`)
	far := p.addNode(`{"type":"markdown","title":"Idea","x":1300,"y":100,"width":300,"height":200}`)
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, pin))
	page, problems := attnPage(t, p, 2)
	toasts := recordToasts(t, page)
	halo := fmt.Sprintf(`return document.querySelector('.focus-secondary[data-node-id=%q]') ? "y" : ""`, far)
	until(t, "the pin's halo", func() bool {
		return js(t, page, `return document.querySelector(".focus-primary") ? "y" : ""`) == "y"
	})
	if js(t, page, halo) != "" {
		t.Fatalf("the far card has a halo before it moved")
	}
	var scale float64
	fmt.Sscan(js(t, page, `return String(new DOMMatrix(getComputedStyle(document.querySelector(".world")).transform).a)`), &scale)
	x, y, _ := box(t, page, cardSel(far)+" .node-type-badge")
	// Centre 1450 → 1450 - 800 = 650: 400 px from the pin's centre (250).
	drag(t, page, x, y, -800*scale, 0)
	until(t, "the neighbourhood toast", func() bool {
		return hasToast(toasts(), "neighborhood|Neighborhood changed|“Idea” entered “Plan”’s neighborhood")
	})
	until(t, "the moved card's halo", func() bool { return js(t, page, halo) == "y" })
	x, y, _ = box(t, page, cardSel(far)+" .node-type-badge")
	drag(t, page, x, y, 800*scale, 0)
	until(t, "the leaving toast", func() bool {
		return hasToast(toasts(), "neighborhood|Neighborhood changed|“Idea” left “Plan”’s neighborhood")
	})
	until(t, "the halo gone", func() bool { return js(t, page, halo) == "" })
	noProblems(t, problems)
}

func TestWorkbenchNoToastForPinsOnLoad(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Pinned before","x":100,"y":120,"width":300,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"Pinned later","x":600,"y":120,"width":300,"height":200}`)
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, a))
	page, problems := attnPage(t, p, 2)
	toasts := recordToasts(t, page)
	// The pin that was there shows in the field, and is not news.
	until(t, "the pinned node's halo", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector('.focus-primary[data-node-id=%q]') ? "y" : ""`, a)) == "y"
	})
	if within(1500*time.Millisecond, func() bool {
		return len(toasts()) > 0 || js(t, page, `return String(document.querySelectorAll(".attention-toast").length)`) != "0"
	}) {
		t.Fatalf("a toast on load: %q", toasts())
	}
	click(t, page, ".ax-toggle", 1)
	click(t, page, `.ax-tab[data-tab="updates"]`, 1)
	if got := js(t, page, `return document.querySelector(".ax-body").textContent`); !strings.Contains(got, "No changes since this tab opened.") {
		t.Errorf("the feed after load: %q", got)
	}
	// An agent adds a pin: that is news, named in the feed.
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q,%q]}`, a, b), "X-PMX-Agent", "alice")
	until(t, "the context toast", func() bool { return hasToast(toasts(), "context|Context updated|Now in focus: “Pinned later”") })
	until(t, "alice's pin in the feed", func() bool {
		got := js(t, page, `return document.querySelector('.ax-feed li[data-agent="alice"]')?.textContent || ""`)
		return strings.Contains(got, "alice changed the context pins") && strings.Contains(got, "Context updated: Now in focus: “Pinned later”")
	})
	// Reloading the page shows both pins, and again no toast.
	if err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	until(t, "two halos after the reload", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".focus-primary").length)`) == "2"
	})
	toasts = recordToasts(t, page)
	if within(1500*time.Millisecond, func() bool {
		return len(toasts()) > 0 || js(t, page, `return String(document.querySelectorAll(".attention-toast").length)`) != "0"
	}) {
		t.Fatalf("a toast after the reload: %q", toasts())
	}
	noProblems(t, problems)
}

// TestWorkbenchUpdatesUnreadCount: while the agent panel shows another
// section, the Updates tab counts the meaningful commits not yet seen (9+
// at most); looking at the feed clears it.
func TestWorkbenchUpdatesUnreadCount(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, p.addNode(fmt.Sprintf(`{"type":"markdown","title":"N%d","x":%d,"y":100,"width":200,"height":100}`, i, i*400)))
	}
	page, problems := attnPage(t, p, 5)
	click(t, page, ".ax-toggle", 1)
	updatesTab := `.ax-tab[data-tab="updates"]`
	tabState := func() string {
		return js(t, page, fmt.Sprintf(`const b = document.querySelector(%q); return b.getAttribute("aria-label") + "|" + (b.querySelector(".ax-unread")?.textContent || "")`, updatesTab))
	}
	if got := tabState(); got != "Recent updates|" {
		t.Fatalf("the Updates tab at first: %q", got)
	}
	edge := func(a, b int) {
		p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"relation"}`, ids[a], ids[b]), "X-PMX-Agent", "alice")
	}
	edge(0, 1)
	edge(1, 2)
	// A commit that means nothing to the attention layer (a rename) is in
	// the feed but not counted.
	p.must(200, "PATCH", "/api/canvas/node/"+ids[4], `{"title":"N4, renamed"}`, "X-PMX-Agent", "alice")
	until(t, "two unread", func() bool { return tabState() == "Recent updates — 2 new|2" })
	if got := tabState(); got != "Recent updates — 2 new|2" {
		t.Errorf("after the rename: %q", got)
	}
	click(t, page, updatesTab, 1)
	until(t, "the count cleared", func() bool { return tabState() == "Recent updates|" })
	if got := js(t, page, `return String(document.querySelectorAll(".ax-feed li").length)`); got != "3" {
		t.Errorf("%s entries in the feed, want 3", got)
	}
	click(t, page, `.ax-tab[data-tab="gates"]`, 1)
	for a := 0; a < 5; a++ {
		for b := a + 2; b < 5; b++ {
			edge(a, b)
		}
	}
	edge(2, 3)
	edge(3, 4)
	edge(1, 0)
	edge(2, 1)
	edge(4, 3)
	until(t, "9+ unread", func() bool { return tabState() == "Recent updates — 11 new|9+" })
	noProblems(t, problems)
}

// tabAgent is the agent a tab's writes carry.
func tabAgent(t *testing.T, page *rod.Page) string {
	t.Helper()
	return js(t, page, `return import("/workbench/client.js").then(m => m.agent)`)
}

func TestWorkbenchHumanEditsAttributed(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Moved by hand","x":100,"y":120,"width":300,"height":200}`)
	one, problems1 := attnPage(t, p, 1)
	two, problems2 := attnPage(t, p, 1)
	agent := tabAgent(t, one)
	if !strings.HasPrefix(agent, "human:") || agent == tabAgent(t, two) {
		t.Fatalf("the tabs' agents: %q and %q", agent, tabAgent(t, two))
	}
	click(t, two, ".ax-toggle", 1)
	click(t, two, `.ax-tab[data-tab="updates"]`, 1)

	// The human drags the card in the first tab.
	x, y, _ := box(t, one, cardSel(a)+" .node-titlebar")
	drag(t, one, x, y, 120, 60)
	until(t, "the move on the server", func() bool {
		pos := p.must(200, "GET", "/api/canvas/node/"+a, nil).body["position"].(map[string]any)
		return pos["x"].(float64) > 150
	})
	// The second tab's feed names the first tab's human.
	entry := fmt.Sprintf(`.ax-feed li[data-agent=%q]`, agent)
	until(t, "the move attributed in the second tab's feed", func() bool {
		return strings.Contains(js(t, two, fmt.Sprintf(`return document.querySelector(%q)?.textContent || ""`, entry)), agent+" changed “Moved by hand”")
	})
	if got := js(t, two, `return String(document.querySelectorAll('.ax-feed li[data-agent=""]').length)`); got != "0" {
		t.Errorf("%s unattributed entries in the second tab's feed", got)
	}
	// Presence and the history name it too.
	until(t, "the human in presence", func() bool {
		agents, _ := p.must(200, "GET", "/api/canvas/presence", nil).body["agents"].([]any)
		for _, g := range agents {
			if m := g.(map[string]any); m["agent"] == agent && m["lastNodeId"] == a {
				return true
			}
		}
		return false
	})
	entries, _ := p.must(200, "GET", "/api/canvas/history", nil).body["entries"].([]any)
	if last := entries[len(entries)-1].(map[string]any); last["agent"] != agent {
		t.Errorf("the history's last entry: %v", last)
	}
	// In its own tab the entry says it was this tab.
	click(t, one, ".ax-toggle", 1)
	click(t, one, `.ax-tab[data-tab="updates"]`, 1)
	until(t, "the own tab's entry", func() bool {
		return strings.Contains(js(t, one, fmt.Sprintf(`return document.querySelector(%q)?.textContent || ""`, entry)), agent+" (this tab) changed “Moved by hand”")
	})
	noProblems(t, problems1)
	noProblems(t, problems2)
}

// tabStreams counts the presence clients labelled with the page's label.
func tabStreams(t *testing.T, p *proc, page *rod.Page) (int, int) {
	t.Helper()
	label := js(t, page, `return import("/workbench/client.js").then(m => m.tabLabel)`)
	pres := p.must(200, "GET", "/api/canvas/presence", nil).body
	n := 0
	for _, c := range pres["clients"].([]any) {
		if c.(map[string]any)["client"] == label {
			n++
		}
	}
	return n, int(pres["clientCount"].(float64))
}

func TestWorkbenchOneStreamPerTab(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Shared","x":100,"y":120,"width":300,"height":200}`)
	one, problems1 := attnPage(t, p, 1)
	two, problems2 := attnPage(t, p, 1)
	click(t, one, ".ax-toggle", 1)
	until(t, "two streams, one per tab", func() bool {
		n1, total := tabStreams(t, p, one)
		n2, _ := tabStreams(t, p, two)
		return n1 == 1 && n2 == 1 && total == 2
	})
	// That one stream serves the board ...
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"title":"Shared, renamed"}`, "X-PMX-Agent", "alice")
	until(t, "the board's change", func() bool {
		return js(t, one, fmt.Sprintf(`return document.querySelector(%q).querySelector(".node-title").textContent`, cardSel(a))) == "Shared, renamed"
	})
	// ... the AX panel (an agent's approval gate arrives) ...
	p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Ship it"}`)
	until(t, "the gate in the panel", func() bool {
		return strings.Contains(js(t, one, `return document.querySelector(".ax-body")?.textContent || ""`), "Ship it")
	})
	// ... and the feed.
	click(t, one, `.ax-tab[data-tab="updates"]`, 1)
	until(t, "alice's change in the feed", func() bool {
		return strings.Contains(js(t, one, `return document.querySelector('.ax-feed li[data-agent="alice"]')?.textContent || ""`), "alice changed “Shared, renamed”")
	})
	if got := js(t, one, `return document.querySelector(".ax-presence").textContent`); strings.Contains(got, "other stream") {
		t.Errorf("presence shows another stream: %q", got)
	}
	// Still one each: opening the panel opened nothing.
	if n1, total := tabStreams(t, p, one); n1 != 1 || total != 2 {
		t.Errorf("tab one has %d streams, %d in all", n1, total)
	}
	noProblems(t, problems1)
	noProblems(t, problems2)
}

func TestWorkbenchCullsEdges(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// 40 × 30 cards 400 px apart, each joined to its right-hand neighbour:
	// 1,200 cards, 1,170 edges.
	var ops []string
	for i := 0; i < 1200; i++ {
		ops = append(ops, fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"card %d","x":%d,"y":%d,"width":300,"height":200}}`, i, (i%40)*400, (i/40)*400))
	}
	p.must(200, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
	card := map[int]string{}
	for _, n := range nodesOf(p.state("")) {
		var i int
		if d, _ := n["data"].(map[string]any); d != nil {
			if _, err := fmt.Sscanf(fmt.Sprint(d["title"]), "card %d", &i); err == nil {
				card[i] = n["id"].(string)
			}
		}
	}
	ops = ops[:0]
	for i := 0; i < 1200; i++ {
		if i%40 != 39 {
			ops = append(ops, fmt.Sprintf(`{"op":"edge.add","args":{"from":%q,"to":%q,"type":"relation"}}`, card[i], card[i+1]))
		}
	}
	p.must(200, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
	edgeOf := map[string]string{} // "i" (the edge from card i to i+1) -> edge id
	for _, e := range p.state("")["edges"].([]any) {
		m := e.(map[string]any)
		for i, id := range card {
			if m["from"] == id {
				edgeOf[fmt.Sprint(i)] = m["id"].(string)
			}
		}
	}
	// The view shows the top-left corner at ~100 % (a viewport of exactly
	// 0,0,1 is a canvas never viewed, which opens fitted).
	p.must(200, "POST", "/api/canvas/viewport", `{"x":0,"y":0,"scale":0.99}`)
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	until(t, "the board", func() bool {
		return strings.HasPrefix(js(t, page, `return document.querySelector(".counts").textContent`), "1202 nodes · 1170 edges")
	})
	edges := func() int {
		var n int
		fmt.Sscan(js(t, page, `return String(document.querySelectorAll(".edge-layer line").length)`), &n)
		return n
	}
	edgeIn := func(i int) bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector('.edge-layer line[data-edge-id=%q]') ? "in" : "out"`, edgeOf[fmt.Sprint(i)])) == "in"
	}
	until(t, "a culled set of edges", func() bool { n := edges(); return n > 0 && n < 150 })
	// Card 0 → 1 is on screen; 1158 → 1159 (the bottom right) is not in
	// the DOM.
	if !edgeIn(0) {
		t.Errorf("the edge on screen is not drawn")
	}
	if edgeIn(1158) {
		t.Errorf("an edge far off screen is in the DOM")
	}
	// A far jump (another viewer's view) to the bottom right: its edges
	// come, the first ones go.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":-14500,"y":-10800,"scale":1}`)
	until(t, "the far edge drawn", func() bool { return edgeIn(1158) })
	if edgeIn(0) {
		t.Errorf("the first edge is still in the DOM after the view left it")
	}
	if n := edges(); n == 0 || n >= 150 {
		t.Errorf("%d edges in the DOM after the jump", n)
	}
	// The view shows world y 10800..11600 (rows 27 and 28); row 25's edges
	// (centres at y 10100) are beyond the half-view margin. The human
	// drags the background down 700 px: they come into view.
	if edgeIn(1036) {
		t.Fatalf("row 25's edge 1036 → 1037 is drawn before the pan")
	}
	drag(t, page, 640, 400, 0, 700)
	until(t, "row 25's edge, panned into view", func() bool { return edgeIn(1036) })
	until(t, "the view committed", func() bool {
		return p.state("")["viewport"].(map[string]any)["y"].(float64) == -10100
	})
	noProblems(t, problems)
}
