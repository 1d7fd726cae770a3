package main

// The expanded (focus) overlay (web-client.md §13): opened from the card's
// ⤢ button, the node menu and a markdown card's Edit button; Copy, the
// word count, Esc and the backdrop close it; the markdown editor saves a
// node's content and a workspace file.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// overlayState is the open overlay's node id, title, word count and the
// Copy button's text ("" when no overlay is open).
func overlayState(t *testing.T, page *rod.Page) string {
	t.Helper()
	return js(t, page, `const p = document.querySelector(".expanded-overlay-panel"); if (!p) return "";
		return [p.dataset.nodeId, p.querySelector(".expanded-overlay-title").textContent,
			p.querySelector(".expanded-overlay-words")?.textContent ?? "", p.querySelector(".expanded-overlay-copy")?.textContent ?? ""].join("|")`)
}

// unnamedControls lists the overlay's buttons and text boxes that have no
// accessible name (text, aria-label or title).
func unnamedControls(t *testing.T, page *rod.Page) string {
	t.Helper()
	return js(t, page, `return [...document.querySelectorAll(".expanded-overlay-panel button, .expanded-overlay-panel textarea")]
		.filter(b => !(b.getAttribute("aria-label") || b.textContent.trim() || b.title)).map(b => b.outerHTML).join(" ")`)
}

