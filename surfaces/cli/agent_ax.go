package cli

// ax ...: the agent-experience commands (reference cli.md §7.11). Every
// write carries source "cli", as the reference's bodies do.

import (
	"strings"

	"github.com/spf13/cobra"
)

// axSource is the AX source label of the CLI.
const axSource = "cli"

func newAxCommand(s *ioStreams) *cobra.Command {
	return newGroup("ax", "Agent experience: focus, work items, gates, timeline, steering, policy",
		examples(
			"pmx-canvas ax status",
			`pmx-canvas ax work add --title "Wire up auth" --status in-progress node-abc123`,
			`pmx-canvas ax approval request --title "Deploy to prod?"`,
			`pmx-canvas ax steer "focus on the tests first"`,
		),
		newAxStatusCommand(s), newAxContextCommand(s), newAxFocusCommand(s), newAxEventCommand(s),
		newAxSteerCommand(s), newAxInteractionCommand(s), newAxDeliveryCommand(s), newAxElicitationCommand(s),
		newAxModeCommand(s), newAxCommandCommand(s), newAxPolicyCommand(s), newAxTimelineCommand(s),
		newAxWorkCommand(s), newAxApprovalCommand(s), newAxEvidenceCommand(s), newAxReviewCommand(s),
		newAxHostCommand(s),
	)
}

// axRead is a leaf that runs a read operation with no input.
func axRead(s *ioStreams, use, short, example, op string) *cobra.Command {
	return leaf(use, short, example, func(cmd *cobra.Command, _ []string) error { return runOp(cmd, s, op, nil) })
}

// required returns a string flag's value or fails naming it.
func required(cmd *cobra.Command, name, hint string) (string, error) {
	v := str(cmd, name)
	if v == nil {
		return "", die(hint, "Missing required flag: --%s", name)
	}
	return *v, nil
}

// idArg returns the id from the first argument or --id.
func idArg(cmd *cobra.Command, args []string, what, hint string) (string, error) {
	if len(args) > 0 && args[0] != "" {
		return args[0], nil
	}
	if cmd.Flags().Lookup("id") != nil {
		if v := str(cmd, "id"); v != nil {
			return *v, nil
		}
	}
	return "", die(hint, "Missing %s ID", what)
}

// withIDs adds the positional node ids as nodeIds.
func withIDs(in map[string]any, ids []string) map[string]any {
	if len(ids) > 0 {
		in["nodeIds"] = ids
	}
	return in
}

// decision validates --decision approved|rejected.
func decision(cmd *cobra.Command, hint string, requiredFlag bool) (*string, error) {
	v := str(cmd, "decision")
	if v == nil {
		if requiredFlag {
			return nil, die(hint, "Missing required flag: --decision")
		}
		return nil, nil
	}
	if *v != "approved" && *v != "rejected" {
		return nil, die(hint, "Invalid value for --decision: %s", *v)
	}
	return v, nil
}

func newAxStatusCommand(s *ioStreams) *cobra.Command {
	return axRead(s, "status", "Show the AX state: focus, work items, gates, reviews, policy",
		examples("pmx-canvas ax status"), "ax.get")
}

func newAxContextCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("context", "Show the agent context: pending steering, pins, focus, work, gates, timeline",
		examples("pmx-canvas ax context", "pmx-canvas ax context --consumer codex"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{}
			setStr(in, "consumer", cmd, "consumer")
			return runOp(cmd, s, "ax.context.get", in)
		})
	cmd.Flags().String("consumer", "", "only steering this consumer has not sent")
	return cmd
}

func newAxFocusCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("focus [node-ids...]", "Set the AX focus to nodes, or clear it",
		examples("pmx-canvas ax focus node-a node-b", "pmx-canvas ax focus --clear"),
		func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && !flagBool(cmd, "clear") {
				return die("pmx-canvas ax focus <node-id...> (or --clear)", "Missing node IDs")
			}
			ids := args
			if flagBool(cmd, "clear") || ids == nil {
				ids = []string{}
			}
			return runOp(cmd, s, "ax.focus.set", map[string]any{"nodeIds": ids, "source": axSource})
		})
	cmd.Flags().Bool("clear", false, "clear the focus")
	return cmd
}

