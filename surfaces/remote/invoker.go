// Package remote forwards operation envelopes to a running pmx-canvas
// server over HTTP, so a surface (MCP, the CLI) in another process gives
// the same results as one hosting the actors itself. The request for an
// operation is built from its catalog route, the way the reference's
// HttpOperationInvoker does: path parameters from the input, the rest as
// query parameters (GET, DELETE) or as the JSON body.
package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Request headers shared with the HTTP surface.
const (
	headerCanvas         = "X-PMX-Canvas"
	headerAgent          = "X-PMX-Agent"
	headerIfRevision     = "X-PMX-If-Revision"
	headerIdempotencyKey = "Idempotency-Key"
	headerSource         = "X-PMX-Source"
	headerError          = "X-PMX-Error"
	headerRevision       = "X-PMX-Revision"
)

// Client talks to one server.
type Client struct {
	// Base is the server's URL, e.g. http://127.0.0.1:4313.
	Base string
	// Token is sent as a bearer token when set.
	Token string
	// HTTP is the client to use (nil: a client without a timeout; calls
	// are bounded by their context, and long waits must not be cut).
	HTTP *http.Client
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// Invoke implements messages.Invoker.
func (c *Client) Invoke(ctx context.Context, env *messages.Envelope) (*messages.Reply, error) {
	op, ok := messages.Lookup(env.Op)
	if !ok {
		return nil, messages.BadRequest("unknown operation %q", env.Op)
	}
	if len(op.HTTP) == 0 {
		return nil, messages.Internal("operation %s has no HTTP route", env.Op)
	}
	req, err := c.request(ctx, op, env)
	if err != nil {
		return nil, err
	}
	res, err := c.httpClient().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, messages.Unavailable("the call was cancelled")
		}
		return nil, messages.Unavailable("pmx-canvas server at %s: %v", c.Base, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, messages.Unavailable("pmx-canvas server at %s: %v", c.Base, err)
	}
	if code := res.Header.Get(headerError); code != "" || (res.StatusCode >= 400 && !json.Valid(body)) {
		return nil, decodeError(res.StatusCode, code, body)
	}
	reply := &messages.Reply{Status: res.StatusCode, Body: json.RawMessage(body)}
	if ct := res.Header.Get("Content-Type"); op.RepliesBytes() && !strings.HasPrefix(ct, "application/json") {
		// A binary reply (a screenshot, file bytes, a page) stays bytes.
		// Decided by the operation and the header: validating every JSON
		// body (4–8 MB layouts) would cost a full pass.
		reply.Body = &messages.Blob{ContentType: ct, Data: body, CSP: res.Header.Get("Content-Security-Policy")}
	}
	if rev, err := strconv.ParseUint(res.Header.Get(headerRevision), 10, 64); err == nil {
		reply.Revision = rev
	}
	return reply, nil
}

// request builds the HTTP request of an envelope.
func (c *Client) request(ctx context.Context, op *messages.Op, env *messages.Envelope) (*http.Request, error) {
	route := op.HTTP[0]
	fields := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(env.Input)) > 0 {
		if err := json.Unmarshal(env.Input, &fields); err != nil {
			return nil, messages.InvalidJSON("the input of %s is not a JSON object: %v", op.Name, err)
		}
	}
	// Path parameters come out of the input.
	segs := strings.Split(route.Path, "/")
	for i, s := range segs {
		if !strings.HasPrefix(s, ":") {
			continue
		}
		name := s[1:]
		var v string
		if raw, ok := fields[name]; ok {
			if json.Unmarshal(raw, &v) != nil {
				v = strings.Trim(string(raw), `"`)
			}
			delete(fields, name)
		}
		segs[i] = url.PathEscape(v)
	}
	u := strings.TrimSuffix(c.Base, "/") + strings.Join(segs, "/")
	var body io.Reader
	query := url.Values{}
	if route.Method == http.MethodGet || (route.Method == http.MethodDelete && !op.DeleteReadsBody) {
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			raw := fields[k]
			var s string
			if json.Unmarshal(raw, &s) == nil {
				query.Set(k, s)
			} else if string(raw) != "null" {
				query.Set(k, string(raw))
			}
		}
	} else {
		b, err := json.Marshal(fields)
		if err != nil {
			return nil, messages.Internal("encode %s input: %v", op.Name, err)
		}
		body = bytes.NewReader(b)
	}
	if env.Canvas != "" {
		query.Set(messages.MetaCanvas, env.Canvas)
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, route.Method, u, body)
	if err != nil {
		return nil, messages.Internal("build request for %s: %v", op.Name, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if env.Source != "" {
		req.Header.Set(headerSource, env.Source)
	}
	if env.Agent != "" {
		req.Header.Set(headerAgent, env.Agent)
	}
	if env.IdempotencyKey != "" {
		req.Header.Set(headerIdempotencyKey, env.IdempotencyKey)
	}
	if env.IfRevision != nil {
		req.Header.Set(headerIfRevision, strconv.FormatUint(*env.IfRevision, 10))
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	return req, nil
}

// decodeError turns an error reply into the *messages.Error the server
// returned: same status, code, message and extra keys.
func decodeError(status int, code string, body []byte) error {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return &messages.Error{Status: status, Code: messages.Code(code), Message: fmt.Sprintf("HTTP %d", status)}
	}
	e := &messages.Error{Status: status, Code: messages.Code(code)}
	if msg, ok := m["error"].(string); ok {
		e.Message = msg
	} else {
		e.Message = fmt.Sprintf("HTTP %d", status)
	}
	if c, ok := m["code"].(string); ok && e.Code == "" {
		e.Code = messages.Code(c)
	}
	for k, v := range m {
		if k == "ok" || k == "error" || k == "code" {
			continue
		}
		if e.Extra == nil {
			e.Extra = map[string]any{}
		}
		e.Extra[k] = v
	}
	return e
}

// ErrNotPMX is returned by Probe when the address answers but is not a
// pmx-canvas server for the workspace.
var ErrNotPMX = errors.New("not a pmx-canvas server for this workspace")
