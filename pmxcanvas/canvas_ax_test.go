package pmxcanvas

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestAxStateFocusAndContext(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A", Content: "alpha"}))
	st := must[*AxState](t)(c.AxState(bg))
	if st.Version != 1 || len(st.Focus.NodeIDs) != 0 || st.Host != nil || len(st.WorkItems) != 0 || st.Policy.Tools.Allowed == nil {
		t.Fatalf("empty AxState: %+v", st)
	}
	f := must[*AxFocus](t)(c.SetAxFocus(bg, []string{"ghost", a.ID, a.ID}))
	if len(f.NodeIDs) != 1 || f.NodeIDs[0] != a.ID || f.PrimaryNodeID != a.ID || f.Source != "sdk" || f.UpdatedAt == nil {
		t.Fatalf("SetAxFocus: %+v", f)
	}
	must[*WorkItem](t)(c.AddWorkItem(bg, WorkItemInput{Title: "w"}))
	must[*HostCapability](t)(c.ReportHostCapability(bg, HostReport{Host: "claude-code", Canvas: true}))
	st = must[*AxState](t)(c.AxState(bg))
	if st.Focus.PrimaryNodeID != a.ID || len(st.WorkItems) != 1 || st.Host == nil || st.Host.Host != "claude-code" {
		t.Fatalf("AxState: %+v", st)
	}
	if f = must[*AxFocus](t)(c.SetAxFocus(bg, nil)); len(f.NodeIDs) != 0 || f.PrimaryNodeID != "" {
		t.Fatalf("SetAxFocus(nil): %+v", f)
	}

	must[*Steering](t)(c.WithSource("browser").SendSteering(bg, "from the human"))
	must[*Steering](t)(c.WithSource("codex").SendSteering(bg, "from codex"))
	ac := must[*AgentContext](t)(c.AgentContext(bg, "codex"))
	if ac.Version != 1 || ac.GeneratedAt.IsZero() || ac.Surface.NodeCount != 1 || len(ac.Delivery.PendingSteering) != 1 ||
		ac.Delivery.PendingSteering[0].Message != "from the human" || len(ac.WorkItems) != 1 || ac.Host == nil ||
		ac.Timeline.Counts["steering"] != 2 {
		t.Fatalf("AgentContext(codex): %+v", ac)
	}
	if ac = must[*AgentContext](t)(c.AgentContext(bg, "")); len(ac.Delivery.PendingSteering) != 2 {
		t.Fatalf("AgentContext(): %d pending", len(ac.Delivery.PendingSteering))
	}
}

func TestWorkItems(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	w := must[*WorkItem](t)(c.AddWorkItem(bg, WorkItemInput{Title: "Build", Status: "in-progress", Detail: "compiling", NodeIDs: []string{a.ID}}))
	if !strings.HasPrefix(w.ID, "work-") || w.Title != "Build" || w.Status != "in-progress" || w.Detail != "compiling" ||
		len(w.NodeIDs) != 1 || w.Source != "sdk" || w.CreatedAt.IsZero() || w.UpdatedBy != "" {
		t.Fatalf("AddWorkItem: %+v", w)
	}
	u := must[*WorkItem](t)(c.WithSource("cli").UpdateWorkItem(bg, w.ID, WorkItemPatch{Status: Ptr("blocked"), Detail: Ptr(""), NodeIDs: []string{}}))
	if u.Status != "blocked" || u.Detail != "" || len(u.NodeIDs) != 0 || u.Title != "Build" || u.Source != "sdk" || u.UpdatedBy != "cli" {
		t.Fatalf("UpdateWorkItem: %+v", u)
	}
	u = must[*WorkItem](t)(c.UpdateWorkItem(bg, w.ID, WorkItemPatch{Title: Ptr("Build 2")}))
	if u.Title != "Build 2" || u.Status != "blocked" {
		t.Fatalf("UpdateWorkItem title: %+v", u)
	}
	list := must[[]WorkItem](t)(c.WorkItems(bg))
	if len(list) != 1 || list[0].Title != "Build 2" {
		t.Fatalf("WorkItems: %+v", list)
	}
	_, err := c.AddWorkItem(bg, WorkItemInput{})
	wantErr(t, err, 400, messages.CodeBadRequest, "work item requires a title.")
	_, err = c.AddWorkItem(bg, WorkItemInput{Title: "x", Status: "someday"})
	wantErr(t, err, 400, messages.CodeBadRequest, `invalid work item status "someday"`)
	_, err = c.UpdateWorkItem(bg, "work-ghost", WorkItemPatch{Title: Ptr("x")})
	wantErr(t, err, 404, messages.CodeNotFound, "work item not found.")
}

