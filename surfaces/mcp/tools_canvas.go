package mcpapi

// Canvas tools: nodes, edges, groups, view, query, history, snapshots,
// batch, pins, search, validation, annotations (reference mcp.md §6, §7.1–7.6).
//
// Result rule: where the reference's text is the operation's HTTP body as
// is, the tool sends our HTTP body as is (so it carries our additions, such
// as revision); where the reference builds its own object, the tool builds
// the same keys in the same order.

// Schema helpers.
func cvStr(desc string) Obj { return Obj{{"type", "string"}, {"description", desc}} }
func cvNum(desc string) Obj { return Obj{{"type", "number"}, {"description", desc}} }
func cvBool(desc string) Obj {
	return Obj{{"type", "boolean"}, {"description", desc}}
}
func cvEnum(desc string, values ...string) Obj {
	return Obj{{"type", "string"}, {"enum", values}, {"description", desc}}
}
func cvStrList(desc string) Obj {
	return Obj{{"type", "array"}, {"items", Obj{{"type", "string"}}}, {"description", desc}}
}
func cvAny(desc string) Obj { return Obj{{"description", desc}} }
func cvRecord() Obj {
	return Obj{{"type", "object"}, {"propertyNames", Obj{{"type", "string"}}}, {"additionalProperties", Obj{}}}
}
func cvRecordDesc(desc string) Obj { return cvRecord().With("description", desc) }

// axCapabilitiesSchema is {enabled?: boolean, allowed?: string[]}.
func cvAxCaps(desc string) Obj {
	return Obj{{"type", "object"}, {"properties", Obj{
		{"enabled", Obj{{"type", "boolean"}}},
		{"allowed", Obj{{"type", "array"}, {"items", Obj{{"type", "string"}}}}},
	}}, {"description", desc}}
}

var cvNodeTypes = []string{"markdown", "status", "context", "ledger", "trace", "file", "image", "webpage", "mcp-app", "html", "group"}

var cvLayouts = []string{"grid", "column", "flow"}

var cvFullFields = []Field{
	{Name: "full", Check: Reject, Schema: cvBool("true returns the full node payload (with data) instead of the compact one."),
		Loose: cvBool("true returns the full node payload (with data) instead of the compact one.")},
	{Name: "verbose", Check: Reject, Schema: cvBool("Same as full:true."), Loose: cvBool("Same as full:true.")},
}

func cvDropped(name string, schema Obj) Field { return Field{Name: name, Check: Drop, Schema: schema} }
func cvStrict(name string, schema Obj) Field  { return Field{Name: name, Check: Reject, Schema: schema} }
func cvRequired(name string, schema Obj) Field {
	return Field{Name: name, Check: Reject, Required: true, Schema: schema}
}
func cvAccepted(name, desc string) Field {
	return Field{Name: name, Check: Accept, Schema: cvAny(desc)}
}

// sharedDropped is a dropped field that a composite publishes with the
// same type when its actions share it.
func cvShared(name string, schema Obj) Field {
	return Field{Name: name, Check: Drop, Schema: schema, Loose: schema}
}

var cvTraceDescs = [][2]string{
	{"toolName", "Trace nodes: the tool or operation label."},
	{"category", "Trace nodes: mcp, file, subagent or other."},
	{"status", "Trace nodes: running, success or failed."},
	{"duration", "Trace nodes: duration badge text."},
	{"resultSummary", "Trace nodes: one-line result summary."},
	{"error", "Trace nodes: error message."},
}

func cvTraceFields(shared bool) []Field {
	var out []Field
	for _, d := range cvTraceDescs {
		if shared {
			out = append(out, cvShared(d[0], cvStr(d[1])))
		} else {
			out = append(out, cvDropped(d[0], cvStr(d[1])))
		}
	}
	return out
}

