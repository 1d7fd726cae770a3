package messages

import (
	"encoding/json"
	"time"
)

// Outputs of the AX operations (docs/http-api.md, "AX"): the records, and
// the reply bodies that carry them.

// AxFocus is the nodes the agent should look at.
type AxFocus struct {
	NodeIDs       []string   `json:"nodeIds"`
	PrimaryNodeID string     `json:"primaryNodeId"`
	UpdatedAt     *time.Time `json:"updatedAt"`
	Source        string     `json:"source"`
}

// WorkItem is a unit of the agent's work.
type WorkItem struct {
	ID string `json:"id"`
	// Title is required on creation.
	Title string `json:"title"`
	// Status is todo, in-progress, blocked, done or cancelled.
	Status    string    `json:"status"`
	Detail    string    `json:"detail"`
	NodeIDs   []string  `json:"nodeIds"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Source created the item; UpdatedBy made the last change.
	Source    string `json:"source"`
	UpdatedBy string `json:"updatedBy,omitempty"`
}

// ReviewRegion is the part of a file a review is anchored to.
type ReviewRegion struct {
	Line    *float64 `json:"line,omitempty"`
	EndLine *float64 `json:"endLine,omitempty"`
	Label   string   `json:"label,omitempty"`
}

// ReviewAnnotation is a review comment anchored to a node, a file or a
// region.
type ReviewAnnotation struct {
	ID         string        `json:"id"`
	Kind       string        `json:"kind"`
	Body       string        `json:"body"`
	Severity   string        `json:"severity"`
	Status     string        `json:"status"`
	AnchorType string        `json:"anchorType"`
	NodeID     string        `json:"nodeId"`
	File       string        `json:"file"`
	Region     *ReviewRegion `json:"region"`
	Author     string        `json:"author"`
	CreatedAt  time.Time     `json:"createdAt"`
	UpdatedAt  time.Time     `json:"updatedAt"`
	Source     string        `json:"source"`
	UpdatedBy  string        `json:"updatedBy,omitempty"`
}

// GatePending is the status of a gate that waits for a human.
const GatePending = "pending"

// ApprovalGate is a question the agent waits on until a human approves or
// rejects it.
type ApprovalGate struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Action string `json:"action"`
	// Status is pending, approved or rejected.
	Status     string     `json:"status"`
	NodeIDs    []string   `json:"nodeIds"`
	CreatedAt  time.Time  `json:"createdAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
	Resolution string     `json:"resolution"`
	Source     string     `json:"source"`
	ResolvedBy string     `json:"resolvedBy,omitempty"`
	// ConsumedAt is when a policy gate's one approved call was used.
	ConsumedAt *time.Time `json:"consumedAt,omitempty"`
}

// Pending reports whether the gate still waits for a decision.
func (g *ApprovalGate) Pending() bool { return g.Status == GatePending }

// Elicitation asks the human for input.
type Elicitation struct {
	ID     string   `json:"id"`
	Prompt string   `json:"prompt"`
	Fields []string `json:"fields"`
	// Status is pending or answered.
	Status     string         `json:"status"`
	Response   map[string]any `json:"response"`
	NodeIDs    []string       `json:"nodeIds"`
	CreatedAt  time.Time      `json:"createdAt"`
	ResolvedAt *time.Time     `json:"resolvedAt"`
	Source     string         `json:"source"`
	ResolvedBy string         `json:"resolvedBy,omitempty"`
}

// Pending reports whether the elicitation still waits for an answer.
func (e *Elicitation) Pending() bool { return e.Status == GatePending }

