// Package htmlmeta derives the semantic sidecar of an "html" node: the
// text an agent or a search sees instead of the markup, and the canvas
// nodes and URLs the surface embeds.
//
// Derive follows the reference's normalizeHtmlNodeSemanticData with one
// fix. The reference kept a node's previous agentSummary whenever there
// was one, so once derived it never changed again: replacing the HTML
// refreshed contentSummary but left the agent reading a summary of the
// old page. Here the agent summary is derived afresh on every call unless
// the caller gives one explicitly in that call (Input.AgentSummary).
package htmlmeta

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Limits of the sidecar, the reference's.
const (
	MaxContentSummary = 900  // runes of ContentSummary, "..." included
	MaxAgentSummary   = 1200 // runes of a derived AgentSummary, "..." included
	MaxEmbedded       = 12   // entries of EmbeddedNodeIDs and of EmbeddedURLs
)

// Input is what a node gives to derive its sidecar from.
type Input struct {
	HTML string
	// Summary and Description are the node's own words; the first that
	// is not blank goes into the agent summary.
	Summary, Description string
	// AgentSummary is an agent summary set explicitly in this call. When
	// not blank it is used as given; otherwise one is derived. A caller
	// must not pass the summary stored on the node: that is what made the
	// reference's summary go stale when the HTML changed.
	AgentSummary string
	// Primitive is the node's HTML primitive kind, if it was built from one.
	Primitive string
	// ExplicitNodeIDs and ExplicitURLs are embedded nodes and URLs the
	// caller names; they come first, before those found in the HTML.
	ExplicitNodeIDs, ExplicitURLs []string
	// EmbeddedNodeID, EmbeddedGraphID and SourceNodeID are single node ids
	// the node's data may carry; they count as embedded nodes.
	EmbeddedNodeID, EmbeddedGraphID, SourceNodeID string
}

// Sidecar is the derived metadata stored beside the node's HTML.
type Sidecar struct {
	// ContentSummary is the visible text of the HTML, whitespace
	// collapsed, at most MaxContentSummary runes.
	ContentSummary string `json:"contentSummary"`
	// EmbeddedNodeIDs are the explicit ids, then the node-like ids found
	// in the HTML's text, scripts and attribute values; unique, at most
	// MaxEmbedded.
	EmbeddedNodeIDs []string `json:"embeddedNodeIds"`
	// EmbeddedURLs are the explicit URLs, then the src and href values of
	// the HTML that point somewhere a frame can load from: http(s)://,
	// protocol-relative //, root-relative / and ui:// (MCP app
	// resources); unique, at most MaxEmbedded.
	EmbeddedURLs []string `json:"embeddedUrls"`
	// AgentSummary is Input.AgentSummary when given; else the lines
	// "HTML primitive: <kind>", the summary or description, the content
	// summary, "Embedded canvas nodes: …" and "Embedded URLs: …" (those
	// that are not empty, each once), at most MaxAgentSummary runes.
	AgentSummary string `json:"agentSummary"`
}

// nodeIDPattern finds the ids of canvas nodes mentioned in the HTML, the
// reference's pattern.
var nodeIDPattern = regexp.MustCompile(`(?i)\b(?:node|graph|json-render|web-artifact|mcp-app|group)-[a-z0-9-]+\b`)