var addNodeFields = append(append(append([]Field{
	cvRequired("type", cvEnum("Node type to create.", cvNodeTypes...)),
	cvShared("title", cvStr("Node title.")),
	cvShared("content", cvStr("Body: markdown text, a file path (file), an image path, URL or data URI (image), or the URL (webpage, when url is absent).")),
	cvDropped("path", cvStr("Image nodes: used as the content when content is absent.")),
	cvShared("url", cvStr("Webpage nodes: the page URL (preferred over content).")),
	cvShared("x", cvNum("World X; auto-placed unless both x and y are given.")),
	cvShared("y", cvNum("World Y; auto-placed unless both x and y are given.")),
	cvShared("width", cvNum("Frame width (defaults by type: markdown 640, html 720, mcp-app 960, image 480, ledger 420, webpage 520, others 360).")),
	cvShared("height", cvNum("Frame height (defaults by type: markdown 420, html 640, mcp-app 600, image 360, ledger 280, webpage 420, others 200).")),
	cvShared("strictSize", cvBool("Keep the given width and height; overflowing content scrolls instead of the frame growing.")),
	cvStrict("children", cvStrList("Group nodes: member ids (alias of childIds, read first).")),
	cvStrict("childIds", cvStrList("Group nodes: member ids; they must exist and must not be groups.")),
	cvDropped("childLayout", cvEnum("Group nodes: pack the members in this layout; omit to keep their positions.", cvLayouts...)),
	cvDropped("color", cvStr("Group nodes: frame accent colour.")),
}, cvTraceFields(true)...), []Field{
	cvAccepted("data", "Extra node data (an object) merged into the node's data."),
	cvAccepted("html", "Html nodes: the document or fragment (a string)."),
	cvAccepted("primitive", "Html nodes: an HTML primitive kind to generate (not available yet)."),
	cvAccepted("kind", "Alias of primitive."),
	cvDropped("summary", cvStr("Html nodes: agent-readable summary (data.summary).")),
	cvDropped("agentSummary", cvStr("Html nodes: explicit agent summary (data.agentSummary).")),
	cvDropped("description", cvStr("Html nodes: short description for search and context.")),
	cvDropped("presentation", cvBool("Html nodes: true marks a fullscreen deck.")),
	cvAccepted("slideTitles", "Html nodes: slide titles (an array)."),
	cvAccepted("embeddedNodeIds", "Html nodes: ids of the nodes the surface represents (an array)."),
	cvAccepted("embeddedUrls", "Html nodes: URLs the surface represents (an array)."),
	cvStrict("axCapabilities", cvAxCaps("Html nodes: opt into AX interactions {enabled, allowed[]}.")),
	cvAccepted("position", "Object form {x, y}; top-level x/y win."),
	cvAccepted("size", "Object form {width, height}; top-level width/height win."),
}...), cvFullFields...)

var getNodeFields = append([]Field{
	{Name: "id", Required: true, Check: Reject, Schema: cvStr("Node id."), Loose: cvStr("Node id.")},
	cvAccepted("includeBlobs", "Ignored: node reads always include large app payloads."),
}, cvFullFields...)

var updateNodeFields = append(append(append([]Field{
	cvRequired("id", cvStr("Node to patch.")),
	cvStrict("title", cvStr("New title.")),
	cvStrict("content", cvStr("New content text.")),
	cvDropped("x", cvNum("New X (the other coordinate is kept when only one is given).")),
	cvDropped("y", cvNum("New Y.")),
	cvDropped("width", cvNum("New frame width (the other side is kept when only one is given).")),
	cvDropped("height", cvNum("New frame height.")),
	cvAccepted("position", "Object form {x, y}; top-level x/y win."),
	cvAccepted("size", "Object form {width, height}; top-level width/height win."),
	cvStrict("spec", cvRecordDesc("Replacement json-render spec or graph payload (graph and json-render nodes).")),
	cvStrict("graphType", cvStr("Graph nodes: new chart kind.")),
	cvStrict("data", Obj{{"type", "array"}, {"items", cvRecord()}, {"description", "Graph nodes: the new dataset (rows)."}}),
	cvStrict("xKey", cvStr("Graph nodes: x key.")),
	cvStrict("yKey", cvStr("Graph nodes: y key.")),
	cvStrict("chartHeight", cvNum("Graph nodes: plot height (not the frame height).")),
}, cvTraceFields(false)...), []Field{
	cvStrict("collapsed", cvBool("Collapse or expand.")),
	cvStrict("dockPosition", Obj{{"anyOf", []Obj{{{"type", "string"}, {"enum", []string{"left", "right"}}}, {{"type", "null"}}}},
		{"description", "left or right docks the node into a side column; null undocks it."}}),
	cvStrict("pinned", cvBool("Pin flag (pinned nodes stay put on arrange); not a context pin.")),
	cvStrict("arrangeLocked", cvBool("Keep the node out of auto-arrange.")),
	cvDropped("strictSize", cvBool("Keep the given width and height; overflowing content scrolls.")),
	cvStrict("axCapabilities", cvAxCaps("AX interaction opt-in {enabled, allowed[]}, merged into the node's data.")),
	cvAccepted("html", "Html nodes: replacement document (a string)."),
	cvAccepted("url", "Webpage nodes: new URL."),
	cvAccepted("refresh", "Webpage nodes: true re-fetches the page instead of patching (not available yet)."),
	cvAccepted("children", "Group nodes: replacement member list."),
	cvAccepted("childIds", "Group nodes: alias of children."),
}...), cvFullFields...)

