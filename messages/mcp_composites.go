package messages

// MCPComposites are the reference's composite tools, in tools/list order.
var MCPComposites = []MCPComposite{
	{Tool: "canvas_ax_state",
		Description: "AX state in one tool: read the state and agent context (get), set the AX focus (set-focus), patch the tool and prompt policy (set-policy), or report what the agent host supports (report-capability).",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"get", "set-focus", "set-policy", "report-capability"},
			Description: "Operation to perform: get | set-focus | set-policy | report-capability."}}},
	{Tool: "canvas_ax_work",
		Description: "AX work in one tool: create a work item (add), change one (update), or attach a review comment or finding to a node, file or region (annotate).",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"add", "update", "annotate"},
			Description: "Operation to perform: add | update | annotate."}}},
	{Tool: "canvas_ax_gate",
		Description: "Human decision gates in one tool. kind approval, elicitation (a question) or mode (workflow mode switch); action request opens one, resolve decides or answers it, await waits for the decision (timeoutMs, default 30000, max 120000). For approvals the protected action id is approvalAction.",
		Selectors: []MCPSelector{
			{Name: "action", Values: []string{"request", "resolve", "await"}, Description: "Operation to perform: request | resolve | await."},
			{Name: "kind", Values: []string{"approval", "elicitation", "mode"}, Description: "Gate kind: approval | elicitation | mode."},
		}},
	{Tool: "canvas_ax_timeline",
		Description: "AX timeline in one tool: read it (read), or append an agent event (record-event), an evidence item (add-evidence) or a steering message (send-steering).",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"read", "record-event", "add-evidence", "send-steering"},
			Description: "Operation to perform: read | record-event | add-evidence | send-steering."}}},
	{Tool: "canvas_ax_delivery",
		Description: "Steering delivery without a host adapter: claim the undelivered steering and open AX items for a consumer (optionally waiting and leasing), then mark each steering message delivered.",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"claim", "mark"},
			Description: "Operation to perform: claim | mark."}}},
	{Tool: "canvas_node",
		Description: "Node CRUD in one tool: add (any basic type, html, group), get (compact unless full), " +
			"update (patch), remove.",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"add", "get", "update", "remove"},
			Description: "Operation to perform: add | get | update | remove."}}},
	{Tool: "canvas_edge",
		Description: "Connect two nodes (add) or delete an edge (remove).",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"add", "remove"},
			Description: "Operation to perform: add | remove."}}},
	{Tool: "canvas_group",
		Description: "Group frames: create one, move nodes into one (add), or release its members (ungroup).",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"create", "add", "ungroup"},
			Description: "Operation to perform: create | add | ungroup."}}},
	{Tool: "canvas_history",
		Description: "Undo or redo the last canvas change. An empty history is a normal result with ok:false.",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"undo", "redo"},
			Description: "Operation to perform: undo | redo."}}},
	{Tool: "canvas_view",
		Description: "Board-wide view actions: arrange the nodes, focus a node, fit the view, clear the canvas, remove an ink annotation.",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"arrange", "focus", "fit", "clear", "remove-annotation"},
			Description: "Operation to perform: arrange | focus | fit | clear | remove-annotation."}}},
	{Tool: "canvas_query",
		Description: "Cheap reads: keyword search, the whole layout (compact unless full), a layout health check.",
		Selectors: []MCPSelector{{Name: "action", Values: []string{"search", "layout", "validate"},
			Description: "Operation to perform: search | layout | validate."}}},
	{Tool: "canvas_render",
		Description: "Structured content in one tool. describe-schema returns the create schemas and catalogs; validate dry-runs a " +
			"json-render spec, chart payload or HTML primitive (type picks which); add-json-render creates a panel from a full spec; " +
			"stream-json-render creates or extends a panel from JSON-Patch chunks (nodeId, patches, done); add-graph creates a chart " +
			"(graphType, data and the key fields). For charts height is the plot and nodeHeight the frame.",
		Selectors: []MCPSelector{{Name: "action",
			Values:      []string{"describe-schema", "validate", "add-json-render", "stream-json-render", "add-graph"},
			Description: "Operation to perform: describe-schema | validate | add-json-render | stream-json-render | add-graph."}}},
	{Tool: "canvas_app",
		Description: "Put an app on the canvas. open-mcp-app calls a tool on an external MCP server (toolName, transport) and shows " +
			"its ui:// app; diagram opens the hosted Excalidraw app with elements; build-artifact bundles React/Tailwind sources " +
			"(title, appTsx, ...) into one HTML file and opens it. nodeId refreshes an existing app or diagram node in place.",
		Selectors: []MCPSelector{{Name: "action",
			Values:      []string{"open-mcp-app", "diagram", "build-artifact"},
			Description: "Operation to perform: open-mcp-app | diagram | build-artifact."}}},
	{Tool: "canvas_webview",
		Description: "Drive the headless automation browser that shows the workbench. status reads the session; start opens it " +
			"(backend, width, height, chromePath, chromeArgv, dataStoreDir); stop closes it; resize sets the viewport (positive " +
			"width and height); evaluate runs JavaScript (exactly one of expression or script) and returns {value}. " +
			"Screenshots are a separate tool, canvas_screenshot.",
		Selectors: []MCPSelector{{Name: "action",
			Values:      []string{"status", "start", "stop", "resize", "evaluate"},
			Description: "Operation to perform: status | start | stop | resize | evaluate."}}},
}
