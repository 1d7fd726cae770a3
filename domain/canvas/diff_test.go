package canvas

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestJSNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-3, "-3"}, {100, "100"}, {1.5, "1.5"},
		{-3.25, "-3.25"}, {0.30000000000000004, "0.30000000000000004"}, {1e6, "1000000"}, {123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"}, {-2.5e22, "-2.5e+22"}, {0.000001, "0.000001"}, {1.5e-7, "1.5e-7"}, {5e-324, "5e-324"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tc := range tests {
		if got := jsNumber(tc.in); got != tc.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSameJSONValue(t *testing.T) {
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"equal strings", "a", "a", true},
		{"different strings", "a", "b", false},
		{"int equals float", 3, 3.0, true},
		{"json.Number equals float", json.Number("2.5"), 2.5, true},
		{"negative zero equals zero", math.Copysign(0, -1), 0.0, true},
		{"number is not string", 1.0, "1", false},
		{"bools", true, true, true},
		{"bool is not number", true, 1.0, false},
		{"nil equals nil", nil, nil, true},
		{"nil slice is null", []any(nil), nil, true},
		{"null is not empty list", nil, []any{}, false},
		{"typed nil slice is not empty list", []string(nil), []any{}, false},
		{"[]string equals []any", []string{"a", "b"}, []any{"a", "b"}, true},
		{"list order counts", []any{"a", "b"}, []any{"b", "a"}, false},
		{"list length counts", []any{"a"}, []any{"a", "a"}, false},
		{"key order does not count", map[string]any{"a": 1.0, "b": []any{true}}, map[string]any{"b": []any{true}, "a": 1}, true},
		{"nested value counts", map[string]any{"a": map[string]any{"x": 1.0}}, map[string]any{"a": map[string]any{"x": 2.0}}, false},
		{"missing key counts", map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "b": nil}, false},
		{"typed map equals generic map", map[string]string{"k": "v"}, map[string]any{"k": "v"}, true},
		{"struct compared by its JSON", struct {
			X int `json:"x"`
		}{1}, map[string]any{"x": 1.0}, true},
		{"object is not string", map[string]any{}, "{}", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameJSONValue(tc.a, tc.b); got != tc.want {
				t.Fatalf("sameJSONValue(%#v, %#v) = %v", tc.a, tc.b, got)
			}
			if got := sameJSONValue(tc.b, tc.a); got != tc.want {
				t.Fatalf("not symmetric: sameJSONValue(%#v, %#v) = %v", tc.b, tc.a, got)
			}
		})
	}
}

