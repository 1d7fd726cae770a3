package main

// The trace controls of the action bar (web-client.md §3.1, §21.4) and
// prompt threads (§5.10 prompt): the human turns the trace on with the
// toolbar button and sees an agent's tool call as a pill, running then
// done; the human asks on the board, an agent claims the question from
// its AX delivery and answers through prompt.respond, and the answer
// streams into the thread.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/input"
)

// traceNodes are the canvas's trace nodes, from the server.
func traceNodes(p *proc) []map[string]any { return boardNodes(p, "trace") }

func TestWorkbenchTraceToggle(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)
	toggle := func() string {
		return js(t, page, `const b = document.querySelector(".trace-toggle"); return b.getAttribute("aria-label") + "|" + b.getAttribute("aria-pressed") + "|" + (document.querySelector(".trace-clear").hidden ? "no-clear" : "clear")`)
	}
	counts := func() string { return js(t, page, `return document.querySelector(".counts").textContent`) }
	if got := toggle(); got != "Enable trace|false|no-clear" {
		t.Fatalf("trace controls at start: %s", got)
	}

	click(t, page, ".trace-toggle", 1)
	until(t, "the trace is on", func() bool { return toggle() == "Disable trace|true|clear" })
	until(t, "trace armed", func() bool { return strings.HasSuffix(counts(), "· trace armed") })
	if on := p.must(200, "GET", "/api/workbench/intents", nil).body["traceEnabled"]; on != true {
		t.Fatalf("the server's trace state: %v", on)
	}

	// An agent's tool call, reported as AX activity: a running pill, then
	// a finished one with its result.
	p.must(200, "POST", "/api/canvas/ax/activity", map[string]any{"kind": "tool-start", "title": "Read", "summary": "reading a.go",
		"data": map[string]any{"toolCallId": "call-1"}})
	until(t, "a running pill", func() bool {
		return js(t, page, `const e = document.querySelector(".canvas-node.trace-node.trace-running .trace-tool"); return e ? e.textContent : ""`) == "Read"
	})
	if n := traceNodes(p); len(n) != 1 || dataOf(n[0])["status"] != "running" || dataOf(n[0])["category"] != "file" {
		t.Fatalf("trace nodes while running: %v", n)
	}
	p.must(200, "POST", "/api/canvas/ax/activity", map[string]any{"kind": "tool-result", "title": "Read", "outcome": "success",
		"summary": "42 lines", "data": map[string]any{"toolCallId": "call-1"}})
	until(t, "the pill done", func() bool {
		return js(t, page, `const e = document.querySelector(".canvas-node.trace-node:not(.trace-running) .trace-pill.trace-success .trace-summary"); return e ? e.textContent : ""`) == "42 lines"
	})
	if n := traceNodes(p); len(n) != 1 || dataOf(n[0])["status"] != "success" || dataOf(n[0])["duration"] == nil {
		t.Fatalf("trace nodes when done: %v", n)
	}
	until(t, "1 trace counted", func() bool { return strings.HasSuffix(counts(), "· 1 trace") })

	// A second call follows the first on the grid, linked by a flow edge
	// that runs while the call does.
	p.must(200, "POST", "/api/canvas/ax/activity", map[string]any{"kind": "tool-start", "title": "Bash", "data": map[string]any{"toolCallId": "call-2"}})
	until(t, "two pills", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node.trace-node").length)`) == "2"
	})
	var edges []map[string]any
	if err := json.Unmarshal(p.must(200, "GET", "/api/canvas/edges", nil).raw, &edges); err != nil {
		t.Fatal(err)
	}
	if len(edges) != 1 || edges[0]["type"] != "flow" || edges[0]["animated"] != true {
		t.Fatalf("edges while the second call runs: %v", edges)
	}

	// A fresh page learns the trace is on from the stream.
	page.MustReload()
	until(t, "the reloaded page's trace state", func() bool {
		return js(t, page, `const b = document.querySelector(".trace-toggle"); return b ? b.getAttribute("aria-pressed") : ""`) == "true"
	})

	click(t, page, ".trace-clear", 1)
	until(t, "the pills gone", func() bool {
		return js(t, page, `return String(document.querySelectorAll(".canvas-node.trace-node").length)`) == "0"
	})
	if n := traceNodes(p); len(n) != 0 {
		t.Fatalf("trace nodes after clear: %v", n)
	}
	until(t, "armed again", func() bool { return strings.HasSuffix(counts(), "· trace armed") })

	click(t, page, ".trace-toggle", 1)
	until(t, "the trace is off", func() bool { return toggle() == "Enable trace|false|no-clear" })
	p.must(200, "POST", "/api/canvas/ax/activity", map[string]any{"kind": "tool-start", "title": "Grep"})
	if n := traceNodes(p); len(n) != 0 {
		t.Fatalf("a call while the trace is off made pills: %v", n)
	}
	noProblems(t, problems)
}

