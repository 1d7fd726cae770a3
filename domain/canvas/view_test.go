package canvas

import (
	"math"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestFitMath(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	mustAdd(t, tx, `{"type":"status","x":0,"y":0}`)
	mustAdd(t, tx, `{"type":"status","x":0,"y":224}`)
	res, err := Fit(tx, &messages.FitInput{})
	if err != nil {
		t.Fatal(err)
	}
	// Two stacked 360×200 nodes: bounds 360×424, centre (180,212), scale 1.
	if res.Viewport != (Viewport{X: 720 - 180, Y: 450 - 212, Scale: 1}) || res.NodeCount != 2 || *res.Bounds != (Bounds{0, 0, 360, 424}) {
		t.Fatalf("fit = %+v bounds %+v", res, res.Bounds)
	}
	w, h := 400.0, 300.0
	res, _ = Fit(tx, &messages.FitInput{Width: &w, Height: &h})
	wantScale := math.Min(400/(360+120.0), 300/(424+120.0))
	if math.Abs(res.Viewport.Scale-wantScale) > 1e-9 {
		t.Fatalf("scale %v want %v", res.Viewport.Scale, wantScale)
	}
	if _, err := Fit(tx, &messages.FitInput{NodeIDs: []string{"ghost"}}); err == nil || !strings.Contains(err.Message, "ghost") {
		t.Fatalf("unknown fit target: %v", err)
	}
	empty := Begin(NewState(), testEnv())
	if res, _ := Fit(empty, &messages.FitInput{}); res.NodeCount != 0 || res.Bounds != nil || res.Viewport != DefaultViewport {
		t.Fatalf("empty canvas fit = %+v", res)
	}
}

func TestFocusPansOrRaises(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"status","x":1000,"y":500}`)
	mustAdd(t, tx, `{"type":"status","x":0,"y":0}`)
	res, err := Focus(tx, &messages.FocusInput{ID: a.ID})
	if err != nil || !res.Panned {
		t.Fatalf("focus: %+v %v", res, err)
	}
	// The node's centre (1180,600) lands at the centre of a 1440×900 screen.
	if v := tx.State().Viewport; v.X != 720-1180 || v.Y != 450-600 {
		t.Fatalf("viewport %+v", v)
	}
	noPan := true
	if _, err := Focus(tx, &messages.FocusInput{ID: a.ID, NoPan: &noPan}); err != nil {
		t.Fatal(err)
	}
	if node(t, tx, a.ID).ZIndex != 2 {
		t.Fatalf("noPan raises the node: z=%d", node(t, tx, a.ID).ZIndex)
	}
	if _, err := Focus(tx, &messages.FocusInput{}); err == nil || err.Message != "Missing id." {
		t.Fatal(err)
	}
	if _, err := Focus(tx, &messages.FocusInput{ID: "x"}); err == nil || err.Status != 404 {
		t.Fatal(err)
	}
}

func TestApplyUpdatesCountsEverything(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"status","x":0,"y":0}`)
	b := mustAdd(t, tx, `{"type":"status","x":500,"y":0}`)
	x, neg := 10.0, -5.0
	res := ApplyUpdates(tx, &messages.UpdateInput{Updates: []messages.GeometryUpdate{
		{ID: a.ID, Position: &messages.PointInput{X: &x}},
		{ID: b.ID, Size: &messages.SizeInput{Width: &neg}},
		{ID: "ghost"},
		{ID: b.ID},
	}})
	if res.Applied != 1 || res.Dropped != 1 || res.Skipped != 2 || res.DroppedID[0] != b.ID {
		t.Fatalf("result %+v", res)
	}
	if tx.description != "Updated 1 node(s) (1 moved, 0 resized, 0 collapsed, 0 docked)" {
		t.Fatalf("description %q", tx.description)
	}
}

