package canvas

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// layoutJSON is everything undo must restore: nodes (with group membership
// and order), edges, annotations, pins and viewport.
func layoutJSON(t *testing.T, s *State) string {
	t.Helper()
	b, err := json.Marshal(struct {
		L    Layout
		Pins []string
	}{s.RawLayout(), s.Pins})
	if err != nil {
		t.Fatal(err)
	}
	// The revision moves forward on undo too; it is not part of the layout.
	return strings.Replace(string(b), fmt.Sprintf(`"revision":%d`, s.Revision), `"revision":_`, 1)
}

// apply runs one operation on state and commits it, like the Layout actor.
func apply(s *State, env *Env, op func(tx *Tx) error) (*State, bool) {
	tx := Begin(s, env)
	if err := op(tx); err != nil {
		return s, false
	}
	next, ch, _ := tx.Commit()
	if !ch.LayoutChanged() {
		return s, false
	}
	return next, true
}

func errOf(e *messages.Error) error {
	if e == nil {
		return nil
	}
	return e
}

// randomMutation picks one valid-looking mutation; it may still fail (for
// example grouping a node twice), and then it is simply not counted.
func randomMutation(r *rand.Rand, s *State) func(tx *Tx) error {
	nodes := s.Nodes.All()
	pick := func() *Node { return nodes[r.IntN(len(nodes))] }
	pickID := func() string { return pick().ID }
	num := func(lo, hi int) float64 { return float64(lo + r.IntN(hi-lo)) }
	switch k := r.IntN(16); {
	case k < 3 || len(nodes) < 4:
		types := []string{"markdown", "status", "ledger", "trace", "html", "context"}
		typ := types[r.IntN(len(types))]
		title := fmt.Sprintf("n%d", r.IntN(1000))
		in := &messages.NodeAddInput{Type: typ, Title: &title}
		if r.IntN(2) == 0 {
			x, y := num(-500, 4000), num(-500, 4000)
			in.X, in.Y = &x, &y
		}
		return func(tx *Tx) error { _, err := AddNode(tx, in, AddOptions{}); return errOf(err) }
	case k == 3:
		x, y, w := num(-200, 3000), num(-200, 3000), num(50, 900)
		title := "moved"
		in := &messages.NodeUpdateInput{ID: pickID(), Title: &title}
		in.X, in.Y, in.Width = &x, &y, &w
		return func(tx *Tx) error { _, err := UpdateNode(tx, in); return errOf(err) }
	case k == 4:
		id := pickID()
		return func(tx *Tx) error { return errOf(RemoveNode(tx, id)) }
	case k == 5:
		from, to := pickID(), pickID()
		types := EdgeTypes
		in := &messages.EdgeAddInput{Type: types[r.IntN(len(types))], From: &from, To: &to}
		return func(tx *Tx) error { _, err := AddEdge(tx, in); return errOf(err) }
	case k == 6:
		edges := s.Edges.All()
		if len(edges) == 0 {
			return nil
		}
		id := edges[r.IntN(len(edges))].ID
		return func(tx *Tx) error { return errOf(RemoveEdge(tx, id)) }
	case k == 7:
		ids := []string{pickID(), pickID()}
		in := &messages.GroupCreateInput{ChildIDs: ids}
		if r.IntN(2) == 0 {
			layout := ChildLayouts[r.IntN(3)]
			in.ChildLayout = &layout
		}
		return func(tx *Tx) error { _, err := GroupCreate(tx, in); return errOf(err) }
	case k == 8:
		var groups []*Node
		for _, n := range nodes {
			if n.Type == "group" {
				groups = append(groups, n)
			}
		}
		if len(groups) == 0 {
			return nil
		}
		g := groups[r.IntN(len(groups))]
		if r.IntN(2) == 0 {
			in := &messages.GroupAddInput{GroupID: g.ID, ChildIDs: []string{pickID()}}
			return func(tx *Tx) error { _, err := GroupAdd(tx, in); return errOf(err) }
		}
		return func(tx *Tx) error { return errOf(Ungroup(tx, g.ID)) }
	case k == 9:
		mode := []string{"set", "add", "remove"}[r.IntN(3)]
		in := &messages.PinSetInput{NodeIDs: []string{pickID(), pickID()}, Mode: &mode}
		return func(tx *Tx) error { _, err := SetContextPins(tx, in); return errOf(err) }
	case k == 10:
		x, y, sc := num(-1000, 1000), num(-1000, 1000), 0.25+r.Float64()
		in := &messages.ViewportInput{X: &x, Y: &y, Scale: &sc}
		return func(tx *Tx) error { return errOf(SetViewport(tx, in)) }
	case k == 11:
		typ := "freehand"
		in := &messages.AnnotationAddInput{Type: &typ, Points: []any{
			map[string]any{"x": num(0, 500), "y": num(0, 500)}, map[string]any{"x": num(0, 500), "y": num(0, 500)}}}
		return func(tx *Tx) error { _, err := AddAnnotation(tx, in); return errOf(err) }
	case k == 12:
		anns := s.Annotations.All()
		if len(anns) == 0 {
			return nil
		}
		id := anns[r.IntN(len(anns))].ID
		return func(tx *Tx) error { return errOf(RemoveAnnotation(tx, id)) }
	case k == 13:
		var ups []messages.GeometryUpdate
		for i := 0; i < 3; i++ {
			x, y := num(0, 3000), num(0, 3000)
			ups = append(ups, messages.GeometryUpdate{ID: pickID(), Position: &messages.PointInput{X: &x, Y: &y}})
		}
		return func(tx *Tx) error { ApplyUpdates(tx, &messages.UpdateInput{Updates: ups}); return nil }
	case k == 14:
		noPan := r.IntN(2) == 0
		in := &messages.FocusInput{ID: pickID(), NoPan: &noPan}
		return func(tx *Tx) error { _, err := Focus(tx, in); return errOf(err) }
	default:
		if r.IntN(8) == 0 {
			return func(tx *Tx) error { Clear(tx); return nil }
		}
		return func(tx *Tx) error { _, err := Fit(tx, &messages.FitInput{}); return errOf(err) }
	}
}

