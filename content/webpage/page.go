package webpage

import (
	"bytes"
	"net/url"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
)

// Caps on what a snapshot keeps, the reference's numbers, in characters
// (runes).
const (
	maxContentRunes = 50_000
	excerptRunes    = 420
)

// page is what the body of a response says.
type page struct {
	title, description, image *string
	content, excerpt          string
	cut                       bool // content was longer than maxContentRunes
}

// decode returns body as UTF-8. The charset is the header's, else a BOM's
// or a <meta> tag's, else UTF-8 if the body is valid UTF-8, else
// windows-1252 — the order of the HTML standard, except that the UTF-8
// check looks at the whole body rather than its first kilobyte.
func decode(body []byte, contentType string, truncated bool) string {
	enc, _, certain := charset.DetermineEncoding(body, contentType)
	if !certain && validUTF8(body, truncated) {
		enc = encoding.Nop
	}
	if enc == encoding.Nop {
		return strings.ToValidUTF8(string(trimPartialRune(body, truncated)), "\uFFFD")
	}
	// A body cut at the cap may end inside a multi-byte character, which
	// some decoders refuse; drop up to three bytes to get past it.
	for drop := 0; drop < 4 && drop < len(body); drop++ {
		if b, err := enc.NewDecoder().Bytes(body[:len(body)-drop]); err == nil {
			return strings.ToValidUTF8(string(b), "\uFFFD")
		}
		if !truncated {
			break
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// validUTF8 reports whether b is UTF-8, allowing a rune cut off at the end
// of a truncated body.
func validUTF8(b []byte, truncated bool) bool {
	return utf8.Valid(trimPartialRune(b, truncated))
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of a body
// that was cut at the byte cap.
func trimPartialRune(b []byte, truncated bool) []byte {
	if !truncated {
		return b
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// renderHTML extracts the metadata, the readable content as Markdown and
// the excerpt of an HTML page whose URL is base.
func (f *Fetcher) renderHTML(body []byte, contentType string, base *url.URL, truncated bool) page {
	doc, err := html.Parse(strings.NewReader(decode(body, contentType, truncated)))
	if err != nil { // html.Parse fails only when its reader does
		return page{}
	}
	var p page
	p.title, p.description, p.image = pageMeta(doc, base)

	content := readableNode(doc, base)
	md, err := f.markdown.ConvertNode(content, converter.WithDomain(base.String()))
	if err != nil {
		md = nil
	}
	p.content, p.cut = truncateRunes(string(bytes.TrimSpace(md)), maxContentRunes)
	p.excerpt, _ = truncateRunes(normalizeSpace(plainText(content)), excerptRunes)
	return p
}

// renderText is renderHTML for text/plain: the content is the text.
func renderText(body []byte, contentType string, truncated bool) page {
	text := strings.TrimSpace(decode(body, contentType, truncated))
	var p page
	p.content, p.cut = truncateRunes(text, maxContentRunes)
	p.excerpt, _ = truncateRunes(normalizeSpace(text), excerptRunes)
	return p
}

// readableNode returns the node holding the page's readable content: the
// article readability finds or, when it finds none, the first <main>, else
// the first <article>, else the <body>, without scripts and the like.
func readableNode(doc *html.Node, base *url.URL) *html.Node {
	parser := readability.NewParser()
	if article, err := parser.ParseDocument(doc, base); err == nil && article.Node != nil &&
		normalizeSpace(plainText(article.Node)) != "" {
		return article.Node
	}
	removeElements(doc, atom.Script, atom.Style, atom.Noscript, atom.Svg, atom.Template)
	for _, a := range []atom.Atom{atom.Main, atom.Article, atom.Body} {
		if n := findElement(doc, a); n != nil {
			return n
		}
	}
	return doc
}

// pageMeta picks the title, description and image the page declares: the
// Open Graph, then the Twitter card meta tags, with <title> last for the
// title and meta "description" first for the description. The image URL
// is resolved against base and kept only if it is http(s).
func pageMeta(doc *html.Node, base *url.URL) (title, description, image *string) {
	metas := map[string]string{}
	var docTitle *string
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		switch {
		case n.DataAtom == atom.Meta:
			value, ok := attr(n, "content")
			if v := normalizeSpace(value); ok && v != "" {
				for _, key := range []string{"property", "name"} {
					k, _ := attr(n, key)
					k = strings.ToLower(strings.TrimSpace(k))
					if _, seen := metas[k]; k != "" && !seen {
						metas[k] = v
					}
				}
			}
		case n.DataAtom == atom.Title && n.Namespace == "" && docTitle == nil:
			if t := normalizeSpace(textContent(n)); t != "" {
				docTitle = &t
			}
		case n.Namespace != "": // <svg> and <math> have titles of their own
			return false
		}
		return true
	})
	first := func(keys ...string) *string {
		for _, k := range keys {
			if v, ok := metas[k]; ok {
				return &v
			}
		}
		return nil
	}
	title = first("og:title", "twitter:title")
	if title == nil {
		title = docTitle
	}
	description = first("description", "og:description", "twitter:description")
	if img := first("og:image", "twitter:image"); img != nil {
		image = resolveHTTP(base, *img)
	}
	return title, description, image
}

// resolveHTTP resolves ref against base and returns it WHATWG-serialized
// if it is an http(s) URL.
func resolveHTTP(base *url.URL, ref string) *string {
	r, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	if base != nil {
		r = base.ResolveReference(r)
	}
	if r.Scheme != "http" && r.Scheme != "https" {
		return nil
	}
	s, err := NormalizeURL(r.String())
	if err != nil {
		return nil
	}
	return &s
}

// blockAtoms are the elements whose text is not run together with the
// text around them.
var blockAtoms = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Br: true, atom.Dd: true, atom.Div: true, atom.Dl: true, atom.Dt: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Header: true, atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true,
	atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Table: true,
	atom.Td: true, atom.Th: true, atom.Tr: true, atom.Ul: true,
}

// skipAtoms are the elements whose content is not text a reader sees.
var skipAtoms = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Head: true,
}

// plainText is the text of n as a reader sees it, with a line break
// between blocks.
func plainText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		switch c.Type {
		case html.TextNode:
			b.WriteString(c.Data)
		case html.ElementNode:
			if skipAtoms[c.DataAtom] {
				return false
			}
			if blockAtoms[c.DataAtom] {
				b.WriteByte('\n')
			}
		}
		return true
	})
	return b.String()
}

// textContent is the concatenated text of n's descendants.
func textContent(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		return true
	})
	return b.String()
}

// walk calls fn on n and its descendants in document order, skipping the
// descendants of a node for which fn returns false.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func findElement(n *html.Node, a atom.Atom) *html.Node {
	var found *html.Node
	walk(n, func(c *html.Node) bool {
		if found == nil && c.Type == html.ElementNode && c.DataAtom == a && c.Namespace == "" {
			found = c
		}
		return found == nil
	})
	return found
}

func removeElements(n *html.Node, atoms ...atom.Atom) {
	var doomed []*html.Node
	walk(n, func(c *html.Node) bool {
		for _, a := range atoms {
			if c.Type == html.ElementNode && c.DataAtom == a {
				doomed = append(doomed, c)
				return false
			}
		}
		return true
	})
	for _, c := range doomed {
		c.Parent.RemoveChild(c)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

// normalizeSpace collapses runs of white space to one space and trims the ends.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// truncateRunes cuts s to at most n runes and reports whether it did.
func truncateRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}