func TestNodeChanges(t *testing.T) {
	base := Node{ID: "n", Type: "markdown", Position: Point{10, 20}, Size: Size{300, 200},
		Data: map[string]any{"title": "Old", "content": "abc", "tags": []any{"x"}, "meta": map[string]any{"a": 1.0, "b": 2.0}}}
	with := func(f func(n *Node)) *Node {
		n := base.Clone()
		f(n)
		return n
	}
	tests := []struct {
		name string
		cur  *Node
		want []string
	}{
		{"unchanged copy", with(func(n *Node) {}), nil},
		{"moved with fractions", with(func(n *Node) { n.Position = Point{10.5, -3} }), []string{"moved (10,20) → (10.5,-3)"}},
		{"resized", with(func(n *Node) { n.Size = Size{640, 420} }), []string{"resized 300x200 → 640x420"}},
		{"collapsed", with(func(n *Node) { n.Collapsed = true }), []string{"collapsed"}},
		{"title", with(func(n *Node) { n.Data["title"] = "New" }), []string{`title: "Old" → "New"`}},
		{"title removed", with(func(n *Node) { delete(n.Data, "title") }), []string{`title: "Old" → ""`}},
		{"content grows", with(func(n *Node) { n.Data["content"] = "abcdef" }), []string{"content changed (+3 chars)"}},
		{"content shrinks", with(func(n *Node) { n.Data["content"] = "a" }), []string{"content changed (-2 chars)"}},
		{"same length counts as +0", with(func(n *Node) { n.Data["content"] = "xyz" }), []string{"content changed (+0 chars)"}},
		{"length in UTF-16 units", with(func(n *Node) { n.Data["content"] = "abc😀é" }), []string{"content changed (+3 chars)"}},
		{"data key added", with(func(n *Node) { n.Data["color"] = "#fff" }), []string{"data changed"}},
		{"data value changed", with(func(n *Node) { n.Data["tags"] = []any{"y"} }), []string{"data changed"}},
		{"data rebuilt in another order and Go type", with(func(n *Node) {
			n.Data["tags"] = []string{"x"}
			n.Data["meta"] = map[string]any{"b": 2, "a": 1}
		}), nil},
		{"pin, z-order and dock are not compared", with(func(n *Node) { n.Pinned, n.ZIndex, n.DockPosition = true, 5, "left" }), nil},
		{"everything, in order", with(func(n *Node) {
			n.Position, n.Size, n.Collapsed = Point{0, 0}, Size{1, 2}, true
			n.Data["title"], n.Data["content"], n.Data["extra"] = "T", "", 1.0
		}), []string{"moved (10,20) → (0,0)", "resized 300x200 → 1x2", "collapsed", `title: "Old" → "T"`, "content changed (-3 chars)", "data changed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nodeChanges(&base, tc.cur); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("changes = %q, want %q", got, tc.want)
			}
		})
	}
	collapsed := with(func(n *Node) { n.Collapsed = true })
	if got := nodeChanges(collapsed, &base); !reflect.DeepEqual(got, []string{"expanded"}) {
		t.Fatalf("expanding: %q", got)
	}
}

// The reference's example: one node deleted after the snapshot.
func TestDiffLayoutsReferenceExample(t *testing.T) {
	snap := buildCanvas(t, false, []*Node{
		{ID: "node-mx2wiv9z-q2pd", Type: "markdown", Size: Size{640, 420}, Data: map[string]any{"title": "kept"}},
		{ID: "node-mx2wivar-7t4u", Type: "status", Size: Size{360, 200}, Data: map[string]any{"title": "via query"}},
	}, nil)
	tx := Begin(snap, testEnv())
	if err := RemoveNode(tx, "node-mx2wivar-7t4u"); err != nil {
		t.Fatal(err)
	}
	cur, _, _ := tx.Commit()

	d := DiffLayouts("before refactor", snap, cur)
	const wantJSON = `{"snapshotName":"before refactor","addedNodes":[],"removedNodes":[{"id":"node-mx2wivar-7t4u","type":"status","title":"via query"}],"modifiedNodes":[],"addedEdges":[],"removedEdges":[]}`
	if got := mustJSON(t, d); got != wantJSON {
		t.Fatalf("diff JSON:\n got %s\nwant %s", got, wantJSON)
	}
	const wantText = "Diff: current canvas vs snapshot \"before refactor\"\n\nRemoved nodes (1):\n  - [status] via query\n\nSummary: +0 -1 ~0 nodes, +0 -0 edges"
	if got := FormatDiff(d); got != wantText {
		t.Fatalf("text:\n got %q\nwant %q", got, wantText)
	}
}

