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
			Name:   "canvas_webview_start",
			Format: webviewStatusOf,
		},
		&Tool{
			Name:   "canvas_resize",
			Format: webviewStatusOf,
		},
		&Tool{
			Name: "canvas_evaluate",
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
			Name: "canvas_screenshot",
			Run:  screenshot,
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
