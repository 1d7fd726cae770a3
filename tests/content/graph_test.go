package content_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

func TestGraphNodes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	rows := []map[string]any{{"team": "Docs", "n": 5}, {"team": "Core", "n": 9}}
	out := s.ok("POST", "/api/canvas/graph", map[string]any{"graphType": "bar", "title": "Tickets", "data": rows, "xKey": "team", "yKey": "n"})
	id := nodeID(t, out)
	if !strings.HasPrefix(id, "graph-") || out["url"] != "/api/canvas/json-render/view?nodeId="+id {
		t.Errorf("reply: id %q url %v", id, out["url"])
	}
	n := s.ok("GET", "/api/canvas/node/"+id, nil)
	d := n["data"].(map[string]any)
	spec := d["spec"].(map[string]any)
	chart := spec["elements"].(map[string]any)["chart"].(map[string]any)
	if n["type"] != "graph" || spec["root"] != "card" || chart["type"] != "BarChart" || d["viewerType"] != "graph" ||
		d["graphConfig"].(map[string]any)["graphType"] != "bar" || n["size"].(map[string]any)["width"] != 760.0 {
		t.Errorf("graph node: %v", n)
	}
	s.fails(400, "Missing required field: data.", "POST", "/api/canvas/graph", map[string]any{"graphType": "bar"})
	s.fails(400, `Unknown graph type "pi"`, "POST", "/api/canvas/graph", map[string]any{"graphType": "pi", "data": rows})
	s.fails(400, "team2", "POST", "/api/canvas/graph", map[string]any{"graphType": "bar", "data": rows, "xKey": "team2"})

	// In a batch, and over MCP (the legacy tool and the composite).
	b := s.ok("POST", "/api/canvas/batch", map[string]any{"operations": []any{
		map[string]any{"op": "graph.add", "args": map[string]any{"graphType": "pie", "data": []any{map[string]any{"name": "a", "value": 1}}}}}})
	if b["ok"] != true {
		t.Errorf("batch: %v", b)
	}
	reg, _ := mcpapi.NewRegistry()
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	for tool, args := range map[string]mcpapi.Args{
		"canvas_add_graph_node": {"graphType": "line", "data": []any{map[string]any{"x": 1, "y": 2}}, "xKey": "x", "yKey": "y"},
		"canvas_render":         {"action": "add-graph", "graphType": "sparkline", "data": []any{map[string]any{"value": 1}, map[string]any{"value": 3}}},
	} {
		if r := mcp.Call(context.Background(), tool, args); r.IsError || !strings.Contains(r.Text, "graph-") {
			t.Errorf("%s: %+v", tool, r)
		}
	}
}

func TestHTMLPrimitives(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "html-primitive", "kind": "status-report", "title": "Week 48",
		"data": map[string]any{"metrics": []any{map[string]any{"label": "Uptime", "value": "99.9%", "tone": "good"}}, "shipped": []any{"<script>x</script>"}}})
	id := nodeID(t, out)
	prim, _ := out["primitive"].(map[string]any)
	if prim["kind"] != "status-report" || prim["htmlBytes"].(float64) < 100 {
		t.Errorf("primitive reply: %v", prim)
	}
	d := s.node(id)
	html, _ := d["html"].(string)
	if d["htmlPrimitive"] != "status-report" || !strings.HasPrefix(strings.ToLower(html), "<!doctype html>") ||
		strings.Contains(html, "<script>x</script>") || d["title"] != "Week 48" || d["agentSummary"] == "" {
		t.Errorf("primitive node: %v", d["htmlPrimitive"])
	}
	if n := s.ok("GET", "/api/canvas/node/"+id, nil); n["type"] != "html" || n["size"].(map[string]any)["width"] != 980.0 {
		t.Errorf("stored as %v %v", n["type"], n["size"])
	}
	deck := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html", "primitive": "deck",
		"data": map[string]any{"slides": []any{map[string]any{"title": "One", "note": "say hi"}, map[string]any{"title": "Two"}}}})))
	if deck["presentation"] != true || deck["slideCount"] != 2.0 {
		t.Errorf("deck: %v %v", deck["presentation"], deck["slideCount"])
	}
	s.fails(400, "Unknown HTML primitive: nope.", "POST", "/api/canvas/node", map[string]any{"type": "html-primitive", "kind": "nope"})
	s.fails(400, `Invalid presentation theme "neon"`, "POST", "/api/canvas/node", map[string]any{"type": "html-primitive", "kind": "presentation",
		"data": map[string]any{"theme": "neon"}})
	reg, _ := mcpapi.NewRegistry()
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	for tool, args := range map[string]mcpapi.Args{
		"canvas_add_html_primitive": {"kind": "flowchart", "data": map[string]any{"steps": []any{map[string]any{"title": "A"}}}},
		"canvas_node":               {"action": "add", "type": "html", "primitive": "explainer", "data": map[string]any{"summary": "why"}},
	} {
		if r := mcp.Call(context.Background(), tool, args); r.IsError {
			t.Errorf("%s: %s", tool, r.Text)
		}
	}
}

