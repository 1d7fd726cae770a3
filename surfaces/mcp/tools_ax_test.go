package mcpapi_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// Helpers shared by the AX tool tests.

// text runs a tool, fails on isError and returns the text.
func (h *harness) text(tool, args string) string {
	h.t.Helper()
	r := h.call(tool, args)
	if r.IsError {
		h.t.Fatalf("%s %s: isError %s", tool, args, r.Text)
	}
	return r.Text
}

// failsWith runs a tool and asserts an isError result starting with prefix.
func (h *harness) failsWith(tool, args, prefix string) string {
	h.t.Helper()
	r := h.call(tool, args)
	if !r.IsError || !strings.HasPrefix(r.Text, prefix) {
		h.t.Fatalf("%s %s: got isError=%v %q, want isError starting %q", tool, args, r.IsError, r.Text, prefix)
	}
	return r.Text
}

// invoke runs an operation directly (setup and inspection the tools do
// not cover).
func (h *harness) invoke(op, input string) map[string]any {
	h.t.Helper()
	r, err := h.srv.Invoker().Invoke(context.Background(), &messages.Envelope{Canvas: "main", Op: op, Source: "api", Input: json.RawMessage(input)})
	if err != nil {
		h.t.Fatalf("%s %s: %v", op, input, err)
	}
	b, err := json.Marshal(r.Body)
	if raw, ok := r.Body.(json.RawMessage); ok {
		b, err = raw, nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		h.t.Fatalf("%s: %s", op, b)
	}
	return m
}

// waitFor polls cond until it holds (a parked waiter showing up in
// ax.stats, for instance).
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (h *harness) stat(key string) float64 {
	h.t.Helper()
	n, _ := h.invoke("ax.stats", `{}`)[key].(float64)
	return n
}

// dig walks nested objects and arrays (string keys, int indexes).
func dig(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("dig %v: %v is not an object", path, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("dig %v: %v has no index %d", path, v, k)
			}
			v = a[k]
		}
	}
	return v
}

func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("not a JSON object: %s", text)
	}
	return m
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("%s: got %s, want %s", what, g, w)
	}
}

// volatile matches what differs between two equal writes: ids,
// timestamps and timeline sequence numbers.
var volatile = regexp.MustCompile(`(work|appr|elic|mode|rev|evt|evd|steer)-[a-z0-9]+-[a-z0-9]+|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z|"seq":\d+`)

func masked(s string) string { return volatile.ReplaceAllString(s, "#") }

// sameAs asserts a composite call answers the legacy call's text; mask
// ignores ids and timestamps (two writes create two records).
func (h *harness) sameAs(legacy, largs, composite, cargs string, mask bool) string {
	h.t.Helper()
	a := h.text(legacy, largs)
	b := h.text(composite, cargs)
	if mask {
		a, b = masked(a), masked(b)
	}
	if a != b {
		h.t.Fatalf("%s %s != %s %s:\n legacy    %s\n composite %s", composite, cargs, legacy, largs, b, a)
	}
	return a
}

// State tools.

func TestAxGetForcesTheMCPConsumer(t *testing.T) {
	h := newHarness(t)
	h.ok("canvas_send_steering", `{"message":"own"}`)
	h.ok("canvas_send_steering", `{"message":"from the human","source":"browser"}`)
	got := h.ok("canvas_get_ax", `{}`)
	pending := dig(t, got, "context", "delivery", "pendingSteering").([]any)
	if len(pending) != 1 || dig(t, pending, 0, "message") != "from the human" {
		t.Fatalf("context delivery for consumer mcp: %v", pending)
	}
	// An mcp client cannot widen the filter: consumer is not a field.
	got = h.ok("canvas_get_ax", `{"consumer":""}`)
	if n := len(dig(t, got, "context", "delivery", "pendingSteering").([]any)); n != 1 {
		t.Fatalf("consumer argument changed the filter: %d rows", n)
	}
	text := h.text("canvas_get_ax", `{"includeContext":false}`)
	if !strings.HasPrefix(text, `{"ok":true,"state":{"version":1,"focus":{`) || !strings.HasSuffix(text, `,"host":null}`) || strings.Contains(text, `"context"`) {
		t.Fatalf("get without context: %s", text)
	}
	if text := h.text("canvas_get_ax", `{}`); !strings.Contains(text, `"host":null,"context":{"version":1,`) {
		t.Fatalf("get with context: key order %s", text)
	}
	h.sameAs("canvas_get_ax", `{"includeContext":false}`, "canvas_ax_state", `{"action":"get","includeContext":false}`, false)
	h.sameAsOp("canvas_get_ax", `{"includeContext":"no"}`)
}

func TestAxFocusTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_set_ax_focus", `{"nodeIds":["status-main","ghost"]}`)
	if !strings.HasPrefix(text, `{"ok":true,"focus":{"nodeIds":["status-main"],"primaryNodeId":"status-main","updatedAt":"`) || !strings.HasSuffix(text, `","source":"mcp"}}`) {
		t.Fatalf("focus: %s", text)
	}
	eq(t, "explicit source", dig(t, h.ok("canvas_set_ax_focus", `{"nodeIds":["status-main"],"source":"codex"}`), "focus", "source"), "codex")
	h.sameAs("canvas_set_ax_focus", `{"nodeIds":["status-main"]}`, "canvas_ax_state", `{"action":"set-focus","nodeIds":["status-main"]}`, true)
	// The composite's source is loose: a value that is not a label falls back to mcp.
	eq(t, "loose source", dig(t, h.ok("canvas_ax_state", `{"action":"set-focus","nodeIds":[],"source":"nobody"}`), "focus", "source"), "mcp")
	h.sameAsOp("canvas_ax_state", `{"action":"set-focus","nodeIds":[],"source":7}`)
	// Without nodeIds the composite clears the focus.
	eq(t, "cleared", dig(t, h.ok("canvas_ax_state", `{"action":"set-focus"}`), "focus", "nodeIds"), []any{})
	h.sameAsOp("canvas_set_ax_focus", `{}`)
	h.sameAsOp("canvas_set_ax_focus", `{"nodeIds":[],"source":"human"}`)
}

func TestAxPolicyTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_set_ax_policy", `{"tools":{"excluded":["pmx.plan"]},"prompt":{"mode":"plan"}}`)
	want := `{"ok":true,"policy":{"tools":{"allowed":[],"excluded":["pmx.plan"],"approvalRequired":[]},"prompt":{"systemAppend":null,"mode":"plan"}}}`
	if text != want {
		t.Fatalf("policy: %s", text)
	}
	// Merged per key; the composite answers what the tool answers.
	text = h.sameAs("canvas_set_ax_policy", `{"tools":{"allowed":["pmx.plan"]}}`, "canvas_ax_state", `{"action":"set-policy","tools":{"allowed":["pmx.plan"]}}`, false)
	if !strings.Contains(text, `"allowed":["pmx.plan"],"excluded":["pmx.plan"]`) {
		t.Fatalf("merge: %s", text)
	}
	// Only object patches are forwarded: tools:true (the capability flag's
	// type in the composite) is an empty patch.
	if got := h.text("canvas_ax_state", `{"action":"set-policy","tools":true}`); got != text {
		t.Fatalf("tools:true changed the policy: %s", got)
	}
	h.sameAsOp("canvas_set_ax_policy", `{"tools":{"allowed":"pmx.plan"}}`)
	h.sameAsOp("canvas_set_ax_policy", `{"prompt":"plan"}`)
}

func TestAxHostCapabilityTool(t *testing.T) {
	h := newHarness(t)
	got := h.ok("canvas_report_host_capability", `{"host":"codex","hooks":true,"files":true,"raw":{"v":1}}`)
	text := h.text("canvas_report_host_capability", `{"host":"codex","hooks":true,"files":true,"raw":{"v":1}}`)
	if !strings.HasPrefix(text, `{"ok":true,"host":{"host":"codex","canvas":false,"hooks":true,`) {
		t.Fatalf("host: %s", text)
	}
	eq(t, "files", dig(t, got, "host", "files"), true)
	eq(t, "raw", dig(t, got, "host", "raw"), map[string]any{"v": 1})
	// A string canvas is the canvas selector, not the capability flag.
	got = h.ok("canvas_report_host_capability", `{"host":"copilot","canvas":"main"}`)
	eq(t, "canvas flag", dig(t, got, "host", "canvas"), false)
	eq(t, "reported", dig(t, h.ok("canvas_get_ax", `{"includeContext":false}`), "host", "host"), "copilot")
	// In the composite, tools is loose: true is the capability flag.
	eq(t, "tools flag", dig(t, h.ok("canvas_ax_state", `{"action":"report-capability","host":"codex","tools":true}`), "host", "tools"), true)
	h.sameAs("canvas_report_host_capability", `{"host":"codex","uiPrompts":true}`, "canvas_ax_state", `{"action":"report-capability","host":"codex","uiPrompts":true}`, true)
	h.sameAsOp("canvas_report_host_capability", `{"tools":"yes"}`)
	h.sameAsOp("canvas_report_host_capability", `{"raw":[1]}`)
}

