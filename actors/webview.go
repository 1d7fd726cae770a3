package actors

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/automation"
	wsroot "github.com/pmxcanvas/pmx-canvas/content/workspace"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// webviewLaunchBudget is what a start allows the browser process to come
// up, on top of the step timeout that bounds loading the workbench.
const webviewLaunchBudget = 20 * time.Second

// webviewCore is the Webview actor's state (kept in the canvas handle, so a
// restarted actor still owns the browser it started).
type webviewCore struct {
	session automation.Session
	status  messages.WebviewStatus
	// opts and navigate are what the session was started with, to start
	// a replacement for a browser that stopped answering.
	opts     automation.Options
	navigate string
}

// Bounds of the browser calls that are not steps: closing a session, and
// the probe that tells a slow step from a browser that stopped answering.
const (
	webviewCloseBudget = 5 * time.Second
	webviewProbeBudget = 2 * time.Second
	// webviewGrace is how long after its deadline a step that ignores its
	// context is given before the browser is taken as wedged.
	webviewGrace = time.Second
)

// webviewActor owns a canvas's headless browser session. Its mailbox is
// the FIFO queue the reference kept as a promise chain: start, stop,
// evaluate, resize and screenshot run one at a time, and a failed step does
// not block the next. The status read uses the published view instead.
type webviewActor struct {
	ref *canvasRef
}

func (a *webviewActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *invokeRequest:
		if expired(ctx, m) {
			return
		}
		h, ok := webviewHandlers[m.op.Name]
		if !ok {
			ctx.Respond(&invokeResult{err: messages.Internal("no webview handler for %s", m.op.Name)})
			return
		}
		body, err := runPure(ctx, a.ref, "webview", m.env, func() (any, *messages.Error) {
			return h(a.ref, m.env)
		})
		a.publish()
		if err != nil {
			ctx.Respond(&invokeResult{err: err})
			return
		}
		ctx.Respond(&invokeResult{reply: &messages.Reply{Body: body, Revision: a.ref.view.Load().Revision}})
	case *actor.Stopping:
		// Server shutdown closes the browser with the canvas.
		core := a.ref.webview
		if core.session != nil {
			_ = closeSession(core.session)
			core.session = nil
		}
	}
}

// publish makes the status visible to webview.status reads.
func (a *webviewActor) publish() {
	st := a.ref.webview.status
	a.ref.webviewView.Store(&st)
}

type webviewHandler func(ref *canvasRef, env *messages.Envelope) (any, *messages.Error)

var webviewHandlers = map[string]webviewHandler{
	"webview.start":      webviewStart,
	"webview.stop":       webviewStop,
	"webview.evaluate":   webviewEvaluate,
	"webview.resize":     webviewResize,
	"webview.screenshot": webviewScreenshot,
}

func init() {
	readHandlers["webview.status"] = webviewStatusRead
}

// webviewStatusRead answers from the published status; supported is
// checked at read time, so installing a browser shows up without a
// restart.
func webviewStatusRead(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
	return ref.webviewStatus(), nil
}

// webviewStatus is the published status, for readers outside the actor.
func (r *canvasRef) webviewStatus() messages.WebviewStatus {
	return r.withSupported(*r.webviewView.Load())
}

// webviewStatusNow is the status as the Webview actor holds it (its
// handlers answer before the published view catches up).
func (r *canvasRef) webviewStatusNow() messages.WebviewStatus {
	return r.withSupported(r.webview.status)
}

func (r *canvasRef) withSupported(st messages.WebviewStatus) messages.WebviewStatus {
	st.Supported = r.sys.webviewEngine().Supported()
	return st
}

