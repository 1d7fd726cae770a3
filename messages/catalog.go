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
	// Output returns a pointer to a zero reply body: the Go package's
	// methods return it and the docs name it. nil: the reply is JSON of
	// no declared type (json.RawMessage).
	Output func() any
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
	// MCP lists the operation's MCP tools: each a name and description,
	// its arguments the operation's input fields, and optionally an action
	// of a composite tool (MCPComposites). surfaces/mcp adds only UX: a
	// field subset, the reference's result text.
	MCP []MCPBinding
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

// MCPBinding is one MCP tool that runs an operation. With Composite and
// Action (and Kind, for a composite with two selectors), the tool is also
// that action of a composite tool, which then advertises its fields as it
// does its other actions'.
type MCPBinding struct {
	Tool        string
	Description string
	// UIResource is the ui:// MCP App resource the tool declares
	// (_meta.ui.resourceUri): hosts that render MCP Apps show it.
	UIResource string
	Composite  string
	Action     string
	Kind       string
	// Rename maps the composite's argument names to the tool's, where the
	// composite's selector took the tool's name (approvalAction → action).
	Rename map[string]string
}

// MCPComposite is a tool that runs one of several operations, chosen by
// its selector arguments (action, and kind for canvas_ax_gate). Its
// actions are the bindings that name it; its fields are derived from
// theirs.
type MCPComposite struct {
	Tool        string
	Description string
	// Selectors are the selector arguments with the values the reference
	// froze, in order; an action bound later is appended to the first.
	Selectors []MCPSelector
}

