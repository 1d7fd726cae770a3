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
	return ISOTime(e.Now())
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
	// Snapshots are stored alongside the canvas but are not part of the
	// layout: undo never touches them and they do not bump the revision.
	Snapshots []RecordChange[*Snapshot]

	PinsChanged bool
	PinsBefore  []string
	PinsAfter   []string

	ViewportChanged bool
	ViewportBefore  Viewport
	ViewportAfter   Viewport

	ThemeChanged bool
	ThemeBefore  string
	ThemeAfter   string

	// AX is set when the step replaced the canvas-bound AX state wholesale
	// (snapshot restore, clear); undo and redo hand it back to the AX
	// actors. AXReplay is set on the undo or redo of such a step.
	AX       *AXSwap
	AXReplay *AXReplay
	// Replayed marks the change of an undo or redo.
	Replayed bool
}

// AXSwap is a wholesale replacement of the canvas-bound AX state. The
// canvas core does not interpret the values; the actors that own AX do.
type AXSwap struct {
	Before, After any
	// Reason names the step ("restore", "clear").
	Reason string
	// At is when the step ran (ISO-8601): AX records created later are the
	// AX layer's own and survive an undo of the step.
	At string
}

// AXReplay is an undo (Undo true) or redo of a step that swapped AX state.
type AXReplay struct {
	Swap *AXSwap
	Undo bool
}

// Empty reports whether the change touches nothing.
func (c *Change) Empty() bool {
	return !c.LayoutChanged() && len(c.Snapshots) == 0
}

// LayoutChanged reports whether the change touches the layout (anything but
// snapshots), which is what bumps the revision.
func (c *Change) LayoutChanged() bool {
	return len(c.Nodes) > 0 || len(c.Edges) > 0 || len(c.Annotations) > 0 ||
		c.PinsChanged || c.ViewportChanged || c.ThemeChanged || c.AX != nil || c.AXReplay != nil
}

// Event is an SSE/MCP event a transaction asks to emit after it commits.
type Event struct {
	Name string
	// Data is the payload; nil for layout events, whose payload is the
	// committed layout.
	Data map[string]any
}

// Event names (the reference's SSE event names).
const (
	// EventLayoutUpdate is the frame every layout mutation emits.
	EventLayoutUpdate   = "canvas-layout-update"
	EventViewportUpdate = "canvas-viewport-update"
	EventFocusNode      = "canvas-focus-node"
	EventPinsChanged    = "context-pins-changed"
	EventThemeChanged   = "theme-changed"
)

// Tx builds the next State from a base State and records what it changed.
// The base is never modified; Commit returns the new State.
type Tx struct {
	env *Env
	// state and change are separate allocations that Commit hands out
	// as they are: the change goes into history, and a pointer into the
	// Tx would keep the whole Tx (and its working maps) alive with it.
	state  *State
	change *Change
	events []Event

	nodeIdx map[string]int
	edgeIdx map[string]int
	annIdx  map[string]int
	snapIdx map[string]int

	// History entry this transaction records, if any (see Describe).
	opType, description, agent string
	// replaying is set by undo/redo: their changes record no new entry.
	replaying bool
	// quiet suppresses events (batch emits one layout frame itself).
	quiet bool
}

// Begin starts a transaction on base.
func Begin(base *State, env *Env) *Tx {
	state := *base
	return &Tx{env: env, state: &state, change: &Change{}}
}

// Env returns the transaction's environment.
func (tx *Tx) Env() *Env { return tx.env }

// State returns the working state, including this transaction's changes.
// The caller must not modify it.
func (tx *Tx) State() *State { return tx.state }

// Emit queues an event for after commit.
func (tx *Tx) Emit(ev Event) {
	if !tx.quiet {
		tx.events = append(tx.events, ev)
	}
}

// Quiet suppresses every later Emit (a batch emits once, itself).
func (tx *Tx) Quiet(on bool) { tx.quiet = on }

// Describe names the history entry this transaction records: the
// reference's operationType and description. The last call wins, so a batch
// can describe itself after its parts did.
func (tx *Tx) Describe(opType, description string) {
	tx.opType, tx.description = opType, description
}

// SetAgent records who is acting, for the history entry.
func (tx *Tx) SetAgent(agent string) { tx.agent = agent }

// EmitLayout queues one canvas-layout-update.
func (tx *Tx) EmitLayout() { tx.Emit(Event{Name: EventLayoutUpdate}) }

// Changed reports whether the transaction has changed the layout so far.
func (tx *Tx) Changed() bool { return tx.change.LayoutChanged() }

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

// trackScanMax is how many records of a kind a step tracks by scanning
// before it indexes them by id.
const trackScanMax = 8

// track records that id went from before to after in this step; a record
// changed twice keeps its first before and its last after.
func track[T comparable](list *[]RecordChange[T], idx *map[string]int, id string, before, after T) {
	if *idx == nil {
		// Most steps change a record or two: a scan of the list beats a
		// map (and its allocation) until the list grows.
		if len(*list) < trackScanMax {
			for i := range *list {
				if (*list)[i].ID == id {
					(*list)[i].After = after
					return
				}
			}
			*list = append(*list, RecordChange[T]{ID: id, Before: before, After: after})
			return
		}
		*idx = make(map[string]int, 2*len(*list))
		for i, c := range *list {
			(*idx)[c.ID] = i
		}
	}
	if i, ok := (*idx)[id]; ok {
		(*list)[i].After = after
		return
	}
	(*idx)[id] = len(*list)
	*list = append(*list, RecordChange[T]{ID: id, Before: before, After: after})
}