// ModeRequest asks the human to switch the agent's mode.
type ModeRequest struct {
	ID string `json:"id"`
	// Mode is plan, execute or autonomous.
	Mode   string `json:"mode"`
	Reason string `json:"reason"`
	// Status is pending, approved or rejected.
	Status     string     `json:"status"`
	NodeIDs    []string   `json:"nodeIds"`
	CreatedAt  time.Time  `json:"createdAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
	Resolution string     `json:"resolution"`
	Source     string     `json:"source"`
	ResolvedBy string     `json:"resolvedBy,omitempty"`
}

// Pending reports whether the request still waits for a decision.
func (m *ModeRequest) Pending() bool { return m.Status == GatePending }

// PolicyTools are the tool rules the server enforces for commands and
// interactions.
type PolicyTools struct {
	Allowed          []string `json:"allowed"`
	Excluded         []string `json:"excluded"`
	ApprovalRequired []string `json:"approvalRequired"`
}

// PolicyPrompt is guidance for the agent's prompt.
type PolicyPrompt struct {
	SystemAppend string `json:"systemAppend"`
	Mode         string `json:"mode"`
}

// Policy is the canvas's AX tool policy.
type Policy struct {
	Tools  PolicyTools  `json:"tools"`
	Prompt PolicyPrompt `json:"prompt"`
}

// HostCapability is what the agent host reported it can do.
type HostCapability struct {
	Host             string         `json:"host"`
	Canvas           bool           `json:"canvas"`
	Hooks            bool           `json:"hooks"`
	Tools            bool           `json:"tools"`
	SessionMessaging bool           `json:"sessionMessaging"`
	Permissions      bool           `json:"permissions"`
	Files            bool           `json:"files"`
	UIPrompts        bool           `json:"uiPrompts"`
	ReportedAt       time.Time      `json:"reportedAt"`
	Raw              map[string]any `json:"raw"`
}

// AxEvent is a timeline event.
type AxEvent struct {
	ID        string         `json:"id"`
	Seq       uint64         `json:"seq"`
	Kind      string         `json:"kind"`
	Summary   string         `json:"summary"`
	Detail    string         `json:"detail"`
	NodeIDs   []string       `json:"nodeIds"`
	Data      map[string]any `json:"data"`
	CreatedAt time.Time      `json:"createdAt"`
	Source    string         `json:"source"`
}

// Evidence is an item of evidence (logs, test output, a diff, ...).
type Evidence struct {
	ID        string         `json:"id"`
	Seq       uint64         `json:"seq"`
	Kind      string         `json:"kind"`
	Title     string         `json:"title"`
	Body      string         `json:"body"`
	Ref       string         `json:"ref"`
	NodeIDs   []string       `json:"nodeIds"`
	Data      map[string]any `json:"data"`
	CreatedAt time.Time      `json:"createdAt"`
	Source    string         `json:"source"`
}

// Steering is a message from the human to the agent.
type Steering struct {
	ID          string    `json:"id"`
	Seq         uint64    `json:"seq"`
	Message     string    `json:"message"`
	Delivered   bool      `json:"delivered"`
	CreatedAt   time.Time `json:"createdAt"`
	Source      string    `json:"source"`
	DeliveredTo string    `json:"deliveredTo,omitempty"`
	// Kind is "prompt" for a question asked on the canvas, NodeID its
	// prompt node (answer it with prompt.respond); both absent otherwise.
	Kind   string `json:"kind,omitempty"`
	NodeID string `json:"nodeId,omitempty"`
}

// PendingItem is open AX work a consumer should know about.
type PendingItem struct {
	// Kind is work-item, approval-gate, elicitation or mode-request.
	Kind    string   `json:"kind"`
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Status  string   `json:"status"`
	NodeIDs []string `json:"nodeIds"`
	Source  string   `json:"source"`
}

// Command is an allowlisted command.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// AxState is the canvas-bound AX state.
type AxState struct {
	Version           int                `json:"version"`
	Focus             AxFocus            `json:"focus"`
	WorkItems         []WorkItem         `json:"workItems"`
	ApprovalGates     []ApprovalGate     `json:"approvalGates"`
	ReviewAnnotations []ReviewAnnotation `json:"reviewAnnotations"`
	Elicitations      []Elicitation      `json:"elicitations"`
	ModeRequests      []ModeRequest      `json:"modeRequests"`
	Policy            Policy             `json:"policy"`
	// Host is the latest host capability report, nil if none. ax.get
	// answers it beside the state, so it is not a key of the state.
	Host *HostCapability `json:"-"`
}

// AxGetResult is ax.get's reply: the state, the host report and (unless
// includeContext is false) the agent context.
type AxGetResult struct {
	OK      bool            `json:"ok"`
	State   AxState         `json:"state"`
	Host    *HostCapability `json:"host"`
	Context *AgentContext   `json:"context,omitempty"`
}

// AxStateResult is ax.patch's reply.
type AxStateResult struct {
	OK    bool    `json:"ok"`
	State AxState `json:"state"`
}

// TimelineSummary is the recent part of the timeline.
type TimelineSummary struct {
	RecentEvents    []AxEvent      `json:"recentEvents"`
	RecentEvidence  []Evidence     `json:"recentEvidence"`
	PendingSteering []Steering     `json:"pendingSteering"`
	Counts          map[string]int `json:"counts"`
}

// AgentContext is everything an agent should know before its next step
// (ax.context.get).
type AgentContext struct {
	Version     int       `json:"version"`
	GeneratedAt time.Time `json:"generatedAt"`
	Surface     struct {
		NodeCount int `json:"nodeCount"`
		EdgeCount int `json:"edgeCount"`
	} `json:"surface"`
	Delivery struct {
		PendingSteering []Steering    `json:"pendingSteering"`
		PendingActivity []PendingItem `json:"pendingActivity"`
	} `json:"delivery"`
	Pinned PinnedContext `json:"pinned"`
	Focus  struct {
		AxFocus
		Nodes []ContextNode `json:"nodes"`
	} `json:"focus"`
	WorkItems         []WorkItem         `json:"workItems"`
	ApprovalGates     []ApprovalGate     `json:"approvalGates"`
	ReviewAnnotations []ReviewAnnotation `json:"reviewAnnotations"`
	Elicitations      []Elicitation      `json:"elicitations"`
	ModeRequests      []ModeRequest      `json:"modeRequests"`
	Policy            Policy             `json:"policy"`
	Timeline          TimelineSummary    `json:"timeline"`
	Host              *HostCapability    `json:"host"`
}

// FocusSet is ax.focus.set's reply.
type FocusSet struct {
	OK    bool    `json:"ok"`
	Focus AxFocus `json:"focus"`
}

// PolicyResult is the reply of ax.policy.get and ax.policy.set.
type PolicyResult struct {
	OK     bool   `json:"ok"`
	Policy Policy `json:"policy"`
}

// HostResult is the reply of ax.host-capability.get and .report; Host is
// nil until a host reported.
type HostResult struct {
	OK   bool            `json:"ok"`
	Host *HostCapability `json:"host"`
}

// WorkItems is ax.work.list's reply.
type WorkItems struct {
	OK        bool       `json:"ok"`
	WorkItems []WorkItem `json:"workItems"`
}

// WorkItemResult is the reply of ax.work.create and ax.work.update.
type WorkItemResult struct {
	OK       bool     `json:"ok"`
	WorkItem WorkItem `json:"workItem"`
}

// Reviews is ax.review.list's reply.
type Reviews struct {
	OK                bool               `json:"ok"`
	ReviewAnnotations []ReviewAnnotation `json:"reviewAnnotations"`
}

// ReviewResult is the reply of ax.review.add and ax.review.update.
type ReviewResult struct {
	OK               bool             `json:"ok"`
	ReviewAnnotation ReviewAnnotation `json:"reviewAnnotation"`
}

// ApprovalGates is ax.approval.list's reply.
type ApprovalGates struct {
	OK            bool           `json:"ok"`
	ApprovalGates []ApprovalGate `json:"approvalGates"`
}

// ApprovalResult is the reply of ax.approval.request, .get and .resolve.
// Pending (gate reads) is true while the gate waits for a decision.
type ApprovalResult struct {
	OK           bool         `json:"ok"`
	ApprovalGate ApprovalGate `json:"approvalGate"`
	Pending      bool         `json:"pending,omitempty"`
}

// Elicitations is ax.elicitation.list's reply.
type Elicitations struct {
	OK           bool          `json:"ok"`
	Elicitations []Elicitation `json:"elicitations"`
}

// ElicitationResult is the reply of ax.elicitation.request, .get and
// .respond.
type ElicitationResult struct {
	OK          bool        `json:"ok"`
	Elicitation Elicitation `json:"elicitation"`
	Pending     bool        `json:"pending,omitempty"`
}

// ModeRequests is ax.mode.list's reply.
type ModeRequests struct {
	OK           bool          `json:"ok"`
	ModeRequests []ModeRequest `json:"modeRequests"`
}

// ModeRequestResult is the reply of ax.mode.request, .get and .resolve.
type ModeRequestResult struct {
	OK          bool        `json:"ok"`
	ModeRequest ModeRequest `json:"modeRequest"`
	Pending     bool        `json:"pending,omitempty"`
}

// EventResult is the reply of ax.event.record and ax.command.invoke.
type EventResult struct {
	OK    bool    `json:"ok"`
	Event AxEvent `json:"event"`
}

// EvidenceResult is ax.evidence.add's reply.
type EvidenceResult struct {
	OK       bool     `json:"ok"`
	Evidence Evidence `json:"evidence"`
}

// SteeringResult is ax.steer's reply.
type SteeringResult struct {
	OK       bool     `json:"ok"`
	Steering Steering `json:"steering"`
}

// Timeline is the AX timeline, each list newest first (ax.timeline.get).
type Timeline struct {
	Events   []AxEvent       `json:"events"`
	Evidence []Evidence      `json:"evidence"`
	Steering []Steering      `json:"steering"`
	Summary  TimelineSummary `json:"summary"`
}

// Delivery is what a delivery claim returned (ax.delivery.pending).
type Delivery struct {
	// Pending is the claimed steering, oldest first.
	Pending []Steering `json:"pending"`
	// PendingActivity is open AX work not created by the consumer.
	PendingActivity []PendingItem `json:"pendingActivity"`
	// LeaseExpiresAt is when the claim's lease ends (nil without a lease).
	LeaseExpiresAt *time.Time `json:"leaseExpiresAt,omitempty"`
}

// DeliveryMarked is ax.delivery.mark's reply.
type DeliveryMarked struct {
	OK        bool `json:"ok"`
	Delivered bool `json:"delivered"`
}

// Commands is ax.command.list's reply.
type Commands struct {
	OK       bool      `json:"ok"`
	Commands []Command `json:"commands"`
}

// InteractionResult is an accepted interaction and the record it made.
type InteractionResult struct {
	Type         string `json:"type"`
	SourceNodeID string `json:"sourceNodeId"`
	// Primitive is the record the interaction created or changed, as
	// JSON (decode it into the type the interaction's Type makes).
	Primitive json.RawMessage `json:"primitive"`
}

// ActivityResult is what ax.activity recorded; a reaction that did not
// fire is nil.
type ActivityResult struct {
	Event    *AxEvent          `json:"event"`
	WorkItem *WorkItem         `json:"workItem"`
	Evidence *Evidence         `json:"evidence"`
	Review   *ReviewAnnotation `json:"review"`
}

// SurfaceToken is ax.surface-token's reply.
type SurfaceToken struct {
	OK      bool   `json:"ok"`
	NodeID  string `json:"nodeId,omitempty"`
	Surface string `json:"surface,omitempty"`
	Token   string `json:"token"`
}

// AxStats are the canvas's runtime AX counters (ax.stats).
type AxStats struct {
	Canvas string `json:"canvas"`
	// GateWaiters are the approval, elicitation and mode waits parked now.
	GateWaiters int `json:"gateWaiters"`
	// DeliveryWaiters are the delivery claims waiting now.
	DeliveryWaiters int `json:"deliveryWaiters"`
	// Leases are the active steering leases.
	Leases int `json:"leases"`
	// Subscribers are the canvas's event-stream subscribers now.
	Subscribers int `json:"subscribers"`
}
