package mcpapi

import (
	"encoding/json"
	"sort"
)

// AX tools: state, work items and reviews, gates (request, resolve,
// await), timeline, delivery, commands, interactions and activity ingest,
// plus their five composites (reference mcp.md §6 canvas_ax_*, §7.8–7.11,
// §7.15; ax.md §4). Every tool runs its catalog operation; where our
// server differs from the reference on purpose (docs/CHANGELOG.md), the
// tool follows our server.

// awaitDefaultMs is the wait of an MCP await that names no timeoutMs.
const (
	awaitDefaultMs = 30000
	awaitMaxMs     = 120000
)

// buildAwait gives a gate await the tool's default wait (30000 ms) when
// the call names none; the operation decodes, bounds and caps timeoutMs.
func buildAwait(_ *Call, a Args) (Args, error) {
	out := cvCopyArgs(a)
	if _, ok := out["timeoutMs"]; !ok {
		out["timeoutMs"] = awaitDefaultMs
	}
	return out, nil
}

// Format helpers.

// replyError turns a reply whose status is an error into the tool error:
// the body's error message, or "HTTP <status>" when it has none.
func replyError(r *Reply) error {
	m := r.Map()
	if msg, ok := m["error"].(string); ok && msg != "" {
		return &ToolError{Text: msg}
	}
	return Errorf("HTTP %d", r.Status)
}

// orderedObj re-emits a JSON object with keys first in the given order,
// then any other keys (our additions) in name order. A body that is not an
// object comes back as it is.
func orderedObj(body json.RawMessage, keys ...string) (any, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return body, nil
	}
	out := make(Obj, 0, len(m))
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		seen[k] = true
		if v, ok := m[k]; ok {
			out = append(out, KV{k, v})
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, KV{k, m[k]})
	}
	return out, nil
}

// compactOrdered formats a successful reply as one-line JSON with the
// reference's key order.
func compactOrdered(keys ...string) func(r *Reply) (string, error) {
	return func(r *Reply) (string, error) {
		if r.Status >= 400 {
			return "", replyError(r)
		}
		v, err := orderedObj(r.Body, keys...)
		if err != nil {
			return "", err
		}
		return Compact(v)
	}
}

// okKey formats {ok, <key>}.
func okKey(key string) func(r *Reply) (string, error) { return compactOrdered("ok", key) }

// gateFormat formats an await: {ok, <key>, pending}. A missing gate (our
// operation answers 404 with {ok:false, <key>:null, pending:false}) is a
// normal result, not an error.
func gateFormat(key string) func(r *Reply) (string, error) {
	return func(r *Reply) (string, error) {
		if r.Status == 404 {
			if m := r.Map(); m != nil {
				if _, ok := m[key]; ok {
					return Compact(Obj{{"ok", false}, {key, nil}, {"pending", false}})
				}
			}
		}
		if r.Status >= 400 {
			return "", replyError(r)
		}
		v, err := orderedObj(r.Body, "ok", key, "pending")
		if err != nil {
			return "", err
		}
		return Compact(v)
	}
}

// interactionFormat formats an interaction's public result, accepted or
// refused, as a normal result.
func interactionFormat(r *Reply) (string, error) {
	m := r.Map()
	if m == nil {
		return "", replyError(r)
	}
	var v any
	var err error
	if ok, _ := m["ok"].(bool); ok {
		v, err = orderedObj(r.Body, "ok", "type", "sourceNodeId", "primitive")
	} else {
		if _, has := m["code"]; !has {
			return "", replyError(r)
		}
		v, err = orderedObj(r.Body, "ok", "status", "code", "error", "approvalGate")
	}
	if err != nil {
		return "", err
	}
	return Compact(v)
}

