// Package automation drives one headless browser session that shows the
// workbench, so agents can see what the human sees: screenshots, JavaScript
// evaluated in the page, and a controlled viewport size.
//
// The package knows nothing about canvases or actors. An Engine starts
// Sessions; the Webview actor (package actors) owns at most one Session per
// canvas and runs its steps one at a time through its mailbox. The real
// engine is Chromium over the DevTools protocol (go-rod, see rod.go); tests
// of the actor use a fake Engine.
package automation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Default viewport, as the reference's.
const (
	DefaultWidth  = 1280
	DefaultHeight = 800
)

// BackendChrome is the only backend this build drives. The reference also
// knows "webkit" (macOS only, through Bun).
const BackendChrome = "chrome"

// Options are the normalised start options of a session.
type Options struct {
	// Width and Height are the viewport in CSS pixels (not the window).
	Width, Height int
	// ChromePath is the browser binary; empty means the engine's default.
	ChromePath string
	// ChromeArgv are extra command-line switches ("--disable-gpu",
	// "--lang=en").
	ChromeArgv []string
	// DataStoreDir is the browser profile directory; empty means a
	// temporary profile removed when the session closes.
	DataStoreDir string
}

// Engine starts browser sessions.
type Engine interface {
	// Supported reports whether a browser binary can be found without
	// downloading anything.
	Supported() bool
	// Start opens a session showing url. Navigation is bounded by ctx; the
	// session must be closed by the caller.
	Start(ctx context.Context, url string, opts Options) (Session, error)
}

// Session is one headless browser page. Its methods are not safe for
// concurrent use; the Webview actor calls them one at a time.
type Session interface {
	// Evaluate runs JavaScript source (see ExpressionSource and
	// ScriptExpression) in the page, awaits a promise result, and returns
	// the value as JSON. defined is false when the
	// value has no JSON form (undefined, NaN, a BigInt).
	Evaluate(ctx context.Context, expression string) (value json.RawMessage, defined bool, err error)
	// Resize sets the viewport to exactly width × height CSS pixels.
	Resize(ctx context.Context, width, height int) error
	// Screenshot captures the viewport in format (png, jpeg or webp);
	// quality (0–100) applies to jpeg and webp when not nil.
	Screenshot(ctx context.Context, format string, quality *int) ([]byte, error)
	// Close ends the session and its browser.
	Close() error
}

// ScriptError is an exception thrown by evaluated JavaScript (a syntax or
// runtime error). Its message is the exception's, without the error class,
// as the reference reports it: "Unexpected token 'throw'".
type ScriptError struct{ Message string }

func (e *ScriptError) Error() string { return e.Message }

// ErrNoBrowser is returned by Start when no browser binary can be found.
var ErrNoBrowser = errors.New("no Chromium or Chrome binary found: install chromium (Debian: apt-get install chromium), or start the server with --webview-chrome-path or PMX_CANVAS_CHROME_PATH")

// Formats are the screenshot formats with their MIME types.
var Formats = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}

// ScriptExpression wraps a multi-statement script body the way the
// reference does, so `return` works and the result may be awaited.
func ScriptExpression(script string) string {
	return "(async () => {\n" + script + "\n})()"
}

// ExpressionSource makes a single expression the whole program, so that a
// statement ("throw new Error()") is a syntax error, as in the reference,
// rather than silently run. A trailing semicolon is allowed.
func ExpressionSource(expression string) string {
	e := strings.TrimRight(strings.TrimSpace(expression), "; \t\n")
	return "(\n" + e + "\n)"
}

// exceptionMessage turns a DevTools exception description ("TypeError:
// Cannot read ... \n    at <anonymous>:1:1") into its bare message.
func exceptionMessage(description, text string) string {
	msg := description
	if msg == "" {
		msg = text
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if i := strings.Index(msg, ": "); i > 0 && isErrorClass(msg[:i]) {
		msg = msg[i+2:]
	}
	if strings.HasPrefix(msg, "Uncaught ") {
		msg = strings.TrimPrefix(msg, "Uncaught ")
	}
	return msg
}

// isErrorClass reports whether s looks like "TypeError" or "Uncaught
// SyntaxError": a prefix that names the error's class.
func isErrorClass(s string) bool {
	s = strings.TrimPrefix(s, "Uncaught ")
	if s == "" || strings.ContainsAny(s, " \t'\"") {
		return false
	}
	return strings.HasSuffix(s, "Error") || strings.HasSuffix(s, "Exception")
}

// TimeoutError reports a step that did not finish in time.
type TimeoutError struct {
	After  int // milliseconds
	Action string
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("Timed out after %dms while %s.", e.After, e.Action)
}
