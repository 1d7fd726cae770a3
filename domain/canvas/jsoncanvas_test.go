package canvas

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestMarkdownTextAndSplitHeading(t *testing.T) {
	tests := []struct {
		name           string
		title, content string
		text           string
		// back is what import reads from text, when it differs from the
		// exported title and content.
		backTitle, backContent *string
	}{
		{name: "no title", content: "body", text: "body"},
		{name: "title and content", title: "T", content: "body", text: "# T\n\nbody"},
		{name: "title only", title: "T", text: "# T"},
		{name: "neither", text: ""},
		{name: "content already starts with the heading line", title: "T", content: "# T\nbody", text: "# T\nbody"},
		{name: "content is the heading", title: "T", content: "# T", text: "# T", backContent: ptr("")},
		{name: "content starts with heading and blank line", title: "T", content: "# T\n\nbody", text: "# T\n\nbody", backContent: ptr("body")},
		{name: "other heading is kept in content", title: "T", content: "# U\n\nbody", text: "# T\n\n# U\n\nbody"},
		{name: "repeated heading after the added one", title: "T", content: "# T x", text: "# T\n\n# T x"},
		{name: "blank title counts as none", title: "  ", content: "body", text: "body", backTitle: ptr("")},
		{name: "multi-line title becomes one line", title: "a\nb", content: "c", text: "# a b\n\nc", backTitle: ptr("a b")},
		{name: "second-level heading is content", content: "## Sub\n\nx", text: "## Sub\n\nx"},
		{name: "untitled content that looks like a title", content: "# Big\n\nx", text: "# Big\n\nx", backTitle: ptr("Big"), backContent: ptr("x")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := markdownText(tc.title, tc.content); got != tc.text {
				t.Fatalf("markdownText(%q, %q) = %q, want %q", tc.title, tc.content, got, tc.text)
			}
			wantTitle, wantContent := tc.title, tc.content
			if tc.backTitle != nil {
				wantTitle = *tc.backTitle
			}
			if tc.backContent != nil {
				wantContent = *tc.backContent
			}
			if title, content := splitHeading(tc.text); title != wantTitle || content != wantContent {
				t.Fatalf("splitHeading(%q) = %q, %q; want %q, %q", tc.text, title, content, wantTitle, wantContent)
			}
		})
	}
}

// Every text survives import and export unchanged.
func TestSplitHeadingInvertsMarkdownText(t *testing.T) {
	for _, text := range []string{
		"", "#", "# ", "#  ", "# T", "# T\n", "# T\n\n", "# T\n\n\n", "# T\n\n# T", "# T\n\n# T\n", "# T\n\n# T\n\nx",
		"# T\n\n# Tx", "# T\r\n\r\nx", "#T", "##T", "# T\nx", "#  spaced  \n\nx", "x\n# T", "# ✓ ünïcode\n\n😀",
	} {
		title, content := splitHeading(text)
		if got := markdownText(title, content); got != text {
			t.Errorf("markdownText(splitHeading(%q)) = %q (title %q, content %q)", text, got, title, content)
		}
	}
}

// buildCanvas makes a canvas from nodes and edges in the given order.
func buildCanvas(t *testing.T, seedWidgets bool, nodes []*Node, edges []*Edge) *State {
	t.Helper()
	tx := Begin(NewState(), testEnv())
	if seedWidgets {
		SeedDockedWidgets(tx)
	}
	for _, n := range nodes {
		tx.PutNode(n)
	}
	for _, e := range edges {
		tx.PutEdge(e)
	}
	s, _, _ := tx.Commit()
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("compact: %v", err)
	}
	return b.String()
}

// importInto imports doc into s and returns the committed state and plan.
func importInto(t *testing.T, s *State, doc JSONCanvas) (*State, *ImportPlan) {
	t.Helper()
	plan, err := ImportJSONCanvas(doc, s, testEnv())
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	tx := Begin(s, testEnv())
	plan.Apply(tx)
	next, _, events := tx.Commit()
	if len(events) != 1 || events[0].Name != EventLayoutUpdate {
		t.Fatalf("events = %v, want one layout update", events)
	}
	return next, plan
}

func ptr[T any](v T) *T { return &v }

