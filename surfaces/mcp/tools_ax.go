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

// axSources are the AX source labels a record may carry.
var axSources = []string{"agent", "api", "browser", "cli", "codex", "copilot", "mcp", "sdk", "system"}

// Enum values of the AX fields.
var (
	workStatuses     = []string{"todo", "in-progress", "blocked", "done", "cancelled"}
	reviewKinds      = []string{"comment", "finding"}
	severities       = []string{"info", "warning", "error"}
	anchorTypes      = []string{"node", "file", "region"}
	decisions        = []string{"approved", "rejected"}
	modes            = []string{"plan", "execute", "autonomous"}
	eventKinds       = []string{"prompt", "assistant-message", "tool-start", "tool-result", "failure", "approval", "steering"}
	evidenceKinds    = []string{"logs", "tool-result", "screenshot", "file", "diff", "test-output"}
	activityKinds    = []string{"tool-start", "tool-result", "failure", "error", "session-start", "session-end", "command", "note"}
	outcomes         = []string{"success", "failure"}
	surfaces         = []string{"native-node", "json-render", "html-node", "mcp-app", "adapter"}
	interactionTypes = []string{"ax.event.record", "ax.steer", "ax.work.create", "ax.work.update", "ax.evidence.add",
		"ax.approval.request", "ax.approval.resolve", "ax.review.add", "ax.focus.set", "ax.command.invoke",
		"ax.elicitation.request", "ax.mode.request"}
)

// awaitDefaultMs is the wait of an MCP await that names no timeoutMs.
const (
	awaitDefaultMs = 30000
	awaitMaxMs     = 120000
)

// Schema helpers (strict fields unless said otherwise).

func strSchema(desc string) Obj { return Obj{{"type", "string"}, {"description", desc}} }

func enumSchema(values []string, desc string) Obj {
	return Obj{{"type", "string"}, {"enum", values}, {"description", desc}}
}

func strListSchema(desc string) Obj {
	return Obj{{"type", "array"}, {"items", Obj{{"type", "string"}}}, {"description", desc}}
}

func recordSchema(desc string) Obj {
	return Obj{{"type", "object"}, {"propertyNames", Obj{{"type", "string"}}}, {"additionalProperties", Obj{}}, {"description", desc}}
}

func strField(name, desc string, required bool) Field {
	return Field{Name: name, Required: required, Check: Reject, Schema: strSchema(desc)}
}

func enumField(name string, values []string, desc string, required bool) Field {
	return Field{Name: name, Required: required, Check: Reject, Schema: enumSchema(values, desc)}
}

func boolField(name, desc string) Field {
	return Field{Name: name, Check: Reject, Schema: Obj{{"type", "boolean"}, {"description", desc}}}
}

func strListField(name, desc string, required bool) Field {
	return Field{Name: name, Required: required, Check: Reject, Schema: strListSchema(desc)}
}

func recordField(name, desc string, required bool) Field {
	return Field{Name: name, Required: required, Check: Reject, Schema: recordSchema(desc)}
}

func sourceField() Field {
	return enumField("source", axSources, "Who is acting, stored on the record. Absent or unknown: mcp.", false)
}

func nodeIDsField(desc string) Field { return strListField("nodeIds", desc, false) }

// gateIDField is a gate id. Composites share it between resolve and
// await and publish it as a plain string whose wrong-typed values are
// dropped (the reference's id?: string ~); axBuild drops them.
func gateIDField(desc string) Field {
	return Field{Name: "id", Required: true, Check: Reject, Schema: strSchema(desc),
		Loose: strSchema("Gate id: appr-..., elic-... or mode-... (resolve, await).")}
}

func timeoutField() Field {
	return Field{Name: "timeoutMs", Check: Reject, Schema: Obj{{"type", "integer"}, {"minimum", 0}, {"maximum", awaitMaxMs},
		{"description", "How long to wait for a decision, in ms (default 30000, max 120000; 0 reads at once)."}}}
}

// Build helpers.

// validSource reports whether v is an AX source label.
func validSource(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, l := range axSources {
		if l == s {
			return true
		}
	}
	return false
}

