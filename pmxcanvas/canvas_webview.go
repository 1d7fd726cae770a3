package pmxcanvas

import (
	"context"
	"encoding/json"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// WebviewStatus is the automation webview's status: whether a browser is
// available and running, and its URL, viewport, start time and last error.
type WebviewStatus = messages.WebviewStatus

// WebviewOptions start the automation webview; zero values mean the
// defaults (1280 × 800, and the server's browser configuration:
// Options.WebviewBrowser).
type WebviewOptions struct {
	Width, Height int
	// ChromePath, ChromeArgv and DataStoreDir choose the browser binary,
	// extra switches and a profile directory inside the workspace. A
	// server refuses them (they run programs) unless it was started with
	// Options.WebviewAllowRequestBrowser; configure Options.WebviewBrowser
	// instead.
	ChromePath   string
	ChromeArgv   []string
	DataStoreDir string
}

func (o WebviewOptions) input() fields {
	in := fields{}
	if o.Width > 0 {
		in["width"] = o.Width
	}
	if o.Height > 0 {
		in["height"] = o.Height
	}
	if o.ChromePath != "" {
		in["chromePath"] = o.ChromePath
	}
	if len(o.ChromeArgv) > 0 {
		in["chromeArgv"] = o.ChromeArgv
	}
	if o.DataStoreDir != "" {
		in["dataStoreDir"] = o.DataStoreDir
	}
	return in
}

// WebviewStatus reads the canvas's automation webview status.
func (c *Canvas) WebviewStatus(ctx context.Context) (*WebviewStatus, error) {
	st := new(WebviewStatus)
	if _, err := c.call(ctx, "webview.status", nil, st); err != nil {
		return nil, err
	}
	return st, nil
}

// StartWebview starts (or replaces) a headless browser showing this
// canvas's workbench. It needs the HTTP surface (not Options.NoHTTP).
func (c *Canvas) StartWebview(ctx context.Context, o WebviewOptions) (*WebviewStatus, error) {
	return replyField[WebviewStatus](ctx, c, "webview.start", o.input(), "webview")
}

// StopWebview closes the browser; false means none was running.
func (c *Canvas) StopWebview(ctx context.Context) (bool, error) {
	var out struct {
		Stopped bool `json:"stopped"`
	}
	_, err := c.call(ctx, "webview.stop", nil, &out)
	return out.Stopped, err
}

// Evaluate runs one JavaScript expression in the workbench page and
// returns its value as JSON; nil means the value has none (undefined).
func (c *Canvas) Evaluate(ctx context.Context, expression string) (json.RawMessage, error) {
	return c.evaluate(ctx, fields{"expression": expression})
}

// EvaluateScript runs a function body (it may await and return) in the
// workbench page and returns the returned value as JSON.
func (c *Canvas) EvaluateScript(ctx context.Context, script string) (json.RawMessage, error) {
	return c.evaluate(ctx, fields{"script": script})
}

func (c *Canvas) evaluate(ctx context.Context, in fields) (json.RawMessage, error) {
	var out struct {
		Value json.RawMessage `json:"value"`
	}
	if _, err := c.call(ctx, "webview.evaluate", in, &out); err != nil {
		return nil, err
	}
	return out.Value, nil
}

// ResizeWebview sets the browser viewport to width × height CSS pixels.
func (c *Canvas) ResizeWebview(ctx context.Context, width, height int) (*WebviewStatus, error) {
	return replyField[WebviewStatus](ctx, c, "webview.resize", fields{"width": width, "height": height}, "webview")
}

// Screenshot captures the browser viewport as png (format ""), jpeg or
// webp; quality (0–100, jpeg and webp) may be nil. It returns the image
// and its MIME type.
func (c *Canvas) Screenshot(ctx context.Context, format string, quality *int) ([]byte, string, error) {
	in := fields{}
	if format != "" {
		in["format"] = format
	}
	if quality != nil {
		in["quality"] = *quality
	}
	reply, err := c.invoke(ctx, "webview.screenshot", in)
	if err != nil {
		return nil, "", err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		return nil, "", messages.Internal("webview.screenshot answered %T, not an image", reply.Body)
	}
	return blob.Data, blob.ContentType, nil
}
