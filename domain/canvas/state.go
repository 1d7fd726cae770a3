package canvas

import (
	"github.com/pmxcanvas/pmx-canvas/internal/trie"
)

// NodeSet is the persistent set of nodes in layout order, with a spatial index.
type NodeSet struct {
	items ordered[Node]
	index grid
	// maxBottom is the largest y+height; bottomStale says it must be found
	// again (after the bottom-most node moved up or left).
	maxBottom   float64
	bottomStale bool
	// full remembers a row scan that found the top rows full (placement);
	// a put or delete inside the area it read forgets it.
	full *rowsFull
}

// NewNodeSet returns an empty set.
func NewNodeSet() NodeSet { return NodeSet{} }

// Get returns the node with id.
func (s NodeSet) Get(id string) (*Node, bool) { return s.items.get(id) }

// Len returns the number of nodes.
func (s NodeSet) Len() int { return s.items.len() }

// Each calls fn for every node in layout order until fn returns false.
func (s NodeSet) Each(fn func(*Node) bool) { s.items.each(fn) }

// All returns the nodes in layout order.
func (s NodeSet) All() []*Node { return s.items.slice() }

// Last returns the node latest in layout order.
func (s NodeSet) Last() (*Node, bool) { return s.items.last() }

// LastWhere returns the node latest in layout order for which keep is true.
func (s NodeSet) LastWhere(keep func(*Node) bool) (*Node, bool) { return s.items.lastWhere(keep) }

// Put inserts or replaces n (keyed by n.ID, ordered by n.Ord).
func (s NodeSet) Put(n *Node) NodeSet {
	if n.cache == nil {
		n.cache = &nodeCache{}
	}
	idx := s.index
	next := NodeSet{maxBottom: s.maxBottom, bottomStale: s.bottomStale, full: s.full.unless(n)}
	if old, ok := s.items.get(n.ID); ok {
		next.full = next.full.unless(old)
		idx = idx.remove(old)
		if old.Rect().Bottom() >= s.maxBottom {
			next.bottomStale = true
		}
	}
	next.items, next.index = s.items.put(n.ID, n.Ord, n), idx.insert(n)
	switch b := n.Rect().Bottom(); {
	case next.bottomStale:
		next.maxBottom, _ = next.MaxBottom() // one scan, then incremental again
		next.bottomStale = false
	case b > next.maxBottom || next.items.len() == 1:
		next.maxBottom = b
	}
	return next
}

// Delete removes the node with id.
func (s NodeSet) Delete(id string) NodeSet {
	old, ok := s.items.get(id)
	if !ok {
		return s
	}
	stale := s.bottomStale || old.Rect().Bottom() >= s.maxBottom
	return NodeSet{items: s.items.delete(id), index: s.index.remove(old), maxBottom: s.maxBottom, bottomStale: stale,
		full: s.full.unless(old)}
}

// Overlapping returns the nodes whose box overlaps r inflated by gap, in
// layout order. It uses the spatial index, so its cost follows the number of
// nearby nodes, not the size of the canvas.
func (s NodeSet) Overlapping(r Rect, gap float64) []*Node {
	return s.appendOverlapping(nil, r, gap)
}

// visitOverlapping calls fn for each node overlapping r inflated by gap
// until fn returns false: in no particular order and possibly more than
// once, for callers that need neither (placement), without allocating.
func (s NodeSet) visitOverlapping(r Rect, gap float64, fn func(*Node) bool) {
	if s.items.len() == 0 || s.index.visit(r, gap, fn) {
		return
	}
	s.Each(func(n *Node) bool { return !r.OverlapsWithGap(n.Rect(), gap) || fn(n) })
}

