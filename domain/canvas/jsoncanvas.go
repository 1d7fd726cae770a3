package canvas

import (
	"bytes"
	"encoding/json"
	"math"
	"path"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// This file converts between a canvas and JSON Canvas 1.0 (jsoncanvas.org),
// the open format of .canvas files. The format holds less than a canvas, so
// the conversion follows these conventions, chosen so that importing an
// exported document and exporting it again gives the same bytes:
//
//   - markdown ↔ text. The format has no title, so a titled node's text is
//     "# <title>\n\n<content>" — unless the content already starts with that
//     heading line, in which case the text is the content alone. Import reads
//     a leading "# " line back as the title; see markdownText and splitHeading.
//   - file ↔ file (data.path, data.subpath), webpage ↔ link (data.url),
//     group ↔ group (data.title = label, data.background, data.backgroundStyle).
//     Any other node is exported as a text node that shows its title and
//     content; it comes back as markdown.
//   - Geometry: the format wants integers, so export rounds each node's edges
//     (left, top, right, bottom) to the nearest integer, halves up, and
//     derives the size from them: a member stays inside its group and an
//     integer size stays as it is. Import keeps numbers as given.
//   - Colors: data.color ↔ color, exported only when it is a preset "1".."6"
//     or a hex "#RRGGBB" ("#RGB" is widened). Import keeps any color string.
//   - Groups lie below their members: export lists every group before the
//     other nodes, each in layout order. Import makes each non-group node a
//     member of the smallest group whose box contains its box.
//   - Edges: toEnd "none" ↔ type "relation" (also "references" on export);
//     anything else imports as "flow", and flow and depends-on export with
//     the default arrow. Style and animation are not exported. The sides,
//     ends and color of an imported edge have no field on Edge; import
//     returns them in ImportPlan.EdgeExtras and ExportJSONCanvasWith puts
//     them back.
//   - Docked nodes (the HUD widgets) are screen furniture, not board content,
//     and are not exported.

// JSONCanvas is a JSON Canvas 1.0 document. Nodes are in ascending z-order:
// the first node is drawn at the bottom.
type JSONCanvas struct {
	Nodes []JSONCanvasNode `json:"nodes"`
	Edges []JSONCanvasEdge `json:"edges"`
}

// MarshalJSON writes absent lists as [] so the document stays valid.
func (d JSONCanvas) MarshalJSON() ([]byte, error) {
	type plain JSONCanvas
	if d.Nodes == nil {
		d.Nodes = []JSONCanvasNode{}
	}
	if d.Edges == nil {
		d.Edges = []JSONCanvasEdge{}
	}
	return json.Marshal(plain(d))
}

// JSON Canvas node types.
const (
	JSONCanvasText  = "text"
	JSONCanvasFile  = "file"
	JSONCanvasLink  = "link"
	JSONCanvasGroup = "group"
)

// JSONCanvasNode is one node of a JSON Canvas. Which of the type-specific
// fields apply depends on Type; the others are ignored and not written.
type JSONCanvasNode struct {
	ID     string  `json:"id"`
	Type   string  `json:"type"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Color is a preset "1".."6" or a hex "#RRGGBB"; "" = none.
	Color string `json:"color,omitempty"`

	// Text is a text node's markdown (always written for text nodes).
	Text string `json:"text,omitempty"`
	// File is a file node's path; Subpath, if set, starts with "#".
	File    string `json:"file,omitempty"`
	Subpath string `json:"subpath,omitempty"`
	// URL is a link node's address.
	URL string `json:"url,omitempty"`
	// Label, Background and BackgroundStyle ("cover", "ratio" or "repeat")
	// belong to group nodes.
	Label           string `json:"label,omitempty"`
	Background      string `json:"background,omitempty"`
	BackgroundStyle string `json:"backgroundStyle,omitempty"`

	// badNumber names the first of x, y, width, height that the decoded
	// JSON lacked or did not give as a number, with why; ImportJSONCanvas
	// reports it. It is never set for nodes built in Go.
	badNumber, badReason string
}

// jsonCanvasNodeOut is the written shape of a node: the type's own fields
// only, in the key order Obsidian writes.
type jsonCanvasNodeOut struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Text            *string `json:"text,omitempty"`
	File            string  `json:"file,omitempty"`
	Subpath         string  `json:"subpath,omitempty"`
	URL             string  `json:"url,omitempty"`
	Label           string  `json:"label,omitempty"`
	Background      string  `json:"background,omitempty"`
	BackgroundStyle string  `json:"backgroundStyle,omitempty"`
	X               float64 `json:"x"`
	Y               float64 `json:"y"`
	Width           float64 `json:"width"`
	Height          float64 `json:"height"`
	Color           string  `json:"color,omitempty"`
}

// MarshalJSON writes the fields that belong to the node's type.
func (n JSONCanvasNode) MarshalJSON() ([]byte, error) {
	out := jsonCanvasNodeOut{ID: n.ID, Type: n.Type, X: n.X, Y: n.Y, Width: n.Width, Height: n.Height, Color: n.Color}
	switch n.Type {
	case JSONCanvasText:
		out.Text = &n.Text
	case JSONCanvasFile:
		out.File, out.Subpath = n.File, n.Subpath
	case JSONCanvasLink:
		out.URL = n.URL
	case JSONCanvasGroup:
		out.Label, out.Background, out.BackgroundStyle = n.Label, n.Background, n.BackgroundStyle
	default:
		// Unknown types keep whatever they carry, so nothing is lost.
		if n.Text != "" {
			out.Text = &n.Text
		}
		out.File, out.Subpath, out.URL = n.File, n.Subpath, n.URL
		out.Label, out.Background, out.BackgroundStyle = n.Label, n.Background, n.BackgroundStyle
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes a node and notes a missing or non-numeric x, y,
// width or height instead of failing, so import can name the node.
func (n *JSONCanvasNode) UnmarshalJSON(b []byte) error {
	type plain JSONCanvasNode
	var in struct {
		plain
		X      json.RawMessage `json:"x"`
		Y      json.RawMessage `json:"y"`
		Width  json.RawMessage `json:"width"`
		Height json.RawMessage `json:"height"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*n = JSONCanvasNode(in.plain)
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		dst  *float64
	}{{"x", in.X, &n.X}, {"y", in.Y, &n.Y}, {"width", in.Width, &n.Width}, {"height", in.Height, &n.Height}} {
		if len(f.raw) == 0 || bytes.Equal(f.raw, []byte("null")) {
			if n.badNumber == "" {
				n.badNumber, n.badReason = f.name, "is missing"
			}
			continue
		}
		if err := json.Unmarshal(f.raw, f.dst); err != nil && n.badNumber == "" {
			n.badNumber, n.badReason = f.name, "must be a number"
		}
	}
	return nil
}

