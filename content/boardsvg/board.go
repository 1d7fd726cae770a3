// Package boardsvg draws a board — node cards, edges, group frames — as a
// standalone SVG document, on the server, with no browser. Agents attach
// the picture to pull requests and issues (GET /api/canvas/export?format=svg).
//
// The package knows nothing of canvases or actors: it takes its own plain
// Board, which the Layout's export handler builds from the published view.
// Output is deterministic (same Board, same bytes), so it is tested with
// golden files.
//
// Safety: every string that comes from the board (titles, text, ids,
// labels, colours) is escaped for XML, colours are accepted only in a few
// plain CSS forms, and the document holds no script, no foreignObject, no
// event attribute and no external reference: opened on its own it can do
// nothing but draw.
package boardsvg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Board is what gets drawn. Nodes are in layout order; groups are drawn
// first whatever their place, and the others by ZIndex, then by order.
type Board struct {
	// Theme is "dark", "light" or "high-contrast"; anything else is dark.
	Theme string
	Nodes []Node
	Edges []Edge
}

// Node is one card (or, with Kind "group", a frame).
type Node struct {
	ID string
	// Kind is the node's type as agents name it: markdown, status, file,
	// web-artifact, group, ...; it picks the badge and the body's style.
	Kind       string
	Title      string
	X, Y, W, H float64
	ZIndex     int
	Collapsed  bool
	// Color is a group's frame colour or a node's accent (data.color);
	// only #hex, rgb()/hsl() and plain colour names are used.
	Color string
	// Text is the body: markdown, file content, a message. It is wrapped
	// to the card's width and clipped to its height.
	Text string
	// Subtitle is one line above the text (a path, a URL).
	Subtitle string
	// Status nodes: the phase (its dot's colour), the level of the message
	// (warn, error) and the tool running.
	Phase, Level, Tool string
	// Rows are key/value lines drawn under the text (a ledger's entries).
	Rows []Row
	// Children are a group's member ids.
	Children []string
}

// Row is one key/value line of a node body.
type Row struct{ Key, Value string }

// Edge connects two nodes by id.
type Edge struct {
	ID, From, To string
	// Kind is relation, depends-on, flow or references: it picks the colour
	// and whether there is an arrowhead.
	Kind  string
	Label string
	// Style is solid, dashed or dotted ("" is the kind's default).
	Style string
}

// Rect is a box in board coordinates.
type Rect struct{ X, Y, W, H float64 }

func (r Rect) right() float64  { return r.X + r.W }
func (r Rect) bottom() float64 { return r.Y + r.H }

func (r Rect) intersects(o Rect) bool {
	return r.X <= o.right() && o.X <= r.right() && r.Y <= o.bottom() && o.Y <= r.bottom()
}

func (n *Node) rect() Rect {
	r := Rect{n.X, n.Y, n.W, n.H}
	if n.Collapsed && n.Kind != "group" {
		r.H = math.Min(r.H, titleBarHeight)
	}
	return r
}

// Padding is the margin around the nodes of a fitted export.
const Padding = 40

// Limits on what a region or a board may be, so that a request cannot ask
// for a document (or a raster) of absurd size.
const (
	// MaxExtent bounds each coordinate and size of a region.
	MaxExtent = 1e7
)

// ParseRegion reads "x,y,w,h" (board units; w and h positive).
func ParseRegion(s string) (Rect, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return Rect{}, fmt.Errorf("must be x,y,w,h (four numbers), got %q", s)
	}
	var v [4]float64
	for i, p := range parts {
		n, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > MaxExtent {
			return Rect{}, fmt.Errorf("must be x,y,w,h (four finite numbers), got %q", s)
		}
		v[i] = n
	}
	if v[2] <= 0 || v[3] <= 0 {
		return Rect{}, fmt.Errorf("width and height must be positive, got %q", s)
	}
	return Rect{v[0], v[1], v[2], v[3]}, nil
}

// ParseIDs reads a comma-separated list of node ids (spaces around ids are
// dropped, repeats kept once, in order).
func ParseIDs(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// Only keeps the named nodes (a group brings its members) and the edges
// between kept nodes. It returns the ids that name no node.
func (b Board) Only(ids []string) (Board, []string) {
	byID := make(map[string]*Node, len(b.Nodes))
	for i := range b.Nodes {
		byID[b.Nodes[i].ID] = &b.Nodes[i]
	}
	keep := map[string]bool{}
	var missing []string
	var add func(id string, depth int)
	add = func(id string, depth int) {
		n, ok := byID[id]
		if !ok || keep[id] || depth > 64 {
			return
		}
		keep[id] = true
		for _, c := range n.Children {
			add(c, depth+1)
		}
	}
	for _, id := range ids {
		if _, ok := byID[id]; !ok {
			missing = append(missing, id)
			continue
		}
		add(id, 0)
	}
	out := Board{Theme: b.Theme}
	for _, n := range b.Nodes {
		if keep[n.ID] {
			out.Nodes = append(out.Nodes, n)
		}
	}
	for _, e := range b.Edges {
		if keep[e.From] && keep[e.To] {
			out.Edges = append(out.Edges, e)
		}
	}
	return out, missing
}

// Within keeps the nodes whose box meets r and the edges whose ends are
// both on the board and whose line meets r (an edge leaving the region is
// drawn up to its border).
func (b Board) Within(r Rect) Board {
	rects := make(map[string]Rect, len(b.Nodes))
	out := Board{Theme: b.Theme}
	for _, n := range b.Nodes {
		nr := n.rect()
		rects[n.ID] = nr
		if nr.intersects(r) {
			out.Nodes = append(out.Nodes, n)
		}
	}
	for _, e := range b.Edges {
		f, ok1 := rects[e.From]
		t, ok2 := rects[e.To]
		if !ok1 || !ok2 {
			continue
		}
		box := bounds([]Rect{f, t})
		if box.intersects(r) {
			out.Edges = append(out.Edges, e)
		}
	}
	return out
}

// Fit is the box around the board's nodes plus Padding; an empty board
// gets a small box of its own.
func (b Board) Fit() Rect {
	if len(b.Nodes) == 0 {
		return Rect{0, 0, 480, 240}
	}
	rs := make([]Rect, len(b.Nodes))
	for i := range b.Nodes {
		rs[i] = b.Nodes[i].rect()
	}
	box := bounds(rs)
	return Rect{box.X - Padding, box.Y - Padding, math.Max(box.W, 1) + 2*Padding, math.Max(box.H, 1) + 2*Padding}
}

func bounds(rs []Rect) Rect {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, r := range rs {
		minX, minY = math.Min(minX, r.X), math.Min(minY, r.Y)
		maxX, maxY = math.Max(maxX, r.right()), math.Max(maxY, r.bottom())
	}
	return Rect{minX, minY, maxX - minX, maxY - minY}
}
