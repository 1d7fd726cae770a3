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

// updateNodeAdjust leaves out of node.update's fields the chart options HTTP and
// the CLI patch besides xKey and yKey: the tool keeps the reference's
// frozen property list (charts are reshaped with canvas_render add-graph).
var updateNodeAdjust = except("zKey", "nameKey", "valueKey", "axisKey", "metrics", "series",
	"barKey", "lineKey", "aggregate", "color", "colorBy", "highlight", "barColor", "lineColor", "labelKey", "targetKey",
	"rangesKey", "beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort", "fill", "showEndDot", "showMinMax",
	"showValue", "colorByDirection", "showLegend", "showLabels")

func init() {
	define(
		&Tool{
			Name: "canvas_add_node",
			Run:  runAddNode,
		},
		&Tool{
			Name: "canvas_get_node",
			Run:  runGetNode,
		},
		&Tool{
			Name:   "canvas_update_node",
			Adjust: []fieldAdjust{updateNodeAdjust},
			Run:    runUpdateNode,
		},
		&Tool{
			Name:   "canvas_remove_node",
			Format: CompactBody,
		},
		&Tool{
			Name: "canvas_get_layout",
			Run:  runGetLayout,
		},
		&Tool{
			Name:   "canvas_add_edge",
			Format: formatEdge,
		},
		&Tool{
			Name:   "canvas_remove_edge",
			Adjust: []fieldAdjust{required("id")},
			Format: cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name: "canvas_arrange",
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
			Name:   "canvas_focus_node",
			Format: CompactBody,
		},
		&Tool{
			Name:   "canvas_clear",
			Format: func(*Reply) (string, error) { return `{"ok":true,"cleared":true}`, nil },
		},
		&Tool{
			Name: "canvas_create_group",
			Run:  runCreateGroup,
		},
		&Tool{
			Name:   "canvas_group_nodes",
			Format: cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name:   "canvas_ungroup",
			Format: cvBodyInOrder(true, "ok", "groupId"),
		},
		&Tool{
			Name: "canvas_pin_nodes",
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
			Name:   "canvas_search",
			Adjust: []fieldAdjust{required("query")},
			Run:    runSearch,
		},
		&Tool{
			Name: "canvas_undo",
			Run:  func(c *Call, _ Args) (*Result, error) { return runHistory(c, "canvas.undo") },
		},
		&Tool{
			Name: "canvas_redo",
			Run:  func(c *Call, _ Args) (*Result, error) { return runHistory(c, "canvas.redo") },
		},
		&Tool{
			Name:   "canvas_remove_annotation",
			Format: cvBodyInOrder(true, "ok", "removed"),
		},
		&Tool{
			Name: "canvas_add_html_node",
			Adjust: []fieldAdjust{only("html", "title", "summary", "agentSummary", "description", "presentation",
				"slideTitles", "embeddedNodeIds", "embeddedUrls", "x", "y", "width", "height", "strictSize", "axCapabilities",
				"full", "verbose"), required("html")},
			Run: runAddHTMLNode,
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
