package main

// The workbench's incremental sync as a human watching the board sees it:
// another client's changes (nodes, edges, removals) appear on screen
// without a reload, touching only the cards they change; the page
// reconnects by itself after the server restarts; Undo on the toolbar
// undoes; a large board keeps only the cards near the view in the DOM.

import (
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

func cardSel(id string) string { return fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id) }

func TestWorkbenchSyncsAnotherClientsChanges(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// A is a frame (an html surface the human sized, so it never grows);
	// B is a note.
	a := p.addNode(`{"type":"html","title":"Frame A","html":"<p id=\"a\">frame A</p>","x":40,"y":40,"width":360,"height":240,"data":{"userResized":true}}`)
	b := p.addNode(`{"type":"markdown","title":"Note B","content":"first","x":460,"y":40,"width":320,"height":200}`)

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	// Every change arrives in order: the page never has to resync (it
	// warns when it does).
	var resyncs atomic.Int32
	go page.EachEvent(func(e *proto.RuntimeConsoleAPICalled) {
		for _, a := range e.Args {
			if strings.Contains(a.Value.String(), "missed a commit") {
				resyncs.Add(1)
			}
		}
	})()
	until(t, "both cards", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "2"
	})
	frameEl := page.MustElement(cardSel(a) + " iframe")
	until(t, "frame A's document", func() bool {
		f, err := frameEl.Frame()
		if err != nil {
			return false
		}
		v, err := f.Eval(`() => document.getElementById("a") ? "yes" : ""`)
		return err == nil && v.Value.Str() == "yes"
	})
	frame := frameEl.MustFrame()
	frame.MustEval(`() => { window.__marker = "kept" }`)
	// The page itself is never reloaded: a marker on its window stays. A
	// load counter on A's iframe and a mutation observer over the board
	// record what the changes touch.
	js(t, page, fmt.Sprintf(`
		window.__noReload = 1;
		window.__loads = 0;
		document.querySelector(%q).addEventListener("load", () => window.__loads++);
		window.__touched = new Set();
		new MutationObserver((list) => {
			for (const m of list) {
				const card = (m.target.nodeType === 1 ? m.target : m.target.parentElement)?.closest?.(".canvas-node");
				if (card) window.__touched.add(card.dataset.nodeId);
			}
		}).observe(document.querySelector(".nodes"), { subtree: true, childList: true, attributes: true, characterData: true });
		return ""`, cardSel(a)+" iframe"))
	touched := func() string { return js(t, page, `return [...window.__touched].sort().join()`) }

	// Another client renames and edits B: B's card shows it, A's card is
	// not touched and its frame not reloaded.
	p.must(200, "PATCH", "/api/canvas/node/"+b, `{"title":"Note B renamed","content":"second text"}`)
	until(t, "B's new title and text", func() bool {
		return js(t, page, fmt.Sprintf(`const c = document.querySelector(%q); return c ? c.querySelector(".node-title").textContent + "|" + c.querySelector(".node-body :is(.md-rendered, .md-pending)")?.textContent.trim() : ""`, cardSel(b))) ==
			"Note B renamed|second text"
	})
	time.Sleep(300 * time.Millisecond) // the rendered markdown arrives
	if got := touched(); got != b {
		t.Errorf("a change of B touched the cards %q, want only %q", got, b)
	}
	if got := js(t, page, `return String(window.__loads)`); got != "0" {
		t.Errorf("A's frame loaded %s times after B changed", got)
	}
	if got := frame.MustEval(`() => String(window.__marker)`).Str(); got != "kept" {
		t.Errorf("A's frame document was replaced: marker %q", got)
	}

	// A new node appears; an edge between A and B appears, and goes away.
	c := p.addNode(`{"type":"markdown","title":"Note C","content":"third","x":40,"y":400,"width":320,"height":200}`)
	until(t, "C's card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, cardSel(c))) == "y"
	})
	edge := p.must(200, "POST", "/api/canvas/edge", `{"from":"`+a+`","to":"`+b+`","type":"flow","label":"feeds"}`).str("id")
	if edge == "" {
		t.Fatal("no edge id")
	}
	edgeSel := fmt.Sprintf(`.edge-layer line[data-edge-id=%q]`, edge)
	until(t, "the edge", func() bool {
		return js(t, page, fmt.Sprintf(`const l = document.querySelector(%q); return l ? l.getAttribute("class") + "|" + l.parentNode.querySelector(".edge-label").textContent : ""`, edgeSel)) ==
			"edge edge-flow solid|feeds"
	})
	if got := js(t, page, `return document.querySelector(".counts").textContent`); !strings.Contains(got, "1 edge") {
		t.Errorf("counts %q after the edge", got)
	}
	// Moving B by the API moves the edge's end with it.
	x2 := js(t, page, fmt.Sprintf(`return document.querySelector(%q).getAttribute("x2")`, edgeSel))
	p.must(200, "POST", "/api/canvas/update", `{"updates":[{"id":"`+b+`","position":{"x":860,"y":40}}]}`)
	until(t, "the edge to follow B", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q).getAttribute("x2")`, edgeSel)) != x2
	})
	p.must(200, "DELETE", "/api/canvas/edge", `{"edge_id":"`+edge+`"}`)
	until(t, "the edge to go", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : "gone"`, edgeSel)) == "gone"
	})

	// Removing C removes its card; Undo on the toolbar brings it back.
	p.must(200, "DELETE", "/api/canvas/node/"+c, nil)
	until(t, "C's card to go", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : "gone"`, cardSel(c))) == "gone"
	})
	click(t, page, `[data-action="undo"]`, 1)
	until(t, "C's card back after Undo", func() bool {
		return js(t, page, fmt.Sprintf(`const c = document.querySelector(%q); return c ? c.querySelector(".node-title").textContent : ""`, cardSel(c))) == "Note C"
	})
	click(t, page, `[data-action="redo"]`, 1)
	until(t, "C's card gone again after Redo", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : "gone"`, cardSel(c))) == "gone"
	})
	if r := p.do("GET", "/api/canvas/node/"+c, nil); r.status != 404 {
		t.Errorf("C after Redo: GET answers %d", r.status)
	}

	if got := js(t, page, `return String(window.__noReload) + "|" + String(window.__loads)`); got != "1|0" {
		t.Errorf("page reloaded or frame A reloaded: %q", got)
	}
	if n := resyncs.Load(); n > 0 {
		t.Errorf("the page resynced %d times", n)
	}
	if got := problems(); len(got) > 0 {
		t.Errorf("page problems: %v", got)
	}
}

