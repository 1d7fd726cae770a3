package htmlmeta

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestContentSummary(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"empty", "", ""},
		{"document", `<!doctype html><html><head><title>Board</title><style>.a { color: red }</style>` +
			`<script>var hidden = "<p>no</p>";</script></head><body><h1>Hello</h1><p>World &amp; <b>bold</b></p>` +
			`<!-- a comment --><noscript>enable JS</noscript></body></html>`, "Board Hello World & bold"},
		{"fragment", "<section><h2>Q3</h2><ul><li>one</li><li>two</li></ul></section>", "Q3 one two"},
		{"every tag separates", "<span>Re</span><span>port</span>", "Re port"},
		{"entities", "&lt;b&gt; &copy; &#169; &#x41;&nbsp;&nbsp;z", "<b> © © A z"},
		{"whitespace", "  a\n\n\t b  <br>  c\u00a0\u00a0d ", "a b c d"},
		{"attributes are not text", `<img alt="picture" src="/a.png"><a title="t" href="/x">link</a>`, "link"},
		{"unclosed script", "<p>shown</p><script>if (a < b) {", "shown"},
		{"plain text", "just words", "just words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(Input{HTML: tt.html}).ContentSummary; got != tt.want {
				t.Errorf("ContentSummary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTruncation(t *testing.T) {
	long := strings.Repeat("word ", 400) // 2000 runes
	sc := Derive(Input{HTML: "<p>" + long + "</p>"})
	if n := utf8.RuneCountInString(sc.ContentSummary); n > MaxContentSummary || n < MaxContentSummary-4 {
		t.Errorf("ContentSummary has %d runes, want about %d", n, MaxContentSummary)
	}
	if !strings.HasSuffix(sc.ContentSummary, "...") || !strings.HasPrefix(long, strings.TrimSuffix(sc.ContentSummary, "...")) {
		t.Errorf("ContentSummary ends %q, want the text's start then ...", sc.ContentSummary[len(sc.ContentSummary)-12:])
	}
	if n := utf8.RuneCountInString(sc.AgentSummary); n > MaxAgentSummary {
		t.Errorf("AgentSummary has %d runes, more than %d", n, MaxAgentSummary)
	}
	// Runes, not bytes: a cut never splits a character.
	wide := Derive(Input{HTML: strings.Repeat("é", 2000)}).ContentSummary
	if !utf8.ValidString(wide) || utf8.RuneCountInString(wide) != MaxContentSummary {
		t.Errorf("ContentSummary of 2000 é has %d runes (valid %v)", utf8.RuneCountInString(wide), utf8.ValidString(wide))
	}
	exact := strings.Repeat("x", MaxContentSummary)
	if got := Derive(Input{HTML: exact}).ContentSummary; got != exact {
		t.Error("a text of exactly the limit was cut")
	}
	agent := Derive(Input{Summary: strings.Repeat("s", 700), HTML: strings.Repeat("h", 700)}).AgentSummary
	if utf8.RuneCountInString(agent) != MaxAgentSummary || !strings.HasSuffix(agent, "...") {
		t.Errorf("AgentSummary of 1400+ runes has %d runes, ends %q", utf8.RuneCountInString(agent), agent[len(agent)-5:])
	}
}

func TestEmbeddedNodeIDs(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want []string
	}{
		{"none", Input{HTML: "<p>nothing here</p>"}, []string{}},
		{"every prefix", Input{HTML: `<div data-node-id="node-mx2wj0i8-zt5j">graph-42, JSON-RENDER-a1, web-artifact-x, mcp-app-calc, group-team</div>`},
			[]string{"node-mx2wj0i8-zt5j", "graph-42", "JSON-RENDER-a1", "web-artifact-x", "mcp-app-calc", "group-team"}},
		{"word boundaries", Input{HTML: "nodes-x xnode-1 node- node-a- node_b-1 node-ok."}, []string{"node-a", "node-ok"}},
		{"not in tag or attribute names", Input{HTML: `<node-card data-node-id="x" class="group-header">t</node-card>`}, []string{"group-header"}},
		{"in comments and entities", Input{HTML: `<!-- node-c -->&#110;ode-d`}, []string{"node-c", "node-d"}},
		{"found in scripts and attributes", Input{HTML: `<a href="#node-a"></a><script>show("node-b")</script>`}, []string{"node-a", "node-b"}},
		{"explicit first, then singles, then found, unique", Input{
			HTML:            "node-found node-x",
			ExplicitNodeIDs: []string{" node-x ", "", "custom-id", "node-x"},
			EmbeddedNodeID:  "node-e", EmbeddedGraphID: "graph-g", SourceNodeID: "custom-id",
		}, []string{"node-x", "custom-id", "node-e", "graph-g", "node-found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(tt.in).EmbeddedNodeIDs; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("EmbeddedNodeIDs = %q, want %q", got, tt.want)
			}
		})
	}
	var many strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&many, "node-%d ", i)
	}
	got := Derive(Input{HTML: many.String(), ExplicitNodeIDs: []string{"first"}}).EmbeddedNodeIDs
	if len(got) != MaxEmbedded || got[0] != "first" || got[1] != "node-0" || got[11] != "node-10" {
		t.Errorf("30 ids gave %q, want first then node-0 … node-10", got)
	}
}

