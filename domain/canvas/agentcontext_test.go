package canvas

import (
	"encoding/json"
	"strings"
	"testing"
)

// board describes a test canvas; state builds it through a transaction so
// the spatial index and layout order are the real ones.
type board struct {
	nodes []*Node
	edges []*Edge
	pins  []string
	anns  []*Annotation
}

func (b board) state(t testing.TB) *State {
	t.Helper()
	tx := Begin(NewState(), testEnv())
	for _, n := range b.nodes {
		tx.PutNode(n)
	}
	for _, e := range b.edges {
		tx.PutEdge(e)
	}
	for _, a := range b.anns {
		tx.PutAnnotation(a)
	}
	if b.pins != nil {
		tx.SetPins(b.pins)
	}
	st, _, _ := tx.Commit()
	return st
}

// nd is a node of type typ at (x,y) sized w×h, with data decoded from JSON
// (so values have the types a real request gives them).
func nd(t testing.TB, id, typ string, x, y, w, h float64, dataJSON string) *Node {
	t.Helper()
	data := map[string]any{}
	if dataJSON != "" {
		if err := json.Unmarshal([]byte(dataJSON), &data); err != nil {
			t.Fatalf("data %s: %v", dataJSON, err)
		}
	}
	return &Node{ID: id, Type: typ, Position: Point{x, y}, Size: Size{w, h}, ZIndex: 1, Data: data}
}

