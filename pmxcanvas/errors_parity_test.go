package pmxcanvas

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// overHTTP is a view of c whose calls travel over c's HTTP surface
// (surfaces/remote builds each request from the operation's route and
// turns the error body back into a *messages.Error), so the same Go call
// can be made in process and over HTTP.
func overHTTP(c *Canvas) *Canvas {
	v := *c
	v.h = &handle{srv: c.h.srv, inv: &remote.Client{Base: c.URL()}, streamer: c.h.streamer}
	return &v
}

// viaGo runs an operation through its generated method, found by name, as
// a Go caller would.
func viaGo(c *Canvas, op *messages.Op, in any) error {
	m := reflect.ValueOf(c).MethodByName(op.GoName())
	out := m.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.ValueOf(in)})
	err, _ := out[1].Interface().(error)
	return err
}

// sameError checks two failures are the same *messages.Error: status,
// code, message and extra keys.
func sameError(t *testing.T, what string, inProcess, overHTTP error) {
	t.Helper()
	var a, b *messages.Error
	if !errors.As(inProcess, &a) || !errors.As(overHTTP, &b) {
		t.Fatalf("%s: in process %v (%T), over HTTP %v (%T); want two *messages.Error", what, inProcess, inProcess, overHTTP, overHTTP)
	}
	if a.Status < 400 || a.Status != b.Status || a.Code != b.Code || a.Message != b.Message || !reflect.DeepEqual(a.Extra, b.Extra) {
		t.Errorf("%s:\n  in process %d %s %q %v\n  over HTTP  %d %s %q %v", what, a.Status, a.Code, a.Message, a.Extra, b.Status, b.Code, b.Message, b.Extra)
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
	web := overHTTP(c)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "a"}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "b"}))
	gate := must[*ApprovalGate](t)(c.RequestApproval(bg, ApprovalInput{Title: "ship?"}))

	cases := []struct {
		op string
		in any
	}{
		{"node.add", &messages.NodeAddInput{Type: "video"}},                                          // unknown enum value
		{"node.add", &messages.NodeAddInput{Type: "html", HTMLFields: messages.HTMLFields{HTML: 5}}}, // wrong type, the handler's text
		{"node.add", &messages.NodeAddInput{}},                                                       // missing required, the handler's text
		{"node.update", &messages.NodeUpdateInput{ID: "ghost", Title: Ptr("x")}},                     // not found
		{"edge.add", &messages.EdgeAddInput{Type: "flow", From: &a.ID, To: &b.ID, Style: Ptr("wavy")}},
		{"search", &messages.SearchInput{Q: "a", Limit: Ptr(0)}},            // out of range, over the query string
		{"webview.resize", &messages.WebviewResizeInput{Height: Ptr(10.0)}}, // missing required, the decoder's text
		{"ax.evidence.add", &messages.AxEvidenceInput{Kind: Ptr("video"), Title: Ptr("t")}},
		{"ax.event.record", &messages.AxEventInput{Kind: Ptr("bogus"), Summary: Ptr("s")}},
		{"ax.approval.resolve", &messages.AxResolveInput{ID: gate.ID, Decision: Ptr("maybe")}},
		{"ax.command.invoke", &messages.AxCommandInput{Name: 5}},
		{"pin.set", &messages.PinSetInput{NodeIDs: []string{"ghost"}}},
		{"snapshot.restore", &messages.SnapshotRefInput{ID: "nope"}},
	}
	for _, tc := range cases {
		op, ok := messages.Lookup(tc.op)
		if !ok {
			t.Fatalf("no operation %s", tc.op)
		}
		raw, _ := messages.EncodeInput(tc.in)
		sameError(t, tc.op+" "+string(raw), viaGo(c, op, tc.in), viaGo(web, op, tc.in))
	}

	// A shortcut's extras meet the same decoder before the call: a wrong
	// JSON type is refused naming the field, as the server refuses it.
	_, local := c.AddNode(bg, NodeInput{Type: "markdown", Extra: map[string]any{"x": "10"}})
	_, remote := web.h.inv.Invoke(bg, &messages.Envelope{Op: "node.add", Input: json.RawMessage(`{"type":"markdown","x":"10"}`)})
	sameError(t, `node.add extra x:"10"`, local, callError(bg, remote))
	if e := wantErr(t, local, 400, messages.CodeInvalidInput, `field "x" must be a number`); e.Extra["field"] != "x" {
		t.Errorf("the error names field %v, want x", e.Extra["field"])
	}
}
