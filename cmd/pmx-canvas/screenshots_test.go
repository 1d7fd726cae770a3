package main

// The README's screenshots, taken from the demo board (serve --demo) in
// Chromium: the busy board with every node type, the AX panel with its
// pending approval, the focus overlay of a note, and the light theme. The
// test checks the page shows what each picture is of; with
// PMX_SCREENSHOTS=1 (make screenshots) it also writes the pictures to
// docs/screenshots/.

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

func TestDemoBoardScreens(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "", "--demo")
	page := browsertest.Open(t, "about:blank", 1600, 1000)
	problems := browsertest.Problems(t, page)
	if err := page.Navigate(p.url + "/workbench"); err != nil {
		t.Fatal(err)
	}
	// Every node type the demo lays out has its card (context docks beside
	// the toolbar), with content drawn.
	defer func() {
		if t.Failed() {
			t.Log(js(t, page, `return [...document.querySelectorAll(".canvas-node, .docked-node")].map((e) => e.dataset.nodeType).join(",")`))
		}
	}()
	until(t, "the demo board's cards", func() bool {
		return js(t, page, `const types = new Set([...document.querySelectorAll(".canvas-node, .docked-node")].map((e) => e.dataset.nodeType));
			return ["markdown","status","context","ledger","trace","file","image","webpage","html","group","diff","mermaid","json-render","graph","mcp-app"].every((t) => types.has(t)) ? "y" : ""`) == "y"
	})
	until(t, "file lines, diff lines and the rendered markdown", func() bool {
		return js(t, page, `return document.querySelector('.canvas-node[data-node-type="markdown"] h1') &&
			document.querySelectorAll('.canvas-node[data-node-type="diff"] [class*="add"]').length > 0 &&
			document.querySelector('.canvas-node[data-node-type="file"]').textContent.includes("hello from a file node") ? "y" : ""`) == "y"
	})
	click(t, page, `[data-action="fit"]`, 1)
	settle(t, page)
	shot(t, page, "board.png")

	// The AX panel: the pending approval is counted and listed.
	until(t, "the pending-gate count in the title", func() bool { return js(t, page, `return document.title.startsWith("(1)") ? "y" : ""`) == "y" })
	click(t, page, ".ax-toggle", 1)
	until(t, "the approval in the AX panel", func() bool {
		return js(t, page, `const g = document.querySelector(".ax-gate"); return g && g.textContent.includes("Merge the proposed change?") ? "y" : ""`) == "y"
	})
	settle(t, page)
	shot(t, page, "ax-panel.png")
	click(t, page, ".ax-toggle", 1)

	// The focus overlay of the demo's markdown note: its header actions
	// and the editable document.
	// (From the node menu: the fitted board puts the card's buttons under
	// the toolbar.)
	x, y, _ := box(t, page, `.canvas-node[data-node-type="markdown"] .node-body`)
	rightClick(t, page, x, y)
	clickMenuItem(t, page, "Expand ⤢")
	until(t, "the expanded note", func() bool {
		return js(t, page, `const p = document.querySelector(".expanded-overlay-panel"); return p && p.querySelector(".md-reader-editable h1") && p.querySelector(".expanded-overlay-words") ? "y" : ""`) == "y"
	})
	settle(t, page)
	shot(t, page, "overlay.png")
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay closed", func() bool {
		return js(t, page, `return document.querySelector(".expanded-overlay-panel") ? "" : "y"`) == "y"
	})

	// The light theme.
	p.must(200, "POST", "/api/canvas/theme", `{"theme":"light"}`)
	until(t, "the light theme", func() bool {
		return js(t, page, `return document.documentElement.dataset.theme === "light" ? "y" : ""`) == "y"
	})
	settle(t, page)
	shot(t, page, "light.png")
	noProblems(t, problems)
}

// settle waits two animation frames so what was drawn is on screen.
func settle(t *testing.T, page interface {
	Eval(string, ...any) (*proto.RuntimeRemoteObject, error)
}) {
	t.Helper()
	if _, err := page.Eval(`() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`); err != nil {
		t.Fatal(err)
	}
}

// shot writes docs/screenshots/<name> when PMX_SCREENSHOTS=1.
func shot(t *testing.T, page interface {
	Screenshot(bool, *proto.PageCaptureScreenshot) ([]byte, error)
}, name string) {
	t.Helper()
	if on, _ := strconv.ParseBool(os.Getenv("PMX_SCREENSHOTS")); !on {
		return
	}
	png, err := page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "docs", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote docs/screenshots/%s (%d bytes)", name, len(png))
}
