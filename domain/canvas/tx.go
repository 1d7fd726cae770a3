package canvas

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// Env supplies the impure inputs of the core (clock and randomness) so tests
// can make them deterministic.
type Env struct {
	Now  func() time.Time
	Rand func(n int) string // n random base36 characters
}

// DefaultEnv uses the wall clock and math/rand.
func DefaultEnv() *Env {
	return &Env{Now: time.Now, Rand: randomBase36}
}

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

func randomBase36(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base36[rand.IntN(len(base36))]
	}
	return string(b)
}

// NewID returns "<prefix>-<ms base36>-<n random base36>", the reference's id
// format.
func (e *Env) NewID(prefix string, n int) string {
	return prefix + "-" + strconv.FormatInt(e.Now().UnixMilli(), 36) + "-" + e.Rand(n)
}

// Timestamp returns the current time as the reference's ISO string.
func (e *Env) Timestamp() string {
	return e.Now().UTC().Format("2006-01-02T15:04:05.000Z")
}

// RecordChange is the before and after value of one record in a change; a
// nil side means the record is absent on that side.
type RecordChange[T any] struct {
	ID     string
	Before T
	After  T
}

// Change is everything one transaction changed, record by record. It drives
// persistence (which keys to write), history (undo applies Before values)
// and events.
type Change struct {
	Nodes       []RecordChange[*Node]
	Edges       []RecordChange[*Edge]
	Annotations []RecordChange[*Annotation]

	PinsChanged bool
	PinsBefore  []string
	PinsAfter   []string

	ViewportChanged bool
	ViewportBefore  Viewport
	ViewportAfter   Viewport

	ThemeChanged bool
	ThemeBefore  string
	ThemeAfter   string
}

// Empty reports whether the change touches nothing.
func (c *Change) Empty() bool {
	return len(c.Nodes) == 0 && len(c.Edges) == 0 && len(c.Annotations) == 0 &&
		!c.PinsChanged && !c.ViewportChanged && !c.ThemeChanged
}

// Event is an SSE/MCP event a transaction asks to emit after it commits.
type Event struct {
	Name string
	// Data is the payload; nil for layout events, whose payload is the
	// committed layout.
	Data map[string]any
}

// EventLayoutUpdate is the frame every layout mutation emits.
const EventLayoutUpdate = "canvas-layout-update"

// Tx builds the next State from a base State and records what it changed.
// The base is never modified; Commit returns the new State.
type Tx struct {
	env    *Env
	state  State
	change Change
	events []Event

	nodeIdx map[string]int
	edgeIdx map[string]int
	annIdx  map[string]int
}

// Begin starts a transaction on base.
func Begin(base *State, env *Env) *Tx {
	return &Tx{env: env, state: *base}
}

// Env returns the transaction's environment.
func (tx *Tx) Env() *Env { return tx.env }

// State returns the working state, including this transaction's changes.
// The caller must not modify it.
func (tx *Tx) State() *State { return &tx.state }

// Emit queues an event for after commit.
func (tx *Tx) Emit(ev Event) { tx.events = append(tx.events, ev) }

// EmitLayout queues one canvas-layout-update.
func (tx *Tx) EmitLayout() { tx.Emit(Event{Name: EventLayoutUpdate}) }

// Node returns a node of the working state.
func (tx *Tx) Node(id string) (*Node, bool) { return tx.state.Nodes.Get(id) }

// AllocOrd returns a fresh layout ordinal.
func (tx *Tx) AllocOrd() uint64 {
	ord := tx.state.NextOrd
	if ord == 0 {
		ord = 1
	}
	tx.state.NextOrd = ord + 1
	return ord
}

// NewNodeID returns an id with prefix that no node has.
func (tx *Tx) NewNodeID(prefix string) string {
	for {
		id := tx.env.NewID(prefix, 4)
		if _, taken := tx.state.Nodes.Get(id); !taken {
			return id
		}
	}
}

// NewEdgeID returns an edge id no edge has.
func (tx *Tx) NewEdgeID() string {
	for {
		id := tx.env.NewID("edge", 4)
		if _, taken := tx.state.Edges.Get(id); !taken {
			return id
		}
	}
}