func newAxEventCommand(s *ioStreams) *cobra.Command {
	add := leaf("add [node-ids...]", "Record a timeline event",
		examples(`pmx-canvas ax event add --kind note --summary "Started the auth refactor" node-abc123`),
		func(cmd *cobra.Command, args []string) error {
			hint := `pmx-canvas ax event add --kind note --summary "What happened" [--detail "..."] [node-ids...]`
			kind, err := required(cmd, "kind", hint)
			if err != nil {
				return err
			}
			summary, err := required(cmd, "summary", hint)
			if err != nil {
				return err
			}
			in := map[string]any{"kind": kind, "summary": summary, "source": axSource}
			setStr(in, "detail", cmd, "detail")
			return runOp(cmd, s, "ax.event.record", withIDs(in, args))
		})
	add.Flags().String("kind", "", "prompt, assistant-message, tool-start, tool-result, failure, approval, steering, command or note (required)")
	add.Flags().String("summary", "", "one line (required)")
	add.Flags().String("detail", "", "more text")
	return newGroup("event", "Timeline events", examples(`pmx-canvas ax event add --kind note --summary "Started"`), add)
}

func newAxSteerCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("steer <message...>", "Send a steering message to the agent",
		examples(`pmx-canvas ax steer "focus on the tests first"`, `pmx-canvas ax steer --message "stop and summarise"`),
		func(cmd *cobra.Command, args []string) error {
			msg := strings.Join(args, " ")
			if msg == "" {
				if v := str(cmd, "message"); v != nil {
					msg = *v
				}
			}
			if strings.TrimSpace(msg) == "" {
				return die(`pmx-canvas ax steer "message"`, "Missing steering message")
			}
			return runOp(cmd, s, "ax.steer", map[string]any{"message": msg, "source": axSource})
		})
	cmd.Flags().String("message", "", "the message (instead of the arguments)")
	return cmd
}

func newAxInteractionCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("interaction", "Submit a node-originated interaction",
		examples(`pmx-canvas ax interaction --type ax.steer --node node-abc123 --payload '{"message":"ship it"}'`),
		func(cmd *cobra.Command, _ []string) error {
			hint := `pmx-canvas ax interaction --type ax.event.record --node <node-id> --payload '{"kind":"note","summary":"..."}'`
			typ, err := required(cmd, "type", hint)
			if err != nil {
				return err
			}
			node, err := required(cmd, "node", hint)
			if err != nil {
				return err
			}
			in := map[string]any{"type": typ, "sourceNodeId": node, "source": axSource}
			payload, err := jsonFlag(cmd, "payload", "--payload JSON", hint)
			if err != nil {
				return err
			}
			if payload != nil {
				in["payload"] = payload
			}
			return runOp(cmd, s, "ax.interaction", in)
		})
	cmd.Flags().String("type", "", "interaction type, e.g. ax.steer, ax.work.create (required)")
	cmd.Flags().String("node", "", "the source node id (required)")
	cmd.Flags().String("payload", "", "the payload as JSON")
	return cmd
}

func newAxDeliveryCommand(s *ioStreams) *cobra.Command {
	list := leaf("list", "Claim undelivered steering for a consumer, plus pending activity",
		examples("pmx-canvas ax delivery list --consumer codex --limit 5"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{}
			setStr(in, "consumer", cmd, "consumer")
			setNum(in, "limit", cmd, "limit")
			return runOp(cmd, s, "ax.delivery.pending", in)
		})
	list.Flags().String("consumer", "", "the consumer (its own messages are left out)")
	addCount(list, "limit", "at most this many messages", "Use a positive integer, e.g. --limit 10")
	mark := leaf("mark <steering-id>", "Mark a steering message delivered",
		examples("pmx-canvas ax delivery mark steer-abc123"),
		func(cmd *cobra.Command, args []string) error {
			id, err := idArg(cmd, args, "steering", "pmx-canvas ax delivery mark <steering-id>")
			if err != nil {
				return err
			}
			in := map[string]any{"id": id}
			setStr(in, "consumer", cmd, "consumer")
			return runOp(cmd, s, "ax.delivery.mark", in)
		})
	mark.Flags().String("id", "", "the steering id (instead of the argument)")
	mark.Flags().String("consumer", "", "the consumer holding the lease")
	return newGroup("delivery", "Steering delivery", examples("pmx-canvas ax delivery list --consumer codex"), list, mark)
}