func TestAxToolsTakeTheCanvasArgument(t *testing.T) {
	h := newHarness(t)
	h.ok("canvas_add_work_item", `{"title":"elsewhere","canvas":"other"}`)
	eq(t, "main", dig(t, h.ok("canvas_get_ax", `{"includeContext":false}`), "state", "workItems"), []any{})
	eq(t, "other", dig(t, h.ok("canvas_get_ax", `{"includeContext":false,"canvas":"other"}`), "state", "workItems", 0, "title"), "elsewhere")
}

// Work items and reviews.

func TestAxWorkItemTools(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_add_work_item", `{"title":"Write tests"}`)
	if !regexp.MustCompile(`^\{"ok":true,"workItem":\{"id":"work-[a-z0-9]+-[a-z0-9]+","title":"Write tests","status":"todo","detail":null,"nodeIds":\[\],"createdAt":"[^"]+","updatedAt":"[^"]+","source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("add: %s", text)
	}
	id := dig(t, decode(t, text), "workItem", "id").(string)
	got := h.ok("canvas_add_work_item", `{"title":"Ship","status":"in-progress","detail":"soon","nodeIds":["status-main","ghost"],"source":"codex"}`)
	eq(t, "work item", dig(t, got, "workItem"), map[string]any{"id": dig(t, got, "workItem", "id"), "title": "Ship", "status": "in-progress",
		"detail": "soon", "nodeIds": []any{"status-main"}, "createdAt": dig(t, got, "workItem", "createdAt"),
		"updatedAt": dig(t, got, "workItem", "updatedAt"), "source": "codex"})

	got = h.ok("canvas_update_work_item", `{"id":"`+id+`","status":"done","detail":"all green"}`)
	eq(t, "status", dig(t, got, "workItem", "status"), "done")
	eq(t, "detail", dig(t, got, "workItem", "detail"), "all green")
	eq(t, "creator kept", dig(t, got, "workItem", "source"), "mcp")

	h.sameAs("canvas_add_work_item", `{"title":"x","status":"blocked"}`, "canvas_ax_work", `{"action":"add","title":"x","status":"blocked"}`, true)
	h.sameAs("canvas_update_work_item", `{"id":"`+id+`","title":"renamed"}`, "canvas_ax_work", `{"action":"update","id":"`+id+`","title":"renamed"}`, true)

	h.sameAsOp("canvas_add_work_item", `{}`)
	h.fails("canvas_add_work_item", `{"title":"   "}`, "work item requires a title.")
	h.sameAsOp("canvas_add_work_item", `{"title":"x","status":"in_progress"}`)
	// The composite's status is loose, so the operation reports it.
	h.fails("canvas_ax_work", `{"action":"add","title":"x","status":"in_progress"}`,
		`invalid work item status "in_progress"; expected one of: todo, in-progress, blocked, done, cancelled.`)
	h.fails("canvas_ax_work", `{"action":"add"}`, "work item requires a title.")
	h.fails("canvas_update_work_item", `{"id":"work-nope","title":"x"}`, "work item not found.")
	h.sameAsOp("canvas_update_work_item", `{"title":"x"}`)
}

func TestAxReviewTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_add_review_annotation", `{"body":"Looks off","nodeId":"status-main"}`)
	if !regexp.MustCompile(`^\{"ok":true,"reviewAnnotation":\{"id":"rev-[^"]+","kind":"comment","body":"Looks off","severity":"info","status":"open","anchorType":"node","nodeId":"status-main",`).MatchString(text) ||
		!strings.HasSuffix(text, `"source":"mcp"}}`) {
		t.Fatalf("review: %s", text)
	}
	got := h.ok("canvas_add_review_annotation", `{"body":"Bug","kind":"finding","severity":"error","anchorType":"region","file":"main.go","region":{"line":3,"endLine":5,"label":"loop"},"author":"me"}`)
	eq(t, "anchor", dig(t, got, "reviewAnnotation", "anchorType"), "region")
	eq(t, "region", dig(t, got, "reviewAnnotation", "region"), map[string]any{"line": 3, "endLine": 5, "label": "loop"})
	eq(t, "author", dig(t, got, "reviewAnnotation", "author"), "me")
	h.sameAs("canvas_add_review_annotation", `{"body":"b","file":"x.go"}`, "canvas_ax_work", `{"action":"annotate","body":"b","file":"x.go"}`, true)

	h.sameAsOp("canvas_add_review_annotation", `{}`)
	h.fails("canvas_add_review_annotation", `{"body":" "}`, "review annotation requires a body.")
	h.fails("canvas_add_review_annotation", `{"body":"b","anchorType":"node","nodeId":"ghost"}`, "node-anchored review annotation requires a nodeId that exists on the canvas.")
	h.sameAsOp("canvas_add_review_annotation", `{"body":"b","region":{"line":"3"}}`)
	h.sameAsOp("canvas_ax_work", `{"action":"annotate","body":"b","kind":"nit"}`)
}

func mustArgs(t *testing.T, s string) mcpapi.Args {
	t.Helper()
	var a mcpapi.Args
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// The AX composites publish the reference's fields in its order, and the
// legacy tools they fold are deprecated.
func TestAxToolSchemas(t *testing.T) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	names := func(tool string) string {
		tl, ok := reg.Tool(tool)
		if !ok {
			t.Fatalf("no tool %s", tool)
		}
		var out []string
		for _, f := range tl.Fields {
			n := f.Name
			if f.Required {
				n += "!"
			}
			out = append(out, n)
		}
		return strings.Join(out, " ")
	}
	for tool, want := range map[string]string{
		"canvas_ax_state":               "action! includeContext nodeIds source tools prompt host canvas hooks sessionMessaging permissions files uiPrompts raw",
		"canvas_ax_work":                "action! title status detail nodeIds source id body kind severity anchorType nodeId file region author",
		"canvas_ax_gate":                "action! kind! title detail approvalAction nodeIds source id decision resolution timeoutMs prompt fields response mode reason",
		"canvas_ax_timeline":            "action! limit kind summary detail nodeIds data source title body ref message to",
		"canvas_ax_delivery":            "action! consumer limit waitMs leaseMs id",
		"canvas_claim_ax_delivery":      "consumer limit waitMs leaseMs",
		"canvas_mark_ax_delivery":       "id! consumer",
		"canvas_await_approval":         "id! timeoutMs",
		"canvas_report_host_capability": "host canvas hooks tools sessionMessaging permissions files uiPrompts raw source",
		"canvas_ax_interaction":         "type! sourceNodeId! payload sourceSurface correlationId source surfaceToken",
		"canvas_ingest_activity":        "kind! title! summary outcome ref nodeIds data reactions source",
	} {
		// The names are frozen; their order follows the input type.
		if got := names(tool); sortedWords(got) != sortedWords(want) {
			t.Errorf("%s fields:\n got  %s\n want %s", tool, got, want)
		}
	}
	// A field the gate actions share keeps the type they all decode it
	// with; one they decode differently (kind: approval's action name vs
	// a gate kind) is advertised without a type.
	gate, _ := reg.Tool("canvas_ax_gate")
	for _, f := range gate.Fields {
		s, _ := mcpapi.Compact(f.Schema)
		switch f.Name {
		case "id", "resolution", "source":
			if !strings.HasPrefix(s, `{"type":"string"`) {
				t.Errorf("gate %s schema %s", f.Name, s)
			}
		case "timeoutMs":
			if !strings.HasPrefix(s, `{"type":"number"`) {
				t.Errorf("gate %s schema %s", f.Name, s)
			}
		}
	}
}