func TestWorkbenchReconnectsAfterARestart(t *testing.T) {
	requireChromium(t)
	ws, port := t.TempDir(), freePort(t)
	url := "http://127.0.0.1:" + port
	serve := func() *proc {
		return runUntilHealthy(t, exec.Command(binary, "serve", "--port", port, "--workspace", ws, "--no-open"), url, ws)
	}
	p := serve()
	a := p.addNode(`{"type":"markdown","title":"Before","content":"one","x":40,"y":40,"width":320,"height":200}`)

	page := browsertest.Open(t, url+"/workbench", 1280, 800)
	status := func() string {
		return js(t, page, `return document.querySelector(".status-dot").dataset.status`)
	}
	until(t, "the card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, cardSel(a))) == "y"
	})
	until(t, "connected", func() bool { return status() == "connected" })
	js(t, page, `window.__noReload = 1; return ""`)

	p.stop()
	until(t, "the page to show it is reconnecting", func() bool { return status() == "reconnecting" })
	if got := js(t, page, `return document.querySelector(".status-dot").getAttribute("aria-label") + "|" + document.querySelector(".counts").textContent`); got != "Canvas status: reconnecting|Reconnecting…" {
		t.Errorf("while the server is down: %q", got)
	}
	// The server comes back on the same port and workspace; the page
	// reconnects by itself and later changes keep appearing.
	p2 := serve()
	until(t, "connected again", func() bool { return status() == "connected" })
	b := p2.addNode(`{"type":"markdown","title":"After","content":"two","x":420,"y":40,"width":320,"height":200}`)
	until(t, "the card added after the restart", func() bool {
		return js(t, page, fmt.Sprintf(`const c = document.querySelector(%q); return c ? c.querySelector(".node-title").textContent : ""`, cardSel(b))) == "After"
	})
	p2.must(200, "PATCH", "/api/canvas/node/"+a, `{"title":"Before, renamed"}`)
	until(t, "a change after the restart", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q).querySelector(".node-title").textContent`, cardSel(a))) == "Before, renamed"
	})
	if got := js(t, page, `return String(window.__noReload)`); got != "1" {
		t.Errorf("the page reloaded: %q", got)
	}
}

// cutProxy forwards 127.0.0.1:<port> to target; cut closes every
// connection through it and refuses new ones until restore.
type cutProxy struct {
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutProxy{ln: ln}
	t.Cleanup(func() { ln.Close(); c.cut() })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			c.mu.Lock()
			if c.closed {
				c.mu.Unlock()
				in.Close()
				continue
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				c.mu.Unlock()
				in.Close()
				continue
			}
			c.conns = append(c.conns, in, out)
			c.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
	return c
}

func (c *cutProxy) url() string { return "http://" + c.ln.Addr().String() }

func (c *cutProxy) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, conn := range c.conns {
		conn.Close()
	}
	c.conns = nil
}

func (c *cutProxy) restore() {
	c.mu.Lock()
	c.closed = false
	c.mu.Unlock()
}

// TestWorkbenchResumesAfterADrop: the page's connection drops (the server
// stays up) while another client writes; when it can connect again it
// resumes from the last event it saw, so the server replays only what it
// missed: the changed card is redrawn, no other card is touched.
func TestWorkbenchResumesAfterADrop(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"A","content":"one","x":40,"y":40,"width":320,"height":200}`)
	b := p.addNode(`{"type":"markdown","title":"B","content":"two","x":420,"y":40,"width":320,"height":200}`)
	proxy := newCutProxy(t, strings.TrimPrefix(p.url, "http://"))
	page := browsertest.Open(t, proxy.url()+"/workbench", 1280, 800)
	status := func() string { return js(t, page, `return document.querySelector(".status-dot").dataset.status`) }
	until(t, "both cards", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`) == "2"
	})
	until(t, "connected", func() bool { return status() == "connected" })
	time.Sleep(500 * time.Millisecond) // the rendered markdown arrives
	js(t, page, `
		window.__noReload = 1;
		window.__touched = new Set();
		new MutationObserver((list) => {
			for (const m of list) {
				const card = (m.target.nodeType === 1 ? m.target : m.target.parentElement)?.closest?.(".canvas-node");
				if (card) window.__touched.add(card.dataset.nodeId);
			}
		}).observe(document.querySelector(".nodes"), { subtree: true, childList: true, attributes: true, characterData: true });
		return ""`)

	proxy.cut()
	until(t, "the page to show it is reconnecting", func() bool { return status() == "reconnecting" })
	p.must(200, "PATCH", "/api/canvas/node/"+b, `{"title":"B, renamed while away"}`)
	proxy.restore()
	until(t, "the change made while away", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q).querySelector(".node-title").textContent`, cardSel(b))) == "B, renamed while away"
	})
	until(t, "connected again", func() bool { return status() == "connected" })
	if got := js(t, page, `return [...window.__touched].sort().join()`); got != b {
		t.Errorf("resuming touched the cards %q, want only %q (a full layout redraws every card)", got, b)
	}
	if got := js(t, page, `return String(window.__noReload)`); got != "1" {
		t.Errorf("the page reloaded: %q", got)
	}
	_ = a
}

