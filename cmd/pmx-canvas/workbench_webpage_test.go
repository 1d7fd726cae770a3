package main

// A webpage node's live preview in the focus overlay (web-client.md §5.10,
// §18): the page itself in a sandboxed frame, on demand; a page that
// refuses framing gets an explanation instead. Fixture pages on loopback.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/input"
)

func TestWorkbenchWebpageLivePreview(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		if name == "blocked" {
			w.Header().Set("X-Frame-Options", "DENY")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Page %s</title></head><body><article><h1 id=h>Live %s</h1><p>The text of page %s, long enough to be the article of the page.</p></article></body></html>`, name, name, name)
	}))
	t.Cleanup(srv.Close)
	open := p.addNode(fmt.Sprintf(`{"type":"webpage","url":%q,"x":60,"y":60}`, srv.URL+"/open"))
	blocked := p.addNode(fmt.Sprintf(`{"type":"webpage","url":%q,"x":700,"y":60}`, srv.URL+"/blocked"))
	until(t, "both pages fetched", func() bool {
		ns := boardNodes(p, "webpage")
		return len(ns) == 2 && dataOf(ns[0])["status"] == "ready" && dataOf(ns[1])["status"] == "ready"
	})
	if d := dataOf(p.must(200, "GET", "/api/canvas/node/"+blocked, nil).body); d["frameBlocked"] != true {
		t.Fatalf("the server did not see the page refuse framing: %v", d)
	}
	page, problems := openBoard(t, p)
	// On the card: no live preview.
	until(t, "the card", func() bool {
		return js(t, page, `return document.querySelector('`+cardSel(open)+` .webpage-title')?.textContent || ""`) == "Page open"
	})
	if js(t, page, `return String(!!document.querySelector('`+cardSel(open)+` .webpage-live-toggle'))`) != "false" {
		t.Fatal("the card offers a live preview (only the overlay does)")
	}
	click(t, page, cardSel(open)+" .expand-btn", 1)
	toggle := `.expanded-overlay-body .webpage-live-toggle`
	until(t, "the toggle in the overlay", func() bool {
		return js(t, page, `return document.querySelector('`+toggle+`')?.textContent || ""`) == "Show live preview"
	})
	if js(t, page, `return String(!!document.querySelector(".expanded-overlay-body iframe"))`) != "false" {
		t.Fatal("the page is framed before it was asked for")
	}
	click(t, page, toggle, 1)
	frameSel := `.expanded-overlay-body iframe.webpage-live-frame`
	until(t, "the live frame", func() bool {
		return js(t, page, `const f = document.querySelector('`+frameSel+`'); return f ? f.getAttribute("sandbox") + "|" + f.getAttribute("referrerpolicy") : ""`) ==
			"allow-downloads allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-presentation allow-scripts|no-referrer"
	})
	frame := page.MustElement(frameSel).MustFrame()
	until(t, "the page itself in the frame", func() bool {
		v, err := frame.Eval(`() => document.getElementById("h")?.textContent || ""`)
		return err == nil && v.Value.Str() == "Live open"
	})
	if got := js(t, page, `return document.querySelector('`+toggle+`').textContent + "|" + document.querySelector('`+toggle+`').getAttribute("aria-pressed")`); got != "Hide live preview|true" {
		t.Fatalf("toggle %q", got)
	}
	click(t, page, toggle, 1)
	until(t, "the frame gone", func() bool {
		return js(t, page, `return String(!!document.querySelector('`+frameSel+`'))`) == "false"
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the overlay closed", func() bool {
		return js(t, page, `return String(!!document.querySelector(".expanded-overlay-panel"))`) == "false"
	})

	// A page that refuses framing: no toggle, an explanation.
	click(t, page, cardSel(blocked)+" .expand-btn", 1)
	until(t, "the explanation", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector(".expanded-overlay-body .webpage-live-blocked")?.textContent || ""`), "does not allow being shown inside another page")
	})
	if js(t, page, `return String(!!document.querySelector('`+toggle+`'))`) != "false" {
		t.Fatal("a page that refuses framing offers a live preview")
	}
	noProblems(t, problems)
}