var layoutFields = append([]Field{
	cvAccepted("includeBlobs", "Ignored: layout reads always include large app payloads."),
}, cvFullFields...)

var addEdgeFields = []Field{
	cvDropped("from", cvStr("Source node id.")),
	cvDropped("to", cvStr("Target node id.")),
	cvDropped("fromSearch", cvStr("Find the source by title or content instead of id.")),
	cvDropped("toSearch", cvStr("Find the target by title or content instead of id.")),
	cvRequired("type", cvEnum("flow: sequence, depends-on: dependency, relation: generic link, references: cross-reference.",
		"flow", "depends-on", "relation", "references")),
	cvStrict("label", cvStr("Edge label.")),
	cvStrict("style", cvEnum("Stroke style.", "solid", "dashed", "dotted")),
	cvStrict("animated", cvBool("Animated stroke.")),
}

var createGroupFields = append([]Field{
	cvDropped("title", cvStr("Group title (default \"Group\").")),
	cvStrict("childIds", cvStrList("Members; every id must exist. The frame fits them unless x/y/width/height are given.")),
	cvDropped("color", cvStr("Frame accent colour (CSS).")),
	cvDropped("x", cvNum("Frame X (computed from the members when absent).")),
	cvDropped("y", cvNum("Frame Y (computed from the members when absent).")),
	cvDropped("width", cvNum("Frame width (computed when absent).")),
	cvDropped("height", cvNum("Frame height (computed when absent).")),
	cvShared("childLayout", cvEnum("Pack the members in this layout; omit to keep their positions.", cvLayouts...)),
}, cvFullFields...)

var groupNodesFields = []Field{
	{Name: "groupId", Required: true, Check: Reject, Schema: cvStr("Existing group node id."), Loose: cvStr("Group node id.")},
	cvRequired("childIds", cvStrList("Nodes to move into the group.")),
	cvDropped("childLayout", cvEnum("Pack the members in this layout while grouping.", cvLayouts...)),
}

var fitFields = []Field{
	cvDropped("width", cvNum("Screen width the fit assumes (default 1440).")),
	cvDropped("height", cvNum("Screen height the fit assumes (default 900).")),
	cvDropped("padding", cvNum("World-space padding (default 60).")),
	cvDropped("maxScale", cvNum("Zoom cap (default 1).")),
	cvStrict("nodeIds", cvStrList("Fit only these nodes (all when absent or empty).")),
}