func init() {
	define(
		// State (§7.8).
		&Tool{
			Name:        "canvas_get_ax",
			Description: "Read the AX state (focus, work items, gates, reviews, elicitations, mode requests, policy), the host capability report and, unless includeContext is false, the agent context with its delivery block for the mcp consumer.",
			Fields:      opFields("ax.get"),
			Op:          "ax.get",
			Build:       forceConsumer,
			Format:      compactOrdered("ok", "state", "host", "context"),
		},
		&Tool{
			Name:        "canvas_set_ax_focus",
			Description: "Replace the AX focus with the given node ids (ids that are not on the canvas are dropped; the first one kept is primary). Does not move the viewport.",
			Fields:      opFields("ax.focus.set"),
			Op:          "ax.focus.set",
			Format:      okKey("focus"),
		},
		&Tool{
			Name:        "canvas_set_ax_policy",
			Description: "Merge a patch into the AX policy: tool lists (allowed, excluded, approvalRequired) and prompt settings (systemAppend, mode). Omitted keys are kept. The server enforces the tool lists for commands and interactions.",
			Fields:      opFields("ax.policy.set"),
			Op:          "ax.policy.set",
			Format:      okKey("policy"),
		},
		&Tool{
			Name:        "canvas_report_host_capability",
			Description: "Report what the agent host supports (canvas, hooks, tools, session messaging, permissions, files, UI prompts) so the canvas can show it and diagnose integrations.",
			Fields:      opFields("ax.host-capability.report"),
			Op:          "ax.host-capability.report",
			Format:      okKey("host"),
		},

		// Work items and reviews (§7.9).
		&Tool{
			Name:        "canvas_add_work_item",
			Description: "Create an AX work item (a task the agent is doing or plans to do), optionally tied to nodes.",
			Fields:      opFields("ax.work.create"),
			Op:          "ax.work.create",
			Format:      okKey("workItem"),
		},
		&Tool{
			Name:        "canvas_update_work_item",
			Description: "Change an AX work item's title, status, detail or node ids. An unknown id is an error.",
			Fields:      opFields("ax.work.update"),
			Op:          "ax.work.update",
			Format:      okKey("workItem"),
		},
		&Tool{
			Name:        "canvas_add_review_annotation",
			Description: "Add a review comment or finding anchored to a node, a file or a region of a file.",
			Fields:      opFields("ax.review.add"),
			Op:          "ax.review.add",
			Format:      okKey("reviewAnnotation"),
		},

		// Gates (§7.9, §7.11).
		&Tool{
			Name:        "canvas_request_approval",
			Description: "Open a pending approval gate for the human to approve or reject. Wait for the decision with canvas_await_approval.",
			Fields:      opFields("ax.approval.request"),
			Op:          "ax.approval.request",
			Format:      okKey("approvalGate"),
		},
		&Tool{
			Name:        "canvas_resolve_approval",
			Description: "Approve or reject a pending approval gate. An unknown or already decided gate is an error.",
			Fields:      opFields("ax.approval.resolve"),
			Op:          "ax.approval.resolve",
			Format:      okKey("approvalGate"),
		},
		&Tool{
			Name:        "canvas_request_elicitation",
			Description: "Ask the human a question (optionally a simple form of named fields). Wait for the answer with canvas_await_elicitation.",
			Fields:      opFields("ax.elicitation.request"),
			Op:          "ax.elicitation.request",
			Format:      okKey("elicitation"),
		},
		&Tool{
			Name:        "canvas_respond_elicitation",
			Description: "Answer a pending elicitation. An unknown or already answered elicitation is an error.",
			Fields:      opFields("ax.elicitation.respond"),
			Op:          "ax.elicitation.respond",
			Format:      okKey("elicitation"),
		},
		&Tool{
			Name:        "canvas_request_mode",
			Description: "Ask the human to switch the agent's workflow mode (plan, execute or autonomous). Wait for the decision with canvas_await_mode.",
			Fields:      opFields("ax.mode.request"),
			Op:          "ax.mode.request",
			Format:      okKey("modeRequest"),
		},
		&Tool{
			Name:        "canvas_resolve_mode",
			Description: "Approve or reject a pending mode request. An unknown or already decided request is an error.",
			Fields:      opFields("ax.mode.resolve"),
			Op:          "ax.mode.resolve",
			Format:      okKey("modeRequest"),
		},

		// Timeline, delivery, commands (§7.10).
		&Tool{
			Name:        "canvas_record_ax_event",
			Description: "Append an agent event (prompt, message, tool start or result, failure, approval, steering) to the AX timeline.",
			Fields:      opFields("ax.event.record"),
			Op:          "ax.event.record",
			Format:      okKey("event"),
		},
		&Tool{
			Name:        "canvas_add_evidence",
			Description: "Append an evidence item (logs, tool result, screenshot, file, diff, test output) to the AX timeline.",
			Fields:      opFields("ax.evidence.add"),
			Op:          "ax.evidence.add",
			Format:      okKey("evidence"),
		},
		&Tool{
			Name:        "canvas_send_steering",
			Description: "Queue a steering message for the agent; it stays pending until a consumer marks it delivered.",
			Fields:      opFields("ax.steer"),
			Op:          "ax.steer",
			Format:      okKey("steering"),
		},
		&Tool{
			Name:        "canvas_get_ax_timeline",
			Description: "Read the AX timeline, newest first: events, evidence, steering messages and a summary with counts.",
			Fields:      opFields("ax.timeline.get"),
			Op:          "ax.timeline.get",
			Format:      compactOrdered("ok", "events", "evidence", "steering", "summary"),
		},
		&Tool{
			Name:        "canvas_claim_ax_delivery",
			Description: "Fetch undelivered steering (oldest first) and open AX items for a consumer; rows created by that consumer are left out. Optionally wait until something is pending (waitMs) and lease the returned rows to the consumer (leaseMs) so other consumers do not get them until marked or the lease ends.",
			Fields:      opFields("ax.delivery.pending"),
			Op:          "ax.delivery.pending",
			Format:      compactOrdered("ok", "pending", "pendingActivity", "leaseMs", "leaseExpiresAt"),
		},
		&Tool{
			Name:        "canvas_mark_ax_delivery",
			Description: "Mark a steering message delivered. An unknown id is an error; a row leased to another consumer is refused.",
			Fields:      opFields("ax.delivery.mark"),
			Op:          "ax.delivery.mark",
			Format:      okKey("delivered"),
		},
		&Tool{
			Name:        "canvas_invoke_command",
			Description: "Invoke a PMX command (pmx.plan, pmx.execute, pmx.promote-context, pmx.summarize, pmx.review); it is recorded as a command event on the timeline. The canvas's tool policy may refuse it or ask for approval first.",
			Fields:      opFields("ax.command.invoke"),
			Op:          "ax.command.invoke",
			Format:      okKey("event"),
		},
		&Tool{
			Name:        "canvas_await_approval",
			Description: "Wait until an approval gate is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields:      opFields("ax.approval.get"),
			Op:          "ax.approval.get",
			Build:       buildAwait,
			Format:      gateFormat("approvalGate"),
		},
		&Tool{
			Name:        "canvas_await_elicitation",
			Description: "Wait until an elicitation is answered or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields:      opFields("ax.elicitation.get"),
			Op:          "ax.elicitation.get",
			Build:       buildAwait,
			Format:      gateFormat("elicitation"),
		},
		&Tool{
			Name:        "canvas_await_mode",
			Description: "Wait until a mode request is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields:      opFields("ax.mode.get"),
			Op:          "ax.mode.get",
			Build:       buildAwait,
			Format:      gateFormat("modeRequest"),
		},

		// Standalone tools (§7.15).
		&Tool{
			Name:        "canvas_ax_interaction",
			Description: "Submit an AX interaction on behalf of a canvas node (record an event, steer, create or update a work item, add evidence, request approval, review, focus, invoke a command, ask, request a mode). The node must allow the type; sandboxed surfaces are limited to their own node and must present the node's surface token. A refusal is returned as {ok:false,status,code,error}, not as an error.",
			Fields:      opFields("ax.interaction"),
			Op:          "ax.interaction",
			Format:      interactionFormat,
		},
		&Tool{
			Name:        "canvas_ingest_activity",
			Description: "Record agent or harness activity on the timeline and let the canvas react: a failure opens a blocked work item, logs evidence and files an error finding; a successful tool result adds evidence. reactions switches each reaction off (false) or forces and tunes it (object).",
			Fields:      opFields("ax.activity"),
			Op:          "ax.activity",
			Format:      compactOrdered("ok", "event", "workItem", "evidence", "review"),
		},

		// Composites (§6).
		&Tool{
			Name:        "canvas_ax_state",
			Description: "AX state in one tool: read the state and agent context (get), set the AX focus (set-focus), patch the tool and prompt policy (set-policy), or report what the agent host supports (report-capability).",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"get", "set-focus", "set-policy", "report-capability"},
				Description: "Operation to perform: get | set-focus | set-policy | report-capability."}},
			Actions: []Action{
				{Name: "get", Tool: "canvas_get_ax"},
				{Name: "set-focus", Tool: "canvas_set_ax_focus"},
				{Name: "set-policy", Tool: "canvas_set_ax_policy"},
				{Name: "report-capability", Tool: "canvas_report_host_capability"},
			},
		},
		&Tool{
			Name:        "canvas_ax_work",
			Description: "AX work in one tool: create a work item (add), change one (update), or attach a review comment or finding to a node, file or region (annotate).",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"add", "update", "annotate"},
				Description: "Operation to perform: add | update | annotate."}},
			Actions: []Action{
				{Name: "add", Tool: "canvas_add_work_item"},
				{Name: "update", Tool: "canvas_update_work_item"},
				{Name: "annotate", Tool: "canvas_add_review_annotation"},
			},
		},
		&Tool{
			Name:        "canvas_ax_gate",
			Description: "Human decision gates in one tool. kind approval, elicitation (a question) or mode (workflow mode switch); action request opens one, resolve decides or answers it, await waits for the decision (timeoutMs, default 30000, max 120000). For approvals the protected action id is approvalAction.",
			Discriminators: []Discriminator{
				{Name: "action", Values: []string{"request", "resolve", "await"}, Description: "Operation to perform: request | resolve | await."},
				{Name: "kind", Values: []string{"approval", "elicitation", "mode"}, Description: "Gate kind: approval | elicitation | mode."},
			},
			Actions: []Action{
				{Kind: "approval", Name: "request", Tool: "canvas_request_approval", Rename: map[string]string{"approvalAction": "action"}},
				{Kind: "approval", Name: "resolve", Tool: "canvas_resolve_approval"},
				{Kind: "approval", Name: "await", Tool: "canvas_await_approval"},
				{Kind: "elicitation", Name: "request", Tool: "canvas_request_elicitation"},
				{Kind: "elicitation", Name: "resolve", Tool: "canvas_respond_elicitation"},
				{Kind: "elicitation", Name: "await", Tool: "canvas_await_elicitation"},
				{Kind: "mode", Name: "request", Tool: "canvas_request_mode"},
				{Kind: "mode", Name: "resolve", Tool: "canvas_resolve_mode"},
				{Kind: "mode", Name: "await", Tool: "canvas_await_mode"},
			},
		},
		&Tool{
			Name:        "canvas_ax_timeline",
			Description: "AX timeline in one tool: read it (read), or append an agent event (record-event), an evidence item (add-evidence) or a steering message (send-steering).",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"read", "record-event", "add-evidence", "send-steering"},
				Description: "Operation to perform: read | record-event | add-evidence | send-steering."}},
			Actions: []Action{
				{Name: "read", Tool: "canvas_get_ax_timeline"},
				{Name: "record-event", Tool: "canvas_record_ax_event"},
				{Name: "add-evidence", Tool: "canvas_add_evidence"},
				{Name: "send-steering", Tool: "canvas_send_steering"},
			},
		},
		&Tool{
			Name:        "canvas_ax_delivery",
			Description: "Steering delivery without a host adapter: claim the undelivered steering and open AX items for a consumer (optionally waiting and leasing), then mark each steering message delivered.",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"claim", "mark"},
				Description: "Operation to perform: claim | mark."}},
			Actions: []Action{
				{Name: "claim", Tool: "canvas_claim_ax_delivery"},
				{Name: "mark", Tool: "canvas_mark_ax_delivery"},
			},
		},
	)
}

// forceConsumer reads the AX state as the mcp consumer (its delivery
// block is the MCP agent's).
func forceConsumer(_ *Call, a Args) (Args, error) {
	out := cvCopyArgs(a)
	out["consumer"] = "mcp"
	return out, nil
}
