package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: not JSON: %s", url, raw)
	}
	return res.StatusCode, out
}

func runCLI(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Execute(args, &out, &errOut)
	var body map[string]any
	_ = json.Unmarshal(out.Bytes(), &body)
	return code, body, errOut.String()
}

func mcpJSON(t *testing.T, r *mcpapi.Result) map[string]any {
	t.Helper()
	var body map[string]any
	if r.IsError || json.Unmarshal([]byte(r.Text), &body) != nil {
		t.Fatalf("MCP: %+v", r)
	}
	return body
}

// A question asked on any surface is a prompt node delivered to agents as
// steering of kind prompt; an answer through any surface completes its
// thread the same way; a blank question and an unknown thread are refused
// with one text everywhere.
func TestPromptThreadOnEverySurface(t *testing.T) {
	srv := startServer(t)
	ctx := context.Background()
	base := "http://" + srv.Addr().String()
	c := srv.Canvas()
	reg, _ := mcpapi.NewRegistry()
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}

	q := "q-go"
	goRes, err := c.PromptCreate(ctx, &messages.PromptInput{Text: &q})
	if err != nil || !goRes.OK || goRes.NodeID == "" || goRes.SteeringID == "" {
		t.Fatalf("Go package: %+v %v", goRes, err)
	}
	ids := []string{goRes.NodeID}
	code, body := post(t, base+"/api/canvas/prompt", `{"text":"  q-http  "}`)
	if code != 200 || body["ok"] != true {
		t.Fatalf("HTTP %d %v", code, body)
	}
	ids = append(ids, body["nodeId"].(string))
	ids = append(ids, mcpJSON(t, caller.Call(ctx, "canvas_prompt", mcpapi.Args{"text": "q-mcp"}))["nodeId"].(string))
	code, body, stderr := runCLI(t, "prompt", "--server-url", base, "q", "cli")
	if code != 0 || body["nodeId"] == nil {
		t.Fatalf("CLI exit %d %v %s", code, body, stderr)
	}
	ids = append(ids, body["nodeId"].(string))

	// Each reached the agents' delivery, in order.
	d, err := c.AxDeliveryPending(ctx, &messages.AxDeliveryPendingInput{Consumer: "agent"})
	if err != nil || len(d.Pending) != 4 {
		t.Fatalf("delivery: %+v %v", d, err)
	}
	for i, text := range []string{"q-go", "q-http", "q-mcp", "q cli"} {
		if row := d.Pending[i]; row.Kind != "prompt" || row.NodeID != ids[i] || row.Message != text {
			t.Errorf("steering %d: %+v, want prompt %s %q", i, row, ids[i], text)
		}
	}

	// Answers, one per surface.
	answer, done := "A", true
	r, err := c.PromptRespond(ctx, &messages.PromptRespondInput{NodeID: ids[0], Text: &answer, Done: &done})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"ok": true, "threadStatus": "answered", "turns": 2.0}
	check := func(what string, got map[string]any, id string) {
		t.Helper()
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v (%v)", what, k, got[k], v, got)
			}
		}
		if got["nodeId"] != id {
			t.Errorf("%s: nodeId %v, want %s", what, got["nodeId"], id)
		}
	}
	raw, _ := json.Marshal(r)
	var goBody map[string]any
	_ = json.Unmarshal(raw, &goBody)
	check("Go package", goBody, ids[0])
	code, body = post(t, base+"/api/canvas/prompt/"+ids[1]+"/response", `{"text":"A","done":true}`)
	check("HTTP", body, ids[1])
	check("MCP", mcpJSON(t, caller.Call(ctx, "canvas_respond_prompt", mcpapi.Args{"nodeId": ids[2], "text": "A", "done": true})), ids[2])
	code, body, stderr = runCLI(t, "prompt", "respond", "--server-url", base, ids[3], "A", "--done")
	if code != 0 {
		t.Fatalf("CLI respond exit %d %s", code, stderr)
	}
	check("CLI", body, ids[3])
	for _, id := range ids {
		n, err := c.Node(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		turns, _ := n.Data["turns"].([]any)
		if len(turns) != 2 || turns[1].(map[string]any)["text"] != "A" || turns[1].(map[string]any)["status"] != "complete" {
			t.Errorf("%s turns: %v", id, turns)
		}
	}

	// Bad input: one text everywhere.
	for _, bc := range []struct {
		text, http, path string
		mcpTool          string
		mcp              mcpapi.Args
		cli              []string
	}{
		{"Missing prompt text", `{"text":"   "}`, "/api/canvas/prompt", "canvas_prompt", mcpapi.Args{"text": " "}, nil}, // the CLI refuses a blank argument itself
		{`Prompt node "nope" not found.`, `{"text":"x"}`, "/api/canvas/prompt/nope/response", "canvas_respond_prompt", mcpapi.Args{"nodeId": "nope", "text": "x"}, []string{"prompt", "respond", "nope", "x"}},
		{`Prompt thread "nope" not found.`, `{"text":"x","threadNodeId":"nope"}`, "/api/canvas/prompt", "canvas_prompt", mcpapi.Args{"text": "x", "threadNodeId": "nope"}, []string{"prompt", "x", "--thread-node-id", "nope"}},
	} {
		code, body := post(t, base+bc.path, bc.http)
		if code/100 != 4 || body["error"] != bc.text || body["field"] == nil {
			t.Errorf("HTTP %s: %d %v, want %q naming the field", bc.path, code, body, bc.text)
		}
		if r := caller.Call(ctx, bc.mcpTool, bc.mcp); !r.IsError || r.Text != bc.text {
			t.Errorf("MCP %s: %+v, want %q", bc.mcpTool, r, bc.text)
		}
		if bc.cli == nil {
			continue
		}
		code, _, stderr := runCLI(t, append(bc.cli[:len(bc.cli):len(bc.cli)], "--server-url", base)...)
		if code == 0 || !strings.Contains(stderr, strings.ReplaceAll(bc.text, `"`, `\"`)) {
			t.Errorf("CLI %v: exit %d %s, want %q", bc.cli, code, stderr, bc.text)
		}
	}
}