func TestReviews(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	r := must[*ReviewAnnotation](t)(c.AddReview(bg, ReviewInput{Body: "Looks off", NodeID: a.ID, Severity: "warning", Author: "ana"}))
	if !strings.HasPrefix(r.ID, "rev-") || r.AnchorType != "node" || r.NodeID != a.ID || r.Kind != "comment" || r.Severity != "warning" ||
		r.Status != "open" || r.Author != "ana" || r.Source != "sdk" {
		t.Fatalf("AddReview on a node: %+v", r)
	}
	f := must[*ReviewAnnotation](t)(c.AddReview(bg, ReviewInput{Body: "bug", Kind: "finding", File: "main.go"}))
	if f.AnchorType != "file" || f.File != "main.go" || f.Region != nil || f.Kind != "finding" {
		t.Fatalf("AddReview on a file: %+v", f)
	}
	g := must[*ReviewAnnotation](t)(c.AddReview(bg, ReviewInput{Body: "slow", AnchorType: "region",
		Region: &ReviewRegion{Line: Ptr(10.0), EndLine: Ptr(12.0), Label: "loop"}}))
	if g.AnchorType != "region" || g.Region == nil || *g.Region.Line != 10 || *g.Region.EndLine != 12 || g.Region.Label != "loop" {
		t.Fatalf("AddReview on a region: %+v", g)
	}
	u := must[*ReviewAnnotation](t)(c.UpdateReview(bg, r.ID, ReviewPatch{Status: Ptr("resolved"), Body: Ptr("fixed")}))
	if u.Status != "resolved" || u.Body != "fixed" || u.UpdatedBy != "sdk" {
		t.Fatalf("UpdateReview: %+v", u)
	}
	list := must[[]ReviewAnnotation](t)(c.Reviews(bg))
	if len(list) != 3 || list[0].ID != r.ID || list[1].ID != f.ID || list[2].ID != g.ID {
		t.Fatalf("Reviews: %+v", list)
	}
	_, err := c.AddReview(bg, ReviewInput{NodeID: a.ID})
	wantErr(t, err, 400, messages.CodeBadRequest, "review annotation requires a body.")
	_, err = c.AddReview(bg, ReviewInput{Body: "x", AnchorType: "node", NodeID: "ghost"})
	wantErr(t, err, 400, messages.CodeBadRequest, "node-anchored review annotation requires a nodeId")
	_, err = c.UpdateReview(bg, "rev-ghost", ReviewPatch{Body: Ptr("x")})
	wantErr(t, err, 404, messages.CodeNotFound, "review annotation not found.")
}

func TestApprovals(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	g := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "Ship?", Detail: "v2", Action: "deploy", NodeIDs: []string{a.ID}}))
	if !strings.HasPrefix(g.ID, "appr-") || g.Title != "Ship?" || g.Detail != "v2" || g.Action != "deploy" || !g.Pending() ||
		len(g.NodeIDs) != 1 || g.ResolvedAt != nil || g.Source != "sdk" {
		t.Fatalf("RequestApproval: %+v", g)
	}
	if got := must[*ApprovalGate](t)(c.Approval(bg, g.ID)); got.ID != g.ID || !got.Pending() {
		t.Fatalf("Approval: %+v", got)
	}
	r := must[*ApprovalGate](t)(c.WithSource("browser").ResolveApproval(bg, g.ID, Reject, "not today"))
	if r.Status != StatusRejected || r.Resolution != "not today" || r.ResolvedBy != "browser" || r.Source != "sdk" || r.ResolvedAt == nil || r.Pending() {
		t.Fatalf("ResolveApproval: %+v", r)
	}
	list := must[[]ApprovalGate](t)(c.Approvals(bg))
	if len(list) != 1 || list[0].Status != StatusRejected {
		t.Fatalf("Approvals: %+v", list)
	}
	_, err := c.RequestApproval(bg, ApprovalInput{})
	wantErr(t, err, 400, messages.CodeBadRequest, "approval request requires a title.")
	_, err = c.ResolveApproval(bg, g.ID, Approve, "")
	wantErr(t, err, 404, messages.CodeNotFound, "approval gate not found or already resolved.")
	_, err = c.ResolveApproval(bg, g.ID, Decision("maybe"), "")
	wantErr(t, err, 400, messages.CodeBadRequest, "resolve requires decision approved or rejected.")
	_, err = c.Approval(bg, "appr-ghost")
	e := wantErr(t, err, 404, messages.CodeNotFound, `approval gate "appr-ghost" not found`)
	if len(e.Extra) != 0 {
		t.Fatalf("404 gate read extras: %v", e.Extra)
	}
}

