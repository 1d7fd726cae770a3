package mcpapi_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

func TestAxApprovalTools(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_request_approval", `{"title":"Ship the build?","detail":"build detail","action":"deploy","nodeIds":["status-main"]}`)
	if !regexp.MustCompile(`^\{"ok":true,"approvalGate":\{"id":"appr-[^"]+","title":"Ship the build\?","detail":"build detail","action":"deploy","status":"pending","nodeIds":\["status-main"\],"createdAt":"[^"]+","resolvedAt":null,"resolution":null,"source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("request: %s", text)
	}
	// approvalAction is the gate's action in the composite.
	h.sameAs("canvas_request_approval", `{"title":"t","action":"deploy"}`, "canvas_ax_gate", `{"kind":"approval","action":"request","title":"t","approvalAction":"deploy"}`, true)
	a := dig(t, h.ok("canvas_request_approval", `{"title":"a"}`), "approvalGate", "id").(string)
	b := dig(t, h.ok("canvas_request_approval", `{"title":"a"}`), "approvalGate", "id").(string)
	resolved := h.sameAs("canvas_resolve_approval", `{"id":"`+a+`","decision":"approved","resolution":"fine","source":"browser"}`,
		"canvas_ax_gate", `{"kind":"approval","action":"resolve","id":"`+b+`","decision":"approved","resolution":"fine","source":"browser"}`, true)
	m := decode(t, resolved)
	eq(t, "status", dig(t, m, "approvalGate", "status"), "approved")
	eq(t, "resolution", dig(t, m, "approvalGate", "resolution"), "fine")
	eq(t, "resolvedBy", dig(t, m, "approvalGate", "resolvedBy"), "browser")
	eq(t, "creator kept", dig(t, m, "approvalGate", "source"), "mcp")

	h.sameAsOp("canvas_request_approval", `{}`)
	h.fails("canvas_request_approval", `{"title":" "}`, "approval request requires a title.")
	h.fails("canvas_ax_gate", `{"kind":"approval","action":"request"}`, "approval request requires a title.")
	h.fails("canvas_resolve_approval", `{"id":"`+a+`","decision":"approved"}`, "approval gate not found or already resolved.")
	h.sameAsOp("canvas_resolve_approval", `{"id":"x","decision":"maybe"}`)
	h.fails("canvas_ax_gate", `{"kind":"approval","action":"resolve","id":"x","decision":"maybe"}`, "resolve requires decision approved or rejected.")
	h.sameAsOp("canvas_ax_gate", `{"kind":"approval","action":"resolve","id":5,"decision":"approved"}`)
	h.sameAsOp("canvas_ax_gate", `{"kind":"gate","action":"request"}`)
}

func TestAxElicitationTools(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_request_elicitation", `{"prompt":"Which DB?","fields":["name","size"]}`)
	if !regexp.MustCompile(`^\{"ok":true,"elicitation":\{"id":"elic-[^"]+","prompt":"Which DB\?","fields":\["name","size"\],"status":"pending","response":null,"nodeIds":\[\],"createdAt":"[^"]+","resolvedAt":null,"source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("request: %s", text)
	}
	h.sameAs("canvas_request_elicitation", `{"prompt":"p"}`, "canvas_ax_gate", `{"kind":"elicitation","action":"request","prompt":"p"}`, true)
	a := dig(t, h.ok("canvas_request_elicitation", `{"prompt":"a"}`), "elicitation", "id").(string)
	b := dig(t, h.ok("canvas_request_elicitation", `{"prompt":"a"}`), "elicitation", "id").(string)
	answered := h.sameAs("canvas_respond_elicitation", `{"id":"`+a+`","response":{"name":"pg"}}`,
		"canvas_ax_gate", `{"kind":"elicitation","action":"resolve","id":"`+b+`","response":{"name":"pg"}}`, true)
	eq(t, "status", dig(t, decode(t, answered), "elicitation", "status"), "answered")
	eq(t, "response", dig(t, decode(t, answered), "elicitation", "response"), map[string]any{"name": "pg"})

	h.fails("canvas_request_elicitation", `{"prompt":" "}`, "elicitation requires a prompt.")
	h.fails("canvas_ax_gate", `{"kind":"elicitation","action":"request"}`, "elicitation requires a prompt.")
	h.fails("canvas_respond_elicitation", `{"id":"`+a+`","response":{}}`, "elicitation not found or already answered.")
	h.sameAsOp("canvas_respond_elicitation", `{"id":"x"}`)
	h.sameAsOp("canvas_respond_elicitation", `{"id":"x","response":"yes"}`)
}

func TestAxModeTools(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_request_mode", `{"mode":"execute","reason":"plan agreed"}`)
	if !regexp.MustCompile(`^\{"ok":true,"modeRequest":\{"id":"mode-[^"]+","mode":"execute","reason":"plan agreed","status":"pending","nodeIds":\[\],"createdAt":"[^"]+","resolvedAt":null,"resolution":null,"source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("request: %s", text)
	}
	h.sameAs("canvas_request_mode", `{"mode":"plan"}`, "canvas_ax_gate", `{"kind":"mode","action":"request","mode":"plan"}`, true)
	a := dig(t, h.ok("canvas_request_mode", `{"mode":"plan"}`), "modeRequest", "id").(string)
	b := dig(t, h.ok("canvas_request_mode", `{"mode":"plan"}`), "modeRequest", "id").(string)
	rejected := h.sameAs("canvas_resolve_mode", `{"id":"`+a+`","decision":"rejected"}`, "canvas_ax_gate", `{"kind":"mode","action":"resolve","id":"`+b+`","decision":"rejected"}`, true)
	eq(t, "status", dig(t, decode(t, rejected), "modeRequest", "status"), "rejected")

	h.sameAsOp("canvas_request_mode", `{"mode":"yolo"}`)
	h.sameAsOp("canvas_ax_gate", `{"kind":"mode","action":"request","mode":"yolo"}`)
	h.fails("canvas_ax_gate", `{"kind":"mode","action":"request"}`, "mode request requires mode plan|execute|autonomous.")
	h.fails("canvas_resolve_mode", `{"id":"`+a+`","decision":"approved"}`, "mode request not found or already resolved.")
	h.fails("canvas_ax_gate", `{"kind":"mode","action":"resolve","id":"`+b+`"}`, "resolve requires decision approved or rejected.")
}

// awaitCase is one gate kind as the await tests see it.
type awaitCase struct {
	kind, key, legacy, request, resolve, resolveArgs string
}

var awaitCases = []awaitCase{
	{"approval", "approvalGate", "canvas_await_approval", `{"kind":"approval","action":"request","title":"Ship?"}`, "canvas_resolve_approval", `"decision":"approved"`},
	{"elicitation", "elicitation", "canvas_await_elicitation", `{"kind":"elicitation","action":"request","prompt":"Why?"}`, "canvas_respond_elicitation", `"response":{"why":"because"}`},
	{"mode", "modeRequest", "canvas_await_mode", `{"kind":"mode","action":"request","mode":"execute"}`, "canvas_resolve_mode", `"decision":"rejected"`},
}

func (c awaitCase) open(h *harness) string {
	h.t.Helper()
	return dig(h.t, h.ok("canvas_ax_gate", c.request), c.key, "id").(string)
}

func TestAxAwaitReadsAndMissingGates(t *testing.T) {
	h := newHarness(t)
	for _, c := range awaitCases {
		t.Run(c.kind, func(t *testing.T) {
			h.t = t
			// A missing gate is a normal result, legacy and composite alike.
			missing := `{"ok":false,"` + c.key + `":null,"pending":false}`
			for _, call := range [][2]string{
				{c.legacy, `{"id":"nope","timeoutMs":0}`},
				{c.legacy, `{"id":"nope"}`},
				{"canvas_ax_gate", `{"kind":"` + c.kind + `","action":"await","id":"nope"}`},
			} {
				r := h.call(call[0], call[1])
				if r.IsError || r.Text != missing {
					t.Fatalf("%s %s: %+v", call[0], call[1], r)
				}
			}
			// No id at all is refused by name, as over HTTP.
			h.sameAsOp("canvas_ax_gate", `{"kind":"`+c.kind+`","action":"await"}`)
			id := c.open(h)
			// timeoutMs 0 reads at once; composite and legacy agree byte for byte.
			text := h.sameAs(c.legacy, `{"id":"`+id+`","timeoutMs":0}`, "canvas_ax_gate", `{"kind":"`+c.kind+`","action":"await","id":"`+id+`","timeoutMs":0}`, false)
			if !strings.HasPrefix(text, `{"ok":true,"`+c.key+`":{"id":"`+id+`",`) || !strings.HasSuffix(text, `},"pending":true}`) {
				t.Fatalf("pending read: %s", text)
			}
			// timeoutMs decodes as over HTTP: a non-number or a value out
			// of 0…120000 is refused the same way; 0 and null read at once.
			for _, v := range []string{`"abc"`, `true`, `-5`, `999999`} {
				h.sameAsOp("canvas_ax_gate", `{"kind":"`+c.kind+`","action":"await","id":"`+id+`","timeoutMs":`+v+`}`)
			}
			for _, v := range []string{`0`, `null`} {
				start := time.Now()
				got := h.text("canvas_ax_gate", `{"kind":"`+c.kind+`","action":"await","id":"`+id+`","timeoutMs":`+v+`}`)
				if got != text || time.Since(start) > 2*time.Second {
					t.Fatalf("timeoutMs %s: %s after %v", v, got, time.Since(start))
				}
			}
			// A short wait times out with pending:true.
			start := time.Now()
			if got := h.text(c.legacy, `{"id":"`+id+`","timeoutMs":60}`); got != text {
				t.Fatalf("timed out read: %s", got)
			}
			if d := time.Since(start); d < 55*time.Millisecond {
				t.Fatalf("returned after %v, before the 60 ms wait", d)
			}
			// A decided gate answers at once even with the default wait.
			h.ok(c.resolve, `{"id":"`+id+`",`+c.resolveArgs+`}`)
			start = time.Now()
			text = h.sameAs(c.legacy, `{"id":"`+id+`"}`, "canvas_ax_gate", `{"kind":"`+c.kind+`","action":"await","id":"`+id+`"}`, false)
			if time.Since(start) > 2*time.Second || !strings.HasSuffix(text, `},"pending":false}`) || strings.Contains(text, `"status":"pending"`) {
				t.Fatalf("decided read: %s after %v", text, time.Since(start))
			}
		})
	}
}

func TestAxAwaitSchema(t *testing.T) {
	h := newHarness(t)
	h.sameAsOp("canvas_await_approval", `{"id":"x","timeoutMs":1.5}`)
	h.sameAsOp("canvas_await_approval", `{"id":"x","timeoutMs":-1}`)
	h.sameAsOp("canvas_await_elicitation", `{"id":"x","timeoutMs":120001}`)
	h.sameAsOp("canvas_await_mode", `{"id":"x","timeoutMs":"500"}`)
	h.sameAsOp("canvas_await_mode", `{}`)
	h.sameAsOp("canvas_ax_gate", `{"kind":"mode","action":"wait"}`)
}

// A parked await is released by the resolve, for every kind, through the
// legacy tool and the composite, with an explicit wait, the default wait
// (timeoutMs omitted: 30000) and a capped one (> 120000).
func TestAxAwaitIsReleasedByResolve(t *testing.T) {
	h := newHarness(t)
	type variant struct {
		name string
		args func(c awaitCase, id string) (string, string)
	}
	variants := []variant{
		{"legacy", func(c awaitCase, id string) (string, string) {
			return c.legacy, `{"id":"` + id + `","timeoutMs":20000}`
		}},
		{"composite-default", func(c awaitCase, id string) (string, string) {
			return "canvas_ax_gate", `{"kind":"` + c.kind + `","action":"await","id":"` + id + `"}`
		}},
	}
	for _, c := range awaitCases {
		for _, v := range variants {
			t.Run(c.kind+"/"+v.name, func(t *testing.T) {
				h.t = t
				id := c.open(h)
				tool, args := v.args(c, id)
				done := make(chan *mcpapi.Result, 1)
				start := time.Now()
				go func() { done <- h.caller.Call(t.Context(), tool, mustArgs(t, args)) }()
				h.waitFor("the parked await", func() bool { return h.stat("gateWaiters") == 1 })
				select {
				case r := <-done:
					t.Fatalf("await returned before the resolve: %+v", r)
				default:
				}
				resolved := h.text(c.resolve, `{"id":"`+id+`",`+c.resolveArgs+`,"source":"browser"}`)
				var r *mcpapi.Result
				select {
				case r = <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("the resolve did not release the await")
				}
				if r.IsError {
					t.Fatalf("await: %s", r.Text)
				}
				if d := time.Since(start); d > 10*time.Second {
					t.Fatalf("await took %v", d)
				}
				// The await answers the resolved record: {ok, <key>, pending:false}.
				record := strings.TrimSuffix(strings.TrimPrefix(resolved, `{"ok":true,"`+c.key+`":`), `}`)
				if want := `{"ok":true,"` + c.key + `":` + record + `,"pending":false}`; r.Text != want {
					t.Fatalf("await:\n got  %s\n want %s", r.Text, want)
				}
				h.waitFor("the waiter to leave", func() bool { return h.stat("gateWaiters") == 0 })
			})
		}
	}
}
