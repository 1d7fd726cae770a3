package pmxcanvas

import (
	"context"
	"encoding/json"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

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

func (o WebviewOptions) input() *messages.WebviewStartInput {
	in := &messages.WebviewStartInput{ChromePath: text(o.ChromePath), DataStoreDir: text(o.DataStoreDir)}
	if o.Width > 0 {
		in.Width = Ptr(float64(o.Width))
	}
	if o.Height > 0 {
		in.Height = Ptr(float64(o.Height))
	}
	if len(o.ChromeArgv) > 0 {
		in.ChromeArgv = o.ChromeArgv
	}
	return in
}

func webviewOf(r *messages.WebviewResult) *WebviewStatus { return &r.Webview }

// StartWebview starts (or replaces) a headless browser showing this
// canvas's workbench. It needs the HTTP surface (not Options.NoHTTP).
func (c *Canvas) StartWebview(ctx context.Context, o WebviewOptions) (*WebviewStatus, error) {
	return unwrap(webviewOf)(c.WebviewStart(ctx, o.input()))
}

// StopWebview closes the browser; false means none was running.
func (c *Canvas) StopWebview(ctx context.Context) (bool, error) {
	return unwrap(func(r *messages.WebviewStopped) bool { return r.Stopped })(c.WebviewStop(ctx))
}

// Evaluate runs one JavaScript expression in the workbench page and
// returns its value as JSON; nil means the value has none (undefined).
func (c *Canvas) Evaluate(ctx context.Context, expression string) (json.RawMessage, error) {
	return c.evaluate(ctx, &messages.WebviewEvaluateInput{Expression: &expression})
}

// EvaluateScript runs a function body (it may await and return) in the
// workbench page and returns the returned value as JSON.
func (c *Canvas) EvaluateScript(ctx context.Context, script string) (json.RawMessage, error) {
	return c.evaluate(ctx, &messages.WebviewEvaluateInput{Script: &script})
}

func (c *Canvas) evaluate(ctx context.Context, in *messages.WebviewEvaluateInput) (json.RawMessage, error) {
	return unwrap(func(r *messages.EvaluateResult) json.RawMessage { return r.Value })(c.WebviewEvaluate(ctx, in))
}

// ResizeWebview sets the browser viewport to width × height CSS pixels.
func (c *Canvas) ResizeWebview(ctx context.Context, width, height int) (*WebviewStatus, error) {
	in := &messages.WebviewResizeInput{Width: Ptr(float64(width)), Height: Ptr(float64(height))}
	return unwrap(webviewOf)(c.WebviewResize(ctx, in))
}

// Screenshot captures the browser viewport as png (format ""), jpeg or
// webp; quality (0–100, jpeg and webp) may be nil. It returns the image
// and its MIME type.
func (c *Canvas) Screenshot(ctx context.Context, format string, quality *int) ([]byte, string, error) {
	in := &messages.WebviewScreenshotInput{Format: text(format)}
	if quality != nil {
		in.Quality = Ptr(float64(*quality))
	}
	blob, err := c.WebviewScreenshot(ctx, in)
	if err != nil {
		return nil, "", err
	}
	return blob.Data, blob.ContentType, nil
}