func TestExportJSONCanvasRoundTrip(t *testing.T) {
	s := buildCanvas(t, true, []*Node{
		{ID: "m1", Type: "markdown", Position: Point{40, 60}, Size: Size{300, 200}, ZIndex: 1,
			Data: map[string]any{"title": "Goals", "content": "Ship the port.", "parentGroup": "g1"}},
		{ID: "g1", Type: "group", Position: Point{0, 0}, Size: Size{800, 500},
			Data: map[string]any{"title": "Plan", "color": "#3b82f6", "frameMode": "manual", "children": []any{"m1", "f1"}}},
		{ID: "f1", Type: "file", Position: Point{400, 60}, Size: Size{360, 200}, ZIndex: 1,
			Data: map[string]any{"path": "docs/plan.md", "title": "plan.md", "subpath": "#Scope", "color": "3", "parentGroup": "g1"}},
		{ID: "m2", Type: "markdown", Position: Point{900, 0}, Size: Size{300, 200}, ZIndex: 1,
			Data: map[string]any{"content": "loose note", "color": "#abc"}},
		{ID: "w1", Type: "webpage", Position: Point{900, 300}, Size: Size{520, 420}, ZIndex: 1,
			Data: map[string]any{"url": "https://jsoncanvas.org", "title": "JSON Canvas"}},
		{ID: "m3", Type: "markdown", Position: Point{1500, 0}, Size: Size{300, 200}, ZIndex: 1,
			Data: map[string]any{"title": "Intro", "content": "# Intro\nFirst line."}},
	}, []*Edge{
		{ID: "e1", From: "m1", To: "f1", Type: "flow", Label: "details", Style: "dashed", Animated: ptr(true)},
		{ID: "e2", From: "m2", To: "w1", Type: "relation"},
		{ID: "e3", From: "status-main", To: "m1", Type: "flow"},
	})

	want := compactJSON(t, `{"nodes":[
		{"id":"g1","type":"group","label":"Plan","x":0,"y":0,"width":800,"height":500,"color":"#3b82f6"},
		{"id":"m1","type":"text","text":"# Goals\n\nShip the port.","x":40,"y":60,"width":300,"height":200},
		{"id":"f1","type":"file","file":"docs/plan.md","subpath":"#Scope","x":400,"y":60,"width":360,"height":200,"color":"3"},
		{"id":"m2","type":"text","text":"loose note","x":900,"y":0,"width":300,"height":200,"color":"#aabbcc"},
		{"id":"w1","type":"link","url":"https://jsoncanvas.org","x":900,"y":300,"width":520,"height":420},
		{"id":"m3","type":"text","text":"# Intro\nFirst line.","x":1500,"y":0,"width":300,"height":200}
	],"edges":[
		{"id":"e1","fromNode":"m1","toNode":"f1","label":"details"},
		{"id":"e2","fromNode":"m2","toNode":"w1","toEnd":"none"}
	]}`)
	first := mustJSON(t, ExportJSONCanvas(s))
	if first != want {
		t.Fatalf("export:\n got %s\nwant %s", first, want)
	}

	var doc JSONCanvas
	if err := json.Unmarshal([]byte(first), &doc); err != nil {
		t.Fatal(err)
	}
	imported, plan := importInto(t, NewState(), doc)

	node := func(id string) *Node {
		n, ok := imported.Nodes.Get(id)
		if !ok {
			t.Fatalf("node %q not imported", id)
		}
		return n
	}
	for _, tc := range []struct {
		id, typ string
		zIndex  int
		data    map[string]any
	}{
		{"g1", "group", 0, map[string]any{"title": "Plan", "color": "#3b82f6", "frameMode": "manual", "children": []any{"m1", "f1"}}},
		{"m1", "markdown", 1, map[string]any{"title": "Goals", "content": "Ship the port.", "parentGroup": "g1"}},
		{"f1", "file", 1, map[string]any{"path": "docs/plan.md", "title": "plan.md", "subpath": "#Scope", "color": "3", "parentGroup": "g1"}},
		{"m2", "markdown", 1, map[string]any{"content": "loose note", "color": "#aabbcc"}},
		{"w1", "webpage", 1, map[string]any{"url": "https://jsoncanvas.org", "title": "https://jsoncanvas.org"}},
		{"m3", "markdown", 1, map[string]any{"title": "Intro", "content": "# Intro\nFirst line."}},
	} {
		n := node(tc.id)
		if n.Type != tc.typ || n.ZIndex != tc.zIndex || !reflect.DeepEqual(n.Data, tc.data) {
			t.Errorf("%s: type %q z %d data %v; want %q %d %v", tc.id, n.Type, n.ZIndex, n.Data, tc.typ, tc.zIndex, tc.data)
		}
	}
	if got := node("f1").Rect(); got != (Rect{400, 60, 360, 200}) {
		t.Errorf("f1 box = %v", got)
	}
	wantEdges := []Edge{{ID: "e1", From: "m1", To: "f1", Type: "flow", Label: "details"}, {ID: "e2", From: "m2", To: "w1", Type: "relation"}}
	for i, e := range imported.Edges.All() {
		e := *e
		e.Ord, e.JSONCanvas = 0, nil // extras are checked below
		if i >= len(wantEdges) || e != wantEdges[i] {
			t.Errorf("edge %d = %+v", i, e)
		}
	}
	if !reflect.DeepEqual(plan.EdgeExtras, map[string]JSONCanvasEdgeExtra{"e2": {ToEnd: "none"}}) {
		t.Errorf("extras = %v", plan.EdgeExtras)
	}

	if second := mustJSON(t, ExportJSONCanvas(imported)); second != first {
		t.Fatalf("export after import differs:\n got %s\nwant %s", second, first)
	}
}

