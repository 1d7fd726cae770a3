package main

// The AX panel as a human uses it: go-rod drives Chromium with real mouse
// and keyboard input against the real server, and the tests check what an
// agent waiting on the server sees.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// typeInto clicks the element and types text into it. The panel's cards
// come and go as gates are decided, which moves what is below them: click
// again until the element has the focus.
func typeInto(t *testing.T, page *rod.Page, selector, text string) {
	t.Helper()
	focused := func() bool {
		return js(t, page, fmt.Sprintf(`return document.activeElement?.matches(%q) ? "y" : ""`, selector)) == "y"
	}
	for i := 0; i < 5 && !focused(); i++ {
		click(t, page, selector, 1)
	}
	if !focused() {
		t.Fatalf("%s does not take the focus", selector)
	}
	if text == "" {
		return // only focus it
	}
	if err := page.InsertText(text); err != nil {
		t.Fatal(err)
	}
}

// gateSel addresses a control inside the panel's card of one gate.
func gateSel(id, inner string) string { return fmt.Sprintf(`.ax-gate[data-gate-id=%q] %s`, id, inner) }

func openAXPage(t *testing.T, p *proc) (*rod.Page, func() []string) {
	t.Helper()
	page := browsertest.Open(t, "about:blank", 1280, 800)
	problems := browsertest.Problems(t, page)
	if err := page.Navigate(p.url + "/workbench"); err != nil {
		t.Fatal(err)
	}
	until(t, "the AX button", func() bool { return js(t, page, `return document.querySelector(".ax-toggle") ? "y" : ""`) == "y" })
	return page, problems
}

func noProblems(t *testing.T, problems func() []string) {
	t.Helper()
	if got := problems(); len(got) > 0 {
		t.Fatalf("the page reported problems:\n%s", strings.Join(got, "\n"))
	}
}

