package codegraph

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestBuildGraphShape(t *testing.T) {
	files := []File{
		{NodeID: "n-a", Path: "/ws/src/a.ts", Title: "a.ts", Content: "import { b } from './b';\nimport { c } from './c';\nimport './b';\nimport './a';\n"},
		{NodeID: "n-b", Path: "/ws/src/b.ts", Title: "b.ts", Content: "import { c } from './c.js';\nexport const b = 1;\n"},
		{NodeID: "n-c", Path: "/ws/src/c.ts", Title: "c.ts", Content: "export const c = 2;\n"},
		{NodeID: "n-c2", Path: "/ws/src/c.ts", Title: "c.ts (2)", Content: "export const c = 2;\n"},
		{NodeID: "n-lone", Path: "/ws/notes.md", Title: "notes.md", Content: "import x from './src/a'"},
		{NodeID: "n-empty", Path: "/ws/src/d.ts", Title: "d.ts"},
		{NodeID: "n-py", Path: "/ws/app/main.py", Title: "main.py", Content: "from . import util\nimport os\n"},
		{NodeID: "n-util", Path: "/ws/app/util.py", Title: "util.py", Content: "import json\n"},
	}
	g := Build("/ws", files)

	wantEdges := []Edge{
		{"codegraph-n-a-n-b", "n-a", "n-b"},
		{"codegraph-n-a-n-c", "n-a", "n-c"},
		{"codegraph-n-a-n-c2", "n-a", "n-c2"},
		{"codegraph-n-b-n-c", "n-b", "n-c"},
		{"codegraph-n-b-n-c2", "n-b", "n-c2"},
		{"codegraph-n-py-n-util", "n-py", "n-util"},
	}
	if !reflect.DeepEqual(g.Edges, wantEdges) {
		t.Errorf("edges:\n got %v\nwant %v", g.Edges, wantEdges)
	}
	r := g.Report
	if r.TotalFileNodes != 8 || r.TotalAutoEdges != 6 {
		t.Errorf("totals = %d files, %d edges; want 8, 6", r.TotalFileNodes, r.TotalAutoEdges)
	}
	type deg struct {
		imports, importedBy []string
		out, in             int
	}
	want := map[string]deg{
		"n-a":     {[]string{"src/b.ts", "src/c.ts", "src/c.ts"}, []string{}, 3, 0},
		"n-b":     {[]string{"src/c.ts", "src/c.ts"}, []string{"src/a.ts"}, 2, 1},
		"n-c":     {[]string{}, []string{"src/a.ts", "src/b.ts"}, 0, 2},
		"n-c2":    {[]string{}, []string{"src/a.ts", "src/b.ts"}, 0, 2},
		"n-lone":  {[]string{}, []string{}, 0, 0},
		"n-empty": {[]string{}, []string{}, 0, 0},
		"n-py":    {[]string{"app/util.py"}, []string{}, 1, 0},
		"n-util":  {[]string{}, []string{"app/main.py"}, 0, 1},
	}
	for i, n := range r.Nodes {
		if n.ID != files[i].NodeID || n.Path != strings.TrimPrefix(files[i].Path, "/ws/") || n.Title != files[i].Title {
			t.Errorf("node %d = %s %s %q, want input order and root-relative path", i, n.ID, n.Path, n.Title)
		}
		w := want[n.ID]
		if got := (deg{n.Imports, n.ImportedBy, n.OutDegree, n.InDegree}); !reflect.DeepEqual(got, w) {
			t.Errorf("%s: got %+v, want %+v", n.ID, got, w)
		}
	}
	wantCentral := []CentralFile{
		{"n-c", "src/c.ts", "c.ts", 2}, {"n-c2", "src/c.ts", "c.ts (2)", 2},
		{"n-util", "app/util.py", "util.py", 1}, {"n-b", "src/b.ts", "b.ts", 1},
	}
	if !reflect.DeepEqual(r.CentralFiles, wantCentral) {
		t.Errorf("central:\n got %v\nwant %v", r.CentralFiles, wantCentral)
	}
	wantIsolated := []FileRef{{"n-lone", "notes.md", "notes.md"}, {"n-empty", "src/d.ts", "d.ts"}}
	if !reflect.DeepEqual(r.IsolatedFiles, wantIsolated) {
		t.Errorf("isolated:\n got %v\nwant %v", r.IsolatedFiles, wantIsolated)
	}
	if len(g.Errors) != 0 {
		t.Errorf("errors = %v, want none", g.Errors)
	}
}