// WebviewConfig configures the canvases' automation webviews.
type WebviewConfig struct {
	// Engine starts browser sessions; nil means Chromium through go-rod.
	Engine automation.Engine
	// WorkbenchURL is the workbench page the browser loads, e.g.
	// "http://127.0.0.1:4313/workbench". Empty (no HTTP server) makes a
	// start fail with 503, as in the reference.
	WorkbenchURL string
	// Token is the server's bearer token, passed to the page so its API
	// calls are authorised. It never appears in the status.
	Token string
	// Workspace confines dataStoreDir.
	Workspace string
	// Browser is the server's browser configuration: binary, switches and
	// profile directory, set by flags or environment at start. Requests
	// may not set them (a browser path or switch runs a program).
	Browser automation.Options
	// AllowRequestBrowser lets webview.start requests set chromePath,
	// chromeArgv and dataStoreDir, as the reference did. Unsafe: any
	// client that may start the webview may then run any program.
	AllowRequestBrowser bool
	// StepTimeout bounds loading the page on start and each evaluate,
	// resize and screenshot. 0 means 5s (PMX_CANVAS_WEBVIEW_TIMEOUT_MS).
	StepTimeout time.Duration
}

func (c WebviewConfig) stepTimeout() time.Duration {
	if c.StepTimeout <= 0 {
		return 5 * time.Second
	}
	return c.StepTimeout
}

func (s *System) webviewEngine() automation.Engine {
	if s.cfg.Webview.Engine == nil {
		return defaultEngine
	}
	return s.cfg.Webview.Engine
}

var defaultEngine = &automation.Chromium{}

func newWebviewCore() *webviewCore {
	return &webviewCore{status: messages.WebviewStatus{HeadlessOnly: true}}
}

// webviewError attaches the current status, as every webview failure body
// of the reference does.
func webviewError(ref *canvasRef, code messages.Code, msg string) *messages.Error {
	return messages.Make(code, "%s", msg).With("webview", ref.webviewStatusNow())
}

func webviewStart(ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WebviewStartInput)
	cfg := ref.sys.cfg.Webview
	opts, err := webviewOptions(in, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.WorkbenchURL == "" {
		return nil, messages.Unavailable("Canvas server is not running.")
	}
	core := ref.webview
	engine := ref.sys.webviewEngine()
	if opts.ChromePath == "" && !engine.Supported() {
		msg := automation.ErrNoBrowser.Error()
		core.status.LastError = &msg
		return nil, webviewError(ref, messages.CodeWebviewUnsupported, msg)
	}
	// Start means start or replace: the previous session goes first.
	closeWebview(ref)
	shown, navigate := ref.workbenchURLs()
	timeout := cfg.stepTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), webviewLaunchBudget+timeout)
	defer cancel()
	session, serr := engine.Start(ctx, navigate, opts)
	if serr != nil {
		msg := serr.Error()
		if errors.Is(serr, context.DeadlineExceeded) {
			msg = (&automation.TimeoutError{After: int(timeout.Milliseconds()), Action: "starting the workbench automation webview"}).Error()
		}
		core.status.LastError = &msg
		return nil, webviewError(ref, messages.CodeWebviewStartFailed, msg)
	}
	core.session = session
	core.opts, core.navigate = opts, navigate
	backend := automation.BackendChrome
	started := ref.sys.cfg.Env.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	core.status = messages.WebviewStatus{
		Active: true, HeadlessOnly: true, URL: &shown, Backend: &backend,
		Width: &opts.Width, Height: &opts.Height, StartedAt: &started,
	}
	if opts.DataStoreDir != "" {
		dir := opts.DataStoreDir
		core.status.DataStoreDir = &dir
	}
	return map[string]any{"ok": true, "webview": ref.webviewStatusNow()}, nil
}

// closeWebview ends the session, if any, and resets the session fields;
// lastError is kept (and set if closing failed). It reports whether there
// was a session.
func closeWebview(ref *canvasRef) bool {
	core := ref.webview
	if core.session == nil {
		return false
	}
	err := closeSession(core.session)
	core.session = nil
	last := core.status.LastError
	if err != nil {
		msg := err.Error()
		last = &msg
	}
	core.status = messages.WebviewStatus{HeadlessOnly: true, LastError: last}
	return true
}

func webviewStop(ref *canvasRef, _ *messages.Envelope) (any, *messages.Error) {
	stopped := closeWebview(ref)
	return map[string]any{"ok": true, "stopped": stopped, "webview": ref.webviewStatusNow()}, nil
}

