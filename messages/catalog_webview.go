package messages

// webviewOps drive the canvas's headless browser session (the reference's
// five webview.* registry operations and its screenshot route). They run in
// the canvas's Webview actor, one at a time; none changes the canvas, so
// none bumps its revision.
var webviewOps = []*Op{
	{
		Name: "webview.status", Owner: OwnerWebview, Kind: Read, Documented: true,
		Summary:  "Read the automation webview status (no ok key).",
		NewInput: input[EmptyInput](),
		Output:   output[WebviewStatus](),
		HTTP:     []Route{{"GET", "/api/workbench/webview"}},
		MCP: []MCPBinding{{Tool: "canvas_webview_status", Composite: "canvas_webview", Action: "status",
			Description: "Report the headless automation browser: whether it is supported and running, its backend, viewport, URL, start time and last error."}},
	},
	{
		Name: "webview.start", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Start (or replace) the headless browser session showing the workbench.",
		NewInput: input[WebviewStartInput](),
		Output:   output[WebviewResult](),
		CLI:      &CLIBinding{Flags: map[string]string{"dataStoreDir": "data-dir"}},
		HTTP:     []Route{{"POST", "/api/workbench/webview/start"}},
		MCP: []MCPBinding{{Tool: "canvas_webview_start", Composite: "canvas_webview", Action: "start",
			Description: "Start the headless automation browser on the workbench (replacing a running session). " +
				"Returns the session status."}},
	},
	{
		Name: "webview.stop", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Close the browser session; stopped says whether there was one.",
		NewInput: input[EmptyInput](),
		Output:   output[WebviewStopped](),
		HTTP:     []Route{{"DELETE", "/api/workbench/webview"}},
		MCP: []MCPBinding{{Tool: "canvas_webview_stop", Composite: "canvas_webview", Action: "stop",
			Description: "Stop the automation browser session. Returns whether one was running and the final status."}},
	},
	{
		Name: "webview.evaluate", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Run JavaScript in the workbench page: one expression, or a script body wrapped in an async function.",
		NewInput: input[WebviewEvaluateInput](),
		Output:   output[EvaluateResult](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/evaluate"}},
		MCP: []MCPBinding{{Tool: "canvas_evaluate", Composite: "canvas_webview", Action: "evaluate",
			Description: "Run JavaScript in the automation page and return {value}. Pass exactly one of expression (a single expression) " +
				"or script (a function body whose awaited return value is reported). Requires a running session."}},
	},
	{
		Name: "webview.resize", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Set the browser viewport to exactly width × height CSS pixels.",
		NewInput: input[WebviewResizeInput](),
		Output:   output[WebviewResult](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/resize"}},
		MCP: []MCPBinding{{Tool: "canvas_resize", Composite: "canvas_webview", Action: "resize",
			Description: "Resize the automation browser's viewport (both sides positive). Requires a running session."}},
	},
	{
		Name: "webview.screenshot", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Capture the viewport as PNG, JPEG or WebP; the reply is the image bytes.",
		NewInput: input[WebviewScreenshotInput](),
		Output:   output[Blob](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/screenshot"}},
		MCP: []MCPBinding{{Tool: "canvas_screenshot",
			Description: "Capture the automation browser's page as an image (PNG unless another format is asked for). Returns the " +
				"image followed by {bytes, backend, width, height, mimeType}. Requires a running webview session."}},
	},
}