const handWrittenCanvas = `{"nodes":[
	{"id":"grp","type":"group","label":"Research","background":"img/bg.png","backgroundStyle":"cover","x":-100,"y":-100,"width":1000,"height":600,"color":"4"},
	{"id":"inner","type":"group","x":0,"y":0,"width":400,"height":300},
	{"id":"t1","type":"text","text":"# Findings\n\n- one\n- two","x":20,"y":40,"width":300,"height":200,"color":"#FF0000"},
	{"id":"t2","type":"text","text":"plain words","x":500,"y":0,"width":250,"height":120},
	{"id":"t3","type":"text","text":"","x":500,"y":200,"width":250,"height":60},
	{"id":"doc","type":"file","file":"notes/Paper.md","subpath":"#Method","x":1000,"y":0,"width":400,"height":400},
	{"id":"site","type":"link","url":"https://example.com/a?b=1","x":1000,"y":500,"width":400,"height":300,"color":"2"}
],"edges":[
	{"id":"ea","fromNode":"t1","fromSide":"right","toNode":"t2","toSide":"left","label":"supports"},
	{"id":"eb","fromNode":"t2","fromSide":"bottom","fromEnd":"arrow","toNode":"doc","toSide":"top","toEnd":"none","color":"5"},
	{"id":"ec","fromNode":"doc","toNode":"site","toEnd":"arrow","color":"#00ff00"}
]}`