// inactive is the error of a step that needs a session when there is none.
func inactive(ref *canvasRef) *messages.Error {
	return webviewError(ref, messages.CodeWebviewInactive,
		"Canvas automation webview is not active. Start it before issuing automation commands.")
}

// step runs one browser step under the step timeout. A step that times
// out is followed by a probe: a browser that does not answer it (or a step
// that ignored its deadline) is wedged, so it is killed and replaced by a
// new one started with the same options; the error says so, and later
// steps run on the new browser instead of queueing behind the dead one.
func step[T any](ref *canvasRef, action string, f func(ctx context.Context, s automation.Session) (T, error)) (T, *messages.Error) {
	var zero T
	core := ref.webview
	if core.session == nil {
		return zero, inactive(ref)
	}
	timeout := ref.sys.cfg.Webview.stepTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	session := core.session
	out, err, returned := bounded(ctx, webviewGrace, func(ctx context.Context) (T, error) { return f(ctx, session) })
	if err == nil {
		return out, nil
	}
	msg := err.Error()
	timedOut := !returned || errors.Is(err, context.DeadlineExceeded)
	if timedOut {
		msg = (&automation.TimeoutError{After: int(timeout.Milliseconds()), Action: action}).Error()
		if !returned || !answers(session) {
			msg += " " + replaceWebview(ref)
		}
	}
	return zero, webviewError(ref, messages.CodeWebviewFailed, msg)
}

// bounded runs f with ctx and waits for it until ctx ends plus grace;
// returned is false when f was still running then (it is left to finish
// on its own).
func bounded[T any](ctx context.Context, grace time.Duration, f func(context.Context) (T, error)) (out T, err error, returned bool) {
	type result struct {
		out T
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, e := f(ctx)
		done <- result{o, e}
	}()
	select {
	case r := <-done:
		return r.out, r.err, true
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case r := <-done:
		return r.out, r.err, true
	case <-t.C:
		return out, ctx.Err(), false
	}
}

// answers reports whether the browser still evaluates a trivial
// expression within the probe budget.
func answers(s automation.Session) bool {
	ctx, cancel := context.WithTimeout(context.Background(), webviewProbeBudget)
	defer cancel()
	_, err, returned := bounded(ctx, webviewGrace, func(ctx context.Context) (bool, error) {
		_, _, err := s.Evaluate(ctx, "1")
		return true, err
	})
	return returned && err == nil
}

// closeSession closes a browser session within webviewCloseBudget; a close
// that hangs (a wedged browser) is abandoned to finish on its own.
func closeSession(s automation.Session) error {
	ctx, cancel := context.WithTimeout(context.Background(), webviewCloseBudget)
	defer cancel()
	_, err, returned := bounded(ctx, 0, func(context.Context) (struct{}, error) { return struct{}{}, s.Close() })
	if !returned {
		return errors.New("closing the browser timed out; it was abandoned")
	}
	return err
}

// replaceWebview kills a wedged browser and starts a new one with the
// options of the last start. It returns the sentence the failed step's
// error ends with, and records it as lastError.
func replaceWebview(ref *canvasRef) string {
	core := ref.webview
	old := core.session
	core.session = nil
	go func() { _ = closeSession(old) }() // the mailbox does not wait for a dead browser
	timeout := ref.sys.cfg.Webview.stepTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), webviewLaunchBudget+timeout)
	defer cancel()
	next, err := ref.sys.webviewEngine().Start(ctx, core.navigate, core.opts)
	var note string
	if err != nil {
		note = "The browser stopped answering and was closed; starting a new one failed: " + err.Error()
		core.status = messages.WebviewStatus{HeadlessOnly: true}
	} else {
		note = "The browser stopped answering; it was killed and a new one started."
		core.session = next
		started := ref.sys.cfg.Env.Now().UTC().Format("2006-01-02T15:04:05.000Z")
		core.status.StartedAt = &started
	}
	core.status.LastError = &note
	return note
}

