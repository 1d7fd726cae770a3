package pmxcanvas

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// overHTTP sends an operation's input the way an HTTP client does: path
// parameters in the path, the rest as the query (GET) or the JSON body.
// It returns the status and the decoded body.
func overHTTP(t *testing.T, base string, op *messages.Op, in any) (int, map[string]any) {
	t.Helper()
	raw, err := messages.EncodeInput(in)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	route := op.HTTP[0]
	path := route.Path
	for key, v := range fields {
		if strings.Contains(path, "/:"+key) {
			path = strings.Replace(path, ":"+key, url.PathEscape(fmt.Sprint(v)), 1)
			delete(fields, key)
		}
	}
	var body io.Reader
	if route.Method == http.MethodGet {
		q := url.Values{}
		for k, v := range fields {
			if s, ok := v.(string); ok {
				q.Set(k, s)
			} else {
				b, _ := json.Marshal(v)
				q.Set(k, string(b))
			}
		}
		path += "?" + q.Encode()
	} else {
		b, _ := json.Marshal(fields)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(route.Method, base+path, body)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: %v", route.Method, path, err)
	}
	return res.StatusCode, out
}

// viaGo runs an operation through its generated method, found by name, as
// a Go caller would.
func viaGo(c *Canvas, op *messages.Op, in any) error {
	m := reflect.ValueOf(c).MethodByName(op.GoName())
	out := m.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.ValueOf(in)})
	err, _ := out[1].Interface().(error)
	return err
}

// sameError checks the Go error is the *messages.Error the HTTP reply
// renders: the same status, code, message and extra keys.
func sameError(t *testing.T, what string, err error, status int, body map[string]any) {
	t.Helper()
	var e *messages.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: Go gave %v (%T), HTTP %d %v", what, err, err, status, body)
	}
	extra := map[string]any{}
	for k, v := range body {
		if k != "ok" && k != "error" && k != "code" {
			extra[k] = v
		}
	}
	goExtra := e.Extra
	if goExtra == nil {
		goExtra = map[string]any{}
	}
	if status < 400 || e.Status != status || string(e.Code) != body["code"] || e.Message != body["error"] || !reflect.DeepEqual(goExtra, extra) {
		t.Errorf("%s:\n  Go   %d %s %q %v\n  HTTP %d %v %q %v", what, e.Status, e.Code, e.Message, goExtra, status, body["code"], body["error"], extra)
	}
}

// A bad input through the Go package fails exactly as over HTTP: both
// run the operation's decoder and handler on the same JSON.
func TestGoPackageErrorsMatchHTTP(t *testing.T) {
	c, err := Open(bg, Options{Workspace: t.TempDir(), Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(bg) })
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "a"}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "b"}))
	gate := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "ship?"}))

	cases := []struct {
		op string
		in any
	}{
		{"node.add", &messages.NodeAddInput{Type: "video"}},                                          // unknown enum value
		{"node.add", &messages.NodeAddInput{Type: "html", HTMLFields: messages.HTMLFields{HTML: 5}}}, // wrong type (handler)
		{"node.add", &messages.NodeAddInput{}},                                                       // missing required (handler)
		{"node.update", &messages.NodeUpdateInput{ID: "ghost", Title: Ptr("x")}},                     // not found
		{"edge.add", &messages.EdgeAddInput{Type: "flow", From: &a.ID, To: &b.ID, Style: Ptr("wavy")}},
		{"search", &messages.SearchInput{Q: "a", Limit: Ptr(0)}},            // out of range, over the query
		{"webview.resize", &messages.WebviewResizeInput{Height: Ptr(10.0)}}, // missing required (decoder)
		{"ax.evidence.add", &messages.AxEvidenceInput{Kind: Ptr("video"), Title: Ptr("t")}},
		{"ax.event.record", &messages.AxEventInput{Kind: Ptr("bogus"), Summary: Ptr("s")}},
		{"ax.approval.resolve", &messages.AxResolveInput{ID: gate.ID, Decision: Ptr("maybe")}},
		{"ax.command.invoke", &messages.AxCommandInput{Name: 5}},
		{"pin.set", &messages.PinSetInput{NodeIDs: []string{"ghost"}}},
	}
	for _, tc := range cases {
		op, ok := messages.Lookup(tc.op)
		if !ok {
			t.Fatalf("no operation %s", tc.op)
		}
		raw, _ := messages.EncodeInput(tc.in)
		what := tc.op + " " + string(raw)
		status, body := overHTTP(t, c.URL(), op, tc.in)
		sameError(t, what, viaGo(c, op, tc.in), status, body)
	}

	// A shortcut's extras run through the same decoder: a wrong JSON type
	// is refused naming the field, as over HTTP.
	_, err = c.AddNode(bg, NodeInput{Type: "markdown", Extra: map[string]any{"x": "10"}})
	op, _ := messages.Lookup("node.add")
	status, body := overHTTP(t, c.URL(), op, map[string]any{"type": "markdown", "x": "10"})
	sameError(t, "node.add extra x:\"10\"", err, status, body)
	if body["field"] != "x" {
		t.Errorf("the error names field %v, want x", body["field"])
	}
}
