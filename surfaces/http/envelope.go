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
	fields := map[string]json.RawMessage{}
	var qerr *messages.Error
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		key := string(k)
		if qerr != nil || queryOnlyKeys[key] {
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

	readsBody := c.Method() != fiber.MethodGet && (c.Method() != fiber.MethodDelete || op.DeleteReadsBody)
	if body := bytes.TrimSpace(c.Body()); readsBody && len(body) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(body, &obj); err != nil {
			if body[0] != '{' {
				return nil, messages.InvalidJSON("the request body must be a JSON object")
			}
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

	env := &messages.Envelope{Op: op.Name, Source: "api"}
	env.Canvas = c.Query(messages.MetaCanvas)
	delete(fields, messages.MetaCanvas)
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
	if raw, ok := fields[messages.MetaAgentID]; ok {
		var agent string
		if json.Unmarshal(raw, &agent) != nil {
			return nil, messages.InvalidInput("field %q must be a string", messages.MetaAgentID).With("field", messages.MetaAgentID)
		}
		if env.Agent == "" {
			env.Agent = agent
		}
		delete(fields, messages.MetaAgentID)
	}

	revText := c.Get(HeaderIfRevision)
	if raw, ok := fields[messages.MetaIfRevision]; ok {
		revText = strings.Trim(string(raw), `"`)
		delete(fields, messages.MetaIfRevision)
	}
	if revText != "" {
		rev, err := strconv.ParseUint(revText, 10, 64)
		if err != nil {
			return nil, messages.InvalidInput("ifRevision must be a non-negative integer, got %s", revText).With("field", messages.MetaIfRevision)
		}
		env.IfRevision = &rev
	}

	if key := c.Get(HeaderIdempotencyKey); key != "" {
		if len(key) > maxIdempotencyKeyLen {
			return nil, messages.InvalidInput("Idempotency-Key is longer than %d characters", maxIdempotencyKeyLen)
		}
		env.IdempotencyKey = key
	}

	input, err := json.Marshal(fields)
	if err != nil {
		return nil, messages.Internal("encode input: %v", err)
	}
	env.Input = input
	args, derr := op.DecodeInput(input)
	if derr != nil {
		return nil, derr
	}
	env.Args = args
	return env, nil
}

func mustString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