func TestWorkbenchCullsALargeBoard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// 40 × 20 cards on a grid, 400 px apart: far more than a view shows.
	var ops []string
	for i := 0; i < 800; i++ {
		ops = append(ops, fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"card %d","content":"c%d","x":%d,"y":%d,"width":300,"height":200}}`, i, i, (i%40)*400, (i/40)*400))
	}
	p.must(200, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
	// The view shows the top-left corner at 100 %.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":0,"y":0,"scale":0.99}`)
	var far string
	for _, n := range nodesOf(p.state("")) {
		if d, _ := n["data"].(map[string]any); d != nil && d["title"] == "card 799" {
			far = n["id"].(string)
		}
	}
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	until(t, "the board", func() bool {
		return strings.HasPrefix(js(t, page, `return document.querySelector(".counts").textContent`), "802 nodes")
	})
	count := func() int {
		var n int
		fmt.Sscan(js(t, page, `return String(document.querySelectorAll(".canvas-node").length)`), &n)
		return n
	}
	// A 1280 × 800 view at ~100 % with half a view of margin on each side
	// holds a few dozen cards, not 800.
	until(t, "a culled board", func() bool { n := count(); return n > 0 && n < 120 })
	if got := js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "in" : "out"`, cardSel(far))); got != "out" {
		t.Errorf("the far card is in the DOM: %s", got)
	}
	// Another client changing the far card does not bring it in.
	p.must(200, "PATCH", "/api/canvas/node/"+far, `{"title":"far, renamed"}`)
	time.Sleep(300 * time.Millisecond)
	if got := js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "in" : "out"`, cardSel(far))); got != "out" {
		t.Errorf("a change brought the far card into the DOM")
	}
	// Panning to it (the view's own event, as another viewer moving it)
	// brings its card, with the change, and takes the first ones away.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":-15200,"y":-7400,"scale":1}`)
	until(t, "the far card in view", func() bool {
		return js(t, page, fmt.Sprintf(`const c = document.querySelector(%q); return c ? c.querySelector(".node-title").textContent : ""`, cardSel(far))) == "far, renamed"
	})
	if got := js(t, page, `return [...document.querySelectorAll(".canvas-node .node-title")].some(t => t.textContent === "card 0") ? "in" : "out"`); got != "out" {
		t.Errorf("the first card is still in the DOM after panning away")
	}
	if n := count(); n >= 120 {
		t.Errorf("%d cards in the DOM after panning", n)
	}
	if got := js(t, page, `return String(document.querySelector(".far-layer").hidden)`); got != "true" {
		t.Errorf("the far layer shows at 100 %%: hidden=%s", got)
	}

	// Zoomed far out the cards are boxes on the far layer, not DOM cards;
	// the active one keeps its card. Zoomed back in, the cards return.
	click(t, page, cardSel(far)+" .node-body", 1)
	p.must(200, "POST", "/api/canvas/viewport", `{"x":1,"y":1,"scale":0.1}`)
	until(t, "the far layer", func() bool {
		return js(t, page, `return String(document.querySelector(".far-layer").hidden)`) == "false" && count() == 1
	})
	if got := js(t, page, `return document.querySelector(".canvas-node").dataset.nodeId`); got != far {
		t.Errorf("the card kept far out is %q, want the active %q", got, far)
	}
	p.must(200, "POST", "/api/canvas/viewport", `{"x":1,"y":1,"scale":1}`)
	until(t, "cards back at 100 %", func() bool {
		return count() > 10 && js(t, page, `return String(document.querySelector(".far-layer").hidden)`) == "true"
	})
	if got := js(t, page, `return [...document.querySelectorAll(".canvas-node .node-title")].some(t => t.textContent === "card 0") ? "in" : "out"`); got != "in" {
		t.Errorf("the first card is not back in the DOM at the top left")
	}
}