func TestElicitations(t *testing.T) {
	c := openT(t)
	q := must[*Elicitation](t)(c.RequestElicitation(bg, ElicitationInput{Prompt: "Name?", Fields: []string{"name", "email"}}))
	if !strings.HasPrefix(q.ID, "elic-") || q.Prompt != "Name?" || len(q.Fields) != 2 || !q.Pending() || q.Response != nil {
		t.Fatalf("RequestElicitation: %+v", q)
	}
	if got := must[*Elicitation](t)(c.Elicitation(bg, q.ID)); !got.Pending() {
		t.Fatalf("Elicitation: %+v", got)
	}
	r := must[*Elicitation](t)(c.RespondElicitation(bg, q.ID, map[string]any{"name": "Ada"}))
	if r.Status != StatusAnswered || r.Response["name"] != "Ada" || r.ResolvedAt == nil {
		t.Fatalf("RespondElicitation: %+v", r)
	}
	if list := must[[]Elicitation](t)(c.Elicitations(bg)); len(list) != 1 || list[0].Status != StatusAnswered {
		t.Fatalf("Elicitations: %+v", list)
	}
	_, err := c.RequestElicitation(bg, ElicitationInput{})
	wantErr(t, err, 400, messages.CodeBadRequest, "elicitation requires a prompt.")
	_, err = c.RespondElicitation(bg, q.ID, nil)
	wantErr(t, err, 404, messages.CodeNotFound, "elicitation not found or already answered.")
	_, err = c.Elicitation(bg, "elic-ghost")
	wantErr(t, err, 404, messages.CodeNotFound, `elicitation "elic-ghost" not found`)
}

func TestModeRequests(t *testing.T) {
	c := openT(t)
	m := must[*ModeRequest](t)(c.RequestMode(bg, ModeInput{Mode: "execute", Reason: "plan agreed"}))
	if !strings.HasPrefix(m.ID, "mode-") || m.Mode != "execute" || m.Reason != "plan agreed" || !m.Pending() {
		t.Fatalf("RequestMode: %+v", m)
	}
	if got := must[*ModeRequest](t)(c.ModeRequest(bg, m.ID)); !got.Pending() {
		t.Fatalf("ModeRequest: %+v", got)
	}
	r := must[*ModeRequest](t)(c.ResolveMode(bg, m.ID, Approve, "go"))
	if r.Status != StatusApproved || r.Resolution != "go" || r.ResolvedBy != "sdk" {
		t.Fatalf("ResolveMode: %+v", r)
	}
	if list := must[[]ModeRequest](t)(c.ModeRequests(bg)); len(list) != 1 || list[0].Status != StatusApproved {
		t.Fatalf("ModeRequests: %+v", list)
	}
	_, err := c.RequestMode(bg, ModeInput{Mode: "yolo"})
	wantErr(t, err, 400, messages.CodeBadRequest, "mode request requires mode plan|execute|autonomous.")
	_, err = c.ResolveMode(bg, m.ID, Reject, "")
	wantErr(t, err, 404, messages.CodeNotFound, "mode request not found or already resolved.")
	_, err = c.ModeRequest(bg, "mode-ghost")
	wantErr(t, err, 404, messages.CodeNotFound, `mode request "mode-ghost" not found`)
}

