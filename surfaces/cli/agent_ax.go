package cli

// ax ...: the agent-experience commands (reference cli.md §7.11). Every
// write carries source "cli", as the reference's bodies do (the builder
// sets any operation's source field).

import (
	"github.com/spf13/cobra"
)

// axSource is the AX source label of the CLI.
const axSource = "cli"

// nodeIDs is the trailing node-ids argument of the AX writes.
var nodeIDs = argUX{name: "node-ids", optional: true}

func init() {
	setUX(map[string]*commandUX{
		"ax.get": {
			short:   "Show the AX state: focus, work items, gates, reviews, policy",
			example: []string{"pmx-canvas ax status"},
		},
		"ax.context.get": {
			short:   "Show the agent context: pending steering, pins, focus, work, gates, timeline",
			example: []string{"pmx-canvas ax context", "pmx-canvas ax context --consumer codex"},
		},
		"ax.focus.set": {
			short:   "Set the AX focus to nodes, or clear it",
			example: []string{"pmx-canvas ax focus node-a node-b", "pmx-canvas ax focus --clear"},
			args:    []argUX{nodeIDs},
			extra:   func(cmd *cobra.Command) { cmd.Flags().Bool("clear", false, "clear the focus") },
			prepare: func(c *opCall) error {
				switch {
				case c.flag("clear"):
					c.in["nodeIds"] = []string{}
				case c.in["nodeIds"] == nil:
					return die("pmx-canvas ax focus <node-id...> (or --clear)", "Missing node IDs")
				}
				return nil
			},
		},
		"ax.event.record": {
			short:   "Record a timeline event",
			example: []string{`pmx-canvas ax event add --kind note --summary "Started the auth refactor" node-abc123`},
			hint:    `pmx-canvas ax event add --kind note --summary "What happened" [--detail "..."] [node-ids...]`,
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"kind": {required: true}, "summary": {required: true}},
		},
		"ax.steer": {
			short:   "Send a steering message to the agent",
			example: []string{`pmx-canvas ax steer "focus on the tests first"`, `pmx-canvas ax steer --message "stop and summarise"`},
			hint:    `pmx-canvas ax steer "message"`,
			args:    []argUX{{name: "message", missing: "Missing steering message", flag: "message"}},
		},
		"ax.interaction": {
			short:   "Submit a node-originated interaction",
			example: []string{`pmx-canvas ax interaction --type ax.steer --node node-abc123 --payload '{"message":"ship it"}'`},
			hint:    `pmx-canvas ax interaction --type ax.event.record --node <node-id> --payload '{"kind":"note","summary":"..."}'`,
			flags:   map[string]flagUX{"type": {required: true}, "sourceNodeId": {required: true}},
		},
		"ax.delivery.pending": {
			short:   "Claim undelivered steering for a consumer, plus pending activity",
			example: []string{"pmx-canvas ax delivery list --consumer codex --limit 5"},
			flags:   map[string]flagUX{"limit": {positive: true, integer: true, eg: "10"}},
		},
		"ax.delivery.mark": {
			short:   "Mark a steering message delivered",
			example: []string{"pmx-canvas ax delivery mark steer-abc123"},
			args:    []argUX{{name: "steering-id", flag: "id"}},
		},
		"ax.elicitation.request": {
			short:   "Ask the human for input",
			example: []string{`pmx-canvas ax elicitation request --prompt "Which database?" --fields engine,version`},
			hint:    `pmx-canvas ax elicitation request --prompt "Which database?" [--fields a,b]`,
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"prompt": {required: true}},
		},
		"ax.elicitation.respond": {
			short:   "Answer a pending elicitation",
			example: []string{`pmx-canvas ax elicitation respond elic-abc123 --response '{"engine":"postgres"}'`},
			hint:    `pmx-canvas ax elicitation respond <id> --response '{"field":"value"}'`,
			args:    []argUX{{name: "elicitation-id"}},
			flags:   map[string]flagUX{"response": {def: "{}"}},
		},
		"ax.elicitation.list": {short: "List elicitations", example: []string{"pmx-canvas ax elicitation list"}},
		"ax.mode.request": {
			short:   "Ask the human to switch the agent's mode",
			example: []string{`pmx-canvas ax mode request --mode execute --reason "plan approved"`},
			hint:    "pmx-canvas ax mode request --mode plan|execute|autonomous [--reason ...]",
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"mode": {required: true}},
		},
		"ax.mode.resolve": {
			short:   "Approve or reject a pending mode request",
			example: []string{"pmx-canvas ax mode resolve mode-abc123 --decision approved"},
			hint:    "pmx-canvas ax mode resolve <id> --decision approved|rejected [--resolution ...]",
			args:    []argUX{{name: "mode-request-id"}},
			flags:   map[string]flagUX{"decision": {strict: true}},
		},
		"ax.mode.list":    {short: "List mode requests", example: []string{"pmx-canvas ax mode list"}},
		"ax.command.list": {short: "List the command allowlist", example: []string{"pmx-canvas ax command list"}},
		"ax.command.invoke": {
			short:   "Invoke an allowlisted command",
			example: []string{`pmx-canvas ax command invoke review --args '{"scope":"diff"}'`},
			hint:    `pmx-canvas ax command invoke <name> [--args '{"key":"value"}']`,
			args:    []argUX{{name: "name", missing: "Missing command name", flag: "name"}},
		},
		"ax.policy.get": {short: "Read the AX tool policy", example: []string{"pmx-canvas ax policy get"}},
		"ax.policy.set": {
			short: "Change the AX tool policy (merged per key)",
			example: []string{"pmx-canvas ax policy set --excluded-tools deploy --approval-tools migrate,release",
				`pmx-canvas ax policy set --mode plan --system-append "Ask before editing"`},
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				for _, p := range policyFlags {
					f.String(p.flag, "", p.usage)
				}
			},
			prepare: preparePolicy,
		},
		"ax.timeline.get": {
			short:   "Read the timeline: events, evidence and steering, newest first",
			example: []string{"pmx-canvas ax timeline", "pmx-canvas ax timeline --limit 10"},
			flags:   map[string]flagUX{"limit": {positive: true, integer: true, eg: "50"}},
		},
		"ax.work.create": {
			short:   "Create a work item",
			example: []string{`pmx-canvas ax work add --title "Wire up auth" --status in-progress node-abc123`},
			hint:    `pmx-canvas ax work add --title "Wire up auth" [--status todo] [node-ids...]`,
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"title": {required: true}},
		},
		"ax.work.update": {
			short:   "Update a work item",
			example: []string{"pmx-canvas ax work update work-abc123 --status done"},
			hint:    "pmx-canvas ax work update <work-id> --status done",
			args:    []argUX{{name: "work-id", missing: "Missing work item ID"}, nodeIDs},
		},
		"ax.work.list": {short: "List work items", example: []string{"pmx-canvas ax work list"}},
		"ax.approval.request": {
			short:   "Open an approval gate",
			example: []string{`pmx-canvas ax approval request --title "Deploy to prod?" --action deploy`},
			hint:    `pmx-canvas ax approval request --title "Deploy?" [--detail ...] [--action ...] [node-ids...]`,
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"title": {required: true}},
		},
		"ax.approval.resolve": {
			short:   "Approve or reject a pending approval gate",
			example: []string{`pmx-canvas ax approval resolve appr-abc123 --decision approved --resolution "go ahead"`},
			hint:    "pmx-canvas ax approval resolve <id> --decision approved|rejected [--resolution ...]",
			args:    []argUX{{name: "approval-id"}},
			flags:   map[string]flagUX{"decision": {required: true, strict: true}},
		},
		"ax.approval.list": {short: "List approval gates", example: []string{"pmx-canvas ax approval list"}},
		"ax.evidence.add": {
			short:   "Add an evidence item",
			example: []string{`pmx-canvas ax evidence add --kind test-output --title "Unit tests" --body "42 passed"`},
			hint:    `pmx-canvas ax evidence add --kind logs --title "Build log" [--body ...] [--ref ...] [node-ids...]`,
			args:    []argUX{nodeIDs},
			flags:   map[string]flagUX{"kind": {required: true}, "title": {required: true}},
		},
		"ax.review.add": {
			short: "Add a review annotation",
			example: []string{`pmx-canvas ax review add --body "Missing error handling" --severity high --node node-abc123`,
				`pmx-canvas ax review add --body "Typo" --anchor file --file src/app.ts`},
			hint:  `pmx-canvas ax review add --body "..." [--node <id> | --file <path>]`,
			flags: map[string]flagUX{"body": {required: true}},
		},
		"ax.review.list": {short: "List review annotations", example: []string{"pmx-canvas ax review list"}},
		"ax.host-capability.report": {
			short:   "Report what the agent host can do",
			example: []string{"pmx-canvas ax host report --host codex --canvas --tools --files"},
			long: `Report the agent host's capabilities. All seven capability flags are sent
(absent means false). Note: --canvas here is the "host can show the canvas"
capability; to address another canvas use PMX_CANVAS_ID.`,
			// The reference sends all seven capabilities, false when absent.
			flags: map[string]flagUX{
				"canvas": {def: "false"}, "hooks": {def: "false"}, "tools": {def: "false"}, "sessionMessaging": {def: "false"},
				"permissions": {def: "false"}, "files": {def: "false"}, "uiPrompts": {def: "false"},
			},
		},
		"ax.host-capability.get": {short: "Read the latest host capability report", example: []string{"pmx-canvas ax host status"}},
	})
}

// policyFlags are ax policy set's flags: each sets one key of the tools or
// prompt patch (tool lists are comma-separated).
var policyFlags = []struct{ flag, field, key, usage string }{
	{"allowed-tools", "tools", "allowed", "allowed commands/interaction types, comma-separated"},
	{"excluded-tools", "tools", "excluded", "excluded ones, comma-separated"},
	{"approval-tools", "tools", "approvalRequired", "ones that need an approval, comma-separated"},
	{"mode", "prompt", "mode", "prompt mode"},
	{"system-append", "prompt", "systemAppend", "text appended to the agent's system prompt"},
}

// preparePolicy builds the tools and prompt patches from their flags.
func preparePolicy(c *opCall) error {
	for _, p := range policyFlags {
		v := str(c.cmd, p.flag)
		if v == nil {
			continue
		}
		patch, _ := c.in[p.field].(map[string]any)
		if patch == nil {
			patch = map[string]any{}
			c.in[p.field] = patch
		}
		if p.field == "tools" {
			list := csv(*v)
			if list == nil {
				list = []string{}
			}
			patch[p.key] = list
		} else {
			patch[p.key] = *v
		}
	}
	return nil
}