func track[T comparable](list *[]RecordChange[T], idx *map[string]int, id string, before, after T) {
	if *idx == nil {
		*idx = map[string]int{}
	}
	if i, ok := (*idx)[id]; ok {
		(*list)[i].After = after
		return
	}
	(*idx)[id] = len(*list)
	*list = append(*list, RecordChange[T]{ID: id, Before: before, After: after})
}

// PutNode inserts or replaces a node. A new node must carry an Ord.
func (tx *Tx) PutNode(n *Node) {
	before, _ := tx.state.Nodes.Get(n.ID)
	if n.Ord == 0 {
		if before != nil {
			n.Ord = before.Ord
		} else {
			n.Ord = tx.AllocOrd()
		}
	}
	tx.state.Nodes = tx.state.Nodes.Put(n)
	track(&tx.change.Nodes, &tx.nodeIdx, n.ID, before, n)
}

// DeleteNode removes a node (edges and pins are the caller's business).
func (tx *Tx) DeleteNode(id string) {
	before, ok := tx.state.Nodes.Get(id)
	if !ok {
		return
	}
	tx.state.Nodes = tx.state.Nodes.Delete(id)
	track(&tx.change.Nodes, &tx.nodeIdx, id, before, nil)
}

// PutEdge inserts or replaces an edge.
func (tx *Tx) PutEdge(e *Edge) {
	before, _ := tx.state.Edges.Get(e.ID)
	if e.Ord == 0 {
		if before != nil {
			e.Ord = before.Ord
		} else {
			e.Ord = tx.AllocOrd()
		}
	}
	tx.state.Edges = tx.state.Edges.Put(e)
	track(&tx.change.Edges, &tx.edgeIdx, e.ID, before, e)
}

// DeleteEdge removes an edge.
func (tx *Tx) DeleteEdge(id string) {
	before, ok := tx.state.Edges.Get(id)
	if !ok {
		return
	}
	tx.state.Edges = tx.state.Edges.Delete(id)
	track(&tx.change.Edges, &tx.edgeIdx, id, before, nil)
}

// PutAnnotation inserts or replaces an annotation.
func (tx *Tx) PutAnnotation(a *Annotation) {
	before, _ := tx.state.Annotations.Get(a.ID)
	if a.Ord == 0 {
		if before != nil {
			a.Ord = before.Ord
		} else {
			a.Ord = tx.AllocOrd()
		}
	}
	tx.state.Annotations = tx.state.Annotations.Put(a)
	track(&tx.change.Annotations, &tx.annIdx, a.ID, before, a)
}

// DeleteAnnotation removes an annotation.
func (tx *Tx) DeleteAnnotation(id string) {
	before, ok := tx.state.Annotations.Get(id)
	if !ok {
		return
	}
	tx.state.Annotations = tx.state.Annotations.Delete(id)
	track(&tx.change.Annotations, &tx.annIdx, id, before, nil)
}

// SetPins replaces the context pins.
func (tx *Tx) SetPins(pins []string) {
	if !tx.change.PinsChanged {
		tx.change.PinsChanged = true
		tx.change.PinsBefore = tx.state.Pins
	}
	pins = slices.Clone(pins)
	tx.state.Pins = pins
	tx.change.PinsAfter = pins
}

// SetViewport replaces the viewport.
func (tx *Tx) SetViewport(v Viewport) {
	if !tx.change.ViewportChanged {
		tx.change.ViewportChanged = true
		tx.change.ViewportBefore = tx.state.Viewport
	}
	tx.state.Viewport = v
	tx.change.ViewportAfter = v
}

// SetTheme replaces the theme.
func (tx *Tx) SetTheme(theme string) {
	if !tx.change.ThemeChanged {
		tx.change.ThemeChanged = true
		tx.change.ThemeBefore = tx.state.Theme
	}
	tx.state.Theme = theme
	tx.change.ThemeAfter = theme
}

// MarkPopulated records that the canvas has been used.
func (tx *Tx) MarkPopulated() { tx.state.Populated = true }

// Commit returns the new state, bumped to the next revision, with the change
// and the events to emit. The transaction must not be used afterwards.
func (tx *Tx) Commit() (*State, *Change, []Event) {
	next := tx.state
	next.Revision++
	next.Populated = true
	return &next, &tx.change, tx.events
}