// A graph node's viewer document: the bundle and the spec in one
// sandboxed page (the browser test in web/viewer checks what it draws).
func TestViewerDocument(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	id := nodeID(t, s.ok("POST", "/api/canvas/graph", map[string]any{"graphType": "bar", "data": []any{map[string]any{"k": "a", "v": 1}}}))
	code, _, raw, hdr := s.do("GET", "/api/canvas/json-render/view?nodeId="+id+"&theme=light", nil)
	doc := string(raw)
	if code != 200 || hdr.Get("Content-Security-Policy") != "sandbox allow-scripts" || !strings.Contains(doc, `"kind":"graph"`) ||
		!strings.Contains(doc, `"BarChart"`) || !strings.Contains(doc, `"theme":"light"`) {
		t.Errorf("viewer: %d %v, %d bytes", code, hdr.Get("Content-Security-Policy"), len(doc))
	}
	s.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if code, _, _, hdr := s.do("GET", "/api/canvas/surface/"+id, nil); code != 302 || !strings.HasPrefix(hdr.Get("Location"), "/api/canvas/json-render/view?nodeId="+id) {
		t.Errorf("surface of a graph: %d %q", code, hdr.Get("Location"))
	}
	md := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
	s.fails(404, "json-render node", "GET", "/api/canvas/json-render/view?nodeId="+md, nil)
	s.fails(400, `field "nodeId" is required`, "GET", "/api/canvas/json-render/view", nil)
}

func TestJSONRenderNodes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	spec := map[string]any{"root": "card", "elements": map[string]any{
		"card": map[string]any{"type": "Card", "props": map[string]any{"title": "Release"}, "children": []any{"t"}},
		"t":    map[string]any{"type": "Text", "props": map[string]any{"text": "ok"}, "children": []any{}}}}
	out := s.ok("POST", "/api/canvas/json-render", map[string]any{"spec": spec})
	id := nodeID(t, out)
	if !strings.HasPrefix(id, "ui-") || out["url"] != "/api/canvas/json-render/view?nodeId="+id {
		t.Errorf("reply: %v %v", id, out["url"])
	}
	d := s.node(id)
	el := d["spec"].(map[string]any)["elements"].(map[string]any)["card"].(map[string]any)
	if el["visible"] != true || d["title"] != "Release" || d["viewerType"] != "json-render" {
		t.Errorf("node: %v / %v", d["title"], el)
	}
	// A bare component is the whole body; an unknown component is refused.
	s.ok("POST", "/api/canvas/json-render", map[string]any{"type": "Card", "props": map[string]any{"title": "Bare"}, "children": []any{}})
	s.fails(400, `unknown component "Crad" (did you mean Card?)`, "POST", "/api/canvas/json-render",
		map[string]any{"spec": map[string]any{"root": "c", "elements": map[string]any{"c": map[string]any{"type": "Crad", "props": map[string]any{}, "children": []any{}}}}})
	s.fails(400, "Missing root and elements in spec.", "POST", "/api/canvas/json-render", map[string]any{"spec": map[string]any{}})

	// Streaming: patches in two calls, then done validates and closes.
	st := s.ok("POST", "/api/canvas/json-render/stream", map[string]any{"patches": []any{
		map[string]any{"op": "add", "path": "/root", "value": "c"},
		`{"op":"add","path":"/elements/c","value":{"type":"Card","props":{"title":"Live"},"children":[]}}`,
		map[string]any{"op": "bogus"}}})
	sid, _ := st["id"].(string)
	if st["applied"] != 2.0 || st["skipped"] != 1.0 || st["streamStatus"] != "open" || sid == "" {
		t.Fatalf("stream: %v", st)
	}
	st = s.ok("POST", "/api/canvas/json-render/stream", map[string]any{"nodeId": sid, "done": true,
		"patches": []any{map[string]any{"op": "replace", "path": "/elements/c/props/title", "value": "Done"}}})
	if st["streamStatus"] != "closed" || st["elementCount"] != 1.0 {
		t.Errorf("closed stream: %v", st)
	}
	if s.node(sid)["spec"].(map[string]any)["elements"].(map[string]any)["c"].(map[string]any)["props"].(map[string]any)["title"] != "Done" {
		t.Errorf("streamed spec not stored")
	}
	s.fails(400, "forbidden", "POST", "/api/canvas/json-render/stream", map[string]any{"nodeId": sid,
		"patches": []any{map[string]any{"op": "add", "path": "/elements/__proto__", "value": 1}}})
	s.fails(400, `Node "nope" not found.`, "POST", "/api/canvas/json-render/stream", map[string]any{"nodeId": "nope"})
	// The viewer serves it.
	if code, _, raw, _ := s.do("GET", "/api/canvas/json-render/view?nodeId="+sid, nil); code != 200 || !strings.Contains(string(raw), `"kind":"json-render"`) {
		t.Errorf("viewer of a json-render node: %d", code)
	}
}

