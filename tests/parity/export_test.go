package parity

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// canvas.export format=svg gives the same bytes over HTTP, MCP, the CLI
// and the Go package, and the same refusal for a bad region.
func TestExportSVGOnEverySurface(t *testing.T) {
	srv := startServer(t)
	ctx := context.Background()
	c := srv.Canvas()
	var ids []string
	for _, title := range []string{"A", "B <&>"} {
		n, err := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: title})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	if _, err := c.EdgeAdd(ctx, &messages.EdgeAddInput{From: &ids[0], To: &ids[1], Type: "flow"}); err != nil {
		t.Fatal(err)
	}
	base := "http://" + srv.Addr().String()
	nodes := ids[0] + "," + ids[1]

	blob, err := c.CanvasExport(ctx, &messages.ExportInput{Format: pmxcanvas.Ptr("svg"), Nodes: &nodes, Theme: pmxcanvas.Ptr("light")})
	if err != nil || blob.ContentType != "image/svg+xml" || !bytes.Contains(blob.Data, []byte("B &lt;&amp;&gt;")) {
		t.Fatalf("Go package: %v %v", blob, err)
	}
	want := blob.Data

	res, err := http.Get(base + "/api/canvas/export?format=svg&theme=light&nodes=" + nodes)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || !bytes.Equal(body, want) {
		t.Fatalf("HTTP %d %s differs from the Go package's", res.StatusCode, res.Header.Get("Content-Type"))
	}

	reg, _ := mcpapi.NewRegistry()
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}
	if r := caller.Call(ctx, "canvas_export", mcpapi.Args{"format": "svg", "nodes": nodes, "theme": "light"}); r.IsError || r.Text != string(want) {
		t.Fatalf("MCP differs: %v %.200s", r.IsError, r.Text)
	}

	var out, errOut bytes.Buffer
	code := cli.Execute([]string{"export", "--server-url", base, "--format", "svg", "--nodes", nodes, "--theme", "light"}, &out, &errOut)
	if code != 0 || !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("CLI exit %d %s differs", code, errOut.String())
	}

	// One refusal everywhere.
	const bad = `invalid input for canvas.export: field "region" must be x,y,w,h (four numbers), got "1,2"`
	if _, err := c.CanvasExport(ctx, &messages.ExportInput{Format: pmxcanvas.Ptr("svg"), Region: pmxcanvas.Ptr("1,2")}); err == nil || err.Error() != bad {
		t.Fatalf("Go package bad region: %v", err)
	}
	if r := caller.Call(ctx, "canvas_export", mcpapi.Args{"format": "svg", "region": "1,2"}); !r.IsError || r.Text != bad {
		t.Fatalf("MCP bad region: %+v", r)
	}
	out.Reset()
	errOut.Reset()
	if code := cli.Execute([]string{"export", "--server-url", base, "--format", "svg", "--region", "1,2"}, &out, &errOut); code == 0 ||
		!strings.Contains(errOut.String(), `field \"region\" must be x,y,w,h`) {
		t.Fatalf("CLI bad region: exit %d %s", code, errOut.String())
	}
}
