package mcpapi

// The automation webview tools (reference mcp.md §7.13): a headless
// Chromium showing the workbench, driven by the canvas's Webview actor.

import (
	"encoding/json"
	"fmt"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func init() {
	define(
		&Tool{
			Name:        "canvas_webview_status",
			Description: "Report the headless automation browser: whether it is supported and running, its backend, viewport, URL, start time and last error.",
			Op:          "webview.status",
		},
		&Tool{
			Name: "canvas_webview_start",
			Description: "Start the headless automation browser on the workbench (replacing a running session). " +
				"Returns the session status.",
			Fields: opFields("webview.start"),
			Op:     "webview.start",
			Format: webviewStatusOf,
		},
		&Tool{
			Name:        "canvas_webview_stop",
			Description: "Stop the automation browser session. Returns whether one was running and the final status.",
			Op:          "webview.stop",
		},
		&Tool{
			Name:        "canvas_resize",
			Description: "Resize the automation browser's viewport (both sides positive). Requires a running session.",
			Fields:      opFields("webview.resize"),
			Op:          "webview.resize",
			Format:      webviewStatusOf,
		},
		&Tool{
			Name: "canvas_evaluate",
			Description: "Run JavaScript in the automation page and return {value}. Pass exactly one of expression (a single expression) " +
				"or script (a function body whose awaited return value is reported). Requires a running session.",
			Fields: opFields("webview.evaluate"),
			Op:     "webview.evaluate",
			// {value}, or {} when the result has no JSON form.
			Format: func(r *Reply) (string, error) {
				var b struct {
					Value json.RawMessage `json:"value"`
				}
				if err := r.Decode(&b); err != nil {
					return "", err
				}
				if b.Value == nil {
					return Pretty(Obj{})
				}
				return Pretty(Obj{{"value", b.Value}})
			},
		},
		&Tool{
			Name: "canvas_webview",
			Description: "Drive the headless automation browser that shows the workbench. status reads the session; start opens it " +
				"(backend, width, height, chromePath, chromeArgv, dataStoreDir); stop closes it; resize sets the viewport (positive " +
				"width and height); evaluate runs JavaScript (exactly one of expression or script) and returns {value}. " +
				"Screenshots are a separate tool, canvas_screenshot.",
			Discriminators: []Discriminator{{Name: "action",
				Values:      []string{"status", "start", "stop", "resize", "evaluate"},
				Description: "Operation to perform: status | start | stop | resize | evaluate."}},
			Actions: []Action{
				{Name: "status", Tool: "canvas_webview_status"},
				{Name: "start", Tool: "canvas_webview_start"},
				{Name: "stop", Tool: "canvas_webview_stop"},
				{Name: "resize", Tool: "canvas_resize"},
				{Name: "evaluate", Tool: "canvas_evaluate"},
			},
		},
		&Tool{
			Name: "canvas_screenshot",
			Description: "Capture the automation browser's page as an image (PNG unless another format is asked for). Returns the " +
				"image followed by {bytes, backend, width, height, mimeType}. Requires a running webview session.",
			Fields: []Field{
				ltOpt("format", ltEnum([]string{"png", "jpeg", "webp"}, "Image format; the MIME type follows it (png when absent).")),
				ltOpt("quality", ltNum("Quality for jpeg and webp.")),
			},
			Run: screenshot,
		},
	)
}

// webviewStatusOf formats {ok, webview} as the status alone, as the
// reference's start and resize tools answer.
func webviewStatusOf(r *Reply) (string, error) {
	var b struct {
		Webview json.RawMessage `json:"webview"`
	}
	if err := r.Decode(&b); err != nil {
		return "", err
	}
	return Pretty(b.Webview)
}

// screenshot returns the image, then a text part describing it. The size
// and backend come from a status read right after the capture.
func screenshot(c *Call, a Args) (*Result, error) {
	reply, err := c.invokeRaw("webview.screenshot", a)
	if err != nil {
		return nil, err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		return nil, fmt.Errorf("canvas_screenshot: the server answered %T, not an image", reply.Body)
	}
	st, err := c.Invoke("webview.status", nil)
	if err != nil {
		return nil, err
	}
	var status messages.WebviewStatus
	if err := st.Decode(&status); err != nil {
		return nil, err
	}
	text, err := Pretty(Obj{{"bytes", len(blob.Data)}, {"backend", status.Backend}, {"width", status.Width},
		{"height", status.Height}, {"mimeType", blob.ContentType}})
	if err != nil {
		return nil, err
	}
	return &Result{Image: blob.Data, ImageMime: blob.ContentType, Text: text}, nil
}
