package pmxcanvas

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The layout shortcuts: friendlier signatures over the generated methods
// (zz_generated_ops.go), which they call; each maps its Go input onto the
// operation's input type and returns the part of the reply it promises.

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

func (in NodeInput) input() (*messages.NodeAddInput, error) {
	out, err := withExtra[messages.NodeAddInput]("node.add", in.Extra)
	if err != nil {
		return nil, err
	}
	if in.Type != "" {
		out.Type = in.Type
	}
	setText(&out.Title, in.Title)
	setText(&out.Content, in.Content)
	if in.Position != nil {
		out.Position = point(*in.Position)
	}
	if in.Size != nil {
		out.Size = size(*in.Size)
	}
	if in.Data != nil {
		out.Data = in.Data
	}
	if in.StrictSize {
		out.StrictSize = Ptr(true)
	}
	setText(&out.URL, in.URL)
	setText(&out.Path, in.Path)
	if in.HTML != "" {
		out.HTML = in.HTML
	}
	if in.ChildIDs != nil {
		out.ChildIDs = in.ChildIDs
	}
	setText(&out.Color, in.Color)
	setText(&out.ChildLayout, in.ChildLayout)
	return out, nil
}

// setText sets *dst to s unless s is "" (an extra may have set it).
func setText(dst **string, s string) {
	if s != "" {
		*dst = &s
	}
}

func point(p Point) *messages.PointInput { return &messages.PointInput{X: &p.X, Y: &p.Y} }

func size(s Size) *messages.SizeInput { return &messages.SizeInput{Width: &s.Width, Height: &s.Height} }

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

func (p NodePatch) input(id string) (*messages.NodeUpdateInput, error) {
	out, err := withExtra[messages.NodeUpdateInput]("node.update", p.Extra)
	if err != nil {
		return nil, err
	}
	out.ID = id
	for dst, v := range map[**string]*string{&out.Title: p.Title, &out.Content: p.Content, &out.URL: p.URL} {
		if v != nil {
			*dst = v
		}
	}
	if p.Position != nil {
		out.Position = point(*p.Position)
	}
	if p.Size != nil {
		out.Size = size(*p.Size)
	}
	if p.Data != nil {
		out.Data = p.Data
	}
	for dst, v := range map[**bool]*bool{&out.Collapsed: p.Collapsed, &out.ArrangeLocked: p.ArrangeLocked, &out.StrictSize: p.StrictSize} {
		if v != nil {
			*dst = v
		}
	}
	if p.Pinned != nil {
		out.Pinned = Ptr(messages.LooseBool(*p.Pinned))
	}
	if p.DockPosition != nil {
		out.DockPosition = nullable(*p.DockPosition)
	}
	if p.HTML != nil {
		out.HTML = *p.HTML
	}
	if p.ChildIDs != nil {
		out.ChildIDs = p.ChildIDs
	}
	return out, nil
}

// nullable is a value to set, or for "" the JSON null that clears it.
func nullable(s string) messages.Opt[string] {
	return messages.Opt[string]{Set: true, Null: s == "", Value: s}
}

func nodeOf(r *messages.NodeResult) *Node { return &r.Node }

// AddNode creates a node and returns it as stored (auto-placed unless
// Position is given).
func (c *Canvas) AddNode(ctx context.Context, in NodeInput) (*Node, error) {
	args, err := in.input()
	if err != nil {
		return nil, err
	}
	return unwrap(nodeOf)(c.NodeAdd(ctx, args))
}

// Node reads one node; an unknown id is 404 not-found.
func (c *Canvas) Node(ctx context.Context, id string) (*Node, error) {
	return c.NodeGet(ctx, &messages.NodeGetInput{ID: id})
}

// UpdateNode patches a node and returns it as stored.
func (c *Canvas) UpdateNode(ctx context.Context, id string, patch NodePatch) (*Node, error) {
	args, err := patch.input(id)
	if err != nil {
		return nil, err
	}
	return unwrap(nodeOf)(c.NodeUpdate(ctx, args))
}

// RemoveNode deletes a node with its edges, pin and group membership.
func (c *Canvas) RemoveNode(ctx context.Context, id string) error {
	_, err := c.NodeRemove(ctx, &messages.NodeRemoveInput{ID: id})
	return err
}