// TestWorkbenchAXPanelReleasesAwaits: each kind of gate an agent waits on
// is answered in the panel with the mouse, and the agent's parked await
// returns at once with the decision, recorded as the browser's. A pending
// gate shows as a badge, a toast and a tab-title count.
func TestWorkbenchAXPanelReleasesAwaits(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openAXPage(t, p)
	base := js(t, page, `return document.title`)

	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Deploy to prod","detail":"v2.1 to all regions"}`).body, "approvalGate")["id"].(string)
	until(t, "the title counter", func() bool { return js(t, page, `return document.title`) == "(1) "+base })
	if got := js(t, page, `return document.querySelector(".ax-toggle .ax-badge")?.textContent || ""`); got != "1" {
		t.Fatalf("badge %q", got)
	}
	if got := js(t, page, `return document.querySelector(".ax-toggle").getAttribute("aria-label")`); got != "Agent panel (1 waiting for you)" {
		t.Fatalf("button name %q", got)
	}
	until(t, "the toast", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector(".ax-toast")?.textContent || ""`), "Approval requested: Deploy to prod")
	})

	// Approve with the mouse while the agent waits.
	click(t, page, ".ax-toggle", 1)
	until(t, "the approval card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, gateSel(gate, ".ax-approve"))) == "y"
	})
	done := awaitGate(p.url + "/api/canvas/ax/approval/" + gate + "?waitMs=20000")
	until(t, "the parked await", func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	clicked := time.Now()
	click(t, page, gateSel(gate, `[aria-label="Approve Deploy to prod"]`), 1)
	select {
	case got := <-done:
		if g := obj(got, "approvalGate"); got["pending"] != false || g["status"] != "approved" || g["resolvedBy"] != "browser" {
			t.Fatalf("await: %v", got)
		}
		if d := time.Since(clicked); d > 2*time.Second {
			t.Fatalf("the await returned %v after the click", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the click did not release the await")
	}
	until(t, "the title without a count", func() bool { return js(t, page, `return document.title`) == base })
	if got := js(t, page, `return document.querySelector(".ax-toggle .ax-badge") ? "badge" : ""`); got != "" {
		t.Fatal("the badge stayed")
	}
	until(t, "the decided row", func() bool {
		return strings.Contains(js(t, page, fmt.Sprintf(`return document.querySelector('.ax-decided [data-gate-id=%q]')?.textContent || ""`, gate)), "approved")
	})

	// Reject with a note.
	drop := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Drop the users table"}`).body, "approvalGate")["id"].(string)
	until(t, "the second card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, gateSel(drop, ".ax-note"))) == "y"
	})
	typeInto(t, page, gateSel(drop, ".ax-note"), "too risky today")
	click(t, page, gateSel(drop, ".ax-reject"), 1)
	until(t, "the rejection", func() bool {
		g := obj(p.must(200, "GET", "/api/canvas/ax/approval/"+drop, nil).body, "approvalGate")
		return g["status"] == "rejected" && g["resolution"] == "too risky today" && g["resolvedBy"] == "browser"
	})

	// An elicitation: the form has one box per field.
	elic := obj(p.must(200, "POST", "/api/canvas/ax/elicitation", `{"prompt":"Which branch?","fields":["branch","reason"]}`).body, "elicitation")["id"].(string)
	until(t, "the form", func() bool {
		return js(t, page, fmt.Sprintf(`return String(document.querySelectorAll(%q).length)`, gateSel(elic, "input"))) == "2"
	})
	done = awaitGate(p.url + "/api/canvas/ax/elicitation/" + elic + "?waitMs=20000")
	until(t, "the parked elicitation await", func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	typeInto(t, page, gateSel(elic, `input[name="branch"]`), "main")
	typeInto(t, page, gateSel(elic, `input[name="reason"]`), "release cut")
	click(t, page, gateSel(elic, ".ax-answer"), 1)
	select {
	case got := <-done:
		e := obj(got, "elicitation")
		if r := obj(e, "response"); got["pending"] != false || r["branch"] != "main" || r["reason"] != "release cut" || e["resolvedBy"] != "browser" {
			t.Fatalf("elicitation await: %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the answer did not release the await")
	}

	// A mode request.
	mode := obj(p.must(200, "POST", "/api/canvas/ax/mode", `{"mode":"autonomous","reason":"long refactor"}`).body, "modeRequest")["id"].(string)
	until(t, "the mode card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, gateSel(mode, ".ax-approve"))) == "y"
	})
	done = awaitGate(p.url + "/api/canvas/ax/mode/" + mode + "?waitMs=20000")
	until(t, "the parked mode await", func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	click(t, page, gateSel(mode, `[aria-label="Approve mode autonomous"]`), 1)
	select {
	case got := <-done:
		if m := obj(got, "modeRequest"); got["pending"] != false || m["status"] != "approved" || m["resolvedBy"] != "browser" {
			t.Fatalf("mode await: %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the click did not release the mode await")
	}

	// Steering from the box reaches the named agent's delivery, no one else's.
	until(t, "no gate left", func() bool {
		return js(t, page, `return document.querySelector(".ax-empty")?.textContent || ""`) == "Nothing is waiting for you."
	})
	typeInto(t, page, `.ax-steer textarea`, "focus on the failing tests")
	typeInto(t, page, `.ax-steer input`, "alice")
	click(t, page, ".ax-steer-send", 1)
	until(t, "alice's delivery", func() bool {
		rows := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=alice", nil).body, "pending")
		return len(rows) == 1 && rows[0]["message"] == "focus on the failing tests" && rows[0]["source"] == "browser"
	})
	if rows := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=bob", nil).body, "pending"); len(rows) != 0 {
		t.Fatalf("bob got alice's steering: %v", rows)
	}
	until(t, "the sent line", func() bool {
		return js(t, page, `return document.querySelector(".ax-steer [role=status]")?.textContent || ""`) == "Sent to alice."
	})
	// And with no agent named, to every agent.
	typeInto(t, page, `.ax-steer textarea`, "wrap up")
	typeInto(t, page, `.ax-steer input`, "")
	js(t, page, `document.querySelector(".ax-steer input").select(); return ""`)
	if err := page.Keyboard.Type(input.Backspace); err != nil {
		t.Fatal(err)
	}
	until(t, "the emptied recipient", func() bool {
		return js(t, page, `return document.querySelector(".ax-steer input").value || "empty"`) == "empty"
	})
	click(t, page, ".ax-steer-send", 1)
	until(t, "bob's delivery", func() bool {
		rows := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=bob", nil).body, "pending")
		return len(rows) == 1 && rows[0]["message"] == "wrap up"
	})
	until(t, "the timeline row", func() bool {
		click(t, page, `.ax-tab[data-tab="timeline"]`, 1)
		return strings.Contains(js(t, page, `return document.querySelector(".ax-timeline")?.textContent || ""`), "focus on the failing tests")
	})
	noProblems(t, problems)
}

// TestWorkbenchAXFeedAndPresence: a change made by agent alice is
// attributed to alice in the updates feed, and the presence strip shows
// alice with what she touched, and this tab.
func TestWorkbenchAXFeedAndPresence(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openAXPage(t, p)
	click(t, page, ".ax-toggle", 1)
	click(t, page, `.ax-tab[data-tab="updates"]`, 1)
	until(t, "this tab in presence", func() bool {
		return js(t, page, `return document.querySelector(".ax-tab-label")?.textContent || ""`) == "this tab"
	})

	id := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Alice's plan","content":"# Plan"}`, "X-PMX-Agent", "alice").str("id")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Nobody's note"}`)
	until(t, "alice in the feed", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('.ax-feed li[data-agent="alice"]')?.textContent || ""`), "alice changed “Alice's plan”")
	})
	until(t, "the unattributed change", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('.ax-feed li[data-agent=""]')?.textContent || ""`), "unattributed changed “Nobody's note”")
	})
	until(t, "alice in presence", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('.ax-presence-agent[data-agent="alice"]')?.textContent || ""`), "touched “Alice's plan”")
	})
	pres := p.must(200, "GET", "/api/canvas/presence", nil).body
	agents, _ := pres["agents"].([]any)
	if len(agents) != 1 || agents[0].(map[string]any)["agent"] != "alice" || agents[0].(map[string]any)["lastNodeId"] != id {
		t.Fatalf("presence agents: %v", pres)
	}
	tabs := 0
	for _, c := range pres["clients"].([]any) {
		if strings.HasPrefix(c.(map[string]any)["client"].(string), "workbench:") {
			tabs++
		}
	}
	if tabs != 1 {
		t.Fatalf("presence clients: %v", pres["clients"])
	}
	// Alice deletes it: the feed and the strip say so.
	p.must(200, "DELETE", "/api/canvas/node/"+id, nil, "X-PMX-Agent", "alice")
	until(t, "the removal", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('.ax-feed li[data-agent="alice"]')?.textContent || ""`), "alice removed “Alice's plan”")
	})
	noProblems(t, problems)
}

