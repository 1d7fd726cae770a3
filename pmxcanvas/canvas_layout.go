package pmxcanvas

import (
	"context"
	"encoding/json"
	"time"
)

// ---- Nodes ----------------------------------------------------------------

// NodeInput creates a node (node.add, POST /api/canvas/node).
type NodeInput struct {
	// Type is required: markdown, status, context, ledger, trace, file,
	// image, mcp-app, webpage, html or group.
	Type    string
	Title   string
	Content string
	// Position places the node; nil auto-places it.
	Position *Point
	// Size overrides the type's default size.
	Size *Size
	// Data is merged into the node's data (typed fields win).
	Data       map[string]any
	StrictSize bool
	// URL is a webpage's address.
	URL string
	// Path is an image's path (an alias of Content).
	Path string
	// HTML is an html node's document.
	HTML string
	// ChildIDs, Color and ChildLayout apply to groups (see CreateGroup).
	ChildIDs    []string
	Color       string
	ChildLayout string
	// Extra carries wire fields not modelled here (trace fields such as
	// toolName, an html node's summary or axCapabilities, ...).
	Extra map[string]any
}

func (in NodeInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("type", in.Type)
	f.str("title", in.Title)
	f.str("content", in.Content)
	if in.Position != nil {
		f["position"] = in.Position
	}
	if in.Size != nil {
		f["size"] = in.Size
	}
	f.any("data", nilMap(in.Data))
	if in.StrictSize {
		f["strictSize"] = true
	}
	f.str("url", in.URL)
	f.str("path", in.Path)
	f.str("html", in.HTML)
	f.strs("childIds", in.ChildIDs)
	f.str("color", in.Color)
	f.str("childLayout", in.ChildLayout)
	return f.extra(in.Extra), nil
}

