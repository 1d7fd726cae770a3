package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestRenderGolden renders each testdata/golden/*.md and compares the
// result with the .html file beside it.
func TestRenderGolden(t *testing.T) {
	sources, err := filepath.Glob(filepath.Join("testdata", "golden", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) == 0 {
		t.Fatal("no golden sources found")
	}
	for _, src := range sources {
		name := strings.TrimSuffix(filepath.Base(src), ".md")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Render(string(in))
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			golden := strings.TrimSuffix(src, ".md") + ".html"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Render(%s) =\n%s\nwant (%s):\n%s", src, got, golden, want)
			}
		})
	}
}

// TestRenderFeatures pins the markup of each feature the canvas relies on,
// independently of the golden files, so that an -update cannot silently
// lose one.
func TestRenderFeatures(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"table", "| a | b |\n|:--|--:|\n| 1 | 2 |",
			"<table>\n<thead>\n<tr>\n<th align=\"left\">a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n" +
				"<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>\n"},
		{"task list", "- [x] done\n- [ ] todo",
			"<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n" +
				"<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n</ul>\n"},
		{"fenced code with language", "```go\nx := \"<y>\"\n```",
			"<pre><code class=\"language-go\">x := &#34;&lt;y&gt;&#34;\n</code></pre>\n"},
		{"autolink", "go to https://example.com now",
			"<p>go to <a href=\"https://example.com\" rel=\"nofollow noopener noreferrer\">https://example.com</a> now</p>\n"},
		{"link", "[docs](https://example.com/docs)",
			"<p><a href=\"https://example.com/docs\" rel=\"nofollow noopener noreferrer\">docs</a></p>\n"},
		{"hard break", "one\ntwo", "<p>one<br>\ntwo</p>\n"},
		{"strikethrough", "~~old~~", "<p><del>old</del></p>\n"},
		{"heading id", "## Read Me", "<h2 id=\"read-me\">Read Me</h2>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Render(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRenderNeutralisesXSS(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"script", "<script>alert(1)</script>", ""},
		{"script inline", "hi <script>alert(1)</script> there", "<p>hi  there</p>\n"},
		{"img onerror", `<img src="x" onerror="alert(1)">`, `<img src="x">`},
		{"javascript link", "[x](javascript:alert(1))", "<p><a rel=\"nofollow noopener noreferrer\">x</a></p>\n"},
		{"javascript link mixed case", "[x](JaVaScRiPt:alert(1))", "<p><a rel=\"nofollow noopener noreferrer\">x</a></p>\n"},
		{"javascript autolink", "<javascript:alert(1)>", "<p><a rel=\"nofollow noopener noreferrer\">javascript:alert(1)</a></p>\n"},
		{"iframe", `<iframe src="https://example.com"></iframe>`, ""},
		{"data URL link", `<a href="data:text/html;base64,PHNjcmlwdD4=">d</a>`, "<p>d</p>\n"},
		{"data URL image", "![d](data:image/svg+xml;base64,PHN2Zz4=)", "<p><img alt=\"d\"></p>\n"},
		{"event handler on a link", `<a href="https://example.com" onclick="steal()">a</a>`,
			"<p><a href=\"https://example.com\" rel=\"nofollow noreferrer\">a</a></p>\n"},
		{"style attribute", `<p style="background:url(javascript:x)">s</p>`, "<p>s</p>"},
		{"style element", "<style>body{display:none}</style>", ""},
		{"form input", `<input type="text" name="q">`, ""},
		{"object", `<object data="x.swf"></object>`, "<p></p>\n"},
		{"svg onload", `<svg onload="alert(1)"><circle r="1"/></svg>`, "<p></p>\n"},
		{"class other than language", "<code class=\"evil\">c</code>", "<p><code>c</code></p>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Render(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
			}
			for _, bad := range []string{"<script", "onerror", "onclick", "onload", "javascript:alert(1)\"", "<iframe", "data:", "style="} {
				if strings.Contains(strings.ToLower(got), strings.ToLower(bad)) {
					t.Errorf("Render(%q) = %q, contains %q", tt.in, got, bad)
				}
			}
		})
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"# Title\n\nSome **bold** and _em_ text.\n\n- one\n- two", 0, "Title Some bold and em text. one two"},
		{"a\nb\n\n\n   c", 0, "a b c"},
		{"foo**bar**baz `code`", 0, "foobarbaz code"},
		{"- [x] done\n- [ ] todo", 0, "[x] done [ ] todo"},
		{"| a | b |\n|---|---|\n| 1 | 2 |", 0, "a b 1 2"},
		{"![a cat](cat.png) [link](https://x.org)", 0, "a cat link"},
		{"Tom &amp; Jerry &lt;3 `<b>`", 0, "Tom & Jerry <3 <b>"},
		{"<script>alert(1)</script>visible", 0, "visible"},
		{"```\nline 1\nline 2\n```", 0, "line 1 line 2"},
		{"one two three four", 9, "one two …"},
		{"héllo wörld", 5, "héll…"},
		{"short", 5, "short"},
		{"short", -1, "short"},
		{"", 10, ""},
	}
	for _, tt := range tests {
		if got := PlainText(tt.in, tt.max); got != tt.want {
			t.Errorf("PlainText(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestRendererConcurrent renders from many goroutines at once; with -race
// it checks that a Renderer can be shared.
func TestRendererConcurrent(t *testing.T) {
	r := NewRenderer()
	src := "# T\n\n| a |\n|---|\n| b |\n\n- [x] c\n\nhttps://example.com <b onclick=x>d</b>"
	want, err := r.Render(src)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if got, err := r.Render(src); err != nil || got != want {
					errs <- got
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("concurrent Render = %q, want %q", got, want)
	}
}

func FuzzRender(f *testing.F) {
	f.Add("# h\n\n<script>x</script>")
	f.Add("[a](javascript:b) <img src=x onerror=y>")
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Render(src)
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		if strings.Contains(strings.ToLower(out), "<script") {
			t.Fatalf("Render(%q) = %q, contains <script", src, out)
		}
		_ = PlainText(src, 50)
	})
}

// benchDoc returns a markdown document of about size bytes mixing the
// features the canvas uses.
func benchDoc(size int) string {
	const part = "## Section\n\nSome *emphasis*, **strong** text, `code` and a [link](https://example.com).\n" +
		"A second line with https://example.org/autolink and ~~strike~~.\n\n" +
		"| col a | col b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\n" +
		"- [x] done\n- [ ] todo\n  - nested\n\n" +
		"```go\nfunc f() int { return 1 }\n```\n\n> quoted <kbd>text</kbd>\n\n"
	return strings.Repeat(part, size/len(part)+1)
}

func BenchmarkRender100KB(b *testing.B) {
	r := NewRenderer()
	doc := benchDoc(100 << 10)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := r.Render(doc); err != nil {
			b.Fatal(err)
		}
	}
}
