package canvas

import (
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func groupFixture(t *testing.T) (*Tx, *Node, *Node) {
	t.Helper()
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"status","x":100,"y":200,"width":360,"height":200}`)
	b := mustAdd(t, tx, `{"type":"status","x":520,"y":260,"width":300,"height":240}`)
	return tx, a, b
}

func node(t *testing.T, tx *Tx, id string) *Node {
	t.Helper()
	n, ok := tx.Node(id)
	if !ok {
		t.Fatalf("node %s missing", id)
	}
	return n
}

func TestGroupCreateFitsAndKeepsPositions(t *testing.T) {
	tx, a, b := groupFixture(t)
	g, err := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{a.ID, b.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Rect() != (Rect{44, 112, 832, 444}) || g.Data["frameMode"] != "fit" || g.Data["title"] != "Group" {
		t.Fatalf("group %v %v", g.Rect(), g.Data)
	}
	if node(t, tx, a.ID).Position != a.Position || node(t, tx, a.ID).ParentGroup() != g.ID {
		t.Fatal("members keep their positions and point at the group")
	}
	if _, err := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{"ghost", "x"}}); err == nil ||
		err.Message != "Cannot create group: missing child node ID(s): ghost, x." {
		t.Fatalf("missing children: %v", err)
	}
	if _, err := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{g.ID}}); err == nil || !strings.Contains(err.Message, "Invalid group child") {
		t.Fatalf("groups do not nest: %v", err)
	}
}

func TestManualFrameColumnLayout(t *testing.T) {
	tx, a, b := groupFixture(t)
	x, y, w, h := 0.0, 3000.0, 800.0, 1200.0
	layout := "column"
	g, err := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{a.ID, b.ID}, X: &x, Y: &y, Width: &w, Height: &h, ChildLayout: &layout})
	if err != nil {
		t.Fatal(err)
	}
	if g.Rect() != (Rect{0, 3000, 800, 1200}) || g.Data["frameMode"] != "manual" {
		t.Fatalf("manual frame moved: %v", g.Rect())
	}
	if p := node(t, tx, a.ID).Position; p != (Point{56, 3088}) {
		t.Fatalf("first member at %v, want (56,3088)", p)
	}
	if p := node(t, tx, b.ID).Position; p != (Point{56, 3088 + 200 + 24}) {
		t.Fatalf("second member at %v", p)
	}
}

func TestMovingAGroupMovesMembersAndMemberMovesRefit(t *testing.T) {
	tx, a, b := groupFixture(t)
	g, _ := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{a.ID, b.ID}})
	x, y := 144.0, 212.0
	if _, err := UpdateNode(tx, &messages.NodeUpdateInput{ID: g.ID, Geometry: messages.Geometry{X: &x, Y: &y}}); err != nil {
		t.Fatal(err)
	}
	if p := node(t, tx, a.ID).Position; p != (Point{200, 300}) {
		t.Fatalf("member not translated with its group: %v", p)
	}
	// Moving a member refits the fit frame; the sibling stays.
	nx := 1000.0
	if _, err := UpdateNode(tx, &messages.NodeUpdateInput{ID: b.ID, Geometry: messages.Geometry{X: &nx}}); err != nil {
		t.Fatal(err)
	}
	gr := node(t, tx, g.ID)
	if gr.Rect().Right() != 1000+300+GroupPad {
		t.Fatalf("frame not refitted: %v", gr.Rect())
	}
	if node(t, tx, a.ID).Position != (Point{200, 300}) {
		t.Fatal("a sibling must not be repacked")
	}
	// Removing a member refits the frame around the rest.
	if err := RemoveNode(tx, b.ID); err != nil {
		t.Fatal(err)
	}
	gr = node(t, tx, g.ID)
	if gr.Rect() != (Rect{200 - GroupPad, 300 - GroupPad - GroupTitlebar, 360 + 2*GroupPad, 200 + 2*GroupPad + GroupTitlebar}) {
		t.Fatalf("frame after member removal: %v", gr.Rect())
	}
}

func TestANodeBelongsToOneGroup(t *testing.T) {
	tx, a, b := groupFixture(t)
	g1, _ := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{a.ID, b.ID}})
	c := mustAdd(t, tx, `{"type":"status","x":3000,"y":3000}`)
	g2, _ := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{c.ID}})
	if _, err := GroupAdd(tx, &messages.GroupAddInput{GroupID: g2.ID, ChildIDs: []string{a.ID}}); err != nil {
		t.Fatal(err)
	}
	if got := node(t, tx, g1.ID).Children(); len(got) != 1 || got[0] != b.ID {
		t.Fatalf("old group still lists the moved member: %v", got)
	}
	if node(t, tx, a.ID).ParentGroup() != g2.ID {
		t.Fatal("member points at its new group")
	}
	errs := []struct {
		in   messages.GroupAddInput
		want string
	}{
		{messages.GroupAddInput{}, "Missing groupId or childIds."},
		{messages.GroupAddInput{GroupID: "nope", ChildIDs: []string{a.ID}}, "Group not found or no valid children."},
		{messages.GroupAddInput{GroupID: a.ID, ChildIDs: []string{b.ID}}, "Group not found or no valid children."},
		{messages.GroupAddInput{GroupID: g2.ID, ChildIDs: []string{"ghost"}}, "missing child node ID(s): ghost"},
	}
	for _, tc := range errs {
		if _, err := GroupAdd(tx, &tc.in); err == nil || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%+v: %v", tc.in, err)
		}
	}
}

func TestUngroupAndPatchChildren(t *testing.T) {
	tx, a, b := groupFixture(t)
	g, _ := GroupCreate(tx, &messages.GroupCreateInput{ChildIDs: []string{a.ID}})
	if _, err := UpdateNode(tx, decode[messages.NodeUpdateInput](t, `{"id":"`+g.ID+`","childIds":["`+b.ID+`"]}`)); err != nil {
		t.Fatal(err)
	}
	if node(t, tx, a.ID).ParentGroup() != "" || node(t, tx, b.ID).ParentGroup() != g.ID {
		t.Fatal("PATCH childIds replaces the member list")
	}
	if err := Ungroup(tx, g.ID); err != nil {
		t.Fatal(err)
	}
	if node(t, tx, b.ID).ParentGroup() != "" || len(node(t, tx, g.ID).Children()) != 0 {
		t.Fatal("ungroup releases members")
	}
	if err := Ungroup(tx, g.ID); err == nil || err.Message != "Group not found or empty." {
		t.Fatalf("ungroup of an empty group: %v", err)
	}
	if _, err := UpdateNode(tx, decode[messages.NodeUpdateInput](t, `{"id":"`+a.ID+`","childIds":["x"]}`)); err == nil {
		t.Fatal("childIds on a non-group node is an error")
	}
}