func init() {
	define(
		&Tool{
			Name: "canvas_add_node",
			Description: "Create a node: markdown, status, context, ledger, trace, file, image, webpage, mcp-app, html or group. " +
				"Returns the created node (compact unless full). json-render, graph and web-artifact nodes have their own tools.",
			Fields: addNodeFields,
			Op:     "node.add",
			Run:    runAddNode,
		},
		&Tool{
			Name:        "canvas_get_node",
			Description: "Read one node: the compact view (id, type, kind, title, content, geometry, flags) or, with full, everything including data.",
			Fields:      getNodeFields,
			Op:          "node.get",
			Run:         runGetNode,
		},
		&Tool{
			Name: "canvas_update_node",
			Description: "Patch a node: title, content, geometry, collapse, docking, pin flag, arrange lock, AX opt-in, " +
				"type-specific fields (trace, html, webpage url, group members). Returns the updated node.",
			Fields: updateNodeFields,
			Op:     "node.update",
			Run:    runUpdateNode,
		},
		&Tool{
			Name:        "canvas_remove_node",
			Description: "Delete a node from the canvas. Its edges are removed too.",
			Fields: []Field{
				{Name: "id", Required: true, Check: Reject, Schema: Obj{{"type", "string"}, {"description", "Node to delete (its edges go too)."}}},
			},
			Op: "node.remove",
			Build: func(_ *Call, a Args) (Args, error) {
				id, err := cvRequireString(a, "node.remove", "id")
				return Args{"id": id}, err
			},
			Format: CompactBody,
		},
		&Tool{
			Name: "canvas_get_layout",
			Description: "Read the whole canvas: a summary, the viewport, annotation summaries, compact nodes and edges; " +
				"with full, the viewport, theme, full nodes, edges and annotations.",
			Fields: layoutFields,
			Op:     "layout.get",
			Run:    runGetLayout,
		},
		&Tool{
			Name:        "canvas_add_edge",
			Description: "Connect two nodes, named by id or found by search text. Returns the edge.",
			Fields:      addEdgeFields,
			Op:          "edge.add",
			Build:       buildAddEdge,
			Format:      formatEdge,
		},
		&Tool{
			Name:        "canvas_remove_edge",
			Description: "Delete an edge by id.",
			Fields: []Field{
				cvRequired("id", cvStr("Edge id.")),
				cvDropped("edge_id", cvStr("Legacy alias of id; wins when both are given.")),
			},
			Op:     "edge.remove",
			Build:  func(_ *Call, a Args) (Args, error) { return cvDropWrongTypes(removeEdgeFields(), cvCopyArgs(a)), nil },
			Format: cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name:        "canvas_arrange",
			Description: "Re-lay out the unlocked nodes as a grid (default), a column or a row (flow). Pinned, docked and locked nodes stay.",
			Fields:      []Field{cvStrict("layout", cvEnum("grid (default), column (vertical stack) or flow (horizontal row).", cvLayouts...))},
			Op:          "arrange",
			Format: func(r *Reply) (string, error) {
				body, err := cvReplyObj(r)
				if err != nil {
					return "", err
				}
				layout, _ := body.Get("layout")
				return Compact(Obj{{"ok", true}, {"layout", layout}})
			},
		},
		&Tool{
			Name:        "canvas_focus_node",
			Description: "Pan the view to a node (or, with noPan, raise it above the others) and make it the AX focus.",
			Fields: []Field{
				{Name: "id", Required: true, Check: Reject, Schema: cvStr("Node to focus.")},
				cvStrict("noPan", cvBool("true raises the node without moving the view.")),
			},
			Op:     "node.focus",
			Build:  cvBuildIDOrMissing,
			Format: CompactBody,
		},
		&Tool{
			Name:        "canvas_fit_view",
			Description: "Set the viewport so every node, or the named ones, fits the screen.",
			Fields:      fitFields,
			Op:          "view.fit",
			Build:       func(_ *Call, a Args) (Args, error) { return cvDropWrongTypes(fitFields, cvCopyArgs(a)), nil },
		},
		&Tool{
			Name:        "canvas_clear",
			Description: "Delete every node, edge and annotation (undoable).",
			Op:          "canvas.clear",
			Format:      func(*Reply) (string, error) { return `{"ok":true,"cleared":true}`, nil },
		},
		&Tool{
			Name:        "canvas_create_group",
			Description: "Create a group frame, around existing nodes (it fits them) or at a given frame. Returns the group node.",
			Fields:      createGroupFields,
			Op:          "group.create",
			Run:         runCreateGroup,
		},
		&Tool{
			Name:        "canvas_group_nodes",
			Description: "Move nodes into an existing group.",
			Fields:      groupNodesFields,
			Op:          "group.add",
			Build: func(_ *Call, a Args) (Args, error) {
				a = cvDropWrongTypes(groupNodesFields, cvCopyArgs(a))
				cvStringsOnly(a, "childIds")
				return a, nil
			},
			Format: cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name:        "canvas_ungroup",
			Description: "Release every member of a group; the group frame stays.",
			Fields:      []Field{cvRequired("groupId", cvStr("Group to empty."))},
			Op:          "group.remove",
			Build: func(_ *Call, a Args) (Args, error) {
				a = cvCopyArgs(a)
				cvDropUnless(a, "groupId", cvIsString)
				return a, nil
			},
			Format: cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name: "canvas_pin_nodes",
			Description: "Set, extend or shrink the context pins: the nodes the agent reads as context " +
				"(canvas://pinned-context). At most 20. Returns the pinned ids.",
			Fields: []Field{
				cvRequired("nodeIds", cvStrList("Node ids.")),
				cvStrict("mode", cvEnum("set (default) replaces the pins, add appends, remove unpins.", "set", "add", "remove")),
			},
			Op: "pin.set",
			Format: func(r *Reply) (string, error) {
				body, err := cvReplyObj(r)
				if err != nil {
					return "", err
				}
				ids, ok := body.Get("nodeIds")
				if !ok || ids == nil {
					ids = []any{}
				}
				return Compact(Obj{{"ok", true}, {"pinnedNodeIds", ids}})
			},
		},
		&Tool{
			Name:        "canvas_search",
			Description: "Search nodes by keywords in titles, content, paths and URLs; ranked results with snippets (10 unless limit says otherwise).",
			Fields: []Field{
				cvAccepted("q", "Ignored: use query."),
				cvStrict("limit", cvNum("Most results to return (default 10).")),
				cvRequired("query", cvStr("Keywords.")),
			},
			Op:  "search",
			Run: runSearch,
		},
		&Tool{
			Name:        "canvas_undo",
			Description: "Undo the last canvas change. Nothing to undo is a normal result with ok:false.",
			Op:          "canvas.undo",
			Run:         func(c *Call, _ Args) (*Result, error) { return runHistory(c, "canvas.undo") },
		},
		&Tool{
			Name:        "canvas_redo",
			Description: "Redo the last undone change. Nothing to redo is a normal result with ok:false.",
			Op:          "canvas.redo",
			Run:         func(c *Call, _ Args) (*Result, error) { return runHistory(c, "canvas.redo") },
		},
		&Tool{
			Name:        "canvas_validate",
			Description: "Check the layout: overlapping nodes, members outside their group, edges to missing nodes.",
			Op:          "validate.get",
		},
		&Tool{
			Name:        "canvas_remove_annotation",
			Description: "Delete a human ink annotation by id.",
			Fields:      []Field{cvRequired("id", cvStr("Annotation id."))},
			Op:          "annotation.remove",
			Build:       cvBuildIDOrMissing,
			Format:      cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name: "canvas_add_html_node",
			Description: `Deprecated: use canvas_node with action "add" and type:"html". ` +
				"Create an html node from a document or fragment; it runs in a sandboxed frame with the theme's CSS variables.",
			Fields: []Field{
				cvRequired("html", cvStr("The document or fragment.")),
				cvStrict("title", cvStr("Title bar text.")),
				cvStrict("summary", cvStr("Agent summary.")),
				cvStrict("agentSummary", cvStr("Explicit agent summary; wins over summary.")),
				cvStrict("description", cvStr("Short description for search and context.")),
				cvStrict("presentation", cvBool("true makes it a fullscreen deck.")),
				cvStrict("slideTitles", cvStrList("Slide titles for decks.")),
				cvStrict("embeddedNodeIds", cvStrList("Ids of the nodes the surface represents.")),
				cvStrict("embeddedUrls", cvStrList("URLs the surface represents.")),
				cvStrict("x", cvNum("World X; auto-placed when absent.")),
				cvStrict("y", cvNum("World Y; auto-placed when absent.")),
				cvStrict("width", cvNum("Frame width (default 720).")),
				cvStrict("height", cvNum("Frame height (default 640).")),
				cvStrict("strictSize", cvBool("true keeps the given size; content scrolls.")),
				cvStrict("axCapabilities", cvAxCaps("Opt into AX interactions {enabled, allowed[]}.")),
				cvFullFields[0], cvFullFields[1],
			},
			Op:  "node.add",
			Run: runAddHTMLNode,
		},

		// Composites.
		&Tool{
			Name: "canvas_node",
			Description: "Node CRUD in one tool: add (any basic type, html, group), get (compact unless full), " +
				"update (patch), remove.",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"add", "get", "update", "remove"},
				Description: "Operation to perform: add | get | update | remove."}},
			Actions: []Action{{Name: "add", Tool: "canvas_add_node"}, {Name: "get", Tool: "canvas_get_node"},
				{Name: "update", Tool: "canvas_update_node"}, {Name: "remove", Tool: "canvas_remove_node"}},
		},
		&Tool{
			Name:        "canvas_edge",
			Description: "Connect two nodes (add) or delete an edge (remove).",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"add", "remove"},
				Description: "Operation to perform: add | remove."}},
			Actions: []Action{{Name: "add", Tool: "canvas_add_edge"}, {Name: "remove", Tool: "canvas_remove_edge"}},
		},
		&Tool{
			Name:        "canvas_group",
			Description: "Group frames: create one, move nodes into one (add), or release its members (ungroup).",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"create", "add", "ungroup"},
				Description: "Operation to perform: create | add | ungroup."}},
			Actions: []Action{{Name: "create", Tool: "canvas_create_group"}, {Name: "add", Tool: "canvas_group_nodes"},
				{Name: "ungroup", Tool: "canvas_ungroup"}},
		},
		&Tool{
			Name:        "canvas_history",
			Description: "Undo or redo the last canvas change. An empty history is a normal result with ok:false.",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"undo", "redo"},
				Description: "Operation to perform: undo | redo."}},
			Actions: []Action{{Name: "undo", Tool: "canvas_undo"}, {Name: "redo", Tool: "canvas_redo"}},
		},
		&Tool{
			Name:        "canvas_view",
			Description: "Board-wide view actions: arrange the nodes, focus a node, fit the view, clear the canvas, remove an ink annotation.",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"arrange", "focus", "fit", "clear", "remove-annotation"},
				Description: "Operation to perform: arrange | focus | fit | clear | remove-annotation."}},
			Actions: []Action{{Name: "arrange", Tool: "canvas_arrange"}, {Name: "focus", Tool: "canvas_focus_node"},
				{Name: "fit", Tool: "canvas_fit_view"}, {Name: "clear", Tool: "canvas_clear"},
				{Name: "remove-annotation", Tool: "canvas_remove_annotation"}},
		},
		&Tool{
			Name:        "canvas_query",
			Description: "Cheap reads: keyword search, the whole layout (compact unless full), a layout health check.",
			Discriminators: []Discriminator{{Name: "action", Values: []string{"search", "layout", "validate"},
				Description: "Operation to perform: search | layout | validate."}},
			Actions: []Action{{Name: "search", Tool: "canvas_search"}, {Name: "layout", Tool: "canvas_get_layout"},
				{Name: "validate", Tool: "canvas_validate"}},
		},
	)
}