func TestPins(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"status"}`)
	b := mustAdd(t, tx, `{"type":"status"}`)
	set := func(mode string, ids ...string) (PinResult, *messages.Error) {
		return SetContextPins(tx, &messages.PinSetInput{NodeIDs: ids, Mode: &mode})
	}
	if r, err := set("set", a.ID, a.ID); err != nil || r.Count != 1 {
		t.Fatalf("%+v %v", r, err)
	}
	if r, _ := set("add", b.ID); strings.Join(r.NodeIDs, ",") != a.ID+","+b.ID {
		t.Fatalf("add keeps order: %v", r.NodeIDs)
	}
	if r, _ := set("remove", a.ID); strings.Join(r.NodeIDs, ",") != b.ID {
		t.Fatalf("remove: %v", r.NodeIDs)
	}
	if _, err := set("set", "ghost", a.ID); err == nil || !strings.Contains(err.Message, "unknown node ID(s): ghost") {
		t.Fatalf("unknown ids are named: %v", err)
	}
	if _, err := set("sideways", a.ID); err == nil {
		t.Fatal("bad mode")
	}
	var many []string
	for i := 0; i < 21; i++ {
		many = append(many, mustAdd(t, tx, `{"type":"status"}`).ID)
	}
	if _, err := set("set", many...); err == nil || !strings.Contains(err.Message, "at most 20") {
		t.Fatalf("21 pins: %v", err)
	}
}

func TestAnnotations(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	text := "hello"
	typ := "text"
	a, err := AddAnnotation(tx, &messages.AnnotationAddInput{Type: &typ, Text: &text, Points: []any{map[string]any{"x": 10.0, "y": 10.0}}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Bounds.W-74.4) > 1e-9 || math.Abs(a.Bounds.H-28.8) > 1e-9 || a.Bounds.Y != -14 || a.Label != "hello" || a.Color != "currentColor" {
		t.Fatalf("text annotation %+v", a)
	}
	red, width := "#ff0000", 99.0
	f, err := AddAnnotation(tx, &messages.AnnotationAddInput{Color: &red, Width: &width,
		Points: []any{map[string]any{"x": 0.0, "y": 0.0}, "junk", map[string]any{"x": 100.0, "y": 50.0}}})
	if err != nil || f.Bounds != (Rect{0, 0, 100, 50}) || f.Width != 24 || f.Color != "#ff0000" || f.Type != "freehand" {
		t.Fatalf("freehand %+v %v", f, err)
	}
	for _, tc := range []struct {
		in   messages.AnnotationAddInput
		want string
	}{
		{messages.AnnotationAddInput{Points: []any{map[string]any{"x": 1.0, "y": 1.0}}}, "Annotation requires at least two valid points."},
		{messages.AnnotationAddInput{Type: &typ}, "Text annotation requires a valid point."},
		{messages.AnnotationAddInput{Type: &typ, Points: []any{map[string]any{"x": 1.0, "y": 1.0}}}, "Text annotation requires text."},
	} {
		if _, err := AddAnnotation(tx, &tc.in); err == nil || err.Message != tc.want {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	if err := RemoveAnnotation(tx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := RemoveAnnotation(tx, a.ID); err == nil || err.Status != 404 {
		t.Fatal(err)
	}
}

func TestSnapshotsSaveFindListGC(t *testing.T) {
	env := testEnv()
	tx := Begin(NewState(), env)
	mustAdd(t, tx, `{"type":"status"}`)
	first, _ := SaveSnapshot(tx, " before ", nil)
	mustAdd(t, tx, `{"type":"status"}`)
	second, _ := SaveSnapshot(tx, "before", nil)
	third, _ := SaveSnapshot(tx, "after", nil)
	if first.Name != "before" || second.NodeCount != 2 {
		t.Fatalf("snapshots %+v %+v", first, second)
	}
	if _, err := SaveSnapshot(tx, "  ", nil); err == nil || err.Message != "Missing snapshot name" {
		t.Fatal(err)
	}
	st := tx.State()
	if sn, _ := st.Snapshots.Find("before"); sn.ID != second.ID {
		t.Fatal("a name finds the newest snapshot with it")
	}
	if sn, _ := st.Snapshots.Find(first.ID); sn.ID != first.ID {
		t.Fatal("an id finds its snapshot")
	}
	list := ListSnapshots(st, ListSnapshotsQuery{Query: "BEF"})
	if len(list) != 2 || list[0].ID != second.ID {
		t.Fatalf("list = %+v", list)
	}
	if len(ListSnapshots(st, ListSnapshotsQuery{Limit: 1})) != 1 || len(ListSnapshots(st, ListSnapshotsQuery{Query: "_"})) != 0 {
		t.Fatal("limit, and no SQL wildcards")
	}
	kept, deleted := GCSnapshots(tx, 1, true)
	if kept != 1 || len(deleted) != 2 || tx.State().Snapshots.Len() != 3 {
		t.Fatalf("dry run: kept %d deleted %v", kept, deleted)
	}
	_, deleted = GCSnapshots(tx, 1, false)
	if len(deleted) != 2 || tx.State().Snapshots.Len() != 1 {
		t.Fatalf("gc left %d", tx.State().Snapshots.Len())
	}
	if _, ok := tx.State().Snapshots.Get(third.ID); !ok {
		t.Fatal("gc keeps the newest")
	}
}

func TestRestoreSnapshotKeepsOrderAndIsOneStep(t *testing.T) {
	env := testEnv()
	s := NewState()
	var ids []string
	s, _ = apply(s, env, func(tx *Tx) error {
		for i := 0; i < 5; i++ {
			ids = append(ids, mustAdd(t, tx, `{"type":"status"}`).ID)
		}
		tx.SetPins([]string{ids[4], ids[0]})
		return nil
	})
	var sn *Snapshot
	s, _ = apply(s, env, func(tx *Tx) error { sn, _ = SaveSnapshot(tx, "five", nil); return nil })
	want := layoutJSON(t, s)
	s, _ = apply(s, env, func(tx *Tx) error {
		_ = RemoveNode(tx, ids[2])
		mustAdd(t, tx, `{"type":"markdown"}`)
		return nil
	})
	before := layoutJSON(t, s)
	s, _ = apply(s, env, func(tx *Tx) error { RestoreSnapshot(tx, sn); return nil })
	if got := layoutJSON(t, s); got != want {
		t.Fatalf("restore:\ngot  %s\nwant %s", got, want)
	}
	s, _ = apply(s, env, func(tx *Tx) error { Undo(tx); return nil })
	if got := layoutJSON(t, s); got != before {
		t.Fatal("undo of a restore brings the replaced layout back")
	}
}
