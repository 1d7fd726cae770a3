package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// echoInvoker answers every envelope with its decoded input.
type echoInvoker struct{}

func (echoInvoker) Invoke(_ context.Context, env *messages.Envelope) (*messages.Reply, error) {
	return &messages.Reply{Body: env.Args}, nil
}

// Whatever path, query and body a client sends, the surface answers with a
// JSON status below 500: it never panics and never passes undecodable input
// on to the actors.
func FuzzEnvelope(f *testing.F) {
	f.Add("POST", "/api/canvas/node", "type=markdown&x=1", `{"title":"t"}`)
	f.Add("PATCH", "/api/canvas/node/a%2Fb", "ifRevision=x", `{"x":"1"}`)
	f.Add("DELETE", "/api/canvas/edge", "id=e", `{"edge_id":1}`)
	f.Add("GET", "/api/canvas/state", "includeBlobs=maybe&canvas=..", ``)
	f.Add("POST", "/api/canvas/edge", "", `[`)
	app := New(Options{Invoker: echoInvoker{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).App()
	f.Fuzz(func(t *testing.T, method, path, query, body string) {
		switch method {
		case "GET", "POST", "PATCH", "DELETE":
		default:
			return
		}
		u, err := url.Parse("http://127.0.0.1" + path)
		if err != nil || !strings.HasPrefix(path, "/") {
			return
		}
		u.RawQuery = query
		req := httptest.NewRequest(method, "http://127.0.0.1/", strings.NewReader(body))
		req.URL = u
		req.RequestURI = u.RequestURI()
		res, err := app.Test(req, -1)
		if err != nil {
			return // the request itself could not be written
		}
		if res.StatusCode >= 500 {
			raw, _ := io.ReadAll(res.Body)
			t.Fatalf("%s %s?%s %q: %d %s", method, path, query, body, res.StatusCode, raw)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("content type %q", ct)
		}
	})
}