func TestJSONRenderOverMCP(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	reg, _ := mcpapi.NewRegistry()
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	card := map[string]any{"type": "Card", "props": map[string]any{"title": "M"}, "children": []any{}}
	for tool, args := range map[string]mcpapi.Args{
		"canvas_add_json_render_node":    {"spec": card},
		"canvas_stream_json_render_node": {"patches": []any{`{"op":"add","path":"/root","value":"c"}`}, "nodeHeight": 300},
		"canvas_render":                  {"action": "add-json-render", "spec": card},
	} {
		if r := mcp.Call(context.Background(), tool, args); r.IsError || !strings.Contains(r.Text, "ui-") {
			t.Errorf("%s: %+v", tool, r)
		}
	}
	r := mcp.Call(context.Background(), "canvas_add_json_render_node", mcpapi.Args{"spec": map[string]any{"type": "Crad"}})
	if !r.IsError || !strings.Contains(r.Text, "did you mean Card") {
		t.Errorf("unknown component over MCP: %+v", r)
	}
}

// PATCH rebuilds a chart from its stored config, and replaces a
// json-render spec after validating it.
func TestSpecPatches(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	g := nodeID(t, s.ok("POST", "/api/canvas/graph", map[string]any{"graphType": "bar", "color": "#f00",
		"data": []any{map[string]any{"m": "Jan", "v": 3}, map[string]any{"m": "Feb", "v": 5}}}))
	s.ok("PATCH", "/api/canvas/node/"+g, map[string]any{"graphType": "line", "chartHeight": 240})
	chart := s.node(g)["spec"].(map[string]any)["elements"].(map[string]any)["chart"].(map[string]any)
	props := chart["props"].(map[string]any)
	if chart["type"] != "LineChart" || props["height"] != 240.0 || props["color"] != "#f00" {
		t.Errorf("rebuilt chart: %v", chart)
	}
	s.fails(400, "Unknown graph type", "PATCH", "/api/canvas/node/"+g, map[string]any{"graphType": "pi"})

	// Every chart option and the rows patch too, and the options given
	// before are kept (the reference dropped colorBy, sort and the rest).
	b := nodeID(t, s.ok("POST", "/api/canvas/graph", map[string]any{"graphType": "bar", "colorBy": "category",
		"data": []any{map[string]any{"m": "Jan", "v": 3}}}))
	s.ok("PATCH", "/api/canvas/node/"+b, map[string]any{"data": []any{map[string]any{"m": "Mar", "v": 7}, map[string]any{"m": "Apr", "v": 1}}, "barColor": "#0f0"})
	cfg := s.node(b)["graphConfig"].(map[string]any)
	if cfg["colorBy"] != "category" || cfg["barColor"] != "#0f0" || len(cfg["data"].([]any)) != 2 {
		t.Errorf("patched config: %v", cfg)
	}
	s.ok("PATCH", "/api/canvas/node/"+b, map[string]any{"title": "Renamed"})
	if card := s.node(b)["spec"].(map[string]any)["elements"].(map[string]any)["card"].(map[string]any); card["props"].(map[string]any)["title"] != "Renamed" {
		t.Errorf("card title after a title patch: %v", card)
	}
	s.fails(400, `Unknown graph type`, "PATCH", "/api/canvas/node/"+b, map[string]any{"graphType": "pi"})
	s.fails(400, `field "data" must be an object, got array (an array of rows patches a graph node only)`,
		"PATCH", "/api/canvas/node/"+markdownNode(t, s), map[string]any{"data": []any{map[string]any{"k": 1}}})
	s.fails(400, `Field "sort" only applies to json-render and graph nodes`, "PATCH", "/api/canvas/node/"+markdownNode(t, s), map[string]any{"sort": "asc"})

	ui := nodeID(t, s.ok("POST", "/api/canvas/json-render", map[string]any{"spec": map[string]any{"type": "Card", "props": map[string]any{"title": "A"}, "children": []any{}}}))
	s.ok("PATCH", "/api/canvas/node/"+ui, map[string]any{"spec": map[string]any{"type": "Text", "props": map[string]any{"text": "B"}, "children": []any{}}})
	spec := s.node(ui)["spec"].(map[string]any)
	if root := spec["elements"].(map[string]any)[spec["root"].(string)].(map[string]any); root["type"] != "Text" {
		t.Errorf("patched spec: %v", spec)
	}
	s.fails(400, "did you mean", "PATCH", "/api/canvas/node/"+ui, map[string]any{"spec": map[string]any{"type": "Txet"}})
	md := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
	s.fails(400, `Field "spec" only applies to json-render and graph nodes`, "PATCH", "/api/canvas/node/"+md, map[string]any{"spec": map[string]any{}})
}