// TestWorkbenchAXKeyboard: Alt+A opens the panel with focus inside it, Tab
// walks its controls (not the board's nodes), Enter operates them, Escape
// closes it and gives focus back to its button; every control has an
// accessible name.
func TestWorkbenchAXKeyboard(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"A node","x":100,"y":100}`)
	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Merge the branch"}`).body, "approvalGate")["id"].(string)
	p.must(200, "POST", "/api/canvas/ax/work", `{"title":"Write the docs","status":"in-progress"}`)
	page, problems := openAXPage(t, p)
	until(t, "the badge", func() bool {
		return js(t, page, `return document.querySelector(".ax-badge")?.textContent || ""`) == "1"
	})

	if err := page.Keyboard.Press(input.AltLeft); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Type(input.KeyA); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard.Release(input.AltLeft); err != nil {
		t.Fatal(err)
	}
	until(t, "focus in the panel", func() bool {
		return js(t, page, `return document.activeElement?.closest(".ax-panel") ? "in" : ""`) == "in"
	})
	unnamed := js(t, page, `return [...document.querySelectorAll(".ax-panel button, .ax-panel input, .ax-panel textarea, .ax-panel select, .ax-toggle")]
		.filter((e) => !(e.getAttribute("aria-label") || e.textContent.trim() || (e.labels && e.labels[0] && e.labels[0].textContent.trim())))
		.map((e) => e.outerHTML.slice(0, 80)).join("\n")`)
	if unnamed != "" {
		t.Fatalf("controls without an accessible name:\n%s", unnamed)
	}
	// Tab to the Approve button; the walk stays in the panel.
	want := "Approve Merge the branch"
	var walked []string
	for i := 0; i < 30; i++ {
		name := js(t, page, `const e = document.activeElement; return (e.getAttribute("aria-label") || e.textContent.trim())`)
		walked = append(walked, name)
		if name == want {
			break
		}
		if err := page.Keyboard.Type(input.Tab); err != nil {
			t.Fatal(err)
		}
		if js(t, page, `return document.activeElement?.closest(".ax-panel") ? "in" : ""`) != "in" {
			t.Fatalf("Tab left the panel after %v", walked)
		}
	}
	if walked[len(walked)-1] != want {
		t.Fatalf("Tab never reached %q: %v", want, walked)
	}
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the approval by keyboard", func() bool {
		g := obj(p.must(200, "GET", "/api/canvas/ax/approval/"+gate, nil).body, "approvalGate")
		return g["status"] == "approved" && g["resolvedBy"] == "browser"
	})
	// The Work tab by keyboard: focus its tab button, Enter.
	js(t, page, `document.querySelector('.ax-tab[data-tab="work"]').focus(); return ""`)
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the work board", func() bool {
		return strings.Contains(js(t, page, `return document.querySelector('.ax-work-group[data-status="in-progress"]')?.textContent || ""`), "Write the docs")
	})
	if err := page.Keyboard.Type(input.Escape); err != nil {
		t.Fatal(err)
	}
	until(t, "the panel closed, focus on its button", func() bool {
		return js(t, page, `return !document.querySelector(".ax-panel") && document.activeElement?.classList.contains("ax-toggle") ? "y" : ""`) == "y"
	})
	noProblems(t, problems)
}

