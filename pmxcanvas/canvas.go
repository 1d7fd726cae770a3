package pmxcanvas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// SourceSDK is the AX source label of calls made through a Canvas: records
// it creates carry source "sdk", as in the reference's SDK.
const SourceSDK = "sdk"

// Canvas is a pmx-canvas running in this process, addressed through typed
// Go methods. Every method runs one catalog operation through the
// in-process messages.Invoker, the same envelope path the HTTP surface
// uses, so a Canvas sees and makes exactly the changes HTTP, MCP and CLI
// clients see (they share the canvas while it runs).
//
// Errors from a method are *messages.Error values (check Status and Code),
// except that a call ended by its context returns an error that wraps both
// ctx.Err() and the *messages.Error, so errors.Is(err, context.Canceled)
// and errors.As(err, &msgErr) both work.
//
// A Canvas is safe for concurrent use. WithCanvas, WithAgent and WithSource
// return views that share the same server.
type Canvas struct {
	h      *handle
	canvas string
	agent  string
	source string
}

// handle is the server behind a Canvas and its views.
type handle struct {
	srv      *Server
	inv      messages.Invoker
	streamer messages.Streamer
	owned    bool // Close stops the server

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

// Open starts a pmx-canvas in this process, with the same actors and store
// the pmx-canvas binary runs (see Start for the options; HTTP is served
// unless Options.NoHTTP, on Options.Port or a free port when it is 0), and
// returns the default canvas ("main"). Close it when done.
func Open(ctx context.Context, opts Options) (*Canvas, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	srv, err := Start(opts)
	if err != nil {
		return nil, err
	}
	c := &Canvas{h: &handle{srv: srv, inv: srv.Invoker(), streamer: srv.Streamer(), owned: true}, canvas: messages.DefaultCanvas, source: SourceSDK}
	// Load the default canvas now, so a broken store fails Open, not the
	// first call.
	if _, err := c.ThemeGet(ctx); err != nil {
		_ = srv.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return c, nil
}

// Canvas returns the typed API for the server's default canvas. Closing
// that Canvas does not stop the server; Server.Close does.
func (s *Server) Canvas() *Canvas {
	return &Canvas{h: &handle{srv: s, inv: s.Invoker(), streamer: s.Streamer()}, canvas: messages.DefaultCanvas, source: SourceSDK}
}

// WithCanvas returns a view of another canvas of the same server (created
// on first use). Ids are 1-64 letters, digits, '.', '_' or '-'; an invalid
// id fails every call with 400 invalid-input.
func (c *Canvas) WithCanvas(id string) *Canvas {
	v := *c
	v.canvas = id
	return &v
}

// WithAgent returns a view whose writes are recorded as made by agent (the
// X-PMX-Agent of HTTP clients; see History).
func (c *Canvas) WithAgent(agent string) *Canvas {
	v := *c
	v.agent = agent
	return &v
}

// WithSource returns a view whose AX records carry another source label
// (one of agent, api, browser, cli, codex, copilot, mcp, sdk, system).
func (c *Canvas) WithSource(source string) *Canvas {
	v := *c
	v.source = source
	return &v
}

// ID returns the canvas id this view addresses.
func (c *Canvas) ID() string { return c.canvas }

// Server returns the running server (its URL, Invoker, Streamer).
func (c *Canvas) Server() *Server { return c.h.srv }

// URL returns the base URL of the HTTP surface, or "" with NoHTTP.
func (c *Canvas) URL() string { return c.h.srv.URL() }

// Close stops the server Open started: HTTP first, then the actors
// (queued writes commit), then the store. It closes every view and
// subscription of the server. Closing again returns the first result.
func (c *Canvas) Close(ctx context.Context) error {
	h := c.h
	h.closeOnce.Do(func() {
		h.closed.Store(true)
		if h.owned {
			h.closeErr = h.srv.Close(ctx)
		}
	})
	return h.closeErr
}

// runOp runs op with input in (a pointer to the operation's input type,
// or nil) and decodes the reply body into a new T. Every generated method
// is one call of it, so the plumbing below exists once.
func runOp[T any](ctx context.Context, c *Canvas, op string, in any) (*T, error) {
	out := new(T)
	if err := c.call(ctx, op, in, out); err != nil {
		return nil, err
	}
	return out, nil
}

// deref returns the value of an output that is not a struct (a list, raw
// JSON), which generated methods return as it is.
func deref[T any](v *T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return *v, nil
}

// unwrap adapts a generated method's result to a shortcut's: on success
// it returns the part of the reply the shortcut promises.
func unwrap[R, T any](part func(*R) T) func(*R, error) (T, error) {
	return func(r *R, err error) (T, error) {
		if err != nil {
			var zero T
			return zero, err
		}
		return part(r), nil
	}
}

// call runs op with input in on this canvas, through the invoker and the
// operation's own decoder (the input travels as the JSON an HTTP client
// would send), and decodes the reply body into out. A binary reply (a
// screenshot) is copied into a *messages.Blob out; a JSON reply to a
// *messages.Blob out is its JSON bytes.
func (c *Canvas) call(ctx context.Context, op string, in any, out any) error {
	if c.h.closed.Load() {
		return messages.Unavailable("the canvas is closed")
	}
	raw, err := messages.EncodeInput(in)
	if err != nil {
		return encodeError(op, err)
	}
	env := &messages.Envelope{Canvas: c.canvas, Op: op, Source: c.source, Agent: c.agent, Input: raw}
	reply, err := c.h.inv.Invoke(ctx, env)
	if err != nil {
		return callError(ctx, err)
	}
	if blob, isBlob := reply.Body.(*messages.Blob); isBlob {
		if dst, ok := out.(*messages.Blob); ok {
			*dst = *blob
			return nil
		}
	}
	body, err := messages.BodyJSON(reply.Body)
	if err != nil {
		return messages.Internal("encode %s reply: %v", op, err)
	}
	if reply.StatusCode() >= http.StatusBadRequest {
		return replyError(op, reply.StatusCode(), body)
	}
	if dst, ok := out.(*messages.Blob); ok {
		// An operation that answers bytes in some formats and JSON in
		// others (canvas.export: an SVG or PNG, or a JSON Canvas) gives
		// the JSON as bytes too, with its content type, as HTTP sends it.
		*dst = messages.Blob{ContentType: "application/json", Data: body}
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return messages.Internal("decode %s reply: %v", op, err)
	}
	return nil
}

// encodeError is the error for an input that has no JSON form: NaN and
// ±Inf are the caller's mistake.
func encodeError(op string, err error) error {
	var bad *json.UnsupportedValueError
	if errors.As(err, &bad) {
		return messages.InvalidInput("invalid input for %s: %s is not a finite number", op, bad.Str)
	}
	return messages.Internal("encode %s input: %v", op, err)
}

// withExtra decodes extra, the wire keys a shortcut's input passes along
// unmodelled, into a new input of op with the decoder HTTP runs (a
// wrong-typed value fails with HTTP's text); the shortcut then sets its
// typed fields over it, so they win.
func withExtra[T any](op string, extra map[string]any) (*T, error) {
	in := new(T)
	if len(extra) == 0 {
		return in, nil
	}
	raw, err := json.Marshal(extra)
	if err != nil {
		return nil, encodeError(op, err)
	}
	o, _ := messages.Lookup(op)
	if derr := o.DecodeOnto(raw, in); derr != nil {
		return nil, derr
	}
	return in, nil
}

// text returns &s, or nil for "" (the shortcuts' "not given").
func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// anys converts ids for the AX inputs, which keep list elements loose.
func anys(ids []string) []any {
	if ids == nil {
		return nil
	}
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// orEmpty sends a nil list as [] where the operation needs the key.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// replyError turns an error-status reply (a gate read's 404, a refused
// interaction) into the *messages.Error HTTP clients would see.
func replyError(op string, status int, body []byte) error {
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	e := &messages.Error{Status: status}
	if code, ok := m["code"].(string); ok {
		e.Code = messages.Code(code)
	} else {
		e.Code = codeForStatus(status)
	}
	if msg, ok := m["error"].(string); ok {
		e.Message = msg
	} else {
		e.Message = fmt.Sprintf("%s failed with status %d", op, status)
	}
	for k, v := range m {
		if k == "ok" || k == "error" || k == "code" || v == nil {
			continue
		}
		if e.Extra == nil {
			e.Extra = map[string]any{}
		}
		e.Extra[k] = v
	}
	return e
}

func codeForStatus(status int) messages.Code {
	for _, spec := range messages.ErrorCatalog {
		if spec.Status == status {
			return spec.Code
		}
	}
	return messages.CodeInternal
}

// callError returns err as a *messages.Error, wrapped together with
// ctx.Err() when the context ended the call.
func callError(ctx context.Context, err error) error {
	var e *messages.Error
	if !errors.As(err, &e) {
		e = messages.Internal("%v", err)
	}
	e = plainExtra(e)
	if cause := ctx.Err(); cause != nil {
		return &ctxError{err: e, cause: cause}
	}
	return e
}

// plainExtra returns e with its Extra values as JSON values (maps, slices,
// float64s, ...), as a client of the HTTP surface decodes them, so an
// error reads the same in process and over HTTP. e itself may be shared
// and is not changed.
func plainExtra(e *messages.Error) *messages.Error {
	if len(e.Extra) == 0 {
		return e
	}
	b, err := json.Marshal(e.Extra)
	if err != nil {
		return e
	}
	var extra map[string]any
	if json.Unmarshal(b, &extra) != nil {
		return e
	}
	c := *e
	c.Extra = extra
	return &c
}

// RequiredApproval returns the approval gate of an approval-required
// refusal (a command or interaction the policy gates), or nil for any
// other error. Once a human approves the gate, the same call succeeds
// once.
func RequiredApproval(err error) *ApprovalGate {
	var e *messages.Error
	if !errors.As(err, &e) || e.Code != messages.CodeApprovalRequired {
		return nil
	}
	b, jerr := json.Marshal(e.Extra["approvalGate"])
	if jerr != nil {
		return nil
	}
	var g ApprovalGate
	if json.Unmarshal(b, &g) != nil || g.ID == "" {
		return nil
	}
	return &g
}

// ctxError is a call ended by its context: it unwraps to both the context's
// error and the operation's *messages.Error.
type ctxError struct {
	err   *messages.Error
	cause error
}

func (e *ctxError) Error() string   { return e.err.Message + ": " + e.cause.Error() }
func (e *ctxError) Unwrap() []error { return []error{e.cause, e.err} }

// Ptr returns a pointer to v, for the optional fields of patches:
// pmxcanvas.Ptr("new title").
func Ptr[T any](v T) *T { return &v }