func removeEdgeFields() []Field { return definitions["canvas_remove_edge"].Fields }

// runAddNode creates a node (canvas_add_node, canvas_node add).
func runAddNode(c *Call, a Args) (*Result, error) {
	a = cvDropWrongTypes(addNodeFields, cvCopyArgs(a))
	typ, _ := a["type"].(string)
	if typ == "html" {
		_, p := a["primitive"]
		_, k := a["kind"]
		if p || k {
			return nil, Errorf("canvas_add_node: HTML primitives are not available yet")
		}
	} else {
		delete(a, "primitive")
		delete(a, "kind")
	}
	if typ == "webpage" {
		u, _ := a["url"].(string)
		content, _ := a["content"].(string)
		if u == "" && content == "" {
			return nil, Errorf(`Webpage nodes require a page URL via "url" (preferred) or "content".`)
		}
	}
	for _, k := range []string{"slideTitles", "embeddedNodeIds", "embeddedUrls"} {
		cvDropUnless(a, k, cvIsList)
	}
	for _, k := range []string{"position", "size"} {
		cvDropUnless(a, k, cvIsObject)
	}
	full := cvWantsFull(a)
	delete(a, "full")
	delete(a, "verbose")
	reply, err := c.Invoke("node.add", a)
	if err != nil {
		return nil, err
	}
	if typ == "webpage" {
		// The reference answers a webpage with the whole HTTP body, compact.
		return cvText(CompactBody(reply))
	}
	return cvText(cvCreatedNodeText(c, reply, full))
}

