package canvas

import (
	"fmt"
	"testing"
)

// TestOldNodeSetsStayIntact: a NodeSet is a value readers keep (published
// views, event frames); later puts, moves and deletes on a newer set must
// not show through it, in its list or its spatial index.
func TestOldNodeSetsStayIntact(t *testing.T) {
	s := NewNodeSet()
	for i := range 200 {
		s = s.Put(&Node{ID: fmt.Sprint("n", i), Position: Point{float64(i%20) * 400, float64(i/20) * 300},
			Size: Size{360, 200}, Ord: uint64(i + 1), Data: map[string]any{}})
	}
	old := s
	probe := Rect{0, 0, 2000, 1000}
	before := old.Overlapping(probe, 0)
	for i := range 200 {
		id := fmt.Sprint("n", i)
		if i%2 == 0 {
			s = s.Delete(id)
			continue
		}
		n, _ := s.Get(id)
		c := n.Clone()
		c.Position = Point{-5000, -5000}
		s = s.Put(c)
	}
	if old.Len() != 200 || s.Len() != 100 {
		t.Fatalf("Len old %d new %d, want 200 and 100", old.Len(), s.Len())
	}
	after := old.Overlapping(probe, 0)
	if len(after) != len(before) || len(before) == 0 {
		t.Fatalf("old set's index found %d nodes before the changes, %d after", len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("old set's result %d changed: %s → %s", i, before[i].ID, after[i].ID)
		}
	}
	if got := s.Overlapping(probe, 0); len(got) != 0 {
		t.Fatalf("new set still finds %d nodes where every node moved away or was deleted", len(got))
	}
	if n, _ := old.Get("n1"); n.Position != (Point{400, 0}) {
		t.Fatalf("old set's n1 moved to %v", n.Position)
	}
}
