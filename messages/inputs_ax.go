package messages

import "encoding/json"

// AX inputs. Field types follow the reference where it was lenient with
// list elements (non-string node ids are dropped, not rejected); a field of
// the wrong JSON type is still a 400 naming it. Source is the caller's AX
// source label; unknown labels fall back to the surface's ("api" over HTTP).

// AxGetInput is the input of ax.get (GET /api/canvas/ax).
type AxGetInput struct {
	IncludeContext any    `json:"includeContext" doc:"Include the agent context block." default:"true" type:"boolean"` // false or "false" drops the context
	Consumer       string `json:"consumer" mcp:"-" doc:"Who reads the delivery block: rows whose source equals it are left out of it (absent: none are; the MCP tool sets mcp)."`
}

// AxContextInput is the input of ax.context.get (GET /api/canvas/ax/context).
type AxContextInput struct {
	Consumer string `json:"consumer" doc:"Who reads the delivery block: rows whose source equals it are left out of it (absent: none are)."`
}

// AxFocusInput is the input of ax.focus.set (POST /api/canvas/ax/focus).
type AxFocusInput struct {
	NodeIDs []any  `json:"nodeIds" doc:"Node ids to focus; an empty list clears the focus." pmx:"required,handler" ax:"optional"`
	Source  string `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxPatchInput is the input of ax.patch (PATCH /api/canvas/ax), a legacy
// alias of focus set.
type AxPatchInput struct {
	Focus json.RawMessage `json:"focus" doc:"{nodeIds} to focus (legacy form of ax.focus.set)."`
}

// AxPolicyInput is the input of ax.policy.set (POST /api/canvas/ax/policy).
type AxPolicyInput struct {
	Tools  json.RawMessage `json:"tools" doc:"Tool policy patch: allowed, excluded and approvalRequired string lists."`
	Prompt json.RawMessage `json:"prompt" doc:"Prompt policy patch: systemAppend and mode."`
	Source string          `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxHostInput is the input of ax.host-capability.report
// (PUT /api/canvas/ax/host-capability). Flags may also be nested under
// capabilities; top-level flags and nested ones are merged (nested wins).
type AxHostInput struct {
	Host             any            `json:"host" doc:"Host name, e.g. codex or copilot." type:"string"`
	Canvas           any            `json:"canvas" doc:"The host can show the canvas." type:"boolean"`
	Hooks            any            `json:"hooks" doc:"The host runs lifecycle hooks." type:"boolean"`
	Tools            any            `json:"tools" doc:"The host can call MCP tools." type:"boolean"`
	SessionMessaging any            `json:"sessionMessaging" doc:"The host can inject messages into the session." type:"boolean"`
	Permissions      any            `json:"permissions" doc:"The host has a permission prompt." type:"boolean"`
	Files            any            `json:"files" doc:"The host can read and write files." type:"boolean"`
	UIPrompts        any            `json:"uiPrompts" doc:"The host can show UI prompts to the human." type:"boolean"`
	Raw              any            `json:"raw" doc:"Free-form diagnostics stored with the report." type:"object"`
	Capabilities     map[string]any `json:"capabilities" mcp:"-" cli:"-" doc:"The same flags nested in one object; nested values win."`
	Source           string         `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxWorkCreateInput is the input of ax.work.create (POST /api/canvas/ax/work).
type AxWorkCreateInput struct {
	Title   *string `json:"title" doc:"Short title (must not be blank)." pmx:"required,handler"`
	Status  *string `json:"status" doc:"Status." default:"\"todo\"" enum:"workStatuses"`
	Detail  *string `json:"detail" doc:"Longer description." ax:"nullable"`
	NodeIDs []any   `json:"nodeIds" doc:"Nodes the work item is about."`
	Source  string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxWorkUpdateInput is the input of ax.work.update (PATCH /api/canvas/ax/work/:id).
// Detail null clears it.
type AxWorkUpdateInput struct {
	ID      string      `json:"id" doc:"Work item id (work-...)." pmx:"required"`
	Title   *string     `json:"title" doc:"New title."`
	Status  *string     `json:"status" doc:"New status." enum:"workStatuses"`
	Detail  Opt[string] `json:"detail" doc:"New detail."`
	NodeIDs []any       `json:"nodeIds" doc:"New node ids (replace the old ones)."`
	Source  string      `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxRegion is a review anchor region.
type AxRegion struct {
	Line    *float64 `json:"line"`
	EndLine *float64 `json:"endLine"`
	Label   *string  `json:"label"`
}

// AxReviewAddInput is the input of ax.review.add (POST /api/canvas/ax/review).
// Invalid enum values are ignored, as in the reference.
type AxReviewAddInput struct {
	Body       *string `json:"body" doc:"The comment text (must not be blank)." pmx:"required,handler"`
	Kind       *string `json:"kind" doc:"comment (default) or finding." enum:"reviewKinds"`
	Severity   *string `json:"severity" doc:"Severity." default:"\"info\"" enum:"severities"`
	AnchorType *string `json:"anchorType" doc:"What the annotation is anchored to (default node when nodeId is given, else file). A node anchor needs a node on the canvas." enum:"anchorTypes"`
	NodeID     *string `json:"nodeId" doc:"Anchor node."`
	File       *string `json:"file" doc:"Anchor file path."`
	Region     any     `json:"region" doc:"Anchor region within the file: line, endLine, label." type:"object" ax:"-"`
	Author     *string `json:"author" doc:"Who wrote it."`
	Source     string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxReviewUpdateInput is the input of ax.review.update (PATCH /api/canvas/ax/review/:id).
type AxReviewUpdateInput struct {
	ID       string  `json:"id" doc:"Review annotation id (rev-...)."`
	Body     *string `json:"body" doc:"New comment text."`
	Status   *string `json:"status" doc:"New status." enum:"reviewStatuses"`
	Severity *string `json:"severity" doc:"New severity." enum:"severities"`
	Kind     *string `json:"kind" doc:"New kind." enum:"reviewKinds"`
	Source   string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: the surface's label." enum:"sources"`
}

// AxApprovalRequestInput is the input of ax.approval.request (POST /api/canvas/ax/approval).
type AxApprovalRequestInput struct {
	Title   *string `json:"title" doc:"What needs approval (must not be blank)." pmx:"required,handler"`
	Detail  *string `json:"detail" doc:"Why, and what happens if approved." ax:"nullable"`
	Action  *string `json:"action" doc:"Machine-readable id of the action the gate protects." ax:"nullable"`
	NodeIDs []any   `json:"nodeIds" doc:"Nodes the gate is about."`
	Source  string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxResolveInput resolves an approval gate or a mode request.
type AxResolveInput struct {
	ID         string  `json:"id" doc:"Approval gate id (appr-...)." pmx:"required"`
	Decision   *string `json:"decision" doc:"approved or rejected." enum:"decisions" pmx:"required,handler"`
	Resolution *string `json:"resolution" doc:"Note explaining the decision."`
	Source     string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxElicitationRequestInput is the input of ax.elicitation.request.
type AxElicitationRequestInput struct {
	Prompt  *string `json:"prompt" doc:"The question (must not be blank)." pmx:"required,handler"`
	Fields  []any   `json:"fields" doc:"Names of the form fields to fill in."`
	NodeIDs []any   `json:"nodeIds" doc:"Nodes the question is about."`
	Source  string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxElicitationRespondInput is the input of ax.elicitation.respond. A
// response that is not an object is stored as {}.
type AxElicitationRespondInput struct {
	ID       string `json:"id" doc:"Elicitation id (elic-...)." pmx:"required"`
	Response any    `json:"response" doc:"The answer, as an object of field values." pmx:"required,handler" type:"object"`
	Source   string `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxModeRequestInput is the input of ax.mode.request.
type AxModeRequestInput struct {
	Mode    *string `json:"mode" doc:"The mode to switch to." enum:"modes" pmx:"required,handler"`
	Reason  *string `json:"reason" doc:"Why the switch is wanted." ax:"nullable"`
	NodeIDs []any   `json:"nodeIds" doc:"Nodes the request is about."`
	Source  string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxAwaitInput reads a gate, optionally waiting for it to be resolved:
// waitMs (the HTTP name) or timeoutMs (the MCP name), capped at 120 s.
type AxAwaitInput struct {
	ID        string   `json:"id" doc:"Approval gate id (appr-...)." pmx:"required"`
	WaitMs    *float64 `json:"waitMs" mcp:"-" doc:"Same as timeoutMs (the HTTP name; default 0, reads at once)."`
	TimeoutMs *float64 `json:"timeoutMs" doc:"How long to wait for a decision, in ms (default 30000 over MCP, 0 elsewhere; max 120000; 0 reads at once)." min:"0" max:"120000"`
}

// AxEventInput is the input of ax.event.record (POST /api/canvas/ax/event).
type AxEventInput struct {
	Kind    *string        `json:"kind" doc:"Event kind." enum:"eventKinds" pmx:"required,handler" ax:"enum=interactionEventKinds"`
	Summary *string        `json:"summary" doc:"One-line summary." pmx:"required,handler"`
	Detail  *string        `json:"detail" doc:"Longer text." ax:"nullable"`
	NodeIDs []any          `json:"nodeIds" doc:"Nodes the event is about."`
	Data    map[string]any `json:"data" doc:"Structured payload." ax:"nullable"`
	Source  string         `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxEvidenceInput is the input of ax.evidence.add (POST /api/canvas/ax/evidence).
type AxEvidenceInput struct {
	Kind    *string        `json:"kind" doc:"Evidence kind." enum:"evidenceKinds" pmx:"required,handler"`
	Title   *string        `json:"title" doc:"Title (must not be blank)." pmx:"required,handler"`
	Body    *string        `json:"body" doc:"Inline content." ax:"nullable"`
	Ref     *string        `json:"ref" doc:"Path, URL or other locator." ax:"nullable"`
	NodeIDs []any          `json:"nodeIds" doc:"Nodes the evidence is about."`
	Data    map[string]any `json:"data" doc:"Structured payload." ax:"nullable"`
	Source  string         `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxSteerInput is the input of ax.steer (POST /api/canvas/ax/steer).
type AxSteerInput struct {
	Message *string `json:"message" doc:"The instruction (must not be blank)." pmx:"required,handler"`
	To      *string `json:"to" doc:"The one consumer (agent) to deliver it to; absent, any consumer may claim it."`
	Source  string  `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
	// Kind and NodeID are set by the server only (a prompt asked on the
	// canvas is delivered as steering of kind "prompt" naming its node).
	Kind   string `json:"-"`
	NodeID string `json:"-"`
}

// AxTimelineInput is the input of ax.timeline.get.
type AxTimelineInput struct {
	Limit any `json:"limit" doc:"Rows per list (max 200)." default:"50" type:"number"`
}

// AxDeliveryPendingInput is the input of ax.delivery.pending: the reference's
// read, plus waitMs (wait until something is pending for this consumer) and
// leaseMs (hide the returned rows from other consumers for that long).
type AxDeliveryPendingInput struct {
	Consumer string   `json:"consumer" doc:"Who is reading; rows whose source equals it are left out. Not defaulted."`
	Limit    any      `json:"limit" doc:"Maximum steering rows (max 200)." default:"50" type:"number"`
	WaitMs   *float64 `json:"waitMs" doc:"Wait up to this many ms for steering when none is pending (max 120000)." min:"0" max:"120000"`
	LeaseMs  *float64 `json:"leaseMs" doc:"Lease the returned steering rows to the consumer for this many ms (needs consumer)." min:"0"`
}

// AxDeliveryMarkInput is the input of ax.delivery.mark. Consumer makes the
// mark a compare-and-set on a lease.
type AxDeliveryMarkInput struct {
	ID       string `json:"id" doc:"Steering message id (steer-...)." pmx:"required"`
	Consumer string `json:"consumer" doc:"Who delivered it; must hold the lease if the row is leased."`
}

// AxCommandInput is the input of ax.command.invoke (POST /api/canvas/ax/command).
type AxCommandInput struct {
	Name   any    `json:"name" doc:"Command name, e.g. pmx.plan." pmx:"required,handler" type:"string"`
	Args   any    `json:"args" doc:"Arguments recorded with the command." type:"object"`
	Source string `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxActivityInput is the input of ax.activity (POST /api/canvas/ax/activity).
type AxActivityInput struct {
	Kind      *string        `json:"kind" doc:"Activity kind." enum:"activityKinds" pmx:"required,handler"`
	Title     *string        `json:"title" doc:"Activity title (event summary, title of created items)." pmx:"required,handler"`
	Summary   *string        `json:"summary" doc:"Detail text (event detail, body of reactions)."`
	Outcome   *string        `json:"outcome" enum:"outcomes" doc:"failure triggers the failure reactions; success on a tool-result adds evidence."`
	Ref       *string        `json:"ref" doc:"File, URL or commit (evidence ref, review file)."`
	NodeIDs   []any          `json:"nodeIds" doc:"Related nodes; the first one on the canvas anchors the review."`
	Data      map[string]any `json:"data" doc:"Extra event data."`
	Reactions map[string]any `json:"reactions" doc:"Per-reaction switch: false turns a reaction off; an object turns it on and overrides workItem {status, detail}, evidence {kind, body}, review {severity, kind, anchorType, nodeId}."`
	Source    string         `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}

// AxInteractionInput is the input of ax.interaction (POST
// /api/canvas/ax/interaction). The envelope is validated by the AX core, so
// its fields stay raw here; SurfaceToken is the server-issued token that
// binds a sandboxed surface to its node.
type AxInteractionInput struct {
	Type          any             `json:"type" doc:"Interaction type." enum:"interactionTypes" pmx:"required,handler" type:"string"`
	SourceNodeID  any             `json:"sourceNodeId" doc:"The node the interaction comes from (the workbench surface may leave it out)." pmx:"required,handler" type:"string"`
	SourceSurface any             `json:"sourceSurface" enum:"interactionSurfaces" doc:"The kind of surface that emits it; html-node, mcp-app and json-render are sandboxed; workbench is the human's page (no node, the workbench token)." type:"string"`
	Actor         any             `json:"actor" mcp:"-" cli:"-" doc:"Who acts, as the surface reports it (recorded)."`
	Payload       json.RawMessage `json:"payload" doc:"Type-specific payload."`
	CorrelationID any             `json:"correlationId" doc:"Caller's correlation id." type:"string"`
	Metadata      any             `json:"metadata" mcp:"-" cli:"-" doc:"Free-form metadata recorded with the interaction."`
	SurfaceToken  string          `json:"surfaceToken" doc:"The surface token issued for the source node (required for sandboxed surfaces), or the workbench token for the workbench surface."`
	Source        string          `json:"source" doc:"Who is acting, stored on the record. Absent or unknown: mcp." enum:"sources"`
}