// On a culled board a card whose frame left the view is parked, not
// destroyed: panned back, the frame shows the page as the human left it
// (the same document, its state), not a fresh load.
func TestWorkbenchCulledFrameKeepsItsPage(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	var ops []string
	for i := 0; i < 400; i++ {
		ops = append(ops, fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"card %d","content":"c%d","x":%d,"y":%d,"width":300,"height":200}}`, i, i, 400+(i%40)*400, (i/40)*400))
	}
	p.must(200, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
	app := `<button id=inc>+1</button> <b id=n>0</b> <i id=born></i>
<script>document.getElementById("born").textContent = String(Math.random());
document.getElementById("inc").onclick = () => { const n = document.getElementById("n"); n.textContent = String(Number(n.textContent) + 1); };</script>`
	id := p.addNode(fmt.Sprintf(`{"type":"html","title":"Counter","html":%q,"x":20,"y":20,"width":340,"height":200}`, app))
	p.must(200, "POST", "/api/canvas/viewport", `{"x":0,"y":0,"scale":0.99}`)
	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	sel := cardSel(id) + " iframe"
	until(t, "the counter frame", func() bool {
		return js(t, page, fmt.Sprintf(`return String(!!document.querySelector(%q))`, sel)) == "true"
	})
	frame := page.MustElement(sel).MustFrame()
	until(t, "the counter page", func() bool {
		v, err := frame.Eval(`() => document.getElementById("born")?.textContent || ""`)
		return err == nil && v.Value.Str() != ""
	})
	born := frame.MustEval(`() => document.getElementById("born").textContent`).Str()
	frame.MustElement("#inc").MustClick()
	frame.MustElement("#inc").MustClick()
	until(t, "two clicks counted", func() bool { return frame.MustEval(`() => document.getElementById("n").textContent`).Str() == "2" })

	visible := func() string {
		return js(t, page, fmt.Sprintf(`const e = document.querySelector(%q); return !e ? "gone" : e.getClientRects().length ? "shown" : "hidden"`, cardSel(id)))
	}
	// Far away: the card is out of the view's DOM (parked, not shown).
	p.must(200, "POST", "/api/canvas/viewport", `{"x":-15200,"y":-3400,"scale":1}`)
	until(t, "the card culled", func() bool { return visible() != "shown" })
	if got := js(t, page, `return String(document.querySelectorAll(".canvas-node:not(.card-parked)").length)`); got == "401" {
		t.Fatal("the board is not culled")
	}
	// Back: the same page, with its state.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":0,"y":0,"scale":0.99}`)
	until(t, "the card back", func() bool { return visible() == "shown" })
	if got := frame.MustEval(`() => document.getElementById("born").textContent + "|" + document.getElementById("n").textContent`).Str(); got != born+"|2" {
		t.Fatalf("the frame reloaded: %q, want %q", got, born+"|2")
	}
	// A node that is removed while parked leaves no card behind.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":-15200,"y":-3400,"scale":1}`)
	until(t, "the card culled again", func() bool { return visible() != "shown" })
	p.must(200, "DELETE", "/api/canvas/node/"+id, nil)
	until(t, "the parked card gone", func() bool { return visible() == "gone" })
	noProblems(t, problems)
}