// nilMap keeps a nil map out of the input (a typed nil in an interface is
// not nil).
func nilMap(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

// NodePatch changes a node (node.update, PATCH /api/canvas/node/:id). Nil
// fields are left alone.
type NodePatch struct {
	Title    *string
	Content  *string
	Position *Point
	Size     *Size
	// Data is shallow-merged into the node's data.
	Data          map[string]any
	Collapsed     *bool
	Pinned        *bool
	ArrangeLocked *bool
	StrictSize    *bool
	// DockPosition docks the node "left" or "right"; Ptr("") undocks it.
	DockPosition *string
	// HTML replaces an html node's document.
	HTML *string
	// URL changes a webpage's address.
	URL *string
	// ChildIDs replaces a group's members.
	ChildIDs []string
	// Extra carries wire fields not modelled here.
	Extra map[string]any
}

func (p NodePatch) wire() (map[string]any, error) {
	f := fields{}
	f.ptr("title", p.Title)
	f.ptr("content", p.Content)
	if p.Position != nil {
		f["position"] = p.Position
	}
	if p.Size != nil {
		f["size"] = p.Size
	}
	f.any("data", nilMap(p.Data))
	f.ptr("collapsed", p.Collapsed)
	f.ptr("pinned", p.Pinned)
	f.ptr("arrangeLocked", p.ArrangeLocked)
	f.ptr("strictSize", p.StrictSize)
	if p.DockPosition != nil {
		if *p.DockPosition == "" {
			f["dockPosition"] = nil
		} else {
			f["dockPosition"] = *p.DockPosition
		}
	}
	f.ptr("html", p.HTML)
	f.ptr("url", p.URL)
	f.strs("childIds", p.ChildIDs)
	return f.extra(p.Extra), nil
}

// withID adds the path parameter id to an input.
type withID struct {
	id string
	in wireInput
}

func (w withID) wire() (map[string]any, error) {
	m, err := w.in.wire()
	if err != nil {
		return nil, err
	}
	m["id"] = w.id
	return m, nil
}

// nodeReply is the node response: the node under "node".
type nodeReply struct {
	Node Node `json:"node"`
}

// AddNode creates a node and returns it as stored (auto-placed unless
// Position is given).
func (c *Canvas) AddNode(ctx context.Context, in NodeInput) (*Node, error) {
	var out nodeReply
	if _, err := c.call(ctx, "node.add", in, &out); err != nil {
		return nil, err
	}
	return &out.Node, nil
}

// Node reads one node; an unknown id is 404 not-found.
func (c *Canvas) Node(ctx context.Context, id string) (*Node, error) {
	var out Node
	if _, err := c.call(ctx, "node.get", map[string]any{"id": id}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateNode patches a node and returns it as stored.
func (c *Canvas) UpdateNode(ctx context.Context, id string, patch NodePatch) (*Node, error) {
	var out nodeReply
	if _, err := c.call(ctx, "node.update", withID{id, patch}, &out); err != nil {
		return nil, err
	}
	return &out.Node, nil
}

// RemoveNode deletes a node with its edges, pin and group membership.
func (c *Canvas) RemoveNode(ctx context.Context, id string) error {
	_, err := c.call(ctx, "node.remove", map[string]any{"id": id}, nil)
	return err
}

// Nodes lists the canvas's nodes in layout order.
func (c *Canvas) Nodes(ctx context.Context) ([]Node, error) {
	l, err := c.Layout(ctx)
	if err != nil {
		return nil, err
	}
	return l.Nodes, nil
}

// ---- Edges ----------------------------------------------------------------

// EdgeInput connects two nodes (edge.add). Each end is a node id or a
// search that resolves to exactly one node; an id wins over a search.
type EdgeInput struct {
	From       string
	To         string
	FromSearch string
	ToSearch   string
	// Type is flow, depends-on, relation or references.
	Type  string
	Label string
	// Style is solid, dashed or dotted.
	Style    string
	Animated *bool
}

func (in EdgeInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("type", in.Type)
	f.str("from", in.From)
	f.str("to", in.To)
	f.str("fromSearch", in.FromSearch)
	f.str("toSearch", in.ToSearch)
	f.str("label", in.Label)
	f.str("style", in.Style)
	f.ptr("animated", in.Animated)
	return f, nil
}

// AddEdge connects two nodes and returns the edge.
func (c *Canvas) AddEdge(ctx context.Context, in EdgeInput) (*Edge, error) {
	var out Edge
	if _, err := c.call(ctx, "edge.add", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RemoveEdge deletes an edge; an unknown id is 404 not-found.
func (c *Canvas) RemoveEdge(ctx context.Context, id string) error {
	_, err := c.call(ctx, "edge.remove", map[string]any{"id": id}, nil)
	return err
}

// Edges lists the canvas's edges.
func (c *Canvas) Edges(ctx context.Context) ([]Edge, error) {
	l, err := c.Layout(ctx)
	if err != nil {
		return nil, err
	}
	return l.Edges, nil
}

// ---- Groups ---------------------------------------------------------------

// GroupInput creates a group (group.create). Without Position and Size the
// frame fits its members; with either it is a manual frame, and
// ChildLayout (grid, column, flow) lays the members out inside it.
type GroupInput struct {
	Title       string
	ChildIDs    []string
	Color       string
	Position    *Point
	Size        *Size
	ChildLayout string
}

func (in GroupInput) wire() (map[string]any, error) {
	f := fields{}
	f.str("title", in.Title)
	f.strs("childIds", in.ChildIDs)
	f.str("color", in.Color)
	if in.Position != nil {
		f["x"], f["y"] = in.Position.X, in.Position.Y
	}
	if in.Size != nil {
		f["width"], f["height"] = in.Size.Width, in.Size.Height
	}
	f.str("childLayout", in.ChildLayout)
	return f, nil
}

// CreateGroup creates a group frame and returns its node.
func (c *Canvas) CreateGroup(ctx context.Context, in GroupInput) (*Node, error) {
	var out nodeReply
	if _, err := c.call(ctx, "group.create", in, &out); err != nil {
		return nil, err
	}
	return &out.Node, nil
}

// GroupNodes adds nodes to a group (members of another group leave it
// first). childLayout ("" for none) lays the members out.
func (c *Canvas) GroupNodes(ctx context.Context, groupID string, childIDs []string, childLayout string) error {
	in := fields{"groupId": groupID, "childIds": childIDs}
	in.str("childLayout", childLayout)
	_, err := c.call(ctx, "group.add", in, nil)
	return err
}

// UngroupNodes releases every member of a group; the frame stays.
func (c *Canvas) UngroupNodes(ctx context.Context, groupID string) error {
	_, err := c.call(ctx, "group.remove", map[string]any{"groupId": groupID}, nil)
	return err
}

// ---- Context pins ---------------------------------------------------------

// PinMode says how SetContextPins combines ids with the current pins.
type PinMode string

// Pin modes.
const (
	PinSet    PinMode = "set"
	PinAdd    PinMode = "add"
	PinRemove PinMode = "remove"
)

// Pins are the canvas's context pins.
type Pins struct {
	Count   int      `json:"count"`
	NodeIDs []string `json:"nodeIds"`
}

// SetContextPins sets, adds or removes context pins (at most 20; "" mode
// is PinSet) and returns the pins.
func (c *Canvas) SetContextPins(ctx context.Context, nodeIDs []string, mode PinMode) (*Pins, error) {
	if nodeIDs == nil {
		nodeIDs = []string{}
	}
	in := fields{"nodeIds": nodeIDs}
	in.str("mode", string(mode))
	var out Pins
	if _, err := c.call(ctx, "pin.set", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PinnedContext reads the pinned nodes as agent context.
func (c *Canvas) PinnedContext(ctx context.Context) (*PinnedContext, error) {
	var out PinnedContext
	if _, err := c.call(ctx, "pinned.get", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ---- Reads ----------------------------------------------------------------

// SearchHit is one search result.
type SearchHit struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Title   string  `json:"title"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// SearchResults are the hits of a search, best first.
type SearchResults struct {
	Query string `json:"query"`
	// ResultCount is the number of hits before the limit.
	ResultCount int         `json:"resultCount"`
	Results     []SearchHit `json:"results"`
}

// Search finds nodes by title, path, url and content; limit <= 0 returns
// every hit.
func (c *Canvas) Search(ctx context.Context, query string, limit int) (*SearchResults, error) {
	in := fields{"q": query}
	if limit > 0 {
		in["limit"] = limit
	}
	var out SearchResults
	if _, err := c.call(ctx, "search", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Layout reads the whole canvas.
func (c *Canvas) Layout(ctx context.Context) (*Layout, error) {
	var out Layout
	if _, err := c.call(ctx, "layout.get", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Validation reports layout problems.
type Validation struct {
	// OK is true when there is nothing to report.
	OK                    bool             `json:"ok"`
	Collisions            []Collision      `json:"collisions"`
	Containments          []Containment    `json:"containments"`
	ContainmentViolations []Containment    `json:"containmentViolations"`
	MissingEdgeEndpoints  []MissingEdgeEnd `json:"missingEdgeEndpoints"`
	// Summary counts nodes, edges and each kind of problem.
	Summary map[string]int `json:"summary"`
}

// Collision is two overlapping nodes.
type Collision struct {
	AID    string `json:"aId"`
	ATitle string `json:"aTitle"`
	BID    string `json:"bId"`
	BTitle string `json:"bTitle"`
}

// Containment is a group member and its group.
type Containment struct {
	GroupID    string `json:"groupId"`
	GroupTitle string `json:"groupTitle"`
	ChildID    string `json:"childId"`
	ChildTitle string `json:"childTitle"`
}

// MissingEdgeEnd is an edge whose end is gone.
type MissingEdgeEnd struct {
	EdgeID string `json:"edgeId"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// Validate reports collisions, group containment and dangling edges.
func (c *Canvas) Validate(ctx context.Context) (*Validation, error) {
	var out Validation
	if _, err := c.call(ctx, "validate.get", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ---- View -----------------------------------------------------------------

// Theme reads the canvas theme.
func (c *Canvas) Theme(ctx context.Context) (string, error) {
	var out struct {
		Theme string `json:"theme"`
	}
	if _, err := c.call(ctx, "theme.get", nil, &out); err != nil {
		return "", err
	}
	return out.Theme, nil
}

// SetTheme sets the theme: dark, light or high-contrast.
func (c *Canvas) SetTheme(ctx context.Context, theme string) error {
	_, err := c.call(ctx, "theme.set", map[string]any{"theme": theme}, nil)
	return err
}

// ViewportPatch pans and zooms; nil fields keep their value.
type ViewportPatch struct {
	X, Y, Scale *float64
}

// SetViewport pans and zooms, and returns the viewport.
func (c *Canvas) SetViewport(ctx context.Context, p ViewportPatch) (*Viewport, error) {
	in := fields{}
	in.ptr("x", p.X)
	in.ptr("y", p.Y)
	in.ptr("scale", p.Scale)
	return replyField[Viewport](ctx, c, "viewport.set", in, "viewport")
}

// FocusResult says what FocusNode did.
type FocusResult struct {
	Focused string `json:"focused"`
	Panned  bool   `json:"panned"`
}

// FocusNode pans the viewport to a node (or, with noPan, raises it above
// the others) and makes it the AX focus.
func (c *Canvas) FocusNode(ctx context.Context, id string, noPan bool) (*FocusResult, error) {
	in := fields{"id": id}
	if noPan {
		in["noPan"] = true
	}
	var out FocusResult
	if _, err := c.call(ctx, "node.focus", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// FitOptions frame FitView; zero values take the defaults (a 1440×900
// screen, 60 px padding, at most scale 1, every node).
type FitOptions struct {
	Width, Height, Padding, MaxScale float64
	NodeIDs                          []string
}

// FitResult is the viewport FitView set.
type FitResult struct {
	Viewport  Viewport `json:"viewport"`
	NodeCount int      `json:"nodeCount"`
	// Bounds is the fitted box; nil on an empty canvas.
	Bounds *Bounds `json:"bounds"`
}

// FitView fits the viewport to every node, or to the named ones.
func (c *Canvas) FitView(ctx context.Context, o FitOptions) (*FitResult, error) {
	in := fields{}
	for k, v := range map[string]float64{"width": o.Width, "height": o.Height, "padding": o.Padding, "maxScale": o.MaxScale} {
		if v != 0 {
			in[k] = v
		}
	}
	in.strs("nodeIds", o.NodeIDs)
	var out FitResult
	if _, err := c.call(ctx, "view.fit", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ArrangeResult says what Arrange did. OK is false (with Validation) when
// the result still has layout problems.
type ArrangeResult struct {
	OK         bool        `json:"ok"`
	Arranged   int         `json:"arranged"`
	Layout     string      `json:"layout"`
	Validation *Validation `json:"validation,omitempty"`
}

// Arrange lays out the unlocked nodes: "grid" (also ""), "column" or
// "flow".
func (c *Canvas) Arrange(ctx context.Context, layout string) (*ArrangeResult, error) {
	in := fields{}
	in.str("layout", layout)
	var out ArrangeResult
	if _, err := c.call(ctx, "arrange", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Clear removes every node, edge, annotation and pin (undoable).
func (c *Canvas) Clear(ctx context.Context) error {
	_, err := c.call(ctx, "canvas.clear", nil, nil)
	return err
}

// ---- History --------------------------------------------------------------

// HistoryEntry is one undoable change.
type HistoryEntry struct {
	ID            string    `json:"id"`
	Timestamp     time.Time `json:"timestamp"`
	Description   string    `json:"description"`
	OperationType string    `json:"operationType"`
	// Agent made the change (WithAgent, X-PMX-Agent); "" when unnamed.
	Agent     string `json:"agent,omitempty"`
	IsCurrent bool   `json:"isCurrent"`
	IsUndone  bool   `json:"isUndone"`
}

// History is the undo log.
type History struct {
	Text    string         `json:"text"`
	Entries []HistoryEntry `json:"entries"`
	CanUndo bool           `json:"canUndo"`
	CanRedo bool           `json:"canRedo"`
}

// History reads the undo log.
func (c *Canvas) History(ctx context.Context) (*History, error) {
	var out History
	if _, err := c.call(ctx, "history.get", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// HistoryStep is the outcome of Undo or Redo. OK is false (with
// "Nothing to undo" / "Nothing to redo") when there was nothing to do.
type HistoryStep struct {
	OK          bool   `json:"ok"`
	Description string `json:"description"`
}

// Undo undoes the last layout change.
func (c *Canvas) Undo(ctx context.Context) (*HistoryStep, error) {
	var out HistoryStep
	if _, err := c.call(ctx, "canvas.undo", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Redo redoes the last undone change.
func (c *Canvas) Redo(ctx context.Context) (*HistoryStep, error) {
	var out HistoryStep
	if _, err := c.call(ctx, "canvas.redo", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ---- Snapshots ------------------------------------------------------------

// SaveSnapshot saves the layout (nodes, edges, annotations, pins, viewport,
// canvas-bound AX state) under name.
func (c *Canvas) SaveSnapshot(ctx context.Context, name string) (*Snapshot, error) {
	return replyField[Snapshot](ctx, c, "snapshot.save", map[string]any{"name": name}, "snapshot")
}

// SnapshotQuery filters ListSnapshots. Zero values: the newest 20.
type SnapshotQuery struct {
	Limit int
	// Query is a case-insensitive substring of the id or name.
	Query string
	// Before and After bound the creation time (inclusive).
	Before, After time.Time
	// All lists every snapshot (no limit).
	All bool
}

const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// ListSnapshots lists snapshots, newest first.
func (c *Canvas) ListSnapshots(ctx context.Context, q SnapshotQuery) ([]Snapshot, error) {
	in := fields{}
	if q.Limit > 0 {
		in["limit"] = q.Limit
	}
	in.str("q", q.Query)
	if !q.Before.IsZero() {
		in["before"] = q.Before.UTC().Format(isoMillis)
	}
	if !q.After.IsZero() {
		in["after"] = q.After.UTC().Format(isoMillis)
	}
	if q.All {
		in["all"] = true
	}
	var out []Snapshot
	if _, err := c.call(ctx, "snapshot.list", in, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RestoreSnapshot restores a snapshot by id or name (one undoable step)
// and returns it.
func (c *Canvas) RestoreSnapshot(ctx context.Context, idOrName string) (*Snapshot, error) {
	return replyField[Snapshot](ctx, c, "snapshot.restore", map[string]any{"id": idOrName}, "restored")
}

// DeleteSnapshot deletes a snapshot by id or name and returns it.
func (c *Canvas) DeleteSnapshot(ctx context.Context, idOrName string) (*Snapshot, error) {
	return replyField[Snapshot](ctx, c, "snapshot.delete", map[string]any{"id": idOrName}, "deleted")
}

// DiffNode names a node in a snapshot diff.
type DiffNode struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	// Changes lists what changed (modified nodes only).
	Changes []string `json:"changes,omitempty"`
}

// DiffEdge names an edge in a snapshot diff.
type DiffEdge struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

// SnapshotDiff is the current canvas against a snapshot.
type SnapshotDiff struct {
	// Text is the diff as the reference formats it.
	Text string `json:"text"`
	Diff struct {
		SnapshotName  string     `json:"snapshotName"`
		AddedNodes    []DiffNode `json:"addedNodes"`
		RemovedNodes  []DiffNode `json:"removedNodes"`
		ModifiedNodes []DiffNode `json:"modifiedNodes"`
		AddedEdges    []DiffEdge `json:"addedEdges"`
		RemovedEdges  []DiffEdge `json:"removedEdges"`
	} `json:"diff"`
}

// DiffSnapshot compares the canvas with a snapshot (id or name).
func (c *Canvas) DiffSnapshot(ctx context.Context, idOrName string) (*SnapshotDiff, error) {
	var out SnapshotDiff
	if _, err := c.call(ctx, "snapshot.diff", map[string]any{"id": idOrName}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SnapshotGC is what GCSnapshots kept and deleted.
type SnapshotGC struct {
	Kept    int        `json:"kept"`
	Deleted []Snapshot `json:"deleted"`
	DryRun  bool       `json:"dryRun"`
}

// GCSnapshots deletes all but the newest keep snapshots (keep <= 0: 20);
// with dryRun it only reports what it would delete.
func (c *Canvas) GCSnapshots(ctx context.Context, keep int, dryRun bool) (*SnapshotGC, error) {
	in := fields{"dryRun": dryRun}
	if keep > 0 {
		in["keep"] = keep
	}
	var out SnapshotGC
	if _, err := c.call(ctx, "snapshot.gc", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ---- Batch ----------------------------------------------------------------

// BatchOp is one operation of a batch: node.add, node.update, node.remove,
// edge.add, group.create, group.add, group.remove, pin.set, pin.add,
// pin.remove, snapshot.save or arrange, with the wire args of that
// operation. Assign names the result; a later string "$name" is its id and
// "$name.data.title" walks into it.
type BatchOp struct {
	Op     string `json:"op"`
	Assign string `json:"assign,omitempty"`
	Args   any    `json:"args,omitempty"`
}

// BatchResult holds each operation's result and the assigned ones.
type BatchResult struct {
	Results []json.RawMessage          `json:"results"`
	Refs    map[string]json.RawMessage `json:"refs"`
}

// Ref returns the id of the result assigned to name ("" if none).
func (r *BatchResult) Ref(name string) string {
	var v struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(r.Refs[name], &v)
	return v.ID
}

// Batch runs operations atomically as one undo step: all apply or none.
// A failed entry is a 400 batch-failed *messages.Error whose Extra holds
// failedIndex, failedCode, results and refs.
func (c *Canvas) Batch(ctx context.Context, ops []BatchOp) (*BatchResult, error) {
	if ops == nil {
		ops = []BatchOp{}
	}
	var out BatchResult
	if _, err := c.call(ctx, "canvas.batch", map[string]any{"operations": ops}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