func TestWorkbenchExpandedOverlay(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	// Forty words.
	words := strings.TrimSpace(strings.Repeat("one two three four five six seven eight ", 5))
	md := p.addNode(fmt.Sprintf(`{"type":"markdown","title":"Forty","content":%q,"x":60,"y":80,"width":360,"height":240}`, words))
	other := p.addNode(`{"type":"markdown","title":"Other","content":"# Other","x":500,"y":80,"width":300,"height":200}`)
	node := func(id string) map[string]any { return p.must(200, "GET", "/api/canvas/node/"+id, nil).body }

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	if err := (proto.BrowserGrantPermissions{Origin: p.url, Permissions: []proto.BrowserPermissionType{
		proto.BrowserPermissionTypeClipboardReadWrite, proto.BrowserPermissionTypeClipboardSanitizedWrite}}).Call(page.Browser()); err != nil {
		t.Fatal(err)
	}
	nodeSel := func(id string) string { return fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id) }
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node .md-rendered").length)`) == "2"
	})

	// The ⤢ button (named "Expand") opens the overlay: badge, title, pin,
	// Copy, the word count, the body drawn by the markdown renderer.
	if got := js(t, page, fmt.Sprintf(`const b = document.querySelector('%s .expand-btn'); return b.getAttribute("aria-label") + "|" + !!b.querySelector("svg")`, nodeSel(md))); got != "Expand|true" {
		t.Fatalf("expand button %q", got)
	}
	click(t, page, nodeSel(md)+" .expand-btn", 1)
	until(t, "the overlay", func() bool { return overlayState(t, page) == md+"|Forty|40 words|Copy" })
	if got := js(t, page, `const p = document.querySelector(".expanded-overlay-panel");
		return [p.getAttribute("role"), p.querySelector(".expanded-overlay-badge").textContent, p.querySelector(".expanded-overlay-pin").textContent.trim(),
			p.querySelector(".expanded-overlay-close").getAttribute("aria-label"), p.querySelector(".expanded-overlay-body .md-rendered p")?.textContent.slice(0, 13),
			document.activeElement === p.querySelector(".expanded-overlay-close")].join("|")`); got != "dialog|MD|Pin as context|Close (Esc)|one two three|true" {
		t.Fatalf("overlay %q", got)
	}
	if got := unnamedControls(t, page); got != "" {
		t.Fatalf("controls without a name: %s", got)
	}

	// Copy puts the text on the clipboard and says so.
	click(t, page, ".expanded-overlay-copy", 1)
	until(t, "Copied!", func() bool { return strings.HasSuffix(overlayState(t, page), "|Copied!") })
	res, err := page.Eval(`() => navigator.clipboard.readText()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value.Str(); got != words {
		t.Fatalf("clipboard %q", got)
	}
	until(t, "Copy again after 1.5 s", func() bool { return strings.HasSuffix(overlayState(t, page), "|Copy") })

	// Pin as context goes through the context pins route.
	click(t, page, ".expanded-overlay-pin", 1)
	until(t, "the pin", func() bool {
		return js(t, page, `return document.querySelector(".expanded-overlay-pin").textContent.trim()`) == "In context"
	})
	until(t, "the pin on the server", func() bool {
		return strings.Contains(fmt.Sprint(p.must(200, "GET", "/api/canvas/pinned-context", nil).body), md)
	})

	// Esc closes it and focus goes back to the button that opened it.
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay closed", func() bool { return overlayState(t, page) == "" })
	if got := js(t, page, fmt.Sprintf(`return String(document.activeElement === document.querySelector('%s .expand-btn'))`, nodeSel(md))); got != "true" {
		t.Fatalf("focus after Esc is on %s", js(t, page, `return document.activeElement.outerHTML.slice(0, 120)`))
	}

	// The node menu's "Expand ⤢" opens it (collapse keeps its own item);
	// a click on the backdrop closes it.
	x, y, _ := box(t, page, nodeSel(other)+" .node-body")
	rightClick(t, page, x, y)
	if got := menuItems(t, page); got != "Focus|Expand ⤢|Collapse|Lock position|Pin as context|Connect from here|0 edges connected|-|Close" {
		t.Fatalf("node menu %q", got)
	}
	clickMenuItem(t, page, "Expand ⤢")
	until(t, "the overlay from the menu", func() bool { return overlayState(t, page) == other+"|Other|1 word|Copy" })
	if err := page.Mouse.MoveTo(proto.Point{X: 10, Y: 400}); err != nil {
		t.Fatal(err)
	}
	if err := page.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay closed by the backdrop", func() bool { return overlayState(t, page) == "" })
	if node(other)["collapsed"] == true {
		t.Fatal("expanding collapsed the node")
	}

	// The card's Edit button opens the editor; typing and Ctrl+S save the
	// node's content on the server.
	click(t, page, nodeSel(other)+" .md-edit-btn", 1)
	until(t, "the editor", func() bool {
		return js(t, page, `return String(document.activeElement?.classList.contains("md-editor-source"))`) == "true"
	})
	if err := page.Keyboard.Press(input.ControlLeft); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.KeyA); err != nil {
		t.Fatal(err)
	}
	_ = page.Keyboard.Release(input.ControlLeft)
	if err := page.InsertText("# Edited\n\nNew body text."); err != nil {
		t.Fatal(err)
	}
	until(t, "the live preview", func() bool {
		return js(t, page, `return document.querySelector(".md-editor-preview h1")?.textContent ?? ""`) == "Edited"
	})
	if got := unnamedControls(t, page); got != "" {
		t.Fatalf("editor controls without a name: %s", got)
	}
	chord(t, page, input.KeyS)
	until(t, "Saved", func() bool {
		return js(t, page, `return document.querySelector(".md-editor-save").textContent`) == "Saved"
	})
	content := func(id string) string {
		n := node(id)
		if c, ok := n["content"].(string); ok {
			return c
		}
		d, _ := n["data"].(map[string]any)
		c, _ := d["content"].(string)
		return c
	}
	if got := content(other); got != "# Edited\n\nNew body text." {
		t.Fatalf("content on the server %q", got)
	}
	until(t, "the word count follows the node", func() bool { return overlayState(t, page) == other+"|Other|4 words|Copy" })
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the editor closed", func() bool { return overlayState(t, page) == "" })
	until(t, "the card shows the edit", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector('%s .md-rendered h1')?.textContent ?? ""`, nodeSel(other))) == "Edited"
	})

	if got := problems(); len(got) > 0 {
		t.Fatalf("page problems: %v", got)
	}
}