// Nodes lists the canvas's nodes in layout order.
func (c *Canvas) Nodes(ctx context.Context) ([]Node, error) {
	return unwrap(func(l *Layout) []Node { return l.Nodes })(c.Layout(ctx))
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

func (in EdgeInput) input() *messages.EdgeAddInput {
	out := &messages.EdgeAddInput{Type: in.Type, From: text(in.From), To: text(in.To), FromSearch: text(in.FromSearch),
		ToSearch: text(in.ToSearch), Label: text(in.Label), Style: text(in.Style)}
	if in.Animated != nil {
		out.Animated = Ptr(messages.LooseBool(*in.Animated))
	}
	return out
}

// AddEdge connects two nodes and returns the edge.
func (c *Canvas) AddEdge(ctx context.Context, in EdgeInput) (*Edge, error) {
	return unwrap(func(r *messages.EdgeResult) *Edge { return &r.Edge })(c.EdgeAdd(ctx, in.input()))
}

// RemoveEdge deletes an edge; an unknown id is 404 not-found.
func (c *Canvas) RemoveEdge(ctx context.Context, id string) error {
	_, err := c.EdgeRemove(ctx, &messages.EdgeRemoveInput{ID: &id})
	return err
}

// Edges lists the canvas's edges.
func (c *Canvas) Edges(ctx context.Context) ([]Edge, error) {
	return unwrap(func(l *Layout) []Edge { return l.Edges })(c.Layout(ctx))
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

func (in GroupInput) input() *messages.GroupCreateInput {
	out := &messages.GroupCreateInput{Title: text(in.Title), ChildIDs: in.ChildIDs, Color: text(in.Color), ChildLayout: text(in.ChildLayout)}
	if p := in.Position; p != nil {
		out.X, out.Y = &p.X, &p.Y
	}
	if s := in.Size; s != nil {
		out.Width, out.Height = &s.Width, &s.Height
	}
	return out
}

// CreateGroup creates a group frame and returns its node.
func (c *Canvas) CreateGroup(ctx context.Context, in GroupInput) (*Node, error) {
	return unwrap(nodeOf)(c.GroupCreate(ctx, in.input()))
}

// GroupNodes adds nodes to a group (members of another group leave it
// first). childLayout ("" for none) lays the members out.
func (c *Canvas) GroupNodes(ctx context.Context, groupID string, childIDs []string, childLayout string) error {
	_, err := c.GroupAdd(ctx, &messages.GroupAddInput{GroupID: groupID, ChildIDs: childIDs, ChildLayout: text(childLayout)})
	return err
}

// UngroupNodes releases every member of a group; the frame stays.
func (c *Canvas) UngroupNodes(ctx context.Context, groupID string) error {
	_, err := c.GroupRemove(ctx, &messages.GroupRemoveInput{GroupID: groupID})
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

// SetContextPins sets, adds or removes context pins (at most 20; "" mode
// is PinSet) and returns the pins.
func (c *Canvas) SetContextPins(ctx context.Context, nodeIDs []string, mode PinMode) (*Pins, error) {
	return c.PinSet(ctx, &messages.PinSetInput{NodeIDs: orEmpty(nodeIDs), Mode: text(string(mode))})
}

// PinnedContext reads the pinned nodes as agent context.
func (c *Canvas) PinnedContext(ctx context.Context) (*PinnedContext, error) {
	return c.PinnedGet(ctx)
}

// ---- Reads ----------------------------------------------------------------

// Search finds nodes by title, path, url and content; limit <= 0 returns
// every hit.
func (c *Canvas) Search(ctx context.Context, query string, limit int) (*SearchResults, error) {
	in := &messages.SearchInput{Q: query}
	if limit > 0 {
		in.Limit = &limit
	}
	return c.SearchNodes(ctx, in)
}

// Layout reads the whole canvas.
func (c *Canvas) Layout(ctx context.Context) (*Layout, error) { return c.LayoutGet(ctx, nil) }

// Validate reports collisions, group containment and dangling edges.
func (c *Canvas) Validate(ctx context.Context) (*Validation, error) { return c.ValidateGet(ctx) }

// ---- View -----------------------------------------------------------------

// Theme reads the canvas theme.
func (c *Canvas) Theme(ctx context.Context) (string, error) {
	return unwrap(func(r *messages.ThemeResult) string { return r.Theme })(c.ThemeGet(ctx))
}

// SetTheme sets the theme: dark, light or high-contrast.
func (c *Canvas) SetTheme(ctx context.Context, theme string) error {
	_, err := c.ThemeSet(ctx, &messages.ThemeSetInput{Theme: theme})
	return err
}

// ViewportPatch pans and zooms; nil fields keep their value.
type ViewportPatch struct {
	X, Y, Scale *float64
}

// SetViewport pans and zooms, and returns the viewport.
func (c *Canvas) SetViewport(ctx context.Context, p ViewportPatch) (*Viewport, error) {
	in := &messages.ViewportInput{X: p.X, Y: p.Y, Scale: p.Scale}
	return unwrap(func(r *messages.ViewportResult) *Viewport { return &r.Viewport })(c.ViewportSet(ctx, in))
}

// FocusNode pans the viewport to a node (or, with noPan, raises it above
// the others) and makes it the AX focus.
func (c *Canvas) FocusNode(ctx context.Context, id string, noPan bool) (*FocusResult, error) {
	in := &messages.FocusInput{ID: id}
	if noPan {
		in.NoPan = Ptr(true)
	}
	return c.NodeFocus(ctx, in)
}

// FitOptions frame FitView; zero values take the defaults (a 1440×900
// screen, 60 px padding, at most scale 1, every node).
type FitOptions struct {
	Width, Height, Padding, MaxScale float64
	NodeIDs                          []string
}

// FitView fits the viewport to every node, or to the named ones.
func (c *Canvas) FitView(ctx context.Context, o FitOptions) (*FitResult, error) {
	return c.ViewFit(ctx, &messages.FitInput{Width: nonZero(o.Width), Height: nonZero(o.Height),
		Padding: nonZero(o.Padding), MaxScale: nonZero(o.MaxScale), NodeIDs: o.NodeIDs})
}

// nonZero returns &v, or nil for 0 (the shortcuts' "default").
func nonZero[T int | float64](v T) *T {
	if v == 0 {
		return nil
	}
	return &v
}

// Arrange lays out the unlocked nodes: "grid" (also ""), "column" or
// "flow".
func (c *Canvas) Arrange(ctx context.Context, layout string) (*ArrangeResult, error) {
	return c.ArrangeNodes(ctx, &messages.ArrangeInput{Layout: text(layout)})
}

// Clear removes every node, edge, annotation and pin (undoable).
func (c *Canvas) Clear(ctx context.Context) error {
	_, err := c.CanvasClear(ctx)
	return err
}

// ---- History --------------------------------------------------------------

// History reads the undo log.
func (c *Canvas) History(ctx context.Context) (*History, error) { return c.HistoryGet(ctx) }

// Undo undoes the last layout change.
func (c *Canvas) Undo(ctx context.Context) (*HistoryStep, error) { return c.CanvasUndo(ctx) }

// Redo redoes the last undone change.
func (c *Canvas) Redo(ctx context.Context) (*HistoryStep, error) { return c.CanvasRedo(ctx) }

// ---- Snapshots ------------------------------------------------------------

// SaveSnapshot saves the layout (nodes, edges, annotations, pins, viewport,
// canvas-bound AX state) under name.
func (c *Canvas) SaveSnapshot(ctx context.Context, name string) (*Snapshot, error) {
	saved := func(r *messages.SnapshotSaved) *Snapshot { return &r.Snapshot }
	return unwrap(saved)(c.SnapshotSave(ctx, &messages.SnapshotSaveInput{Name: name}))
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
	in := &messages.SnapshotListInput{Q: text(q.Query)}
	if q.Limit > 0 {
		in.Limit = &q.Limit
	}
	if !q.Before.IsZero() {
		in.Before = Ptr(q.Before.UTC().Format(isoMillis))
	}
	if !q.After.IsZero() {
		in.After = Ptr(q.After.UTC().Format(isoMillis))
	}
	if q.All {
		in.All = Ptr(true)
	}
	return c.SnapshotList(ctx, in)
}

// RestoreSnapshot restores a snapshot by id or name (one undoable step)
// and returns it.
func (c *Canvas) RestoreSnapshot(ctx context.Context, idOrName string) (*Snapshot, error) {
	restored := func(r *messages.SnapshotRestored) *Snapshot { return &r.Restored }
	return unwrap(restored)(c.SnapshotRestore(ctx, &messages.SnapshotRefInput{ID: idOrName}))
}

// DeleteSnapshot deletes a snapshot by id or name and returns it.
func (c *Canvas) DeleteSnapshot(ctx context.Context, idOrName string) (*Snapshot, error) {
	deleted := func(r *messages.SnapshotDeleted) *Snapshot { return &r.Deleted }
	return unwrap(deleted)(c.SnapshotDelete(ctx, &messages.SnapshotRefInput{ID: idOrName}))
}

// DiffSnapshot compares the canvas with a snapshot (id or name).
func (c *Canvas) DiffSnapshot(ctx context.Context, idOrName string) (*SnapshotDiff, error) {
	return c.SnapshotDiff(ctx, &messages.SnapshotRefInput{ID: idOrName})
}

// GCSnapshots deletes all but the newest keep snapshots (keep <= 0: 20);
// with dryRun it only reports what it would delete.
func (c *Canvas) GCSnapshots(ctx context.Context, keep int, dryRun bool) (*SnapshotGC, error) {
	in := &messages.SnapshotGCInput{DryRun: &dryRun}
	if keep > 0 {
		in.Keep = keep
	}
	return c.SnapshotGC(ctx, in)
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

// Batch runs operations atomically as one undo step: all apply or none.
// A failed entry is a 400 batch-failed *messages.Error whose Extra holds
// failedIndex, failedCode, results and refs.
func (c *Canvas) Batch(ctx context.Context, ops []BatchOp) (*BatchResult, error) {
	in := &messages.BatchInput{Operations: make([]messages.BatchOp, len(ops))}
	for i, op := range ops {
		in.Operations[i] = messages.BatchOp{Op: op.Op, Assign: op.Assign}
		if op.Args != nil {
			args, err := json.Marshal(op.Args)
			if err != nil {
				return nil, encodeError("canvas.batch", err)
			}
			in.Operations[i].Args = args
		}
	}
	return c.CanvasBatch(ctx, in)
}