// 200 random mutations, then undo all: the initial layout exactly; redo all:
// the final layout exactly — groups, pins, edges and order included.
func TestUndoRedoRoundTripProperty(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			env := testEnv()
			tx := Begin(NewState(), env)
			SeedDockedWidgets(tx)
			for i := 0; i < 6; i++ {
				mustAdd(t, tx, `{"type":"markdown"}`)
			}
			s, _, _ := tx.Commit()
			s.History = History{} // the seed is the starting point
			initial := layoutJSON(t, s)

			applied := 0
			for attempts := 0; applied < HistoryLimit && attempts < 5000; attempts++ {
				op := randomMutation(r, s)
				if op == nil {
					continue
				}
				var ok bool
				if s, ok = apply(s, env, op); ok {
					applied++
				}
			}
			if applied != HistoryLimit || s.History.Len() != HistoryLimit {
				t.Fatalf("applied %d mutations, history has %d entries", applied, s.History.Len())
			}
			final := layoutJSON(t, s)

			for i := 0; i < applied; i++ {
				var ok bool
				s, ok = apply(s, env, func(tx *Tx) error {
					if _, done := Undo(tx); !done {
						return fmt.Errorf("nothing to undo at step %d", i)
					}
					return nil
				})
				if !ok {
					t.Fatalf("undo %d failed", i)
				}
			}
			if got := layoutJSON(t, s); got != initial {
				t.Fatalf("undo all did not restore the initial layout:\ngot  %s\nwant %s", got, initial)
			}
			if tx := Begin(s, env); func() bool { _, ok := Undo(tx); return ok }() {
				t.Fatal("undo past the first entry must report nothing to undo")
			}
			for i := 0; i < applied; i++ {
				s, _ = apply(s, env, func(tx *Tx) error { _, _ = Redo(tx); return nil })
			}
			if got := layoutJSON(t, s); got != final {
				t.Fatalf("redo all did not restore the final layout")
			}
		})
	}
}

func TestHistoryRecordsDescriptionsAndAgent(t *testing.T) {
	env := testEnv()
	s := NewState()
	s, _ = apply(s, env, func(tx *Tx) error {
		tx.SetAgent("claude")
		_, err := AddNode(tx, decode[messages.NodeAddInput](t, `{"type":"markdown","title":"Plan"}`), AddOptions{})
		return errOf(err)
	})
	id := s.Nodes.All()[0].ID
	s, _ = apply(s, env, func(tx *Tx) error {
		_, err := UpdateNode(tx, decode[messages.NodeUpdateInput](t, `{"id":"`+id+`","x":5}`))
		return errOf(err)
	})
	s, _ = apply(s, env, func(tx *Tx) error { return errOf(SetTheme(tx, "light")) })
	v := s.History.View(nil2utc(), s.Revision)
	if len(v.Entries) != 2 {
		t.Fatalf("theme changes are not recorded; entries = %+v", v.Entries)
	}
	if v.Entries[0].Description != `Added markdown node "Plan"` || v.Entries[0].OperationType != "addNode" || v.Entries[0].Agent != "claude" {
		t.Fatalf("entry 0 = %+v", v.Entries[0])
	}
	if v.Entries[1].Description != `Updated node "Plan"` || !v.Entries[1].IsCurrent || !v.CanUndo || v.CanRedo {
		t.Fatalf("entry 1 = %+v", v)
	}
	if !strings.HasPrefix(v.Text, "Canvas History (2 mutations, position 2/2)") || !strings.Contains(v.Text, "(by claude)") ||
		!strings.HasSuffix(v.Text, "Can undo: yes | Can redo: no") {
		t.Fatalf("text = %q", v.Text)
	}
	if NewState().History.View(nil2utc(), 0).Text != "Canvas History: empty (no mutations recorded this session)" {
		t.Fatal("empty history text")
	}
}

func TestHistoryKeeps200(t *testing.T) {
	env := testEnv()
	s := NewState()
	for i := 0; i < 250; i++ {
		s, _ = apply(s, env, func(tx *Tx) error {
			_, err := AddNode(tx, &messages.NodeAddInput{Type: "status"}, AddOptions{})
			return errOf(err)
		})
	}
	if s.History.Len() != HistoryLimit {
		t.Fatalf("history has %d entries", s.History.Len())
	}
}

func nil2utc() *time.Location { return time.UTC }