func newAxElicitationCommand(s *ioStreams) *cobra.Command {
	request := leaf("request [node-ids...]", "Ask the human for input",
		examples(`pmx-canvas ax elicitation request --prompt "Which database?" --fields engine,version`),
		func(cmd *cobra.Command, args []string) error {
			prompt, err := required(cmd, "prompt", `pmx-canvas ax elicitation request --prompt "Which database?" [--fields a,b]`)
			if err != nil {
				return err
			}
			in := map[string]any{"prompt": prompt, "source": axSource}
			if v := str(cmd, "fields"); v != nil {
				in["fields"] = csv(*v)
			}
			return runOp(cmd, s, "ax.elicitation.request", withIDs(in, args))
		})
	request.Flags().String("prompt", "", "the question (required)")
	request.Flags().String("fields", "", "field names, comma-separated")
	respond := leaf("respond <elicitation-id>", "Answer a pending elicitation",
		examples(`pmx-canvas ax elicitation respond elic-abc123 --response '{"engine":"postgres"}'`),
		func(cmd *cobra.Command, args []string) error {
			hint := `pmx-canvas ax elicitation respond <id> --response '{"field":"value"}'`
			id, err := idArg(cmd, args, "elicitation", hint)
			if err != nil {
				return err
			}
			resp, err := jsonFlag(cmd, "response", "--response JSON", hint)
			if err != nil {
				return err
			}
			if resp == nil {
				resp = map[string]any{}
			}
			return runOp(cmd, s, "ax.elicitation.respond", map[string]any{"id": id, "response": resp, "source": axSource})
		})
	respond.Flags().String("response", "", "the answer as a JSON object (default {})")
	list := axRead(s, "list", "List elicitations", examples("pmx-canvas ax elicitation list"), "ax.elicitation.list")
	return newGroup("elicitation", "Questions for the human", examples(`pmx-canvas ax elicitation request --prompt "Which database?"`), request, respond, list)
}

func newAxModeCommand(s *ioStreams) *cobra.Command {
	request := leaf("request [node-ids...]", "Ask the human to switch the agent's mode",
		examples(`pmx-canvas ax mode request --mode execute --reason "plan approved"`),
		func(cmd *cobra.Command, args []string) error {
			mode, err := required(cmd, "mode", "pmx-canvas ax mode request --mode plan|execute|autonomous [--reason ...]")
			if err != nil {
				return err
			}
			in := map[string]any{"mode": mode, "source": axSource}
			setStr(in, "reason", cmd, "reason")
			return runOp(cmd, s, "ax.mode.request", withIDs(in, args))
		})
	request.Flags().String("mode", "", "plan, execute or autonomous (required)")
	completeValues(request, "mode", "plan", "execute", "autonomous")
	request.Flags().String("reason", "", "why")
	resolve := leaf("resolve <mode-request-id>", "Approve or reject a pending mode request",
		examples("pmx-canvas ax mode resolve mode-abc123 --decision approved"),
		func(cmd *cobra.Command, args []string) error {
			hint := "pmx-canvas ax mode resolve <id> --decision approved|rejected [--resolution ...]"
			id, err := idArg(cmd, args, "mode request", hint)
			if err != nil {
				return err
			}
			d, err := decision(cmd, hint, false)
			if err != nil {
				return err
			}
			in := map[string]any{"id": id, "source": axSource}
			if d != nil {
				in["decision"] = *d
			}
			setStr(in, "resolution", cmd, "resolution")
			return runOp(cmd, s, "ax.mode.resolve", in)
		})
	resolve.Flags().String("decision", "", "approved or rejected")
	completeValues(resolve, "decision", "approved", "rejected")
	resolve.Flags().String("resolution", "", "a note")
	list := axRead(s, "list", "List mode requests", examples("pmx-canvas ax mode list"), "ax.mode.list")
	return newGroup("mode", "Mode requests (plan, execute, autonomous)", examples("pmx-canvas ax mode request --mode execute"), request, resolve, list)
}