func TestTimeline(t *testing.T) {
	c := openT(t)
	ev := must[*AxEvent](t)(c.RecordEvent(bg, EventInput{Kind: "tool-start", Summary: "go test", Detail: "./...", NodeIDs: []string{"anything"}, Data: map[string]any{"n": 1.0}}))
	if !strings.HasPrefix(ev.ID, "evt-") || ev.Seq != 1 || ev.Kind != "tool-start" || ev.Summary != "go test" || ev.Detail != "./..." ||
		ev.NodeIDs[0] != "anything" || ev.Data["n"] != 1.0 || ev.Source != "sdk" {
		t.Fatalf("RecordEvent: %+v", ev)
	}
	evd := must[*Evidence](t)(c.AddEvidence(bg, EvidenceInput{Kind: "test-output", Title: "PASS", Body: "ok 12 tests", Ref: "ci#4"}))
	if !strings.HasPrefix(evd.ID, "evd-") || evd.Kind != "test-output" || evd.Title != "PASS" || evd.Body != "ok 12 tests" || evd.Ref != "ci#4" {
		t.Fatalf("AddEvidence: %+v", evd)
	}
	st := must[*Steering](t)(c.SendSteering(bg, "slow down"))
	if !strings.HasPrefix(st.ID, "steer-") || st.Message != "slow down" || st.Delivered {
		t.Fatalf("SendSteering: %+v", st)
	}
	must[*AxEvent](t)(c.RecordEvent(bg, EventInput{Kind: "note", Summary: "second"}))
	tl := must[*Timeline](t)(c.Timeline(bg, 1))
	if len(tl.Events) != 1 || tl.Events[0].Summary != "second" || len(tl.Evidence) != 1 || len(tl.Steering) != 1 ||
		tl.Summary.Counts["events"] != 2 {
		t.Fatalf("Timeline(1): %+v", tl)
	}
	if tl = must[*Timeline](t)(c.Timeline(bg, 0)); len(tl.Events) != 2 || tl.Events[1].ID != ev.ID {
		t.Fatalf("Timeline(): %+v", tl.Events)
	}
	_, err := c.RecordEvent(bg, EventInput{Kind: "note"})
	wantErr(t, err, 400, messages.CodeBadRequest, "event requires kind and summary.")
	_, err = c.AddEvidence(bg, EvidenceInput{Kind: "logs"})
	wantErr(t, err, 400, messages.CodeBadRequest, "evidence requires kind and title.")
	_, err = c.SendSteering(bg, "")
	wantErr(t, err, 400, messages.CodeBadRequest, "steer requires a non-empty message.")
}

func TestDeliveryClaimAndMark(t *testing.T) {
	c := openT(t)
	human := c.WithSource("browser")
	s1 := must[*Steering](t)(human.SendSteering(bg, "one"))
	must[*Steering](t)(c.WithSource("codex").SendSteering(bg, "codex's own"))
	must[*WorkItem](t)(human.AddWorkItem(bg, WorkItemInput{Title: "open work"}))

	got := must[*Delivery](t)(c.ClaimPending(bg, DeliveryClaim{Consumer: "codex", Lease: 60e9}))
	if len(got.Pending) != 1 || got.Pending[0].ID != s1.ID || got.LeaseExpiresAt == nil ||
		len(got.PendingActivity) != 1 || got.PendingActivity[0].Kind != "work-item" {
		t.Fatalf("ClaimPending with lease: %+v", got)
	}
	// Leased to codex: another consumer does not see it and cannot mark it.
	other := must[*Delivery](t)(c.ClaimPending(bg, DeliveryClaim{Consumer: "copilot"}))
	for _, p := range other.Pending {
		if p.ID == s1.ID {
			t.Fatalf("leased row visible to another consumer: %+v", other.Pending)
		}
	}
	e := wantErr(t, c.MarkDelivered(bg, s1.ID, "copilot"), 409, messages.CodeLeaseHeld, "")
	if e.Extra["leaseExpiresAt"] == nil {
		t.Fatalf("lease-held extras: %v", e.Extra)
	}
	if st := must[*AxStats](t)(c.AxStats(bg)); st.Leases != 1 || st.Canvas != "main" {
		t.Fatalf("AxStats with a lease: %+v", st)
	}
	noErr(t, c.MarkDelivered(bg, s1.ID, "codex"))
	noErr(t, c.MarkDelivered(bg, s1.ID, "codex")) // again: still delivered
	tl := must[*Timeline](t)(c.Timeline(bg, 0))
	for _, s := range tl.Steering {
		if s.ID == s1.ID && (!s.Delivered || s.DeliveredTo != "codex") {
			t.Fatalf("marked row: %+v", s)
		}
	}
	if got = must[*Delivery](t)(c.ClaimPending(bg, DeliveryClaim{Consumer: "codex", Limit: 5})); len(got.Pending) != 0 || got.LeaseExpiresAt != nil {
		t.Fatalf("after mark: %+v", got)
	}
	wantErr(t, c.MarkDelivered(bg, "steer-ghost", ""), 404, messages.CodeNotFound, "")
}