// JSONCanvasEdge is one edge of a JSON Canvas.
type JSONCanvasEdge struct {
	ID       string `json:"id"`
	FromNode string `json:"fromNode"`
	// FromSide and ToSide are "top", "right", "bottom" or "left"; "" = let
	// the reader choose.
	FromSide string `json:"fromSide,omitempty"`
	// FromEnd and ToEnd are "none" or "arrow"; "" = the default (none at
	// the start, arrow at the end).
	FromEnd string `json:"fromEnd,omitempty"`
	ToNode  string `json:"toNode"`
	ToSide  string `json:"toSide,omitempty"`
	ToEnd   string `json:"toEnd,omitempty"`
	Color   string `json:"color,omitempty"`
	Label   string `json:"label,omitempty"`
}

// JSONCanvasEdgeExtra is what a JSON Canvas edge carries that Edge has no
// field for. Empty fields were absent from the document.
type JSONCanvasEdgeExtra struct {
	FromSide string `json:"fromSide,omitempty"`
	FromEnd  string `json:"fromEnd,omitempty"`
	ToSide   string `json:"toSide,omitempty"`
	ToEnd    string `json:"toEnd,omitempty"`
	Color    string `json:"color,omitempty"`
}

func (x JSONCanvasEdgeExtra) empty() bool { return x == JSONCanvasEdgeExtra{} }

