// Package canvas is the pure core of the canvas domain: nodes, edges,
// annotations, pins, viewport and theme as immutable values, and the rules
// that change them (placement, validation, merge rules, search).
//
// It does no I/O and imports no actor, HTTP, MCP or storage package: the
// Layout actor decodes a message, calls into this package, persists the
// resulting Change, publishes the new State and replies.
package canvas

import (
	"sync"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Point is a world coordinate.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Size is a width and height in world units.
type Size struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Rect is an axis-aligned box.
type Rect struct {
	X, Y, W, H float64
}

// Right returns the x of the right edge.
func (r Rect) Right() float64 { return r.X + r.W }

// Bottom returns the y of the bottom edge.
func (r Rect) Bottom() float64 { return r.Y + r.H }

// OverlapsWithGap reports whether r and o overlap once o is inflated by gap
// on every side (the reference's rectsOverlap).
func (r Rect) OverlapsWithGap(o Rect, gap float64) bool {
	return r.X < o.X+o.W+gap && r.X+r.W+gap > o.X && r.Y < o.Y+o.H+gap && r.Y+r.H+gap > o.Y
}

// Viewport is the pan and zoom of the board.
type Viewport struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Scale float64 `json:"scale"`
}

// DefaultViewport is the viewport of a new canvas.
var DefaultViewport = Viewport{X: 0, Y: 0, Scale: 1}

// Themes accepted by the canvas; the first is the default.
var Themes = []string{"dark", "light", "high-contrast"}

// Node is one item on the board. A *Node is immutable once it is in a State:
// changes make a new Node (see With* helpers), so views can share it.
type Node struct {
	ID        string
	Type      string
	Position  Point
	Size      Size
	ZIndex    int
	Collapsed bool
	Pinned    bool
	// DockPosition is "left", "right" or "" (not docked, JSON null).
	DockPosition string
	// Data is the type-specific payload. Never mutate it in place.
	Data map[string]any
	// Ord is the node's place in layout order (insertion order). It is kept
	// through updates and restored by undo, so order survives round trips.
	Ord uint64

	cache *nodeCache // lazily built wire forms and search fields; set by NodeSet.Put, cleared by Clone
}

// nodeCache holds what a node's readers derive from it. A Node never
// changes once it is in a set, so its default wire and raw JSON are rendered
// at most once, by the first reader that needs them (a 10,000-node layout is
// a concatenation), and its search fields are built by the first search.
type nodeCache struct {
	wireOnce, rawOnce, searchOnce sync.Once
	wire, raw                     []byte
	// search holds the lower-cased fields a search matches, built by the
	// first search (not on the write path: a file node's content is
	// copied when it has capitals).
	search *searchFields
}

// Rect returns the node's bounding box.
func (n *Node) Rect() Rect {
	return Rect{X: n.Position.X, Y: n.Position.Y, W: n.Size.Width, H: n.Size.Height}
}

// Clone returns a shallow copy whose Data map may be changed freely.
func (n *Node) Clone() *Node {
	c := *n
	c.cache = nil
	c.Data = make(map[string]any, len(n.Data)+2)
	for k, v := range n.Data {
		c.Data[k] = v
	}
	return &c
}

// DataString returns data[key] when it is a string.
func (n *Node) DataString(key string) (string, bool) {
	s, ok := n.Data[key].(string)
	return s, ok
}

// ParentGroup returns the id of the group the node belongs to, if any.
func (n *Node) ParentGroup() string {
	s, _ := n.DataString("parentGroup")
	return s
}

// Children returns a group node's member ids.
func (n *Node) Children() []string {
	return stringList(n.Data["children"])
}

func stringList(v any) []string {
	switch t := v.(type) {
	case []string:
		return t
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Edge connects two nodes.
type Edge struct {
	ID    string
	From  string
	To    string
	Type  string
	Label string // "" = absent
	Style string // "" = absent
	// Animated is nil when the creator did not say; false is kept (the
	// reference dropped it on reload).
	Animated *bool
	// JSONCanvas keeps what a JSON Canvas import carried that pmx edges do
	// not model (sides, ends, color), so export gives it back.
	JSONCanvas *JSONCanvasEdgeExtra
	Ord        uint64
}

// EdgeTypes and EdgeStyles are the accepted edge types and styles
// (declared in messages).
var (
	EdgeTypes  = messages.EdgeTypes
	EdgeStyles = messages.EdgeStyles
)

// Annotation is human ink on the canvas: a freehand stroke or a text label.
type Annotation struct {
	ID        string
	Type      string // "freehand" | "text"
	Points    []Point
	Bounds    Rect
	Color     string
	Width     float64
	Text      string
	Label     string
	CreatedAt string
	Ord       uint64
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