// evaluateExactlyOne is the reference's message for a wrong evaluate input.
const evaluateExactlyOne = `Pass exactly one of "expression" (single JS expression) or "script" (multi-statement body, wrapped in an async IIFE).`

func webviewEvaluate(ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WebviewEvaluateInput)
	expr, script := trimmed(in.Expression), trimmed(in.Script)
	if (expr == "") == (script == "") {
		return nil, messages.BadRequest(evaluateExactlyOne)
	}
	source := automation.ExpressionSource(expr)
	if script != "" {
		source = automation.ScriptExpression(script)
	}
	type result struct {
		value   []byte
		defined bool
	}
	res, err := step(ref, "evaluating JavaScript in the workbench automation webview",
		func(ctx context.Context, s automation.Session) (result, error) {
			v, defined, err := s.Evaluate(ctx, source)
			return result{v, defined}, err
		})
	if err != nil {
		return nil, err
	}
	body := map[string]any{"ok": true}
	if res.defined {
		body["value"] = json.RawMessage(res.value)
	}
	return body, nil
}

func webviewResize(ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WebviewResizeInput)
	if !positive(in.Width) || !positive(in.Height) {
		return nil, messages.InvalidInput("Missing required positive numeric fields: width, height.")
	}
	if err := tooLarge("webview.resize", in.Width, in.Height); err != nil {
		return nil, err
	}
	w, h := int(math.Floor(*in.Width)), int(math.Floor(*in.Height))
	if w < 1 || h < 1 {
		return nil, messages.InvalidInput("width and height must be at least 1 pixel")
	}
	_, err := step(ref, "resizing the workbench automation webview",
		func(ctx context.Context, s automation.Session) (struct{}, error) {
			return struct{}{}, s.Resize(ctx, w, h)
		})
	if err != nil {
		return nil, err
	}
	core := ref.webview
	core.status.Width, core.status.Height = &w, &h
	return map[string]any{"ok": true, "webview": ref.webviewStatusNow()}, nil
}

func webviewScreenshot(ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WebviewScreenshotInput)
	format := "png"
	if in.Format != nil && *in.Format != "" {
		format = strings.ToLower(strings.TrimSpace(*in.Format))
	}
	mime, ok := automation.Formats[format]
	if !ok {
		return nil, messages.InvalidInput("invalid input for webview.screenshot: field \"format\" must be png, jpeg or webp, got %q", *in.Format).With("field", "format")
	}
	var quality *int
	if in.Quality != nil {
		q := *in.Quality
		if math.IsNaN(q) || q < 0 || q > 100 {
			return nil, messages.InvalidInput("invalid input for webview.screenshot: field \"quality\" must be between 0 and 100").With("field", "quality")
		}
		qi := int(math.Round(q))
		quality = &qi
	}
	data, err := step(ref, "capturing a screenshot from the workbench automation webview",
		func(ctx context.Context, s automation.Session) ([]byte, error) {
			return s.Screenshot(ctx, format, quality)
		})
	if err != nil {
		return nil, err
	}
	return &messages.Blob{ContentType: mime, Data: data}, nil
}

