package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// metaInvoker answers with the envelope's agent and revision guard.
type metaInvoker struct{}

func (metaInvoker) Invoke(_ context.Context, env *messages.Envelope) (*messages.Reply, error) {
	body := map[string]any{"agent": env.Agent, "ifRevision": nil}
	if env.IfRevision != nil {
		body["ifRevision"] = *env.IfRevision
	}
	return &messages.Reply{Body: body}, nil
}

// The body's agentId and ifRevision reach the envelope however the body
// spells them (a body without them skips their decoding), and a body that
// is not JSON gets the same answer either way.
func TestEnvelopeMetaFromTheBody(t *testing.T) {
	app := New(Options{Invoker: metaInvoker{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).App()
	for _, tc := range []struct {
		name, body  string
		status      int
		agent       string
		rev         any
		errContains string
	}{
		{name: "no meta", body: `{"type":"markdown","title":"t"}`, status: 200, agent: ""},
		{name: "agentId", body: `{"type":"markdown","agentId":"bob"}`, status: 200, agent: "bob"},
		{name: "agentId spelled with an escape", body: `{"type":"markdown","agent\u0049d":"eve"}`, status: 200, agent: "eve"},
		{name: "ifRevision", body: `{"type":"markdown","ifRevision":7}`, status: 200, rev: float64(7)},
		{name: "ifRevision spelled with an escape", body: `{"type":"markdown","\u0069fRevision":"8"}`, status: 200, rev: float64(8)},
		{name: "agentId of the wrong type", body: `{"type":"markdown","agentId":5}`, status: 400, errContains: `"field":"agentId"`},
		{name: "truncated, no meta keys", body: `{"type":"markdown"`, status: 400, errContains: "the request body is not valid JSON"},
		{name: "truncated, with a meta key", body: `{"agentId":"a"`, status: 400, errContains: "the request body is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "http://127.0.0.1/api/canvas/node", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			res, err := app.Test(req, -1)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, raw)
			}
			if tc.errContains != "" {
				if !strings.Contains(string(raw), tc.errContains) {
					t.Fatalf("error %s does not say %q", raw, tc.errContains)
				}
				return
			}
			var got map[string]any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got["agent"] != tc.agent || got["ifRevision"] != tc.rev {
				t.Fatalf("envelope agent %v ifRevision %v, want %q %v", got["agent"], got["ifRevision"], tc.agent, tc.rev)
			}
		})
	}
}
