package messages

import "encoding/json"

// AX inputs. Field types follow the reference where it was lenient with
// list elements (non-string node ids are dropped, not rejected); a field of
// the wrong JSON type is still a 400 naming it. Source is the caller's AX
// source label; unknown labels fall back to the surface's ("api" over HTTP).

// AxGetInput is the input of ax.get (GET /api/canvas/ax).
type AxGetInput struct {
	IncludeContext any    `json:"includeContext"` // false or "false" drops the context
	Consumer       string `json:"consumer"`
}

// AxContextInput is the input of ax.context.get (GET /api/canvas/ax/context).
type AxContextInput struct {
	Consumer string `json:"consumer"`
}

// AxFocusInput is the input of ax.focus.set (POST /api/canvas/ax/focus).
type AxFocusInput struct {
	NodeIDs []any  `json:"nodeIds"`
	Source  string `json:"source"`
}

// AxPatchInput is the input of ax.patch (PATCH /api/canvas/ax), a legacy
// alias of focus set.
type AxPatchInput struct {
	Focus json.RawMessage `json:"focus"`
}

// AxPolicyInput is the input of ax.policy.set (POST /api/canvas/ax/policy).
type AxPolicyInput struct {
	Tools  json.RawMessage `json:"tools"`
	Prompt json.RawMessage `json:"prompt"`
	Source string          `json:"source"`
}

// AxHostInput is the input of ax.host-capability.report
// (PUT /api/canvas/ax/host-capability). Flags may also be nested under
// capabilities; top-level flags and nested ones are merged (nested wins).
type AxHostInput struct {
	Host             any            `json:"host"`
	Canvas           any            `json:"canvas"`
	Hooks            any            `json:"hooks"`
	Tools            any            `json:"tools"`
	SessionMessaging any            `json:"sessionMessaging"`
	Permissions      any            `json:"permissions"`
	Files            any            `json:"files"`
	UIPrompts        any            `json:"uiPrompts"`
	Raw              any            `json:"raw"`
	Capabilities     map[string]any `json:"capabilities"`
	Source           string         `json:"source"`
}

// AxWorkCreateInput is the input of ax.work.create (POST /api/canvas/ax/work).
type AxWorkCreateInput struct {
	Title   *string `json:"title"`
	Status  *string `json:"status"`
	Detail  *string `json:"detail"`
	NodeIDs []any   `json:"nodeIds"`
	Source  string  `json:"source"`
}

// AxWorkUpdateInput is the input of ax.work.update (PATCH /api/canvas/ax/work/:id).
// Detail null clears it.
type AxWorkUpdateInput struct {
	ID      string      `json:"id"`
	Title   *string     `json:"title"`
	Status  *string     `json:"status"`
	Detail  Opt[string] `json:"detail"`
	NodeIDs []any       `json:"nodeIds"`
	Source  string      `json:"source"`
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
	Body       *string `json:"body"`
	Kind       *string `json:"kind"`
	Severity   *string `json:"severity"`
	AnchorType *string `json:"anchorType"`
	NodeID     *string `json:"nodeId"`
	File       *string `json:"file"`
	Region     any     `json:"region"`
	Author     *string `json:"author"`
	Source     string  `json:"source"`
}

// AxReviewUpdateInput is the input of ax.review.update (PATCH /api/canvas/ax/review/:id).
type AxReviewUpdateInput struct {
	ID       string  `json:"id"`
	Body     *string `json:"body"`
	Status   *string `json:"status"`
	Severity *string `json:"severity"`
	Kind     *string `json:"kind"`
	Source   string  `json:"source"`
}

// AxApprovalRequestInput is the input of ax.approval.request (POST /api/canvas/ax/approval).
type AxApprovalRequestInput struct {
	Title   *string `json:"title"`
	Detail  *string `json:"detail"`
	Action  *string `json:"action"`
	NodeIDs []any   `json:"nodeIds"`
	Source  string  `json:"source"`
}

// AxResolveInput resolves an approval gate or a mode request.
type AxResolveInput struct {
	ID         string  `json:"id"`
	Decision   *string `json:"decision"`
	Resolution *string `json:"resolution"`
	Source     string  `json:"source"`
}

