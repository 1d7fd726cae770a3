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
			Name:   "canvas_get_ax",
			Build:  forceConsumer,
			Format: compactOrdered("ok", "state", "host", "context"),
		},
		&Tool{
			Name:   "canvas_set_ax_focus",
			Format: okKey("focus"),
		},
		&Tool{
			Name:   "canvas_set_ax_policy",
			Format: okKey("policy"),
		},
		&Tool{
			Name:   "canvas_report_host_capability",
			Format: okKey("host"),
		},

		// Work items and reviews (§7.9).
		&Tool{
			Name:   "canvas_add_work_item",
			Format: okKey("workItem"),
		},
		&Tool{
			Name:   "canvas_update_work_item",
			Format: okKey("workItem"),
		},
		&Tool{
			Name:   "canvas_add_review_annotation",
			Format: okKey("reviewAnnotation"),
		},

		// Gates (§7.9, §7.11).
		&Tool{
			Name:   "canvas_request_approval",
			Format: okKey("approvalGate"),
		},
		&Tool{
			Name:   "canvas_resolve_approval",
			Format: okKey("approvalGate"),
		},
		&Tool{
			Name:   "canvas_request_elicitation",
			Format: okKey("elicitation"),
		},
		&Tool{
			Name:   "canvas_respond_elicitation",
			Format: okKey("elicitation"),
		},
		&Tool{
			Name:   "canvas_request_mode",
			Format: okKey("modeRequest"),
		},
		&Tool{
			Name:   "canvas_resolve_mode",
			Format: okKey("modeRequest"),
		},

		// Timeline, delivery, commands (§7.10).
		&Tool{
			Name:   "canvas_record_ax_event",
			Format: okKey("event"),
		},
		&Tool{
			Name:   "canvas_add_evidence",
			Format: okKey("evidence"),
		},
		&Tool{
			Name:   "canvas_send_steering",
			Format: okKey("steering"),
		},
		&Tool{
			Name:   "canvas_get_ax_timeline",
			Format: compactOrdered("ok", "events", "evidence", "steering", "summary"),
		},
		&Tool{
			Name:   "canvas_claim_ax_delivery",
			Format: compactOrdered("ok", "pending", "pendingActivity", "leaseMs", "leaseExpiresAt"),
		},
		&Tool{
			Name:   "canvas_mark_ax_delivery",
			Format: okKey("delivered"),
		},
		&Tool{
			Name:   "canvas_invoke_command",
			Format: okKey("event"),
		},
		&Tool{
			Name:   "canvas_await_approval",
			Build:  buildAwait,
			Format: gateFormat("approvalGate"),
		},
		&Tool{
			Name:   "canvas_await_elicitation",
			Build:  buildAwait,
			Format: gateFormat("elicitation"),
		},
		&Tool{
			Name:   "canvas_await_mode",
			Build:  buildAwait,
			Format: gateFormat("modeRequest"),
		},

		// Standalone tools (§7.15).
		&Tool{
			Name:   "canvas_ax_interaction",
			Format: interactionFormat,
		},
		&Tool{
			Name:   "canvas_ingest_activity",
			Format: compactOrdered("ok", "event", "workItem", "evidence", "review"),
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