// webviewOptions normalises start options as the reference does, except
// that wrong input is refused by name instead of silently replaced, and the
// browser binary, its switches and its profile come from the server's
// configuration: a request naming them is refused unless the server was
// started with AllowRequestBrowser.
func webviewOptions(in *messages.WebviewStartInput, cfg WebviewConfig) (automation.Options, *messages.Error) {
	opts := automation.Options{Width: automation.DefaultWidth, Height: automation.DefaultHeight,
		ChromePath: cfg.Browser.ChromePath, ChromeArgv: cfg.Browser.ChromeArgv, DataStoreDir: cfg.Browser.DataStoreDir}
	if b := trimmed(in.Backend); b != "" && b != automation.BackendChrome {
		msg := `invalid input for webview.start: field "backend" must be "chrome"`
		if b == "webkit" {
			msg = `invalid input for webview.start: field "backend": the webkit backend is not available (it needs Bun on macOS); this server drives Chromium, use "chrome"`
		}
		return opts, messages.InvalidInput("%s", msg).With("field", "backend")
	}
	if err := tooLarge("webview.start", in.Width, in.Height); err != nil {
		return opts, err
	}
	if positive(in.Width) && *in.Width >= 1 {
		opts.Width = int(math.Floor(*in.Width))
	}
	if positive(in.Height) && *in.Height >= 1 {
		opts.Height = int(math.Floor(*in.Height))
	}
	var argv []string
	for _, a := range in.ChromeArgv {
		if a = strings.TrimSpace(a); a != "" {
			argv = append(argv, a)
		}
	}
	path, dir := trimmed(in.ChromePath), trimmed(in.DataStoreDir)
	if !cfg.AllowRequestBrowser {
		for _, f := range []struct {
			field, flag string
			set         bool
		}{{"chromePath", "--webview-chrome-path", path != ""}, {"chromeArgv", "--webview-chrome-argv", len(argv) > 0}, {"dataStoreDir", "--webview-data-dir", dir != ""}} {
			if f.set {
				return opts, requestBrowserRefused(f.field, f.flag)
			}
		}
	}
	if path != "" {
		opts.ChromePath = path
	}
	if len(argv) > 0 {
		opts.ChromeArgv = argv
	}
	if dir != "" {
		opts.DataStoreDir = dir
	}
	if opts.DataStoreDir != "" {
		abs, ok := insideWorkspace(cfg.Workspace, opts.DataStoreDir)
		if !ok {
			return opts, messages.InvalidInput("Path %q resolves outside workspace.", opts.DataStoreDir).With("field", "dataStoreDir")
		}
		opts.DataStoreDir = abs
	}
	return opts, nil
}

// requestBrowserRefused is the 400 for a webview.start request that names
// the browser binary, its switches or its profile on a server that keeps
// them as its own configuration.
func requestBrowserRefused(field, flag string) *messages.Error {
	return messages.InvalidInput("invalid input for webview.start: field %q is server configuration, not a request field: "+
		"start the server with %s instead (or with --webview-allow-request-browser to let requests set it, which lets any client run any program)",
		field, flag).With("field", field)
}

// insideWorkspace resolves p against the workspace and reports whether it
// stays inside it, following symbolic links (content/workspace's rule):
// a link inside the workspace that points out of it does not count as
// inside. Parts of the path that do not exist yet are taken as written.
func insideWorkspace(workspace, p string) (string, bool) {
	if workspace == "" {
		return "", false
	}
	root, err := wsroot.Open(workspace)
	if err != nil {
		return "", false
	}
	defer root.Close()
	rel, err := root.Contain(p)
	if err != nil {
		return "", false
	}
	return root.Abs(rel), true
}

// workbenchURLs returns the URL the status shows and the one the browser
// loads (which carries the server token, if any).
func (r *canvasRef) workbenchURLs() (shown, navigate string) {
	cfg := r.sys.cfg.Webview
	shown = cfg.WorkbenchURL
	q := url.Values{}
	if r.id != messages.DefaultCanvas {
		q.Set("canvas", r.id)
		shown += "?" + q.Encode()
	}
	if cfg.Token != "" {
		q.Set("token", cfg.Token)
	}
	navigate = cfg.WorkbenchURL
	if len(q) > 0 {
		navigate += "?" + q.Encode()
	}
	return shown, navigate
}

// maxViewport bounds a viewport side; Chromium refuses far larger ones.
const maxViewport = 16384

// tooLarge refuses a width or height beyond maxViewport, naming the field.
func tooLarge(op string, width, height *float64) *messages.Error {
	for _, f := range []struct {
		name string
		v    *float64
	}{{"width", width}, {"height", height}} {
		if f.v != nil && *f.v > maxViewport {
			return messages.InvalidInput("invalid input for %s: field %q must be at most %d pixels", op, f.name, maxViewport).With("field", f.name)
		}
	}
	return nil
}

func trimmed(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

func positive(f *float64) bool {
	return f != nil && !math.IsNaN(*f) && !math.IsInf(*f, 0) && *f > 0
}