// jsonOf renders v as the HTTP layer does, without HTML escaping.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestNormalizeContextText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\r\nb\rc", "a\nb\nc"},
		{"a  \t\f\v b", "a b"},
		{"a \n\n\n  b", "a\nb"},
		{"line one  \n   line two", "line one\nline two"},
		{"  padded  ", "padded"},
		{"keep\u00a0\u00a0nbsp", "keep\u00a0\u00a0nbsp"},
		{"\ufeffbom\ufeff", "bom"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := normalizeContextText(tt.in); got != tt.want {
			t.Errorf("normalizeContextText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncateContextText(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"hello world", 20, "hello world"},
		{"hello world", 11, "hello world"},
		{"hello world", 5, "hell…"},
		{"hello world", 7, "hello…"}, // the cut "hello " loses its trailing space
		{"hello world", 1, "h"},
		{"hello world", 0, ""},
		{"héllo wörld", 4, "hél…"}, // characters, not bytes
		{"a\n\n\nb c d", 4, "a\nb…"},
	}
	for _, tt := range tests {
		if got := truncateContextText(tt.in, tt.max); got != tt.want {
			t.Errorf("truncateContextText(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestSummarizeNodeForAgentContext(t *testing.T) {
	tests := []struct {
		name, typ, data string
		max             int
		want            string
	}{
		{"markdown prefers rendered", "markdown", `{"rendered":"<p>x</p>","content":"# x"}`, 700, "<p>x</p>"},
		{"markdown content normalised", "markdown", `{"content":"# Over\n\n\n  view"}`, 700, "# Over\nview"},
		{"markdown without text", "markdown", `{"title":"T"}`, 700, ""},
		{"webpage header and body", "webpage",
			`{"url":"https://e.com/","pageTitle":"E","description":"D","status":"ready","statusCode":200,"content":"Body  text"}`, 1600,
			"URL: https://e.com/\nTitle: E\nDescription: D\nFetch: ready (200)\n\nBody text"},
		{"webpage body fills the rest of the budget", "webpage",
			`{"url":"https://a.b/","content":"0123456789abcdef"}`, 30, "URL: https://a.b/\n\n0123456789…"},
		{"webpage failed fetch", "webpage", `{"url":"https://x/","status":"error","error":"boom"}`, 1600,
			"URL: https://x/\nFetch: error\nError: boom"},
		{"webpage code without status", "webpage", `{"statusCode":404,"excerpt":"gone"}`, 1600, "Fetch: unknown (404)\n\ngone"},
		{"webpage text only", "webpage", `{"content":"just text"}`, 1600, "just text"},
		{"file with path", "file", `{"path":"/p/a.ts","fileContent":"import b;\n\n\nexport a;\n","content":"ignored"}`, 700,
			"Path: /p/a.ts\n\nimport b;\nexport a;"},
		{"file path only", "file", `{"path":"/p/missing.ts"}`, 700, "Path: /p/missing.ts"},
		{"inline file", "file", `{"content":"inline text"}`, 700, "inline text"},
		{"file text cut to what the path leaves", "file", `{"path":"/a","fileContent":"0123456789"}`, 15, "Path: /a\n\n0123…"},
		{"html agent summary", "html", `{"agentSummary":"Hello  world","contentSummary":"x"}`, 700, "Hello world"},
		{"html primitive", "html", `{"htmlPrimitive":"presentation","description":"Slides: One, Two."}`, 700,
			"HTML primitive: presentation\nSlides: One, Two."},
		{"html fields as JSON in fixed order", "html", `{"embeddedUrls":["u"],"title":"T","html":"<p>"}`, 700,
			`{"title":"T","embeddedUrls":["u"]}`},
		{"html with nothing", "html", `{"html":"<p>"}`, 700, "{}"},
		{"external app", "mcp-app",
			`{"title":"Diagram","mode":"ext-app","serverName":"Excalidraw","toolName":"create_view","toolInput":{"elements":[1,2,3]}}`, 700,
			"App: Diagram\nMode: ext-app\nSource: Excalidraw / create_view\nDiagram elements: 3"},
		{"app input keys sorted", "mcp-app", `{"hostMode":"hosted","toolInput":{"b":1,"a":2},"sessionStatus":"active"}`, 700,
			"Mode: hosted\nSession: active\nInput keys: a, b"},
		{"bare app", "mcp-app", `{}`, 700, "MCP App node"},
		{"chart app", "mcp-app", `{"chartConfig":{"title":"Sales","type":"bar","labels":["Q1","Q2",3]}}`, 700,
			"Chart: Sales (bar). Labels: Q1, Q2, 3"},
		{"chart app defaults", "mcp-app", `{"chartConfig":{}}`, 700, "Chart: Untitled chart (unknown). Labels:"}, // normalisation trims the trailing space
		{"web artifact", "mcp-app",
			`{"viewerType":"web-artifact","title":"App","content":"Web artifact: App\nApp source preview:\nexport default App","sourceFiles":["src/App.tsx"],"sourceFileCount":3,"artifactBytes":1234,"deps":["zod"],"path":"/p/app.html","projectPath":"/p/app","url":"/artifact?path=%2Fp%2Fapp.html"}`,
			700,
			"Web artifact: App\nApp source preview:\nexport default App\nSource files: src/App.tsx, +2 more\nArtifact bytes: 1234\nDependencies: zod\nPath: /p/app.html\nProject: /p/app\nURL: /artifact?path=%2Fp%2Fapp.html"},
		{"web artifact facts already in the summary", "mcp-app",
			`{"viewerType":"web-artifact","content":"Source files: a\nArtifact bytes: 9","sourceFiles":["a"],"artifactBytes":9}`, 700,
			"Source files: a\nArtifact bytes: 9"},
		{"web artifact without content", "mcp-app", `{"hostMode":"hosted","path":"/p/x.html","title":"X"}`, 700,
			"Web artifact: X\nPath: /p/x.html"},
		{"graph config", "graph", `{"graphConfig":{"title":"T","graphType":"line"},"spec":{"root":"card"}}`, 700,
			`Graph: {"graphType":"line","title":"T"}`},
		{"json-render spec", "json-render", `{"spec":{"root":"r","elements":{}}}`, 700, `{"elements":{},"root":"r"}`},
		{"json-render without spec", "json-render", `{"title":"t"}`, 700, "{}"},
		{"prompt falls back to content", "prompt", `{"text":"","content":"asked"}`, 700, "asked"},
		{"ledger data as JSON", "ledger", `{"title":"Decision Log","content":"- Chose SSE & <b>"}`, 700,
			`{"content":"- Chose SSE & <b>","title":"Decision Log"}`},
		{"status widget", "status", `{"phase":"idle","message":"","elapsed":0}`, 700, `{"elapsed":0,"message":"","phase":"idle"}`},
		{"default JSON truncated", "trace", `{"content":"abcdefghijklmnopqrstuvwxyz"}`, 12, `{"content":…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := nd(t, "n1", tt.typ, 0, 0, 100, 100, tt.data)
			if got := SummarizeNodeForAgentContext(n, tt.max); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestAgentBudget(t *testing.T) {
	for typ, want := range map[string]int{"webpage": 1600, "markdown": 700, "mcp-app": 700, "file": 700} {
		if got := AgentBudget(&Node{Type: typ}); got != want {
			t.Errorf("AgentBudget(%s) = %d, want %d", typ, got, want)
		}
	}
	long := nd(t, "w", "webpage", 0, 0, 1, 1, `{"content":"`+strings.Repeat("x", 2000)+`"}`)
	if got := len([]rune(*AgentContextNode(nil, long, false).Content)); got != 1600 {
		t.Errorf("webpage content length = %d, want 1600", got)
	}
	md := nd(t, "m", "markdown", 0, 0, 1, 1, `{"content":"`+strings.Repeat("x", 2000)+`"}`)
	if got := len([]rune(*AgentContextNode(nil, md, false).Content)); got != 700 {
		t.Errorf("markdown content length = %d, want 700", got)
	}
}

func TestAgentContextNode(t *testing.T) {
	tests := []struct {
		name, typ, data string
		withPosition    bool
		want            string
	}{
		{"file metadata", "file", `{"title":"a.ts","path":"/p/a.ts","fileContent":"x\n","lineCount":2,"updatedAt":""}`, true,
			`{"id":"n1","type":"file","kind":"file","title":"a.ts","content":"Path: /p/a.ts\n\nx","metadata":{"path":"/p/a.ts","lineCount":2},"position":{"x":10,"y":20}}`},
		{"no metadata, null content, no position", "markdown", `{}`, false,
			`{"id":"n1","type":"markdown","kind":"markdown","title":null,"content":null}`},
		{"empty title stays a string", "markdown", `{"title":"","content":"c"}`, false,
			`{"id":"n1","type":"markdown","kind":"markdown","title":"","content":"c"}`},
		{"web artifact drops empty lists, keeps reference key order", "mcp-app",
			`{"viewerType":"web-artifact","title":"A","deps":[],"sourceFiles":["src/App.tsx"],"sourceFileCount":1,"url":"/artifact?path=x","path":"/p/a.html","hostMode":"hosted"}`, false,
			`{"id":"n1","type":"mcp-app","kind":"web-artifact","title":"A","content":"Web artifact: A\nSource files: src/App.tsx\nPath: /p/a.html\nURL: /artifact?path=x","metadata":{"url":"/artifact?path=x","path":"/p/a.html","hostMode":"hosted","viewerType":"web-artifact","sourceFiles":["src/App.tsx"],"sourceFileCount":1}}`},
		{"html metadata", "html",
			`{"title":"W","agentSummary":"S","embeddedNodeIds":[],"embeddedUrls":["https://e.com"],"presentation":false,"slideCount":0}`, false,
			`{"id":"n1","type":"html","kind":"html","title":"W","content":"S","metadata":{"agentSummary":"S","presentation":false,"slideCount":0,"embeddedUrls":["https://e.com"]}}`},
		{"webpage metadata keeps nulls out", "webpage",
			`{"url":"https://e.com/","title":"E","pageTitle":null,"status":"ready","statusCode":200,"content":"hi"}`, false,
			`{"id":"n1","type":"webpage","kind":"webpage","title":"E","content":"URL: https://e.com/\nFetch: ready (200)\n\nhi","metadata":{"url":"https://e.com/","status":"ready","statusCode":200}}`},
		{"image metadata", "image", `{"src":"/p/i.png","path":"/p/i.png","mimeType":"image/png","title":"i.png"}`, false,
			`{"id":"n1","type":"image","kind":"image","title":"i.png","content":"{\"mimeType\":\"image/png\",\"path\":\"/p/i.png\",\"src\":\"/p/i.png\",\"title\":\"i.png\"}","metadata":{"src":"/p/i.png","path":"/p/i.png","mimeType":"image/png"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := nd(t, "n1", tt.typ, 10, 20, 100, 100, tt.data)
			if got := jsonOf(t, AgentContextNode(nil, n, tt.withPosition)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPinnedContext(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		st := board{}.state(t)
		want := `{"preamble":"","nodeIds":[],"count":0,"nodes":[]}`
		if got := jsonOf(t, PinnedContext(st)); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("pin order, kinds and empty content", func(t *testing.T) {
		st := board{
			nodes: []*Node{
				nd(t, "a", "markdown", 0, 0, 100, 100, `{"title":"Design Doc","content":"# Overview\n\nCapture the plan."}`),
				nd(t, "b", "mcp-app", 200, 0, 100, 100, `{"mode":"ext-app","title":"Diagram"}`),
				nd(t, "c", "markdown", 400, 0, 100, 100, `{}`),
				nd(t, "d", "markdown", 600, 0, 100, 100, `{"title":"Unpinned","content":"x"}`),
			},
			pins: []string{"b", "c", "a"},
		}.state(t)
		got := PinnedContext(st)
		wantPreamble := "[Context from \"Diagram\" (mcp-app/external-app)]\nApp: Diagram\nMode: ext-app\n" +
			"\n" +
			"[Context from \"Design Doc\" (markdown)]\n# Overview\nCapture the plan.\n" +
			"\n"
		if got.Preamble != wantPreamble {
			t.Errorf("preamble\n got  %q\n want %q", got.Preamble, wantPreamble)
		}
		if strings.Join(got.NodeIDs, ",") != "b,c,a" || got.Count != 3 || len(got.Nodes) != 3 {
			t.Fatalf("nodeIds=%v count=%d nodes=%d", got.NodeIDs, got.Count, len(got.Nodes))
		}
		if got.Nodes[1].Content != nil || got.Nodes[0].Kind != "external-app" {
			t.Errorf("nodes = %s", jsonOf(t, got.Nodes))
		}
		if p := got.Nodes[2].Position; p == nil || *p != (Point{0, 0}) {
			t.Errorf("position of a = %v", p)
		}
	})
	t.Run("title falls back to id", func(t *testing.T) {
		st := board{nodes: []*Node{nd(t, "n-9", "ledger", 0, 0, 1, 1, `{"content":"- x"}`)}, pins: []string{"n-9"}}.state(t)
		want := "[Context from \"n-9\" (ledger)]\n{\"content\":\"- x\"}\n\n"
		if got := PinnedContext(st).Preamble; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

func TestFieldsMarshalKeepsOrder(t *testing.T) {
	f := Fields{{"z", 1}, {"a", "<b>"}, {"m", []any{"x"}}}
	if got, want := jsonOf(t, f), `{"z":1,"a":"<b>","m":["x"]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if v, ok := f.Get("a"); !ok || v != "<b>" {
		t.Errorf("Get(a) = %v, %v", v, ok)
	}
	if got := jsonOf(t, Fields{}); got != "{}" {
		t.Errorf("empty = %s", got)
	}
}