// runAddHTMLNode creates an html node (canvas_add_html_node): strings,
// arrays and true values are forwarded, false flags are not.
func runAddHTMLNode(c *Call, a Args) (*Result, error) {
	in := Args{"type": "html"}
	for k, v := range a {
		switch v.(type) {
		case string, []any, float64, map[string]any:
			in[k] = v
		case bool:
			if v == true {
				in[k] = true
			}
		}
	}
	delete(in, "full")
	delete(in, "verbose")
	reply, err := c.Invoke("node.add", in)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, cvWantsFull(a)))
}

// runGetNode reads one node (canvas_get_node, canvas_node get).
func runGetNode(c *Call, a Args) (*Result, error) {
	id, err := cvRequireString(a, "node.get", "id")
	if err != nil {
		return nil, err
	}
	reply, err := c.Invoke("node.get", Args{"id": id, "includeBlobs": true})
	if err != nil {
		return nil, err
	}
	node, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	if cvWantsFull(a) {
		return cvText(Pretty(cvAgentNode(node)))
	}
	return cvText(Pretty(cvCompactNode(node)))
}

// webpageRefreshUnavailable is what a webpage refresh answers until pages
// are fetched (the reference's refresh-failure shape).
const webpageRefreshUnavailable = "Webpage refresh is not available yet."

