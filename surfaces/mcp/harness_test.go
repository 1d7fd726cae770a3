package mcpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// harness runs tools in process against a fresh canvas server (no HTTP).
type harness struct {
	t      *testing.T
	srv    *pmxcanvas.Server
	caller *mcpapi.Caller
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	srv, err := pmxcanvas.Start(pmxcanvas.Options{Workspace: t.TempDir(), NoHTTP: true, SeedDockedWidgets: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, srv: srv, caller: &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}}
}

// call runs a tool with JSON arguments.
func (h *harness) call(tool, args string) *mcpapi.Result {
	h.t.Helper()
	var a mcpapi.Args
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		h.t.Fatalf("bad test arguments %s: %v", args, err)
	}
	return h.caller.Call(context.Background(), tool, a)
}

// ok runs a tool, fails on isError, and decodes the text as JSON.
func (h *harness) ok(tool, args string) map[string]any {
	h.t.Helper()
	r := h.call(tool, args)
	if r.IsError {
		h.t.Fatalf("%s %s: isError %s", tool, args, r.Text)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(r.Text), &out); err != nil {
		h.t.Fatalf("%s: text is not a JSON object: %s", tool, r.Text)
	}
	return out
}

// fails runs a tool and asserts an isError result with exactly text.
func (h *harness) fails(tool, args, text string) {
	h.t.Helper()
	r := h.call(tool, args)
	if !r.IsError || r.Text != text {
		h.t.Fatalf("%s %s: got isError=%v %q, want isError %q", tool, args, r.IsError, r.Text, text)
	}
}

// httpError runs an operation directly (as the HTTP route does) and returns
// its error message; the test fails if it succeeds. Tools must refuse the
// same input with the same text.
func (h *harness) httpError(op, input string) string {
	h.t.Helper()
	_, err := h.srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: op, Source: "api", Input: json.RawMessage(input)})
	var me *messages.Error
	if !errors.As(err, &me) {
		h.t.Fatalf("%s %s: got %v, want an operation error", op, input, err)
	}
	return me.Message
}

// sameAsOp runs a tool and the operation behind it (for a composite, the
// selected action's) with the same arguments, as HTTP would: both succeed,
// or both fail with the same text.
func (h *harness) sameAsOp(tool, args string) {
	h.t.Helper()
	t, ok := h.caller.Registry.Tool(tool)
	if !ok {
		h.t.Fatalf("no tool %s", tool)
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		h.t.Fatal(err)
	}
	if len(t.Actions) > 0 {
		member := ""
		for _, act := range t.Actions {
			if act.Name == a["action"] && (act.Kind == "" || act.Kind == a["kind"]) {
				for _, d := range t.Discriminators {
					delete(a, d.Name)
				}
				for from, to := range act.Rename {
					if v, ok := a[from]; ok {
						delete(a, from)
						a[to] = v
					}
				}
				member = act.Tool
				break
			}
		}
		if member == "" {
			// No action selected: the composite's own (protocol) error.
			if r := h.call(tool, args); !r.IsError || !strings.HasPrefix(r.Text, "MCP error -32602") {
				h.t.Fatalf("%s %s: %+v, want an input validation error", tool, args, r)
			}
			return
		}
		t, _ = h.caller.Registry.Tool(member)
	}
	input, _ := json.Marshal(a)
	_, opErr := h.srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: t.Op, Source: "mcp", Input: input})
	r := h.call(tool, args)
	var me *messages.Error
	switch {
	case errors.As(opErr, &me):
		if !r.IsError || r.Text != me.Message {
			h.t.Fatalf("%s %s: got isError=%v %q, want the operation's error %q", tool, args, r.IsError, r.Text, me.Message)
		}
	case opErr != nil:
		h.t.Fatalf("%s: %v", t.Op, opErr)
	case r.IsError:
		h.t.Fatalf("%s %s: isError %q, but %s accepts it", tool, args, r.Text, t.Op)
	}
}
