package ax

import (
	"testing"
)

// orphanFixture is a board and gates that reference node N everywhere.
func orphanFixture() (Board, GateSet) {
	b := EmptyBoard()
	b.Focus = Focus{NodeIDs: []string{"N", "F"}, PrimaryNodeID: sp("N"), UpdatedAt: sp("2026-01-01T00:00:00.000Z"), Source: sp("api")}
	b.WorkItems = []*WorkItem{
		{ID: "w1", Title: "a", Status: "todo", NodeIDs: []string{"F", "N", "S"}, UpdatedAt: "u1"},
		{ID: "w2", Title: "b", Status: "todo", NodeIDs: []string{"F"}, UpdatedAt: "u2"},
		{ID: "w3", Title: "c", Status: "done", NodeIDs: []string{"N"}, UpdatedAt: "u3"},
	}
	b.Reviews = []*ReviewAnnotation{
		{ID: "r1", AnchorType: "file", File: sp("a.go")},
		{ID: "r2", AnchorType: "node", NodeID: sp("N")},
		{ID: "r3", AnchorType: "node", NodeID: sp("F")},
		{ID: "r4", AnchorType: "node", NodeID: sp("N")},
	}
	g := EmptyGates()
	g.Approvals = []*ApprovalGate{{ID: "a1", NodeIDs: []string{"N"}}, {ID: "a2", NodeIDs: []string{"S"}}}
	g.Elicitations = []*Elicitation{{ID: "e1", NodeIDs: []string{"S", "N"}}}
	g.Modes = []*ModeRequest{{ID: "m1", NodeIDs: []string{"N"}}}
	return b, g
}

func TestOrphanBoard(t *testing.T) {
	b, _ := orphanFixture()
	before := jsonOf(t, b)
	next, o := OrphanBoard(b, "N")
	unchanged(t, before, b)

	if o.NodeID != "N" || !o.Focus || !eqStrings(o.ReanchoredIDs, []string{"w1", "w3"}) || len(o.RemovedReviews) != 2 ||
		o.RemovedReviews[0].ID != "r2" || o.RemovedReviews[1].ID != "r4" || !o.Any() {
		t.Fatalf("orphaned = %+v", o)
	}
	f := next.Focus
	if !eqStrings(f.NodeIDs, []string{"F"}) || deref(f.PrimaryNodeID) != "F" || deref(f.UpdatedAt) != "2026-01-01T00:00:00.000Z" || deref(f.Source) != "api" {
		t.Fatalf("focus = %s", jsonOf(t, f))
	}
	if !eqStrings(next.WorkItems[0].NodeIDs, []string{"F", "S"}) || !eqStrings(next.WorkItems[2].NodeIDs, []string{}) ||
		next.WorkItems[0].UpdatedAt != "u1" {
		t.Fatalf("work = %s", jsonOf(t, next.WorkItems))
	}
	if next.WorkItems[1] != b.WorkItems[1] {
		t.Fatal("an untouched item should be shared, not copied")
	}
	var ids []string
	for _, r := range next.Reviews {
		ids = append(ids, r.ID)
	}
	if !eqStrings(ids, []string{"r1", "r3"}) {
		t.Fatalf("reviews = %v", ids)
	}

	// Focus stays when the primary is not the node; a node nobody uses
	// touches nothing.
	b.Focus = Focus{NodeIDs: []string{"F", "N"}, PrimaryNodeID: sp("F")}
	next, o = OrphanBoard(b, "N")
	if !eqStrings(next.Focus.NodeIDs, []string{"F"}) || deref(next.Focus.PrimaryNodeID) != "F" || !o.Focus {
		t.Fatalf("focus = %s", jsonOf(t, next.Focus))
	}
	next, o = OrphanBoard(b, "ghost")
	if o.Any() || jsonOf(t, next) != jsonOf(t, b) {
		t.Fatalf("unused node changed the board: %+v", o)
	}
}

func TestOrphanGates(t *testing.T) {
	_, g := orphanFixture()
	before := jsonOf(t, g)
	next, ids := OrphanGates(g, "N")
	unchanged(t, before, g)
	if !eqStrings(ids, []string{"a1", "e1", "m1"}) {
		t.Fatalf("ids = %v", ids)
	}
	if len(next.Approvals[0].NodeIDs) != 0 || !eqStrings(next.Elicitations[0].NodeIDs, []string{"S"}) || len(next.Modes[0].NodeIDs) != 0 {
		t.Fatalf("gates = %s", jsonOf(t, next))
	}
	if next.Approvals[1] != g.Approvals[1] {
		t.Fatal("untouched gate copied")
	}
	_, ids = OrphanGates(g, "ghost")
	if len(ids) != 0 {
		t.Fatalf("ids = %v", ids)
	}
}

