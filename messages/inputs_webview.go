package messages

import "encoding/json"

// WebviewStartInput is the input of webview.start.
type WebviewStartInput struct {
	// Backend is "chrome" (the default and the only one this build
	// drives).
	Backend *string `json:"backend" enum:"webviewBackends" doc:"Browser engine: chrome (the only one this server drives; webkit is refused)."`
	// Width and Height are the viewport; missing or not positive means
	// 1280 × 800.
	Width  *float64 `json:"width" doc:"Viewport width." default:"1280"`
	Height *float64 `json:"height" doc:"Viewport height." default:"800"`
	// ChromePath is the browser binary; empty means the one found on PATH.
	ChromePath *string `json:"chromePath" doc:"Chrome or Chromium binary to use."`
	// ChromeArgv are extra browser switches, e.g. ["--disable-gpu"].
	ChromeArgv []string `json:"chromeArgv" doc:"Extra browser command-line flags."`
	// DataStoreDir is a browser profile directory inside the workspace;
	// empty means a temporary profile.
	DataStoreDir *string `json:"dataStoreDir" doc:"Persistent profile directory; must resolve inside the workspace."`
}

// WebviewEvaluateInput is the input of webview.evaluate: exactly one of the
// two fields.
type WebviewEvaluateInput struct {
	Expression *string `json:"expression" doc:"One JavaScript expression."`
	Script     *string `json:"script" doc:"Several statements, run as an async function body; its return value is reported."`
}

// WebviewResizeInput is the input of webview.resize.
type WebviewResizeInput struct {
	Width  *float64 `json:"width" doc:"Viewport width in pixels (> 0)." pmx:"required"`
	Height *float64 `json:"height" doc:"Viewport height in pixels (> 0)." pmx:"required"`
}

// WebviewScreenshotInput is the input of webview.screenshot.
type WebviewScreenshotInput struct {
	// Format is png (default), jpeg or webp.
	Format *string `json:"format" doc:"Image format." default:"\"png\"" enum:"screenshotFormats"`
	// Quality (0–100) applies to jpeg and webp.
	Quality *float64 `json:"quality" doc:"JPEG/WebP quality 0\u2013100."`
}

// WebviewStatus is the automation webview status every surface returns.
// Session fields are null while no session is active; LastError survives a
// stop and clears on a successful start.
type WebviewStatus struct {
	Supported    bool    `json:"supported"`
	Active       bool    `json:"active"`
	HeadlessOnly bool    `json:"headlessOnly"`
	URL          *string `json:"url"`
	Backend      *string `json:"backend"`
	Width        *int    `json:"width"`
	Height       *int    `json:"height"`
	DataStoreDir *string `json:"dataStoreDir"`
	StartedAt    *string `json:"startedAt"`
	LastError    *string `json:"lastError"`
}

// Blob is a binary reply body (a screenshot). Surfaces send Data as it is
// with ContentType instead of rendering JSON.
type Blob struct {
	ContentType string
	Data        []byte
	// CSP, when set, is the Content-Security-Policy the HTTP surface sends
	// with the bytes (workspace html and svg are served sandboxed, so they
	// never run with the canvas's origin).
	CSP string
}

// WebviewResult is the reply of webview.start and webview.resize.
type WebviewResult struct {
	OK      bool          `json:"ok"`
	Webview WebviewStatus `json:"webview"`
}

// WebviewStopped is webview.stop's reply: Stopped says whether a session
// was running.
type WebviewStopped struct {
	OK      bool          `json:"ok"`
	Stopped bool          `json:"stopped"`
	Webview WebviewStatus `json:"webview"`
}

// EvaluateResult is webview.evaluate's reply: the result as JSON, absent
// (nil) for undefined.
type EvaluateResult struct {
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value"`
}