func TestImportHandWrittenJSONCanvas(t *testing.T) {
	var doc JSONCanvas
	if err := json.Unmarshal([]byte(handWrittenCanvas), &doc); err != nil {
		t.Fatal(err)
	}
	s, plan := importInto(t, NewState(), doc)

	for _, tc := range []struct {
		id, typ string
		data    map[string]any
	}{
		{"grp", "group", map[string]any{"title": "Research", "background": "img/bg.png", "backgroundStyle": "cover", "color": "4",
			"frameMode": "manual", "children": []any{"t2", "t3"}}},
		{"inner", "group", map[string]any{"frameMode": "manual", "children": []any{"t1"}}},
		{"t1", "markdown", map[string]any{"title": "Findings", "content": "- one\n- two", "color": "#FF0000", "parentGroup": "inner"}},
		{"t2", "markdown", map[string]any{"content": "plain words", "parentGroup": "grp"}},
		{"t3", "markdown", map[string]any{"parentGroup": "grp"}},
		{"doc", "file", map[string]any{"path": "notes/Paper.md", "subpath": "#Method", "title": "Paper.md"}},
		{"site", "webpage", map[string]any{"url": "https://example.com/a?b=1", "title": "https://example.com/a?b=1", "color": "2"}},
	} {
		n, ok := s.Nodes.Get(tc.id)
		if !ok {
			t.Fatalf("node %q missing", tc.id)
		}
		if n.Type != tc.typ || !reflect.DeepEqual(n.Data, tc.data) {
			t.Errorf("%s: %q %v; want %q %v", tc.id, n.Type, n.Data, tc.typ, tc.data)
		}
	}
	if g, _ := s.Nodes.Get("grp"); g.Rect() != (Rect{-100, -100, 1000, 600}) {
		t.Errorf("grp box = %v", g.Rect())
	}
	types := map[string]string{}
	for _, e := range s.Edges.All() {
		types[e.ID] = e.Type
	}
	if want := map[string]string{"ea": "flow", "eb": "relation", "ec": "flow"}; !reflect.DeepEqual(types, want) {
		t.Errorf("edge types = %v, want %v", types, want)
	}
	wantExtras := map[string]JSONCanvasEdgeExtra{
		"ea": {FromSide: "right", ToSide: "left"},
		"eb": {FromSide: "bottom", FromEnd: "arrow", ToSide: "top", ToEnd: "none", Color: "5"},
		"ec": {ToEnd: "arrow", Color: "#00ff00"},
	}
	if !reflect.DeepEqual(plan.EdgeExtras, wantExtras) {
		t.Errorf("extras = %v, want %v", plan.EdgeExtras, wantExtras)
	}

	if got, want := mustJSON(t, ExportJSONCanvasWith(s, plan.EdgeExtras)), compactJSON(t, handWrittenCanvas); got != want {
		t.Fatalf("export with extras:\n got %s\nwant %s", got, want)
	}
	// The imported edges keep their sides, ends and colors, so a plain
	// export gives the document back too.
	if got, want := mustJSON(t, ExportJSONCanvas(s)), compactJSON(t, handWrittenCanvas); got != want {
		t.Fatalf("export from stored edges:\n got %s\nwant %s", got, want)
	}
}

func TestImportJSONCanvasRenamesTakenIDs(t *testing.T) {
	target := buildCanvas(t, false, []*Node{
		{ID: "a", Type: "markdown", Size: Size{10, 10}, Data: map[string]any{}},
		{ID: "g", Type: "group", Size: Size{10, 10}, Data: map[string]any{}},
	}, []*Edge{{ID: "e", From: "a", To: "g", Type: "flow"}})
	// The import's env makes group-<t>-0001 for g, then tries node-<t>-0002
	// for a: the document keeps that id for itself, so a gets 0003.
	ids := testEnv()
	newGroupID := ids.NewID("group", 4)
	docOwn := ids.NewID("node", 4)
	nextNode, nextEdge := ids.NewID("node", 4), ids.NewID("edge", 4)
	doc := JSONCanvas{
		Nodes: []JSONCanvasNode{
			{ID: "g", Type: "group", X: 0, Y: 0, Width: 500, Height: 500},
			{ID: "a", Type: "text", Text: "x", X: 10, Y: 10, Width: 100, Height: 100},
			{ID: docOwn, Type: "text", Text: "y", X: 600, Y: 0, Width: 100, Height: 100},
		},
		Edges: []JSONCanvasEdge{{ID: "e", FromNode: "a", ToNode: docOwn}},
	}
	s, plan := importInto(t, target, doc)

	newG, newA, newE := plan.NodeIDs["g"], plan.NodeIDs["a"], plan.EdgeIDs["e"]
	for _, tc := range []struct{ got, want string }{
		{newG, newGroupID}, {newA, nextNode}, {plan.NodeIDs[docOwn], docOwn}, {newE, nextEdge},
	} {
		if tc.got != tc.want {
			t.Errorf("id = %q, want %q (ids %v %v)", tc.got, tc.want, plan.NodeIDs, plan.EdgeIDs)
		}
	}
	if !strings.HasSuffix(newA, "-0003") || !strings.HasPrefix(newG, "group-") || !strings.HasPrefix(newE, "edge-") {
		t.Errorf("ids %q %q %q", newG, newA, newE)
	}
	e, ok := s.Edges.Get(newE)
	if !ok || e.From != newA || e.To != docOwn {
		t.Fatalf("remapped edge = %+v", e)
	}
	child, _ := s.Nodes.Get(newA)
	group, _ := s.Nodes.Get(newG)
	if child.ParentGroup() != newG || !reflect.DeepEqual(group.Children(), []string{newA}) {
		t.Errorf("membership: parent %q children %v", child.ParentGroup(), group.Children())
	}
	if old, _ := s.Nodes.Get("a"); old.Data["content"] != nil {
		t.Errorf("the canvas's own node a was overwritten: %v", old.Data)
	}
	if s.Nodes.Len() != 5 || s.Edges.Len() != 2 {
		t.Errorf("nodes %d edges %d, want 5 and 2", s.Nodes.Len(), s.Edges.Len())
	}
}