// AxElicitationRequestInput is the input of ax.elicitation.request.
type AxElicitationRequestInput struct {
	Prompt  *string `json:"prompt"`
	Fields  []any   `json:"fields"`
	NodeIDs []any   `json:"nodeIds"`
	Source  string  `json:"source"`
}

// AxElicitationRespondInput is the input of ax.elicitation.respond. A
// response that is not an object is stored as {}.
type AxElicitationRespondInput struct {
	ID       string `json:"id"`
	Response any    `json:"response"`
	Source   string `json:"source"`
}

// AxModeRequestInput is the input of ax.mode.request.
type AxModeRequestInput struct {
	Mode    *string `json:"mode"`
	Reason  *string `json:"reason"`
	NodeIDs []any   `json:"nodeIds"`
	Source  string  `json:"source"`
}

// AxAwaitInput reads a gate, optionally waiting for it to be resolved:
// waitMs (the HTTP name) or timeoutMs (the MCP name), capped at 120 s.
type AxAwaitInput struct {
	ID        string   `json:"id"`
	WaitMs    *float64 `json:"waitMs"`
	TimeoutMs *float64 `json:"timeoutMs"`
}

// AxEventInput is the input of ax.event.record (POST /api/canvas/ax/event).
type AxEventInput struct {
	Kind    *string        `json:"kind"`
	Summary *string        `json:"summary"`
	Detail  *string        `json:"detail"`
	NodeIDs []any          `json:"nodeIds"`
	Data    map[string]any `json:"data"`
	Source  string         `json:"source"`
}

// AxEvidenceInput is the input of ax.evidence.add (POST /api/canvas/ax/evidence).
type AxEvidenceInput struct {
	Kind    *string        `json:"kind"`
	Title   *string        `json:"title"`
	Body    *string        `json:"body"`
	Ref     *string        `json:"ref"`
	NodeIDs []any          `json:"nodeIds"`
	Data    map[string]any `json:"data"`
	Source  string         `json:"source"`
}

// AxSteerInput is the input of ax.steer (POST /api/canvas/ax/steer).
type AxSteerInput struct {
	Message *string `json:"message"`
	Source  string  `json:"source"`
}

// AxTimelineInput is the input of ax.timeline.get.
type AxTimelineInput struct {
	Limit any `json:"limit"`
}

// AxDeliveryPendingInput is the input of ax.delivery.pending: the reference's
// read, plus waitMs (wait until something is pending for this consumer) and
// leaseMs (hide the returned rows from other consumers for that long).
type AxDeliveryPendingInput struct {
	Consumer string   `json:"consumer"`
	Limit    any      `json:"limit"`
	WaitMs   *float64 `json:"waitMs"`
	LeaseMs  *float64 `json:"leaseMs"`
}

// AxDeliveryMarkInput is the input of ax.delivery.mark. Consumer makes the
// mark a compare-and-set on a lease.
type AxDeliveryMarkInput struct {
	ID       string `json:"id"`
	Consumer string `json:"consumer"`
}

// AxCommandInput is the input of ax.command.invoke (POST /api/canvas/ax/command).
type AxCommandInput struct {
	Name   any    `json:"name"`
	Args   any    `json:"args"`
	Source string `json:"source"`
}

// AxActivityInput is the input of ax.activity (POST /api/canvas/ax/activity).
type AxActivityInput struct {
	Kind      *string        `json:"kind"`
	Title     *string        `json:"title"`
	Summary   *string        `json:"summary"`
	Outcome   *string        `json:"outcome"`
	Ref       *string        `json:"ref"`
	NodeIDs   []any          `json:"nodeIds"`
	Data      map[string]any `json:"data"`
	Reactions map[string]any `json:"reactions"`
	Source    string         `json:"source"`
}

// AxInteractionInput is the input of ax.interaction (POST
// /api/canvas/ax/interaction). The envelope is validated by the AX core, so
// its fields stay raw here; SurfaceToken is the server-issued token that
// binds a sandboxed surface to its node.
type AxInteractionInput struct {
	Type          any             `json:"type"`
	SourceNodeID  any             `json:"sourceNodeId"`
	SourceSurface any             `json:"sourceSurface"`
	Actor         any             `json:"actor"`
	Payload       json.RawMessage `json:"payload"`
	CorrelationID any             `json:"correlationId"`
	Metadata      any             `json:"metadata"`
	SurfaceToken  string          `json:"surfaceToken"`
	Source        string          `json:"source"`
}