// TestWorkbenchAXAfterServerRestart: the panel follows a server that
// restarts under it (same port and workspace, a new surface secret): a gate
// opened after the restart shows up, and approving it in the panel works
// with the new server's workbench token.
func TestWorkbenchAXAfterServerRestart(t *testing.T) {
	requireChromium(t)
	ws, port := t.TempDir(), freePort(t)
	p := startServer(t, ws, "--port", port)
	page, _ := openAXPage(t, p) // the restart makes the page log failed reconnects: not checked here
	first := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Before the restart"}`).body, "approvalGate")["id"].(string)
	until(t, "the first gate", func() bool {
		return js(t, page, `return document.querySelector(".ax-badge")?.textContent || ""`) == "1"
	})
	click(t, page, ".ax-toggle", 1)
	until(t, "its card", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, gateSel(first, ".ax-approve"))) == "y"
	})
	click(t, page, gateSel(first, ".ax-approve"), 1) // the panel now holds this server's token
	until(t, "the first approval", func() bool {
		return obj(p.must(200, "GET", "/api/canvas/ax/approval/"+first, nil).body, "approvalGate")["status"] == "approved"
	})
	p.stop()

	q := startServer(t, ws, "--port", port)
	gate := obj(q.must(200, "POST", "/api/canvas/ax/approval", `{"title":"After the restart"}`).body, "approvalGate")["id"].(string)
	until(t, "the new gate after the reconnect", func() bool {
		return js(t, page, fmt.Sprintf(`return document.querySelector(%q) ? "y" : ""`, gateSel(gate, ".ax-approve"))) == "y"
	})
	click(t, page, gateSel(gate, ".ax-approve"), 1)
	until(t, "the approval on the new server", func() bool {
		g := obj(q.must(200, "GET", "/api/canvas/ax/approval/"+gate, nil).body, "approvalGate")
		return g["status"] == "approved" && g["resolvedBy"] == "browser"
	})
	if js(t, page, `return document.querySelector(".ax-notice")?.textContent || ""`) != "" {
		t.Fatal("the panel showed a refusal")
	}
}
