package mcpapi

// The structured-content tools (reference mcp.md §6 canvas_render, §7.7,
// §7.15) and the app tools (§6 canvas_app, §7.14): each runs its
// operation, with the operation's own fields.

func init() {
	define(
		// Structured content (§7.7).
		&Tool{
			Name:   "canvas_add_json_render_node",
			Adjust: []fieldAdjust{only("title", "spec", "x", "y", "width", "height", "strictSize"), required("spec")},
		},
		&Tool{
			Name:   "canvas_stream_json_render_node",
			Adjust: []fieldAdjust{only("nodeId", "title", "patches", "done", "x", "y", "width", "nodeHeight", "strictSize")},
		},
		&Tool{
			Name: "canvas_add_graph_node",
			// The operation's own fields (one decoder and one error text on
			// every surface), in the reference's order; graphType is
			// advertised as required, as the reference did, though the
			// operation defaults it to line.
			Adjust: []fieldAdjust{only("title", "graphType", "data", "xKey", "yKey", "zKey", "nameKey", "valueKey",
				"axisKey", "metrics", "series", "barKey", "lineKey", "aggregate", "color", "colorBy", "highlight", "barColor",
				"lineColor", "labelKey", "targetKey", "rangesKey", "beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort",
				"fill", "showEndDot", "showMinMax", "showValue", "colorByDirection", "height", "showLegend", "showLabels",
				"x", "y", "width", "nodeHeight", "heightPx", "strictSize"), required("graphType", "data")},
		},
		&Tool{
			Name: "canvas_validate_spec",
			// The operation's own fields and decoder, in the reference's
			// order (its typeName alias is HTTP's).
			Adjust: []fieldAdjust{only("type", "spec", "kind", "primitive", "primitiveData", "data", "title",
				"graphType", "xKey", "yKey", "zKey", "nameKey", "valueKey", "axisKey", "metrics", "series", "barKey", "lineKey",
				"aggregate", "color", "colorBy", "highlight", "barColor", "lineColor", "labelKey", "targetKey", "rangesKey",
				"beforeKey", "afterKey", "beforeLabel", "afterLabel", "sort", "fill", "showEndDot", "showMinMax", "showValue",
				"colorByDirection", "height"), required("type")},
		},

		// Apps (§7.14).
		&Tool{
			Name: "canvas_open_mcp_app",
			Adjust: []fieldAdjust{only("toolName", "serverName", "toolArguments", "nodeId", "title", "x", "y",
				"width", "height", "timeoutMs", "transport"), required("toolName", "transport")},
		},
		&Tool{
			Name:   "canvas_add_diagram",
			Adjust: []fieldAdjust{required("elements")},
		},
		&Tool{
			Name:   "canvas_build_web_artifact",
			Adjust: []fieldAdjust{required("title", "appTsx")},
		},

		// Hand-written tools (§7.13, §7.15).
		&Tool{
			Name: "canvas_add_html_primitive",
			Adjust: []fieldAdjust{only("kind", "title", "data", "x", "y", "width", "height", "strictSize", "full", "verbose"),
				required("kind")},
			Run: func(c *Call, a Args) (*Result, error) {
				in := Args{"type": "html-primitive"}
				for k, v := range a {
					in[k] = v
				}
				return runAddNode(c, in)
			},
		},
	)
}