func newAxCommandCommand(s *ioStreams) *cobra.Command {
	list := axRead(s, "list", "List the command allowlist", examples("pmx-canvas ax command list"), "ax.command.list")
	invokeCmd := leaf("invoke <name>", "Invoke an allowlisted command",
		examples(`pmx-canvas ax command invoke review --args '{"scope":"diff"}'`),
		func(cmd *cobra.Command, args []string) error {
			hint := `pmx-canvas ax command invoke <name> [--args '{"key":"value"}']`
			name := ""
			if len(args) > 0 {
				name = args[0]
			} else if v := str(cmd, "name"); v != nil {
				name = *v
			}
			if name == "" {
				return die(hint, "Missing command name")
			}
			in := map[string]any{"name": name, "source": axSource}
			a, err := jsonFlag(cmd, "args", "--args JSON", hint)
			if err != nil {
				return err
			}
			if a != nil {
				in["args"] = a
			}
			return runOp(cmd, s, "ax.command.invoke", in)
		})
	invokeCmd.Flags().String("name", "", "the command (instead of the argument)")
	invokeCmd.Flags().String("args", "", "arguments as JSON")
	return newGroup("command", "Allowlisted commands", examples("pmx-canvas ax command list"), list, invokeCmd)
}

func newAxPolicyCommand(s *ioStreams) *cobra.Command {
	get := axRead(s, "get", "Read the AX tool policy", examples("pmx-canvas ax policy get"), "ax.policy.get")
	set := leaf("set", "Change the AX tool policy (merged per key)",
		examples("pmx-canvas ax policy set --excluded-tools deploy --approval-tools migrate,release",
			`pmx-canvas ax policy set --mode plan --system-append "Ask before editing"`),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{"source": axSource}
			tools := map[string]any{}
			for _, t := range [][2]string{{"allowed-tools", "allowed"}, {"excluded-tools", "excluded"}, {"approval-tools", "approvalRequired"}} {
				if v := str(cmd, t[0]); v != nil {
					list := csv(*v)
					if list == nil {
						list = []string{}
					}
					tools[t[1]] = list
				}
			}
			if len(tools) > 0 {
				in["tools"] = tools
			}
			prompt := map[string]any{}
			setStr(prompt, "mode", cmd, "mode")
			setStr(prompt, "systemAppend", cmd, "system-append")
			if len(prompt) > 0 {
				in["prompt"] = prompt
			}
			return runOp(cmd, s, "ax.policy.set", in)
		})
	f := set.Flags()
	f.String("allowed-tools", "", "allowed commands/interaction types, comma-separated")
	f.String("excluded-tools", "", "excluded ones, comma-separated")
	f.String("approval-tools", "", "ones that need an approval, comma-separated")
	f.String("mode", "", "prompt mode")
	f.String("system-append", "", "text appended to the agent's system prompt")
	return newGroup("policy", "The AX tool policy", examples("pmx-canvas ax policy get"), get, set)
}

func newAxTimelineCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("timeline", "Read the timeline: events, evidence and steering, newest first",
		examples("pmx-canvas ax timeline", "pmx-canvas ax timeline --limit 10"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{}
			setNum(in, "limit", cmd, "limit")
			return runOp(cmd, s, "ax.timeline.get", in)
		})
	addCount(cmd, "limit", "rows per list (default 50, at most 200)", "Use a positive integer, e.g. --limit 50")
	return cmd
}

