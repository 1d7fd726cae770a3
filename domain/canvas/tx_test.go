package canvas

import (
	"fmt"
	"testing"
)

// Every record kind follows the same Put/Delete rules (one generic
// implementation): a new record gets a fresh ordinal, a replacement keeps
// the ordinal of the record it replaces, a change keeps the first Before and
// the last After per id, and deleting a missing id records nothing.
func TestPutAndDeleteRulesHoldForEveryKind(t *testing.T) {
	type ops struct {
		put    func(tx *Tx, id string, ord uint64)
		del    func(tx *Tx, id string)
		ord    func(s *State, id string) (uint64, bool)
		change func(c *Change) (n int, before, after bool)
	}
	kinds := map[string]ops{
		"node": {
			put:    func(tx *Tx, id string, ord uint64) { tx.PutNode(&Node{ID: id, Type: "markdown", Ord: ord}) },
			del:    func(tx *Tx, id string) { tx.DeleteNode(id) },
			ord:    func(s *State, id string) (uint64, bool) { return ordIn(s.Nodes.Get, id) },
			change: func(c *Change) (int, bool, bool) { return changed(c.Nodes) },
		},
		"edge": {
			put:    func(tx *Tx, id string, ord uint64) { tx.PutEdge(&Edge{ID: id, From: "a", To: "b", Ord: ord}) },
			del:    func(tx *Tx, id string) { tx.DeleteEdge(id) },
			ord:    func(s *State, id string) (uint64, bool) { return ordIn(s.Edges.Get, id) },
			change: func(c *Change) (int, bool, bool) { return changed(c.Edges) },
		},
		"annotation": {
			put:    func(tx *Tx, id string, ord uint64) { tx.PutAnnotation(&Annotation{ID: id, Ord: ord}) },
			del:    func(tx *Tx, id string) { tx.DeleteAnnotation(id) },
			ord:    func(s *State, id string) (uint64, bool) { return ordIn(s.Annotations.Get, id) },
			change: func(c *Change) (int, bool, bool) { return changed(c.Annotations) },
		},
		"snapshot": {
			put:    func(tx *Tx, id string, ord uint64) { tx.PutSnapshot(&Snapshot{ID: id, Ord: ord}) },
			del:    func(tx *Tx, id string) { tx.DeleteSnapshot(id) },
			ord:    func(s *State, id string) (uint64, bool) { return ordIn(s.Snapshots.Get, id) },
			change: func(c *Change) (int, bool, bool) { return changed(c.Snapshots) },
		},
	}
	for name, k := range kinds {
		t.Run(name, func(t *testing.T) {
			tx := Begin(NewState(), testEnv())
			k.put(tx, "x", 0)
			first, ok := k.ord(tx.State(), "x")
			if !ok || first == 0 {
				t.Fatalf("a new record got ordinal %d (present %v)", first, ok)
			}
			k.put(tx, "x", 0)
			if again, _ := k.ord(tx.State(), "x"); again != first {
				t.Fatalf("a replacement moved from ordinal %d to %d", first, again)
			}
			k.put(tx, "y", 42)
			if o, _ := k.ord(tx.State(), "y"); o != 42 {
				t.Fatalf("a given ordinal was not kept: %d", o)
			}
			k.del(tx, "missing")
			base, ch, _ := tx.Commit()
			if n, before, after := k.change(ch); n != 2 || before || !after {
				t.Fatalf("change: %d entries, first before %v after %v", n, before, after)
			}

			tx = Begin(base, testEnv())
			k.put(tx, "x", 0)
			k.del(tx, "x")
			k.del(tx, "x")
			next, ch, _ := tx.Commit()
			if _, ok := k.ord(next, "x"); ok {
				t.Fatal("deleted record still there")
			}
			if _, ok := k.ord(base, "x"); !ok {
				t.Fatal("the base state was modified")
			}
			if n, before, after := k.change(ch); n != 1 || !before || after {
				t.Fatalf("change after delete: %d entries, before %v after %v", n, before, after)
			}
		})
	}
}

// ordIn is the ordinal of the record with id, if there is one.
func ordIn[T record](get func(string) (T, bool), id string) (uint64, bool) {
	r, ok := get(id)
	if !ok {
		return 0, false
	}
	_, ord := r.key()
	return *ord, true
}

// changed counts the entries of a change list and reports whether its
// first entry has a Before and an After.
func changed[T comparable](list []RecordChange[T]) (n int, before, after bool) {
	if len(list) == 0 {
		return 0, false, false
	}
	var none T
	return len(list), list[0].Before != none, list[0].After != none
}

// A step that changes many records tracks each once, with its first before
// and its last after, on both sides of the switch from scanning to an index.
func TestTrackKeepsOneChangePerRecord(t *testing.T) {
	for _, n := range []int{1, trackScanMax - 1, trackScanMax, trackScanMax + 1, 3 * trackScanMax} {
		tx := Begin(NewState(), testEnv())
		for round := range 3 {
			for i := range n {
				tx.PutNode(&Node{ID: fmt.Sprint("n", i), Type: "markdown", Size: Size{10, 10}, Position: Point{float64(round), 0}, Data: map[string]any{}})
			}
		}
		_, ch, _ := tx.Commit()
		if len(ch.Nodes) != n {
			t.Fatalf("%d nodes put three times: %d changes, want %d", n, len(ch.Nodes), n)
		}
		for i, c := range ch.Nodes {
			if c.ID != fmt.Sprint("n", i) || c.Before != nil || c.After == nil || c.After.Position.X != 2 {
				t.Fatalf("%d nodes: change %d = %+v, want n%d from nothing to its last put", n, i, c, i)
			}
		}
	}
}
