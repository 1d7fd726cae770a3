package remote

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// captured is what the fake server saw.
type captured struct {
	method, path, query, body string
	header                    http.Header
}

func fakeServer(t *testing.T, status int, header map[string]string, body string) (*Client, *captured) {
	t.Helper()
	got := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = captured{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b), r.Header.Clone()}
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return &Client{Base: srv.URL, Token: "tok"}, got
}

func TestRequestsFollowTheCatalogRoute(t *testing.T) {
	cases := []struct {
		op, input                 string
		method, path, query, body string
	}{
		{"node.update", `{"id":"a/b","title":"t","x":5}`, "PATCH", "/api/canvas/node/a%2Fb", "canvas=other", `{"title":"t","x":5}`},
		{"search", `{"q":"auth","limit":3}`, "GET", "/api/canvas/search", "canvas=other&limit=3&q=auth", ""},
		{"ax.approval.get", `{"id":"appr-1","timeoutMs":1000}`, "GET", "/api/canvas/ax/approval/appr-1", "canvas=other&timeoutMs=1000", ""},
		{"edge.remove", `{"edge_id":"e1"}`, "DELETE", "/api/canvas/edge", "canvas=other", `{"edge_id":"e1"}`},
		{"layout.get", `{"includeBlobs":true,"view":"agent"}`, "GET", "/api/canvas/state", "canvas=other&includeBlobs=true&view=agent", ""},
	}
	for _, c := range cases {
		cl, got := fakeServer(t, 200, map[string]string{"X-PMX-Revision": "7"}, `{"ok":true}`)
		reply, err := cl.Invoke(context.Background(), &messages.Envelope{Canvas: "other", Op: c.op, Source: "mcp", Agent: "bot", Input: json.RawMessage(c.input)})
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if got.method != c.method || got.path != c.path || got.query != c.query || got.body != c.body {
			t.Fatalf("%s: sent %s %s?%s %s", c.op, got.method, got.path, got.query, got.body)
		}
		if got.header.Get("X-PMX-Source") != "mcp" || got.header.Get("X-PMX-Agent") != "bot" || got.header.Get("Authorization") != "Bearer tok" {
			t.Fatalf("%s: headers %v", c.op, got.header)
		}
		if reply.Revision != 7 || string(reply.Body.(json.RawMessage)) != `{"ok":true}` {
			t.Fatalf("%s: reply %+v", c.op, reply)
		}
	}
}

// A binary reply (a screenshot) comes back as bytes with its type.
func TestBinaryReply(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00"
	cl, got := fakeServer(t, 200, map[string]string{"Content-Type": "image/png"}, png)
	reply, err := cl.Invoke(context.Background(), &messages.Envelope{Op: "webview.screenshot", Input: json.RawMessage(`{"format":"png"}`)})
	if err != nil {
		t.Fatal(err)
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok || blob.ContentType != "image/png" || string(blob.Data) != png {
		t.Fatalf("reply %#v", reply.Body)
	}
	if got.method != "POST" || got.path != "/api/workbench/webview/screenshot" || got.body != `{"format":"png"}` {
		t.Fatalf("sent %s %s %s", got.method, got.path, got.body)
	}
}

func TestErrorsAndOkFalseReplies(t *testing.T) {
	// An error reply (marked by the server) comes back as the same error.
	cl, _ := fakeServer(t, 403, map[string]string{"X-PMX-Error": "approval-required"},
		`{"ok":false,"error":"needs approval","code":"approval-required","approvalGate":{"id":"appr-1"}}`)
	_, err := cl.Invoke(context.Background(), &messages.Envelope{Op: "ax.command.invoke", Input: json.RawMessage(`{"name":"pmx.plan"}`)})
	var e *messages.Error
	if !errors.As(err, &e) || e.Status != 403 || e.Code != messages.CodeApprovalRequired || e.Message != "needs approval" || e.Extra["approvalGate"] == nil {
		t.Fatalf("error: %#v", err)
	}
	// A reply whose body says ok:false (a gate read's 404) is a reply.
	cl, _ = fakeServer(t, 404, nil, `{"ok":false,"approvalGate":null,"pending":false}`)
	reply, err := cl.Invoke(context.Background(), &messages.Envelope{Op: "ax.approval.get", Input: json.RawMessage(`{"id":"x"}`)})
	if err != nil || reply.StatusCode() != 404 {
		t.Fatalf("ok:false reply: %v %+v", err, reply)
	}
	// A server that is not there is unavailable.
	cl = &Client{Base: "http://127.0.0.1:1"}
	if _, err := cl.Invoke(context.Background(), &messages.Envelope{Op: "layout.get"}); !errors.As(err, &e) || e.Code != messages.CodeUnavailable {
		t.Fatalf("no server: %v", err)
	}
}
