package mcpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
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
