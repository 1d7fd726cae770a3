package pmxcanvas

import (
	"context"
	"encoding/json"
	"time"
)

// The AX layer ("agent experience"): what the agent is doing and asking,
// and how the human steers. Records created through a Canvas carry source
// "sdk" (see WithSource). Shapes follow docs/http-api.md, "AX".

// ---- Records ----------------------------------------------------------------

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

// Gate statuses.
const (
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
	StatusAnswered = "answered"
)

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
func (g *ApprovalGate) Pending() bool { return g.Status == StatusPending }

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
func (e *Elicitation) Pending() bool { return e.Status == StatusPending }

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
func (m *ModeRequest) Pending() bool { return m.Status == StatusPending }

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

// AxState is the canvas-bound AX state and the host capability.
type AxState struct {
	Version           int                `json:"version"`
	Focus             AxFocus            `json:"focus"`
	WorkItems         []WorkItem         `json:"workItems"`
	ApprovalGates     []ApprovalGate     `json:"approvalGates"`
	ReviewAnnotations []ReviewAnnotation `json:"reviewAnnotations"`
	Elicitations      []Elicitation      `json:"elicitations"`
	ModeRequests      []ModeRequest      `json:"modeRequests"`
	Policy            Policy             `json:"policy"`
	// Host is the latest host capability report, nil if none.
	Host *HostCapability `json:"-"`
}

// AxState reads the canvas-bound AX state.
func (c *Canvas) AxState(ctx context.Context) (*AxState, error) {
	var out struct {
		State AxState         `json:"state"`
		Host  *HostCapability `json:"host"`
	}
	if _, err := c.call(ctx, "ax.get", map[string]any{"includeContext": false}, &out); err != nil {
		return nil, err
	}
	out.State.Host = out.Host
	return &out.State, nil
}

// TimelineSummary is the recent part of the timeline.
type TimelineSummary struct {
	RecentEvents    []AxEvent      `json:"recentEvents"`
	RecentEvidence  []Evidence     `json:"recentEvidence"`
	PendingSteering []Steering     `json:"pendingSteering"`
	Counts          map[string]int `json:"counts"`
}

// AgentContext is everything an agent should know before its next step.
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