func TestOrphanRestoreRoundTrip(t *testing.T) {
	b, g := orphanFixture()
	ob, o := OrphanBoard(b, "N")
	og, gateIDs := OrphanGates(g, "N")
	// The actor records the gate ids after the work items (ax.md §11.1 order).
	o.ReanchoredIDs = append(o.ReanchoredIDs, gateIDs...)

	beforeB, beforeG := jsonOf(t, ob), jsonOf(t, og)
	rb := RestoreBoard(ob, o)
	rg := RestoreGates(og, "N", gateIDs)
	unchanged(t, beforeB, ob)
	unchanged(t, beforeG, og)

	if got, want := jsonOf(t, rb), jsonOf(t, b); got != want {
		t.Fatalf("board not restored\n got %s\nwant %s", got, want)
	}
	if got, want := jsonOf(t, rg), jsonOf(t, g); got != want {
		t.Fatalf("gates not restored\n got %s\nwant %s", got, want)
	}

	// Restoring twice changes nothing more.
	if jsonOf(t, RestoreBoard(rb, o)) != jsonOf(t, b) || jsonOf(t, RestoreGates(rg, "N", gateIDs)) != jsonOf(t, g) {
		t.Fatal("restore is not idempotent")
	}
}

func TestRestoreOnlyTouchesSurvivors(t *testing.T) {
	b, _ := orphanFixture()
	ob, o := OrphanBoard(b, "N")
	// After deletion: w3 is gone, r2 was re-added by someone else, a new review exists.
	ob.WorkItems = ob.WorkItems[:2]
	ob.Reviews = append(ob.Reviews, &ReviewAnnotation{ID: "r9", AnchorType: "file"}, b.Reviews[1])
	rb := RestoreBoard(ob, o)
	if len(rb.WorkItems) != 2 || !eqStrings(rb.WorkItems[0].NodeIDs, []string{"F", "N", "S"}) {
		t.Fatalf("work = %s", jsonOf(t, rb.WorkItems))
	}
	var ids []string
	for _, r := range rb.Reviews {
		ids = append(ids, r.ID)
	}
	// r2 already exists, so only r4 is re-added (at its old index 3).
	if !eqStrings(ids, []string{"r1", "r3", "r9", "r4", "r2"}) {
		t.Fatalf("reviews = %v", ids)
	}

	// A hand-built Orphaned (no positions) appends.
	hand := Orphaned{NodeID: "N", ReanchoredIDs: []string{"w2"}, Focus: true}
	rb = RestoreBoard(ob, hand)
	if !eqStrings(rb.WorkItems[1].NodeIDs, []string{"F", "N"}) || !eqStrings(rb.Focus.NodeIDs, []string{"F", "N"}) || deref(rb.Focus.PrimaryNodeID) != "F" {
		t.Fatalf("hand restore = %s", jsonOf(t, rb))
	}
	if got := RestoreGates(EmptyGates(), "N", nil); len(got.Approvals) != 0 {
		t.Fatal("restore of nothing added gates")
	}
}

func TestOrphanNote(t *testing.T) {
	b, g := orphanFixture()
	_, o := OrphanBoard(b, "N")
	_, gateIDs := OrphanGates(g, "N")
	o.ReanchoredIDs = append(o.ReanchoredIDs, gateIDs...)
	e := OrphanNote("Auth module", o, testEnv())
	want := `{"id":"` + id("evt", 1) + `","seq":0,"kind":"note",` +
		`"summary":"Node \"Auth module\" deleted — re-anchored 5 AX item(s), removed 2 node-anchored review annotation(s). (focus anchor cleared)",` +
		`"detail":null,"nodeIds":[],"data":{"reanchoredFocus":true,"reanchoredIds":["w1","w3","a1","e1","m1"],` +
		`"removedNodeId":"N","removedReviewIds":["r2","r4"],"systemEvent":"ax-node-orphan"},"createdAt":"` + ts0 + `","source":"system"}`
	if got := jsonOf(t, e); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}

	e = OrphanNote("", Orphaned{NodeID: "node-x", ReanchoredIDs: []string{"w1"}}, testEnv())
	wantSummary := `Node "node-x" deleted — re-anchored 1 AX item(s), removed 0 node-anchored review annotation(s).`
	if e.Summary != wantSummary {
		t.Fatalf("summary %q", e.Summary)
	}
	if jsonOf(t, e.Data) != `{"reanchoredFocus":false,"reanchoredIds":["w1"],"removedNodeId":"node-x","removedReviewIds":[],"systemEvent":"ax-node-orphan"}` {
		t.Fatalf("data = %s", jsonOf(t, e.Data))
	}
}

func TestOrphanedAny(t *testing.T) {
	for _, tc := range []struct {
		o    Orphaned
		want bool
	}{
		{Orphaned{NodeID: "x"}, false},
		{Orphaned{Focus: true}, true},
		{Orphaned{ReanchoredIDs: []string{"w"}}, true},
		{Orphaned{RemovedReviews: []*ReviewAnnotation{{ID: "r"}}}, true},
	} {
		if tc.o.Any() != tc.want {
			t.Errorf("%+v.Any() = %v", tc.o, !tc.want)
		}
	}
}