// axBuild copies the arguments for an AX operation: a source that is not a
// label is dropped (the operation then stamps the caller's label, mcp), as
// is a gate id that is not a string (composites accept any value there).
// then, when set, adjusts the copy further.
func axBuild(then func(a Args)) func(c *Call, a Args) (Args, error) {
	return func(_ *Call, a Args) (Args, error) {
		out := make(Args, len(a))
		for k, v := range a {
			out[k] = v
		}
		if v, ok := out["source"]; ok && !validSource(v) {
			delete(out, "source")
		}
		if v, ok := out["id"]; ok {
			if _, isStr := v.(string); !isStr {
				delete(out, "id")
			}
		}
		if then != nil {
			then(out)
		}
		return out, nil
	}
}

// buildAwait sets the wait of a gate read: omitted → 30000 ms; a
// non-number or ≤ 0 → 0 (read at once); above 120000 → 120000.
func buildAwait(a Args) {
	ms := float64(awaitDefaultMs)
	if v, ok := a["timeoutMs"]; ok {
		n, isNum := v.(float64)
		switch {
		case !isNum || !(n > 0):
			ms = 0
		case n > awaitMaxMs:
			ms = awaitMaxMs
		default:
			ms = n
		}
	}
	delete(a, "waitMs")
	a["timeoutMs"] = ms
}

