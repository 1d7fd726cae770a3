package content_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// exportBoard builds a small board over HTTP: two cards in a coloured
// group, a status card, a hostile title, labelled edges.
func exportBoard(s *server) (a, b, grp, evil string) {
	a = nodeID(s.t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": "Plan", "content": "# Ship it\n- [ ] green",
		"x": 0, "y": 0, "width": 400, "height": 240}))
	b = nodeID(s.t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": "Tests", "content": "all green",
		"x": 500, "y": 0, "width": 300, "height": 200}))
	grp = nodeID(s.t, s.ok("POST", "/api/canvas/group", map[string]any{"title": "Release", "childIds": []string{a, b}, "color": "#ef4444"}))
	evil = nodeID(s.t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "title": `</text><script>alert(1)</script>`,
		"content": `"><foreignObject><body onload=alert(1)>`, "x": 0, "y": 900, "width": 300, "height": 200}))
	s.ok("POST", "/api/canvas/edge", map[string]any{"from": a, "to": b, "type": "flow", "label": "then"})
	s.ok("POST", "/api/canvas/edge", map[string]any{"from": b, "to": evil, "type": "references", "label": `<i>&</i>`})
	return a, b, grp, evil
}

// wellFormed parses an SVG with encoding/xml and returns its element names.
func wellFormed(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	seen := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return seen
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, svg)
		}
		if el, ok := tok.(xml.StartElement); ok {
			seen[el.Name.Local]++
			for _, a := range el.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") || a.Name.Local == "href" {
					t.Fatalf("attribute %s on <%s>", a.Name.Local, el.Name.Local)
				}
			}
		}
	}
}