// Derive computes the sidecar of a node.
func Derive(in Input) Sidecar {
	text, refs, found := scan(in.HTML)
	sc := Sidecar{ContentSummary: truncate(text, MaxContentSummary)}

	ids := newSet(MaxEmbedded)
	ids.add(in.ExplicitNodeIDs...)
	ids.add(in.EmbeddedNodeID, in.EmbeddedGraphID, in.SourceNodeID)
	ids.add(found...)
	sc.EmbeddedNodeIDs = ids.items

	urls := newSet(MaxEmbedded)
	urls.add(in.ExplicitURLs...)
	urls.add(refs...)
	sc.EmbeddedURLs = urls.items

	if explicit := strings.TrimSpace(in.AgentSummary); explicit != "" {
		sc.AgentSummary = explicit
		return sc
	}
	parts := newSet(-1)
	if p := strings.TrimSpace(in.Primitive); p != "" {
		parts.add("HTML primitive: " + p)
	}
	if s := strings.TrimSpace(in.Summary); s != "" {
		parts.add(s)
	} else {
		parts.add(in.Description)
	}
	parts.add(sc.ContentSummary)
	if len(sc.EmbeddedNodeIDs) > 0 {
		parts.add("Embedded canvas nodes: " + strings.Join(sc.EmbeddedNodeIDs, ", "))
	}
	if len(sc.EmbeddedURLs) > 0 {
		parts.add("Embedded URLs: " + strings.Join(sc.EmbeddedURLs, ", "))
	}
	sc.AgentSummary = truncate(strings.Join(parts.items, "\n"), MaxAgentSummary)
	return sc
}

// scan tokenizes doc and returns its visible text, whitespace collapsed,
// the embeddable src and href values, and the node-like ids it mentions,
// each in document order.
//
// Text inside script, style and noscript is not visible, nor are
// comments. Every tag separates words, as in the reference, which
// replaced each tag with a space or a newline before collapsing them all
// to single spaces. Node ids are looked for in text, comments, scripts
// and attribute values, but not in tag or attribute names, so that
// data-node-id="…" does not embed a node called "node-id".
//
// The tokenizer is used rather than the tree builder because it has no
// nesting limit (html.Parse refuses documents nested deeper than 512).
func scan(doc string) (text string, refs, ids []string) {
	if doc == "" {
		return "", nil, nil
	}
	var b strings.Builder
	skip := "" // the raw-text element whose content is not visible
	find := func(s string) {
		ids = append(ids, nodeIDPattern.FindAllString(s, -1)...)
	}
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken: // io.EOF: a string reader fails no other way
			return strings.Join(strings.Fields(b.String()), " "), refs, ids
		case html.TextToken:
			t := string(z.Text())
			find(t)
			if skip == "" {
				b.WriteString(t)
			}
		case html.CommentToken:
			find(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				val := string(v)
				find(val)
				if key := string(k); key == "src" || key == "href" || strings.HasSuffix(key, ":href") {
					if val = strings.TrimSpace(val); embeddable(val) {
						refs = append(refs, val)
					}
				}
			}
			b.WriteByte(' ')
			switch tag := string(name); {
			case tt == html.StartTagToken && (tag == "script" || tag == "style" || tag == "noscript"):
				skip = tag
			case tt == html.EndTagToken && tag == skip:
				skip = ""
			}
		}
	}
}

// embeddable reports whether a src or href value points somewhere an
// embedded surface can load from, rather than within the page or to a
// script or mail link.
func embeddable(v string) bool {
	lower := strings.ToLower(v)
	for _, p := range []string{"http://", "https://", "ui://", "/"} {
		if strings.HasPrefix(lower, p) {
			return len(v) > len(p) || p == "/"
		}
	}
	return false
}

// truncate cuts s to at most max runes, ending it with "..." when cut.
func truncate(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimRightFunc(string(r[:max-3]), unicode.IsSpace) + "..."
}

// set keeps unique, non-blank, trimmed strings in the order first added,
// up to a limit (-1 for none).
type set struct {
	items []string
	seen  map[string]bool
	limit int
}

func newSet(limit int) *set {
	return &set{items: []string{}, seen: map[string]bool{}, limit: limit}
}

func (s *set) add(vs ...string) {
	for _, v := range vs {
		if s.limit >= 0 && len(s.items) >= s.limit {
			return
		}
		if v = strings.TrimSpace(v); v != "" && !s.seen[v] {
			s.seen[v] = true
			s.items = append(s.items, v)
		}
	}
}
