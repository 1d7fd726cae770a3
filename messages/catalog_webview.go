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
		HTTP:     []Route{{"GET", "/api/workbench/webview"}},
	},
	{
		Name: "webview.start", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Start (or replace) the headless browser session showing the workbench.",
		NewInput: input[WebviewStartInput](),
		CLI:      &CLIBinding{Flags: map[string]string{"dataStoreDir": "data-dir"}},
		HTTP:     []Route{{"POST", "/api/workbench/webview/start"}},
	},
	{
		Name: "webview.stop", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Close the browser session; stopped says whether there was one.",
		NewInput: input[EmptyInput](),
		HTTP:     []Route{{"DELETE", "/api/workbench/webview"}},
	},
	{
		Name: "webview.evaluate", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Run JavaScript in the workbench page: one expression, or a script body wrapped in an async function.",
		NewInput: input[WebviewEvaluateInput](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/evaluate"}},
	},
	{
		Name: "webview.resize", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Set the browser viewport to exactly width × height CSS pixels.",
		NewInput: input[WebviewResizeInput](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/resize"}},
	},
	{
		Name: "webview.screenshot", Owner: OwnerWebview, Kind: Write, Documented: true,
		Summary:  "Capture the viewport as PNG, JPEG or WebP; the reply is the image bytes.",
		NewInput: input[WebviewScreenshotInput](),
		HTTP:     []Route{{"POST", "/api/workbench/webview/screenshot"}},
	},
}
