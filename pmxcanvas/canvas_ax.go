package pmxcanvas

import (
	"context"
	"encoding/json"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The AX layer ("agent experience"): what the agent is doing and asking,
// and how the human steers. Records created through a Canvas carry source
// "sdk" (see WithSource). Shapes follow docs/http-api.md, "AX". The
// shortcuts below call the generated methods (zz_generated_ops.go).

// Gate statuses.
const (
	StatusPending  = messages.GatePending
	StatusApproved = "approved"
	StatusRejected = "rejected"
	StatusAnswered = "answered"
)

// AxState reads the canvas-bound AX state.
func (c *Canvas) AxState(ctx context.Context) (*AxState, error) {
	state := func(r *messages.AxGetResult) *AxState {
		r.State.Host = r.Host
		return &r.State
	}
	return unwrap(state)(c.AxGet(ctx, &messages.AxGetInput{IncludeContext: false}))
}

// AgentContext reads the agent context; consumer ("" for none) filters
// its delivery block (steering the consumer sent is left out).
func (c *Canvas) AgentContext(ctx context.Context, consumer string) (*AgentContext, error) {
	return c.AxContextGet(ctx, &messages.AxContextInput{Consumer: consumer})
}

// SetAxFocus replaces the AX focus; ids that are not live nodes are
// dropped.
func (c *Canvas) SetAxFocus(ctx context.Context, nodeIDs []string) (*AxFocus, error) {
	focus := func(r *messages.FocusSet) *AxFocus { return &r.Focus }
	return unwrap(focus)(c.AxFocusSet(ctx, &messages.AxFocusInput{NodeIDs: anys(orEmpty(nodeIDs))}))
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

// WorkItemPatch changes a work item; nil fields are left alone and
// Ptr("") clears Detail.
type WorkItemPatch struct {
	Title   *string
	Status  *string
	Detail  *string
	NodeIDs []string
}

func workItemOf(r *messages.WorkItemResult) *WorkItem { return &r.WorkItem }

// WorkItems lists the work items.
func (c *Canvas) WorkItems(ctx context.Context) ([]WorkItem, error) {
	return unwrap(func(r *messages.WorkItems) []WorkItem { return r.WorkItems })(c.AxWorkList(ctx))
}

// AddWorkItem creates a work item.
func (c *Canvas) AddWorkItem(ctx context.Context, in WorkItemInput) (*WorkItem, error) {
	args := &messages.AxWorkCreateInput{Title: text(in.Title), Status: text(in.Status), Detail: text(in.Detail), NodeIDs: anys(in.NodeIDs)}
	return unwrap(workItemOf)(c.AxWorkCreate(ctx, args))
}

// UpdateWorkItem changes a work item; an unknown id is 404.
func (c *Canvas) UpdateWorkItem(ctx context.Context, id string, p WorkItemPatch) (*WorkItem, error) {
	args := &messages.AxWorkUpdateInput{ID: id, Title: p.Title, Status: p.Status, NodeIDs: anys(p.NodeIDs)}
	if p.Detail != nil {
		args.Detail = nullable(*p.Detail)
	}
	return unwrap(workItemOf)(c.AxWorkUpdate(ctx, args))
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

// ReviewPatch changes a review annotation; nil fields are left alone.
type ReviewPatch struct {
	Body     *string
	Status   *string
	Severity *string
	Kind     *string
}

func reviewOf(r *messages.ReviewResult) *ReviewAnnotation { return &r.ReviewAnnotation }

// Reviews lists the review annotations.
func (c *Canvas) Reviews(ctx context.Context) ([]ReviewAnnotation, error) {
	return unwrap(func(r *messages.Reviews) []ReviewAnnotation { return r.ReviewAnnotations })(c.AxReviewList(ctx))
}

// AddReview adds a review annotation.
func (c *Canvas) AddReview(ctx context.Context, in ReviewInput) (*ReviewAnnotation, error) {
	args := &messages.AxReviewAddInput{Body: text(in.Body), Kind: text(in.Kind), Severity: text(in.Severity),
		AnchorType: text(in.AnchorType), NodeID: text(in.NodeID), File: text(in.File), Author: text(in.Author)}
	if in.Region != nil {
		args.Region = in.Region
	}
	return unwrap(reviewOf)(c.AxReviewAdd(ctx, args))
}

// UpdateReview changes a review annotation; an unknown id is 404.
func (c *Canvas) UpdateReview(ctx context.Context, id string, p ReviewPatch) (*ReviewAnnotation, error) {
	args := &messages.AxReviewUpdateInput{ID: id, Body: p.Body, Status: p.Status, Severity: p.Severity, Kind: p.Kind}
	return unwrap(reviewOf)(c.AxReviewUpdate(ctx, args))
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

func approvalOf(r *messages.ApprovalResult) *ApprovalGate { return &r.ApprovalGate }

// Approvals lists the approval gates.
func (c *Canvas) Approvals(ctx context.Context) ([]ApprovalGate, error) {
	return unwrap(func(r *messages.ApprovalGates) []ApprovalGate { return r.ApprovalGates })(c.AxApprovalList(ctx))
}

// RequestApproval opens an approval gate.
func (c *Canvas) RequestApproval(ctx context.Context, in ApprovalInput) (*ApprovalGate, error) {
	args := &messages.AxApprovalRequestInput{Title: text(in.Title), Detail: text(in.Detail), Action: text(in.Action), NodeIDs: anys(in.NodeIDs)}
	return unwrap(approvalOf)(c.AxApprovalRequest(ctx, args))
}

// Approval reads an approval gate at once; an unknown id is 404.
func (c *Canvas) Approval(ctx context.Context, id string) (*ApprovalGate, error) {
	return unwrap(approvalOf)(readGate(ctx, c.AxApprovalGet, "approval gate", id, 0))
}

// ResolveApproval approves or rejects a pending gate; resolution ("" for
// none) says why. A gate that is unknown or already decided is 404.
func (c *Canvas) ResolveApproval(ctx context.Context, id string, d Decision, resolution string) (*ApprovalGate, error) {
	return unwrap(approvalOf)(c.AxApprovalResolve(ctx, resolveInput(id, d, resolution)))
}

func resolveInput(id string, d Decision, resolution string) *messages.AxResolveInput {
	return &messages.AxResolveInput{ID: id, Decision: Ptr(string(d)), Resolution: text(resolution)}
}

// ElicitationInput asks the human for input.
type ElicitationInput struct {
	Prompt string
	// Fields name the answers wanted.
	Fields  []string
	NodeIDs []string
}

func elicitationOf(r *messages.ElicitationResult) *Elicitation { return &r.Elicitation }

// Elicitations lists the elicitations.
func (c *Canvas) Elicitations(ctx context.Context) ([]Elicitation, error) {
	return unwrap(func(r *messages.Elicitations) []Elicitation { return r.Elicitations })(c.AxElicitationList(ctx))
}

// RequestElicitation asks the human for input.
func (c *Canvas) RequestElicitation(ctx context.Context, in ElicitationInput) (*Elicitation, error) {
	args := &messages.AxElicitationRequestInput{Prompt: text(in.Prompt), Fields: anys(in.Fields), NodeIDs: anys(in.NodeIDs)}
	return unwrap(elicitationOf)(c.AxElicitationRequest(ctx, args))
}

// Elicitation reads an elicitation at once; an unknown id is 404.
func (c *Canvas) Elicitation(ctx context.Context, id string) (*Elicitation, error) {
	return unwrap(elicitationOf)(readGate(ctx, c.AxElicitationGet, "elicitation", id, 0))
}

// RespondElicitation answers a pending elicitation.
func (c *Canvas) RespondElicitation(ctx context.Context, id string, response map[string]any) (*Elicitation, error) {
	if response == nil {
		response = map[string]any{}
	}
	return unwrap(elicitationOf)(c.AxElicitationRespond(ctx, &messages.AxElicitationRespondInput{ID: id, Response: response}))
}

// ModeInput asks the human to switch the agent's mode.
type ModeInput struct {
	// Mode is plan, execute or autonomous.
	Mode    string
	Reason  string
	NodeIDs []string
}

func modeOf(r *messages.ModeRequestResult) *ModeRequest { return &r.ModeRequest }

// ModeRequests lists the mode requests.
func (c *Canvas) ModeRequests(ctx context.Context) ([]ModeRequest, error) {
	return unwrap(func(r *messages.ModeRequests) []ModeRequest { return r.ModeRequests })(c.AxModeList(ctx))
}

// RequestMode asks the human to switch the agent's mode.
func (c *Canvas) RequestMode(ctx context.Context, in ModeInput) (*ModeRequest, error) {
	args := &messages.AxModeRequestInput{Mode: text(in.Mode), Reason: text(in.Reason), NodeIDs: anys(in.NodeIDs)}
	return unwrap(modeOf)(c.AxModeRequest(ctx, args))
}

// ModeRequest reads a mode request at once; an unknown id is 404.
func (c *Canvas) ModeRequest(ctx context.Context, id string) (*ModeRequest, error) {
	return unwrap(modeOf)(readGate(ctx, c.AxModeGet, "mode request", id, 0))
}

// ResolveMode approves or rejects a pending mode request.
func (c *Canvas) ResolveMode(ctx context.Context, id string, d Decision, resolution string) (*ModeRequest, error) {
	return unwrap(modeOf)(c.AxModeResolve(ctx, resolveInput(id, d, resolution)))
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

func eventOf(r *messages.EventResult) *AxEvent { return &r.Event }

// RecordEvent records a timeline event.
func (c *Canvas) RecordEvent(ctx context.Context, in EventInput) (*AxEvent, error) {
	args := &messages.AxEventInput{Kind: text(in.Kind), Summary: text(in.Summary), Detail: text(in.Detail), NodeIDs: anys(in.NodeIDs), Data: in.Data}
	return unwrap(eventOf)(c.AxEventRecord(ctx, args))
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

// AddEvidence adds an evidence item.
func (c *Canvas) AddEvidence(ctx context.Context, in EvidenceInput) (*Evidence, error) {
	args := &messages.AxEvidenceInput{Kind: text(in.Kind), Title: text(in.Title), Body: text(in.Body), Ref: text(in.Ref),
		NodeIDs: anys(in.NodeIDs), Data: in.Data}
	return unwrap(func(r *messages.EvidenceResult) *Evidence { return &r.Evidence })(c.AxEvidenceAdd(ctx, args))
}

// SendSteering sends a steering message to the agent.
func (c *Canvas) SendSteering(ctx context.Context, message string) (*Steering, error) {
	steering := func(r *messages.SteeringResult) *Steering { return &r.Steering }
	return unwrap(steering)(c.AxSteer(ctx, &messages.AxSteerInput{Message: &message}))
}

// Timeline reads the timeline; limit (<= 0: 50, at most 200) caps each
// list.
func (c *Canvas) Timeline(ctx context.Context, limit int) (*Timeline, error) {
	in := &messages.AxTimelineInput{}
	if limit > 0 {
		in.Limit = limit
	}
	return c.AxTimelineGet(ctx, in)
}

// ---- Commands, policy, host -------------------------------------------------

// Commands lists the allowlisted commands.
func (c *Canvas) Commands(ctx context.Context) ([]Command, error) {
	return unwrap(func(r *messages.Commands) []Command { return r.Commands })(c.AxCommandList(ctx))
}

// InvokeCommand invokes an allowlisted command, recorded as a command
// event. The policy may refuse it: 403 tool-excluded, tool-not-allowed or
// approval-required (Extra["approvalGate"] is the gate to resolve).
func (c *Canvas) InvokeCommand(ctx context.Context, name string, args any) (*AxEvent, error) {
	return unwrap(eventOf)(c.AxCommandInvoke(ctx, &messages.AxCommandInput{Name: name, Args: args}))
}

func policyOf(r *messages.PolicyResult) *Policy { return &r.Policy }

// Policy reads the AX tool policy.
func (c *Canvas) Policy(ctx context.Context) (*Policy, error) {
	return unwrap(policyOf)(c.AxPolicyGet(ctx))
}

// PolicyPatch changes the policy per key: a nil list is left alone, an
// empty one clears it; a nil prompt field is left alone and Ptr("") clears
// it.
type PolicyPatch struct {
	Allowed, Excluded, ApprovalRequired []string
	SystemAppend, Mode                  *string
}

func (p PolicyPatch) input() (*messages.AxPolicyInput, error) {
	tools := map[string]any{}
	for key, v := range map[string][]string{"allowed": p.Allowed, "excluded": p.Excluded, "approvalRequired": p.ApprovalRequired} {
		if v != nil {
			tools[key] = v
		}
	}
	prompt := map[string]any{}
	for key, v := range map[string]*string{"systemAppend": p.SystemAppend, "mode": p.Mode} {
		if v != nil {
			prompt[key] = nullable(*v)
		}
	}
	in := &messages.AxPolicyInput{}
	for dst, part := range map[*json.RawMessage]map[string]any{&in.Tools: tools, &in.Prompt: prompt} {
		if len(part) > 0 {
			raw, err := json.Marshal(part)
			if err != nil {
				return nil, encodeError("ax.policy.set", err)
			}
			*dst = raw
		}
	}
	return in, nil
}

// SetPolicy merges a patch into the policy and returns the policy.
func (c *Canvas) SetPolicy(ctx context.Context, p PolicyPatch) (*Policy, error) {
	in, err := p.input()
	if err != nil {
		return nil, err
	}
	return unwrap(policyOf)(c.AxPolicySet(ctx, in))
}

func hostOf(r *messages.HostResult) *HostCapability { return r.Host }

// HostCapability reads the latest host capability report; nil (and no
// error) until a host reported.
func (c *Canvas) HostCapability(ctx context.Context) (*HostCapability, error) {
	return unwrap(hostOf)(c.AxHostCapabilityGet(ctx))
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
	in := &messages.AxHostInput{Canvas: r.Canvas, Hooks: r.Hooks, Tools: r.Tools, SessionMessaging: r.SessionMessaging,
		Permissions: r.Permissions, Files: r.Files, UIPrompts: r.UIPrompts}
	if r.Host != "" {
		in.Host = r.Host
	}
	if r.Raw != nil {
		in.Raw = r.Raw
	}
	return unwrap(hostOf)(c.AxHostCapabilityReport(ctx, in))
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

func (in Interaction) input() (*messages.AxInteractionInput, error) {
	out, err := withExtra[messages.AxInteractionInput]("ax.interaction", in.Extra)
	if err != nil {
		return nil, err
	}
	for dst, v := range map[*any]string{&out.Type: in.Type, &out.SourceNodeID: in.SourceNodeID,
		&out.SourceSurface: in.SourceSurface, &out.CorrelationID: in.CorrelationID} {
		if v != "" {
			*dst = v
		}
	}
	if in.SurfaceToken != "" {
		out.SurfaceToken = in.SurfaceToken
	}
	if in.Payload != nil {
		if out.Payload, err = json.Marshal(in.Payload); err != nil {
			return nil, encodeError("ax.interaction", err)
		}
	}
	return out, nil
}

// Interact submits a node-originated interaction. A refusal is a
// *messages.Error with the rejection's status and code (unknown-node,
// ax-disabled, not-allowed, requires-approval, invalid-payload, ...).
func (c *Canvas) Interact(ctx context.Context, in Interaction) (*InteractionResult, error) {
	args, err := in.input()
	if err != nil {
		return nil, err
	}
	return c.AxInteraction(ctx, args)
}

// SurfaceToken issues the token that binds a sandboxed surface to its node.
func (c *Canvas) SurfaceToken(ctx context.Context, nodeID string) (string, error) {
	token := func(r *messages.SurfaceToken) string { return r.Token }
	return unwrap(token)(c.AxSurfaceToken(ctx, &messages.AxSurfaceTokenInput{NodeID: nodeID}))
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

// IngestActivity records an event and reacts by kind and outcome: a
// failure opens a blocked work item, logs evidence and an error finding; a
// successful tool result adds evidence.
func (c *Canvas) IngestActivity(ctx context.Context, in ActivityInput) (*ActivityResult, error) {
	return c.AxActivity(ctx, &messages.AxActivityInput{Kind: text(in.Kind), Title: text(in.Title), Summary: text(in.Summary),
		Outcome: text(in.Outcome), Ref: text(in.Ref), NodeIDs: anys(in.NodeIDs), Data: in.Data, Reactions: in.Reactions})
}
