package mcpapi

// The structured-content tools (reference mcp.md §6 canvas_render, §7.7,
// §7.15) and the app tools (§6 canvas_app, §7.14): each runs its
// operation, with the operation's own fields.

// Schema builders for this file (prefixed: the package's other tool files
// have their own).

func ltStr(desc string) Obj  { return Obj{{"type", "string"}, {"description", desc}} }
func ltNum(desc string) Obj  { return Obj{{"type", "number"}, {"description", desc}} }
func ltBool(desc string) Obj { return Obj{{"type", "boolean"}, {"description", desc}} }
func ltAny(desc string) Obj  { return Obj{{"description", desc}} }

// ltTimeout is a timeoutMs field, bounded as webartifact.build's is (so
// canvas_app advertises one type for it).
func ltTimeout(desc string) Obj {
	return Obj{{"type", "number"}, {"minimum", 1}, {"maximum", 1800000}, {"description", desc}}
}

func ltEnum(values []string, desc string) Obj {
	return Obj{{"type", "string"}, {"enum", values}, {"description", desc}}
}

func ltStrings(desc string) Obj {
	return Obj{{"type", "array"}, {"items", Obj{{"type", "string"}}}, {"description", desc}}
}

// ltRecordOf is a record<string, value> schema (value {} for any).
func ltRecordOf(value Obj) Obj {
	return Obj{{"type", "object"}, {"propertyNames", Obj{{"type", "string"}}}, {"additionalProperties", value}}
}

func ltRecord(desc string) Obj { return ltRecordOf(Obj{}).With("description", desc) }

func ltRecords(desc string) Obj {
	return Obj{{"type", "array"}, {"items", ltRecordOf(Obj{})}, {"description", desc}}
}

// Field builders: strict (rejected), dropped and unchecked fields. A dropped
// field shared by several composite actions keeps its type in the
// composite (the reference's loose type for .catch fields is the typed one).
func ltReq(name string, s Obj) Field {
	return Field{Name: name, Schema: s, Required: true, Check: Reject}
}
func ltOpt(name string, s Obj) Field { return Field{Name: name, Schema: s, Check: Reject} }
func ltDrop(name string, s Obj) Field {
	return Field{Name: name, Schema: s, Check: Drop, Loose: s}
}

// ltTyped is a strict optional field that a composite advertises with the
// same type when several of its actions share it (canvas_app).
func ltTyped(name string, s Obj) Field { return Field{Name: name, Schema: s, Check: Reject, Loose: s} }

// chartKinds is the chart-kind help text shared by graphType fields.
const chartKinds = "Chart kind: line, bar, pie, area, scatter, radar, stacked-bar (alias stack), composed (alias combo), sparkline, dot-plot (alias dot), bullet, slopegraph (alias slope)."