func TestDiffLayoutsAllSections(t *testing.T) {
	snap := buildCanvas(t, false, []*Node{
		{ID: "a", Type: "markdown", Position: Point{0, 0}, Size: Size{100, 100}, Data: map[string]any{"title": "Alpha", "content": "hi"}},
		{ID: "gone", Type: "file", Size: Size{10, 10}, Data: map[string]any{"path": "x.go"}},
		{ID: "b", Type: "markdown", Size: Size{10, 10}, Data: map[string]any{}},
		{ID: "gone2", Type: "markdown", Size: Size{10, 10}, Data: map[string]any{"title": "Old note"}},
	}, []*Edge{
		{ID: "e-kept", From: "a", To: "b", Type: "flow"},
		{ID: "e-gone", From: "a", To: "gone", Type: "references"},
	})
	tx := Begin(snap, testEnv())
	for _, id := range []string{"gone", "gone2"} {
		if err := RemoveNode(tx, id); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := tx.Node("a")
	a = a.Clone()
	a.Position, a.Data["content"] = Point{12.5, 40}, "hello"
	tx.PutNode(a)
	b, _ := tx.Node("b")
	b = b.Clone()
	b.Collapsed, b.Data["title"] = true, ""
	tx.PutNode(b)
	tx.PutNode(&Node{ID: "new", Type: "webpage", Size: Size{10, 10}, Data: map[string]any{"title": "Docs", "url": "https://x"}})
	tx.PutNode(&Node{ID: "untitled", Type: "status", Size: Size{10, 10}, Data: map[string]any{}})
	tx.PutEdge(&Edge{ID: "e-new", From: "new", To: "a", Type: "depends-on"})
	cur, _, _ := tx.Commit()

	d := DiffLayouts("v1", snap, cur)
	wantJSON := compactJSON(t, `{"snapshotName":"v1",
		"addedNodes":[{"id":"new","type":"webpage","title":"Docs"},{"id":"untitled","type":"status","title":null}],
		"removedNodes":[{"id":"gone","type":"file","title":null},{"id":"gone2","type":"markdown","title":"Old note"}],
		"modifiedNodes":[
			{"id":"a","type":"markdown","title":"Alpha","changes":["moved (0,0) → (12.5,40)","content changed (+3 chars)"]},
			{"id":"b","type":"markdown","title":"","changes":["collapsed"]}],
		"addedEdges":[{"id":"e-new","from":"new","to":"a","type":"depends-on"}],
		"removedEdges":[{"id":"e-gone","from":"a","to":"gone","type":"references"}]}`)
	if got := mustJSON(t, d); got != wantJSON {
		t.Fatalf("diff JSON:\n got %s\nwant %s", got, wantJSON)
	}

	const wantText = `Diff: current canvas vs snapshot "v1"

Added nodes (2):
  + [webpage] Docs
  + [status] untitled

Removed nodes (2):
  - [file] gone
  - [markdown] Old note

Modified nodes (2):
  ~ [markdown] Alpha
      moved (0,0) → (12.5,40)
      content changed (+3 chars)
  ~ [markdown] b
      collapsed

Added edges (1):
  + depends-on: new → a

Removed edges (1):
  - references: a → gone

Summary: +2 -2 ~2 nodes, +1 -1 edges`
	if got := FormatDiff(d); got != wantText {
		t.Fatalf("text:\n got %q\nwant %q", got, wantText)
	}
}

func TestDiffLayoutsNoDifferences(t *testing.T) {
	s := buildCanvas(t, true, []*Node{{ID: "a", Type: "markdown", Size: Size{1, 1}, Data: map[string]any{"k": []any{1.0}}}},
		[]*Edge{{ID: "e", From: "a", To: "status-main", Type: "flow"}})
	// A state rebuilt from equal values (new pointers, other Go types)
	// is no different either.
	same := buildCanvas(t, true, []*Node{{ID: "a", Type: "markdown", Size: Size{1, 1}, Data: map[string]any{"k": []float64{1}}}},
		[]*Edge{{ID: "e", From: "a", To: "status-main", Type: "relation"}}) // edge properties are not compared
	for _, cur := range []*State{s, same} {
		d := DiffLayouts("empty", s, cur)
		if got := mustJSON(t, d); got != `{"snapshotName":"empty","addedNodes":[],"removedNodes":[],"modifiedNodes":[],"addedEdges":[],"removedEdges":[]}` {
			t.Fatalf("JSON = %s", got)
		}
		if got := FormatDiff(d); got != "Diff: current canvas vs snapshot \"empty\"\n\nNo differences — canvas matches the snapshot exactly." {
			t.Fatalf("text = %q", got)
		}
	}
	// A zero LayoutDiff still writes lists, not null.
	if got := mustJSON(t, LayoutDiff{SnapshotName: "z"}); got != `{"snapshotName":"z","addedNodes":[],"removedNodes":[],"modifiedNodes":[],"addedEdges":[],"removedEdges":[]}` {
		t.Fatalf("zero diff JSON = %s", got)
	}
}
