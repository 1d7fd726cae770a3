// Package ax is the pure core of the AX ("agent experience") layer: the
// records agents and humans exchange (focus, work items, review notes,
// approval/elicitation/mode gates, policy, host capability, timeline events,
// evidence and steering), their validation and normalisation, the
// interaction envelope and its capability model, activity ingest, commands
// and policy decisions.
//
// Like domain/canvas it does no I/O and knows no actors: the AxState, Gates
// and Timeline actors call into it and own the results.
package ax

import "github.com/pmxcanvas/pmx-canvas/messages"

// The AX enumerations are declared once in messages (the schemas and every
// surface print the same lists).
var (
	Sources               = messages.Sources
	WorkStatuses          = messages.WorkStatuses
	OpenWorkStatuses      = messages.OpenWorkStatuses
	ReviewKinds           = messages.ReviewKinds
	Severities            = messages.Severities
	ReviewStatuses        = messages.ReviewStatuses
	AnchorTypes           = messages.AnchorTypes
	Decisions             = messages.Decisions
	Modes                 = messages.Modes
	EventKinds            = messages.EventKinds
	InteractionEventKinds = messages.InteractionEventKinds
	EvidenceKinds         = messages.EvidenceKinds
	ActivityKinds         = messages.ActivityKinds
)

// Focus is what the human (or an agent) is looking at: canvas-bound, one per
// canvas.
type Focus struct {
	NodeIDs       []string `json:"nodeIds"`
	PrimaryNodeID *string  `json:"primaryNodeId"`
	UpdatedAt     *string  `json:"updatedAt"`
	Source        *string  `json:"source"`
}

// WorkItem is a unit of work an agent reports: canvas-bound.
type WorkItem struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Detail    *string  `json:"detail"`
	NodeIDs   []string `json:"nodeIds"`
	CreatedAt string   `json:"createdAt"`
	UpdatedAt string   `json:"updatedAt"`
	// Source is who created the item; it is never overwritten.
	Source *string `json:"source"`
	// UpdatedBy is who last updated it (absent until an update).
	UpdatedBy *string `json:"updatedBy,omitempty"`
}

// Region anchors a review note to lines of a file.
type Region struct {
	Line    *float64 `json:"line,omitempty"`
	EndLine *float64 `json:"endLine,omitempty"`
	Label   *string  `json:"label,omitempty"`
}

// ReviewAnnotation is a review comment or finding anchored to a node, a file
// or a region: canvas-bound.
type ReviewAnnotation struct {
	ID         string  `json:"id"`
	Kind       string  `json:"kind"`
	Body       string  `json:"body"`
	Severity   string  `json:"severity"`
	Status     string  `json:"status"`
	AnchorType string  `json:"anchorType"`
	NodeID     *string `json:"nodeId"`
	File       *string `json:"file"`
	Region     *Region `json:"region"`
	Author     *string `json:"author"`
	CreatedAt  string  `json:"createdAt"`
	UpdatedAt  string  `json:"updatedAt"`
	Source     *string `json:"source"`
	UpdatedBy  *string `json:"updatedBy,omitempty"`
}

// ApprovalGate asks a human to approve an action: canvas-bound.
type ApprovalGate struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Detail     *string  `json:"detail"`
	Action     *string  `json:"action"`
	Status     string   `json:"status"`
	NodeIDs    []string `json:"nodeIds"`
	CreatedAt  string   `json:"createdAt"`
	ResolvedAt *string  `json:"resolvedAt"`
	Resolution *string  `json:"resolution"`
	// Source is who requested the gate; ResolvedBy who decided it.
	Source     *string `json:"source"`
	ResolvedBy *string `json:"resolvedBy,omitempty"`
	// ConsumedAt is set when a policy-required approval has been used by the
	// call it allowed (an approval allows one call).
	ConsumedAt *string `json:"consumedAt,omitempty"`
}

// Elicitation asks a human for input: canvas-bound.
type Elicitation struct {
	ID         string         `json:"id"`
	Prompt     string         `json:"prompt"`
	Fields     []string       `json:"fields"`
	Status     string         `json:"status"`
	Response   map[string]any `json:"response"`
	NodeIDs    []string       `json:"nodeIds"`
	CreatedAt  string         `json:"createdAt"`
	ResolvedAt *string        `json:"resolvedAt"`
	Source     *string        `json:"source"`
	ResolvedBy *string        `json:"resolvedBy,omitempty"`
}

// ModeRequest asks a human to switch the agent's mode: canvas-bound.
type ModeRequest struct {
	ID         string   `json:"id"`
	Mode       string   `json:"mode"`
	Reason     *string  `json:"reason"`
	Status     string   `json:"status"`
	NodeIDs    []string `json:"nodeIds"`
	CreatedAt  string   `json:"createdAt"`
	ResolvedAt *string  `json:"resolvedAt"`
	Resolution *string  `json:"resolution"`
	Source     *string  `json:"source"`
	ResolvedBy *string  `json:"resolvedBy,omitempty"`
}