// chartOptions are the chart fields canvas_add_graph_node and
// canvas_validate_spec share (xKey … colorByDirection), in reference order.
func chartOptions() []Field {
	highlight := Obj{{"anyOf", []Obj{
		{{"type", "number"}},
		{{"type", "string"}, {"enum", []string{"max", "min"}}},
		{{"type", "null"}},
	}}, {"description", "Bar charts coloured by series: the accented bar — max (default), min, a 0-based index, or null for none."}}
	return []Field{
		ltDrop("xKey", ltStr("Row key for the x axis or category.")),
		ltDrop("yKey", ltStr("Row key for the y value (composed charts fall back to barKey).")),
		ltDrop("zKey", ltStr("Scatter only: row key for the bubble size.")),
		ltDrop("nameKey", ltStr("Pie only: row key for slice names.")),
		ltDrop("valueKey", ltStr("Value key for pie slices, sparklines, dot plots and the bullet measure.")),
		ltDrop("axisKey", ltStr("Radar only: the category key.")),
		ltDrop("metrics", ltStrings("Radar only: series keys drawn as polygons (default: the numeric non-axis columns).")),
		ltDrop("series", ltStrings("Stacked bars only: segment keys (default: the numeric non-x columns).")),
		ltDrop("barKey", ltStr("Composed only: the bar series key.")),
		ltDrop("lineKey", ltStr("Composed only: the line series key.")),
		ltDrop("aggregate", ltEnum([]string{"sum", "count", "avg"}, "Combine repeated x values (line, bar, area, stacked bars).")),
		ltDrop("color", ltStr("Colour of a single series (line, bar, area, scatter).")),
		ltDrop("colorBy", ltEnum([]string{"series", "category", "value", "none"}, "Bar charts: how bars are coloured; default series (one accented bar).")),
		{Name: "highlight", Schema: highlight, Check: Drop, Loose: highlight},
		ltDrop("barColor", ltStr("Composed only: bar colour.")),
		ltDrop("lineColor", ltStr("Composed only: line colour.")),
		ltDrop("labelKey", ltStr("Row label key for dot plots, bullets and slopegraphs.")),
		ltDrop("targetKey", ltStr("Bullet only: per-row target value key.")),
		ltDrop("rangesKey", ltStr("Bullet only: key of a number[] of qualitative band thresholds.")),
		ltDrop("beforeKey", ltStr("Slopegraph: left-column value key.")),
		ltDrop("afterKey", ltStr("Slopegraph: right-column value key.")),
		ltDrop("beforeLabel", ltStr("Slopegraph: left column header.")),
		ltDrop("afterLabel", ltStr("Slopegraph: right column header.")),
		ltDrop("sort", ltEnum([]string{"asc", "desc", "none"}, "Dot-plot row order; default desc.")),
		ltDrop("fill", ltBool("Sparkline: shade the area under the line.")),
		ltDrop("showEndDot", ltBool("Sparkline: dot on the last point (default true).")),
		ltDrop("showMinMax", ltBool("Sparkline: mark the minimum and maximum.")),
		ltDrop("showValue", ltBool("Sparkline: print the last value inline.")),
		ltDrop("colorByDirection", ltBool("Slopegraph: accent rising lines and mute falling ones (default off).")),
	}
}

const strictSizeDesc = "Keep the given width/height; content that overflows scrolls instead of the frame growing to fit."