func TestEmbeddedURLs(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want []string
	}{
		{"kinds of URL", Input{HTML: `<iframe src="https://example.com/a"></iframe><img src="//cdn.example.com/i.png">` +
			`<a href="/api/canvas/surface/node-1">s</a><link href="ui://calc/app.html"><script src=" http://x.test/s.js "></script>`},
			[]string{"https://example.com/a", "//cdn.example.com/i.png", "/api/canvas/surface/node-1", "ui://calc/app.html", "http://x.test/s.js"}},
		{"not embeddable", Input{HTML: `<a href="relative/page.html">a</a><a href="#top">b</a><a href="javascript:alert(1)">c</a>` +
			`<a href="mailto:a@b.c">d</a><img src="data:image/png;base64,AA"><a href="https://">e</a><a href="">f</a>`}, []string{}},
		{"only src and href", Input{HTML: `<form action="/post"></form><div data-src="/x" poster="/y"></div>`}, []string{}},
		{"case of the scheme", Input{HTML: `<a href="HTTPS://EXAMPLE.COM/">x</a>`}, []string{"HTTPS://EXAMPLE.COM/"}},
		{"svg href", Input{HTML: `<svg><a xlink:href="https://example.com/svg"><text>t</text></a><image href="/img.svg"/></svg>`},
			[]string{"https://example.com/svg", "/img.svg"}},
		{"explicit first, unique", Input{HTML: `<a href="/a">a</a><a href="/a">a</a><a href="/b">b</a>`, ExplicitURLs: []string{"/b", " ", "anything goes"}},
			[]string{"/b", "anything goes", "/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(tt.in).EmbeddedURLs; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("EmbeddedURLs = %q, want %q", got, tt.want)
			}
		})
	}
	var many strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&many, `<img src="/img/%d.png">`, i)
	}
	if got := Derive(Input{HTML: many.String()}).EmbeddedURLs; len(got) != MaxEmbedded || got[11] != "/img/11.png" {
		t.Errorf("20 URLs gave %q, want the first %d", got, MaxEmbedded)
	}
}

func TestAgentSummary(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"empty", Input{}, ""},
		{"content only", Input{HTML: "<h1>Revenue</h1>"}, "Revenue"},
		{"all parts in order", Input{
			HTML:      `<h1>Q3 board</h1><iframe src="/api/canvas/surface/node-b1"></iframe>`,
			Summary:   "Quarterly numbers.",
			Primitive: "status-report",
		}, "HTML primitive: status-report\nQuarterly numbers.\nQ3 board\nEmbedded canvas nodes: node-b1\nEmbedded URLs: /api/canvas/surface/node-b1"},
		{"summary before description", Input{Summary: "S", Description: "D"}, "S"},
		{"description when summary is blank", Input{Summary: "  ", Description: "D"}, "D"},
		{"each line once", Input{HTML: "<p>Same text</p>", Summary: "Same text"}, "Same text"},
		{"explicit wins, verbatim", Input{HTML: "<p>page</p>", Summary: "S", AgentSummary: "  Read the chart first.  "}, "Read the chart first."},
		{"blank explicit is derived", Input{HTML: "<p>page</p>", AgentSummary: " \n "}, "page"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(tt.in).AgentSummary; got != tt.want {
				t.Errorf("AgentSummary = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAgentSummaryFollowsHTML is the fix over the reference: replacing
// the HTML replaces the derived agent summary, whatever it was before.
func TestAgentSummaryFollowsHTML(t *testing.T) {
	first := Derive(Input{HTML: "<h1>Old revenue chart</h1>", Summary: "Dashboard"})
	second := Derive(Input{HTML: "<h1>New churn table</h1>", Summary: "Dashboard"})
	if first.AgentSummary != "Dashboard\nOld revenue chart" || second.AgentSummary != "Dashboard\nNew churn table" {
		t.Errorf("agent summaries %q then %q; the second must describe the new HTML", first.AgentSummary, second.AgentSummary)
	}
}

func TestEmptyListsAreNotNil(t *testing.T) {
	sc := Derive(Input{})
	if sc.EmbeddedNodeIDs == nil || sc.EmbeddedURLs == nil {
		t.Errorf("empty lists are nil (%v, %v); they must encode as []", sc.EmbeddedNodeIDs, sc.EmbeddedURLs)
	}
}

func TestDeepNesting(t *testing.T) {
	doc := strings.Repeat("<div>", 100000) + "deep" + strings.Repeat("</div>", 100000)
	if got := Derive(Input{HTML: doc}).ContentSummary; got != "deep" {
		t.Errorf("ContentSummary = %q", got)
	}
}

func BenchmarkDerive(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("<!doctype html><html><head><title>Board</title><style>p{}</style></head><body>")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&doc, `<section><h2>Part %d</h2><p>Some text about node-%d and <a href="/x/%d">a link</a>.</p></section>`, i, i, i)
	}
	doc.WriteString("</body></html>")
	in := Input{HTML: doc.String(), Summary: "A long board", Primitive: "explainer"}
	b.SetBytes(int64(len(in.HTML)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Derive(in)
	}
}
