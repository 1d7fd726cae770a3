package mcpapi

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// CanvasArg is the optional argument every tool takes to pick a canvas.
const CanvasArg = "canvas"

// Caller runs tools against an Invoker.
type Caller struct {
	Registry *Registry
	Invoker  messages.Invoker
	// DefaultCanvas is the canvas used when a call names none ("main", or
	// PMX_CANVAS_ID).
	DefaultCanvas string
}

// Call runs one tool call. Failures come back as isError results, never as
// Go errors: MCP reports them in the result.
func (c *Caller) Call(ctx context.Context, name string, args Args) *Result {
	t, ok := c.Registry.Tool(name)
	if !ok {
		return &Result{IsError: true, Text: fmt.Sprintf("MCP error -32602: Tool %s not found", name)}
	}
	if args == nil {
		args = Args{}
	}
	canvas := c.DefaultCanvas
	if v, ok := args[CanvasArg]; ok {
		// A string selects the canvas. The host-capability tools have a
		// boolean field of the same name (the host can draw a canvas);
		// there a boolean is that field.
		s, isStr := v.(string)
		switch {
		case isStr:
			if s != "" {
				canvas = s
			}
			args = without(args, CanvasArg)
		case !hasField(t, CanvasArg):
			return &Result{IsError: true, Text: fmt.Sprintf(
				"MCP error -32602: Input validation error: Invalid arguments for tool %s: canvas: expected string, received %s", name, messages.JSONKind(v))}
		}
	}
	if canvas == "" {
		canvas = messages.DefaultCanvas
	}
	traceID := c.traceStart(ctx, canvas, name)
	res, err := c.run(ctx, t, canvas, args)
	if err != nil {
		res = &Result{IsError: true, Text: errorText(err)}
	}
	if traceID != "" {
		c.traceFinish(ctx, canvas, name, traceID, res)
	}
	return res
}

func (c *Caller) run(ctx context.Context, t *Tool, canvas string, args Args) (*Result, error) {
	valid, err := validate(t, args)
	if err != nil {
		return nil, err
	}
	if len(t.Actions) > 0 {
		member, margs, err := c.resolve(t, valid)
		if err != nil {
			return nil, err
		}
		// A composite advertises loose fields; a non-finite number is
		// refused as the member tool refuses it.
		if err := finiteNumbers(t.Name, member, margs); err != nil {
			return nil, err
		}
		return c.runLegacy(ctx, member, canvas, margs)
	}
	return c.runLegacy(ctx, t, canvas, valid)
}

// resolve picks a composite's member tool and maps the arguments to it.
func (c *Caller) resolve(t *Tool, args Args) (*Tool, Args, error) {
	sel := map[string]string{}
	for _, d := range t.Discriminators {
		s, _ := args[d.Name].(string)
		sel[d.Name] = s
	}
	var picked *Action
	for i := range t.Actions {
		a := &t.Actions[i]
		if a.Name == sel["action"] && a.Kind == sel["kind"] {
			picked = a
			break
		}
	}
	if picked == nil {
		if _, gate := sel["kind"]; gate {
			return nil, nil, Errorf("Invalid kind/action combination (kind %q, action %q) for %s.", sel["kind"], sel["action"], t.Name)
		}
		var names []string
		for _, a := range t.Actions {
			names = append(names, a.Name)
		}
		return nil, nil, Errorf("Unknown action %q for %s. Valid actions: %s.", sel["action"], t.Name, strings.Join(names, ", "))
	}
	member, _ := c.Registry.Tool(picked.Tool)
	out := Args{}
	var foreign []string
	for k, v := range args {
		if _, isDisc := sel[k]; isDisc {
			continue
		}
		name := k
		if to, ok := picked.Rename[k]; ok {
			name = to
		}
		if !hasField(member, name) {
			foreign = append(foreign, k)
			continue
		}
		out[name] = v
	}
	if len(foreign) > 0 {
		// Unlike the reference, which passed such fields on to be ignored,
		// a field of another action is refused: it is almost always a
		// mistake (a wrong action, or a field meant for another call).
		sort.Strings(foreign)
		what := "action " + strconv.Quote(picked.Name)
		if picked.Kind != "" {
			what = fmt.Sprintf("kind %q action %q", picked.Kind, picked.Name)
		}
		return nil, nil, Errorf("%s: %s does not take %s.", t.Name, what, quoteList(foreign))
	}
	return member, out, nil
}