func TestBuildCentralTopTen(t *testing.T) {
	var files []File
	// hub-k is imported by the k+1 importers imp-00 … imp-k, and hub-00 by
	// all twelve (its second import in imp-00 collapses), so hub-00 ties
	// with hub-11 and goes first by path; hub-01 and hub-02 fall off.
	for k := 0; k < 12; k++ {
		files = append(files, File{NodeID: fmt.Sprintf("h%02d", k), Path: fmt.Sprintf("/ws/hub-%02d.ts", k)})
	}
	for i := 0; i < 12; i++ {
		var src strings.Builder
		for k := i; k < 12; k++ {
			fmt.Fprintf(&src, "import './hub-%02d';\n", k)
		}
		src.WriteString("import './hub-00';\n") // hub-00 ties with hub-01
		files = append(files, File{NodeID: fmt.Sprintf("i%02d", i), Path: fmt.Sprintf("/ws/imp-%02d.ts", i), Content: src.String()})
	}
	r := Build("/ws", files).Report
	var got []string
	for _, c := range r.CentralFiles {
		got = append(got, fmt.Sprintf("%s:%d", c.Path, c.InDegree))
	}
	want := []string{"hub-00.ts:12", "hub-11.ts:12", "hub-10.ts:11", "hub-09.ts:10", "hub-08.ts:9", "hub-07.ts:8",
		"hub-06.ts:7", "hub-05.ts:6", "hub-04.ts:5", "hub-03.ts:4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("central = %q\nwant      %q", got, want)
	}
}

func TestBuildSyntaxErrorKeepsGraph(t *testing.T) {
	files := []File{
		{NodeID: "bad", Path: "/ws/bad.py", Content: "import good\ndef f(:\n"},
		{NodeID: "good", Path: "/ws/good.py", Content: "x = 1\n"},
		{NodeID: "badts", Path: "/ws/bad.ts", Content: "import './good2';\nlet = ;\n"},
		{NodeID: "good2", Path: "/ws/good2.ts", Content: "import './bad';\n"},
	}
	g := Build("/ws", files)
	if len(g.Errors) != 2 || !strings.Contains(g.Errors["bad"], "bad.py") || !strings.Contains(g.Errors["badts"], "bad.ts") {
		t.Errorf("errors = %q, want one for bad.py and one for bad.ts", g.Errors)
	}
	want := []Edge{{"codegraph-bad-good", "bad", "good"}, {"codegraph-good2-badts", "good2", "badts"}}
	if !reflect.DeepEqual(g.Edges, want) {
		t.Errorf("edges = %v, want %v", g.Edges, want)
	}
}

func TestBuildDeterministic(t *testing.T) {
	files := benchFiles(60)
	first, err := json.Marshal(Build("/ws", files))
	if err != nil {
		t.Fatal(err)
	}
	var a Analyzer
	for i := 0; i < 3; i++ {
		again, _ := json.Marshal(a.Build("/ws", files))
		if string(again) != string(first) {
			t.Fatalf("build %d differs from the first", i)
		}
	}
	if g := Build("/ws", files); g.Report.TotalAutoEdges == 0 || len(g.Errors) != 0 {
		t.Fatalf("benchmark corpus gives %d edges and errors %v; want edges and no errors", g.Report.TotalAutoEdges, g.Errors)
	}
}

