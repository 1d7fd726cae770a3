package ax

import (
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestPolicyAction(t *testing.T) {
	if got := PolicyAction("pmx.review"); got != "policy:pmx.review" {
		t.Fatalf("got %q", got)
	}
}

func TestCheckPolicy(t *testing.T) {
	p := Policy{Tools: PolicyTools{
		Allowed:          []string{"pmx.plan", "pmx.review", "ax.steer", "rm"},
		Excluded:         []string{"rm"},
		ApprovalRequired: []string{"pmx.review"},
	}}
	for _, tc := range []struct {
		name     string
		policy   Policy
		call     string
		allowed  bool
		approval bool
		code     messages.Code
		msg      string
	}{
		{"empty policy allows all", emptyPolicy(), "anything", true, false, "", ""},
		{"zero policy allows all", Policy{}, "pmx.plan", true, false, "", ""},
		{"in allowed list", p, "pmx.plan", true, false, "", ""},
		{"not in allowed list", p, "pmx.execute", false, false, CodeToolNotAllowed, `"pmx.execute" is not in the canvas policy's allowed tools.`},
		{"excluded wins over allowed", p, "rm", false, false, CodeToolExcluded, `"rm" is excluded by the canvas policy.`},
		{"approval required", p, "pmx.review", false, true, CodeApprovalRequired, `"pmx.review" requires an approved "policy:pmx.review" approval gate.`},
		{"excluded without allowed list", Policy{Tools: PolicyTools{Excluded: []string{"ax.steer"}}}, "ax.steer", false, false, CodeToolExcluded, `"ax.steer" is excluded by the canvas policy.`},
		{"approval without allowed list", Policy{Tools: PolicyTools{ApprovalRequired: []string{"x"}}}, "x", false, true, CodeApprovalRequired, `"x" requires an approved "policy:x" approval gate.`},
		{"excluded wins over approval", Policy{Tools: PolicyTools{Excluded: []string{"x"}, ApprovalRequired: []string{"x"}}}, "x", false, false, CodeToolExcluded, `"x" is excluded by the canvas policy.`},
		{"not allowed wins over approval", Policy{Tools: PolicyTools{Allowed: []string{"y"}, ApprovalRequired: []string{"x"}}}, "x", false, false, CodeToolNotAllowed, `"x" is not in the canvas policy's allowed tools.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := CheckPolicy(tc.policy, tc.call)
			if d.Allowed != tc.allowed || d.NeedsApproval != tc.approval || d.Code != tc.code || d.Message != tc.msg {
				t.Fatalf("decision = %+v", d)
			}
		})
	}
}

func TestAuthorizeCall(t *testing.T) {
	env, clock := newTestEnv()
	g := EmptyGates()
	g.Approvals = []*ApprovalGate{{ID: "unrelated", Title: "x", Action: sp("deploy"), Status: "approved", NodeIDs: []string{}}}

	// 1. First call: a pending gate is created.
	before := jsonOf(t, g)
	g1, allowed, gate, created := AuthorizeCall(g, "pmx.review", "codex", env)
	unchanged(t, before, g)
	if allowed || !created || gate == nil || len(g1.Approvals) != 2 || g1.Approvals[1] != gate {
		t.Fatalf("first call: allowed %v created %v gates %d", allowed, created, len(g1.Approvals))
	}
	want := `{"id":"` + id("appr", 1) + `","title":"Approve \"pmx.review\"","detail":"The canvas policy requires approval before \"pmx.review\" runs; approving allows one call.",` +
		`"action":"policy:pmx.review","status":"pending","nodeIds":[],"createdAt":"` + ts0 + `","resolvedAt":null,"resolution":null,"source":"codex"}`
	if got := jsonOf(t, gate); got != want {
		t.Fatalf("gate\n got %s\nwant %s", got, want)
	}

	// 2. Repeated call while pending: same gate, nothing created.
	before = jsonOf(t, g1)
	g2, allowed, again, created := AuthorizeCall(g1, "pmx.review", "codex", env)
	unchanged(t, before, g1)
	if allowed || created || again.ID != gate.ID || len(g2.Approvals) != 2 {
		t.Fatalf("repeat: allowed %v created %v id %s gates %d", allowed, created, again.ID, len(g2.Approvals))
	}

	// A rejected decision does not allow the call.
	rejected, err := ResolveApproval(gate, "rejected", nil, "browser", env)
	noErr(t, err)
	gr := g2
	gr.Approvals = []*ApprovalGate{g2.Approvals[0], rejected}
	grNext, allowed, fresh, created := AuthorizeCall(gr, "pmx.review", "codex", env)
	if allowed || !created || fresh.ID == gate.ID || len(grNext.Approvals) != 3 {
		t.Fatalf("after rejection: allowed %v created %v", allowed, created)
	}

	// 3. After approval: allowed once, and the gate is consumed.
	clock.now = clock.now.Add(time.Second)
	approved, err := ResolveApproval(gate, "approved", sp("ok"), "browser", env)
	noErr(t, err)
	g3 := g2
	g3.Approvals = []*ApprovalGate{g2.Approvals[0], approved}
	before = jsonOf(t, g3)
	g4, allowed, used, created := AuthorizeCall(g3, "pmx.review", "codex", env)
	unchanged(t, before, g3)
	if !allowed || created || used.ID != gate.ID || used.ConsumedAt == nil || *used.ConsumedAt != "2026-11-30T06:43:03.309Z" {
		t.Fatalf("approved call: allowed %v created %v gate %s", allowed, created, jsonOf(t, used))
	}
	if g4.Approvals[1].ConsumedAt == nil || g3.Approvals[1].ConsumedAt != nil || len(g4.Approvals) != 2 {
		t.Fatal("consumption must be in the returned set only")
	}

	// 4. Next call: the used approval does not count; a new gate is created.
	g5, allowed, next, created := AuthorizeCall(g4, "pmx.review", "codex", env)
	if allowed || !created || next.ID == gate.ID || len(g5.Approvals) != 3 || *next.Action != "policy:pmx.review" {
		t.Fatalf("call after consumption: allowed %v created %v gate %s", allowed, created, jsonOf(t, next))
	}

	// Gates for other calls never match.
	_, allowed, other, created := AuthorizeCall(g4, "deploy", "api", env)
	if allowed || !created || *other.Action != "policy:deploy" {
		t.Fatalf("other call: allowed %v created %v", allowed, created)
	}
}
