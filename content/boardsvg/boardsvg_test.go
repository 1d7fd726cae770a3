package boardsvg

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// sample is a board with one node of each kind the renderer treats on its
// own, a group, and edges of every kind and style.
func sample(theme string) Board {
	return Board{Theme: theme, Nodes: []Node{
		{ID: "grp", Kind: "group", Title: "Release", X: 0, Y: 0, W: 760, H: 420, Color: "#22c55e", Children: []string{"plan", "tests"}},
		{ID: "plan", Kind: "markdown", Title: "Plan", X: 40, Y: 60, W: 320, H: 300, ZIndex: 2,
			Text: "# Ship it\n\nWe ship on Friday once the tests are green and the docs say what changed.\n\n- [ ] green\n- [x] docs\n* review\n\n```\ngo test ./...\n```"},
		{ID: "tests", Kind: "file", Title: "main_test.go", X: 400, Y: 60, W: 320, H: 200, ZIndex: 1,
			Subtitle: "cmd/main_test.go", Text: "package main\n\nfunc TestMain(t *testing.T) {\n\tt.Log(\"hi\")\n}"},
		{ID: "status", Kind: "status", Title: "Agent", X: 820, Y: 40, W: 300, H: 120, Phase: "running", Tool: "go test", Text: "Running the suite", Level: "warn"},
		{ID: "log", Kind: "ledger", Title: "Checks", X: 820, Y: 200, W: 300, H: 160, Text: "lint ok", Rows: []Row{{"Passed", "41"}, {"Failed", "0"}}},
		{ID: "diff", Kind: "diff", Title: "fix.diff", X: 40, Y: 480, W: 420, H: 160,
			Text: "--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n-old line\n+new line\n context"},
		{ID: "web", Kind: "webpage", Title: "Docs", X: 520, Y: 480, W: 300, H: 140, Subtitle: "https://example.com/docs", Text: "Example docs page."},
		{ID: "min", Kind: "trace", Title: "collapsed", X: 880, Y: 480, W: 240, H: 160, Collapsed: true},
	}, Edges: []Edge{
		{ID: "e1", From: "plan", To: "tests", Kind: "flow", Label: "then"},
		{ID: "e2", From: "tests", To: "plan", Kind: "depends-on", Style: "dotted"},
		{ID: "e3", From: "status", To: "log", Kind: "relation"},
		{ID: "e4", From: "diff", To: "web", Kind: "references", Label: "see"},
		{ID: "e5", From: "log", To: "log", Kind: "flow", Label: "retry"},
		{ID: "e6", From: "plan", To: "gone", Kind: "flow"},
		{ID: "e7", From: "web", To: "min", Kind: "relation", Style: "dashed"},
	}}
}

func TestRenderGolden(t *testing.T) {
	region, err := ParseRegion("0,0,760,420")
	if err != nil {
		t.Fatal(err)
	}
	only, missing := sample("dark").Only([]string{"status", "log"})
	if len(missing) != 0 {
		t.Fatalf("missing %v", missing)
	}
	full := sample("dark")
	cases := []struct {
		name  string
		board Board
		view  Rect
	}{
		{"empty", Board{}, Board{}.Fit()},
		{"board-dark", full, full.Fit()},
		{"board-light", sample("light"), sample("light").Fit()},
		{"board-high-contrast", sample("high-contrast"), sample("high-contrast").Fit()},
		{"only-status-log", only, only.Fit()},
		{"region-group", sample("dark").Within(region), region},
		{"hostile", hostile(), hostile().Fit()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.board, tc.view)
			mustBeSafeXML(t, got)
			if again := Render(tc.board, tc.view); !bytes.Equal(got, again) {
				t.Fatal("two renders of the same board differ")
			}
			path := filepath.Join("testdata", "golden", tc.name+".svg")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./content/boardsvg -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file (go test ./content/boardsvg -update rewrites it):\n%s", tc.name, got)
			}
		})
	}
}