func TestImportJSONCanvasValidation(t *testing.T) {
	const ok = `{"id":"ok","type":"text","text":"","x":0,"y":0,"width":10,"height":10}`
	tests := []struct {
		name, doc, want string
	}{
		{"node without id", `{"nodes":[{"type":"text","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node 0 has no "id".`},
		{"duplicate node id", `{"nodes":[` + ok + `,` + ok + `]}`, `JSON Canvas node "ok": duplicate id.`},
		{"missing type", `{"nodes":[{"id":"n","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": "type" is missing.`},
		{"unknown type", `{"nodes":[{"id":"n","type":"image","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": unknown type "image" (use text, file, link or group).`},
		{"missing x", `{"nodes":[{"id":"n","type":"text","y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": "x" is missing.`},
		{"null height", `{"nodes":[{"id":"n","type":"text","x":0,"y":0,"width":1,"height":null}]}`, `JSON Canvas node "n": "height" is missing.`},
		{"string width", `{"nodes":[{"id":"n","type":"text","x":0,"y":0,"width":"1","height":1}]}`, `JSON Canvas node "n": "width" must be a number.`},
		{"zero width", `{"nodes":[{"id":"n","type":"text","x":0,"y":0,"width":0,"height":1}]}`, `JSON Canvas node "n": "width" and "height" must be greater than zero.`},
		{"file without path", `{"nodes":[{"id":"n","type":"file","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": a file node needs a "file" path.`},
		{"bad subpath", `{"nodes":[{"id":"n","type":"file","file":"a.md","subpath":"Intro","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": "subpath" must start with "#", got "Intro".`},
		{"link without url", `{"nodes":[{"id":"n","type":"link","url":" ","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": a link node needs a "url".`},
		{"bad background style", `{"nodes":[{"id":"n","type":"group","backgroundStyle":"tile","x":0,"y":0,"width":1,"height":1}]}`, `JSON Canvas node "n": "backgroundStyle" must be cover, ratio or repeat, got "tile".`},
		{"edge without id", `{"nodes":[` + ok + `],"edges":[{"fromNode":"ok","toNode":"ok"}]}`, `JSON Canvas edge 0 has no "id".`},
		{"duplicate edge id", `{"nodes":[` + ok + `],"edges":[{"id":"e","fromNode":"ok","toNode":"ok"},{"id":"e","fromNode":"ok","toNode":"ok"}]}`, `JSON Canvas edge "e": duplicate id.`},
		{"edge without fromNode", `{"nodes":[` + ok + `],"edges":[{"id":"e","toNode":"ok"}]}`, `JSON Canvas edge "e": "fromNode" is missing.`},
		{"edge to unknown node", `{"nodes":[` + ok + `],"edges":[{"id":"e","fromNode":"ok","toNode":"zz"}]}`, `JSON Canvas edge "e": "toNode" refers to "zz", which is not a node of the document.`},
		{"bad side", `{"nodes":[` + ok + `],"edges":[{"id":"e","fromNode":"ok","toNode":"ok","toSide":"middle"}]}`, `JSON Canvas edge "e": "toSide" must be top, right, bottom or left, got "middle".`},
		{"bad end", `{"nodes":[` + ok + `],"edges":[{"id":"e","fromNode":"ok","toNode":"ok","fromEnd":"dot"}]}`, `JSON Canvas edge "e": "fromEnd" must be none or arrow, got "dot".`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc JSONCanvas
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatalf("decode: %v", err)
			}
			plan, err := ImportJSONCanvas(doc, NewState(), testEnv())
			if err == nil {
				t.Fatalf("no error; plan %+v", plan)
			}
			if err.Status != http.StatusBadRequest || err.Message != tc.want {
				t.Fatalf("error %d %q, want 400 %q", err.Status, err.Message, tc.want)
			}
		})
	}

	t.Run("non-finite number built in Go", func(t *testing.T) {
		doc := JSONCanvas{Nodes: []JSONCanvasNode{{ID: "n", Type: "text", X: math.Inf(1), Width: 1, Height: 1}}}
		if _, err := ImportJSONCanvas(doc, NewState(), testEnv()); err == nil || err.Message != `JSON Canvas node "n": "x" must be a finite number.` {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("empty document", func(t *testing.T) {
		plan, err := ImportJSONCanvas(JSONCanvas{}, NewState(), testEnv())
		if err != nil || len(plan.Nodes) != 0 || len(plan.Edges) != 0 {
			t.Fatalf("plan %+v err %v", plan, err)
		}
		if got := mustJSON(t, JSONCanvas{}); got != `{"nodes":[],"edges":[]}` {
			t.Fatalf("empty document = %s", got)
		}
	})
}

func TestExportJSONCanvasGeometry(t *testing.T) {
	tests := []struct {
		name       string
		pos        Point
		size       Size
		x, y, w, h float64
	}{
		{"integers unchanged", Point{10, -20}, Size{300, 200}, 10, -20, 300, 200},
		{"halves round up and integer sizes stay", Point{0.5, -0.5}, Size{100, 100}, 1, 0, 100, 100},
		{"negative halves round up", Point{-1.5, -2.5}, Size{3, 3}, -1, -2, 3, 3},
		{"size follows the rounded edges", Point{0.4, 0.4}, Size{100.4, 100.4}, 0, 0, 101, 101},
		{"no negative zero", Point{-0.2, -0.4}, Size{10, 10}, 0, 0, 10, 10},
		{"tiny nodes keep a size of one", Point{3.1, 3.1}, Size{0.2, 0.2}, 3, 3, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			jn := exportJSONCanvasNode(&Node{ID: "n", Type: "markdown", Position: tc.pos, Size: tc.size, Data: map[string]any{}})
			if jn.X != tc.x || jn.Y != tc.y || jn.Width != tc.w || jn.Height != tc.h {
				t.Fatalf("got %v,%v %vx%v; want %v,%v %vx%v", jn.X, jn.Y, jn.Width, jn.Height, tc.x, tc.y, tc.w, tc.h)
			}
			if b := mustJSON(t, jn); bytes.Contains([]byte(b), []byte("-0,")) || bytes.Contains([]byte(b), []byte(".")) {
				t.Fatalf("JSON has non-integer geometry: %s", b)
			}
		})
	}

	// Rounding edges, not sizes, keeps a member inside its group.
	g := exportJSONCanvasNode(&Node{ID: "g", Type: "group", Position: Point{0.4, 0.4}, Size: Size{100.4, 100.4}, Data: map[string]any{}})
	m := exportJSONCanvasNode(&Node{ID: "m", Type: "markdown", Position: Point{0.6, 0.6}, Size: Size{100.2, 100.2}, Data: map[string]any{}})
	if !boxInside(m, g) {
		t.Fatalf("member %+v left group %+v", m, g)
	}
}

func TestJSONCanvasColor(t *testing.T) {
	tests := []struct {
		in   any
		want string
		ok   bool
	}{
		{"1", "1", true}, {"6", "6", true}, {"0", "", false}, {"7", "", false},
		{"#FF0000", "#FF0000", true}, {"#3b82f6", "#3b82f6", true}, {"#abc", "#aabbcc", true},
		{"#12345", "", false}, {"#GG0000", "", false}, {"red", "", false}, {"", "", false},
		{nil, "", false}, {3.0, "", false},
	}
	for _, tc := range tests {
		if got, ok := jsonCanvasColor(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("jsonCanvasColor(%v) = %q %v, want %q %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestExportJSONCanvasNodeTypes(t *testing.T) {
	tests := []struct {
		name string
		node Node
		want string
	}{
		{"markdown without anything", Node{Type: "markdown"}, `{"type":"text","text":""}`},
		{"file from one-line content", Node{Type: "file", Data: map[string]any{"content": "src/main.go"}}, `{"type":"file","file":"src/main.go"}`},
		{"inline file content is text", Node{Type: "file", Data: map[string]any{"title": "notes", "content": "a\nb"}}, `{"type":"text","text":"# notes\n\na\nb"}`},
		{"subpath without # is dropped", Node{Type: "file", Data: map[string]any{"path": "a.md", "subpath": "x"}}, `{"type":"file","file":"a.md"}`},
		{"webpage without url is text", Node{Type: "webpage", Data: map[string]any{"title": "Draft"}}, `{"type":"text","text":"# Draft"}`},
		{"group without title", Node{Type: "group", Data: map[string]any{"backgroundStyle": "tile", "background": "b.png"}}, `{"type":"group","background":"b.png"}`},
		{"status shows title and content", Node{Type: "status", Data: map[string]any{"title": "Build", "content": "green"}}, `{"type":"text","text":"# Build\n\ngreen"}`},
		{"empty widget shows its kind", Node{Type: "mcp-app", Data: map[string]any{"viewerType": "web-artifact"}}, `{"type":"text","text":"# web-artifact"}`},
		{"html shows its summary", Node{Type: "html", Data: map[string]any{"html": "<b>x</b>", "agentSummary": "A chart"}}, `{"type":"text","text":"A chart"}`},
		{"image by path", Node{Type: "image", Data: map[string]any{"title": "Logo", "path": "img/logo one.png", "src": "data:image/png;base64,AA"}}, `{"type":"text","text":"# Logo\n\n![Logo](\u003cimg/logo one.png\u003e)"}`},
		{"inline image", Node{Type: "image", Data: map[string]any{"src": "data:image/png;base64,AA"}}, `{"type":"text","text":"# image"}`},
		{"trace", Node{Type: "trace", Data: map[string]any{"toolName": "bash"}}, `{"type":"text","text":"# trace"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.node.ID, tc.node.Size = "n", Size{10, 10}
			got := mustJSON(t, exportJSONCanvasNode(&tc.node))
			want := `{"id":"n",` + tc.want[1:len(tc.want)-1] + `,"x":0,"y":0,"width":10,"height":10}`
			if got != want {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestExportJSONCanvasEdgeEnds(t *testing.T) {
	tests := []struct {
		typ   string
		extra JSONCanvasEdgeExtra
		want  JSONCanvasEdge
	}{
		{"flow", JSONCanvasEdgeExtra{}, JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b"}},
		{"depends-on", JSONCanvasEdgeExtra{}, JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b"}},
		{"relation", JSONCanvasEdgeExtra{}, JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b", ToEnd: "none"}},
		{"references", JSONCanvasEdgeExtra{}, JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b", ToEnd: "none"}},
		{"relation", JSONCanvasEdgeExtra{ToEnd: "arrow", FromSide: "top", Color: "#abc"},
			JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b", FromSide: "top", ToEnd: "arrow", Color: "#aabbcc"}},
		{"flow", JSONCanvasEdgeExtra{FromSide: "up", FromEnd: "dot", Color: "red"}, JSONCanvasEdge{ID: "e", FromNode: "a", ToNode: "b"}},
	}
	for _, tc := range tests {
		if got := exportJSONCanvasEdge(&Edge{ID: "e", From: "a", To: "b", Type: tc.typ}, tc.extra); got != tc.want {
			t.Errorf("%s %+v: got %+v, want %+v", tc.typ, tc.extra, got, tc.want)
		}
	}
}

func TestImportJSONCanvasGroupMembership(t *testing.T) {
	box := func(id, typ string, x, y, w, h float64) JSONCanvasNode {
		return JSONCanvasNode{ID: id, Type: typ, X: x, Y: y, Width: w, Height: h, Text: "t"}
	}
	nodes := []JSONCanvasNode{
		box("big", "group", 0, 0, 1000, 1000),
		box("small", "group", 100, 100, 300, 300),
		box("twin", "group", 100, 100, 300, 300), // same box, drawn above small
		box("inSmall", "text", 150, 150, 100, 100),
		box("inBig", "text", 500, 500, 100, 100),
		box("onEdge", "text", 0, 0, 1000, 1000),
		box("overlapping", "text", 950, 950, 100, 100),
		box("outside", "text", 2000, 0, 10, 10),
	}
	got := map[string]string{}
	for i, g := range groupMembership(nodes) {
		got[nodes[i].ID] = nodes[g].ID
	}
	want := map[string]string{"inSmall": "twin", "inBig": "big", "onEdge": "big"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("membership = %v, want %v", got, want)
	}
}