// MCPSelector is a composite's selector argument.
type MCPSelector struct {
	Name        string
	Values      []string
	Description string
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
var Catalog = concatOps(canvasOps, contentOps, appOps, axOps, webviewOps, presenceOps, workbenchOps)

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
		Output:   output[Layout](),
		CLI:      &CLIBinding{Path: "layout"},
		HTTP:     []Route{{"GET", "/api/canvas/state"}},
		MCP: []MCPBinding{{Tool: "canvas_get_layout", Composite: "canvas_query", Action: "layout",
			Description: "Read the whole canvas: a summary, the viewport, annotation summaries, compact nodes and edges; " +
				"with full, the viewport, theme, full nodes, edges and annotations."}},
	},
	{
		Name: "node.add", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Create a node; auto-placed unless both x and y are given.",
		NewInput: input[NodeAddInput](),
		Output:   output[NodeResult](),
		CLI:      &CLIBinding{Flags: map[string]string{"slideTitles": "slide-title", "embeddedNodeIds": "embedded-node-id"}},
		HTTP:     []Route{{"POST", "/api/canvas/node"}},
		MCP: []MCPBinding{{Tool: "canvas_add_node", Composite: "canvas_node", Action: "add",
			Description: "Create a node: markdown, status, context, ledger, trace, file, image, webpage, mcp-app, html or group. " +
				"Returns the created node (compact unless full). json-render, graph and web-artifact nodes have their own tools."}, {Tool: "canvas_add_html_node",
			Description: `Deprecated: use canvas_node with action "add" and type:"html". ` +
				"Create an html node from a document or fragment; it runs in a sandboxed frame with the theme's CSS variables."}, {Tool: "canvas_add_html_primitive",
			Description: `Deprecated: use canvas_node with action "add", type:"html", primitive:"<kind>" (and data). ` +
				"Generate one of the 19 HTML communication primitives (choice-grid, plan-timeline, review-sheet, pr-writeup, " +
				"system-map, code-walkthrough, design-sheet, component-gallery, interaction-prototype, flowchart, deck, presentation, " +
				"illustration-set, explainer, incident-report, status-report, triage-board, config-editor, prompt-tuner) from a data " +
				"object and place it as a sandboxed html node. Data shapes are in canvas_describe_schema → htmlPrimitives. Returns the " +
				"created node plus {kind, title, htmlBytes} of the primitive."}},
	},
	{
		Name: "node.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Read one node.",
		NewInput: input[NodeGetInput](),
		Output:   output[Node](),
		HTTP:     []Route{{"GET", "/api/canvas/node/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_get_node", Composite: "canvas_node", Action: "get",
			Description: "Read one node: the compact view (id, type, kind, title, content, geometry, flags) or, with full, everything including data."}},
	},
	{
		Name: "node.update", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Patch a node's geometry, flags, title, content or data.",
		NewInput: input[NodeUpdateInput](),
		Output:   output[NodeResult](),
		CLI:      &CLIBinding{Flags: map[string]string{"arrangeLocked": "-"}},
		HTTP:     []Route{{"PATCH", "/api/canvas/node/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_update_node", Composite: "canvas_node", Action: "update",
			Description: "Patch a node: title, content, geometry, collapse, docking, pin flag, arrange lock, AX opt-in, " +
				"type-specific fields (trace, html, webpage url, group members). Returns the updated node."}},
	},
	{
		Name: "node.remove", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Delete a node with its edges and pins.",
		NewInput: input[NodeRemoveInput](),
		Output:   output[Removed](),
		HTTP:     []Route{{"DELETE", "/api/canvas/node/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_remove_node", Composite: "canvas_node", Action: "remove",
			Description: "Delete a node from the canvas. Its edges are removed too."}},
	},
	{
		Name: "edge.add", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Connect two nodes, by id or by a unique search match.",
		NewInput: input[EdgeAddInput](),
		Output:   output[EdgeResult](),
		HTTP:     []Route{{"POST", "/api/canvas/edge"}},
		MCP: []MCPBinding{{Tool: "canvas_add_edge", Composite: "canvas_edge", Action: "add",
			Description: "Connect two nodes, named by id or found by search text. Returns the edge."}},
	},
	{
		Name: "edge.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List the edges, optionally those touching one node or of one type.",
		NewInput: input[EdgeListInput](),
		Output:   output[[]Edge](),
		HTTP:     []Route{{"GET", "/api/canvas/edges"}},
		MCP: []MCPBinding{{Tool: "canvas_list_edges",
			Description: "List the canvas's edges ({id, from, to, type, label?, style?, animated?}), all of them or those touching nodeId or of one type."}},
	},
	{
		Name: "edge.remove", Owner: OwnerLayout, Kind: Write,
		Summary:         "Delete an edge by edge_id (or id).",
		NewInput:        input[EdgeRemoveInput](),
		Output:          output[Removed](),
		CLI:             &CLIBinding{Args: []string{"edge_id"}, Flags: map[string]string{"id": "-"}},
		HTTP:            []Route{{"DELETE", "/api/canvas/edge"}},
		DeleteReadsBody: true,
		MCP: []MCPBinding{{Tool: "canvas_remove_edge", Composite: "canvas_edge", Action: "remove",
			Description: "Delete an edge by id."}},
	},
	{
		Name: "group.create", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Create a group frame around nodes (fit) or at a given frame (manual).",
		NewInput: input[GroupCreateInput](),
		Output:   output[NodeResult](),
		CLI:      &CLIBinding{Args: []string{"childIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/group"}},
		MCP: []MCPBinding{{Tool: "canvas_create_group", Composite: "canvas_group", Action: "create",
			Description: "Create a group frame, around existing nodes (it fits them) or at a given frame. Returns the group node."}},
	},
	{
		Name: "group.add", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Add nodes to a group.",
		NewInput: input[GroupAddInput](),
		Output:   output[GroupResult](),
		CLI:      &CLIBinding{Args: []string{"childIds..."}, Flags: map[string]string{"groupId": "group"}},
		HTTP:     []Route{{"POST", "/api/canvas/group/add"}},
		MCP: []MCPBinding{{Tool: "canvas_group_nodes", Composite: "canvas_group", Action: "add",
			Description: "Move nodes into an existing group."}},
	},
	{
		Name: "group.remove", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Release every member of a group; the frame stays.",
		NewInput: input[GroupRemoveInput](),
		Output:   output[GroupResult](),
		CLI:      &CLIBinding{Args: []string{"groupId"}},
		HTTP:     []Route{{"POST", "/api/canvas/group/ungroup"}},
		MCP: []MCPBinding{{Tool: "canvas_ungroup", Composite: "canvas_group", Action: "ungroup",
			Description: "Release every member of a group; the group frame stays."}},
	},
	{
		Name: "pin.set", Owner: OwnerLayout, Kind: Write, Batch: true, Documented: true,
		Summary:  "Set, add or remove context pins (at most 20).",
		NewInput: input[PinSetInput](),
		Output:   output[Pins](),
		CLI:      &CLIBinding{Path: "pin", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/context-pins"}},
		MCP: []MCPBinding{{Tool: "canvas_pin_nodes",
			Description: "Set, extend or shrink the context pins: the nodes the agent reads as context " +
				"(canvas://pinned-context). At most 20. Returns the pinned ids."}},
	},
	{
		Name: "pinned.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Read the pinned nodes as agent context, with a text preamble.",
		NewInput: input[EmptyInput](),
		Output:   output[PinnedContext](),
		CLI:      &CLIBinding{Path: "pin --list"},
		HTTP:     []Route{{"GET", "/api/canvas/pinned-context"}},
	},
	{
		Name: "search", Owner: OwnerLayout, Kind: Read, Documented: true, GoMethod: "SearchNodes",
		Summary:  "Search node titles, paths, urls and content.",
		NewInput: input[SearchInput](),
		Output:   output[SearchResults](),
		CLI:      &CLIBinding{Args: []string{"q"}, Flags: map[string]string{"query": "-"}},
		HTTP:     []Route{{"GET", "/api/canvas/search"}},
		MCP: []MCPBinding{{Tool: "canvas_search", Composite: "canvas_query", Action: "search",
			Description: "Search nodes by keywords in titles, content, paths and URLs; ranked results with snippets (all matches unless limit says otherwise)."}},
	},
	{
		Name: "validate.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Report collisions, group containment and dangling edges.",
		NewInput: input[EmptyInput](),
		Output:   output[Validation](),
		CLI:      &CLIBinding{Path: "validate"},
		HTTP:     []Route{{"GET", "/api/canvas/validate"}},
		MCP: []MCPBinding{{Tool: "canvas_validate", Composite: "canvas_query", Action: "validate",
			Description: "Check the layout: overlapping nodes, members outside their group, edges to missing nodes."}},
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
		Output:   output[History](),
		CLI:      &CLIBinding{Path: "history"},
		HTTP:     []Route{{"GET", "/api/canvas/history"}},
	},
	{
		Name: "canvas.undo", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Undo the last layout change.",
		NewInput: input[EmptyInput](),
		Output:   output[HistoryStep](),
		CLI:      &CLIBinding{Path: "undo"},
		HTTP:     []Route{{"POST", "/api/canvas/undo"}},
		MCP: []MCPBinding{{Tool: "canvas_undo", Composite: "canvas_history", Action: "undo",
			Description: "Undo the last canvas change. Nothing to undo is a normal result with ok:false."}},
	},
	{
		Name: "canvas.redo", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Redo the last undone change.",
		NewInput: input[EmptyInput](),
		Output:   output[HistoryStep](),
		CLI:      &CLIBinding{Path: "redo"},
		HTTP:     []Route{{"POST", "/api/canvas/redo"}},
		MCP: []MCPBinding{{Tool: "canvas_redo", Composite: "canvas_history", Action: "redo",
			Description: "Redo the last undone change. Nothing to redo is a normal result with ok:false."}},
	},
	{
		Name: "viewport.set", Owner: OwnerLayout, Kind: Write,
		Summary:  "Pan and zoom.",
		NewInput: input[ViewportInput](),
		Output:   output[ViewportResult](),
		HTTP:     []Route{{"POST", "/api/canvas/viewport"}},
	},
	{
		Name: "node.focus", Owner: OwnerLayout, Kind: Write,
		Summary:  "Pan to a node, or raise it (noPan).",
		NewInput: input[FocusInput](),
		Output:   output[FocusResult](),
		CLI:      &CLIBinding{Path: "focus", Args: []string{"id"}},
		HTTP:     []Route{{"POST", "/api/canvas/focus"}},
		MCP: []MCPBinding{{Tool: "canvas_focus_node", Composite: "canvas_view", Action: "focus",
			Description: "Pan the view to a node (or, with noPan, raise it above the others) and make it the AX focus."}},
	},
	{
		Name: "view.fit", Owner: OwnerLayout, Kind: Write,
		Summary:  "Fit the viewport to all nodes or to the named ones.",
		NewInput: input[FitInput](),
		Output:   output[FitResult](),
		CLI:      &CLIBinding{Path: "fit", Args: []string{"nodeIds..."}},
		HTTP:     []Route{{"POST", "/api/canvas/fit"}},
		MCP: []MCPBinding{{Tool: "canvas_fit_view", Composite: "canvas_view", Action: "fit",
			Description: "Set the viewport so every node, or the named ones, fits the screen."}},
	},
	{
		Name: "arrange", Owner: OwnerLayout, Kind: Write, Batch: true, GoMethod: "ArrangeNodes",
		Summary:  "Auto-arrange the unlocked nodes: grid, column or flow.",
		NewInput: input[ArrangeInput](),
		Output:   output[ArrangeResult](),
		HTTP:     []Route{{"POST", "/api/canvas/arrange"}},
		MCP: []MCPBinding{{Tool: "canvas_arrange", Composite: "canvas_view", Action: "arrange",
			Description: "Re-lay out the unlocked nodes as a grid (default), a column or a row (flow). Pinned, docked and locked nodes stay."}},
	},
	{
		Name: "canvas.clear", Owner: OwnerLayout, Kind: Write,
		Summary:  "Remove every node, edge, annotation and pin (undoable).",
		NewInput: input[EmptyInput](),
		Output:   output[Written](),
		CLI:      &CLIBinding{Path: "clear"},
		HTTP:     []Route{{"POST", "/api/canvas/clear"}},
		MCP: []MCPBinding{{Tool: "canvas_clear", Composite: "canvas_view", Action: "clear",
			Description: "Delete every node, edge and annotation (undoable)."}},
	},
	{
		Name: "theme.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Read the theme.",
		NewInput: input[EmptyInput](),
		Output:   output[ThemeResult](),
		HTTP:     []Route{{"GET", "/api/canvas/theme"}},
	},
	{
		Name: "theme.set", Owner: OwnerLayout, Kind: Write,
		Summary:  "Set the theme: dark, light or high-contrast.",
		NewInput: input[ThemeSetInput](),
		Output:   output[ThemeResult](),
		HTTP:     []Route{{"POST", "/api/canvas/theme"}},
	},
	{
		Name: "layout.update", Owner: OwnerLayout, Kind: Write,
		Summary:  "Apply bulk geometry (what the browser sends at the end of a drag).",
		NewInput: input[UpdateInput](),
		Output:   output[UpdateResult](),
		HTTP:     []Route{{"POST", "/api/canvas/update"}},
	},
	{
		Name: "snapshot.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List snapshots, newest first.",
		NewInput: input[SnapshotListInput](),
		Output:   output[[]Snapshot](),
		CLI:      &CLIBinding{Flags: map[string]string{"q": "-"}},
		HTTP:     []Route{{"GET", "/api/canvas/snapshots"}},
		MCP: []MCPBinding{{Tool: "canvas_list_snapshots",
			Description: "List saved snapshots, newest first (20 unless limit or all says otherwise)."}},
	},
	{
		Name: "snapshot.save", Owner: OwnerLayout, Kind: Write, Batch: true,
		Summary:  "Save the layout as a named snapshot.",
		NewInput: input[SnapshotSaveInput](),
		Output:   output[SnapshotSaved](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots"}},
		MCP: []MCPBinding{{Tool: "canvas_snapshot",
			Description: "Save the canvas as a named snapshot. With action it also lists (list), restores (restore), " +
				"deletes (delete), garbage-collects (gc) or diffs against (diff) snapshots, answering as " +
				"canvas_list_snapshots, canvas_restore, canvas_delete_snapshot, canvas_gc_snapshots and canvas_diff do."}},
	},
	{
		Name: "snapshot.gc", Owner: OwnerLayout, Kind: Write,
		Summary:  "Delete all but the newest snapshots.",
		NewInput: input[SnapshotGCInput](),
		Output:   output[SnapshotGC](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots/gc"}},
		MCP: []MCPBinding{{Tool: "canvas_gc_snapshots",
			Description: "Delete old snapshots, keeping the newest keep (20); dryRun only reports."}},
	},
	{
		Name: "snapshot.diff.query", Owner: OwnerLayout, Kind: Read,
		Summary:  "Diff the canvas against a snapshot named by ?name= or ?id=.",
		NewInput: input[SnapshotDiffQueryInput](),
		Output:   output[SnapshotDiff](),
		CLI:      &CLIBinding{Path: "snapshot diff-query"},
		HTTP:     []Route{{"GET", "/api/canvas/snapshots/diff"}},
	},
	{
		Name: "snapshot.diff", Owner: OwnerLayout, Kind: Read,
		Summary:  "Diff the canvas against a snapshot (id or name).",
		NewInput: input[SnapshotRefInput](),
		Output:   output[SnapshotDiff](),
		HTTP:     []Route{{"GET", "/api/canvas/snapshots/:id/diff"}},
		MCP: []MCPBinding{{Tool: "canvas_diff",
			Description: "Describe, as text, how the canvas differs from a snapshot."}},
	},
	{
		Name: "snapshot.restore", Owner: OwnerLayout, Kind: Write,
		Summary:  "Restore a snapshot (id or name; undoable).",
		NewInput: input[SnapshotRefInput](),
		Output:   output[SnapshotRestored](),
		HTTP:     []Route{{"POST", "/api/canvas/snapshots/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_restore",
			Description: "Replace the canvas with a snapshot (undoable). Returns a summary of the restored canvas."}},
	},
	{
		Name: "snapshot.delete", Owner: OwnerLayout, Kind: Write,
		Summary:  "Delete a snapshot (id or name).",
		NewInput: input[SnapshotRefInput](),
		Output:   output[SnapshotDeleted](),
		HTTP:     []Route{{"DELETE", "/api/canvas/snapshots/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_delete_snapshot",
			Description: "Delete a snapshot."}},
	},
	{
		Name: "canvas.batch", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:        "Run several operations atomically, with $refs between them.",
		NewInput:       input[BatchInput](),
		Output:         output[BatchResult](),
		CLI:            &CLIBinding{Path: "batch", Flags: map[string]string{"operations": "-"}},
		HTTP:           []Route{{"POST", "/api/canvas/batch"}},
		BodyArrayField: "operations",
		MCP: []MCPBinding{{Tool: "canvas_batch",
			Description: "Run a list of canvas operations in one atomic step (all apply or none; one undo step). Each entry is " +
				"{op, assign?, args?}; a later entry's args may use \"$name\" for an assigned result's id or \"$name.path\" for a " +
				"field of it. Ops: node.add, node.update, node.remove, graph.add, edge.add, group.create, group.add, group.remove, " +
				"pin.set, pin.add, pin.remove, snapshot.save, arrange."}},
	},
	{
		Name: "annotation.add", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Add human ink: a freehand stroke or a text label.",
		NewInput: input[AnnotationAddInput](),
		Output:   output[AnnotationResult](),
		HTTP:     []Route{{"POST", "/api/canvas/annotation"}},
	},
	{
		Name: "annotation.remove", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Delete an annotation.",
		NewInput: input[IDInput](),
		Output:   output[Removed](),
		HTTP:     []Route{{"DELETE", "/api/canvas/annotation/:id"}},
		MCP: []MCPBinding{{Tool: "canvas_remove_annotation", Composite: "canvas_view", Action: "remove-annotation",
			Description: "Delete a human ink annotation by id."}},
	},
	{
		Name: "annotation.list", Owner: OwnerLayout, Kind: Read,
		Summary:  "List annotation summaries.",
		NewInput: input[EmptyInput](),
		Output:   output[Annotations](),
		HTTP:     []Route{{"GET", "/api/canvas/annotations"}},
	},
	{
		Name: "canvas.export", Owner: OwnerLayout, Kind: Read,
		Summary:  "Export the canvas as a JSON Canvas 1.0 document, or draw it as an SVG or PNG image (whole board, some nodes or a region).",
		NewInput: input[ExportInput](),
		Output:   output[Blob](),
		CLI:      &CLIBinding{Path: "export"},
		HTTP:     []Route{{"GET", "/api/canvas/export"}},
		MCP: []MCPBinding{{Tool: "canvas_export",
			Description: "Export the board: format svg draws it on the server (cards, edges, groups, the theme) and returns the SVG text; png returns an image (needs Chromium on the server); jsoncanvas (the default) returns the JSON Canvas 1.0 document. nodes (comma-separated ids) or region (x,y,w,h) pick part of the board. Attach the picture to a pull request or an issue."}},
	},
	{
		Name: "canvas.import", Owner: OwnerLayout, Kind: Write,
		Summary:  "Import a JSON Canvas 1.0 document (replace=true clears first).",
		NewInput: input[ImportInput](),
		Output:   output[ImportResult](),
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