// appendOverlapping is Overlapping appending to dst (a caller probing many
// boxes reuses one buffer).
func (s NodeSet) appendOverlapping(dst []*Node, r Rect, gap float64) []*Node {
	if s.items.len() == 0 {
		return dst
	}
	out, ok := s.index.appendOverlapping(dst, r, gap)
	if ok {
		return out
	}
	s.Each(func(n *Node) bool {
		if r.OverlapsWithGap(n.Rect(), gap) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// MaxBottom returns the largest y+height of any node. It is kept as nodes
// are added; only after the bottom-most node moved up or went away does it
// take one scan.
func (s NodeSet) MaxBottom() (float64, bool) {
	if s.items.len() == 0 {
		return 0, false
	}
	if !s.bottomStale {
		return s.maxBottom, true
	}
	first, max := true, 0.0
	s.Each(func(n *Node) bool {
		if b := n.Rect().Bottom(); first || b > max {
			first, max = false, b
		}
		return true
	})
	return max, true
}

// EdgeSet is the persistent set of edges in creation order, indexed by the
// nodes they touch.
type EdgeSet struct {
	items  ordered[Edge]
	byNode trie.Hash[string, []string]
}

// NewEdgeSet returns an empty set.
func NewEdgeSet() EdgeSet {
	return EdgeSet{}
}

// Get returns the edge with id.
func (s EdgeSet) Get(id string) (*Edge, bool) { return s.items.get(id) }

// Len returns the number of edges.
func (s EdgeSet) Len() int { return s.items.len() }

// All returns the edges in creation order.
func (s EdgeSet) All() []*Edge { return s.items.slice() }

// Each calls fn for every edge in order until fn returns false.
func (s EdgeSet) Each(fn func(*Edge) bool) { s.items.each(fn) }

// Touching returns the ids of edges whose from or to is nodeID.
func (s EdgeSet) Touching(nodeID string) []string {
	ids, _ := s.byNode.Get(nodeID)
	return ids
}

// Put inserts or replaces e.
func (s EdgeSet) Put(e *Edge) EdgeSet {
	if old, ok := s.items.get(e.ID); ok {
		s = s.Delete(old.ID)
	}
	byNode := addToIndex(s.byNode, e.From, e.ID)
	if e.To != e.From {
		byNode = addToIndex(byNode, e.To, e.ID)
	}
	return EdgeSet{items: s.items.put(e.ID, e.Ord, e), byNode: byNode}
}

// Delete removes the edge with id.
func (s EdgeSet) Delete(id string) EdgeSet {
	old, ok := s.items.get(id)
	if !ok {
		return s
	}
	byNode := removeFromIndex(s.byNode, old.From, id)
	byNode = removeFromIndex(byNode, old.To, id)
	return EdgeSet{items: s.items.delete(id), byNode: byNode}
}

func addToIndex(m trie.Hash[string, []string], key, id string) trie.Hash[string, []string] {
	old, _ := m.Get(key)
	next := make([]string, len(old), len(old)+1)
	copy(next, old)
	return m.Set(key, append(next, id))
}

func removeFromIndex(m trie.Hash[string, []string], key, id string) trie.Hash[string, []string] {
	old, ok := m.Get(key)
	if !ok {
		return m
	}
	next := make([]string, 0, len(old))
	for _, e := range old {
		if e != id {
			next = append(next, e)
		}
	}
	if len(next) == 0 {
		return m.Delete(key)
	}
	return m.Set(key, next)
}

// AnnotationSet is the persistent set of annotations in creation order.
type AnnotationSet struct{ items ordered[Annotation] }

// NewAnnotationSet returns an empty set.
func NewAnnotationSet() AnnotationSet { return AnnotationSet{} }

// Get returns the annotation with id.
func (s AnnotationSet) Get(id string) (*Annotation, bool) { return s.items.get(id) }

// Len returns the number of annotations.
func (s AnnotationSet) Len() int { return s.items.len() }

// All returns the annotations in order.
func (s AnnotationSet) All() []*Annotation { return s.items.slice() }

// Put inserts or replaces a.
func (s AnnotationSet) Put(a *Annotation) AnnotationSet {
	return AnnotationSet{items: s.items.put(a.ID, a.Ord, a)}
}

// Delete removes the annotation with id.
func (s AnnotationSet) Delete(id string) AnnotationSet {
	return AnnotationSet{items: s.items.delete(id)}
}

// State is one canvas at one revision. It is a value of persistent parts:
// copying it is cheap and a published *State is never changed, so readers
// use it without locks while the Layout actor builds the next one.
type State struct {
	// Revision counts committed mutations of the canvas.
	Revision    uint64
	Viewport    Viewport
	Theme       string
	Nodes       NodeSet
	Edges       EdgeSet
	Annotations AnnotationSet
	// Pins are the context-pinned node ids, in pin order. Never mutate.
	Pins []string
	// NextOrd is the next free layout ordinal.
	NextOrd uint64
	// Populated is set once the canvas has been written (seeded or used);
	// a never-populated canvas gets the default docked widgets.
	Populated bool
	// Snapshots are the canvas's saved snapshots (metadata; the content is
	// loaded from the store when needed).
	Snapshots SnapshotSet
	// History is the undo/redo log of this process (not persisted).
	History History
}

// NewState returns an empty canvas at revision 0.
func NewState() *State {
	return &State{
		Viewport:    DefaultViewport,
		Theme:       Themes[0],
		Nodes:       NewNodeSet(),
		Edges:       NewEdgeSet(),
		Annotations: NewAnnotationSet(),
		Snapshots:   NewSnapshotSet(),
		NextOrd:     1,
	}
}

// IsPinned reports whether id is context-pinned.
func (s *State) IsPinned(id string) bool { return contains(s.Pins, id) }