func TestReportJSON(t *testing.T) {
	b, err := json.Marshal(Build("/ws", []File{{NodeID: "x", Path: "/ws/x.ts", Title: "x.ts"}}).Report)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"totalFileNodes":1,"totalAutoEdges":0,"nodes":[{"id":"x","path":"x.ts","title":"x.ts","imports":[],"importedBy":[],"outDegree":0,"inDegree":0}],"centralFiles":[],"isolatedFiles":[{"id":"x","path":"x.ts","title":"x.ts"}]}`
	if string(b) != want {
		t.Errorf("json:\n got %s\nwant %s", b, want)
	}
}

func TestRelPath(t *testing.T) {
	tests := []struct{ root, p, want string }{
		{"/ws", "/ws/a/b.ts", "a/b.ts"},
		{"/ws", "/other/c.ts", "../other/c.ts"},
		{"/", "/a.ts", "a.ts"},
		{"/ws", "/ws", "."},
	}
	for _, tt := range tests {
		if got := relPath(tt.root, tt.p); got != tt.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tt.root, tt.p, got, tt.want)
		}
	}
}

// An Analyzer parses again only what changed, and forgets what the last
// build did not use.
func TestAnalyzerCache(t *testing.T) {
	files := []File{
		{NodeID: "a", Path: "/ws/a.ts", Content: "import './b';\n"},
		{NodeID: "b", Path: "/ws/b.ts", Content: "import './c';\n"},
		{NodeID: "c", Path: "/ws/c.py", Content: "import os\n"},
	}
	var a Analyzer
	a.Build("/ws", files)
	before := make(map[cacheKey]*Import)
	for k, p := range a.cache {
		before[k] = &p.imports[0]
	}
	if len(before) != 3 {
		t.Fatalf("cache has %d entries, want 3", len(before))
	}
	files[0].Content = "import './c';\n"
	g := a.Build("/ws", files)
	if len(a.cache) != 3 {
		t.Errorf("cache has %d entries after a change, want 3 (the old a.ts dropped)", len(a.cache))
	}
	reused := 0
	for k, p := range a.cache {
		if before[k] == &p.imports[0] {
			reused++
		}
	}
	if reused != 2 {
		t.Errorf("%d entries reused, want 2 (b.ts and c.py)", reused)
	}
	// './c' finds c.py by the reference's suffix list.
	if want := []Edge{{"codegraph-a-c", "a", "c"}, {"codegraph-b-c", "b", "c"}}; !reflect.DeepEqual(g.Edges, want) {
		t.Errorf("edges after the change = %v, want %v", g.Edges, want)
	}
}

// Every node showing a path imports, and is imported, on its own; a
// trailing slash on the root changes nothing.
func TestBuildSamePathImporters(t *testing.T) {
	files := []File{
		{NodeID: "a1", Path: "/ws/a.go", Content: "package a\nimport \"example.com/ws/b\"\n"},
		{NodeID: "a2", Path: "/ws/a.go", Content: "package a\nimport \"example.com/ws/b\"\n"},
		{NodeID: "b", Path: "/ws/b/b.go", Content: "package b\n"},
		{NodeID: "b-test", Path: "/ws/b/b_test.go", Content: "package b\n"},
	}
	g := Build("/ws/", files)
	want := []Edge{{"codegraph-a1-b", "a1", "b"}, {"codegraph-a2-b", "a2", "b"}}
	if !reflect.DeepEqual(g.Edges, want) {
		t.Errorf("edges = %v, want %v", g.Edges, want)
	}
	if n := g.Report.Nodes[2]; n.InDegree != 2 || !reflect.DeepEqual(n.ImportedBy, []string{"a.go", "a.go"}) {
		t.Errorf("b: inDegree %d importedBy %q, want 2 and a.go twice", n.InDegree, n.ImportedBy)
	}
}