func newAxWorkCommand(s *ioStreams) *cobra.Command {
	add := leaf("add [node-ids...]", "Create a work item",
		examples(`pmx-canvas ax work add --title "Wire up auth" --status in-progress node-abc123`),
		func(cmd *cobra.Command, args []string) error {
			title, err := required(cmd, "title", `pmx-canvas ax work add --title "Wire up auth" [--status todo] [node-ids...]`)
			if err != nil {
				return err
			}
			in := map[string]any{"title": title, "source": axSource}
			setStr(in, "status", cmd, "status")
			setStr(in, "detail", cmd, "detail")
			return runOp(cmd, s, "ax.work.create", withIDs(in, args))
		})
	addWorkFlags(add)
	update := leaf("update <work-id> [node-ids...]", "Update a work item",
		examples("pmx-canvas ax work update work-abc123 --status done"),
		func(cmd *cobra.Command, args []string) error {
			id, err := idArg(cmd, args, "work item", "pmx-canvas ax work update <work-id> --status done")
			if err != nil {
				return err
			}
			in := map[string]any{"id": id, "source": axSource}
			setStr(in, "title", cmd, "title")
			setStr(in, "status", cmd, "status")
			setStr(in, "detail", cmd, "detail")
			if len(args) > 1 {
				in["nodeIds"] = args[1:]
			}
			return runOp(cmd, s, "ax.work.update", in)
		})
	addWorkFlags(update)
	list := axRead(s, "list", "List work items", examples("pmx-canvas ax work list"), "ax.work.list")
	return newGroup("work", "Work items", examples(`pmx-canvas ax work add --title "Wire up auth"`), add, update, list)
}

func addWorkFlags(cmd *cobra.Command) {
	cmd.Flags().String("title", "", "title")
	cmd.Flags().String("status", "", "todo, in-progress, blocked, done or cancelled")
	cmd.Flags().String("detail", "", "detail")
	completeValues(cmd, "status", "todo", "in-progress", "blocked", "done", "cancelled")
}

func newAxApprovalCommand(s *ioStreams) *cobra.Command {
	request := leaf("request [node-ids...]", "Open an approval gate",
		examples(`pmx-canvas ax approval request --title "Deploy to prod?" --action deploy`),
		func(cmd *cobra.Command, args []string) error {
			title, err := required(cmd, "title", `pmx-canvas ax approval request --title "Deploy?" [--detail ...] [--action ...] [node-ids...]`)
			if err != nil {
				return err
			}
			in := map[string]any{"title": title, "source": axSource}
			setStr(in, "detail", cmd, "detail")
			setStr(in, "action", cmd, "action")
			return runOp(cmd, s, "ax.approval.request", withIDs(in, args))
		})
	request.Flags().String("title", "", "what needs approving (required)")
	request.Flags().String("detail", "", "detail")
	request.Flags().String("action", "", "the action it gates")
	resolve := leaf("resolve <approval-id>", "Approve or reject a pending approval gate",
		examples(`pmx-canvas ax approval resolve appr-abc123 --decision approved --resolution "go ahead"`),
		func(cmd *cobra.Command, args []string) error {
			hint := "pmx-canvas ax approval resolve <id> --decision approved|rejected [--resolution ...]"
			id, err := idArg(cmd, args, "approval", hint)
			if err != nil {
				return err
			}
			d, err := decision(cmd, hint, true)
			if err != nil {
				return err
			}
			in := map[string]any{"id": id, "decision": *d, "source": axSource}
			setStr(in, "resolution", cmd, "resolution")
			return runOp(cmd, s, "ax.approval.resolve", in)
		})
	resolve.Flags().String("decision", "", "approved or rejected (required)")
	completeValues(resolve, "decision", "approved", "rejected")
	resolve.Flags().String("resolution", "", "a note")
	list := axRead(s, "list", "List approval gates", examples("pmx-canvas ax approval list"), "ax.approval.list")
	return newGroup("approval", "Approval gates", examples(`pmx-canvas ax approval request --title "Deploy?"`), request, resolve, list)
}