func TestWorkbenchPromptThread(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	page, problems := openBoard(t, p)

	// The palette's "Ask the agent" places a draft prompt in the view.
	chord(t, page, input.KeyK)
	until(t, "the palette", func() bool {
		return js(t, page, `return String(document.activeElement.className)`) == "command-palette-input"
	})
	if err := page.InsertText("ask the agent"); err != nil {
		t.Fatal(err)
	}
	until(t, "the action", func() bool {
		return js(t, page, `const l = document.querySelector(".command-palette-item .command-palette-label"); return l ? l.textContent : ""`) == "Ask the agent"
	})
	if err := page.Keyboard.Type(input.Enter); err != nil {
		t.Fatal(err)
	}
	until(t, "the draft, focused", func() bool {
		return js(t, page, `return document.activeElement?.matches(".prompt-draft .prompt-input") ? "y" : ""`) == "y"
	})
	if got := js(t, page, `return document.querySelector(".prompt-draft .prompt-input").placeholder + "|" + document.querySelector(".prompt-draft .prompt-send").disabled`); got != "Ask the agent something…|true" {
		t.Fatalf("the draft: %s", got)
	}
	const question = "What is on the board?"
	typeInto(t, page, ".prompt-draft .prompt-input", question)
	chord(t, page, input.Enter)

	prompts := func() []map[string]any { return boardNodes(p, "prompt") }
	turnsOf := func(n map[string]any) []any { turns, _ := dataOf(n)["turns"].([]any); return turns }
	until(t, "the question on the server", func() bool {
		ps := prompts()
		return len(ps) == 1 && len(turnsOf(ps[0])) == 1 && dataOf(ps[0])["threadStatus"] == "pending"
	})
	id := prompts()[0]["id"].(string)
	if turn := turnsOf(prompts()[0])[0].(map[string]any); turn["role"] != "user" || turn["text"] != question {
		t.Fatalf("the question turn: %v", turn)
	}
	thread := func() string {
		return js(t, page, fmt.Sprintf(`const c = document.querySelector('.canvas-node[data-node-id=%q] .prompt-thread'); if (!c) return "";
			return [...c.querySelectorAll(".prompt-turn")].map(t => t.querySelector(".prompt-turn-head").textContent + ":" + t.querySelector(".prompt-turn-text").textContent.trim()).join("|") +
			"#" + c.querySelector(".prompt-status").textContent + "#" + c.querySelector(".prompt-count").textContent`, id))
	}
	until(t, "the thread view", func() bool { return thread() == "You:"+question+"#Waiting for the agent…#1 turn" })

	// The agent claims the question from its delivery and answers.
	// (The steering is written once the node is durable: an agent never
	// sees the id of a node that is not there.)
	var pending []any
	until(t, "the question in the agent's delivery", func() bool {
		pending, _ = p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent-1", nil).body["pending"].([]any)
		return len(pending) > 0
	})
	if len(pending) != 1 {
		t.Fatalf("delivery: %v", pending)
	}
	if row := pending[0].(map[string]any); row["kind"] != "prompt" || row["nodeId"] != id || row["message"] != question {
		t.Fatalf("the prompt's steering row: %v", row)
	}
	p.must(200, "POST", "/api/canvas/prompt/"+id+"/response", map[string]any{"text": "The board has **one** "})
	until(t, "the answer streaming", func() bool {
		return strings.HasSuffix(thread(), "#Streaming…#2 turns") && strings.Contains(thread(), "PMX:The board has")
	})
	p.must(200, "POST", "/api/canvas/prompt/"+id+"/response", map[string]any{"text": "prompt.", "done": true})
	until(t, "the answer rendered", func() bool {
		return thread() == "You:"+question+"|PMX:The board has one prompt.#Answered#2 turns" &&
			js(t, page, fmt.Sprintf(`const s = document.querySelector('.canvas-node[data-node-id=%q] .turn-agent .md-rendered strong'); return s ? s.textContent : ""`, id)) == "one"
	})

	// Reply in the thread with the Reply button.
	typeInto(t, page, ".prompt-thread .prompt-input", "And what next?")
	click(t, page, ".prompt-thread .prompt-send", 1)
	until(t, "the reply on the server", func() bool {
		turns := turnsOf(prompts()[0])
		return len(turns) == 3 && turns[2].(map[string]any)["text"] == "And what next?" && dataOf(prompts()[0])["threadStatus"] == "pending"
	})
	until(t, "the reply in the thread", func() bool {
		return strings.HasSuffix(thread(), "|You:And what next?#Waiting for the agent…#3 turns")
	})
	if len(prompts()) != 1 {
		t.Fatalf("the reply made another prompt node: %v", prompts())
	}
	noProblems(t, problems)
}

// A response node (the reference's legacy answer node) shows its answer
// and its Reply asks in the prompt's thread (the reference's Reply sent an
// empty prompt and did nothing).
func TestWorkbenchResponseReply(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	thread := p.must(200, "POST", "/api/canvas/prompt", map[string]any{"text": "Summarise", "position": map[string]any{"x": 700, "y": 60}}).str("nodeId")
	p.must(200, "POST", "/api/canvas/batch", map[string]any{"operations": []any{map[string]any{"op": "node.add", "args": map[string]any{
		"type": "response", "x": 60, "y": 60, "width": 520, "height": 360,
		"data": map[string]any{"content": "It is **short**.", "status": "complete", "promptNodeId": thread}}}}})
	page, problems := openBoard(t, p)
	body := `.canvas-node[data-node-type="response"] .response-node`
	until(t, "the response", func() bool {
		return js(t, page, `const b = document.querySelector('`+body+`'); return b ? b.querySelector(".md-rendered strong")?.textContent + "|" + b.querySelector(".prompt-status").textContent : ""`) == "short|Complete"
	})
	click(t, page, body+" .prompt-send", 1)
	typeInto(t, page, body+" .prompt-input", "Longer, please")
	chord(t, page, input.Enter)
	until(t, "the reply in the thread", func() bool {
		for _, n := range boardNodes(p, "prompt") {
			turns, _ := dataOf(n)["turns"].([]any)
			if n["id"] == thread && len(turns) == 2 && turns[1].(map[string]any)["text"] == "Longer, please" {
				return true
			}
		}
		return false
	})
	until(t, "the composer cleared", func() bool {
		return js(t, page, `return document.querySelector('`+body+` .prompt-input')?.value ?? "gone"`) == ""
	})
	noProblems(t, problems)
}