var (
	jsonCanvasSides    = []string{"top", "right", "bottom", "left"}
	jsonCanvasEnds     = []string{"none", "arrow"}
	jsonCanvasBGStyles = []string{"cover", "ratio", "repeat"}
)

// ExportJSONCanvas renders the canvas as a JSON Canvas document. Edges get no
// sides and only the ends their type implies; use ExportJSONCanvasWith to
// restore what an import kept in ImportPlan.EdgeExtras.
func ExportJSONCanvas(s *State) JSONCanvas {
	return ExportJSONCanvasWith(s, nil)
}

// ExportJSONCanvasWith is ExportJSONCanvas with the sides, ends and colors
// of edges, by edge id (as ImportPlan.EdgeExtras returns them).
func ExportJSONCanvasWith(s *State, extras map[string]JSONCanvasEdgeExtra) JSONCanvas {
	var groups, others []JSONCanvasNode
	exported := make(map[string]bool, s.Nodes.Len())
	s.Nodes.Each(func(n *Node) bool {
		if n.DockPosition != "" {
			return true
		}
		exported[n.ID] = true
		jn := exportJSONCanvasNode(n)
		if jn.Type == JSONCanvasGroup {
			groups = append(groups, jn)
		} else {
			others = append(others, jn)
		}
		return true
	})
	doc := JSONCanvas{
		Nodes: append(append(make([]JSONCanvasNode, 0, len(groups)+len(others)), groups...), others...),
		Edges: make([]JSONCanvasEdge, 0, s.Edges.Len()),
	}
	s.Edges.Each(func(e *Edge) bool {
		if exported[e.From] && exported[e.To] {
			x, ok := extras[e.ID]
			if !ok && e.JSONCanvas != nil {
				x = *e.JSONCanvas
			}
			doc.Edges = append(doc.Edges, exportJSONCanvasEdge(e, x))
		}
		return true
	})
	return doc
}

func exportJSONCanvasNode(n *Node) JSONCanvasNode {
	x0, y0 := roundCoord(n.Position.X), roundCoord(n.Position.Y)
	x1, y1 := roundCoord(n.Position.X+n.Size.Width), roundCoord(n.Position.Y+n.Size.Height)
	jn := JSONCanvasNode{ID: n.ID, X: x0, Y: y0, Width: max(x1-x0, 1), Height: max(y1-y0, 1)}
	jn.Color, _ = jsonCanvasColor(n.Data["color"])

	switch n.Type {
	case "markdown":
		jn.Type, jn.Text = JSONCanvasText, markdownText(dataString(n, "title"), dataString(n, "content"))
		return jn
	case "group":
		jn.Type, jn.Label = JSONCanvasGroup, dataString(n, "title")
		jn.Background = dataString(n, "background")
		if st := dataString(n, "backgroundStyle"); contains(jsonCanvasBGStyles, st) {
			jn.BackgroundStyle = st
		}
		return jn
	case "file":
		if p := filePathOf(n); p != "" {
			jn.Type, jn.File = JSONCanvasFile, p
			if sub := dataString(n, "subpath"); strings.HasPrefix(sub, "#") {
				jn.Subpath = sub
			}
			return jn
		}
	case "webpage":
		if u := dataString(n, "url"); u != "" {
			jn.Type, jn.URL = JSONCanvasLink, u
			return jn
		}
	}
	jn.Type, jn.Text = JSONCanvasText, readableText(n)
	return jn
}

// filePathOf is a file node's path: data.path, or a one-line content (which
// node.add treats as a path).
func filePathOf(n *Node) string {
	if p := dataString(n, "path"); p != "" {
		return p
	}
	c := dataString(n, "content")
	if strings.TrimSpace(c) == "" || strings.ContainsAny(c, "\r\n") {
		return ""
	}
	return c
}