// A markdown file on the board (a file node) is edited in the overlay and
// saved to the workspace; the card follows the file.
func TestWorkbenchExpandedOverlaySavesAFile(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	file := filepath.Join(p.ws, "notes.md")
	if err := os.WriteFile(file, []byte("# Notes\n\nfirst draft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := p.addNode(`{"type":"file","content":"notes.md","x":60,"y":80,"width":420,"height":260}`)

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id)
	until(t, "the file card", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('`+sel+` .file-text')?.textContent ?? ""`), "first draft")
	})
	click(t, page, sel+" .expand-btn", 1)
	until(t, "the overlay", func() bool { return overlayState(t, page) == id+"|notes.md|3 words|Copy" })
	click(t, page, ".expanded-overlay-edit", 1)
	until(t, "the editor", func() bool {
		return js(t, page, `return document.querySelector(".md-editor-source")?.value ?? ""`) == "# Notes\n\nfirst draft\n" &&
			js(t, page, `return document.querySelector(".md-editor-file")?.textContent ?? ""`) == "notes.md"
	})
	click(t, page, ".md-editor-source", 1)
	chord(t, page, input.KeyA)
	if err := page.InsertText("# Notes\n\nsecond draft, saved from the overlay\n"); err != nil {
		t.Fatal(err)
	}
	click(t, page, ".md-editor-save", 1)
	until(t, "Saved", func() bool {
		return js(t, page, `return document.querySelector(".md-editor-save").textContent`) == "Saved"
	})
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "# Notes\n\nsecond draft, saved from the overlay\n" {
		t.Fatalf("file on disk %q", got)
	}
	// The watcher re-reads the file into the node; the overlay follows it.
	until(t, "the word count of the saved file", func() bool { return overlayState(t, page) == id+"|notes.md|7 words|Copy" })
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the card shows the file", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('`+sel+` .file-text')?.textContent ?? ""`), "second draft")
	})
	if got := problems(); len(got) > 0 {
		t.Fatalf("page problems: %v", got)
	}
}

// Frames fill the overlay: an html surface and a graph's viewer (asked for
// its expanded display); the node on the board keeps its size.
func TestWorkbenchExpandedOverlayFramesFill(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	htmlID := p.addNode(`{"type":"html","title":"Surface","html":"<h1>Hello surface</h1>","x":40,"y":40,"width":360,"height":240}`)
	graph := p.must(200, "POST", "/api/canvas/graph", `{"graphType":"bar","title":"Build minutes","x":440,"y":40,"width":420,"height":300,"data":[{"day":"Mon","minutes":12},{"day":"Tue","minutes":9}],"xKey":"day","yKey":"minutes"}`).str("id")

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	until(t, "the board", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node iframe").length)`) == "2"
	})
	for _, c := range []struct{ id, title, display string }{{htmlID, "Surface", ""}, {graph, "Build minutes", "expanded"}} {
		sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, c.id)
		click(t, page, sel+" .expand-btn", 1)
		until(t, "the overlay of "+c.title, func() bool { return strings.HasPrefix(overlayState(t, page), c.id+"|"+c.title+"|") })
		// The frame is the body's content box (16 px padding each side).
		var got string
		if !within(5*time.Second, func() bool {
			got = js(t, page, `const b = document.querySelector(".expanded-overlay-body"), f = b.querySelector("iframe");
				if (!f) return ""; const r = f.getBoundingClientRect(), s = b.getBoundingClientRect();
				return [Math.round(s.width - r.width), Math.round(s.height - r.height), new URL(f.src).searchParams.get("display") ?? ""].join("|")`)
			return got == "32|32|"+c.display
		}) {
			t.Fatalf("%s frame in the overlay: %q (width and height short of the body, display)", c.title, got)
		}
		// A 800 px window less the backdrop's padding, the header and the
		// body's padding.
		if h, _ := strconv.Atoi(js(t, page, `return String(Math.round(document.querySelector(".expanded-overlay-body iframe").getBoundingClientRect().height))`)); h < 600 {
			t.Fatalf("%s frame is %d px high", c.title, h)
		}
		if err := page.Keyboard.Type(input.Escape); err != nil {
			t.Fatal(err)
		}
		until(t, "the overlay closed", func() bool { return overlayState(t, page) == "" })
	}
	if got := problems(); len(got) > 0 {
		t.Fatalf("page problems: %v", got)
	}
}