func TestCommandsAndPolicy(t *testing.T) {
	c := openT(t)
	cmds := must[[]Command](t)(c.Commands(bg))
	if len(cmds) != 5 || cmds[0].Name != "pmx.plan" || cmds[0].Description == "" {
		t.Fatalf("Commands: %+v", cmds)
	}
	ev := must[*AxEvent](t)(c.InvokeCommand(bg, "pmx.summarize", map[string]any{"depth": 2.0}))
	if ev.Kind != "command" || ev.Summary != "pmx.summarize" || ev.Data["command"] != "pmx.summarize" {
		t.Fatalf("InvokeCommand: %+v", ev)
	}
	_, err := c.InvokeCommand(bg, "pmx.fly", nil)
	wantErr(t, err, 400, messages.CodeBadRequest, `Unknown command "pmx.fly".`)

	p := must[*Policy](t)(c.Policy(bg))
	if len(p.Tools.Allowed)+len(p.Tools.Excluded)+len(p.Tools.ApprovalRequired) != 0 || p.Prompt.Mode != "" {
		t.Fatalf("default Policy: %+v", p)
	}
	p = must[*Policy](t)(c.SetPolicy(bg, PolicyPatch{Excluded: []string{"pmx.review"}, SystemAppend: Ptr("be brief"), Mode: Ptr("plan")}))
	if len(p.Tools.Excluded) != 1 || p.Prompt.SystemAppend != "be brief" || p.Prompt.Mode != "plan" {
		t.Fatalf("SetPolicy: %+v", p)
	}
	_, err = c.InvokeCommand(bg, "pmx.review", nil)
	wantErr(t, err, 403, messages.CodeToolExcluded, "pmx.review")
	if RequiredApproval(err) != nil {
		t.Fatal("RequiredApproval of a tool-excluded error")
	}

	p = must[*Policy](t)(c.SetPolicy(bg, PolicyPatch{Excluded: []string{}, Allowed: []string{"pmx.plan"}, Mode: Ptr("")}))
	if len(p.Tools.Excluded) != 0 || len(p.Tools.Allowed) != 1 || p.Prompt.Mode != "" || p.Prompt.SystemAppend != "be brief" {
		t.Fatalf("SetPolicy clearing: %+v", p)
	}
	_, err = c.InvokeCommand(bg, "pmx.review", nil)
	wantErr(t, err, 403, messages.CodeToolNotAllowed, "pmx.review")

	must[*Policy](t)(c.SetPolicy(bg, PolicyPatch{Allowed: []string{}, ApprovalRequired: []string{"pmx.execute"}}))
	_, err = c.InvokeCommand(bg, "pmx.execute", nil)
	wantErr(t, err, 403, messages.CodeApprovalRequired, "pmx.execute")
	gate := RequiredApproval(err)
	if gate == nil || gate.Action != "policy:pmx.execute" || !gate.Pending() {
		t.Fatalf("RequiredApproval: %+v", gate)
	}
	must[*ApprovalGate](t)(c.ResolveApproval(bg, gate.ID, Approve, ""))
	must[*AxEvent](t)(c.InvokeCommand(bg, "pmx.execute", nil))
	_, err = c.InvokeCommand(bg, "pmx.execute", nil) // one approved call only
	wantErr(t, err, 403, messages.CodeApprovalRequired, "")
	if RequiredApproval(nil) != nil {
		t.Fatal("RequiredApproval(nil)")
	}
}

func TestHostCapability(t *testing.T) {
	c := openT(t)
	if h := must[*HostCapability](t)(c.HostCapability(bg)); h != nil {
		t.Fatalf("HostCapability before a report: %+v", h)
	}
	h := must[*HostCapability](t)(c.ReportHostCapability(bg, HostReport{Host: "codex", Tools: true, UIPrompts: true, Raw: map[string]any{"v": "1"}}))
	if h.Host != "codex" || !h.Tools || !h.UIPrompts || h.Canvas || h.ReportedAt.IsZero() || h.Raw["v"] != "1" {
		t.Fatalf("ReportHostCapability: %+v", h)
	}
	if got := must[*HostCapability](t)(c.HostCapability(bg)); got == nil || got.Host != "codex" || !got.Tools {
		t.Fatalf("HostCapability: %+v", got)
	}
}