func TestExportSVGOverHTTP(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	a, b, grp, evil := exportBoard(s)

	code, _, svg, hdr := s.do("GET", "/api/canvas/export?format=svg", nil)
	if code != 200 || hdr.Get("Content-Type") != "image/svg+xml" || !strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'none'") ||
		hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("svg export: %d %v", code, hdr)
	}
	els := wellFormed(t, svg)
	if els["script"] != 0 || els["foreignObject"] != 0 || els["svg"] != 1 {
		t.Fatalf("elements: %v", els)
	}
	doc := string(svg)
	for _, want := range []string{
		`data-id="` + a + `"`, `data-id="` + b + `"`, `data-id="` + evil + `"`, `class="group" data-id="` + grp + `"`,
		`stroke="#ef4444"`, `>Plan</text>`, `>Ship it</text>`, `☐ green`, `>then</text>`, `&lt;i&gt;&amp;&lt;/i&gt;`,
		`&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;`, `marker-end="url(#arrow-flow)"`, `stroke-dasharray="8 4"`, `data-theme="dark"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	// Same board, same bytes.
	if _, _, again, _ := s.do("GET", "/api/canvas/export?format=svg", nil); !bytes.Equal(svg, again) {
		t.Error("two exports of the same board differ")
	}

	// nodes: those and the edges between them, fitted to them.
	_, _, part, _ := s.do("GET", "/api/canvas/export?format=svg&nodes="+a+","+b, nil)
	p := string(part)
	wellFormed(t, part)
	if !strings.Contains(p, `>then</text>`) || strings.Contains(p, evil) || strings.Contains(p, `class="group"`) ||
		!strings.Contains(p, `viewBox="-40 -40 880 320"`) {
		t.Errorf("nodes export:\n%s", p)
	}
	// A group brings its members.
	_, _, withGroup, _ := s.do("GET", "/api/canvas/export?format=svg&nodes="+grp, nil)
	if g := string(withGroup); !strings.Contains(g, `data-id="`+a+`"`) || !strings.Contains(g, `data-id="`+b+`"`) || strings.Contains(g, evil) {
		t.Errorf("group export lacks its members")
	}
	// region: exactly that box.
	_, _, region, _ := s.do("GET", "/api/canvas/export?format=svg&region=0,850,400,300", nil)
	if r := string(region); !strings.Contains(r, `viewBox="0 850 400 300"`) || !strings.Contains(r, evil) || strings.Contains(r, `data-id="`+a+`"`) {
		t.Errorf("region export:\n%s", r)
	}

	// The theme: the canvas's, or the query's.
	s.ok("POST", "/api/canvas/theme", map[string]any{"theme": "light"})
	if _, _, l, _ := s.do("GET", "/api/canvas/export?format=svg", nil); !bytes.Contains(l, []byte(`data-theme="light"`)) {
		t.Error("the canvas's light theme is not used")
	}
	if _, _, d, _ := s.do("GET", "/api/canvas/export?format=svg&theme=dark", nil); !bytes.Contains(d, []byte(`data-theme="dark"`)) {
		t.Error("?theme=dark is not used")
	}
}

func TestExportBadInputNamesTheField(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	a, _, _, _ := exportBoard(s)
	for _, tc := range []struct{ query, field, want string }{
		{"format=bmp", "format", `Unsupported export format "bmp"`},
		{"format=svg&region=1,2,3", "region", `field "region" must be x,y,w,h`},
		{"format=svg&region=0,0,-1,5", "region", "positive"},
		{"format=svg&region=0,0,NaN,5", "region", "finite"},
		{"format=png&region=a,b,c,d", "region", "finite"},
		{"format=svg&nodes=nope," + a + ",gone", "nodes", `no node "nope", "gone" on the canvas`},
		{"format=svg&nodes=,,", "nodes", "must list node ids"},
		{"format=svg&nodes=" + a + "&region=0,0,1,1", "region", "not both"},
		{"format=svg&theme=pink", "theme", `field "theme"`},
		{"nodes=" + a, "nodes", "applies to svg and png exports"},
		{"format=jsoncanvas&region=0,0,1,1", "region", "applies to svg and png exports"},
	} {
		out := s.fails(400, tc.want, "GET", "/api/canvas/export?"+tc.query, nil)
		if out["field"] != tc.field {
			t.Errorf("%s: field %v, want %s", tc.query, out["field"], tc.field)
		}
	}
}

// jsoncanvas is what it was: the default, as JSON, the same bytes with or
// without format=jsoncanvas, and the Go package gets those bytes too.
func TestExportJSONCanvasIsUnchanged(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	exportBoard(s)
	code, _, plain, hdr := s.do("GET", "/api/canvas/export", nil)
	_, _, named, _ := s.do("GET", "/api/canvas/export?format=jsoncanvas", nil)
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") || !bytes.Equal(plain, named) {
		t.Fatalf("jsoncanvas: %d %s\n%s\n%s", code, hdr.Get("Content-Type"), plain, named)
	}
	var doc struct {
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
	}
	if err := json.Unmarshal(plain, &doc); err != nil || len(doc.Nodes) != 4 || len(doc.Edges) != 2 {
		t.Fatalf("jsoncanvas document: %v %s", err, plain)
	}
	blob, err := s.Canvas().CanvasExport(context.Background(), &messages.ExportInput{})
	if err != nil || blob.ContentType != "application/json" {
		t.Fatalf("Go CanvasExport: %+v %v", blob, err)
	}
	var viaGo, viaHTTP any
	_ = json.Unmarshal(blob.Data, &viaGo)
	_ = json.Unmarshal(plain, &viaHTTP)
	if fmt.Sprint(viaGo) != fmt.Sprint(viaHTTP) {
		t.Errorf("Go and HTTP documents differ:\n%s\n%s", blob.Data, plain)
	}
}

// The export reaches MCP (canvas_export: the SVG as text, a PNG as image
// content) and the Go package (a *messages.Blob), the same as HTTP.
func TestExportOnMCPAndGo(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	a, b, _, _ := exportBoard(s)
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	ctx := context.Background()
	_, _, viaHTTP, _ := s.do("GET", "/api/canvas/export?format=svg&nodes="+a+","+b, nil)

	r := mcp.Call(ctx, "canvas_export", mcpapi.Args{"format": "svg", "nodes": a + "," + b})
	if r.IsError || r.Text != string(viaHTTP) {
		t.Fatalf("canvas_export svg differs from HTTP: %v\n%s", r.IsError, r.Text)
	}
	if r := mcp.Call(ctx, "canvas_export", mcpapi.Args{"format": "svg", "region": "1,2"}); !r.IsError || !strings.Contains(r.Text, `field "region"`) {
		t.Errorf("canvas_export bad region: %+v", r)
	}
	if r := mcp.Call(ctx, "canvas_export", mcpapi.Args{}); r.IsError || !strings.Contains(r.Text, `"nodes"`) {
		t.Errorf("canvas_export jsoncanvas: %+v", r)
	}

	blob, err := s.Canvas().CanvasExport(ctx, &messages.ExportInput{Format: pmxcanvas.Ptr("svg"), Nodes: pmxcanvas.Ptr(a + "," + b)})
	if err != nil || blob.ContentType != "image/svg+xml" || !bytes.Equal(blob.Data, viaHTTP) {
		t.Fatalf("Go CanvasExport svg: %v", err)
	}
	_, err = s.Canvas().CanvasExport(ctx, &messages.ExportInput{Format: pmxcanvas.Ptr("svg"), Nodes: pmxcanvas.Ptr("missing")})
	if e := messages.AsError(err); e == nil || e.Status != 400 || !strings.Contains(e.Message, `no node "missing"`) {
		t.Errorf("Go CanvasExport unknown node: %v", err)
	}
}

// In Chromium (skipped without it unless PMX_REQUIRE_CHROMIUM=1): the PNG
// is the picture of the SVG, at 2 pixels per board unit, over HTTP and as
// MCP image content.
func TestExportPNGInChromium(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	s := start(t, pmxcanvas.Options{})
	a, _, _, _ := exportBoard(s)
	code, _, raw, hdr := s.do("GET", "/api/canvas/export?format=png&nodes="+a, nil)
	if code != 200 || hdr.Get("Content-Type") != "image/png" {
		t.Fatalf("png export: %d %s %s", code, hdr.Get("Content-Type"), raw)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	// 400×240 plus the margin: 480×320 board units, 960×640 pixels.
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 640 {
		t.Fatalf("png size %v", b)
	}
	// The corner is the dark theme's background (#081524); the card's
	// inside is its panel (#0f1d31).
	rgb := func(x, y int) string {
		r, g, b, _ := img.At(x, y).RGBA()
		return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
	}
	if c := rgb(4, 4); c != "#081524" {
		t.Errorf("background %s", c)
	}
	if c := rgb(80+400, 80+400); c != "#0f1d31" {
		t.Errorf("card body %s", c)
	}

	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	r := mcp.Call(context.Background(), "canvas_export", mcpapi.Args{"format": "png", "region": "0,0,200,100"})
	if r.IsError || r.ImageMime != "image/png" || !strings.Contains(r.Text, `"mimeType":"image/png"`) {
		t.Fatalf("canvas_export png: %+v", r.Text)
	}
	if img, err := png.Decode(bytes.NewReader(r.Image)); err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 200 {
		t.Fatalf("canvas_export png image: %v", err)
	}
}

// BenchmarkExport1000 is GET /api/canvas/export for a 1,000-node board
// through the invoker (no HTTP): the SVG drawn from the published view,
// and the PNG, which launches Chromium per export (skipped without one).
func BenchmarkExport1000(b *testing.B) {
	srv, _ := benchServer(b)
	ops := make([]map[string]any, 0, 1000)
	for i := 0; i < 1000; i++ {
		ops = append(ops, map[string]any{"op": "node.add", "args": map[string]any{"type": "markdown", "title": fmt.Sprintf("Card %d", i),
			"content": "# Heading\n\nA paragraph of text that wraps over a few lines.\n- [ ] a task", "x": (i % 40) * 360, "y": (i / 40) * 260,
			"width": 320, "height": 220}})
	}
	invoke(b, srv, "canvas.batch", map[string]any{"operations": ops})
	for _, format := range []string{"svg", "png"} {
		b.Run(format, func(b *testing.B) {
			if format == "png" {
				browsertest.Require(b, &automation.Chromium{})
			}
			var size int
			for b.Loop() {
				size = len(invoke(b, srv, "canvas.export", map[string]any{"format": format}).Body.(*messages.Blob).Data)
			}
			b.ReportMetric(float64(size), "bytes/export")
		})
	}
}