// runUpdateNode patches a node (canvas_update_node, canvas_node update).
func runUpdateNode(c *Call, a Args) (*Result, error) {
	a = cvDropWrongTypes(updateNodeFields, cvCopyArgs(a))
	// canvas_node publishes the fields update shares with add with add's
	// loose type; a value of another type is dropped there, as the
	// reference's composite does.
	for _, f := range addNodeFields {
		if v, ok := a[f.Name]; ok && f.Loose != nil && checkSchema(f.Loose, v) != "" {
			delete(a, f.Name)
		}
	}
	id, err := cvRequireString(a, "node.update", "id")
	if err != nil {
		return nil, err
	}
	if _, ax := a["axCapabilities"]; ax && cvIsList(a["data"]) {
		return nil, Errorf("Update the graph dataset and axCapabilities in separate canvas_update_node calls.")
	}
	if a["refresh"] == true {
		reply, err := c.Invoke("node.get", Args{"id": id})
		if err != nil {
			return nil, err
		}
		node, err := cvReplyObj(reply)
		if err != nil {
			return nil, err
		}
		if typ, _ := cvStrAt(node, "type"); typ == "webpage" {
			text, err := Compact(Obj{{"ok", false}, {"id", id}, {"error", webpageRefreshUnavailable}})
			return &Result{Text: text, IsError: true}, err
		}
	}
	full := cvWantsFull(a)
	for _, k := range []string{"refresh", "full", "verbose"} {
		delete(a, k)
	}
	reply, err := c.Invoke("node.update", a)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, full))
}

// runGetLayout reads the layout as agents see it (canvas_get_layout,
// canvas_query layout).
func runGetLayout(c *Call, a Args) (*Result, error) {
	full := cvWantsFull(a)
	reply, err := c.Invoke("layout.get", Args{"view": "agent", "includeBlobs": full})
	if err != nil {
		return nil, err
	}
	body, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	nodes, _ := body.Get("nodes")
	edges, _ := body.Get("edges")
	viewport, _ := body.Get("viewport")
	annotations, _ := body.Get("annotations")
	var outNodes []any
	for _, n := range cvList(nodes) {
		if full {
			outNodes = append(outNodes, cvAgentNode(n.(Obj)))
		} else {
			outNodes = append(outNodes, cvCompactNode(n.(Obj)))
		}
	}
	if outNodes == nil {
		outNodes = []any{}
	}
	if full {
		theme, _ := body.Get("theme")
		return cvText(Pretty(Obj{{"viewport", viewport}, {"theme", theme}, {"nodes", outNodes}, {"edges", edges},
			{"annotations", annotations}}))
	}
	outEdges := []any{}
	for _, e := range cvList(edges) {
		eo := e.(Obj)
		outEdges = append(outEdges, append(cvPick(eo, "id", "from", "to", "type"), cvPickPresent(eo, "label", "style", "animated")...))
	}
	summary, _ := body.Get("summary")
	return cvText(Pretty(Obj{{"summary", summary}, {"viewport", viewport}, {"annotations", annotations},
		{"nodes", outNodes}, {"edges", outEdges}}))
}