// The trace is turned on, fed and cleared the same way on every surface,
// and this server's own MCP tool calls become pills.
func TestTraceOnEverySurface(t *testing.T) {
	srv := startServer(t)
	ctx := context.Background()
	base := "http://" + srv.Addr().String()
	c := srv.Canvas()
	reg, _ := mcpapi.NewRegistry()
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}
	pills := func() []pmxcanvas.Node {
		t.Helper()
		var out []pmxcanvas.Node
		nodes, err := c.Nodes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if n.Type == "trace" {
				out = append(out, n)
			}
		}
		return out
	}

	// Off: nothing is traced.
	caller.Call(ctx, "canvas_add_node", mcpapi.Args{"type": "markdown", "title": "before"})
	if p := pills(); len(p) != 0 {
		t.Fatalf("pills while off: %v", p)
	}
	typ := "trace-toggle"
	on, err := c.WorkbenchIntent(ctx, &messages.WorkbenchIntentInput{Type: &typ, Payload: map[string]any{"enabled": true}})
	if err != nil || on.TraceEnabled == nil || !*on.TraceEnabled {
		t.Fatalf("toggle: %+v %v", on, err)
	}

	// An MCP tool call: one finished pill, category mcp.
	caller.Call(ctx, "canvas_add_node", mcpapi.Args{"type": "markdown", "title": "traced"})
	p := pills()
	if len(p) != 1 || p[0].Data["toolName"] != "canvas_add_node" || p[0].Data["status"] != "success" || p[0].Data["category"] != "mcp" {
		t.Fatalf("the MCP call's pill: %+v", p)
	}
	// A failing call is a failed pill with the error.
	caller.Call(ctx, "canvas_remove_node", mcpapi.Args{"id": "nope"})
	p = pills()
	if len(p) != 2 || p[1].Data["status"] != "failed" || p[1].Data["error"] == nil {
		t.Fatalf("the failed call's pill: %+v", p[1].Data)
	}

	// trace.record over HTTP and the CLI.
	code, body := post(t, base+"/api/workbench/trace", `{"phase":"start","name":"Read","toolCallId":"h1"}`)
	if code != 200 || body["recorded"] != true {
		t.Fatalf("HTTP start: %d %v", code, body)
	}
	code, body, stderr := runCLI(t, "trace", "record", "--server-url", base, "finish", "Read", "--tool-call-id", "h1", "--result-summary", "ok")
	if code != 0 || body["recorded"] != true || body["nodeId"] == nil {
		t.Fatalf("CLI finish: exit %d %v %s", code, body, stderr)
	}
	if p = pills(); len(p) != 3 || p[2].Data["status"] != "success" || p[2].Data["resultSummary"] != "ok" || p[2].Data["category"] != "file" {
		t.Fatalf("the recorded pill: %+v", p[2].Data)
	}
	// The grid: three pills in a row, 224 apart.
	if p[1].Position.X-p[0].Position.X != 224 || p[2].Position.Y != p[0].Position.Y {
		t.Fatalf("grid positions: %v %v %v", p[0].Position, p[1].Position, p[2].Position)
	}

	// Bad input: one text everywhere.
	for _, bc := range []struct {
		text, http string
		mcp        mcpapi.Args
		cli        []string
	}{
		{"Unsupported intent type", `{"type":"nope"}`, mcpapi.Args{"type": "nope"}, []string{"workbench", "intent", "nope"}},
		{"Missing intent type", `{}`, mcpapi.Args{}, nil}, // the CLI refuses a blank argument itself
	} {
		code, body := post(t, base+"/api/workbench/intent", bc.http)
		if code != 400 || body["error"] != bc.text || body["field"] != "type" {
			t.Errorf("HTTP: %d %v, want %q", code, body, bc.text)
		}
		if r := caller.Call(ctx, "canvas_workbench_intent", bc.mcp); !r.IsError || r.Text != bc.text {
			t.Errorf("MCP: %+v, want %q", r, bc.text)
		}
		if bc.cli == nil {
			continue
		}
		code, _, stderr := runCLI(t, append(bc.cli[:len(bc.cli):len(bc.cli)], "--server-url", base)...)
		if code == 0 || !strings.Contains(stderr, bc.text) {
			t.Errorf("CLI %v: exit %d %s, want %q", bc.cli, code, stderr, bc.text)
		}
	}
	code, body = post(t, base+"/api/workbench/trace", `{"phase":"begin"}`)
	if code != 400 || body["field"] != "phase" {
		t.Errorf("bad phase: %d %v", code, body)
	}

	// Generic intents are queued for agents.
	code, body = post(t, base+"/api/workbench/intent", `{"type":"focus-primary","payload":{"x":1}}`)
	first := body["intent"].(map[string]any)["id"].(string)
	mcpJSON(t, caller.Call(ctx, "canvas_workbench_intent", mcpapi.Args{"type": "open-aux"}))
	list, err := c.WorkbenchIntents(ctx, nil)
	if err != nil || len(list.Intents) != 2 || list.Intents[0].Type != "focus-primary" || !list.TraceEnabled {
		t.Fatalf("intents: %+v %v", list, err)
	}
	code, body, stderr = runCLI(t, "workbench", "intents", "--server-url", base, "--after", first)
	if code != 0 || len(body["intents"].([]any)) != 1 {
		t.Fatalf("CLI intents after %s: exit %d %v %s", first, code, body, stderr)
	}

	// Clear: every pill goes.
	clear := "trace-clear"
	res, err := c.WorkbenchIntent(ctx, &messages.WorkbenchIntentInput{Type: &clear})
	if err != nil || res.Removed == nil || *res.Removed < 3 {
		t.Fatalf("clear: %+v %v", res, err)
	}
	if p := pills(); len(p) != 0 {
		t.Fatalf("pills after clear: %v", p)
	}
}
