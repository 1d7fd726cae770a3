package messages

import "time"

// AxWaitMax caps one gate await or delivery wait (the reference's
// AX_WAIT_MAX_MS).
const AxWaitMax = 120 * time.Second

// axOps are the AX operations: the reference's 24 registry operations, its
// 13 other AX routes, and our additions (stats, surface tokens).
var axOps = []*Op{
	// State.
	{
		Name: "ax.get", Owner: OwnerAxState, Kind: Read, Documented: true,
		Summary:  "Read the canvas-bound AX state, the host capability and (unless includeContext=false) the agent context.",
		NewInput: input[AxGetInput](),
		Output:   output[AxGetResult](),
		CLI:      &CLIBinding{Path: "ax status"},
		HTTP:     []Route{{"GET", "/api/canvas/ax"}},
		MCP: []MCPBinding{{Tool: "canvas_get_ax", Composite: "canvas_ax_state", Action: "get",
			Description: "Read the AX state (focus, work items, gates, reviews, elicitations, mode requests, policy), the host capability report and, unless includeContext is false, the agent context with its delivery block for the mcp consumer."}},
	},
	{
		Name: "ax.patch", Owner: OwnerAxState, Kind: Write,
		Summary:  "Legacy alias of focus set: {focus:{nodeIds, source}}.",
		NewInput: input[AxPatchInput](),
		Output:   output[AxStateResult](),
		HTTP:     []Route{{"PATCH", "/api/canvas/ax"}},
	},
	{
		Name: "ax.context.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the agent context: delivery block, pinned and focused nodes, work, gates, policy, timeline, host.",
		NewInput: input[AxContextInput](),
		Output:   output[AgentContext](),
		CLI:      &CLIBinding{Path: "ax context"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/context"}},
	},
	{
		Name: "ax.surface-snapshot.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the board-wide AX state for sandboxed surfaces (review bodies and authors redacted).",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "ax surface-snapshot"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/surface-snapshot"}},
	},
	{
		Name: "ax.focus.set", Owner: OwnerAxState, Kind: Write,
		Summary:  "Replace the AX focus with live node ids.",
		NewInput: input[AxFocusInput](),
		Output:   output[FocusSet](),
		CLI:      &CLIBinding{Path: "ax focus", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/focus"}},
		MCP: []MCPBinding{{Tool: "canvas_set_ax_focus", Composite: "canvas_ax_state", Action: "set-focus",
			Description: "Replace the AX focus with the given node ids (ids that are not on the canvas are dropped; the first one kept is primary). Does not move the viewport."}},
	},
	{
		Name: "ax.policy.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the AX tool policy.",
		NewInput: input[EmptyInput](),
		Output:   output[PolicyResult](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/policy"}},
	},
	{
		Name: "ax.policy.set", Owner: OwnerAxState, Kind: Write,
		Summary:  "Merge a patch into the AX tool policy (tools and prompt, per key).",
		NewInput: input[AxPolicyInput](),
		Output:   output[PolicyResult](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/policy"}},
		MCP: []MCPBinding{{Tool: "canvas_set_ax_policy", Composite: "canvas_ax_state", Action: "set-policy",
			Description: "Merge a patch into the AX policy: tool lists (allowed, excluded, approvalRequired) and prompt settings (systemAppend, mode). Omitted keys are kept. The server enforces the tool lists for commands and interactions."}},
	},
	{
		Name: "ax.host-capability.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the latest host capability report (null if none).",
		NewInput: input[EmptyInput](),
		Output:   output[HostResult](),
		CLI:      &CLIBinding{Path: "ax host status"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/host-capability"}},
	},
	{
		Name: "ax.host-capability.report", Owner: OwnerAxState, Kind: Write,
		Summary:  "Report what the agent host can do.",
		NewInput: input[AxHostInput](),
		Output:   output[HostResult](),
		CLI:      &CLIBinding{Path: "ax host report"},
		HTTP:     []Route{{"PUT", "/api/canvas/ax/host-capability"}},
		MCP: []MCPBinding{{Tool: "canvas_report_host_capability", Composite: "canvas_ax_state", Action: "report-capability",
			Description: "Report what the agent host supports (canvas, hooks, tools, session messaging, permissions, files, UI prompts) so the canvas can show it and diagnose integrations."}},
	},
	// Work and review.
	{
		Name: "ax.work.list", Owner: OwnerAxState, Kind: Read,
		Summary:  "List work items.",
		NewInput: input[EmptyInput](),
		Output:   output[WorkItems](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/work"}},
	},
	{
		Name: "ax.work.create", Owner: OwnerAxState, Kind: Write,
		Summary:  "Create a work item.",
		NewInput: input[AxWorkCreateInput](),
		Output:   output[WorkItemResult](),
		CLI:      &CLIBinding{Path: "ax work add", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/work"}},
		MCP: []MCPBinding{{Tool: "canvas_add_work_item", Composite: "canvas_ax_work", Action: "add",
			Description: "Create an AX work item (a task the agent is doing or plans to do), optionally tied to nodes."}},
	},
	{
		Name: "ax.work.update", Owner: OwnerAxState, Kind: Write,
		Summary:  "Update a work item's title, status, detail or node ids.",
		NewInput: input[AxWorkUpdateInput](),
		Output:   output[WorkItemResult](),
		CLI:      &CLIBinding{Args: []string{"id", "nodeIds..."}},
		HTTP:     []Route{{"PATCH", "/api/canvas/ax/work/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_update_work_item", Composite: "canvas_ax_work", Action: "update",
			Description: "Change an AX work item's title, status, detail or node ids. An unknown id is an error."}},
	},
	{
		Name: "ax.review.list", Owner: OwnerAxState, Kind: Read,
		Summary:  "List review annotations.",
		NewInput: input[EmptyInput](),
		Output:   output[Reviews](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/review"}},
	},
	{
		Name: "ax.review.add", Owner: OwnerAxState, Kind: Write,
		Summary:  "Add a review annotation anchored to a node, a file or a region.",
		NewInput: input[AxReviewAddInput](),
		Output:   output[ReviewResult](),
		CLI:      &CLIBinding{Flags: map[string]string{"anchorType": "anchor", "nodeId": "node"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/review"}},
		MCP: []MCPBinding{{Tool: "canvas_add_review_annotation", Composite: "canvas_ax_work", Action: "annotate",
			Description: "Add a review comment or finding anchored to a node, a file or a region of a file."}},
	},
	{
		Name: "ax.review.update", Owner: OwnerAxState, Kind: Write,
		Summary:  "Update a review annotation's body, status, severity or kind.",
		NewInput: input[AxReviewUpdateInput](),
		Output:   output[ReviewResult](),
		HTTP:     []Route{{"PATCH", "/api/canvas/ax/review/:id"}},
	},
	// Gates.
	{
		Name: "ax.approval.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List approval gates.",
		NewInput: input[EmptyInput](),
		Output:   output[ApprovalGates](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/approval"}},
	},
	{
		Name: "ax.approval.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Open an approval gate.",
		NewInput: input[AxApprovalRequestInput](),
		Output:   output[ApprovalResult](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/approval"}},
		MCP: []MCPBinding{{Tool: "canvas_request_approval", Composite: "canvas_ax_gate", Action: "request", Kind: "approval", Rename: map[string]string{"approvalAction": "action"},
			Description: "Open a pending approval gate for the human to approve or reject. Wait for the decision with canvas_await_approval."}},
	},
	{
		Name: "ax.approval.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read an approval gate, waiting up to waitMs (or timeoutMs) for it to be resolved.",
		NewInput: input[AxAwaitInput](),
		Output:   output[ApprovalResult](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/approval/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_await_approval", Composite: "canvas_ax_gate", Action: "await", Kind: "approval",
			Description: "Wait until an approval gate is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false."}},
	},
	{
		Name: "ax.approval.resolve", Owner: OwnerGates, Kind: Write,
		Summary:  "Approve or reject a pending approval gate.",
		NewInput: input[AxResolveInput](),
		Output:   output[ApprovalResult](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/approval/:id/resolve"}},
		MCP: []MCPBinding{{Tool: "canvas_resolve_approval", Composite: "canvas_ax_gate", Action: "resolve", Kind: "approval",
			Description: "Approve or reject a pending approval gate. An unknown or already decided gate is an error."}},
	},
	{
		Name: "ax.elicitation.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List elicitations.",
		NewInput: input[EmptyInput](),
		Output:   output[Elicitations](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/elicitation"}},
	},
	{
		Name: "ax.elicitation.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Ask the human for input.",
		NewInput: input[AxElicitationRequestInput](),
		Output:   output[ElicitationResult](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/elicitation"}},
		MCP: []MCPBinding{{Tool: "canvas_request_elicitation", Composite: "canvas_ax_gate", Action: "request", Kind: "elicitation",
			Description: "Ask the human a question (optionally a simple form of named fields). Wait for the answer with canvas_await_elicitation."}},
	},
	{
		Name: "ax.elicitation.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read an elicitation, waiting up to waitMs (or timeoutMs) for the answer.",
		NewInput: input[AxAwaitInput](),
		Output:   output[ElicitationResult](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/elicitation/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_await_elicitation", Composite: "canvas_ax_gate", Action: "await", Kind: "elicitation",
			Description: "Wait until an elicitation is answered or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false."}},
	},
	{
		Name: "ax.elicitation.respond", Owner: OwnerGates, Kind: Write,
		Summary:  "Answer a pending elicitation.",
		NewInput: input[AxElicitationRespondInput](),
		Output:   output[ElicitationResult](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/elicitation/:id/respond"}},
		MCP: []MCPBinding{{Tool: "canvas_respond_elicitation", Composite: "canvas_ax_gate", Action: "resolve", Kind: "elicitation",
			Description: "Answer a pending elicitation. An unknown or already answered elicitation is an error."}},
	},
	{
		Name: "ax.mode.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List mode requests.",
		NewInput: input[EmptyInput](),
		Output:   output[ModeRequests](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/mode"}},
	},
	{
		Name: "ax.mode.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Ask the human to switch the agent's mode (plan, execute, autonomous).",
		NewInput: input[AxModeRequestInput](),
		Output:   output[ModeRequestResult](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/mode"}},
		MCP: []MCPBinding{{Tool: "canvas_request_mode", Composite: "canvas_ax_gate", Action: "request", Kind: "mode",
			Description: "Ask the human to switch the agent's workflow mode (plan, execute or autonomous). Wait for the decision with canvas_await_mode."}},
	},
	{
		Name: "ax.mode.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read a mode request, waiting up to waitMs (or timeoutMs) for it to be resolved.",
		NewInput: input[AxAwaitInput](),
		Output:   output[ModeRequestResult](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/mode/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_await_mode", Composite: "canvas_ax_gate", Action: "await", Kind: "mode",
			Description: "Wait until a mode request is decided or the timeout passes, then return it with pending telling whether it is still open. An unknown id returns ok:false."}},
	},
	{
		Name: "ax.mode.resolve", Owner: OwnerGates, Kind: Write,
		Summary:  "Approve or reject a pending mode request.",
		NewInput: input[AxResolveInput](),
		Output:   output[ModeRequestResult](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/mode/:id/resolve"}},
		MCP: []MCPBinding{{Tool: "canvas_resolve_mode", Composite: "canvas_ax_gate", Action: "resolve", Kind: "mode",
			Description: "Approve or reject a pending mode request. An unknown or already decided request is an error."}},
	},
	// Timeline, delivery, commands.
	{
		Name: "ax.event.record", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Record a timeline event.",
		NewInput: input[AxEventInput](),
		Output:   output[EventResult](),
		CLI:      &CLIBinding{Path: "ax event add", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/event"}},
		MCP: []MCPBinding{{Tool: "canvas_record_ax_event", Composite: "canvas_ax_timeline", Action: "record-event",
			Description: "Append an agent event (prompt, message, tool start or result, failure, approval, steering) to the AX timeline."}},
	},
	{
		Name: "ax.evidence.add", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Add an evidence item (logs, test output, diff, ...).",
		NewInput: input[AxEvidenceInput](),
		Output:   output[EvidenceResult](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/evidence"}},
		MCP: []MCPBinding{{Tool: "canvas_add_evidence", Composite: "canvas_ax_timeline", Action: "add-evidence",
			Description: "Append an evidence item (logs, tool result, screenshot, file, diff, test output) to the AX timeline."}},
	},
	{
		Name: "ax.steer", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Send a steering message to the agent.",
		NewInput: input[AxSteerInput](),
		Output:   output[SteeringResult](),
		CLI:      &CLIBinding{Args: []string{"message..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/steer"}},
		MCP: []MCPBinding{{Tool: "canvas_send_steering", Composite: "canvas_ax_timeline", Action: "send-steering",
			Description: "Queue a steering message for the agent; it stays pending until a consumer marks it delivered."}},
	},
	{
		Name: "ax.timeline.get", Owner: OwnerTimeline, Kind: Read,
		Summary:  "Read the timeline: events, evidence, steering (newest first) and a summary.",
		NewInput: input[AxTimelineInput](),
		Output:   output[Timeline](),
		CLI:      &CLIBinding{Path: "ax timeline"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/timeline"}},
		MCP: []MCPBinding{{Tool: "canvas_get_ax_timeline", Composite: "canvas_ax_timeline", Action: "read",
			Description: "Read the AX timeline, newest first: events, evidence, steering messages and a summary with counts."}},
	},
	{
		Name: "ax.delivery.pending", Owner: OwnerTimeline, Kind: Read, Parks: true,
		Summary:  "Claim undelivered steering for a consumer (optionally waiting, optionally leasing) plus pending activity.",
		NewInput: input[AxDeliveryPendingInput](),
		Output:   output[Delivery](),
		CLI:      &CLIBinding{Path: "ax delivery list"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/delivery/pending"}},
		MCP: []MCPBinding{{Tool: "canvas_claim_ax_delivery", Composite: "canvas_ax_delivery", Action: "claim",
			Description: "Fetch undelivered steering (oldest first) and open AX items for a consumer; rows created by that consumer are left out. Optionally wait until something is pending (waitMs) and lease the returned rows to the consumer (leaseMs) so other consumers do not get them until marked or the lease ends."}},
	},
	{
		Name: "ax.delivery.mark", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Mark a steering message delivered (compare-and-set on its lease).",
		NewInput: input[AxDeliveryMarkInput](),
		Output:   output[DeliveryMarked](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/delivery/:id/mark"}},
		MCP: []MCPBinding{{Tool: "canvas_mark_ax_delivery", Composite: "canvas_ax_delivery", Action: "mark",
			Description: "Mark a steering message delivered. An unknown id is an error; a row leased to another consumer is refused."}},
	},
	{
		Name: "ax.command.list", Owner: OwnerTimeline, Kind: Read,
		Summary:  "List the command allowlist.",
		NewInput: input[EmptyInput](),
		Output:   output[Commands](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/command"}},
	},
	{
		Name: "ax.command.invoke", Owner: OwnerRouter, Kind: Write,
		Summary:  "Invoke an allowlisted command (recorded as a command event; subject to the tool policy).",
		NewInput: input[AxCommandInput](),
		Output:   output[EventResult](),
		CLI:      &CLIBinding{Args: []string{"name"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/command"}},
		MCP: []MCPBinding{{Tool: "canvas_invoke_command",
			Description: "Invoke a PMX command (pmx.plan, pmx.execute, pmx.promote-context, pmx.summarize, pmx.review); it is recorded as a command event on the timeline. The canvas's tool policy may refuse it or ask for approval first."}},
	},
	// Composites.
	{
		Name: "ax.activity", Owner: OwnerRouter, Kind: Write,
		Summary:  "Ingest agent activity: records an event and reacts (work item, evidence, review) by kind and outcome.",
		NewInput: input[AxActivityInput](),
		Output:   output[ActivityResult](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/activity"}},
		MCP: []MCPBinding{{Tool: "canvas_ingest_activity",
			Description: "Record agent or harness activity on the timeline and let the canvas react: a failure opens a blocked work item, logs evidence and files an error finding; a successful tool result adds evidence. reactions switches each reaction off (false) or forces and tunes it (object)."}},
	},
	{
		Name: "ax.interaction", Owner: OwnerRouter, Kind: Write,
		Summary:  "Submit an interaction from a node's surface (checked against the node's AX capabilities) or from the workbench (the human's answers), and the tool policy.",
		NewInput: input[AxInteractionInput](),
		Output:   output[InteractionResult](),
		CLI:      &CLIBinding{Flags: map[string]string{"sourceNodeId": "node"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/interaction"}},
		MCP: []MCPBinding{{Tool: "canvas_ax_interaction",
			Description: "Submit an AX interaction on behalf of a canvas node (record an event, steer, create or update a work item, add evidence, request approval, review, focus, invoke a command, ask, request a mode). The node must allow the type; sandboxed surfaces are limited to their own node and must present the node's surface token. A refusal is returned as {ok:false,status,code,error}, not as an error."}},
	},
	// Additions.
	{
		Name: "ax.surface-token", Owner: OwnerAxState, Kind: Read,
		Summary:  "Issue the token that binds a sandboxed surface to its node, or (surface=workbench) the workbench's token (required on their interactions).",
		NewInput: input[AxSurfaceTokenInput](),
		Output:   output[SurfaceToken](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/surface-token"}},
	},
	{
		Name: "ax.stats", Owner: OwnerGates, Kind: Read,
		Summary:  "Runtime counters: parked gate waiters, delivery waiters, active leases.",
		NewInput: input[EmptyInput](),
		Output:   output[AxStats](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/stats"}},
	},
}

// AxSurfaceTokenInput is the input of ax.surface-token: a node's token,
// or with surface=workbench the canvas's workbench token.
type AxSurfaceTokenInput struct {
	NodeID  string `json:"nodeId" doc:"The node whose surface token to issue."`
	Surface string `json:"surface" doc:"workbench: issue the canvas's workbench token instead (no nodeId); the human's page presents it on its interactions." enum:"tokenSurfaces"`
}

// Park implements Parker: waitMs (HTTP) or timeoutMs (MCP), capped at
// AxWaitMax; absent or <= 0 is no wait.
func (in *AxAwaitInput) Park() (time.Duration, bool) {
	return waitOf(in.WaitMs, in.TimeoutMs), false
}

// Park implements Parker: a claim with a lease runs in the Timeline's
// mailbox even when it does not wait.
func (in *AxDeliveryPendingInput) Park() (time.Duration, bool) {
	return waitOf(in.WaitMs, nil), in.Lease() > 0
}

// AxLeaseMax caps one delivery lease: a lease hides steering from every
// other consumer, so a forgotten or hostile claim may not hide it for long.
const AxLeaseMax = 10 * time.Minute

// Lease is the lease a claim takes: leaseMs, capped at AxLeaseMax; absent,
// not a number or <= 0 is no lease.
func (in *AxDeliveryPendingInput) Lease() time.Duration {
	if in.LeaseMs == nil || !(*in.LeaseMs > 0) {
		return 0
	}
	if *in.LeaseMs >= float64(AxLeaseMax/time.Millisecond) {
		return AxLeaseMax
	}
	return time.Duration(*in.LeaseMs * float64(time.Millisecond))
}

func waitOf(primary, fallback *float64) time.Duration {
	ms := primary
	if ms == nil {
		ms = fallback
	}
	if ms == nil || !(*ms > 0) {
		return 0
	}
	d := time.Duration(*ms * float64(time.Millisecond))
	if d > AxWaitMax || d < 0 {
		return AxWaitMax
	}
	return d
}