// buildPolicy forwards only the tools and prompt patches that are objects.
func buildPolicy(a Args) {
	for _, k := range []string{"tools", "prompt"} {
		if v, ok := a[k]; ok {
			if _, isObj := v.(map[string]any); !isObj {
				delete(a, k)
			}
		}
	}
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
			Fields: []Field{
				boolField("includeContext", "Include the agent context block (default true)."),
			},
			Op:     "ax.get",
			Build:  axBuild(func(a Args) { a["consumer"] = "mcp" }),
			Format: compactOrdered("ok", "state", "host", "context"),
		},
		&Tool{
			Name:        "canvas_set_ax_focus",
			Description: "Replace the AX focus with the given node ids (ids that are not on the canvas are dropped; the first one kept is primary). Does not move the viewport.",
			Fields: []Field{
				strListField("nodeIds", "Node ids to focus; an empty list clears the focus.", true),
				sourceField(),
			},
			Op:     "ax.focus.set",
			Build:  axBuild(nil),
			Format: okKey("focus"),
		},
		&Tool{
			Name:        "canvas_set_ax_policy",
			Description: "Merge a patch into the AX policy: tool lists (allowed, excluded, approvalRequired) and prompt settings (systemAppend, mode). Omitted keys are kept. The server enforces the tool lists for commands and interactions.",
			Fields: []Field{
				{Name: "tools", Check: Reject, Schema: Obj{{"type", "object"}, {"properties", Obj{
					{"allowed", strListSchema("Only these commands and interaction types may run (empty: no restriction).")},
					{"excluded", strListSchema("Commands and interaction types that are refused.")},
					{"approvalRequired", strListSchema("Commands and interaction types that need an approved gate first.")},
				}}, {"description", "Tool policy patch: allowed, excluded and approvalRequired string lists."}},
					Loose: Obj{{"description", "Tool policy patch (set-policy) or tools capability flag (report-capability)."}}},
				{Name: "prompt", Check: Reject, Schema: Obj{{"type", "object"}, {"properties", Obj{
					{"systemAppend", Obj{{"type", "string"}}},
					{"mode", Obj{{"type", "string"}}},
				}}, {"description", "Prompt policy patch: systemAppend and mode."}}},
				sourceField(),
			},
			Op:     "ax.policy.set",
			Build:  axBuild(buildPolicy),
			Format: okKey("policy"),
		},
		&Tool{
			Name:        "canvas_report_host_capability",
			Description: "Report what the agent host supports (canvas, hooks, tools, session messaging, permissions, files, UI prompts) so the canvas can show it and diagnose integrations.",
			Fields: []Field{
				strField("host", "Host name, e.g. codex or copilot.", false),
				// canvas is also the tool-wide canvas selector: a string
				// picks the canvas and is dropped here.
				{Name: "canvas", Check: Drop, Schema: Obj{{"type", "boolean"}, {"description", "The host can show the canvas."}}},
				boolField("hooks", "The host runs lifecycle hooks."),
				boolField("tools", "The host can call MCP tools."),
				boolField("sessionMessaging", "The host can inject messages into the session."),
				boolField("permissions", "The host has a permission prompt."),
				boolField("files", "The host can read and write files."),
				boolField("uiPrompts", "The host can show UI prompts to the human."),
				recordField("raw", "Free-form diagnostics stored with the report.", false),
				sourceField(),
			},
			Op:     "ax.host-capability.report",
			Build:  axBuild(nil),
			Format: okKey("host"),
		},

		// Work items and reviews (§7.9).
		&Tool{
			Name:        "canvas_add_work_item",
			Description: "Create an AX work item (a task the agent is doing or plans to do), optionally tied to nodes.",
			Fields: []Field{
				strField("title", "Short title (must not be blank).", true),
				enumField("status", workStatuses, "Status (default todo).", false),
				strField("detail", "Longer description.", false),
				nodeIDsField("Nodes the work item is about."),
				sourceField(),
			},
			Op:     "ax.work.create",
			Build:  axBuild(nil),
			Format: okKey("workItem"),
		},
		&Tool{
			Name:        "canvas_update_work_item",
			Description: "Change an AX work item's title, status, detail or node ids. An unknown id is an error.",
			Fields: []Field{
				strField("id", "Work item id (work-...).", true),
				strField("title", "New title.", false),
				enumField("status", workStatuses, "New status.", false),
				strField("detail", "New detail.", false),
				nodeIDsField("New node ids (replace the old ones)."),
				sourceField(),
			},
			Op:     "ax.work.update",
			Build:  axBuild(nil),
			Format: okKey("workItem"),
		},
		&Tool{
			Name:        "canvas_add_review_annotation",
			Description: "Add a review comment or finding anchored to a node, a file or a region of a file.",
			Fields: []Field{
				strField("body", "The comment text (must not be blank).", true),
				enumField("kind", reviewKinds, "comment (default) or finding.", false),
				enumField("severity", severities, "Severity (default info).", false),
				enumField("anchorType", anchorTypes, "What the annotation is anchored to (default node when nodeId is given, else file). A node anchor needs a node on the canvas.", false),
				strField("nodeId", "Anchor node.", false),
				strField("file", "Anchor file path.", false),
				{Name: "region", Check: Reject, Schema: Obj{{"type", "object"}, {"properties", Obj{
					{"line", Obj{{"type", "number"}}},
					{"endLine", Obj{{"type", "number"}}},
					{"label", Obj{{"type", "string"}}},
				}}, {"description", "Anchor region within the file: line, endLine, label."}}},
				strField("author", "Who wrote it.", false),
				sourceField(),
			},
			Op:     "ax.review.add",
			Build:  axBuild(nil),
			Format: okKey("reviewAnnotation"),
		},

		// Gates (§7.9, §7.11).
		&Tool{
			Name:        "canvas_request_approval",
			Description: "Open a pending approval gate for the human to approve or reject. Wait for the decision with canvas_await_approval.",
			Fields: []Field{
				strField("title", "What needs approval (must not be blank).", true),
				strField("detail", "Why, and what happens if approved.", false),
				strField("action", "Machine-readable id of the action the gate protects.", false),
				nodeIDsField("Nodes the gate is about."),
				sourceField(),
			},
			Op:     "ax.approval.request",
			Build:  axBuild(nil),
			Format: okKey("approvalGate"),
		},
		&Tool{
			Name:        "canvas_resolve_approval",
			Description: "Approve or reject a pending approval gate. An unknown or already decided gate is an error.",
			Fields: []Field{
				gateIDField("Approval gate id (appr-...)."),
				enumField("decision", decisions, "approved or rejected.", true),
				strField("resolution", "Note explaining the decision.", false),
				sourceField(),
			},
			Op:     "ax.approval.resolve",
			Build:  axBuild(nil),
			Format: okKey("approvalGate"),
		},
		&Tool{
			Name:        "canvas_request_elicitation",
			Description: "Ask the human a question (optionally a simple form of named fields). Wait for the answer with canvas_await_elicitation.",
			Fields: []Field{
				strField("prompt", "The question (must not be blank).", true),
				strListField("fields", "Names of the form fields to fill in.", false),
				nodeIDsField("Nodes the question is about."),
				sourceField(),
			},
			Op:     "ax.elicitation.request",
			Build:  axBuild(nil),
			Format: okKey("elicitation"),
		},
		&Tool{
			Name:        "canvas_respond_elicitation",
			Description: "Answer a pending elicitation. An unknown or already answered elicitation is an error.",
			Fields: []Field{
				gateIDField("Elicitation id (elic-...)."),
				recordField("response", "The answer, as an object of field values.", true),
				sourceField(),
			},
			Op:     "ax.elicitation.respond",
			Build:  axBuild(nil),
			Format: okKey("elicitation"),
		},
		&Tool{
			Name:        "canvas_request_mode",
			Description: "Ask the human to switch the agent's workflow mode (plan, execute or autonomous). Wait for the decision with canvas_await_mode.",
			Fields: []Field{
				enumField("mode", modes, "The mode to switch to.", true),
				strField("reason", "Why the switch is wanted.", false),
				nodeIDsField("Nodes the request is about."),
				sourceField(),
			},
			Op:     "ax.mode.request",
			Build:  axBuild(nil),
			Format: okKey("modeRequest"),
		},
		&Tool{
			Name:        "canvas_resolve_mode",
			Description: "Approve or reject a pending mode request. An unknown or already decided request is an error.",
			Fields: []Field{
				gateIDField("Mode request id (mode-...)."),
				enumField("decision", decisions, "approved or rejected.", true),
				strField("resolution", "Note explaining the decision.", false),
				sourceField(),
			},
			Op:     "ax.mode.resolve",
			Build:  axBuild(nil),
			Format: okKey("modeRequest"),
		},

		// Timeline, delivery, commands (§7.10).
		&Tool{
			Name:        "canvas_record_ax_event",
			Description: "Append an agent event (prompt, message, tool start or result, failure, approval, steering) to the AX timeline.",
			Fields: []Field{
				{Name: "kind", Required: true, Check: Reject, Schema: enumSchema(eventKinds, "Event kind."),
					Loose: Obj{{"description", "Event kind (record-event) or evidence kind (add-evidence)."}}},
				strField("summary", "One-line summary.", true),
				strField("detail", "Longer text.", false),
				nodeIDsField("Nodes the event is about."),
				recordField("data", "Structured payload.", false),
				sourceField(),
			},
			Op:     "ax.event.record",
			Build:  axBuild(nil),
			Format: okKey("event"),
		},
		&Tool{
			Name:        "canvas_add_evidence",
			Description: "Append an evidence item (logs, tool result, screenshot, file, diff, test output) to the AX timeline.",
			Fields: []Field{
				enumField("kind", evidenceKinds, "Evidence kind.", true),
				strField("title", "Title (must not be blank).", true),
				strField("body", "Inline content.", false),
				strField("ref", "Path, URL or other locator.", false),
				nodeIDsField("Nodes the evidence is about."),
				recordField("data", "Structured payload.", false),
				sourceField(),
			},
			Op:     "ax.evidence.add",
			Build:  axBuild(nil),
			Format: okKey("evidence"),
		},
		&Tool{
			Name:        "canvas_send_steering",
			Description: "Queue a steering message for the agent; it stays pending until a consumer marks it delivered.",
			Fields: []Field{
				strField("message", "The instruction (must not be blank).", true),
				sourceField(),
			},
			Op:     "ax.steer",
			Build:  axBuild(nil),
			Format: okKey("steering"),
		},
		&Tool{
			Name:        "canvas_get_ax_timeline",
			Description: "Read the AX timeline, newest first: events, evidence, steering messages and a summary with counts.",
			Fields: []Field{
				{Name: "limit", Check: Reject, Schema: Obj{{"type", "number"}, {"description", "Rows per list (default 50, max 200)."}}},
			},
			Op:     "ax.timeline.get",
			Format: compactOrdered("ok", "events", "evidence", "steering", "summary"),
		},
		&Tool{
			Name:        "canvas_claim_ax_delivery",
			Description: "Fetch undelivered steering (oldest first) and open AX items for a consumer; rows created by that consumer are left out. Optionally wait until something is pending (waitMs) and lease the returned rows to the consumer (leaseMs) so other consumers do not get them until marked or the lease ends.",
			Fields: []Field{
				{Name: "consumer", Check: Reject, Schema: strSchema("Who is reading; rows whose source equals it are left out. Not defaulted."),
					Loose: strSchema("Who is reading (claim) or who holds the lease (mark).")},
				{Name: "limit", Check: Reject, Schema: Obj{{"type", "number"}, {"description", "Maximum steering rows (default 50, max 200)."}}},
				{Name: "waitMs", Check: Reject, Schema: Obj{{"type", "integer"}, {"minimum", 0}, {"maximum", awaitMaxMs},
					{"description", "Wait up to this many ms for steering when none is pending (max 120000)."}}},
				{Name: "leaseMs", Check: Reject, Schema: Obj{{"type", "integer"}, {"minimum", 0},
					{"description", "Lease the returned steering rows to the consumer for this many ms (needs consumer)."}}},
			},
			Op:     "ax.delivery.pending",
			Format: compactOrdered("ok", "pending", "pendingActivity", "leaseMs", "leaseExpiresAt"),
		},
		&Tool{
			Name:        "canvas_mark_ax_delivery",
			Description: "Mark a steering message delivered. An unknown id is an error; a row leased to another consumer is refused.",
			Fields: []Field{
				strField("id", "Steering message id (steer-...).", true),
				strField("consumer", "Who delivered it; must hold the lease if the row is leased.", false),
			},
			Op:     "ax.delivery.mark",
			Format: okKey("delivered"),
		},
		&Tool{
			Name:        "canvas_invoke_command",
			Description: "Invoke a PMX command (pmx.plan, pmx.execute, pmx.promote-context, pmx.summarize, pmx.review); it is recorded as a command event on the timeline. The canvas's tool policy may refuse it or ask for approval first.",
			Fields: []Field{
				strField("name", "Command name, e.g. pmx.plan.", true),
				recordField("args", "Arguments recorded with the command.", false),
				sourceField(),
			},
			Op:     "ax.command.invoke",
			Build:  axBuild(nil),
			Format: okKey("event"),
		},
		&Tool{
			Name:        "canvas_await_approval",
			Description: "Wait until an approval gate is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields: []Field{
				strField("id", "Approval gate id (appr-...).", true),
				timeoutField(),
			},
			Op:     "ax.approval.get",
			Build:  axBuild(buildAwait),
			Format: gateFormat("approvalGate"),
		},
		&Tool{
			Name:        "canvas_await_elicitation",
			Description: "Wait until an elicitation is answered or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields: []Field{
				strField("id", "Elicitation id (elic-...).", true),
				timeoutField(),
			},
			Op:     "ax.elicitation.get",
			Build:  axBuild(buildAwait),
			Format: gateFormat("elicitation"),
		},
		&Tool{
			Name:        "canvas_await_mode",
			Description: "Wait until a mode request is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false.",
			Fields: []Field{
				strField("id", "Mode request id (mode-...).", true),
				timeoutField(),
			},
			Op:     "ax.mode.get",
			Build:  axBuild(buildAwait),
			Format: gateFormat("modeRequest"),
		},

		// Standalone tools (§7.15).
		&Tool{
			Name:        "canvas_ax_interaction",
			Description: "Submit an AX interaction on behalf of a canvas node (record an event, steer, create or update a work item, add evidence, request approval, review, focus, invoke a command, ask, request a mode). The node must allow the type; sandboxed surfaces are limited to their own node and must present the node's surface token. A refusal is returned as {ok:false,status,code,error}, not as an error.",
			Fields: []Field{
				enumField("type", interactionTypes, "Interaction type.", true),
				strField("sourceNodeId", "The node the interaction comes from.", true),
				recordField("payload", "Type-specific payload.", false),
				enumField("sourceSurface", surfaces, "The kind of surface that emits it; html-node, mcp-app and json-render are sandboxed.", false),
				strField("correlationId", "Caller's correlation id.", false),
				sourceField(),
				strField("surfaceToken", "The surface token issued for the source node (required for sandboxed surfaces).", false),
			},
			Op:     "ax.interaction",
			Build:  axBuild(nil),
			Format: interactionFormat,
		},
		&Tool{
			Name:        "canvas_ingest_activity",
			Description: "Record agent or harness activity on the timeline and let the canvas react: a failure opens a blocked work item, logs evidence and files an error finding; a successful tool result adds evidence. reactions switches each reaction off (false) or forces and tunes it (object).",
			Fields: []Field{
				enumField("kind", activityKinds, "Activity kind.", true),
				strField("title", "Activity title (event summary, title of created items).", true),
				strField("summary", "Detail text (event detail, body of reactions).", false),
				enumField("outcome", outcomes, "failure triggers the failure reactions; success on a tool-result adds evidence.", false),
				strField("ref", "File, URL or commit (evidence ref, review file).", false),
				nodeIDsField("Related nodes; the first one on the canvas anchors the review."),
				recordField("data", "Extra event data.", false),
				{Name: "reactions", Check: Reject, Schema: reactionsSchema()},
				sourceField(),
			},
			Op:     "ax.activity",
			Build:  buildActivity,
			Format: compactOrdered("ok", "event", "workItem", "evidence", "review"),
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

// buildActivity refuses a reaction set to true: the schema allows false
// or an object (the validator does not check "const", so the tool does).
func buildActivity(c *Call, a Args) (Args, error) {
	if r, ok := a["reactions"].(map[string]any); ok {
		for _, k := range []string{"workItem", "evidence", "review"} {
			if on, isBool := r[k].(bool); isBool && on {
				return nil, Errorf("MCP error -32602: Input validation error: Invalid arguments for tool canvas_ingest_activity: reactions: %s: does not match any allowed form", k)
			}
		}
	}
	return axBuild(nil)(c, a)
}

// reactionsSchema is canvas_ingest_activity's reactions object: each
// reaction false (off) or an override object.
func reactionsSchema() Obj {
	off := Obj{{"type", "boolean"}, {"const", false}}
	strOrNull := []Obj{{{"type", "string"}}, {{"type", "null"}}}
	override := func(props Obj) Obj { return Obj{{"type", "object"}, {"properties", props}} }
	return Obj{{"type", "object"}, {"properties", Obj{
		{"workItem", Obj{{"anyOf", []Obj{off, override(Obj{
			{"status", Obj{{"type", "string"}, {"enum", workStatuses}}},
			{"detail", Obj{{"anyOf", strOrNull}}},
		})}}}},
		{"evidence", Obj{{"anyOf", []Obj{off, override(Obj{
			{"kind", Obj{{"type", "string"}, {"enum", evidenceKinds}}},
			{"body", Obj{{"anyOf", strOrNull}}},
		})}}}},
		{"review", Obj{{"anyOf", []Obj{off, override(Obj{
			{"severity", Obj{{"type", "string"}, {"enum", severities}}},
			{"kind", Obj{{"type", "string"}, {"enum", reviewKinds}}},
			{"anchorType", Obj{{"type", "string"}, {"enum", anchorTypes}}},
			{"nodeId", Obj{{"anyOf", strOrNull}}},
		})}}}},
	}}, {"description", "Per-reaction switch: false turns a reaction off; an object turns it on and overrides workItem {status, detail}, evidence {kind, body}, review {severity, kind, anchorType, nodeId}."}}
}