func (c *Caller) runLegacy(ctx context.Context, t *Tool, canvas string, args Args) (*Result, error) {
	return t.run(&Call{Ctx: ctx, Invoker: c.Invoker, Canvas: canvas}, args)
}

// run is a legacy tool's own path: Run, or Build → Invoke → Format.
func (t *Tool) run(call *Call, args Args) (*Result, error) {
	if t.Run != nil {
		return t.Run(call, args)
	}
	input := args
	if t.Build != nil {
		var err error
		if input, err = t.Build(call, args); err != nil {
			return nil, err
		}
	}
	raw, err := call.invokeRaw(t.Op, input)
	if err != nil {
		return nil, err
	}
	if blob, ok := raw.Body.(*messages.Blob); ok && t.Format == nil {
		return blobResult(blob), nil
	}
	reply, err := replyOf(raw)
	if err != nil {
		return nil, err
	}
	format := t.Format
	if format == nil {
		format = PrettyBody
	}
	text, err := format(reply)
	if err != nil {
		return nil, err
	}
	return &Result{Text: text}, nil
}

// Invoke runs one catalog operation with input on the call's canvas and
// returns the reply as JSON.
func (c *Call) Invoke(op string, input Args) (*Reply, error) {
	reply, err := c.invokeRaw(op, input)
	if err != nil {
		return nil, err
	}
	return replyOf(reply)
}

// replyOf is an operation's reply as a tool formats it.
func replyOf(reply *messages.Reply) (*Reply, error) {
	body, err := messages.BodyJSON(reply.Body)
	if err != nil {
		return nil, err
	}
	return &Reply{Status: reply.StatusCode(), Body: body}, nil
}

// invokeRaw runs one catalog operation and returns the reply as the
// invoker gave it (a binary reply stays a *messages.Blob).
func (c *Call) invokeRaw(op string, input Args) (*messages.Reply, error) {
	if input == nil {
		input = Args{}
	}
	raw, err := jsonobj.Marshal(input)
	if err != nil {
		return nil, err
	}
	return c.Invoker.Invoke(c.Ctx, &messages.Envelope{Canvas: c.Canvas, Op: op, Source: "mcp", Input: raw})
}

// errorText is the text of a failed call: an operation's message as HTTP
// gives it, a tool's own text, or the error.
func errorText(err error) string {
	var te *ToolError
	if errors.As(err, &te) {
		return te.Text
	}
	var me *messages.Error
	if errors.As(err, &me) {
		return me.Message
	}
	return err.Error()
}

func without(a Args, key string) Args {
	out := make(Args, len(a))
	for k, v := range a {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func hasField(t *Tool, name string) bool {
	for _, f := range t.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// quoteList renders names as "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return "field " + q[0]
	}
	return "fields " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// blobResult is a binary reply as a tool result: an image as image
// content with a receipt, text as the text itself, other bytes base64.
func blobResult(b *messages.Blob) *Result {
	mt := b.ContentType
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	switch {
	case strings.HasPrefix(mt, "image/") && mt != "image/svg+xml":
		text, _ := Compact(Obj{{"ok", true}, {"mimeType", mt}, {"bytes", len(b.Data)}})
		return &Result{Text: text, Image: b.Data, ImageMime: mt}
	case utf8.Valid(b.Data):
		return &Result{Text: string(b.Data)}
	}
	text, _ := Compact(Obj{{"ok", true}, {"mimeType", mt}, {"bytes", len(b.Data)}, {"base64", base64.StdEncoding.EncodeToString(b.Data)}})
	return &Result{Text: text}
}