// readableText renders a node the format cannot hold as markdown: its title
// as a heading (the kind when it has neither title nor content) and its
// readable content. Images show as a markdown image unless inline.
func readableText(n *Node) string {
	title, body := Title(n), ContentText(n)
	if n.Type == "image" {
		body = ""
		for _, k := range []string{"path", "src", "url"} {
			if ref := dataString(n, k); ref != "" && !strings.HasPrefix(ref, "data:") {
				if strings.ContainsAny(ref, " ()<>") {
					ref = "<" + ref + ">"
				}
				body = "![" + title + "](" + ref + ")"
				break
			}
		}
	}
	if strings.TrimSpace(title) == "" && body == "" {
		title = Kind(n)
	}
	return markdownText(title, body)
}

func exportJSONCanvasEdge(e *Edge, x JSONCanvasEdgeExtra) JSONCanvasEdge {
	je := JSONCanvasEdge{ID: e.ID, FromNode: e.From, ToNode: e.To, Label: e.Label}
	if e.Type == "relation" || e.Type == "references" {
		je.ToEnd = "none"
	}
	if contains(jsonCanvasSides, x.FromSide) {
		je.FromSide = x.FromSide
	}
	if contains(jsonCanvasSides, x.ToSide) {
		je.ToSide = x.ToSide
	}
	if contains(jsonCanvasEnds, x.FromEnd) {
		je.FromEnd = x.FromEnd
	}
	if contains(jsonCanvasEnds, x.ToEnd) {
		je.ToEnd = x.ToEnd
	}
	je.Color, _ = jsonCanvasColor(x.Color)
	return je
}

// roundCoord rounds to the nearest integer, halves up (as JavaScript's
// Math.round does), so that shifting by a whole number never changes the
// result's distance: a node with an integer size keeps it. It never returns
// negative zero, which JSON would show as -0.
func roundCoord(v float64) float64 {
	r := math.Floor(v + 0.5)
	if r == 0 {
		return 0
	}
	return r
}