func TestMermaidNodes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	src := "flowchart LR\n  A[Plan] --> B[Ship]"
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "mermaid", "content": src}))
	d := s.node(id)
	if d["content"] != src || d["viewerType"] != "mermaid" || d["url"] != "/api/canvas/json-render/view?nodeId="+id {
		t.Errorf("mermaid node: %v", d)
	}
	code, _, raw, _ := s.do("GET", "/api/canvas/json-render/view?nodeId="+id, nil)
	if code != 200 || !strings.Contains(string(raw), `"kind":"mermaid"`) || !strings.Contains(string(raw), "A[Plan]") {
		t.Errorf("mermaid viewer: %d", code)
	}
	s.fails(400, "Mermaid nodes require the diagram source", "POST", "/api/canvas/node", map[string]any{"type": "mermaid"})
	if res := s.ok("GET", "/api/canvas/search?q=Ship", nil); len(res["results"].([]any)) != 1 {
		t.Errorf("search finds the diagram source: %v", res)
	}
}

func TestSpecValidate(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	out := s.ok("POST", "/api/canvas/schema/validate", map[string]any{"type": "json-render",
		"spec": map[string]any{"type": "Card", "props": map[string]any{"title": "V"}, "children": []any{}}})
	if out["ok"] != true || out["summary"].(map[string]any)["elementCount"] != 1.0 || out["normalizedSpec"] == nil {
		t.Errorf("json-render: %v", out)
	}
	out = s.ok("POST", "/api/canvas/schema/validate", map[string]any{"type": "graph", "graphType": "pie",
		"data": []any{map[string]any{"name": "a", "value": 1}}})
	if out["summary"].(map[string]any)["graphType"] != "PieChart" || out["summary"].(map[string]any)["dataPoints"] != 1.0 {
		t.Errorf("graph: %v", out)
	}
	out = s.ok("POST", "/api/canvas/schema/validate", map[string]any{"type": "html-primitive", "kind": "status-report",
		"data": map[string]any{"shipped": []any{"x"}}})
	if out["normalizedPrimitive"].(map[string]any)["kind"] != "status-report" || out["summary"].(map[string]any)["dataKeys"].([]any)[0] != "shipped" {
		t.Errorf("primitive: %v", out)
	}
	s.fails(400, `Validation type must be "json-render", "graph", or "html-primitive".`, "POST", "/api/canvas/schema/validate", map[string]any{"type": "yaml"})
	s.fails(400, "Graph validation requires a data array.", "POST", "/api/canvas/schema/validate", map[string]any{"type": "graph"})
	e := s.fails(400, "Unknown HTML primitive: nope.", "POST", "/api/canvas/schema/validate", map[string]any{"type": "html-primitive", "kind": "nope"})
	if e["type"] != "html-primitive" {
		t.Errorf("error carries the type: %v", e)
	}
	if st := s.ok("GET", "/api/canvas/state", nil); len(st["nodes"].([]any)) != 0 {
		t.Errorf("validation created nodes")
	}
}