// Policy is the canvas's tool policy: canvas-bound. Unlike the reference,
// the server enforces it for commands and interactions.
type Policy struct {
	Tools  PolicyTools  `json:"tools"`
	Prompt PolicyPrompt `json:"prompt"`
}

// PolicyTools are the tool lists.
type PolicyTools struct {
	Allowed          []string `json:"allowed"`
	Excluded         []string `json:"excluded"`
	ApprovalRequired []string `json:"approvalRequired"`
}

// PolicyPrompt is prompt guidance for host adapters.
type PolicyPrompt struct {
	SystemAppend *string `json:"systemAppend"`
	Mode         *string `json:"mode"`
}

// HostCapability is what the agent host reported it can do; it survives
// snapshot restore and clear.
type HostCapability struct {
	Host             *string        `json:"host"`
	Canvas           bool           `json:"canvas"`
	Hooks            bool           `json:"hooks"`
	Tools            bool           `json:"tools"`
	SessionMessaging bool           `json:"sessionMessaging"`
	Permissions      bool           `json:"permissions"`
	Files            bool           `json:"files"`
	UIPrompts        bool           `json:"uiPrompts"`
	ReportedAt       string         `json:"reportedAt"`
	Raw              map[string]any `json:"raw"`
}

// Event is a timeline entry: what happened.
type Event struct {
	ID        string         `json:"id"`
	Seq       uint64         `json:"seq"`
	Kind      string         `json:"kind"`
	Summary   string         `json:"summary"`
	Detail    *string        `json:"detail"`
	NodeIDs   []string       `json:"nodeIds"`
	Data      map[string]any `json:"data"`
	CreatedAt string         `json:"createdAt"`
	Source    *string        `json:"source"`
}

// Evidence is a timeline entry: logs, results, screenshots, diffs.
type Evidence struct {
	ID        string         `json:"id"`
	Seq       uint64         `json:"seq"`
	Kind      string         `json:"kind"`
	Title     string         `json:"title"`
	Body      *string        `json:"body"`
	Ref       *string        `json:"ref"`
	NodeIDs   []string       `json:"nodeIds"`
	Data      map[string]any `json:"data"`
	CreatedAt string         `json:"createdAt"`
	Source    *string        `json:"source"`
}

// Steering is a message from the human to the agent, delivered once.
type Steering struct {
	ID        string  `json:"id"`
	Seq       uint64  `json:"seq"`
	Message   string  `json:"message"`
	Delivered bool    `json:"delivered"`
	CreatedAt string  `json:"createdAt"`
	Source    *string `json:"source"`
	// DeliveredTo is the consumer that marked it (when it said who it was).
	DeliveredTo *string `json:"deliveredTo,omitempty"`
	// To is the one consumer the message is for (ours); absent, every
	// consumer may claim it. The human steers one agent of several.
	To *string `json:"to,omitempty"`
	// Kind is "prompt" for a question asked on the canvas (ours; absent for
	// plain steering) and NodeID its prompt node, which the agent answers
	// with prompt.respond.
	Kind   string `json:"kind,omitempty"`
	NodeID string `json:"nodeId,omitempty"`
}

// Board is the AxState actor's canvas-bound state. Slices are never
// modified in place: a change makes new slices, so views can share them.
type Board struct {
	Focus     Focus               `json:"focus"`
	WorkItems []*WorkItem         `json:"workItems"`
	Reviews   []*ReviewAnnotation `json:"reviewAnnotations"`
	Policy    Policy              `json:"policy"`
}

// GateSet is the Gates actor's canvas-bound state.
type GateSet struct {
	Approvals    []*ApprovalGate `json:"approvalGates"`
	Elicitations []*Elicitation  `json:"elicitations"`
	Modes        []*ModeRequest  `json:"modeRequests"`
}

// State is the canvas-bound AX state as GET /api/canvas/ax returns it.
type State struct {
	Version           int                 `json:"version"`
	Focus             Focus               `json:"focus"`
	WorkItems         []*WorkItem         `json:"workItems"`
	ApprovalGates     []*ApprovalGate     `json:"approvalGates"`
	ReviewAnnotations []*ReviewAnnotation `json:"reviewAnnotations"`
	Elicitations      []*Elicitation      `json:"elicitations"`
	ModeRequests      []*ModeRequest      `json:"modeRequests"`
	Policy            Policy              `json:"policy"`
}

// PendingItem is one entry of the pending-activity digest.
type PendingItem struct {
	Kind    string   `json:"kind"` // work-item | approval-gate | elicitation | mode-request
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Status  string   `json:"status"`
	NodeIDs []string `json:"nodeIds"`
	Source  *string  `json:"source"`
}

// Command is one entry of the command allowlist.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}
