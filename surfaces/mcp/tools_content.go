package mcpapi

// The structured-content tools (reference mcp.md §6 canvas_render, §7.7,
// §7.15) and the app tools (§6 canvas_app, §7.14): each runs its
// operation, with the operation's own fields.

// Schema builders for this file (prefixed: the package's other tool files
// have their own).

func ltStr(desc string) Obj  { return Obj{{"type", "string"}, {"description", desc}} }
func ltNum(desc string) Obj  { return Obj{{"type", "number"}, {"description", desc}} }
func ltBool(desc string) Obj { return Obj{{"type", "boolean"}, {"description", desc}} }

func ltEnum(values []string, desc string) Obj {
	return Obj{{"type", "string"}, {"enum", values}, {"description", desc}}
}

// ltRecordOf is a record<string, value> schema (value {} for any).
func ltRecordOf(value Obj) Obj {
	return Obj{{"type", "object"}, {"propertyNames", Obj{{"type", "string"}}}, {"additionalProperties", value}}
}

func ltRecord(desc string) Obj { return ltRecordOf(Obj{}).With("description", desc) }

// Field builders: strict (rejected) fields, required or not.
func ltReq(name string, s Obj) Field {
	return Field{Name: name, Schema: s, Required: true, Check: Reject}
}
func ltOpt(name string, s Obj) Field { return Field{Name: name, Schema: s, Check: Reject} }

func init() {
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
