package mcpapi_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

func TestAxTimelineTools(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_record_ax_event", `{"kind":"tool-start","summary":"go test","nodeIds":["ghost"],"data":{"n":1}}`)
	if !regexp.MustCompile(`^\{"ok":true,"event":\{"id":"evt-[^"]+","seq":1,"kind":"tool-start","summary":"go test","detail":null,"nodeIds":\["ghost"\],"data":\{"n":1\},"createdAt":"[^"]+","source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("event: %s", text)
	}
	text = h.text("canvas_add_evidence", `{"kind":"test-output","title":"green","body":"ok","ref":"ci/1","source":"cli"}`)
	if !regexp.MustCompile(`^\{"ok":true,"evidence":\{"id":"evd-[^"]+","seq":1,"kind":"test-output","title":"green","body":"ok","ref":"ci/1","nodeIds":\[\],"data":null,"createdAt":"[^"]+","source":"cli"\}\}$`).MatchString(text) {
		t.Fatalf("evidence: %s", text)
	}
	text = h.text("canvas_send_steering", `{"message":"stop <now> & then"}`)
	if !regexp.MustCompile(`^\{"ok":true,"steering":\{"id":"steer-[^"]+","seq":1,"message":"stop <now> & then","delivered":false,"createdAt":"[^"]+","source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("steering: %s", text)
	}
	h.sameAs("canvas_record_ax_event", `{"kind":"failure","summary":"s","detail":"d"}`, "canvas_ax_timeline", `{"action":"record-event","kind":"failure","summary":"s","detail":"d"}`, true)
	h.sameAs("canvas_add_evidence", `{"kind":"diff","title":"t"}`, "canvas_ax_timeline", `{"action":"add-evidence","kind":"diff","title":"t"}`, true)
	h.sameAs("canvas_send_steering", `{"message":"m","source":"browser"}`, "canvas_ax_timeline", `{"action":"send-steering","message":"m","source":"browser"}`, true)
	// The composite's kind is loose: the operation's own kinds (note) pass.
	eq(t, "note", dig(t, h.ok("canvas_ax_timeline", `{"action":"record-event","kind":"note","summary":"n"}`), "event", "kind"), "note")

	read := h.sameAs("canvas_get_ax_timeline", `{"limit":2}`, "canvas_ax_timeline", `{"action":"read","limit":2}`, false)
	if !strings.HasPrefix(read, `{"ok":true,"events":[{`) || !strings.Contains(read, `],"evidence":[{`) || !strings.Contains(read, `],"steering":[{`) || !strings.Contains(read, `],"summary":{"recentEvents":`) {
		t.Fatalf("timeline key order: %s", read)
	}
	m := decode(t, read)
	eq(t, "limit", len(m["events"].([]any)), 2)
	eq(t, "newest first", dig(t, m, "events", 0, "kind"), "note")
	eq(t, "counts", dig(t, m, "summary", "counts"), map[string]any{"events": 4, "evidence": 3, "steering": 3})

	h.sameAsOp("canvas_record_ax_event", `{"kind":"note","summary":"x"}`)
	h.sameAsOp("canvas_record_ax_event", `{"kind":"prompt"}`)
	h.fails("canvas_ax_timeline", `{"action":"record-event","summary":"x"}`, "event requires kind and summary.")
	h.fails("canvas_add_evidence", `{"kind":"logs","title":" "}`, "evidence requires kind and title.")
	h.fails("canvas_ax_timeline", `{"action":"add-evidence"}`, "evidence requires kind and title.")
	h.fails("canvas_send_steering", `{"message":"  "}`, "steer requires a non-empty message.")
	h.fails("canvas_ax_timeline", `{"action":"send-steering"}`, "steer requires a non-empty message.")
	h.sameAsOp("canvas_get_ax_timeline", `{"limit":"5"}`)
}

func TestAxDeliveryTools(t *testing.T) {
	h := newHarness(t)
	own := dig(t, h.ok("canvas_send_steering", `{"message":"own"}`), "steering", "id").(string)
	human := dig(t, h.ok("canvas_send_steering", `{"message":"human","source":"browser"}`), "steering", "id").(string)
	h.ok("canvas_add_work_item", `{"title":"open","source":"browser"}`)

	// No consumer is not defaulted: the caller's own rows come back.
	got := h.ok("canvas_claim_ax_delivery", `{}`)
	eq(t, "unscoped", len(got["pending"].([]any)), 2)
	got = h.ok("canvas_claim_ax_delivery", `{"consumer":"mcp"}`)
	eq(t, "scoped", dig(t, got, "pending", 0, "id"), human)
	eq(t, "scoped rows", len(got["pending"].([]any)), 1)
	eq(t, "activity", dig(t, got, "pendingActivity", 0, "title"), "open")
	eq(t, "limit", len(h.ok("canvas_claim_ax_delivery", `{"limit":1}`)["pending"].([]any)), 1)
	text := h.sameAs("canvas_claim_ax_delivery", `{"consumer":"browser"}`, "canvas_ax_delivery", `{"action":"claim","consumer":"browser"}`, false)
	if !strings.HasPrefix(text, `{"ok":true,"pending":[{"id":"`+own+`",`) || !strings.Contains(text, `],"pendingActivity":[`) {
		t.Fatalf("claim: %s", text)
	}

	// A lease hides the rows from other consumers until marked.
	text = h.text("canvas_claim_ax_delivery", `{"consumer":"codex","leaseMs":60000}`)
	if !regexp.MustCompile(`,"pendingActivity":\[.*\],"leaseMs":60000,"leaseExpiresAt":"[^"]+"\}$`).MatchString(text) {
		t.Fatalf("leased claim: %s", text)
	}
	eq(t, "leased away", h.ok("canvas_claim_ax_delivery", `{"consumer":"copilot"}`)["pending"], []any{})
	h.failsWith("canvas_mark_ax_delivery", `{"id":"`+human+`","consumer":"copilot"}`, `steering message "`+human+`" is leased by another consumer until `)
	if got := h.text("canvas_mark_ax_delivery", `{"id":"`+human+`","consumer":"codex"}`); got != `{"ok":true,"delivered":true}` {
		t.Fatalf("mark: %s", got)
	}
	h.sameAs("canvas_mark_ax_delivery", `{"id":"`+human+`"}`, "canvas_ax_delivery", `{"action":"mark","id":"`+human+`"}`, false)
	h.sameAs("canvas_mark_ax_delivery", `{"id":"`+own+`","consumer":"codex"}`, "canvas_ax_delivery", `{"action":"mark","id":"`+own+`","consumer":"codex"}`, false)
	eq(t, "all delivered", h.ok("canvas_claim_ax_delivery", `{}`)["pending"], []any{})

	h.fails("canvas_mark_ax_delivery", `{"id":"nope"}`, `steering message "nope" not found.`)
	h.sameAsOp("canvas_mark_ax_delivery", `{}`)
	h.fails("canvas_claim_ax_delivery", `{"leaseMs":1000}`, "leaseMs requires a consumer (who holds the lease).")
	h.sameAsOp("canvas_claim_ax_delivery", `{"waitMs":"soon"}`)
	h.sameAsOp("canvas_claim_ax_delivery", `{"leaseMs":-1}`)
	h.sameAsOp("canvas_claim_ax_delivery", `{"consumer":7}`)
	h.sameAsOp("canvas_ax_delivery", `{"action":"ack"}`)
}

// A claim with waitMs parks until steering for the consumer arrives.
func TestAxClaimWaitIsReleasedBySteering(t *testing.T) {
	h := newHarness(t)
	for _, tool := range []string{"canvas_claim_ax_delivery", "canvas_ax_delivery"} {
		t.Run(tool, func(t *testing.T) {
			h.t = t
			args := `{"consumer":"codex","waitMs":20000}`
			if tool == "canvas_ax_delivery" {
				args = `{"action":"claim","consumer":"codex","waitMs":20000}`
			}
			done := make(chan *mcpapi.Result, 1)
			go func() { done <- h.caller.Call(t.Context(), tool, mustArgs(t, args)) }()
			h.waitFor("the parked claim", func() bool { return h.stat("deliveryWaiters") == 1 })
			// The consumer's own steering does not wake it.
			h.ok("canvas_send_steering", `{"message":"mine","source":"codex"}`)
			id := dig(t, h.ok("canvas_send_steering", `{"message":"for you-`+tool+`","source":"browser"}`), "steering", "id").(string)
			select {
			case r := <-done:
				if r.IsError {
					t.Fatal(r.Text)
				}
				m := decode(t, r.Text)
				eq(t, "rows", len(m["pending"].([]any)), 1)
				eq(t, "row", dig(t, m, "pending", 0, "id"), id)
			case <-time.After(5 * time.Second):
				t.Fatal("steering did not release the claim")
			}
			h.ok("canvas_mark_ax_delivery", `{"id":"`+id+`"}`)
		})
	}
}

func TestAxInvokeCommandTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_invoke_command", `{"name":"pmx.plan"}`)
	if !regexp.MustCompile(`^\{"ok":true,"event":\{"id":"evt-[^"]+","seq":1,"kind":"command","summary":"pmx.plan","detail":"Enter planning: outline the approach before executing.","nodeIds":\[\],"data":\{"command":"pmx.plan"\},"createdAt":"[^"]+","source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("command: %s", text)
	}
	eq(t, "args", dig(t, h.ok("canvas_invoke_command", `{"name":"pmx.review","args":{"depth":2},"source":"cli"}`), "event", "data", "args"), map[string]any{"depth": 2})
	h.fails("canvas_invoke_command", `{"name":"pmx.nope"}`, `Unknown command "pmx.nope".`)
	h.sameAsOp("canvas_invoke_command", `{}`)
	h.sameAsOp("canvas_invoke_command", `{"name":"pmx.plan","args":[1]}`)

	// Policy refusals are errors with the server's message.
	h.ok("canvas_set_ax_policy", `{"tools":{"allowed":["pmx.plan","pmx.review","pmx.summarize"],"excluded":["pmx.plan"],"approvalRequired":["pmx.review"]}}`)
	h.fails("canvas_invoke_command", `{"name":"pmx.plan"}`, `"pmx.plan" is excluded by the canvas policy.`)
	h.fails("canvas_invoke_command", `{"name":"pmx.execute"}`, `"pmx.execute" is not in the canvas policy's allowed tools.`)
	msg := h.failsWith("canvas_invoke_command", `{"name":"pmx.review"}`, `"pmx.review" requires approval: resolve approval gate appr-`)
	gate := regexp.MustCompile(`appr-[a-z0-9]+-[a-z0-9]+`).FindString(msg)
	// The gate is reused while pending; once approved the call succeeds once.
	if again := h.failsWith("canvas_invoke_command", `{"name":"pmx.review"}`, `"pmx.review" requires approval`); !strings.Contains(again, gate) {
		t.Fatalf("gate not reused: %s", again)
	}
	h.ok("canvas_resolve_approval", `{"id":"`+gate+`","decision":"approved","source":"browser"}`)
	eq(t, "approved call", dig(t, h.ok("canvas_invoke_command", `{"name":"pmx.review"}`), "event", "summary"), "pmx.review")
	h.failsWith("canvas_invoke_command", `{"name":"pmx.review"}`, `"pmx.review" requires approval: resolve approval gate appr-`)
	eq(t, "allowed", dig(t, h.ok("canvas_invoke_command", `{"name":"pmx.summarize"}`), "event", "detail"), "Summarize the current canvas/work state.")
}

func TestAxInteractionTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_ax_interaction", `{"type":"ax.work.create","sourceNodeId":"status-main","payload":{"title":"from the node"},"correlationId":"c-1"}`)
	if !regexp.MustCompile(`^\{"ok":true,"type":"ax.work.create","sourceNodeId":"status-main","primitive":\{"id":"work-[^"]+","title":"from the node","status":"todo","detail":null,"nodeIds":\["status-main"\],"createdAt":"[^"]+","updatedAt":"[^"]+","source":"mcp"\}\}$`).MatchString(text) {
		t.Fatalf("accepted: %s", text)
	}
	eq(t, "source", dig(t, h.ok("canvas_ax_interaction", `{"type":"ax.event.record","sourceNodeId":"status-main","payload":{"kind":"prompt","summary":"s"},"source":"codex"}`), "primitive", "source"), "codex")

	// Refusals are normal results carrying the refusal.
	for _, c := range []struct{ args, want string }{
		{`{"type":"ax.steer","sourceNodeId":"ghost","payload":{"message":"x"}}`,
			`{"ok":false,"status":404,"code":"unknown-node","error":"Source node \"ghost\" not found."}`},
		{`{"type":"ax.steer","sourceNodeId":"status-main","payload":{"message":"x"}}`,
			`{"ok":false,"status":403,"code":"not-allowed","error":"Node type \"status\" cannot emit \"ax.steer\"."}`},
		{`{"type":"ax.work.create","sourceNodeId":"status-main","payload":{}}`,
			`{"ok":false,"status":400,"code":"invalid-payload","error":"title: Invalid input: expected string, received undefined"}`},
		{`{"type":"ax.work.update","sourceNodeId":"status-main","payload":{"id":"work-x"}}`,
			`{"ok":false,"status":404,"code":"work-item-not-found","error":"Work item \"work-x\" not found."}`},
		{`{"type":"ax.work.create","sourceNodeId":"status-main","sourceSurface":"json-render","payload":{"title":"w"}}`,
			`{"ok":false,"status":403,"code":"invalid-surface-token","error":"Surface \"json-render\" must present the surface token issued for node \"status-main\"."}`},
		{`{"type":"ax.work.create","sourceNodeId":"status-main","sourceSurface":"json-render","surfaceToken":"forged","payload":{"title":"w"}}`,
			`{"ok":false,"status":403,"code":"invalid-surface-token","error":"Surface \"json-render\" must present the surface token issued for node \"status-main\"."}`},
	} {
		r := h.call("canvas_ax_interaction", c.args)
		if r.IsError || r.Text != c.want {
			t.Fatalf("%s:\n got  %+v\n want %s", c.args, r, c.want)
		}
	}
	// With the node's surface token a sandboxed surface gets through,
	// clamped to its own node.
	token := h.invoke("ax.surface-token", `{"nodeId":"status-main"}`)["token"].(string)
	got := h.ok("canvas_ax_interaction", `{"type":"ax.work.create","sourceNodeId":"status-main","sourceSurface":"json-render","surfaceToken":"`+token+`","payload":{"title":"w","nodeIds":[]}}`)
	eq(t, "ok", got["ok"], true)
	eq(t, "clamped", dig(t, got, "primitive", "nodeIds"), []any{"status-main"})

	// The tool policy applies to interaction types too.
	h.ok("canvas_set_ax_policy", `{"tools":{"excluded":["ax.work.create"],"approvalRequired":["ax.event.record"]}}`)
	r := h.call("canvas_ax_interaction", `{"type":"ax.work.create","sourceNodeId":"status-main","payload":{"title":"w"}}`)
	if r.IsError || !strings.HasPrefix(r.Text, `{"ok":false,"status":403,"code":"tool-excluded","error":"`) {
		t.Fatalf("policy refusal: %+v", r)
	}
	r = h.call("canvas_ax_interaction", `{"type":"ax.event.record","sourceNodeId":"status-main","payload":{"kind":"prompt","summary":"s"}}`)
	if r.IsError || !regexp.MustCompile(`^\{"ok":false,"status":403,"code":"approval-required","error":".*","approvalGate":\{"id":"appr-[^"]+","title":`).MatchString(r.Text) {
		t.Fatalf("approval refusal: %+v", r)
	}

	h.sameAsOp("canvas_ax_interaction", `{"type":"ax.nope","sourceNodeId":"status-main"}`)
	h.sameAsOp("canvas_ax_interaction", `{"type":"ax.steer"}`)
	h.sameAsOp("canvas_ax_interaction", `{"type":"ax.steer","sourceNodeId":"x","sourceSurface":"iframe"}`)
}

func TestAxIngestActivityTool(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_ingest_activity", `{"kind":"failure","title":"go test failed","summary":"2 failures","ref":"main_test.go","nodeIds":["status-main"],"data":{"activityKind":"spoof","n":2}}`)
	if !regexp.MustCompile(`^\{"ok":true,"event":\{"id":"evt-.*\},"workItem":\{"id":"work-.*\},"evidence":\{"id":"evd-.*\},"review":\{"id":"rev-.*\}\}$`).MatchString(text) {
		t.Fatalf("failure: %s", text)
	}
	m := decode(t, text)
	eq(t, "event kind", dig(t, m, "event", "kind"), "failure")
	eq(t, "canonical data", dig(t, m, "event", "data", "activityKind"), "failure")
	eq(t, "caller data", dig(t, m, "event", "data", "n"), 2)
	eq(t, "work item", dig(t, m, "workItem", "status"), "blocked")
	eq(t, "evidence", dig(t, m, "evidence", "kind"), "logs")
	eq(t, "review anchor", dig(t, m, "review", "nodeId"), "status-main")
	eq(t, "source", dig(t, m, "review", "source"), "mcp")

	m = h.ok("canvas_ingest_activity", `{"kind":"tool-result","title":"build","outcome":"success","source":"codex"}`)
	eq(t, "success evidence", dig(t, m, "evidence", "kind"), "tool-result")
	eq(t, "no work item", m["workItem"], nil)
	eq(t, "source", dig(t, m, "event", "source"), "codex")
	if got := h.text("canvas_ingest_activity", `{"kind":"note","title":"hello"}`); !strings.HasSuffix(got, `,"workItem":null,"evidence":null,"review":null}`) {
		t.Fatalf("note: %s", got)
	}
	m = h.ok("canvas_ingest_activity", `{"kind":"error","title":"boom","reactions":{"workItem":false,"evidence":{"kind":"diff","body":null},"review":{"severity":"warning","nodeId":null}}}`)
	eq(t, "suppressed", m["workItem"], nil)
	eq(t, "override", dig(t, m, "evidence", "kind"), "diff")
	eq(t, "severity", dig(t, m, "review", "severity"), "warning")

	h.sameAsOp("canvas_ingest_activity", `{"kind":"failure","title":"x","reactions":{"workItem":true}}`)
	h.sameAsOp("canvas_ingest_activity", `{"kind":"failure","title":"x","reactions":{"evidence":{"kind":"video"}}}`)
	h.sameAsOp("canvas_ingest_activity", `{"kind":"crash","title":"x"}`)
	h.sameAsOp("canvas_ingest_activity", `{"kind":"note"}`)
	h.fails("canvas_ingest_activity", `{"kind":"note","title":" "}`, "activity requires a title.")
}
