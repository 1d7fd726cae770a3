// Package markdown renders markdown to HTML that is safe to put in a page,
// and reduces markdown to plain text for summaries and search.
//
// Rendering follows GitHub-flavoured markdown (tables, strikethrough, task
// lists, autolinks) with single newlines kept as line breaks. Raw HTML in
// the source is allowed through the markdown stage and then sanitised
// together with the rest, so harmless tags such as <kbd> or <details> keep
// working while scripts, event handlers, frames, style attributes and
// javascript: or data: links are removed.
package markdown

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	xhtml "golang.org/x/net/html"
)

// linkRel is the rel attribute of every link in rendered markdown: links
// in user and agent content are not endorsements (nofollow), and the pages
// they open get neither a handle on the canvas window nor its address.
const linkRel = "nofollow noopener noreferrer"

// Renderer converts markdown to sanitised HTML. Its markdown engine and
// sanitising policy are built once; a Renderer is safe for concurrent use.
type Renderer struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

// NewRenderer returns a Renderer.
func NewRenderer() *Renderer {
	md := goldmark.New(
		goldmark.WithExtensions(
			// GitHub-flavoured markdown; table cells are aligned with the
			// align attribute, as the sanitiser drops style attributes.
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.TaskList,
			extension.Linkify,
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(linkRelTransformer{}, 1000)),
		),
		goldmark.WithRendererOptions(
			html.WithHardWraps(),
			html.WithUnsafe(), // raw HTML is passed on to the sanitiser, not trusted
		),
	)
	return &Renderer{md: md, policy: newPolicy()}
}

// newPolicy returns the sanitising policy: bluemonday's policy for user
// content, plus what rendered markdown needs.
func newPolicy() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	// Keyboard keys, common in how-to notes.
	p.AllowElements("kbd")
	// Fenced code blocks name their language for client-side highlighting.
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w.+#-]+$`)).OnElements("code")
	// Task list items; an input left without attributes is dropped.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^(|checked|disabled)$`)).OnElements("input")
	// Links from markdown carry linkRel already; raw <a> tags get
	// "nofollow noreferrer" (noreferrer implies noopener in browsers).
	p.AllowAttrs("rel").Matching(regexp.MustCompile(`^` + linkRel + `$`)).OnElements("a")
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	return p
}

// Render converts markdown to sanitised HTML.
func (r *Renderer) Render(src string) (string, error) {
	var buf bytes.Buffer
	if err := r.md.Convert([]byte(src), &buf); err != nil {
		return "", fmt.Errorf("markdown: render: %w", err)
	}
	return r.policy.SanitizeReader(&buf).String(), nil
}

// PlainText reduces markdown to its text: the words of the rendered
// document, without markup, with all runs of whitespace collapsed to one
// space. Images stand as their alt text, and task list items read "[x]" or
// "[ ]". The result is cut to at most
// max characters, ending in "…" when cut; max <= 0 means no limit. It is
// plain text, not HTML: it must be escaped before it is put in a page.
func (r *Renderer) PlainText(src string, max int) string {
	h, err := r.Render(src)
	if err != nil {
		return truncate(strings.Join(strings.Fields(src), " "), max)
	}
	var b strings.Builder
	z := xhtml.NewTokenizer(strings.NewReader(h))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return truncate(strings.Join(strings.Fields(b.String()), " "), max)
		case xhtml.TextToken:
			b.Write(z.Text())
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken, xhtml.EndTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "img":
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					if string(k) == "alt" {
						b.WriteByte(' ')
						b.Write(v)
						b.WriteByte(' ')
					}
				}
			case "input":
				checked := false
				for hasAttr {
					var k []byte
					k, _, hasAttr = z.TagAttr()
					checked = checked || string(k) == "checked"
				}
				if checked {
					b.WriteString("[x] ")
				} else {
					b.WriteString("[ ] ")
				}
			default:
				if !inline[string(name)] {
					b.WriteByte(' ') // block boundaries and <br> separate words
				}
			}
		}
	}
}

// inline lists the elements that do not separate words in PlainText.
var inline = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true,
	"code": true, "del": true, "dfn": true, "em": true, "i": true, "ins": true,
	"kbd": true, "mark": true, "q": true, "s": true, "samp": true, "small": true,
	"span": true, "strike": true, "strong": true, "sub": true, "sup": true,
	"tt": true, "u": true, "var": true, "wbr": true,
}

var defaultRenderer = NewRenderer()

// Render converts markdown to sanitised HTML with a shared Renderer.
func Render(src string) (string, error) { return defaultRenderer.Render(src) }

// PlainText reduces markdown to plain text with a shared Renderer; see
// (*Renderer).PlainText.
func PlainText(src string, max int) string { return defaultRenderer.PlainText(src, max) }

// truncate cuts s to at most max runes, the last being "…" when cut.
func truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// linkRelTransformer sets linkRel on the links and autolinks of a
// document.
type linkRelTransformer struct{}

func (linkRelTransformer) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n.Kind() {
			case ast.KindLink, ast.KindAutoLink:
				n.SetAttributeString("rel", []byte(linkRel))
			}
		}
		return ast.WalkContinue, nil
	})
}
