package canvas

import (
	"sort"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// searchFields are a node's lowercased search texts, computed once when the
// node enters a NodeSet so a search over 10,000 nodes does no lowercasing.
type searchFields struct {
	title, content, path, description, summary, url string
}

// firstString returns the first non-empty string among data[keys]. (The
// reference stopped at the first key present even when empty, which hid
// summaries behind an empty content; we take the first non-empty.)
func firstString(data map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := data[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func searchContent(data map[string]any) string {
	return firstString(data, "content", "agentSummary", "contentSummary", "description", "fileContent")
}

func buildSearchFields(n *Node) *searchFields {
	d := n.Data
	return &searchFields{
		title:       strings.ToLower(firstString(d, "title")),
		content:     strings.ToLower(searchContent(d)),
		path:        strings.ToLower(firstString(d, "path")),
		description: strings.ToLower(firstString(d, "description")),
		summary:     strings.ToLower(firstString(d, "summary", "agentSummary", "contentSummary")),
		url:         strings.ToLower(firstString(d, "url")),
	}
}

func (n *Node) searchFields() *searchFields {
	if n.cache == nil {
		return buildSearchFields(n) // a node not (yet) in a set
	}
	n.cache.searchOnce.Do(func() { n.cache.search = buildSearchFields(n) })
	return n.cache.search
}

// SearchResult is one search hit.
type SearchResult struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Title   *string `json:"title"`
	Snippet string  `json:"snippet"`
	Score   int     `json:"score"`
}

// Search scores every node against the whitespace-separated terms of query:
// per term, title +3, path +2, url +2, description +1, summary +1, content +1.
// Results are sorted by score, ties in layout order; limit <= 0 means all.
func Search(s *State, query string, limit int) []SearchResult {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return []SearchResult{}
	}
	terms := strings.Fields(q)
	type hit struct {
		n     *Node
		score int
	}
	var hits []hit
	s.Nodes.Each(func(n *Node) bool {
		f := n.searchFields()
		score := 0
		for _, t := range terms {
			if strings.Contains(f.title, t) {
				score += 3
			}
			if strings.Contains(f.path, t) {
				score += 2
			}
			if strings.Contains(f.url, t) {
				score += 2
			}
			if strings.Contains(f.description, t) {
				score++
			}
			if strings.Contains(f.summary, t) {
				score++
			}
			if strings.Contains(f.content, t) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{n, score})
		}
		return true
	})
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = SearchResult{ID: h.n.ID, Type: h.n.Type, Title: titleOrNil(h.n), Snippet: snippet(h.n, terms[0]), Score: h.score}
	}
	return out
}

func titleOrNil(n *Node) *string {
	if t, ok := n.Data["title"].(string); ok {
		return &t
	}
	return nil
}

// snippet is the content around the first term (40 before, 80 after), or
// the title when the term is not in the content.
func snippet(n *Node, term string) string {
	content := searchContent(n.Data)
	idx := strings.Index(strings.ToLower(content), term)
	if idx < 0 {
		t, _ := n.Data["title"].(string)
		return t
	}
	start := max(0, idx-40)
	end := min(len(content), idx+80)
	// Do not cut a UTF-8 sequence in half.
	for start > 0 && !utf8Start(content[start]) {
		start--
	}
	for end < len(content) && !utf8Start(content[end]) {
		end++
	}
	out := strings.ReplaceAll(content[start:end], "\n", " ")
	if start > 0 {
		out = "..." + out
	}
	if end < len(content) {
		out += "..."
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// ResolveNode finds a node by id, or else by search: a unique exact title
// match (case-insensitive) wins; then a node whose id is the search
// ("status-main"); then the one docked widget of that type ("status",
// "context"); otherwise the search must have exactly one hit. (The
// reference matched titles and content only, so the docked widgets, which
// have no title, could not be found by their id.)
func ResolveNode(s *State, id, search *string) (*Node, *messages.Error) {
	if id != nil && strings.TrimSpace(*id) != "" {
		key := strings.TrimSpace(*id)
		n, ok := s.Nodes.Get(key)
		if !ok {
			return nil, messages.BadRequest("Node %q not found.", key)
		}
		return n, nil
	}
	if search == nil || strings.TrimSpace(*search) == "" {
		return nil, messages.BadRequest("Missing node reference. Provide either an id or a search query.")
	}
	q := strings.TrimSpace(*search)
	var exact []*Node
	s.Nodes.Each(func(n *Node) bool {
		if t := Title(n); t != "" && strings.EqualFold(t, q) {
			exact = append(exact, n)
		}
		return true
	})
	if len(exact) == 1 {
		return exact[0], nil
	}
	if len(exact) > 1 {
		return nil, messages.BadRequest("Search %q is ambiguous. Exact title matches: %s", q, listNodes(exact))
	}
	if n, ok := s.Nodes.Get(q); ok {
		return n, nil
	}
	var dockedOfType []*Node
	s.Nodes.Each(func(n *Node) bool {
		if n.DockPosition != "" && strings.EqualFold(n.Type, q) {
			dockedOfType = append(dockedOfType, n)
		}
		return true
	})
	if len(dockedOfType) == 1 {
		return dockedOfType[0], nil
	}
	hits := Search(s, q, 0)
	switch len(hits) {
	case 0:
		return nil, messages.BadRequest("No node matches search %q.", q)
	case 1:
		n, _ := s.Nodes.Get(hits[0].ID)
		return n, nil
	}
	var ns []*Node
	for _, h := range hits {
		if n, ok := s.Nodes.Get(h.ID); ok {
			ns = append(ns, n)
		}
	}
	return nil, messages.BadRequest("Search %q is ambiguous. Matches: %s", q, listNodes(ns))
}

func listNodes(ns []*Node) string {
	parts := make([]string, 0, 5)
	for i, n := range ns {
		if i == 5 {
			break
		}
		label := Title(n)
		if label == "" {
			label = n.ID
		}
		parts = append(parts, label+" ("+n.ID+")")
	}
	return strings.Join(parts, ", ")
}
