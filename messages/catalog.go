package messages

import (
	"fmt"
	"time"
)

// Owner names the actor that owns an operation's state and runs its handler.
type Owner string

// Actor owners.
const (
	OwnerLayout   Owner = "layout"
	OwnerAxState  Owner = "ax-state"
	OwnerGates    Owner = "gates"
	OwnerTimeline Owner = "timeline"
	// OwnerWebview is the canvas's headless browser session.
	OwnerWebview Owner = "webview"
	// OwnerWorkspace marks operations on workspace content (files, web
	// pages): they run in the caller's goroutine, so file and network I/O
	// never holds an actor's mailbox, and write through the Layout.
	OwnerWorkspace Owner = "workspace"
	// OwnerRouter marks composite operations (interaction, activity ingest,
	// policy-checked commands) that the invoker orchestrates across owners.
	OwnerRouter Owner = "router"
)

// Kind says whether an operation changes state.
type Kind int

const (
	// Read operations run against the latest published view, outside any
	// actor, and never queue behind writers.
	Read Kind = iota
	// Write operations go through the owning actor's mailbox.
	Write
)

// Route is one HTTP binding of an operation.
type Route struct {
	Method string
	Path   string // Fiber syntax: /api/canvas/node/:id
}

// Op is one catalog entry: an operation with its typed input and bindings.
type Op struct {
	// Name is the reference's operation name, e.g. "node.add".
	Name  string
	Owner Owner
	Kind  Kind
	// Summary is one line for docs and generated help.
	Summary string
	// NewInput returns a pointer to a zero input value.
	NewInput func() any
	// HTTP lists the routes that run the operation, in registration order.
	HTTP []Route
	// Documented marks routes the reference documents as public contract.
	Documented bool
	// DeleteReadsBody makes a DELETE route read its JSON body (the reference
	// does this for DELETE /api/canvas/edge only).
	DeleteReadsBody bool
	// BodyArrayField, when set, accepts a bare JSON array body as the value
	// of this field (the reference's batch takes {operations:[...]} or [...]).
	BodyArrayField string
	// MCP, when set, gives the operation an MCP tool of its own, built
	// from its input fields (the reference's tools are written in
	// surfaces/mcp; an operation added later needs only this).
	MCP *MCPBinding
	// Runs is how long a long-running operation (a build) may take; a
	// surface whose request timeout is shorter waits this long instead.
	// The handler bounds the work itself (its input's timeout).
	Runs time.Duration
	// Parks marks a read that may wait in its owner's mailbox (gate awaits,
	// delivery claims) when its input asks to (see Parker). Surfaces give it
	// a longer deadline and cancel it when the client goes away.
	Parks bool
	// Batch marks a Layout write that canvas.batch accepts as an entry; the
	// entry runs through the operation's own handler. The reference's
	// batch allows exactly these (plus its aliases pin.add, pin.remove).
	Batch bool
	// GoMethod names the operation's method in the Go package when the
	// default (see GoName) is taken by a hand-written shortcut.
	GoMethod string
	// CLI is the command-line binding; nil gives the default command
	// (see CLIBinding).
	CLI *CLIBinding
}

// MCPBinding is an operation's MCP tool: its name and description; its
// arguments are the operation's input fields and its result the reply
// body. With Composite and Action, the tool is also that action of an
// existing composite tool (canvas_edge action "list"), which then
// advertises its fields as it does its other actions'.
type MCPBinding struct {
	Tool        string
	Description string
	// UIResource is the ui:// MCP App resource the tool declares
	// (_meta.ui.resourceUri): hosts that render MCP Apps show it.
	UIResource string
	Composite  string
	Action     string
}

// Parker is implemented by inputs of Parks operations: Park reports how
// long the call may wait (0: answer from the published view at once) and
// whether it must run in the owner's mailbox even without waiting (a
// delivery claim that takes a lease).
type Parker interface {
	Park() (wait time.Duration, mailbox bool)
}

// IsWrite reports whether the operation mutates state.
func (op *Op) IsWrite() bool { return op.Kind == Write }

