package main

// The inline markdown editor's floating format bar (web-client.md §5.10),
// by mouse and by keyboard, in Chromium with real input.

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

const editableDoc = ".expanded-overlay-body .md-reader-editable"

// openInlineEditor adds a note, opens its focus overlay and waits for the
// editable document to show text.
func openInlineEditor(t *testing.T, p *proc, content, shows string) (*rod.Page, string, func() []string) {
	t.Helper()
	id := p.addNode(fmt.Sprintf(`{"type":"markdown","title":"Format","content":%q,"x":60,"y":80,"width":360,"height":240}`, content))
	page, problems := openBoard(t, p)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q]`, id)
	until(t, "the card", func() bool {
		return js(t, page, `return document.querySelector('`+sel+` .md-rendered') ? "y" : ""`) == "y"
	})
	click(t, page, sel+" .expand-btn", 1)
	if !within(10*time.Second, func() bool {
		return js(t, page, `return document.querySelector("`+editableDoc+`")?.textContent.replace(/\n/g, "") ?? ""`) == shows
	}) {
		t.Fatalf("the editable document shows %q; overlay: %s; problems: %v", js(t, page, `return document.querySelector("`+editableDoc+`")?.textContent ?? "none"`),
			js(t, page, `return document.querySelector(".expanded-overlay-body")?.innerHTML ?? "no overlay"`), problems())
	}
	return page, id, problems
}

// doubleClickWord double-clicks the first occurrence of word in the
// editable document (a real double click: the browser selects the word).
func doubleClickWord(t *testing.T, page *rod.Page, word string) {
	t.Helper()
	at := js(t, page, fmt.Sprintf(`
		const doc = document.querySelector(%q);
		const w = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const i = n.nodeValue.indexOf(%q);
			if (i < 0) continue;
			const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + %d);
			const b = r.getBoundingClientRect();
			return (b.left + b.width / 2) + "," + (b.top + b.height / 2);
		}
		return "";`, editableDoc, word, len(word)))
	var x, y float64
	if _, err := fmt.Sscanf(at, "%g,%g", &x, &y); err != nil {
		t.Fatalf("word %q not in the document (%q)", word, at)
	}
	if err := page.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
	// As a browser sees a double click: press and release with click
	// count 1, then again with click count 2.
	for _, n := range []int{1, 2} {
		if err := page.Mouse.Down(proto.InputMouseButtonLeft, n); err != nil {
			t.Fatal(err)
		}
		if err := page.Mouse.Up(proto.InputMouseButtonLeft, n); err != nil {
			t.Fatal(err)
		}
	}
	state := func() string {
		return js(t, page, `const bar = document.querySelector(".md-inline-format-bar"); const sel = window.getSelection();
			if (!bar || !sel.rangeCount) return sel.toString().trim() + "|false";
			const b = bar.getBoundingClientRect(), s = sel.getRangeAt(0).getBoundingClientRect();
			// Just above it (the bar follows the selection a moment later).
			return sel.toString().trim() + "|" + (s.top - b.bottom >= 0 && s.top - b.bottom < 16 && b.left < s.right && b.right > s.left)`)
	}
	if !within(10*time.Second, func() bool { return state() == word+"|true" }) {
		t.Fatalf("after a double click on %q at (%v, %v): %q; under the pointer: %s", word, x, y, state(),
			js(t, page, fmt.Sprintf(`const e = document.elementFromPoint(%v, %v); return e ? e.outerHTML.slice(0, 200) : "nothing"`, x, y)))
	}
}

// Select a word with the mouse, press a button: the document changes and
// saves itself as Markdown.
func TestWorkbenchFormatBarByMouse(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, id, problems := openInlineEditor(t, p, "# Plan\n\nFirst step.\n\n- one\n- two", "PlanFirst step.onetwo")
	doubleClickWord(t, page, "step")
	labels := js(t, page, `return [...document.querySelectorAll('.md-inline-format-bar[role=toolbar] button')].map(b => b.getAttribute("aria-label")).join(",")`)
	if labels != "Bold,Italic,Strikethrough,Inline code,Heading 1,Heading 2,Heading 3,Paragraph,Quote,Bulleted list,Numbered list,Link" {
		t.Fatalf("bar buttons: %s", labels)
	}
	click(t, page, ".md-inline-format-bar .md-format-bold", 1)
	until(t, "bold saved", func() bool { return markdownOf(p, id) == "# Plan\n\nFirst **step**.\n\n- one\n- two" })

	doubleClickWord(t, page, "one")
	click(t, page, ".md-inline-format-bar .md-format-code", 1)
	if !within(10*time.Second, func() bool { return markdownOf(p, id) == "# Plan\n\nFirst **step**.\n\n- `one`\n- two" }) {
		t.Fatalf("inline code: saved %q; document %s", markdownOf(p, id), js(t, page, `return JSON.stringify(document.querySelector("`+editableDoc+`").innerHTML)`))
	}

	doubleClickWord(t, page, "First")
	click(t, page, ".md-inline-format-bar .md-format-h2", 1)
	until(t, "heading saved", func() bool { return markdownOf(p, id) == "# Plan\n\n## First **step**.\n\n- `one`\n- two" })

	// A click beside the text collapses the selection: the bar goes.
	click(t, page, ".expanded-overlay-hint", 1)
	until(t, "the bar hidden", func() bool {
		return js(t, page, `return String(!!document.querySelector(".md-inline-format-bar"))`) == "false"
	})
	noProblems(t, problems)
}

// The bar is reachable from the keyboard: select with Shift+Ctrl+←, Tab
// to a button, Enter; Escape returns to the document.
func TestWorkbenchFormatBarByKeyboard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, id, problems := openInlineEditor(t, p, "Ship it today", "Ship it today")
	placeCaretAtEnd(t, page, editableDoc)
	for _, k := range []input.Key{input.ShiftLeft, input.ControlLeft} {
		if err := page.Keyboard.Press(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Keyboard.Type(input.ArrowLeft); err != nil {
		t.Fatal(err)
	}
	for _, k := range []input.Key{input.ControlLeft, input.ShiftLeft} {
		if err := page.Keyboard.Release(k); err != nil {
			t.Fatal(err)
		}
	}
	until(t, "the word selected and the bar shown", func() bool {
		return js(t, page, `return window.getSelection().toString() + "|" + !!document.querySelector(".md-inline-format-bar")`) == "today|true"
	})
	focused := func() string {
		return js(t, page, `return document.activeElement?.getAttribute("aria-label") || document.activeElement?.className || ""`)
	}
	var trail []string
	for i := 0; i < 3; i++ {
		if err := page.Keyboard.Type(input.Tab); err != nil {
			t.Fatal(err)
		}
		trail = append(trail, focused())
	}
	t.Logf("focus trail %v", trail)
	if got := focused(); got != "Strikethrough" {
		t.Fatalf("three Tabs from the selection focus %q, want Strikethrough", got)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "strikethrough saved", func() bool { return markdownOf(p, id) == "Ship it ~~today~~" })
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "back in the document, overlay still open", func() bool {
		return js(t, page, `return document.activeElement?.matches(".md-reader-editable") + "|" + !!document.querySelector(".expanded-overlay-panel")`) == "true|true"
	})
	if n, _ := strconv.Atoi(js(t, page, `return String(document.querySelectorAll(".md-inline-format-bar").length)`)); n != 0 {
		t.Fatal("Escape left the bar open")
	}
	noProblems(t, problems)
}

// The source editor's keys: Ctrl+U strikes, Ctrl+Z undoes it, Tab and
// Shift+Tab indent and outdent the selected lines, Ctrl+E makes code, and
// Esc without Save keeps the draft (it is saved as the editor goes).
func TestWorkbenchSourceEditorKeys(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	id := p.addNode(`{"type":"markdown","title":"Source","content":"alpha beta\ngamma","x":60,"y":80,"width":360,"height":240}`)
	page, problems := openBoard(t, p)
	click(t, page, fmt.Sprintf(`.canvas-node[data-node-id=%q] .md-edit-btn`, id), 1)
	until(t, "the source editor", func() bool {
		return js(t, page, `return String(document.activeElement?.classList.contains("md-editor-source"))`) == "true"
	})
	value := func() string { return js(t, page, `return document.querySelector(".md-editor-source").value`) }
	shift := func(k input.Key) {
		t.Helper()
		if err := page.Keyboard.Press(input.ShiftLeft); err != nil {
			t.Fatal(err)
		}
		if err := page.Keyboard.Type(k); err != nil {
			t.Fatal(err)
		}
		if err := page.Keyboard.Release(input.ShiftLeft); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		what string
		keys func()
		want string
	}{
		{"Ctrl+A Ctrl+U", func() { chord(t, page, input.KeyA); chord(t, page, input.KeyU) }, "~~alpha beta\ngamma~~"},
		{"Ctrl+Z", func() { chord(t, page, input.KeyZ) }, "alpha beta\ngamma"},
		{"Ctrl+A Tab", func() {
			chord(t, page, input.KeyA)
			if err := page.Keyboard.Type(input.Tab); err != nil {
				t.Fatal(err)
			}
		}, "  alpha beta\n  gamma"},
		{"Shift+Tab", func() { shift(input.Tab) }, "alpha beta\ngamma"},
		{"Ctrl+Home, select a word, Ctrl+E", func() {
			chord(t, page, input.Home)
			for i := 0; i < 5; i++ {
				shift(input.ArrowRight)
			}
			chord(t, page, input.KeyE)
		}, "`alpha` beta\ngamma"},
	}
	for _, s := range steps {
		s.keys()
		if !within(5*time.Second, func() bool { return value() == s.want }) {
			t.Fatalf("after %s: %q, want %q", s.what, value(), s.want)
		}
	}
	if got := js(t, page, `return document.activeElement?.className || ""`); got != "md-editor-source" {
		t.Fatalf("Tab moved the focus to %q", got)
	}
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the draft saved as the overlay closed", func() bool { return markdownOf(p, id) == "`alpha` beta\ngamma" })
	noProblems(t, problems)
}
