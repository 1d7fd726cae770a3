package ax

import (
	"strings"
	"testing"
)

func approval(id, status, created string) *ApprovalGate {
	return &ApprovalGate{ID: id, Status: status, CreatedAt: created, NodeIDs: []string{}}
}

func work(id, created, updated string) *WorkItem {
	return &WorkItem{ID: id, Title: id, Status: "todo", CreatedAt: created, UpdatedAt: updated, NodeIDs: []string{}}
}

func approvalIDs(g GateSet) string {
	var out []string
	for _, a := range g.Approvals {
		out = append(out, a.ID+"="+a.Status)
	}
	return strings.Join(out, ",")
}

func workIDs(b Board) string {
	var out []string
	for _, w := range b.WorkItems {
		out = append(out, w.ID+"@"+w.UpdatedAt)
	}
	return strings.Join(out, ",")
}

func TestReplaceGatesKeepsDecisions(t *testing.T) {
	current := GateSet{Approvals: []*ApprovalGate{approval("a", "approved", "1"), approval("b", "pending", "1"), approval("new", "pending", "5")}}
	target := GateSet{Approvals: []*ApprovalGate{approval("a", "pending", "1"), approval("b", "pending", "1"), approval("old", "rejected", "0")}}
	got := ReplaceGates(current, target)
	if s := approvalIDs(got); s != "a=approved,b=pending,old=rejected" {
		t.Fatalf("replace: %s", s)
	}
	if approvalIDs(current) != "a=approved,b=pending,new=pending" || approvalIDs(target) != "a=pending,b=pending,old=rejected" {
		t.Fatal("arguments were modified")
	}
}

func TestRevertKeepsWhatTheAXLayerDidSince(t *testing.T) {
	const since = "2026-01-02T00:00:00.000Z"
	before, after := "2026-01-01T00:00:00.000Z", "2026-01-03T00:00:00.000Z"
	// target is the board before the step; current holds a newer version
	// of w2, an item the step itself brought in (snap, created before it)
	// and one the AX layer created since (w3).
	target := Board{Focus: Focus{NodeIDs: []string{"n"}}, WorkItems: []*WorkItem{work("w1", before, before), work("w2", before, before)},
		Policy: Policy{Tools: PolicyTools{Excluded: []string{"x"}}}}
	current := Board{Focus: Focus{NodeIDs: []string{}}, WorkItems: []*WorkItem{work("w2", before, after), work("snap", before, before), work("w3", after, after)}}
	got := RevertBoard(current, target, since)
	if s := workIDs(got); s != "w1@"+before+",w2@"+after+",w3@"+after {
		t.Fatalf("revert work: %s", s)
	}
	if len(got.Focus.NodeIDs) != 1 || got.Policy.Tools.Excluded[0] != "x" {
		t.Fatalf("revert singletons: %+v", got)
	}
	gates := RevertGates(
		GateSet{Approvals: []*ApprovalGate{approval("g1", "approved", before), approval("g3", "pending", after), approval("snapgate", "pending", before)}},
		GateSet{Approvals: []*ApprovalGate{approval("g1", "pending", before), approval("g2", "pending", before)}}, since)
	if s := approvalIDs(gates); s != "g1=approved,g2=pending,g3=pending" {
		t.Fatalf("revert gates: %s", s)
	}
}

func TestSplitRoundTripsStateOf(t *testing.T) {
	b := EmptyBoard()
	b.WorkItems = []*WorkItem{work("w", "1", "1")}
	g := EmptyGates()
	g.Approvals = []*ApprovalGate{approval("a", "pending", "1")}
	b2, g2 := Split(StateOf(b, g))
	if workIDs(b2) != workIDs(b) || approvalIDs(g2) != approvalIDs(g) || b2.Focus.NodeIDs == nil {
		t.Fatalf("split: %+v %+v", b2, g2)
	}
}
