package ax

import (
	"slices"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// This file is the contract between the AX actors and the AX core. Every
// function is pure: it takes current values and an input and returns new
// values (never modifying its arguments) or a *messages.Error whose message
// is the reference's text (see ../../../shared/reference/ax.md). nodes is the
// canvas's latest published layout, used to validate node ids; env supplies
// the clock and ids ("<prefix>-<ms base36>-<6 base36>").

// NormalizeSource returns s when it is one of Sources, else fallback.
func NormalizeSource(s, fallback string) string {
	if slices.Contains(Sources, s) {
		return s
	}
	return fallback
}

// EmptyBoard is a canvas's board before any AX activity.
func EmptyBoard() Board {
	return emptyBoard()
}

// EmptyGates is a canvas's gates before any AX activity.
func EmptyGates() GateSet {
	return emptyGates()
}

// StateOf assembles the GET /api/canvas/ax state (version 1).
func StateOf(b Board, g GateSet) State {
	return stateOf(b, g)
}

// --- Focus, work items, reviews, policy, host (AxState) ---

// SetFocus replaces the focus: node ids that are strings and live nodes,
// de-duplicated; primary = the first requested id if kept, else the first kept.
func SetFocus(nodeIDs []any, source string, nodes *canvas.State, env *canvas.Env) Focus {
	return setFocus(nodeIDs, source, nodes, env)
}

// CreateWork validates and creates a work item (400 `work item requires a
// title.`, 400 `invalid work item status "<v>"; expected one of: ...`).
func CreateWork(in *messages.AxWorkCreateInput, source string, nodes *canvas.State, env *canvas.Env) (*WorkItem, *messages.Error) {
	return createWork(in, source, nodes, env)
}

// ValidateWorkStatus checks an optional status (checked before the lookup on
// update).
func ValidateWorkStatus(status *string) *messages.Error {
	return validateWorkStatus(status)
}

// UpdateWork applies an update; Source stays, UpdatedBy = source.
func UpdateWork(old *WorkItem, in *messages.AxWorkUpdateInput, source string, nodes *canvas.State, env *canvas.Env) (*WorkItem, *messages.Error) {
	return updateWork(old, in, source, nodes, env)
}

// AddReview validates and creates a review annotation (anchoring rules of
// ax.md §3.4; 400 `review annotation requires a body.`, 400
// `node-anchored review annotation requires a nodeId that exists on the canvas.`).
func AddReview(in *messages.AxReviewAddInput, source string, nodes *canvas.State, env *canvas.Env) (*ReviewAnnotation, *messages.Error) {
	return addReview(in, source, nodes, env)
}

// UpdateReview changes body, status, severity, kind (invalid enums ignored);
// Source stays, UpdatedBy = source. old nil gives nil (the caller answers
// 404 `review annotation not found.`).
func UpdateReview(old *ReviewAnnotation, in *messages.AxReviewUpdateInput, source string, env *canvas.Env) *ReviewAnnotation {
	return updateReview(old, in, source, env)
}

// MergePolicy merges a policy patch (tools and prompt merged per key; an
// explicit null or [] clears a list; non-object tools/prompt are ignored).
// Unlike the reference, a list that is not an array of strings is a 400
// invalid-input naming the field (`policy tools.excluded must be an array of
// strings.`, Extra["field"]) instead of silently clearing the list; the old
// policy is returned with the error.
func MergePolicy(old Policy, in *messages.AxPolicyInput) (Policy, *messages.Error) {
	return mergePolicy(old, in)
}

// ReportHost normalises a host report. Top-level flags and flags nested
// under capabilities are both honoured (nested wins); the reference ignored
// top-level flags whenever capabilities was present.
func ReportHost(in *messages.AxHostInput, env *canvas.Env) HostCapability {
	return reportHost(in, env)
}

// --- Gates ---

// RequestApproval creates a pending approval gate (400 `approval request
// requires a title.`).
func RequestApproval(in *messages.AxApprovalRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*ApprovalGate, *messages.Error) {
	return requestApproval(in, source, nodes, env)
}

// ValidateDecision checks a resolve decision (400 `resolve requires decision
// approved or rejected.`), checked before the lookup.
func ValidateDecision(decision *string) (string, *messages.Error) {
	return validateDecision(decision)
}

// ResolveApproval resolves a pending gate; old nil or not pending is 404
// `approval gate not found or already resolved.`. Source stays; ResolvedBy =
// source.
func ResolveApproval(old *ApprovalGate, decision string, resolution *string, source string, env *canvas.Env) (*ApprovalGate, *messages.Error) {
	return resolveApproval(old, decision, resolution, source, env)
}

// RequestElicitation creates a pending elicitation (400 `elicitation requires
// a prompt.`).
func RequestElicitation(in *messages.AxElicitationRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*Elicitation, *messages.Error) {
	return requestElicitation(in, source, nodes, env)
}

// RespondElicitation answers a pending elicitation (404 `elicitation not
// found or already answered.`); a non-object response is stored as {}.
func RespondElicitation(old *Elicitation, response any, source string, env *canvas.Env) (*Elicitation, *messages.Error) {
	return respondElicitation(old, response, source, env)
}

// RequestMode creates a pending mode request (400 `mode request requires mode
// plan|execute|autonomous.`).
func RequestMode(in *messages.AxModeRequestInput, source string, nodes *canvas.State, env *canvas.Env) (*ModeRequest, *messages.Error) {
	return requestMode(in, source, nodes, env)
}

// ResolveMode resolves a pending mode request (404 `mode request not found or
// already resolved.`).
func ResolveMode(old *ModeRequest, decision string, resolution *string, source string, env *canvas.Env) (*ModeRequest, *messages.Error) {
	return resolveMode(old, decision, resolution, source, env)
}

// --- Timeline ---

// NewEvent validates and creates an event (Seq left 0 for the Timeline to
// assign; 400 `event requires kind and summary.`). kinds lists the accepted
// kinds (EventKinds over HTTP). Detail is stored in its read form ("" is
// null), so create responses and reads agree.
func NewEvent(in *messages.AxEventInput, kinds []string, source string, env *canvas.Env) (*Event, *messages.Error) {
	return newEvent(in, kinds, source, env)
}

// NewEvidence validates and creates an evidence item (400 `evidence requires
// kind and title.`).
func NewEvidence(in *messages.AxEvidenceInput, source string, env *canvas.Env) (*Evidence, *messages.Error) {
	return newEvidence(in, source, env)
}

// NewSteering validates and creates a steering message (400 `steer requires a
// non-empty message.`).
func NewSteering(in *messages.AxSteerInput, source string, env *canvas.Env) (*Steering, *messages.Error) {
	return newSteering(in, source, env)
}

// Commands is the command allowlist, in listing order.
func Commands() []Command {
	return slices.Clone(commandList)
}

// CommandEvent validates a command invocation and returns the command event
// to record (400 `command requires a name.`, 400 `Unknown command "<name>".`).
func CommandEvent(name any, args any, source string, env *canvas.Env) (*Event, *messages.Error) {
	return commandEvent(name, args, source, env)
}

// ParseLimit reads a timeline limit: default 50, at most 200, floored;
// non-numbers and values <= 0 (after flooring, so 0.5 too) give the default.
// Numeric strings are read as JavaScript's Number() reads them.
func ParseLimit(v any) int {
	return parseLimit(v)
}

// --- Digests and context ---

// PendingActivity lists open work items, then pending approvals,
// elicitations and mode requests, excluding those whose source equals
// consumer (none excluded when consumer is "").
func PendingActivity(b Board, g GateSet, consumer string) []PendingItem {
	return pendingActivity(b, g, consumer)
}

// --- Node deletion ---

// Orphaned is what deleting one node did to the AX state (for the audit
// note and for undo).
type Orphaned struct {
	NodeID         string
	ReanchoredIDs  []string            // work items, approvals, elicitations, modes (in that order)
	RemovedReviews []*ReviewAnnotation // node-anchored reviews on the node
	Focus          bool                // the focus contained the node

	// Where the node id sat, so RestoreBoard puts it back in place (an
	// Orphaned built by hand restores by appending).
	positioned      bool // set by OrphanBoard
	focusPos        int
	focusWasPrimary bool
	workPos         map[string]int // work item id -> index in its nodeIds
	reviewPos       map[string]int // removed review id -> index in the board's reviews
}

// Any reports whether the deletion touched AX state.
func (o Orphaned) Any() bool { return len(o.ReanchoredIDs) > 0 || len(o.RemovedReviews) > 0 || o.Focus }

// OrphanBoard strips nodeID from the board: from focus and work items
// (ids recorded), and drops node-anchored reviews on it.
func OrphanBoard(b Board, nodeID string) (Board, Orphaned) {
	return orphanBoard(b, nodeID)
}

// OrphanGates strips nodeID from every gate's nodeIds (ids recorded).
func OrphanGates(g GateSet, nodeID string) (GateSet, []string) {
	return orphanGates(g, nodeID)
}

// RestoreBoard undoes OrphanBoard for items that still exist: the node id is
// put back in the recorded items' nodeIds and focus, and removed reviews
// that no longer exist are re-added.
func RestoreBoard(b Board, o Orphaned) Board {
	return restoreBoard(b, o)
}

// RestoreGates puts nodeID back in the nodeIds of the recorded gates (at the
// end of the list: gate positions are not recorded).
func RestoreGates(g GateSet, nodeID string, ids []string) GateSet {
	return restoreGates(g, nodeID, ids)
}

// OrphanNote is the single audit note for a deletion that touched AX state
// (kind note, source system; summary and data as ax.md §11.1). title is the
// node's data.title; "" falls back to the node id.
func OrphanNote(title string, o Orphaned, env *canvas.Env) *Event {
	return orphanNote(title, o, env)
}

// --- Policy enforcement ---

// PolicyDecision says whether a command or interaction may run.
type PolicyDecision struct {
	// Allowed is true when nothing in the policy stops the call.
	Allowed bool
	// NeedsApproval is true when the name is in tools.approvalRequired.
	NeedsApproval bool
	// Code and Message explain a refusal: tool-excluded, tool-not-allowed.
	Code    messages.Code
	Message string
}

// CheckPolicy decides a call named name ("pmx.review", "ax.steer"...):
// excluded refuses (tool-excluded); a non-empty allowed list refuses names
// not in it (tool-not-allowed); approvalRequired asks for an approval gate:
// NeedsApproval is set and Allowed stays false (fail closed, Code
// approval-required) until AuthorizeCall finds an approval.
func CheckPolicy(p Policy, name string) PolicyDecision {
	return checkPolicy(p, name)
}

// AuthorizeCall applies approval-required policy for a call named name: an
// approved, unconsumed gate with action PolicyAction(name) is consumed and
// the call allowed; otherwise the pending gate for it is returned (created
// if there is none). created says a new gate was added.
func AuthorizeCall(g GateSet, name, source string, env *canvas.Env) (next GateSet, allowed bool, gate *ApprovalGate, created bool) {
	return authorizeCall(g, name, source, env)
}

// PolicyAction is the approval-gate action that names a policy approval for
// the call name: "policy:<name>".
func PolicyAction(name string) string { return "policy:" + name }

// --- Interaction envelope ---

// InteractionTypes are the envelope types: the reference's 12 and ours.
var InteractionTypes = messages.InteractionTypes

// Surfaces are the accepted sourceSurface values; the first three are
// sandboxed (scoped) surfaces. The last, ours, is the workbench (see
// workbench.go).
var Surfaces = []string{"html-node", "mcp-app", "json-render", "native-node", "adapter", WorkbenchSurface}

// Interaction is a validated interaction envelope.
type Interaction struct {
	Type          string
	SourceNodeID  string
	SourceSurface string // "" when absent
	Payload       map[string]any
	// Scoped is true for sandboxed surfaces: node targets are clamped to the
	// source node.
	Scoped bool
	// Source is the envelope's raw source label (AxInteractionInput.Source),
	// copied into the Action's input; the caller normalises it.
	Source string
}

// Rejection is a refused interaction: HTTP status, stable code, message,
// plus the type and source node to report in the ax-interaction event
// ("unknown" and "" when the envelope could not say).
type Rejection struct {
	Status       int
	Code         string
	Error        string
	Type         string
	SourceNodeID string
}

// Capabilities are a node's effective interaction capabilities.
type Capabilities struct {
	Enabled          bool     `json:"enabled"`
	Allowed          []string `json:"allowed"`
	RequiresApproval []string `json:"requiresApproval"`
	Delivery         string   `json:"delivery"`
}

// EffectiveCapabilities are the node type's defaults (its ceiling) narrowed
// by data.axCapabilities (ax.md §8.3).
func EffectiveCapabilities(n *canvas.Node) Capabilities {
	return effectiveCapabilities(n)
}

// ParseInteraction validates the envelope (400 invalid-envelope, messages
// naming the bad fields).
func ParseInteraction(in *messages.AxInteractionInput) (*Interaction, *Rejection) {
	return parseInteraction(in)
}

// CheckInteraction runs the node checks: 404 unknown-node, 403 ax-disabled,
// 403 not-allowed, 403 requires-approval (ax.md §8.2 checks 2-5).
func CheckInteraction(it *Interaction, nodes *canvas.State) *Rejection {
	return checkInteraction(it, nodes)
}

// Action is the AX operation an interaction maps to: the catalog op name and
// its typed input (a pointer to the same messages.Ax*Input the routes take),
// with node targets already clamped for scoped surfaces.
type Action struct {
	Op    string
	Input any
}

// InteractionAction validates the payload for the type (400
// invalid-payload) and builds the action (ax.md §8.4, §8.5). It also runs the
// checks that need no AX state: 400 invalid-review-anchor and 400
// unknown-command (§8.2 7c, 7d); the caller reports missing targets with
// WorkItemNotFound / ApprovalNotFound (7a, 7b). Unlike the reference,
// required text fields (title, message, prompt, body, summary, id, name)
// must have non-whitespace content, as the operations require.
func InteractionAction(it *Interaction, nodes *canvas.State) (Action, *Rejection) {
	return interactionAction(it, nodes)
}

// WorkItemNotFound is the rejection for an ax.work.update interaction whose
// target work item does not exist (404 work-item-not-found).
func WorkItemNotFound(it *Interaction, id string) *Rejection { return workItemNotFound(it, id) }

// ApprovalNotFound is the rejection for an ax.approval.resolve interaction
// whose gate is missing or no longer pending (404 approval-not-found).
func ApprovalNotFound(it *Interaction, id string) *Rejection { return approvalNotFound(it, id) }

// SurfaceToken is the server-issued token that binds a sandboxed surface to
// its node: an HMAC of canvas and node id under the server's secret.
func SurfaceToken(secret []byte, canvasID, nodeID string) string {
	return surfaceToken(secret, canvasID, nodeID)
}

// ValidSurfaceToken checks a token in constant time.
func ValidSurfaceToken(secret []byte, canvasID, nodeID, token string) bool {
	return validSurfaceToken(secret, canvasID, nodeID, token)
}

// --- Activity ingest ---

// ActivityPlan is what an activity report turns into, in emission order;
// nil parts are not produced.
type ActivityPlan struct {
	Event    *messages.AxEventInput
	WorkItem *messages.AxWorkCreateInput
	Evidence *messages.AxEvidenceInput
	Review   *messages.AxReviewAddInput
}

// PlanActivity validates an activity report (400 `activity requires a valid
// 'kind': one of ...`, 400 `activity requires a title.`) and plans the event
// and reactions (ax.md §9.2). A review whose node anchor would be invalid is
// left out.
func PlanActivity(in *messages.AxActivityInput, nodes *canvas.State) (ActivityPlan, *messages.Error) {
	return planActivity(in, nodes)
}