// record is one of the kinds a Tx stores (node, edge, annotation,
// snapshot): keyed by id, placed by its layout ordinal. One generic Put and
// Delete serve all four, so the ordinal and change-tracking rules cannot
// drift between kinds.
type record interface {
	comparable
	key() (id string, ord *uint64)
}

func (n *Node) key() (string, *uint64)       { return n.ID, &n.Ord }
func (e *Edge) key() (string, *uint64)       { return e.ID, &e.Ord }
func (a *Annotation) key() (string, *uint64) { return a.ID, &a.Ord }
func (sn *Snapshot) key() (string, *uint64)  { return sn.ID, &sn.Ord }

// recordSet is the persistent set a Tx keeps records of one kind in.
type recordSet[S any, T record] interface {
	Get(id string) (T, bool)
	Put(T) S
	Delete(id string) S
}

// putRecord inserts or replaces r in set and tracks the change. A record
// without an ordinal keeps the one it replaces, or gets a fresh one.
func putRecord[S recordSet[S, T], T record](tx *Tx, set *S, list *[]RecordChange[T], idx *map[string]int, r T) {
	id, ord := r.key()
	before, _ := (*set).Get(id)
	if *ord == 0 {
		var none T
		if before != none {
			_, prev := before.key()
			*ord = *prev
		} else {
			*ord = tx.AllocOrd()
		}
	}
	*set = (*set).Put(r)
	track(list, idx, id, before, r)
}

// deleteRecord removes the record with id from set, if there is one, and
// tracks the change.
func deleteRecord[S recordSet[S, T], T record](set *S, list *[]RecordChange[T], idx *map[string]int, id string) {
	before, ok := (*set).Get(id)
	if !ok {
		return
	}
	var none T
	*set = (*set).Delete(id)
	track(list, idx, id, before, none)
}

// PutNode inserts or replaces a node. A new node must carry an Ord.
func (tx *Tx) PutNode(n *Node) { putRecord(tx, &tx.state.Nodes, &tx.change.Nodes, &tx.nodeIdx, n) }

// DeleteNode removes a node (edges and pins are the caller's business).
func (tx *Tx) DeleteNode(id string) { deleteRecord(&tx.state.Nodes, &tx.change.Nodes, &tx.nodeIdx, id) }

// PutEdge inserts or replaces an edge.
func (tx *Tx) PutEdge(e *Edge) { putRecord(tx, &tx.state.Edges, &tx.change.Edges, &tx.edgeIdx, e) }

// DeleteEdge removes an edge.
func (tx *Tx) DeleteEdge(id string) { deleteRecord(&tx.state.Edges, &tx.change.Edges, &tx.edgeIdx, id) }

// PutAnnotation inserts or replaces an annotation.
func (tx *Tx) PutAnnotation(a *Annotation) {
	putRecord(tx, &tx.state.Annotations, &tx.change.Annotations, &tx.annIdx, a)
}

// DeleteAnnotation removes an annotation.
func (tx *Tx) DeleteAnnotation(id string) {
	deleteRecord(&tx.state.Annotations, &tx.change.Annotations, &tx.annIdx, id)
}

// PutSnapshot stores or replaces snapshot metadata (and content, if set).
func (tx *Tx) PutSnapshot(sn *Snapshot) {
	putRecord(tx, &tx.state.Snapshots, &tx.change.Snapshots, &tx.snapIdx, sn)
}

// DeleteSnapshot removes a snapshot.
func (tx *Tx) DeleteSnapshot(id string) {
	deleteRecord(&tx.state.Snapshots, &tx.change.Snapshots, &tx.snapIdx, id)
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

// Commit returns the new state with the change and the events to emit. A
// change to the layout bumps the revision and, when the transaction was
// described, records a history entry. The transaction must not be used
// afterwards.
func (tx *Tx) Commit() (*State, *Change, []Event) {
	// The working state and change become the committed ones; the Tx is
	// spent, and a later use fails at once instead of changing them.
	next, ch := tx.state, tx.change
	tx.state, tx.change = nil, nil
	ch.Replayed = tx.replaying
	if ch.LayoutChanged() {
		next.Revision++
		if tx.description != "" && !tx.replaying {
			next.History = next.History.record(&HistoryEntry{
				ID: tx.env.NewID("mut", 4), Timestamp: tx.env.Timestamp(), Description: tx.description,
				OperationType: tx.opType, Agent: tx.agent, Change: ch,
			})
		}
	}
	next.Populated = true
	// A saved snapshot's content goes to the store with the change; the
	// published state keeps its metadata only (restore and diff read the
	// content back), so snapshots cost no memory however many there are.
	for _, c := range ch.Snapshots {
		if c.After != nil && c.After.Content != nil {
			meta := *c.After
			meta.Content = nil
			next.Snapshots = next.Snapshots.Put(&meta)
		}
	}
	return next, ch, onceLayout(tx.events)
}

// onceLayout keeps one canvas-layout-update per transaction (the last): the
// frame carries the whole layout, so one per commit says everything.
func onceLayout(events []Event) []Event {
	last := -1
	for i, e := range events {
		if e.Name == EventLayoutUpdate {
			last = i
		}
	}
	out := events[:0:0]
	for i, e := range events {
		if e.Name != EventLayoutUpdate || i == last {
			out = append(out, e)
		}
	}
	return out
}

// SetAXSwap records that this step replaces the canvas-bound AX state.
func (tx *Tx) SetAXSwap(s *AXSwap) { tx.change.AX = s }