// AgentContext reads the agent context; consumer ("" for none) filters
// its delivery block (steering the consumer sent is left out).
func (c *Canvas) AgentContext(ctx context.Context, consumer string) (*AgentContext, error) {
	in := fields{}
	in.str("consumer", consumer)
	var out AgentContext
	if _, err := c.call(ctx, "ax.context.get", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetAxFocus replaces the AX focus; ids that are not live nodes are
// dropped.
func (c *Canvas) SetAxFocus(ctx context.Context, nodeIDs []string) (*AxFocus, error) {
	return replyField[AxFocus](ctx, c, "ax.focus.set", map[string]any{"nodeIds": orEmpty(nodeIDs)}, "focus")
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ---- Work items -------------------------------------------------------------

// WorkItemInput creates a work item.
type WorkItemInput struct {
	Title string
	// Status defaults to todo.
	Status  string
	Detail  string
	NodeIDs []string
}

func (in WorkItemInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("title", in.Title)
	f.str("status", in.Status)
	f.str("detail", in.Detail)
	f.strs("nodeIds", in.NodeIDs)
	return f, nil
}

// WorkItemPatch changes a work item; nil fields are left alone and
// Ptr("") clears Detail.
type WorkItemPatch struct {
	Title   *string
	Status  *string
	Detail  *string
	NodeIDs []string
}

func (p WorkItemPatch) wire() (map[string]any, error) {
	f := fields{}
	f.ptr("title", p.Title)
	f.ptr("status", p.Status)
	if p.Detail != nil {
		if *p.Detail == "" {
			f["detail"] = nil
		} else {
			f["detail"] = *p.Detail
		}
	}
	f.strs("nodeIds", p.NodeIDs)
	return f, nil
}

// WorkItems lists the work items.
func (c *Canvas) WorkItems(ctx context.Context) ([]WorkItem, error) {
	return replyList[WorkItem](ctx, c, "ax.work.list", nil, "workItems")
}

// AddWorkItem creates a work item.
func (c *Canvas) AddWorkItem(ctx context.Context, in WorkItemInput) (*WorkItem, error) {
	return replyField[WorkItem](ctx, c, "ax.work.create", in, "workItem")
}

// UpdateWorkItem changes a work item; an unknown id is 404.
func (c *Canvas) UpdateWorkItem(ctx context.Context, id string, p WorkItemPatch) (*WorkItem, error) {
	return replyField[WorkItem](ctx, c, "ax.work.update", withID{id, p}, "workItem")
}

// ---- Reviews ----------------------------------------------------------------

// ReviewInput adds a review annotation. The anchor is AnchorType when
// valid, else node when NodeID is set, else file.
type ReviewInput struct {
	Body string
	// Kind is comment (default), finding, question or suggestion.
	Kind string
	// Severity is info (default), warning or error.
	Severity   string
	AnchorType string
	NodeID     string
	File       string
	Region     *ReviewRegion
	Author     string
}

func (in ReviewInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("body", in.Body)
	f.str("kind", in.Kind)
	f.str("severity", in.Severity)
	f.str("anchorType", in.AnchorType)
	f.str("nodeId", in.NodeID)
	f.str("file", in.File)
	if in.Region != nil {
		f["region"] = in.Region
	}
	f.str("author", in.Author)
	return f, nil
}

// ReviewPatch changes a review annotation; nil fields are left alone.
type ReviewPatch struct {
	Body     *string
	Status   *string
	Severity *string
	Kind     *string
}

func (p ReviewPatch) wire() (map[string]any, error) {
	f := fields{}
	f.ptr("body", p.Body)
	f.ptr("status", p.Status)
	f.ptr("severity", p.Severity)
	f.ptr("kind", p.Kind)
	return f, nil
}

// Reviews lists the review annotations.
func (c *Canvas) Reviews(ctx context.Context) ([]ReviewAnnotation, error) {
	return replyList[ReviewAnnotation](ctx, c, "ax.review.list", nil, "reviewAnnotations")
}

// AddReview adds a review annotation.
func (c *Canvas) AddReview(ctx context.Context, in ReviewInput) (*ReviewAnnotation, error) {
	return replyField[ReviewAnnotation](ctx, c, "ax.review.add", in, "reviewAnnotation")
}

// UpdateReview changes a review annotation; an unknown id is 404.
func (c *Canvas) UpdateReview(ctx context.Context, id string, p ReviewPatch) (*ReviewAnnotation, error) {
	return replyField[ReviewAnnotation](ctx, c, "ax.review.update", withID{id, p}, "reviewAnnotation")
}

// ---- Gates ------------------------------------------------------------------

// Decision resolves an approval gate or a mode request.
type Decision string

// Decisions.
const (
	Approve Decision = "approved"
	Reject  Decision = "rejected"
)

// ApprovalInput opens an approval gate.
type ApprovalInput struct {
	Title   string
	Detail  string
	Action  string
	NodeIDs []string
}

func (in ApprovalInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("title", in.Title)
	f.str("detail", in.Detail)
	f.str("action", in.Action)
	f.strs("nodeIds", in.NodeIDs)
	return f, nil
}

// Approvals lists the approval gates.
func (c *Canvas) Approvals(ctx context.Context) ([]ApprovalGate, error) {
	return replyList[ApprovalGate](ctx, c, "ax.approval.list", nil, "approvalGates")
}

// RequestApproval opens an approval gate.
func (c *Canvas) RequestApproval(ctx context.Context, in ApprovalInput) (*ApprovalGate, error) {
	return replyField[ApprovalGate](ctx, c, "ax.approval.request", in, "approvalGate")
}

// Approval reads an approval gate at once; an unknown id is 404.
func (c *Canvas) Approval(ctx context.Context, id string) (*ApprovalGate, error) {
	return gateNow[ApprovalGate](ctx, c, "ax.approval.get", "approvalGate", id)
}

// ResolveApproval approves or rejects a pending gate; resolution ("" for
// none) says why. A gate that is unknown or already decided is 404.
func (c *Canvas) ResolveApproval(ctx context.Context, id string, d Decision, resolution string) (*ApprovalGate, error) {
	return replyField[ApprovalGate](ctx, c, "ax.approval.resolve", resolveInput(id, d, resolution), "approvalGate")
}

func resolveInput(id string, d Decision, resolution string) fields {
	f := fields{"id": id, "decision": string(d)}
	f.str("resolution", resolution)
	return f
}

// ElicitationInput asks the human for input.
type ElicitationInput struct {
	Prompt string
	// Fields name the answers wanted.
	Fields  []string
	NodeIDs []string
}

func (in ElicitationInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("prompt", in.Prompt)
	f.strs("fields", in.Fields)
	f.strs("nodeIds", in.NodeIDs)
	return f, nil
}

// Elicitations lists the elicitations.
func (c *Canvas) Elicitations(ctx context.Context) ([]Elicitation, error) {
	return replyList[Elicitation](ctx, c, "ax.elicitation.list", nil, "elicitations")
}

// RequestElicitation asks the human for input.
func (c *Canvas) RequestElicitation(ctx context.Context, in ElicitationInput) (*Elicitation, error) {
	return replyField[Elicitation](ctx, c, "ax.elicitation.request", in, "elicitation")
}

// Elicitation reads an elicitation at once; an unknown id is 404.
func (c *Canvas) Elicitation(ctx context.Context, id string) (*Elicitation, error) {
	return gateNow[Elicitation](ctx, c, "ax.elicitation.get", "elicitation", id)
}

// RespondElicitation answers a pending elicitation.
func (c *Canvas) RespondElicitation(ctx context.Context, id string, response map[string]any) (*Elicitation, error) {
	if response == nil {
		response = map[string]any{}
	}
	return replyField[Elicitation](ctx, c, "ax.elicitation.respond", map[string]any{"id": id, "response": response}, "elicitation")
}

// ModeInput asks the human to switch the agent's mode.
type ModeInput struct {
	// Mode is plan, execute or autonomous.
	Mode    string
	Reason  string
	NodeIDs []string
}

func (in ModeInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("mode", in.Mode)
	f.str("reason", in.Reason)
	f.strs("nodeIds", in.NodeIDs)
	return f, nil
}

// ModeRequests lists the mode requests.
func (c *Canvas) ModeRequests(ctx context.Context) ([]ModeRequest, error) {
	return replyList[ModeRequest](ctx, c, "ax.mode.list", nil, "modeRequests")
}

// RequestMode asks the human to switch the agent's mode.
func (c *Canvas) RequestMode(ctx context.Context, in ModeInput) (*ModeRequest, error) {
	return replyField[ModeRequest](ctx, c, "ax.mode.request", in, "modeRequest")
}

// ModeRequest reads a mode request at once; an unknown id is 404.
func (c *Canvas) ModeRequest(ctx context.Context, id string) (*ModeRequest, error) {
	return gateNow[ModeRequest](ctx, c, "ax.mode.get", "modeRequest", id)
}

// ResolveMode approves or rejects a pending mode request.
func (c *Canvas) ResolveMode(ctx context.Context, id string, d Decision, resolution string) (*ModeRequest, error) {
	return replyField[ModeRequest](ctx, c, "ax.mode.resolve", resolveInput(id, d, resolution), "modeRequest")
}

// ---- Timeline ---------------------------------------------------------------

// EventInput records a timeline event.
type EventInput struct {
	// Kind is prompt, assistant-message, tool-start, tool-result,
	// failure, approval, steering, command or note.
	Kind    string
	Summary string
	Detail  string
	NodeIDs []string
	Data    map[string]any
}

func (in EventInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("kind", in.Kind)
	f.str("summary", in.Summary)
	f.str("detail", in.Detail)
	f.strs("nodeIds", in.NodeIDs)
	f.any("data", nilMap(in.Data))
	return f, nil
}

// RecordEvent records a timeline event.
func (c *Canvas) RecordEvent(ctx context.Context, in EventInput) (*AxEvent, error) {
	return replyField[AxEvent](ctx, c, "ax.event.record", in, "event")
}

// EvidenceInput adds evidence.
type EvidenceInput struct {
	// Kind is logs, tool-result, screenshot, file, diff or test-output.
	Kind    string
	Title   string
	Body    string
	Ref     string
	NodeIDs []string
	Data    map[string]any
}

func (in EvidenceInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("kind", in.Kind)
	f.str("title", in.Title)
	f.str("body", in.Body)
	f.str("ref", in.Ref)
	f.strs("nodeIds", in.NodeIDs)
	f.any("data", nilMap(in.Data))
	return f, nil
}

// AddEvidence adds an evidence item.
func (c *Canvas) AddEvidence(ctx context.Context, in EvidenceInput) (*Evidence, error) {
	return replyField[Evidence](ctx, c, "ax.evidence.add", in, "evidence")
}

// SendSteering sends a steering message to the agent.
func (c *Canvas) SendSteering(ctx context.Context, message string) (*Steering, error) {
	return replyField[Steering](ctx, c, "ax.steer", map[string]any{"message": message}, "steering")
}

// Timeline is the AX timeline, each list newest first.
type Timeline struct {
	Events   []AxEvent       `json:"events"`
	Evidence []Evidence      `json:"evidence"`
	Steering []Steering      `json:"steering"`
	Summary  TimelineSummary `json:"summary"`
}

// Timeline reads the timeline; limit (<= 0: 50, at most 200) caps each
// list.
func (c *Canvas) Timeline(ctx context.Context, limit int) (*Timeline, error) {
	in := fields{}
	if limit > 0 {
		in["limit"] = limit
	}
	var out Timeline
	if _, err := c.call(ctx, "ax.timeline.get", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ---- Commands, policy, host -------------------------------------------------

// Commands lists the allowlisted commands.
func (c *Canvas) Commands(ctx context.Context) ([]Command, error) {
	return replyList[Command](ctx, c, "ax.command.list", nil, "commands")
}

// InvokeCommand invokes an allowlisted command, recorded as a command
// event. The policy may refuse it: 403 tool-excluded, tool-not-allowed or
// approval-required (Extra["approvalGate"] is the gate to resolve).
func (c *Canvas) InvokeCommand(ctx context.Context, name string, args any) (*AxEvent, error) {
	in := fields{"name": name}
	in.any("args", args)
	return replyField[AxEvent](ctx, c, "ax.command.invoke", in, "event")
}

// Policy reads the AX tool policy.
func (c *Canvas) Policy(ctx context.Context) (*Policy, error) {
	return replyField[Policy](ctx, c, "ax.policy.get", nil, "policy")
}

// PolicyPatch changes the policy per key: a nil list is left alone, an
// empty one clears it; a nil prompt field is left alone and Ptr("") clears
// it.
type PolicyPatch struct {
	Allowed, Excluded, ApprovalRequired []string
	SystemAppend, Mode                  *string
}

func (p PolicyPatch) wire() (map[string]any, error) {
	f := fields{}
	tools := fields{}
	tools.strs("allowed", p.Allowed)
	tools.strs("excluded", p.Excluded)
	tools.strs("approvalRequired", p.ApprovalRequired)
	if len(tools) > 0 {
		f["tools"] = tools
	}
	prompt := fields{}
	for key, v := range map[string]*string{"systemAppend": p.SystemAppend, "mode": p.Mode} {
		if v == nil {
			continue
		}
		if *v == "" {
			prompt[key] = nil
		} else {
			prompt[key] = *v
		}
	}
	if len(prompt) > 0 {
		f["prompt"] = prompt
	}
	return f, nil
}

// SetPolicy merges a patch into the policy and returns the policy.
func (c *Canvas) SetPolicy(ctx context.Context, p PolicyPatch) (*Policy, error) {
	return replyField[Policy](ctx, c, "ax.policy.set", p, "policy")
}

// HostCapability reads the latest host capability report; nil (and no
// error) until a host reported.
func (c *Canvas) HostCapability(ctx context.Context) (*HostCapability, error) {
	var out struct {
		Host *HostCapability `json:"host"`
	}
	if _, err := c.call(ctx, "ax.host-capability.get", nil, &out); err != nil {
		return nil, err
	}
	return out.Host, nil
}

// HostReport is a host capability report: a flag is true only when set.
type HostReport struct {
	Host             string
	Canvas           bool
	Hooks            bool
	Tools            bool
	SessionMessaging bool
	Permissions      bool
	Files            bool
	UIPrompts        bool
	Raw              map[string]any
}

// ReportHostCapability reports what the agent host can do.
func (c *Canvas) ReportHostCapability(ctx context.Context, r HostReport) (*HostCapability, error) {
	in := fields{"canvas": r.Canvas, "hooks": r.Hooks, "tools": r.Tools, "sessionMessaging": r.SessionMessaging,
		"permissions": r.Permissions, "files": r.Files, "uiPrompts": r.UIPrompts}
	in.str("host", r.Host)
	in.any("raw", nilMap(r.Raw))
	return replyField[HostCapability](ctx, c, "ax.host-capability.report", in, "host")
}

// ---- Composites -------------------------------------------------------------

// Interaction is a node-originated interaction, mapped onto one AX write.
type Interaction struct {
	// Type is the AX operation: ax.event.record, ax.steer, ax.work.create,
	// ax.work.update, ax.evidence.add, ax.approval.request,
	// ax.approval.resolve, ax.review.add, ax.focus.set, ax.command.invoke,
	// ax.elicitation.request or ax.mode.request.
	Type         string
	SourceNodeID string
	// SourceSurface is native-node, adapter, html-node, mcp-app or
	// json-render; sandboxed surfaces need SurfaceToken.
	SourceSurface string
	Payload       any
	SurfaceToken  string
	CorrelationID string
	Extra         map[string]any
}

func (in Interaction) wire() (map[string]any, error) {
	f := fields{}
	f.str("type", in.Type)
	f.str("sourceNodeId", in.SourceNodeID)
	f.str("sourceSurface", in.SourceSurface)
	f.any("payload", in.Payload)
	f.str("surfaceToken", in.SurfaceToken)
	f.str("correlationId", in.CorrelationID)
	return f.extra(in.Extra), nil
}

// InteractionResult is an accepted interaction and the record it made.
type InteractionResult struct {
	Type         string `json:"type"`
	SourceNodeID string `json:"sourceNodeId"`
	// Primitive is the record the interaction created or changed, as
	// JSON (decode it into the type the interaction's Type makes).
	Primitive json.RawMessage `json:"primitive"`
}

// Interact submits a node-originated interaction. A refusal is a
// *messages.Error with the rejection's status and code (unknown-node,
// ax-disabled, not-allowed, requires-approval, invalid-payload, ...).
func (c *Canvas) Interact(ctx context.Context, in Interaction) (*InteractionResult, error) {
	var out InteractionResult
	if _, err := c.call(ctx, "ax.interaction", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SurfaceToken issues the token that binds a sandboxed surface to its node.
func (c *Canvas) SurfaceToken(ctx context.Context, nodeID string) (string, error) {
	var out struct {
		Token string `json:"token"`
	}
	if _, err := c.call(ctx, "ax.surface-token", map[string]any{"nodeId": nodeID}, &out); err != nil {
		return "", err
	}
	return out.Token, nil
}

// ActivityInput is agent activity to ingest.
type ActivityInput struct {
	// Kind is tool-start, tool-result, failure, error, session-start,
	// session-end, command or note.
	Kind    string
	Title   string
	Summary string
	// Outcome "failure" makes any kind a failure.
	Outcome string
	Ref     string
	NodeIDs []string
	Data    map[string]any
	// Reactions turns the reactions (workItem, evidence, review) off
	// (false) or overrides them (an object).
	Reactions map[string]any
}

func (in ActivityInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("kind", in.Kind)
	f.str("title", in.Title)
	f.str("summary", in.Summary)
	f.str("outcome", in.Outcome)
	f.str("ref", in.Ref)
	f.strs("nodeIds", in.NodeIDs)
	f.any("data", nilMap(in.Data))
	f.any("reactions", nilMap(in.Reactions))
	return f, nil
}

// ActivityResult is what ingesting activity recorded; a reaction that did
// not fire is nil.
type ActivityResult struct {
	Event    *AxEvent          `json:"event"`
	WorkItem *WorkItem         `json:"workItem"`
	Evidence *Evidence         `json:"evidence"`
	Review   *ReviewAnnotation `json:"review"`
}

// IngestActivity records an event and reacts by kind and outcome: a
// failure opens a blocked work item, logs evidence and an error finding; a
// successful tool result adds evidence.
func (c *Canvas) IngestActivity(ctx context.Context, in ActivityInput) (*ActivityResult, error) {
	var out ActivityResult
	if _, err := c.call(ctx, "ax.activity", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// AxStats are the canvas's runtime AX counters.
type AxStats struct {
	Canvas string `json:"canvas"`
	// GateWaiters are the approval, elicitation and mode waits parked now.
	GateWaiters int `json:"gateWaiters"`
	// DeliveryWaiters are the delivery claims waiting now.
	DeliveryWaiters int `json:"deliveryWaiters"`
	// Leases are the active steering leases.
	Leases int `json:"leases"`
}

// AxStats reads the runtime AX counters.
func (c *Canvas) AxStats(ctx context.Context) (*AxStats, error) {
	var out AxStats
	if _, err := c.call(ctx, "ax.stats", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