func cvList(v any) []any {
	l, _ := v.([]any)
	return l
}

// buildAddEdge checks the endpoints (canvas_add_edge, canvas_edge add).
func buildAddEdge(_ *Call, a Args) (Args, error) {
	a = cvDropWrongTypes(addEdgeFields, cvCopyArgs(a))
	if !cvIsString(a["from"]) && !cvIsString(a["fromSearch"]) {
		return nil, Errorf(`Provide either "from" or "fromSearch".`)
	}
	if !cvIsString(a["to"]) && !cvIsString(a["toSearch"]) {
		return nil, Errorf(`Provide either "to" or "toSearch".`)
	}
	return a, nil
}

// formatEdge renders the created edge as {id, from, to, type, label?,
// style?, animated?}.
func formatEdge(r *Reply) (string, error) {
	body, err := cvReplyObj(r)
	if err != nil {
		return "", err
	}
	return Pretty(append(cvPick(body, "id", "from", "to", "type"), cvPickPresent(body, "label", "style", "animated")...))
}

// cvBuildIDOrMissing passes a string id on and treats any other id as absent
// (the operation then answers "Missing id."), as the reference does for the
// composites' untyped id.
func cvBuildIDOrMissing(_ *Call, a Args) (Args, error) {
	a = cvCopyArgs(a)
	cvDropUnless(a, "id", cvIsString)
	return a, nil
}

// runCreateGroup creates a group (canvas_create_group, canvas_group create).
func runCreateGroup(c *Call, a Args) (*Result, error) {
	a = cvDropWrongTypes(createGroupFields, cvCopyArgs(a))
	cvStringsOnly(a, "childIds")
	full := cvWantsFull(a)
	delete(a, "full")
	delete(a, "verbose")
	reply, err := c.Invoke("group.create", a)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, full))
}

// runSearch searches (canvas_search, canvas_query search): {query?,
// resultCount (all matches), results (the first limit, default 10)}.
func runSearch(c *Call, a Args) (*Result, error) {
	query, hasQuery := a["query"].(string)
	in := Args{"q": query}
	limit, hasLimit := a["limit"].(float64)
	serverLimit := !hasLimit || (limit >= 1 && limit == float64(int(limit)))
	switch {
	case !hasLimit:
		in["limit"] = 10
	case serverLimit:
		in["limit"] = int(limit)
	}
	reply, err := c.Invoke("search", in)
	if err != nil {
		return nil, err
	}
	body, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	results := cvList(cvGet(body, "results"))
	if results == nil {
		results = []any{}
	}
	if !serverLimit {
		// A limit the operation does not take (zero, negative, fractional)
		// cuts the results as the reference's slice does.
		results = results[:cvSliceEnd(limit, len(results))]
	}
	out := Obj{}
	if hasQuery {
		out = append(out, KV{"query", query})
	}
	count, _ := body.Get("resultCount")
	out = append(out, KV{"resultCount", count}, KV{"results", results})
	return cvText(Pretty(out))
}

func cvGet(o Obj, key string) any {
	v, _ := o.Get(key)
	return v
}

// runHistory runs undo or redo and adds canUndo/canRedo from the history.
func runHistory(c *Call, op string) (*Result, error) {
	reply, err := c.Invoke(op, Args{})
	if err != nil {
		return nil, err
	}
	body, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	hist, err := c.Invoke("history.get", Args{})
	if err != nil {
		return nil, err
	}
	h, err := cvReplyObj(hist)
	if err != nil {
		return nil, err
	}
	return cvText(Compact(Obj{{"ok", cvGet(body, "ok")}, {"description", cvGet(body, "description")},
		{"canUndo", cvGet(h, "canUndo")}, {"canRedo", cvGet(h, "canRedo")}}))
}