func init() {
	graphFields := []Field{
		ltDrop("title", ltStr("Chart title (trimmed; default \"Graph\").")),
		ltReq("graphType", ltStr(chartKinds)),
		ltReq("data", ltRecords("The dataset: an array of row objects.")),
	}
	graphFields = append(graphFields, chartOptions()...)
	graphFields = append(graphFields,
		ltDrop("height", ltNum("Height of the plot itself, not of the node frame.")),
		ltDrop("showLegend", ltBool("Show a legend where the chart kind has one.")),
		ltDrop("showLabels", ltBool("Show direct labels such as pie slice labels (default true).")),
		ltDrop("x", ltNum("World x; auto-placed when absent.")),
		ltDrop("y", ltNum("World y; auto-placed when absent.")),
		ltDrop("width", ltNum("Frame width (positive).")),
		ltDrop("nodeHeight", ltNum("Frame height; wins over heightPx.")),
		ltDrop("heightPx", ltNum("Frame height alias (the SDK's name for nodeHeight).")),
		ltDrop("strictSize", ltBool(strictSizeDesc)),
	)

	define(
		// Structured content (§7.7).
		&Tool{
			Name: "canvas_add_json_render_node",
			Description: "Create a json-render UI panel from a complete spec ({root, elements, state?}) or a single bare component; " +
				"the spec is validated and normalised before the node is placed. Returns the node, its viewer URL and the normalised spec.",
			Fields: opFields("jsonrender.add", only("title", "spec", "x", "y", "width", "height", "strictSize"), required("spec")),
			Op:     "jsonrender.add",
		},
		&Tool{
			Name: "canvas_stream_json_render_node",
			Description: "Build a json-render panel progressively. Without nodeId a new streaming node is created; with nodeId the patches " +
				"extend that node. Send JSON-Patch objects or JSONL patch lines in patches; malformed ones are counted as skipped. " +
				"Pass done:true on the last call to close the stream. Returns applied/skipped counts, the spec version, the element count " +
				"and the stream status (open or closed).",
			Fields: opFields("jsonrender.stream", only("nodeId", "title", "patches", "done", "x", "y", "width", "nodeHeight", "strictSize")),
			Op:     "jsonrender.stream",
		},
		&Tool{
			Name: "canvas_add_graph_node",
			Description: "Create a chart node from rows of data: line, bar, pie, area, scatter, radar, stacked-bar, composed, sparkline, " +
				"dot-plot, bullet or slopegraph. Name the keys the chart reads (xKey/yKey, nameKey/valueKey, ...). height is the plot, " +
				"nodeHeight the frame. Returns the node and the generated json-render spec.",
			// The operation's own fields (one decoder and one error text on
			// every surface), in the reference's order; graphType is
			// advertised as required, as the reference did, though the
			// operation defaults it to line.
			Fields: opFields("graph.add", only("title", "graphType", "data", "xKey", "yKey", "zKey", "nameKey", "valueKey",
				"axisKey", "metrics", "series", "barKey", "lineKey", "aggregate", "color", "colorBy", "highlight", "barColor",
				"lineColor", "labelKey", "targetKey", "rangesKey", "beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort",
				"fill", "showEndDot", "showMinMax", "showValue", "colorByDirection", "height", "showLegend", "showLabels",
				"x", "y", "width", "nodeHeight", "heightPx", "strictSize"), required("graphType", "data")),
			Op: "graph.add",
		},
		&Tool{
			Name: "canvas_describe_schema",
			Description: "Read the running server's create schemas: node types with their fields and examples, the json-render " +
				"component catalog, chart kinds, HTML primitives and which tool creates which node type (same document as canvas://schema).",
			Fields: opFields("schema.describe"),
			Op:     "schema.describe",
		},
		&Tool{
			Name: "canvas_validate_spec",
			Description: "Check a json-render spec, a chart payload or an HTML primitive without creating anything. Returns the " +
				"normalised result and a summary, or the validation error.",
			// The operation's own fields and decoder, in the reference's
			// order (its typeName alias is HTTP's).
			Fields: opFields("spec.validate", only("type", "spec", "kind", "primitive", "primitiveData", "data", "title",
				"graphType", "xKey", "yKey", "zKey", "nameKey", "valueKey", "axisKey", "metrics", "series", "barKey", "lineKey",
				"aggregate", "color", "colorBy", "highlight", "barColor", "lineColor", "labelKey", "targetKey", "rangesKey",
				"beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort", "fill", "showEndDot", "showMinMax", "showValue",
				"colorByDirection", "height"), required("type")),
			Op: "spec.validate",
		},

		// Apps (§7.14).
		&Tool{
			Name: "canvas_open_mcp_app",
			Description: "Call a tool on an external MCP server (stdio or Streamable HTTP) and show the ui:// app it returns in an " +
				"mcp-app node, or refresh an existing app node in place with nodeId. Returns the node id, tool call id, session id " +
				"and resource URI.",
			Fields: opFields("mcpapp.open", only("toolName", "serverName", "toolArguments", "nodeId", "title", "x", "y",
				"width", "height", "timeoutMs", "transport"), required("toolName", "transport")),
			Op: "mcpapp.open",
		},
		&Tool{
			Name: "canvas_add_diagram",
			Description: "Show an Excalidraw diagram on the canvas from a list of elements, through the hosted Excalidraw app; " +
				"nodeId updates an existing diagram in place. Returns the same shape as canvas_open_mcp_app.",
			Fields: opFields("diagram.open", required("elements")),
			Op:     "diagram.open",
		},
		&Tool{
			Name: "canvas_build_web_artifact",
			Description: "Bundle a small React + Tailwind project (App.tsx plus optional CSS, entry, HTML, extra files and npm deps) into " +
				"one self-contained HTML file inside the workspace (esbuild, in-process; extra deps are installed with npm), and by " +
				"default open it as a canvas node. Returns the output path, size, timings and the node id when one was opened.",
			Fields: opFields("webartifact.build", required("title", "appTsx")),
			Op:     "webartifact.build",
		},

		// Composites (§6).
		&Tool{
			Name: "canvas_render",
			Description: "Structured content in one tool. describe-schema returns the create schemas and catalogs; validate dry-runs a " +
				"json-render spec, chart payload or HTML primitive (type picks which); add-json-render creates a panel from a full spec; " +
				"stream-json-render creates or extends a panel from JSON-Patch chunks (nodeId, patches, done); add-graph creates a chart " +
				"(graphType, data and the key fields). For charts height is the plot and nodeHeight the frame.",
			Discriminators: []Discriminator{{Name: "action",
				Values:      []string{"describe-schema", "validate", "add-json-render", "stream-json-render", "add-graph"},
				Description: "Operation to perform: describe-schema | validate | add-json-render | stream-json-render | add-graph."}},
			Actions: []Action{
				{Name: "describe-schema", Tool: "canvas_describe_schema"},
				{Name: "validate", Tool: "canvas_validate_spec"},
				{Name: "add-json-render", Tool: "canvas_add_json_render_node"},
				{Name: "stream-json-render", Tool: "canvas_stream_json_render_node"},
				{Name: "add-graph", Tool: "canvas_add_graph_node"},
			},
		},
		&Tool{
			Name: "canvas_app",
			Description: "Put an app on the canvas. open-mcp-app calls a tool on an external MCP server (toolName, transport) and shows " +
				"its ui:// app; diagram opens the hosted Excalidraw app with elements; build-artifact bundles React/Tailwind sources " +
				"(title, appTsx, ...) into one HTML file and opens it. nodeId refreshes an existing app or diagram node in place.",
			Discriminators: []Discriminator{{Name: "action",
				Values:      []string{"open-mcp-app", "diagram", "build-artifact"},
				Description: "Operation to perform: open-mcp-app | diagram | build-artifact."}},
			Actions: []Action{
				{Name: "open-mcp-app", Tool: "canvas_open_mcp_app"},
				{Name: "diagram", Tool: "canvas_add_diagram"},
				{Name: "build-artifact", Tool: "canvas_build_web_artifact"},
			},
		},
		// Hand-written tools (§7.13, §7.15).
		&Tool{
			Name: "canvas_add_html_primitive",
			Description: `Deprecated: use canvas_node with action "add", type:"html", primitive:"<kind>" (and data). ` +
				"Generate one of the 19 HTML communication primitives (choice-grid, plan-timeline, review-sheet, pr-writeup, " +
				"system-map, code-walkthrough, design-sheet, component-gallery, interaction-prototype, flowchart, deck, presentation, " +
				"illustration-set, explainer, incident-report, status-report, triage-board, config-editor, prompt-tuner) from a data " +
				"object and place it as a sandboxed html node. Data shapes are in canvas_describe_schema → htmlPrimitives. Returns the " +
				"created node plus {kind, title, htmlBytes} of the primitive.",
			Fields: []Field{
				ltReq("kind", ltStr("Primitive kind; one of the 19 known kinds.")),
				ltOpt("title", ltStr("Node title (default: the primitive's own title).")),
				ltOpt("data", ltRecord("Kind-specific payload (see htmlPrimitives in the schema). presentation also takes theme canvas|midnight|paper|aurora or a colour object.")),
				ltOpt("x", ltNum("World x; auto-placed when absent.")),
				ltOpt("y", ltNum("World y; auto-placed when absent.")),
				ltOpt("width", ltNum("Frame width (default depends on the kind).")),
				ltOpt("height", ltNum("Frame height (default depends on the kind).")),
				ltOpt("strictSize", ltBool("Only true is passed on: keep the given size and scroll overflowing content.")),
				ltOpt("full", ltBool("true returns the full node payload instead of the compact one.")),
				ltOpt("verbose", ltBool("Same as full:true.")),
			},
			Op: "node.add",
			Run: func(c *Call, a Args) (*Result, error) {
				in := Args{"type": "html-primitive"}
				for k, v := range a {
					in[k] = v
				}
				return runAddNode(c, in)
			},
		},
		&Tool{
			Name: "canvas_refresh_webpage_node",
			Description: `Deprecated: use canvas_node with action "update" and refresh:true. ` +
				"Fetch a webpage node's URL again (optionally replacing the URL first) and update its stored snapshot.",
			Fields: opFields("node.refresh"),
			Op:     "node.refresh",
		},
	)
}
