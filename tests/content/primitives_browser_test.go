package content_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

var updateShots = flag.Bool("update-shots", false, "write the primitives' reference screenshots into docs/shots")

// Two HTML primitives opened as a browser shows them: the surface document
// the server sends (sandboxed, with its bridges) in Chromium. The test
// checks what is drawn from the data, that the triage board's script
// moves a card, and that nothing logs an error.
func TestPrimitivesInChromium(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	s := start(t, pmxcanvas.Options{})
	page := browsertest.Open(t, "about:blank", 1040, 760)
	problems := browsertest.Problems(t, page)

	open := func(kind string) (example map[string]any) {
		t.Helper()
		d, ok := primitives.Lookup(kind)
		if !ok {
			t.Fatalf("no primitive %s", kind)
		}
		id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html", "primitive": kind, "data": d.Example}))
		if err := page.Navigate(s.base + "/api/canvas/surface/" + id); err != nil {
			t.Fatal(err)
		}
		if err := page.WaitLoad(); err != nil {
			t.Fatal(err)
		}
		return d.Example
	}
	count := func(selector string) int {
		t.Helper()
		els, err := page.Elements(selector)
		if err != nil {
			t.Fatal(err)
		}
		return len(els)
	}
	shot := func(name string) {
		t.Helper()
		if !*updateShots {
			return
		}
		png, err := page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("..", "..", "docs", "shots")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// choice-grid: one card per option, with its pros and cons.
	ex := open("choice-grid")
	items := ex["items"].([]any)
	if n := count("article.choice"); n != len(items) {
		t.Errorf("choice-grid draws %d options, want %d", n, len(items))
	}
	first := items[0].(map[string]any)
	if h := textOf(t, page, "article.choice h3"); h != first["title"] {
		t.Errorf("first option title %q, want %q", h, first["title"])
	}
	if n := count("article.choice ul.pros li"); n == 0 {
		t.Error("choice-grid draws no pros")
	}
	shot("primitive-choice-grid")

	// triage-board: one column per column, one card per item; its script
	// moves a card to the next column.
	ex = open("triage-board")
	if n, want := count("section.column"), len(ex["columns"].([]any)); n != want {
		t.Errorf("triage-board draws %d columns, want %d", n, want)
	}
	if n, want := count("article.item"), len(ex["items"].([]any)); n != want {
		t.Errorf("triage-board draws %d cards, want %d", n, want)
	}
	before := textOf(t, page, `section.column[data-col="0"] [data-count]`)
	btn, err := page.Element(`section.column[data-col="0"] article.item [data-move="1"]`)
	if err != nil {
		t.Fatal(err)
	}
	if err := btn.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for textOf(t, page, `section.column[data-col="0"] [data-count]`) == before {
		if time.Now().After(deadline) {
			t.Fatalf("moving a card left column 0 at %s cards", before)
		}
		time.Sleep(50 * time.Millisecond)
	}
	shot("primitive-triage-board")

	if p := problems(); len(p) > 0 {
		t.Errorf("the surfaces logged problems:\n%s", strings.Join(p, "\n"))
	}
}

func textOf(t *testing.T, page *rod.Page, selector string) string {
	t.Helper()
	el, err := page.Element(selector)
	if err != nil {
		t.Fatalf("%s: %v", selector, err)
	}
	text, err := el.Text()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(text)
}