// ChangesState reports whether running the operation on args (its decoded
// input) changes state: every write, and a read that takes a lease (a
// delivery claim with leaseMs). Surfaces guard such a call like a write,
// whatever its HTTP method.
func (op *Op) ChangesState(args any) bool {
	if op.IsWrite() {
		return true
	}
	if p, ok := args.(Parker); ok {
		_, leases := p.Park()
		return leases
	}
	return false
}

func input[T any]() func() any { return func() any { return new(T) } }

// Catalog is every operation the server knows, in HTTP registration order
// (order matters where paths overlap, e.g. snapshots/gc before snapshots/:id).
var Catalog = concatOps(canvasOps, contentOps, appOps, axOps, webviewOps)

func concatOps(lists ...[]*Op) []*Op {
	var out []*Op
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// canvasOps are the layout operations.
var canvasOps = []*Op{
	{
		Name: "layout.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Read the whole canvas layout: viewport, theme, nodes, edges, annotations.",
		NewInput: input[LayoutGetInput](),
		CLI:      &CLIBinding{Path: "layout"},
		HTTP:     []Route{{"GET", "/api/canvas/state"}},
	},
	{
		Name: "node.add", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Create a node; auto-placed unless both x and y are given.",
		NewInput: input[NodeAddInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"slideTitles": "slide-title", "embeddedNodeIds": "embedded-node-id"}},
		HTTP:     []Route{{"POST", "/api/canvas/node"}},
	},
	{
		Name: "node.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Read one node.",
		NewInput: input[NodeGetInput](),
		HTTP:     []Route{{"GET", "/api/canvas/node/:id"}},
	},
	{
		Name: "node.update", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Patch a node's geometry, flags, title, content or data.",
		NewInput: input[NodeUpdateInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"arrangeLocked": "-"}},
		HTTP:     []Route{{"PATCH", "/api/canvas/node/:id"}},
	},
	{
		Name: "node.remove", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Delete a node with its edges and pins.",
		NewInput: input[NodeRemoveInput](),
		HTTP:     []Route{{"DELETE", "/api/canvas/node/:id"}},
	},
	{
		Name: "edge.add", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Connect two nodes, by id or by a unique search match.",
		NewInput: input[EdgeAddInput](),
		HTTP:     []Route{{"POST", "/api/canvas/edge"}},
	},
	{
		Name: "edge.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List the edges, optionally those touching one node or of one type.",
		NewInput: input[EdgeListInput](),
		HTTP:     []Route{{"GET", "/api/canvas/edges"}},
		MCP: &MCPBinding{Tool: "canvas_list_edges",
			Description: "List the canvas's edges ({id, from, to, type, label?, style?, animated?}), all of them or those touching nodeId or of one type."},
	},
	{
		Name: "edge.remove", Owner: OwnerLayout, Kind: Write,
		Summary:         "Delete an edge by edge_id (or id).",
		NewInput:        input[EdgeRemoveInput](),
		CLI:             &CLIBinding{Args: []string{"edge_id"}, Flags: map[string]string{"id": "-"}},
		HTTP:            []Route{{"DELETE", "/api/canvas/edge"}},
		DeleteReadsBody: true,
	},
	{
		Name: "group.create", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Create a group frame around nodes (fit) or at a given frame (manual).",
		NewInput: input[GroupCreateInput](),
		CLI:      &CLIBinding{Args: []string{"childIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/group"}},
	},
	{
		Name: "group.add", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Add nodes to a group.",
		NewInput: input[GroupAddInput](),
		CLI:      &CLIBinding{Args: []string{"childIds..."}, Flags: map[string]string{"groupId": "group"}},
		HTTP:     []Route{{"POST", "/api/canvas/group/add"}},
	},
	{
		Name: "group.remove", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Release every member of a group; the frame stays.",
		NewInput: input[GroupRemoveInput](),
		CLI:      &CLIBinding{Args: []string{"groupId"}},
		HTTP:     []Route{{"POST", "/api/canvas/group/ungroup"}},
	},
	{
		Name: "pin.set", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Set, add or remove context pins (at most 20).",
		NewInput: input[PinSetInput](),
		CLI:      &CLIBinding{Path: "pin", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/context-pins"}},
	},
	{
		Name: "pinned.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Read the pinned nodes as agent context, with a text preamble.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "pin --list"},
		HTTP:     []Route{{"GET", "/api/canvas/pinned-context"}},
	},
	{
		Name: "search", Owner: OwnerLayout, Kind: Read, Documented: true, GoMethod: "SearchNodes",
		Summary:  "Search node titles, paths, urls and content.",
		NewInput: input[SearchInput](),
		CLI:      &CLIBinding{Args: []string{"q"}, Flags: map[string]string{"query": "-"}},
		HTTP:     []Route{{"GET", "/api/canvas/search"}},
	},
	{
		Name: "validate.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Report collisions, group containment and dangling edges.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "validate"},
		HTTP:     []Route{{"GET", "/api/canvas/validate"}},
	},
	{
		Name: "summary.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Counts, node kinds, pinned titles, annotations and viewport.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "layout --summary"},
		HTTP:     []Route{{"GET", "/api/canvas/summary"}},
	},
	{
		Name: "spatial.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Clusters, reading order and pinned neighbourhoods.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "spatial"},
		HTTP:     []Route{{"GET", "/api/canvas/spatial-context"}},
	},
	{
		Name: "history.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "The undo log: entries, who made them, and the cursor.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "history"},
		HTTP:     []Route{{"GET", "/api/canvas/history"}},
	},
	{
		Name: "canvas.undo", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Undo the last layout change.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "undo"},
		HTTP:     []Route{{"POST", "/api/canvas/undo"}},
	},
	{
		Name: "canvas.redo", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Redo the last undone change.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "redo"},
		HTTP:     []Route{{"POST", "/api/canvas/redo"}},
	},
	{
		Name: "viewport.set", Owner: OwnerLayout, Kind: Write,
		Summary:  "Pan and zoom.",
		NewInput: input[ViewportInput](),
		HTTP:     []Route{{"POST", "/api/canvas/viewport"}},
	},
	{
		Name: "node.focus", Owner: OwnerLayout, Kind: Write,
		Summary:  "Pan to a node, or raise it (noPan).",
		NewInput: input[FocusInput](),
		CLI:      &CLIBinding{Path: "focus", Args: []string{"id"}},
		HTTP:     []Route{{"POST", "/api/canvas/focus"}},
	},
	{
		Name: "view.fit", Owner: OwnerLayout, Kind: Write,
		Summary:  "Fit the viewport to all nodes or to the named ones.",
		NewInput: input[FitInput](),
		CLI:      &CLIBinding{Path: "fit", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/fit"}},
	},
	{
		Name: "arrange", Owner: OwnerLayout, Kind: Write, Batch: true, GoMethod: "ArrangeNodes",
		Summary:  "Auto-arrange the unlocked nodes: grid, column or flow.",
		NewInput: input[ArrangeInput](),
		HTTP:     []Route{{"POST", "/api/canvas/arrange"}},
	},
	{
		Name: "canvas.clear", Owner: OwnerLayout, Kind: Write,
		Summary:  "Remove every node, edge, annotation and pin (undoable).",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "clear"},
		HTTP:     []Route{{"POST", "/api/canvas/clear"}},
	},
	{
		Name: "theme.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Read the theme.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/theme"}},
	},
	{
		Name: "theme.set", Owner: OwnerLayout, Kind: Write,
		Summary:  "Set the theme: dark, light or high-contrast.",
		NewInput: input[ThemeSetInput](),
		HTTP:     []Route{{"POST", "/api/canvas/theme"}},
	},
	{
		Name: "layout.update", Owner: OwnerLayout, Kind: Write,
		Summary:  "Apply bulk geometry (what the browser sends at the end of a drag).",
		NewInput: input[UpdateInput](),
		HTTP:     []Route{{"POST", "/api/canvas/update"}},
	},
	{
		Name: "snapshot.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List snapshots, newest first.",
		NewInput: input[SnapshotListInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"q": "-"}},
		HTTP:     []Route{{"GET", "/api/canvas/snapshots"}},
	},
	{
		Name: "snapshot.save", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Save the layout as a named snapshot.",
		NewInput: input[SnapshotSaveInput](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots"}},
	},
	{
		Name: "snapshot.gc", Owner: OwnerLayout, Kind: Write,
		Summary:  "Delete all but the newest snapshots.",
		NewInput: input[SnapshotGCInput](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots/gc"}},
	},
	{
		Name: "snapshot.diff.query", Owner: OwnerLayout, Kind: Read,
		Summary:  "Diff the canvas against a snapshot named by ?name= or ?id=.",
		NewInput: input[SnapshotDiffQueryInput](),
		CLI:      &CLIBinding{Path: "snapshot diff-query"},
		HTTP:     []Route{{"GET", "/api/canvas/snapshots/diff"}},
	},
	{
		Name: "snapshot.diff", Owner: OwnerLayout, Kind: Read,
		Summary:  "Diff the canvas against a snapshot (id or name).",
		NewInput: input[SnapshotRefInput](),
		HTTP:     []Route{{"GET", "/api/canvas/snapshots/:id/diff"}},
	},
	{
		Name: "snapshot.restore", Owner: OwnerLayout, Kind: Write,
		Summary:  "Restore a snapshot (id or name; undoable).",
		NewInput: input[SnapshotRefInput](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots/:id"}},
	},
	{
		Name: "snapshot.delete", Owner: OwnerLayout, Kind: Write,
		Summary:  "Delete a snapshot (id or name).",
		NewInput: input[SnapshotRefInput](),
		HTTP:     []Route{{"DELETE", "/api/canvas/snapshots/:id"}},
	},
	{
		Name: "canvas.batch", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:        "Run several operations atomically, with $refs between them.",
		NewInput:       input[BatchInput](),
		CLI:            &CLIBinding{Path: "batch", Flags: map[string]string{"operations": "-"}},
		HTTP:           []Route{{"POST", "/api/canvas/batch"}},
		BodyArrayField: "operations",
	},
	{
		Name: "annotation.add", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Add human ink: a freehand stroke or a text label.",
		NewInput: input[AnnotationAddInput](),
		HTTP:     []Route{{"POST", "/api/canvas/annotation"}},
	},
	{
		Name: "annotation.remove", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Delete an annotation.",
		NewInput: input[IDInput](),
		HTTP:     []Route{{"DELETE", "/api/canvas/annotation/:id"}},
	},
	{
		Name: "annotation.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List annotation summaries.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"GET", "/api/canvas/annotations"}},
	},
	{
		Name: "canvas.export", Owner: OwnerLayout, Kind: Read,
		Summary:  "Export the canvas as a JSON Canvas 1.0 document, or draw it as an SVG or PNG image (whole board, some nodes or a region).",
		NewInput: input[ExportInput](),
		CLI:      &CLIBinding{Path: "export"},
		HTTP:     []Route{{"GET", "/api/canvas/export"}},

		MCP: &MCPBinding{Tool: "canvas_export",
			Description: "Export the board: format svg draws it on the server (cards, edges, groups, the theme) and returns the SVG text; png returns an image (needs Chromium on the server); jsoncanvas (the default) returns the JSON Canvas 1.0 document. nodes (comma-separated ids) or region (x,y,w,h) pick part of the board. Attach the picture to a pull request or an issue."},
	},
	{
		Name: "canvas.import", Owner: OwnerLayout, Kind: Write,
		Summary:  "Import a JSON Canvas 1.0 document (replace=true clears first).",
		NewInput: input[ImportInput](),
		CLI:      &CLIBinding{Path: "import", Flags: map[string]string{"nodes": "-", "edges": "-"}},
		HTTP:     []Route{{"POST", "/api/canvas/import"}},
	},
}

var catalogByName = func() map[string]*Op {
	m := make(map[string]*Op, len(Catalog))
	for _, op := range Catalog {
		if _, dup := m[op.Name]; dup {
			panic(fmt.Sprintf("messages: duplicate operation %q in Catalog", op.Name))
		}
		m[op.Name] = op
	}
	return m
}()

// Lookup returns the catalog entry for an operation name.
func Lookup(name string) (*Op, bool) {
	op, ok := catalogByName[name]
	return op, ok
}
