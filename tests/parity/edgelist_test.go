package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// edge.list was added from three places (catalog entry, input/output types,
// handler); this test proves it is reachable, with one answer, over HTTP,
// MCP, the CLI and the Go package, on good input and bad.
func TestEdgeListOnEverySurface(t *testing.T) {
	srv := startServer(t)
	ctx := context.Background()
	c := srv.Canvas()
	var ids []string
	for _, title := range []string{"A", "B", "C"} {
		n, err := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: title})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	for _, e := range [][3]string{{ids[0], ids[1], "flow"}, {ids[1], ids[2], "depends-on"}} {
		if _, err := c.EdgeAdd(ctx, &messages.EdgeAddInput{From: &e[0], To: &e[1], Type: e[2]}); err != nil {
			t.Fatal(err)
		}
	}
	base := "http://" + srv.Addr().String()

	// Go package.
	goAll, err := c.EdgeList(ctx, nil)
	if err != nil || len(goAll) != 2 {
		t.Fatalf("Go package: %v %v", goAll, err)
	}
	typ := "depends-on"
	goDeps, _ := c.EdgeList(ctx, &messages.EdgeListInput{NodeID: &ids[1], Type: &typ})
	if len(goDeps) != 1 || goDeps[0].To != ids[2] {
		t.Fatalf("Go package filtered: %+v", goDeps)
	}
	want, _ := json.Marshal(goDeps)

	// HTTP.
	res, err := http.Get(base + "/api/canvas/edges?nodeId=" + ids[1] + "&type=depends-on")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || compact(t, body) != string(want) {
		t.Fatalf("HTTP %d %s, want %s", res.StatusCode, body, want)
	}

	// MCP.
	reg, _ := mcpapi.NewRegistry()
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}
	r := caller.Call(ctx, "canvas_list_edges", mcpapi.Args{"nodeId": ids[1], "type": "depends-on"})
	if r.IsError || compact(t, []byte(r.Text)) != string(want) {
		t.Fatalf("MCP: %+v, want %s", r, want)
	}

	// CLI.
	var out, errOut bytes.Buffer
	code := cli.Execute([]string{"edge", "list", "--server-url", base, "--node-id", ids[1], "--type", "depends-on"}, &out, &errOut)
	if code != 0 || compact(t, out.Bytes()) != string(want) {
		t.Fatalf("CLI exit %d %s %s, want %s", code, out.String(), errOut.String(), want)
	}

	// Bad input: one text everywhere.
	const bad = `Invalid edge type: "wavy".`
	wavy := "wavy"
	if _, err := c.EdgeList(ctx, &messages.EdgeListInput{Type: &wavy}); err == nil || err.Error() != bad {
		t.Fatalf("Go package bad type: %v", err)
	}
	if r := caller.Call(ctx, "canvas_list_edges", mcpapi.Args{"type": "wavy"}); !r.IsError || r.Text != bad {
		t.Fatalf("MCP bad type: %+v", r)
	}
	out.Reset()
	errOut.Reset()
	if code := cli.Execute([]string{"edge", "list", "--server-url", base, "--type", "wavy"}, &out, &errOut); code == 0 || !bytes.Contains(errOut.Bytes(), []byte(`Invalid edge type: \"wavy\".`)) {
		t.Fatalf("CLI bad type: exit %d %s", code, errOut.String())
	}
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	return buf.String()
}