// markdownNode creates a markdown node to patch.
func markdownNode(t *testing.T, s *server) string {
	return nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
}

// The schema document is one object on every surface, built from the
// validators' catalogs, and each node type's example creates a node.
func TestSchemaDocument(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	code, doc, raw, _ := s.do("GET", "/api/canvas/schema", nil)
	if code != 200 || doc["source"] != "running-server" || doc["ok"] != true {
		t.Fatalf("GET /api/canvas/schema: %d %.200s", code, raw)
	}
	jr := doc["jsonRender"].(map[string]any)
	if comps := jr["components"].([]any); len(comps) != 48 || len(doc["htmlPrimitives"].([]any)) != 19 {
		t.Errorf("catalogs: %d components, %d primitives", len(comps), len(doc["htmlPrimitives"].([]any)))
	}
	// The Go package, MCP (legacy tool, composite and resource) say the same.
	reg, _ := mcpapi.NewRegistry()
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	var want any
	_ = json.Unmarshal(raw, &want)
	same := func(what, text string) {
		var got any
		if err := json.Unmarshal([]byte(text), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs from GET /api/canvas/schema (%v)", what, err)
		}
	}
	for tool, args := range map[string]mcpapi.Args{"canvas_describe_schema": {}, "canvas_render": {"action": "describe-schema"}} {
		r := mcp.Call(context.Background(), tool, args)
		if r.IsError {
			t.Fatalf("%s: %s", tool, r.Text)
		}
		same(tool, r.Text)
	}
	res, ok := mcpapi.FindResource("canvas://schema")
	if !ok {
		t.Fatal("no canvas://schema")
	}
	text, err := res.Read(&mcpapi.Call{Ctx: context.Background(), Invoker: s.Invoker(), Canvas: "main"})
	if err != nil {
		t.Fatal(err)
	}
	same("canvas://schema", text)
	goDoc, err := s.Canvas().Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(goDoc)
	same("pmxcanvas Schema", string(b))

	// Validation over MCP is spec.validate: the same result and errors as
	// POST /api/canvas/schema/validate (primitiveData is the tools' name
	// for a primitive's data).
	prim := map[string]any{"items": []any{map[string]any{"title": "A"}}}
	r := mcp.Call(context.Background(), "canvas_validate_spec", mcpapi.Args{"type": "html-primitive", "kind": "choice-grid", "primitiveData": prim})
	httpOut := s.ok("POST", "/api/canvas/schema/validate", map[string]any{"type": "html-primitive", "kind": "choice-grid", "data": prim})
	hb, _ := json.Marshal(httpOut)
	var a1, a2 any
	_ = json.Unmarshal([]byte(r.Text), &a1)
	_ = json.Unmarshal(hb, &a2)
	if r.IsError || !reflect.DeepEqual(a1, a2) {
		t.Errorf("canvas_validate_spec %s != HTTP %s", r.Text, hb)
	}
	r = mcp.Call(context.Background(), "canvas_render", mcpapi.Args{"action": "validate", "type": "graph", "graphType": "pi", "data": []any{}})
	if !r.IsError || !strings.Contains(r.Text, "Unknown graph type") {
		t.Errorf("canvas_render validate of a bad graph: %+v", r)
	}
	s.fails(400, "Unknown graph type", "POST", "/api/canvas/schema/validate", map[string]any{"type": "graph", "graphType": "pi", "data": []any{}})

	// Each example creates its node (the image and the group's members
	// made first).
	s.write("docs/architecture.png", string(pngBytes(4, 3)))
	a := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "a"}))
	c := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "b"}))
	for _, nt := range doc["nodeTypes"].([]any) {
		e := nt.(map[string]any)
		ex := e["example"].(map[string]any)
		if e["type"] == "group" {
			ex["childIds"] = []any{a, c}
		}
		s.ok("POST", e["endpoint"].(string), ex)
	}
}
