package canvas

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Snapshot is a saved copy of a canvas's layout: nodes, edges, annotations,
// context pins and viewport (not the theme, not history).
type Snapshot struct {
	ID        string
	Name      string
	CreatedAt string
	NodeCount int
	EdgeCount int
	// Bytes is the size of the saved content (its JSON); 0 for snapshots
	// saved before sizes were recorded.
	Bytes int
	Ord   uint64
	// Content is the saved layout. It is nil for snapshots loaded from the
	// store until a restore or diff loads it.
	Content *SnapshotContent
}

// SnapshotContent is what a snapshot holds.
type SnapshotContent struct {
	Nodes       []*Node
	Edges       []*Edge
	Annotations []*Annotation
	Pins        []string
	Viewport    Viewport
	// AX is the canvas-bound AX state saved with the layout, as JSON; the
	// canvas core does not interpret it.
	AX json.RawMessage
}

// State builds a canvas state holding the snapshot's layout (for diffs).
func (c *SnapshotContent) State() *State {
	s := NewState()
	for _, n := range c.Nodes {
		s.Nodes = s.Nodes.Put(n)
	}
	for _, e := range c.Edges {
		s.Edges = s.Edges.Put(e)
	}
	for _, a := range c.Annotations {
		s.Annotations = s.Annotations.Put(a)
	}
	s.Pins, s.Viewport = c.Pins, c.Viewport
	return s
}