func newAxEvidenceCommand(s *ioStreams) *cobra.Command {
	add := leaf("add [node-ids...]", "Add an evidence item",
		examples(`pmx-canvas ax evidence add --kind test-output --title "Unit tests" --body "42 passed"`),
		func(cmd *cobra.Command, args []string) error {
			hint := `pmx-canvas ax evidence add --kind logs --title "Build log" [--body ...] [--ref ...] [node-ids...]`
			kind, err := required(cmd, "kind", hint)
			if err != nil {
				return err
			}
			title, err := required(cmd, "title", hint)
			if err != nil {
				return err
			}
			in := map[string]any{"kind": kind, "title": title, "source": axSource}
			setStr(in, "body", cmd, "body")
			setStr(in, "ref", cmd, "ref")
			return runOp(cmd, s, "ax.evidence.add", withIDs(in, args))
		})
	add.Flags().String("kind", "", "logs, tool-result, screenshot, file, diff or test-output (required)")
	add.Flags().String("title", "", "title (required)")
	add.Flags().String("body", "", "the evidence text")
	add.Flags().String("ref", "", "a reference (path, URL, ...)")
	return newGroup("evidence", "Evidence items", examples(`pmx-canvas ax evidence add --kind logs --title "Build log"`), add)
}

func newAxReviewCommand(s *ioStreams) *cobra.Command {
	add := leaf("add", "Add a review annotation",
		examples(`pmx-canvas ax review add --body "Missing error handling" --severity high --node node-abc123`,
			`pmx-canvas ax review add --body "Typo" --anchor file --file src/app.ts`),
		func(cmd *cobra.Command, _ []string) error {
			body, err := required(cmd, "body", `pmx-canvas ax review add --body "..." [--node <id> | --file <path>]`)
			if err != nil {
				return err
			}
			in := map[string]any{"body": body, "source": axSource}
			setStr(in, "kind", cmd, "kind")
			setStr(in, "severity", cmd, "severity")
			setStr(in, "anchorType", cmd, "anchor")
			setStr(in, "nodeId", cmd, "node")
			setStr(in, "file", cmd, "file")
			setStr(in, "author", cmd, "author")
			return runOp(cmd, s, "ax.review.add", in)
		})
	f := add.Flags()
	f.String("body", "", "the finding (required)")
	f.String("kind", "", "kind of finding")
	f.String("severity", "", "severity")
	f.String("anchor", "", "anchor type: node, file or region")
	f.String("node", "", "the node it is about")
	f.String("file", "", "the file it is about")
	f.String("author", "", "author")
	list := axRead(s, "list", "List review annotations", examples("pmx-canvas ax review list"), "ax.review.list")
	return newGroup("review", "Review annotations", examples(`pmx-canvas ax review add --body "..." --node node-abc123`), add, list)
}

// hostFlags are ax host report's capability flags: flag → input key.
var hostFlags = [][2]string{
	{"canvas", "canvas"}, {"hooks", "hooks"}, {"tools", "tools"}, {"session-messaging", "sessionMessaging"},
	{"permissions", "permissions"}, {"files", "files"}, {"ui-prompts", "uiPrompts"},
}

func newAxHostCommand(s *ioStreams) *cobra.Command {
	report := leaf("report", "Report what the agent host can do",
		examples("pmx-canvas ax host report --host codex --canvas --tools --files"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{"source": axSource}
			setStr(in, "host", cmd, "host")
			for _, h := range hostFlags {
				in[h[1]] = flagBool(cmd, h[0]) // all seven are always sent
			}
			return runOp(cmd, s, "ax.host-capability.report", in)
		})
	report.Long = `Report the agent host's capabilities. All seven capability flags are sent
(absent means false). Note: --canvas here is the "host can show the canvas"
capability; to address another canvas use PMX_CANVAS_ID.`
	f := report.Flags()
	f.String("host", "", "host name, e.g. codex, copilot")
	f.Bool("canvas", false, "the host can show the canvas")
	f.Bool("hooks", false, "the host runs hooks")
	f.Bool("tools", false, "the host calls tools")
	f.Bool("session-messaging", false, "the host can message the session")
	f.Bool("permissions", false, "the host asks for permissions")
	f.Bool("files", false, "the host edits files")
	f.Bool("ui-prompts", false, "the host shows UI prompts")
	status := axRead(s, "status", "Read the latest host capability report", examples("pmx-canvas ax host status"), "ax.host-capability.get")
	return newGroup("host", "Agent host capability", examples("pmx-canvas ax host report --host codex --tools"), report, status)
}
