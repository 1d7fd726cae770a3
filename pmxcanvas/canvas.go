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
	if _, err := c.Theme(ctx); err != nil {
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

// call runs op with input in and decodes the reply body into out (when not
// nil). It returns the reply for its revision.
func (c *Canvas) call(ctx context.Context, op string, in any, out any) (*messages.Reply, error) {
	reply, err := c.invoke(ctx, op, in)
	if err != nil {
		return nil, err
	}
	body, err := messages.BodyJSON(reply.Body)
	if err != nil {
		return nil, messages.Internal("encode %s reply: %v", op, err)
	}
	if reply.StatusCode() >= http.StatusBadRequest {
		return nil, replyError(op, reply.StatusCode(), body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return nil, messages.Internal("decode %s reply: %v", op, err)
		}
	}
	return reply, nil
}

// invoke runs op with input in on this canvas and returns the reply as the
// invoker gave it (a binary reply stays a *messages.Blob).
func (c *Canvas) invoke(ctx context.Context, op string, in any) (*messages.Reply, error) {
	if c.h.closed.Load() {
		return nil, messages.Unavailable("the canvas is closed")
	}
	raw, err := encodeInput(in)
	if err != nil {
		var bad *json.UnsupportedValueError
		if errors.As(err, &bad) {
			// NaN and ±Inf have no JSON form: the caller's input is wrong.
			return nil, messages.InvalidInput("invalid input for %s: %s is not a finite number", op, bad.Str)
		}
		return nil, messages.Internal("encode %s input: %v", op, err)
	}
	env := &messages.Envelope{Canvas: c.canvas, Op: op, Source: c.source, Agent: c.agent, Input: raw}
	reply, err := c.h.inv.Invoke(ctx, env)
	if err != nil {
		return nil, callError(ctx, err)
	}
	return reply, nil
}

// replyField runs op and decodes the reply's key into a new T (the
// {ok:true, <key>: record} shape most operations answer).
func replyField[T any](ctx context.Context, c *Canvas, op string, in any, key string) (*T, error) {
	v := new(T)
	if err := c.callKey(ctx, op, in, key, v); err != nil {
		return nil, err
	}
	return v, nil
}

// replyList runs op and decodes the list under key.
func replyList[T any](ctx context.Context, c *Canvas, op string, in any, key string) ([]T, error) {
	var v []T
	err := c.callKey(ctx, op, in, key, &v)
	return v, err
}

// callKey runs op and decodes the reply's key (if present) into v.
func (c *Canvas) callKey(ctx context.Context, op string, in any, key string, v any) error {
	var out map[string]json.RawMessage
	if _, err := c.call(ctx, op, in, &out); err != nil {
		return err
	}
	if raw, ok := out[key]; ok {
		if err := json.Unmarshal(raw, v); err != nil {
			return messages.Internal("decode %s reply: %v", op, err)
		}
	}
	return nil
}

// encodeInput renders an input: nil is {}, a wireInput adds its extra
// keys, anything else is marshalled as is.
func encodeInput(in any) (json.RawMessage, error) {
	if in == nil {
		return json.RawMessage("{}"), nil
	}
	if w, ok := in.(wireInput); ok {
		m, err := w.wire()
		if err != nil {
			return nil, err
		}
		return json.Marshal(m)
	}
	return json.Marshal(in)
}

// wireInput is an input that builds its own field map.
type wireInput interface {
	wire() (map[string]any, error)
}

// fields is a field map under construction: set adds a key only when the
// value is present.
type fields map[string]any

func (f fields) str(key, v string) {
	if v != "" {
		f[key] = v
	}
}

func (f fields) strs(key string, v []string) {
	if v != nil {
		f[key] = v
	}
}

func (f fields) ptr(key string, v any) {
	switch t := v.(type) {
	case *string:
		if t != nil {
			f[key] = *t
		}
	case *bool:
		if t != nil {
			f[key] = *t
		}
	case *float64:
		if t != nil {
			f[key] = *t
		}
	default:
		panic(fmt.Sprintf("fields.ptr: %T", v))
	}
}

func (f fields) any(key string, v any) {
	if v != nil {
		f[key] = v
	}
}

// extra merges keys the typed input does not model; typed fields win.
func (f fields) extra(extra map[string]any) fields {
	for k, v := range extra {
		if _, set := f[k]; !set {
			f[k] = v
		}
	}
	return f
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