// jsonCanvasColor returns v as a JSON Canvas color: a preset "1".."6" or
// "#RRGGBB" (a "#RGB" is widened), and whether v was one.
func jsonCanvasColor(v any) (string, bool) {
	s, _ := v.(string)
	if len(s) == 1 && s[0] >= '1' && s[0] <= '6' {
		return s, true
	}
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return "", false
		}
	}
	if len(s) == 4 {
		s = string([]byte{'#', s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	return s, true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// markdownText is the text node for a markdown node: the content, preceded
// by "# <title>" and a blank line when there is a title and the content
// does not already start with that heading line. A title is one line (line
// breaks become spaces); a blank title counts as none. splitHeading inverts
// it: markdownText(splitHeading(t)) == t for every t.
func markdownText(title, content string) string {
	title = headingTitle(title)
	if title == "" {
		return content
	}
	h := "# " + title
	switch {
	case content == h || strings.HasPrefix(content, h+"\n"):
		return content
	case content == "":
		return h
	}
	return h + "\n\n" + content
}

// headingTitle is title as one heading line, or "" when it is blank.
func headingTitle(title string) string {
	if strings.TrimSpace(title) == "" {
		return ""
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(title)
}

// splitHeading reads a text node back as a markdown title and content. A
// first line "# <title>" (title not blank) gives the title. When it is
// followed by a blank line and more text, or is the whole text, the heading
// and blank line are dropped from the content — unless what follows starts
// with the same heading, in which case markdownText would not have added it
// and the content keeps the whole text.
func splitHeading(text string) (title, content string) {
	if !strings.HasPrefix(text, "# ") {
		return "", text
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	if strings.TrimSpace(line) == "" || strings.Contains(line, "\r") {
		return "", text
	}
	h := "# " + line
	if text == h {
		return line, ""
	}
	if rest, ok := strings.CutPrefix(text, h+"\n\n"); ok && rest != "" && rest != h && !strings.HasPrefix(rest, h+"\n") {
		return line, rest
	}
	return line, text
}

// ImportPlan is what a JSON Canvas document adds to a canvas: nodes and
// edges ready to put into a transaction, in document order.
type ImportPlan struct {
	Nodes []*Node
	Edges []*Edge
	// NodeIDs and EdgeIDs map each document id to its id on the canvas: the
	// same id unless the canvas already had it.
	NodeIDs map[string]string
	EdgeIDs map[string]string
	// EdgeExtras holds, by canvas edge id, the sides, ends and color of the
	// edges that had any. Edge has no field for them; pass them to
	// ExportJSONCanvasWith to write them back.
	EdgeExtras map[string]JSONCanvasEdgeExtra
}

// ImportJSONCanvas validates doc and plans adding it to target. Document ids
// are kept unless target already uses them; env makes the replacement ids
// (and is not used otherwise). The plan is for the state it was made from:
// apply it in a transaction that begins on target.
//
// Text nodes become markdown (title from a leading heading, see
// splitHeading), file nodes file (data.path, data.subpath, title = base
// name), link nodes webpage (data.url, title = url) and groups manual-frame
// groups (title = label, data.background, data.backgroundStyle) whose
// members are the non-group nodes inside their box. Colors go to data.color.
// Edges become "relation" when toEnd is "none" and "flow" otherwise.
func ImportJSONCanvas(doc JSONCanvas, target *State, env *Env) (*ImportPlan, *messages.Error) {
	if err := validateJSONCanvas(doc); err != nil {
		return nil, err
	}
	p := &ImportPlan{
		Nodes:      make([]*Node, 0, len(doc.Nodes)),
		Edges:      make([]*Edge, 0, len(doc.Edges)),
		NodeIDs:    make(map[string]string, len(doc.Nodes)),
		EdgeIDs:    make(map[string]string, len(doc.Edges)),
		EdgeExtras: map[string]JSONCanvasEdgeExtra{},
	}
	nodeIDs := newIDAllocator(env, func(id string) bool { _, ok := target.Nodes.Get(id); return ok })
	for _, jn := range doc.Nodes {
		nodeIDs.reserve(jn.ID)
	}
	for _, jn := range doc.Nodes {
		prefix := "node"
		if jn.Type == JSONCanvasGroup {
			prefix = "group"
		}
		p.NodeIDs[jn.ID] = nodeIDs.assign(jn.ID, prefix)
	}

	parent := groupMembership(doc.Nodes)
	for i, jn := range doc.Nodes {
		n := importJSONCanvasNode(jn)
		n.ID = p.NodeIDs[jn.ID]
		if g, ok := parent[i]; ok {
			n.Data["parentGroup"] = p.NodeIDs[doc.Nodes[g].ID]
		}
		p.Nodes = append(p.Nodes, n)
	}
	for i, n := range p.Nodes {
		if n.Type != "group" {
			continue
		}
		children := []any{}
		for j := range doc.Nodes {
			if g, ok := parent[j]; ok && g == i {
				children = append(children, p.Nodes[j].ID)
			}
		}
		n.Data["children"] = children
	}

	edgeIDs := newIDAllocator(env, func(id string) bool { _, ok := target.Edges.Get(id); return ok })
	for _, je := range doc.Edges {
		edgeIDs.reserve(je.ID)
	}
	for _, je := range doc.Edges {
		e := &Edge{ID: edgeIDs.assign(je.ID, "edge"), From: p.NodeIDs[je.FromNode], To: p.NodeIDs[je.ToNode], Type: "flow", Label: je.Label}
		if je.ToEnd == "none" {
			e.Type = "relation"
		}
		p.EdgeIDs[je.ID] = e.ID
		p.Edges = append(p.Edges, e)
		if x := (JSONCanvasEdgeExtra{FromSide: je.FromSide, FromEnd: je.FromEnd, ToSide: je.ToSide, ToEnd: je.ToEnd, Color: je.Color}); !x.empty() {
			p.EdgeExtras[e.ID] = x
		}
	}
	return p, nil
}

// Apply puts the plan's nodes, then its edges, into tx and queues one layout
// event. Apply a plan once, to a transaction that begins on the state the
// plan was made from.
func (p *ImportPlan) Apply(tx *Tx) {
	for _, n := range p.Nodes {
		tx.PutNode(n)
	}
	for _, e := range p.Edges {
		if x, ok := p.EdgeExtras[e.ID]; ok && !x.empty() {
			x := x
			e.JSONCanvas = &x
		}
		tx.PutEdge(e)
	}
	tx.EmitLayout()
}

func importJSONCanvasNode(jn JSONCanvasNode) *Node {
	n := &Node{
		Position: Point{X: jn.X, Y: jn.Y},
		Size:     Size{Width: jn.Width, Height: jn.Height},
		ZIndex:   1,
		Data:     map[string]any{},
	}
	switch jn.Type {
	case JSONCanvasText:
		n.Type = "markdown"
		title, content := splitHeading(jn.Text)
		if title != "" {
			n.Data["title"] = title
		}
		if content != "" {
			n.Data["content"] = content
		}
	case JSONCanvasFile:
		n.Type = "file"
		n.Data["path"] = jn.File
		n.Data["title"] = path.Base(jn.File)
		if jn.Subpath != "" {
			n.Data["subpath"] = jn.Subpath
		}
	case JSONCanvasLink:
		n.Type = "webpage"
		n.Data["url"] = jn.URL
		n.Data["title"] = jn.URL
	case JSONCanvasGroup:
		n.Type = "group"
		n.ZIndex = 0
		n.Data["frameMode"] = "manual"
		if jn.Label != "" {
			n.Data["title"] = jn.Label
		}
		if jn.Background != "" {
			n.Data["background"] = jn.Background
		}
		if jn.BackgroundStyle != "" {
			n.Data["backgroundStyle"] = jn.BackgroundStyle
		}
	}
	if jn.Color != "" {
		n.Data["color"] = jn.Color
	}
	return n
}

// groupMembership maps the index of every non-group node that lies inside a
// group's box to the index of the smallest such group (the later one on a
// tie, as it is drawn on top). Groups never nest: a canvas group holds only
// non-group nodes.
func groupMembership(nodes []JSONCanvasNode) map[int]int {
	parent := map[int]int{}
	for i, n := range nodes {
		if n.Type == JSONCanvasGroup {
			continue
		}
		best, bestArea := -1, math.Inf(1)
		for j, g := range nodes {
			if g.Type != JSONCanvasGroup || !boxInside(n, g) {
				continue
			}
			if area := g.Width * g.Height; area <= bestArea {
				best, bestArea = j, area
			}
		}
		if best >= 0 {
			parent[i] = best
		}
	}
	return parent
}

func boxInside(n, g JSONCanvasNode) bool {
	return n.X >= g.X && n.Y >= g.Y && n.X+n.Width <= g.X+g.Width && n.Y+n.Height <= g.Y+g.Height
}

// idAllocator keeps document ids that are free on the canvas and replaces
// the others with new ids that clash with nothing on the canvas or in the
// document.
type idAllocator struct {
	env   *Env
	taken func(string) bool
	used  map[string]bool
}

func newIDAllocator(env *Env, taken func(string) bool) *idAllocator {
	return &idAllocator{env: env, taken: taken, used: map[string]bool{}}
}

// reserve marks a document id that will be kept, so no new id takes it.
func (a *idAllocator) reserve(id string) {
	if !a.taken(id) {
		a.used[id] = true
	}
}

func (a *idAllocator) assign(id, prefix string) string {
	if !a.taken(id) {
		return id
	}
	for {
		fresh := a.env.NewID(prefix, 4)
		if !a.taken(fresh) && !a.used[fresh] {
			a.used[fresh] = true
			return fresh
		}
	}
}

// validateJSONCanvas checks the document against JSON Canvas 1.0 and the
// canvas's own rules (positive sizes, finite numbers).
func validateJSONCanvas(doc JSONCanvas) *messages.Error {
	ids := make(map[string]bool, len(doc.Nodes))
	for i, n := range doc.Nodes {
		if n.ID == "" {
			return messages.BadRequest(`JSON Canvas node %d has no "id".`, i)
		}
		if ids[n.ID] {
			return messages.BadRequest(`JSON Canvas node %q: duplicate id.`, n.ID)
		}
		ids[n.ID] = true
		if err := validateJSONCanvasNode(n); err != nil {
			return err
		}
	}
	edgeIDs := make(map[string]bool, len(doc.Edges))
	for i, e := range doc.Edges {
		if e.ID == "" {
			return messages.BadRequest(`JSON Canvas edge %d has no "id".`, i)
		}
		if edgeIDs[e.ID] {
			return messages.BadRequest(`JSON Canvas edge %q: duplicate id.`, e.ID)
		}
		edgeIDs[e.ID] = true
		for _, f := range []struct{ name, value string }{{"fromNode", e.FromNode}, {"toNode", e.ToNode}} {
			if f.value == "" {
				return messages.BadRequest(`JSON Canvas edge %q: %q is missing.`, e.ID, f.name)
			}
			if !ids[f.value] {
				return messages.BadRequest(`JSON Canvas edge %q: %q refers to %q, which is not a node of the document.`, e.ID, f.name, f.value)
			}
		}
		for _, f := range []struct {
			name, value string
			allowed     []string
		}{
			{"fromSide", e.FromSide, jsonCanvasSides}, {"toSide", e.ToSide, jsonCanvasSides},
			{"fromEnd", e.FromEnd, jsonCanvasEnds}, {"toEnd", e.ToEnd, jsonCanvasEnds},
		} {
			if f.value != "" && !contains(f.allowed, f.value) {
				return messages.BadRequest(`JSON Canvas edge %q: %q must be %s, got %q.`, e.ID, f.name, orList(f.allowed), f.value)
			}
		}
	}
	return nil
}

func validateJSONCanvasNode(n JSONCanvasNode) *messages.Error {
	switch n.Type {
	case JSONCanvasText, JSONCanvasFile, JSONCanvasLink, JSONCanvasGroup:
	case "":
		return messages.BadRequest(`JSON Canvas node %q: "type" is missing.`, n.ID)
	default:
		return messages.BadRequest(`JSON Canvas node %q: unknown type %q (use text, file, link or group).`, n.ID, n.Type)
	}
	if n.badNumber != "" {
		return messages.BadRequest(`JSON Canvas node %q: %q %s.`, n.ID, n.badNumber, n.badReason)
	}
	for _, f := range []struct {
		name  string
		value float64
	}{{"x", n.X}, {"y", n.Y}, {"width", n.Width}, {"height", n.Height}} {
		if math.IsNaN(f.value) || math.IsInf(f.value, 0) {
			return messages.BadRequest(`JSON Canvas node %q: %q must be a finite number.`, n.ID, f.name)
		}
	}
	if n.Width <= 0 || n.Height <= 0 {
		return messages.BadRequest(`JSON Canvas node %q: "width" and "height" must be greater than zero.`, n.ID)
	}
	switch n.Type {
	case JSONCanvasFile:
		if strings.TrimSpace(n.File) == "" {
			return messages.BadRequest(`JSON Canvas node %q: a file node needs a "file" path.`, n.ID)
		}
		if n.Subpath != "" && !strings.HasPrefix(n.Subpath, "#") {
			return messages.BadRequest(`JSON Canvas node %q: "subpath" must start with "#", got %q.`, n.ID, n.Subpath)
		}
	case JSONCanvasLink:
		if strings.TrimSpace(n.URL) == "" {
			return messages.BadRequest(`JSON Canvas node %q: a link node needs a "url".`, n.ID)
		}
	case JSONCanvasGroup:
		if n.BackgroundStyle != "" && !contains(jsonCanvasBGStyles, n.BackgroundStyle) {
			return messages.BadRequest(`JSON Canvas node %q: "backgroundStyle" must be %s, got %q.`, n.ID, orList(jsonCanvasBGStyles), n.BackgroundStyle)
		}
	}
	return nil
}

// orList renders ["a","b","c"] as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
