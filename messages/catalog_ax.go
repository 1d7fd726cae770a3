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
		CLI:      &CLIBinding{Path: "ax status"},
		HTTP:     []Route{{"GET", "/api/canvas/ax"}},
	},
	{
		Name: "ax.patch", Owner: OwnerAxState, Kind: Write,
		Summary:  "Legacy alias of focus set: {focus:{nodeIds, source}}.",
		NewInput: input[AxPatchInput](),
		HTTP:     []Route{{"PATCH", "/api/canvas/ax"}},
	},
	{
		Name: "ax.context.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the agent context: delivery block, pinned and focused nodes, work, gates, policy, timeline, host.",
		NewInput: input[AxContextInput](),
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
		CLI:      &CLIBinding{Path: "ax focus", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/focus"}},
	},
	{
		Name: "ax.policy.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the AX tool policy.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/policy"}},
	},
	{
		Name: "ax.policy.set", Owner: OwnerAxState, Kind: Write,
		Summary:  "Merge a patch into the AX tool policy (tools and prompt, per key).",
		NewInput: input[AxPolicyInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/policy"}},
	},
	{
		Name: "ax.host-capability.get", Owner: OwnerAxState, Kind: Read,
		Summary:  "Read the latest host capability report (null if none).",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "ax host status"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/host-capability"}},
	},
	{
		Name: "ax.host-capability.report", Owner: OwnerAxState, Kind: Write,
		Summary:  "Report what the agent host can do.",
		NewInput: input[AxHostInput](),
		CLI:      &CLIBinding{Path: "ax host report"},
		HTTP:     []Route{{"PUT", "/api/canvas/ax/host-capability"}},
	},
	// Work and review.
	{
		Name: "ax.work.list", Owner: OwnerAxState, Kind: Read,
		Summary:  "List work items.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/work"}},
	},
	{
		Name: "ax.work.create", Owner: OwnerAxState, Kind: Write,
		Summary:  "Create a work item.",
		NewInput: input[AxWorkCreateInput](),
		CLI:      &CLIBinding{Path: "ax work add", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/work"}},
	},
	{
		Name: "ax.work.update", Owner: OwnerAxState, Kind: Write,
		Summary:  "Update a work item's title, status, detail or node ids.",
		NewInput: input[AxWorkUpdateInput](),
		CLI:      &CLIBinding{Args: []string{"id", "nodeIds..."}},
		HTTP:     []Route{{"PATCH", "/api/canvas/ax/work/:id"}},
	},
	{
		Name: "ax.review.list", Owner: OwnerAxState, Kind: Read,
		Summary:  "List review annotations.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/review"}},
	},
	{
		Name: "ax.review.add", Owner: OwnerAxState, Kind: Write,
		Summary:  "Add a review annotation anchored to a node, a file or a region.",
		NewInput: input[AxReviewAddInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"anchorType": "anchor", "nodeId": "node"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/review"}},
	},
	{
		Name: "ax.review.update", Owner: OwnerAxState, Kind: Write,
		Summary:  "Update a review annotation's body, status, severity or kind.",
		NewInput: input[AxReviewUpdateInput](),
		HTTP:     []Route{{"PATCH", "/api/canvas/ax/review/:id"}},
	},
	// Gates.
	{
		Name: "ax.approval.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List approval gates.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/approval"}},
	},
	{
		Name: "ax.approval.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Open an approval gate.",
		NewInput: input[AxApprovalRequestInput](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/approval"}},
	},
	{
		Name: "ax.approval.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read an approval gate, waiting up to waitMs (or timeoutMs) for it to be resolved.",
		NewInput: input[AxAwaitInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/approval/:id"}},
	},
	{
		Name: "ax.approval.resolve", Owner: OwnerGates, Kind: Write,
		Summary:  "Approve or reject a pending approval gate.",
		NewInput: input[AxResolveInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/approval/:id/resolve"}},
	},
	{
		Name: "ax.elicitation.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List elicitations.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/elicitation"}},
	},
	{
		Name: "ax.elicitation.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Ask the human for input.",
		NewInput: input[AxElicitationRequestInput](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/elicitation"}},
	},
	{
		Name: "ax.elicitation.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read an elicitation, waiting up to waitMs (or timeoutMs) for the answer.",
		NewInput: input[AxAwaitInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/elicitation/:id"}},
	},
	{
		Name: "ax.elicitation.respond", Owner: OwnerGates, Kind: Write,
		Summary:  "Answer a pending elicitation.",
		NewInput: input[AxElicitationRespondInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/elicitation/:id/respond"}},
	},
	{
		Name: "ax.mode.list", Owner: OwnerGates, Kind: Read,
		Summary:  "List mode requests.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/mode"}},
	},
	{
		Name: "ax.mode.request", Owner: OwnerGates, Kind: Write,
		Summary:  "Ask the human to switch the agent's mode (plan, execute, autonomous).",
		NewInput: input[AxModeRequestInput](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/mode"}},
	},
	{
		Name: "ax.mode.get", Owner: OwnerGates, Kind: Read, Parks: true,
		Summary:  "Read a mode request, waiting up to waitMs (or timeoutMs) for it to be resolved.",
		NewInput: input[AxAwaitInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/mode/:id"}},
	},
	{
		Name: "ax.mode.resolve", Owner: OwnerGates, Kind: Write,
		Summary:  "Approve or reject a pending mode request.",
		NewInput: input[AxResolveInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/mode/:id/resolve"}},
	},
	// Timeline, delivery, commands.
	{
		Name: "ax.event.record", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Record a timeline event.",
		NewInput: input[AxEventInput](),
		CLI:      &CLIBinding{Path: "ax event add", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/event"}},
	},
	{
		Name: "ax.evidence.add", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Add an evidence item (logs, test output, diff, ...).",
		NewInput: input[AxEvidenceInput](),
		CLI:      &CLIBinding{Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/evidence"}},
	},
	{
		Name: "ax.steer", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Send a steering message to the agent.",
		NewInput: input[AxSteerInput](),
		CLI:      &CLIBinding{Args: []string{"message..."}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/steer"}},
	},
	{
		Name: "ax.timeline.get", Owner: OwnerTimeline, Kind: Read,
		Summary:  "Read the timeline: events, evidence, steering (newest first) and a summary.",
		NewInput: input[AxTimelineInput](),
		CLI:      &CLIBinding{Path: "ax timeline"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/timeline"}},
	},
	{
		Name: "ax.delivery.pending", Owner: OwnerTimeline, Kind: Read, Parks: true,
		Summary:  "Claim undelivered steering for a consumer (optionally waiting, optionally leasing) plus pending activity.",
		NewInput: input[AxDeliveryPendingInput](),
		CLI:      &CLIBinding{Path: "ax delivery list"},
		HTTP:     []Route{{"GET", "/api/canvas/ax/delivery/pending"}},
	},
	{
		Name: "ax.delivery.mark", Owner: OwnerTimeline, Kind: Write,
		Summary:  "Mark a steering message delivered (compare-and-set on its lease).",
		NewInput: input[AxDeliveryMarkInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/delivery/:id/mark"}},
	},
	{
		Name: "ax.command.list", Owner: OwnerTimeline, Kind: Read,
		Summary:  "List the command allowlist.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/command"}},
	},
	{
		Name: "ax.command.invoke", Owner: OwnerRouter, Kind: Write,
		Summary:  "Invoke an allowlisted command (recorded as a command event; subject to the tool policy).",
		NewInput: input[AxCommandInput](),
		CLI:      &CLIBinding{Args: []string{"name"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/command"}},
	},
	// Composites.
	{
		Name: "ax.activity", Owner: OwnerRouter, Kind: Write,
		Summary:  "Ingest agent activity: records an event and reacts (work item, evidence, review) by kind and outcome.",
		NewInput: input[AxActivityInput](),
		HTTP:     []Route{{"POST", "/api/canvas/ax/activity"}},
	},
	{
		Name: "ax.interaction", Owner: OwnerRouter, Kind: Write,
		Summary:  "Submit a node-originated interaction, checked against the node's AX capabilities and the tool policy.",
		NewInput: input[AxInteractionInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"sourceNodeId": "node"}},
		HTTP:     []Route{{"POST", "/api/canvas/ax/interaction"}},
	},
	// Additions.
	{
		Name: "ax.surface-token", Owner: OwnerAxState, Kind: Read,
		Summary:  "Issue the token that binds a sandboxed surface to its node (required on its interactions).",
		NewInput: input[AxSurfaceTokenInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/surface-token"}},
	},
	{
		Name: "ax.stats", Owner: OwnerGates, Kind: Read,
		Summary:  "Runtime counters: parked gate waiters, delivery waiters, active leases.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/ax/stats"}},
	},
}

// AxSurfaceTokenInput is the input of ax.surface-token.
type AxSurfaceTokenInput struct {
	NodeID string `json:"nodeId" doc:"The node whose surface token to issue."`
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
