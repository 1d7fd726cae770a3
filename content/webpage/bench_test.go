package webpage

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// benchPage is an article page of about 100 KB: navigation, scripts,
// headings, paragraphs with links, lists and a table.
func benchPage() []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><title>Benchmark page</title>
<meta property="og:title" content="A long article"><meta name="description" content="Many sections.">
<meta property="og:image" content="/cover.png"><script>window.analytics = {};</script></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li><li><a href="/about">About</a></li></ul></nav>
<article><h1>A long article</h1>`)
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, `<h2>Section %d</h2>
<p>This is paragraph %d of the article. It talks about <a href="/topic/%d">topic %d</a> at some length,
with <em>emphasis</em>, <strong>strong words</strong> and <code>inline code</code>, so that readability
finds a body of text worth keeping and the converter has inline elements to write.</p>
<ul><li>First point of section %d</li><li>Second point, with a <a href="https://example.org/%d">link</a></li></ul>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>row</td><td>%d</td></tr></table>
<script>track(%d)</script>
`, i, i, i, i, i, i, i, i)
	}
	b.WriteString(`</article><footer>Footer links and copyright</footer></body></html>`)
	return []byte(b.String())
}

// BenchmarkRenderHTML measures decoding, parsing, metadata, readability
// and Markdown conversion of one 100 KB page, which every fetch of such a
// page pays on top of the network.
func BenchmarkRenderHTML(b *testing.B) {
	page := benchPage()
	base, _ := url.Parse("https://example.com/articles/long")
	f, err := NewFetcher(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		p := f.renderHTML(page, "text/html; charset=utf-8", base, false)
		if p.content == "" || p.title == nil {
			b.Fatal("no content")
		}
	}
}
