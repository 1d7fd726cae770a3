package httpapi

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Request headers beyond the reference's contract.
const (
	HeaderCanvas         = "X-PMX-Canvas"
	HeaderAgent          = "X-PMX-Agent"
	HeaderIfRevision     = "X-PMX-If-Revision"
	HeaderIdempotencyKey = "Idempotency-Key"
	// HeaderSource names the calling surface's AX source label ("mcp",
	// "cli", ...) when a surface forwards its calls over HTTP; AX records
	// fall back to it instead of "api".
	HeaderSource = "X-PMX-Source"
	// HeaderError marks an error reply with its code.
	HeaderError          = "X-PMX-Error"
	maxIdempotencyKeyLen = 255
)

// queryOnlyKeys are query parameters that belong to the transport, not to
// any operation's input.
var queryOnlyKeys = map[string]bool{"token": true}

// envelope builds the operation envelope of a request. The input is query
// parameters, overlaid by the JSON body, overlaid by path parameters (the
// reference's precedence). GET and DELETE ignore the body unless the
// operation says otherwise.
func (s *Server) envelope(c *fiber.Ctx, op *messages.Op) (*messages.Envelope, *messages.Error) {
	env := &messages.Envelope{Op: op.Name, Source: "api"}
	env.Canvas = c.Query(messages.MetaCanvas)
	if env.Canvas == "" {
		env.Canvas = c.Get(HeaderCanvas)
	}
	if env.Canvas == "" {
		env.Canvas = messages.DefaultCanvas
	}
	if err := messages.ValidateCanvasID(env.Canvas); err != nil {
		return nil, err
	}
	env.Agent = c.Get(HeaderAgent)
	if src := c.Get(HeaderSource); src != "" {
		env.Source = src // AX handlers accept it only if it is a known label
	}
	if key := c.Get(HeaderIdempotencyKey); key != "" {
		if len(key) > maxIdempotencyKeyLen {
			return nil, messages.InvalidInput("Idempotency-Key is longer than %d characters", maxIdempotencyKeyLen)
		}
		env.IdempotencyKey = key
	}

	readsBody := c.Method() != fiber.MethodGet && (c.Method() != fiber.MethodDelete || op.DeleteReadsBody)
	var body []byte
	if readsBody {
		body = bytes.TrimSpace(c.Body())
		if len(body) > 0 && body[0] == '[' && op.BodyArrayField != "" {
			wrapped, err := json.Marshal(map[string]json.RawMessage{op.BodyArrayField: body})
			if err != nil {
				return nil, messages.InvalidJSON("the request body is not valid JSON: %v", err)
			}
			body = wrapped
		}
		if len(body) > 0 && body[0] != '{' {
			return nil, messages.InvalidJSON("the request body must be a JSON object")
		}
	}

	var input json.RawMessage
	var meta struct {
		AgentID    json.RawMessage `json:"agentId"`
		IfRevision json.RawMessage `json:"ifRevision"`
	}
	if hasInputQuery(c) || len(c.Route().Params) > 0 {
		fields, err := mergeFields(c, op, body)
		if err != nil {
			return nil, err
		}
		meta.AgentID, meta.IfRevision = fields[messages.MetaAgentID], fields[messages.MetaIfRevision]
		delete(fields, messages.MetaAgentID)
		delete(fields, messages.MetaIfRevision)
		if input, err = marshalFields(fields); err != nil {
			return nil, err
		}
	} else {
		// Fast path: the body is the whole input.
		input = body
		switch {
		case len(input) == 0:
			input = json.RawMessage("{}")
		case !mayCarryMeta(body) && json.Valid(body):
			// No agentId or ifRevision key in it: nothing to decode here
			// (the input decoder reads the body once, below).
		default:
			if err := json.Unmarshal(body, &meta); err != nil {
				if _, isType := err.(*json.UnmarshalTypeError); !isType {
					return nil, messages.InvalidJSON("the request body is not valid JSON: %v", err)
				}
			}
		}
	}

	if len(meta.AgentID) > 0 {
		var agent string
		if json.Unmarshal(meta.AgentID, &agent) != nil {
			return nil, messages.InvalidInput("field %q must be a string", messages.MetaAgentID).With("field", messages.MetaAgentID)
		}
		if env.Agent == "" {
			env.Agent = agent
		}
	}
	revText := c.Get(HeaderIfRevision)
	if len(meta.IfRevision) > 0 {
		revText = strings.Trim(string(meta.IfRevision), `"`)
	}
	if revText != "" {
		rev, err := strconv.ParseUint(revText, 10, 64)
		if err != nil {
			return nil, messages.InvalidInput("ifRevision must be a non-negative integer, got %s", revText).With("field", messages.MetaIfRevision)
		}
		env.IfRevision = &rev
	}

	env.Input = input
	args, derr := op.DecodeInput(input)
	if derr != nil {
		return nil, derr
	}
	env.Args = args
	return env, nil
}

// mayCarryMeta reports whether a JSON body can hold the transport's meta
// keys (agentId, ifRevision): it names one, or it has a \u escape, the only
// way a key can spell those letters otherwise.
func mayCarryMeta(body []byte) bool {
	return bytes.Contains(body, []byte(messages.MetaAgentID)) || bytes.Contains(body, []byte(messages.MetaIfRevision)) ||
		bytes.Contains(body, []byte(`\u`))
}

// hasInputQuery reports whether the query string carries operation input
// (anything but the transport's canvas and token parameters).
func hasInputQuery(c *fiber.Ctx) bool {
	found := false
	c.Context().QueryArgs().VisitAll(func(k, _ []byte) {
		key := string(k)
		if key != messages.MetaCanvas && !queryOnlyKeys[key] {
			found = true
		}
	})
	return found
}

// mergeFields builds the input from query parameters, overlaid by the JSON
// body, overlaid by path parameters (the reference's precedence).
func mergeFields(c *fiber.Ctx, op *messages.Op, body []byte) (map[string]json.RawMessage, *messages.Error) {
	fields := map[string]json.RawMessage{}
	var qerr *messages.Error
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		key := string(k)
		if qerr != nil || queryOnlyKeys[key] || key == messages.MetaCanvas {
			return
		}
		raw, err := op.QueryValue(key, string(v))
		if err != nil {
			qerr = err
			return
		}
		fields[key] = raw
	})
	if qerr != nil {
		return nil, qerr
	}
	if len(body) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(body, &obj); err != nil {
			return nil, messages.InvalidJSON("the request body is not valid JSON: %v", err)
		}
		for k, v := range obj {
			fields[k] = v
		}
	}
	for _, name := range c.Route().Params {
		raw := c.Params(name)
		val, err := url.PathUnescape(raw)
		if err != nil {
			return nil, messages.BadRequest("path parameter %q is not valid percent-encoding: %q", name, raw)
		}
		fields[name] = mustString(val)
	}
	return fields, nil
}

func marshalFields(fields map[string]json.RawMessage) (json.RawMessage, *messages.Error) {
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, messages.Internal("encode input: %v", err)
	}
	return b, nil
}

func mustString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
