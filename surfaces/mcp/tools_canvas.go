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
func cvAny(desc string) Obj                  { return Obj{{"description", desc}} }
func cvStrict(name string, schema Obj) Field { return Field{Name: name, Check: Reject, Schema: schema} }
func cvAccepted(name, desc string) Field {
	return Field{Name: name, Check: Accept, Schema: cvAny(desc)}
}

var addNodeFields = opFields("node.add")

var getNodeFields = opFields("node.get")

// updateNodeFields are node.update's fields but the chart options HTTP and
// the CLI patch besides xKey and yKey: the tool keeps the reference's
// frozen property list (charts are reshaped with canvas_render add-graph).
var updateNodeFields = opFields("node.update", except("zKey", "nameKey", "valueKey", "axisKey", "metrics", "series",
	"barKey", "lineKey", "aggregate", "color", "colorBy", "highlight", "barColor", "lineColor", "labelKey", "targetKey",
	"rangesKey", "beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort", "fill", "showEndDot", "showMinMax",
	"showValue", "colorByDirection", "showLegend", "showLabels"))

var (
	layoutFields      = opFields("layout.get")
	addEdgeFields     = opFields("edge.add")
	createGroupFields = opFields("group.create")
	groupNodesFields  = opFields("group.add")
	fitFields         = opFields("view.fit")
)

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
			Fields:      opFields("node.remove"),
			Op:          "node.remove",
			Format:      CompactBody,
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
			Format:      formatEdge,
		},
		&Tool{
			Name:        "canvas_remove_edge",
			Description: "Delete an edge by id.",
			Fields:      opFields("edge.remove", required("id")),
			Op:          "edge.remove",
			Format:      cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name:        "canvas_arrange",
			Description: "Re-lay out the unlocked nodes as a grid (default), a column or a row (flow). Pinned, docked and locked nodes stay.",
			Fields:      opFields("arrange"),
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
			Fields:      opFields("node.focus"),
			Op:          "node.focus",
			Format:      CompactBody,
		},
		&Tool{
			Name:        "canvas_fit_view",
			Description: "Set the viewport so every node, or the named ones, fits the screen.",
			Fields:      fitFields,
			Op:          "view.fit",
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
			Format:      cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name:        "canvas_ungroup",
			Description: "Release every member of a group; the group frame stays.",
			Fields:      opFields("group.remove"),
			Op:          "group.remove",
			Format:      cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name: "canvas_pin_nodes",
			Description: "Set, extend or shrink the context pins: the nodes the agent reads as context " +
				"(canvas://pinned-context). At most 20. Returns the pinned ids.",
			Fields: opFields("pin.set"),
			Op:     "pin.set",
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
			Description: "Search nodes by keywords in titles, content, paths and URLs; ranked results with snippets (all matches unless limit says otherwise).",
			Fields:      opFields("search", required("query")),
			Op:          "search",
			Run:         runSearch,
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
			Fields:      opFields("annotation.remove"),
			Op:          "annotation.remove",
			Format:      cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name: "canvas_add_html_node",
			Description: `Deprecated: use canvas_node with action "add" and type:"html". ` +
				"Create an html node from a document or fragment; it runs in a sandboxed frame with the theme's CSS variables.",
			Fields: opFields("node.add", only("html", "title", "summary", "agentSummary", "description", "presentation",
				"slideTitles", "embeddedNodeIds", "embeddedUrls", "x", "y", "width", "height", "strictSize", "axCapabilities",
				"full", "verbose"), required("html")),
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

// runAddNode creates a node (canvas_add_node, canvas_node add).
func runAddNode(c *Call, a Args) (*Result, error) {
	typ, _ := a["type"].(string)
	reply, err := c.Invoke("node.add", a)
	if err != nil {
		return nil, err
	}
	if typ == "webpage" {
		// The reference answers a webpage with the whole HTTP body, compact.
		return cvText(CompactBody(reply))
	}
	return cvText(cvCreatedNodeText(c, reply, cvWantsFull(a)))
}

// runAddHTMLNode creates an html node (canvas_add_html_node).
func runAddHTMLNode(c *Call, a Args) (*Result, error) {
	in := cvCopyArgs(a)
	in["type"] = "html"
	reply, err := c.Invoke("node.add", in)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, cvWantsFull(a)))
}

// runGetNode reads one node (canvas_get_node, canvas_node get).
func runGetNode(c *Call, a Args) (*Result, error) {
	in := cvCopyArgs(a)
	if _, given := in["includeBlobs"]; !given {
		in["includeBlobs"] = true
	}
	reply, err := c.Invoke("node.get", in)
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

// runUpdateNode patches a node (canvas_update_node, canvas_node update);
// refresh:true re-reads a file or image node's file or re-fetches a
// webpage node's page instead.
func runUpdateNode(c *Call, a Args) (*Result, error) {
	if a["refresh"] == true {
		in := Args{"id": a["id"]}
		if u, ok := a["url"]; ok {
			in["url"] = u
		}
		reply, err := c.Invoke("node.refresh", in)
		if err != nil {
			return nil, err
		}
		return cvText(Pretty(reply.Map()))
	}
	reply, err := c.Invoke("node.update", a)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, cvWantsFull(a)))
}

// runGetLayout reads the layout as agents see it (canvas_get_layout,
// canvas_query layout).
func runGetLayout(c *Call, a Args) (*Result, error) {
	full := cvWantsFull(a)
	in := cvCopyArgs(a)
	in["view"] = "agent"
	reply, err := c.Invoke("layout.get", in)
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

// formatEdge renders the created edge as {id, from, to, type, label?,
// style?, animated?}.
func formatEdge(r *Reply) (string, error) {
	body, err := cvReplyObj(r)
	if err != nil {
		return "", err
	}
	return Pretty(append(cvPick(body, "id", "from", "to", "type"), cvPickPresent(body, "label", "style", "animated")...))
}

// runCreateGroup creates a group (canvas_create_group, canvas_group create).
func runCreateGroup(c *Call, a Args) (*Result, error) {
	reply, err := c.Invoke("group.create", a)
	if err != nil {
		return nil, err
	}
	return cvText(cvCreatedNodeText(c, reply, cvWantsFull(a)))
}

// runSearch searches (canvas_search, canvas_query search): {query?,
// resultCount (all matches), results (the first limit)}.
func runSearch(c *Call, a Args) (*Result, error) {
	reply, err := c.Invoke("search", a)
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
	out := Obj{}
	if q, asked := a["query"]; asked {
		out = append(out, KV{"query", q})
	}
	out = append(out, KV{"resultCount", cvGet(body, "resultCount")}, KV{"results", results})
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