// SnapshotMeta is a snapshot on the wire.
type SnapshotMeta struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"createdAt"`
	NodeCount int    `json:"nodeCount"`
	EdgeCount int    `json:"edgeCount"`
	// Bytes is the size of the saved content (absent when unknown).
	Bytes int `json:"bytes,omitempty"`
}

// Meta returns the wire form.
func (sn *Snapshot) Meta() SnapshotMeta {
	return SnapshotMeta{ID: sn.ID, Name: sn.Name, CreatedAt: sn.CreatedAt, NodeCount: sn.NodeCount, EdgeCount: sn.EdgeCount, Bytes: sn.Bytes}
}

// SnapshotSet holds a canvas's snapshots in creation order.
type SnapshotSet struct{ items ordered[Snapshot] }

// NewSnapshotSet returns an empty set.
func NewSnapshotSet() SnapshotSet { return SnapshotSet{} }

// Get returns the snapshot with id.
func (s SnapshotSet) Get(id string) (*Snapshot, bool) { return s.items.get(id) }

// Put inserts or replaces sn.
func (s SnapshotSet) Put(sn *Snapshot) SnapshotSet {
	return SnapshotSet{items: s.items.put(sn.ID, sn.Ord, sn)}
}

// Delete removes the snapshot with id.
func (s SnapshotSet) Delete(id string) SnapshotSet { return SnapshotSet{items: s.items.delete(id)} }

// Len returns the number of snapshots.
func (s SnapshotSet) Len() int { return s.items.len() }

// NewestFirst returns every snapshot, newest first.
func (s SnapshotSet) NewestFirst() []*Snapshot {
	all := s.items.slice()
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].CreatedAt != all[j].CreatedAt {
			return all[i].CreatedAt > all[j].CreatedAt
		}
		return all[i].Ord > all[j].Ord
	})
	return all
}

// Find resolves a snapshot by id, else by name. Names need not be unique:
// the newest snapshot with the name wins.
func (s SnapshotSet) Find(idOrName string) (*Snapshot, bool) {
	if sn, ok := s.Get(idOrName); ok {
		return sn, true
	}
	for _, sn := range s.NewestFirst() {
		if sn.Name == idOrName {
			return sn, true
		}
	}
	return nil, false
}

// SaveSnapshot saves the current layout under name, with ax (the
// canvas-bound AX state as JSON, or nil).
func SaveSnapshot(tx *Tx, name string, ax json.RawMessage) (*Snapshot, *messages.Error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, messages.BadRequest("Missing snapshot name")
	}
	st := tx.State()
	content := &SnapshotContent{
		Nodes: st.Nodes.All(), Edges: st.Edges.All(), Annotations: st.Annotations.All(),
		Pins: append([]string(nil), st.Pins...), Viewport: st.Viewport, AX: ax,
	}
	id := tx.env.NewID("snap", 4)
	for _, taken := st.Snapshots.Get(id); taken; _, taken = st.Snapshots.Get(id) {
		id = tx.env.NewID("snap", 4)
	}
	sn := &Snapshot{ID: id, Name: name, CreatedAt: tx.env.Timestamp(),
		NodeCount: len(content.Nodes), EdgeCount: len(content.Edges), Bytes: content.Size(), Content: content}
	tx.PutSnapshot(sn)
	return sn, nil
}

// Size is the size of the content's JSON (its nodes, edges, annotations,
// pins and viewport as the wire shows them, and the AX state).
func (c *SnapshotContent) Size() int {
	wire := struct {
		Nodes       []json.RawMessage `json:"nodes"`
		Edges       []any             `json:"edges"`
		Annotations []any             `json:"annotations"`
		Pins        []string          `json:"pins"`
		Viewport    Viewport          `json:"viewport"`
		AX          json.RawMessage   `json:"ax,omitempty"`
	}{Pins: c.Pins, Viewport: c.Viewport, AX: c.AX}
	for _, n := range c.Nodes {
		if b, err := json.Marshal(Raw(n, false)); err == nil {
			wire.Nodes = append(wire.Nodes, b)
		}
	}
	for _, e := range c.Edges {
		wire.Edges = append(wire.Edges, WireOfEdge(e))
	}
	for _, a := range c.Annotations {
		wire.Annotations = append(wire.Annotations, WireOfAnnotation(a))
	}
	b, _ := json.Marshal(wire)
	return len(b)
}

// SnapshotCaps bound a canvas's snapshots: at most Count of them and
// Bytes of saved content in all (0: no bound).
type SnapshotCaps struct {
	Count int
	Bytes int64
}

// CapSnapshots deletes the oldest snapshots until the canvas is within
// caps (the newest is always kept) and returns the deleted ones.
func CapSnapshots(tx *Tx, caps SnapshotCaps) []SnapshotMeta {
	all := tx.State().Snapshots.NewestFirst()
	var total int64
	deleted := []SnapshotMeta{}
	for i, sn := range all {
		total += int64(sn.Bytes)
		over := caps.Count > 0 && i >= caps.Count || caps.Bytes > 0 && total > caps.Bytes
		if i > 0 && over {
			deleted = append(deleted, sn.Meta())
			tx.DeleteSnapshot(sn.ID)
		}
	}
	return deleted
}

// SnapshotNotFound is the 404 of restore and delete.
func SnapshotNotFound() *messages.Error { return messages.NotFound("Snapshot not found") }

// RestoreSnapshot replaces the layout with sn's content (which the caller
// has loaded): nodes, edges, annotations, pins and viewport; the theme
// stays. Nodes come back in their saved order. One undoable step.
func RestoreSnapshot(tx *Tx, sn *Snapshot) {
	content := sn.Content
	st := tx.State()
	keepNodes := make(map[string]bool, len(content.Nodes))
	for _, n := range content.Nodes {
		keepNodes[n.ID] = true
	}
	for _, n := range st.Nodes.All() {
		if !keepNodes[n.ID] {
			tx.DeleteNode(n.ID)
		}
	}
	for _, n := range content.Nodes {
		if cur, ok := tx.Node(n.ID); !ok || cur != n {
			tx.PutNode(n)
		}
	}
	keepEdges := make(map[string]bool, len(content.Edges))
	for _, e := range content.Edges {
		keepEdges[e.ID] = true
	}
	for _, e := range st.Edges.All() {
		if !keepEdges[e.ID] {
			tx.DeleteEdge(e.ID)
		}
	}
	for _, e := range content.Edges {
		tx.PutEdge(e)
	}
	keepAnns := make(map[string]bool, len(content.Annotations))
	for _, a := range content.Annotations {
		keepAnns[a.ID] = true
	}
	for _, a := range st.Annotations.All() {
		if !keepAnns[a.ID] {
			tx.DeleteAnnotation(a.ID)
		}
	}
	for _, a := range content.Annotations {
		tx.PutAnnotation(a)
	}
	pins := make([]string, 0, len(content.Pins))
	for _, p := range content.Pins {
		if keepNodes[p] {
			pins = append(pins, p)
		}
	}
	tx.SetPins(pins)
	tx.SetViewport(content.Viewport)
	tx.Describe("restoreSnapshot", `Restored snapshot "`+sn.Name+`"`)
	tx.EmitLayout()
}

// ListSnapshotsQuery filters GET /api/canvas/snapshots.
type ListSnapshotsQuery struct {
	Limit  int    // <= 0: 20
	All    bool   // no limit
	Query  string // case-insensitive substring of id or name
	Before string // ISO time, inclusive
	After  string // ISO time, inclusive
}

// ListSnapshots returns snapshot metadata newest first.
func ListSnapshots(s *State, q ListSnapshotsQuery) []SnapshotMeta {
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	needle := strings.ToLower(q.Query)
	before, hasBefore := parseISO(q.Before)
	after, hasAfter := parseISO(q.After)
	out := []SnapshotMeta{}
	for _, sn := range s.Snapshots.NewestFirst() {
		if needle != "" && !strings.Contains(strings.ToLower(sn.ID), needle) && !strings.Contains(strings.ToLower(sn.Name), needle) {
			continue
		}
		created, ok := parseISO(sn.CreatedAt)
		if ok && hasBefore && created.After(before) {
			continue
		}
		if ok && hasAfter && created.Before(after) {
			continue
		}
		out = append(out, sn.Meta())
		if !q.All && len(out) == limit {
			break
		}
	}
	return out
}

func parseISO(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// GCSnapshots keeps the newest keep snapshots and deletes the rest (unless
// dryRun). It returns how many are kept and the deleted ones.
func GCSnapshots(tx *Tx, keep int, dryRun bool) (int, []SnapshotMeta) {
	if keep <= 0 {
		keep = 20
	}
	all := tx.State().Snapshots.NewestFirst()
	deleted := []SnapshotMeta{}
	for i, sn := range all {
		if i < keep {
			continue
		}
		deleted = append(deleted, sn.Meta())
		if !dryRun {
			tx.DeleteSnapshot(sn.ID)
		}
	}
	return min(keep, len(all)), deleted
}