// What each case must draw, asserted on the document rather than only on
// the golden bytes.
func TestRenderDraws(t *testing.T) {
	svg := string(Render(sample("dark"), sample("dark").Fit()))
	for _, want := range []string{
		`data-theme="dark"`, `.bg{fill:#081524}`, // the theme's background
		`class="group" data-id="grp"`, `stroke="#22c55e"`, `2 nodes`, // the frame in its colour
		`>Ship it</text>`, `class="h"`, `• review`, `☐ green`, `☑ docs`, `class="mono" x="52"`, // markdown
		`>Plan</text>`, `>MD</text>`, `>FILE</text>`, `>STATUS</text>`, `>LOG</text>`,
		`>RUNNING</text>`, `⚙ go test`, `class="warn"`, // status: phase, tool, level
		`>Passed</text>`, `text-anchor="end">41</text>`, // ledger rows
		`class="mono add"`, `class="mono del"`, `class="mono hunk"`, // diff
		`https://example.com/docs`,
		`marker-end="url(#arrow-flow)"`, `marker-end="url(#arrow-depends-on)"`,
		`stroke-dasharray="3 3"`, `stroke-dasharray="8 4"`, `>then</text>`, `>retry</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Groups lie beneath edges, edges beneath cards.
	g, e, n := strings.Index(svg, `data-id="grp"`), strings.Index(svg, `data-id="e1"`), strings.Index(svg, `class="node" data-id="plan"`)
	if !(g < e && e < n) {
		t.Errorf("draw order: group %d, edge %d, node %d", g, e, n)
	}
	// An edge to a node that is not drawn is left out; the two edges between
	// plan and tests bend apart (one curve), the loop is a cubic.
	if strings.Contains(svg, `data-id="e6"`) {
		t.Error("edge e6 to a missing node was drawn")
	}
	if !strings.Contains(svg, "Q") || !strings.Contains(svg, "C") {
		t.Error("no curve for the parallel edges or the loop")
	}
	// The collapsed node has a title bar only.
	if strings.Contains(svg, `<text class="mono" x="892"`) {
		t.Error("the collapsed node drew a body")
	}
	light := string(Render(sample("light"), sample("light").Fit()))
	if !strings.Contains(light, `.bg{fill:#F4EFE6}`) || !strings.Contains(light, `data-theme="light"`) {
		t.Error("light theme background missing")
	}
}

func TestSelection(t *testing.T) {
	b := sample("dark")
	only, missing := b.Only([]string{"grp", "nope", "web"})
	if !reflect.DeepEqual(missing, []string{"nope"}) {
		t.Errorf("missing = %v", missing)
	}
	var ids []string
	for _, n := range only.Nodes {
		ids = append(ids, n.ID)
	}
	if strings.Join(ids, ",") != "grp,plan,tests,web" {
		t.Errorf("a group brings its members, in layout order: %v", ids)
	}
	var edges []string
	for _, e := range only.Edges {
		edges = append(edges, e.ID)
	}
	if strings.Join(edges, ",") != "e1,e2" {
		t.Errorf("only edges between kept nodes: %v", edges)
	}
	fit := only.Fit()
	if fit != (Rect{-40, -40, 900, 700}) {
		t.Errorf("fit = %+v", fit)
	}

	within := b.Within(Rect{780, 0, 400, 380})
	ids = nil
	for _, n := range within.Nodes {
		ids = append(ids, n.ID)
	}
	if strings.Join(ids, ",") != "status,log" {
		t.Errorf("within: %v", ids)
	}
	edges = nil
	for _, e := range within.Edges {
		edges = append(edges, e.ID)
	}
	if strings.Join(edges, ",") != "e3,e5" {
		t.Errorf("within edges: %v", edges)
	}
}

func TestParseRegion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rect
		err  string
	}{
		{"0,0,100,50", Rect{0, 0, 100, 50}, ""},
		{" -10.5, 20 ,3e2,4 ", Rect{-10.5, 20, 300, 4}, ""},
		{"1,2,3", Rect{}, "four numbers"},
		{"1,2,3,4,5", Rect{}, "four numbers"},
		{"a,b,c,d", Rect{}, "finite"},
		{"0,0,NaN,1", Rect{}, "finite"},
		{"0,0,Inf,1", Rect{}, "finite"},
		{"0,0,1e400,1", Rect{}, "finite"},
		{"0,0,0,10", Rect{}, "positive"},
		{"0,0,10,-1", Rect{}, "positive"},
		{"0,0,1e8,10", Rect{}, "finite"},
		{"", Rect{}, "four numbers"},
	} {
		got, err := ParseRegion(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseRegion(%q) = %+v, %v", tc.in, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseRegion(%q) error = %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestParseIDs(t *testing.T) {
	for in, want := range map[string][]string{
		"a,b":          {"a", "b"},
		" a , b ,, a ": {"a", "b"},
		"":             nil,
		",,":           nil,
	} {
		if got := ParseIDs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("ParseIDs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrapAndTruncate(t *testing.T) {
	if got := wrap("the quick brown fox jumps", 10); !reflect.DeepEqual(got, []string{"the quick", "brown fox", "jumps"}) {
		t.Errorf("wrap at spaces: %q", got)
	}
	if got := wrap("abcdefghijklmnop", 5); !reflect.DeepEqual(got, []string{"abcde", "fghij", "klmno", "p"}) {
		t.Errorf("wrap a long word: %q", got)
	}
	if got := truncate("héllo wörld", 6); got != "héllo…" {
		t.Errorf("truncate: %q", got)
	}
	lines := layout("markdown", strings.Repeat("word ", 200), 100, 3)
	if len(lines) != 3 || !strings.HasSuffix(lines[2].text, "…") {
		t.Errorf("a cut text ends with an ellipsis: %+v", lines)
	}
}

// hostile is a board whose every string tries to break out of the
// document: markup, entities, quotes, control characters, invalid UTF-8.
func hostile() Board {
	evil := []string{
		`</text><script>alert(1)</script>`,
		`"><foreignObject><body onload=alert(1)>`,
		`' onmouseover='alert(1)`,
		"&amp; &lt; &#x3C; ]]> <![CDATA[x]]>",
		"nul\x00 bell\x07 esc\x1b del\x7f c1\u0085 \xff\xfe bad utf8 \ufffe\uffff",
		"<?xml-stylesheet href='x'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>&e;",
		"url(javascript:alert(1))",
	}
	b := Board{Theme: `dark"><script>`}
	for i, s := range evil {
		b.Nodes = append(b.Nodes, Node{ID: s, Kind: s, Title: s, Text: s + "\n" + s, Subtitle: s, Phase: s, Level: s, Tool: s,
			Color: s, Rows: []Row{{s, s}}, X: float64(i * 300), W: 280, H: 240})
	}
	b.Nodes = append(b.Nodes, Node{ID: "g", Kind: "group", Title: evil[0], Color: evil[6], X: -100, Y: -100, W: 3000, H: 600, Children: evil})
	for i := range evil {
		b.Edges = append(b.Edges, Edge{ID: evil[i], From: evil[i], To: evil[(i+1)%len(evil)], Kind: evil[i], Label: evil[i], Style: evil[i]})
	}
	return b
}

func TestHostileTextStaysText(t *testing.T) {
	svg := Render(hostile(), hostile().Fit())
	mustBeSafeXML(t, svg)
	s := string(svg)
	for _, bad := range []string{"<script", "<foreignObject", "<!DOCTYPE", "<?xml-stylesheet", "\x00", "\x07"} {
		if strings.Contains(s, bad) {
			t.Errorf("the document contains %q", bad)
		}
	}
	// The text is there, escaped.
	if !strings.Contains(s, "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile title is not shown as escaped text")
	}
}

// allowed are the elements and attributes the renderer writes; anything
// else in a document is a bug (or an injection).
var (
	allowedElements = map[string]bool{"svg": true, "title": true, "desc": true, "style": true, "defs": true, "marker": true,
		"path": true, "rect": true, "text": true, "g": true, "clipPath": true, "circle": true}
	allowedAttrs = map[string]bool{"xmlns": true, "width": true, "height": true, "viewBox": true, "data-theme": true,
		"class": true, "x": true, "y": true, "d": true, "fill": true, "fill-opacity": true, "stroke": true,
		"stroke-dasharray": true, "marker-end": true, "rx": true, "id": true, "refX": true, "refY": true,
		"markerWidth": true, "markerHeight": true, "orient": true, "text-anchor": true, "data-id": true,
		"data-kind": true, "clip-path": true, "cx": true, "cy": true, "r": true}
)

// mustBeSafeXML parses the document strictly with encoding/xml and checks
// every element and attribute against the renderer's own vocabulary.
func mustBeSafeXML(t testing.TB, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root is %v", el.Name)
				}
			}
			depth++
			if !allowedElements[el.Name.Local] {
				t.Fatalf("element %q in the document", el.Name.Local)
			}
			for _, a := range el.Attr {
				if !allowedAttrs[a.Name.Local] || a.Name.Space != "" && a.Name.Local != "xmlns" {
					t.Fatalf("attribute %v on %s", a.Name, el.Name.Local)
				}
				if !strings.HasPrefix(a.Name.Local, "data-") && strings.Contains(strings.ToLower(a.Value), "javascript:") {
					t.Fatalf("attribute %s=%q", a.Name.Local, a.Value)
				}
				if (a.Name.Local == "clip-path" || a.Name.Local == "marker-end") && !strings.HasPrefix(a.Value, "url(#") {
					t.Fatalf("%s=%q refers outside the document", a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			depth--
		case xml.Directive:
			t.Fatalf("directive <!%s> in the document", el)
		case xml.ProcInst:
			if el.Target != "xml" {
				t.Fatalf("processing instruction %q", el.Target)
			}
		}
	}
	if roots != 1 || depth != 0 {
		t.Fatalf("%d roots, depth %d at the end", roots, depth)
	}
}

// FuzzRender builds a board from the fuzzer's strings and numbers: whatever
// they are, the document is well-formed, safe XML.
func FuzzRender(f *testing.F) {
	f.Add("Plan", "# Ship it\n- [ ] green", "markdown", "#22c55e", "then", "flow", "dashed", 0.0, 0.0, 320.0, 200.0, false)
	f.Add(`</text><script>`, "\x00\xff", "group", `red" onload="x`, "<b>", "depends-on", "dotted", -1e12, 5e9, -3.0, 0.0, true)
	f.Add("", "", "", "", "", "", "", 0.0, 0.0, 0.0, 0.0, false)
	f.Fuzz(func(t *testing.T, title, text, kind, color, label, ekind, style string, x, y, w, h float64, collapsed bool) {
		b := Board{Theme: kind, Nodes: []Node{
			{ID: title, Kind: kind, Title: title, Text: text, Subtitle: label, Color: color, X: x, Y: y, W: w, H: h,
				Collapsed: collapsed, Phase: label, Level: style, Tool: text, Rows: []Row{{title, text}}, Children: []string{title, "b"}},
			{ID: "b", Kind: "group", Title: text, Color: color, X: y, Y: x, W: h, H: w},
		}, Edges: []Edge{
			{ID: label, From: title, To: "b", Kind: ekind, Label: label, Style: style},
			{ID: "loop", From: "b", To: "b", Kind: ekind, Label: text},
			{ID: "back", From: "b", To: title, Kind: ekind},
		}}
		mustBeSafeXML(t, Render(b, b.Fit()))
		only, _ := b.Only([]string{title})
		mustBeSafeXML(t, Render(only, only.Fit()))
		if r, err := ParseRegion(fmt.Sprintf("%v,%v,%v,%v", x, y, w, h)); err == nil {
			mustBeSafeXML(t, Render(b.Within(r), r))
		}
	})
}