func TestInteract(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	r := must[*InteractionResult](t)(c.Interact(bg, Interaction{Type: "ax.steer", SourceNodeID: a.ID, Payload: map[string]any{"message": "from a node"}}))
	var st Steering
	if err := json.Unmarshal(r.Primitive, &st); err != nil {
		t.Fatal(err)
	}
	if r.Type != "ax.steer" || r.SourceNodeID != a.ID || st.Message != "from a node" {
		t.Fatalf("Interact: %+v %+v", r, st)
	}
	_, err := c.Interact(bg, Interaction{Type: "ax.steer", SourceNodeID: "ghost", Payload: map[string]any{"message": "x"}})
	e := wantErr(t, err, 404, "unknown-node", `Source node "ghost" not found.`)
	if e.Extra["status"] != 404.0 {
		t.Fatalf("rejection extras: %v", e.Extra)
	}

	h := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "html", HTML: "<p>x</p>"}))
	sandboxed := Interaction{Type: "ax.event.record", SourceNodeID: h.ID, SourceSurface: "html-node",
		Payload: map[string]any{"kind": "prompt", "summary": "clicked"}}
	_, err = c.Interact(bg, sandboxed)
	wantErr(t, err, 403, "ax-disabled", "not enabled")
	must[*Node](t)(c.UpdateNode(bg, h.ID, NodePatch{Extra: map[string]any{"axCapabilities": map[string]any{"enabled": true}}}))
	_, err = c.Interact(bg, sandboxed)
	wantErr(t, err, 403, "invalid-surface-token", "")
	tok := must[string](t)(c.SurfaceToken(bg, h.ID))
	if tok == "" {
		t.Fatal("empty surface token")
	}
	sandboxed.SurfaceToken = tok
	r = must[*InteractionResult](t)(c.Interact(bg, sandboxed))
	var ev AxEvent
	_ = json.Unmarshal(r.Primitive, &ev)
	if ev.Summary != "clicked" || ev.Kind != "prompt" {
		t.Fatalf("sandboxed Interact: %+v", ev)
	}
	_, err = c.SurfaceToken(bg, "ghost")
	wantErr(t, err, 404, messages.CodeNotFound, "")
}

func TestIngestActivity(t *testing.T) {
	c := openT(t)
	ok := must[*ActivityResult](t)(c.IngestActivity(bg, ActivityInput{Kind: "tool-result", Title: "lint", Summary: "clean", Outcome: "success", Ref: "run-1"}))
	if ok.Event == nil || ok.Event.Kind != "tool-result" || ok.Evidence == nil || ok.Evidence.Kind != "tool-result" || ok.WorkItem != nil || ok.Review != nil {
		t.Fatalf("IngestActivity tool-result: %+v", ok)
	}
	bad := must[*ActivityResult](t)(c.IngestActivity(bg, ActivityInput{Kind: "tool-result", Title: "test", Outcome: "failure",
		Reactions: map[string]any{"review": false}}))
	if bad.WorkItem == nil || bad.WorkItem.Status != "blocked" || bad.Evidence == nil || bad.Review != nil {
		t.Fatalf("IngestActivity failure without review: %+v", bad)
	}
	_, err := c.IngestActivity(bg, ActivityInput{Kind: "dance", Title: "x"})
	wantErr(t, err, 400, messages.CodeBadRequest, "activity requires a valid 'kind'")
	_, err = c.IngestActivity(bg, ActivityInput{Kind: "note"})
	wantErr(t, err, 400, messages.CodeBadRequest, "activity requires a title.")
}

func TestSourceLabels(t *testing.T) {
	c := openT(t)
	if w := must[*WorkItem](t)(c.WithSource("cli").AddWorkItem(bg, WorkItemInput{Title: "x"})); w.Source != "cli" {
		t.Fatalf("WithSource(cli): %q", w.Source)
	}
	// An unknown label falls back to the surface's own ("sdk").
	if w := must[*WorkItem](t)(c.WithSource("martian").AddWorkItem(bg, WorkItemInput{Title: "y"})); w.Source != "sdk" && w.Source != "api" {
		t.Fatalf("unknown source label: %q", w.Source)
	}
}
