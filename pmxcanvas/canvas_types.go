package pmxcanvas

import "time"

// The types below mirror the wire JSON of the HTTP API (docs/http-api.md):
// their json tags are the wire keys, so a value encodes to what the HTTP
// route returns. A JSON null reads as the zero value ("" for strings, nil
// for pointers and maps).

// Point is a canvas coordinate.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Size is a width and height in canvas units.
type Size struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Bounds is a box on the canvas.
type Bounds struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Viewport is the board's pan and zoom.
type Viewport struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Scale float64 `json:"scale"`
}

// Node is a serialised canvas node.
type Node struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Position  Point  `json:"position"`
	Size      Size   `json:"size"`
	ZIndex    int    `json:"zIndex"`
	Collapsed bool   `json:"collapsed"`
	// Pinned is true for pinned and for context-pinned nodes.
	Pinned bool `json:"pinned"`
	// DockPosition is "left", "right" or "" (not docked).
	DockPosition string         `json:"dockPosition"`
	Data         map[string]any `json:"data"`
	// Kind is the type, except that mcp-app nodes read as web-artifact,
	// external-app or mcp-app.
	Kind string `json:"kind"`
	// Title is data.title (webpages: the page title).
	Title string `json:"title"`
	// Content is the node's readable text.
	Content    string `json:"content"`
	Path       string `json:"path"`
	URL        string `json:"url"`
	SurfaceURL string `json:"surfaceUrl"`
	Provenance any    `json:"provenance,omitempty"`
}

// Edge connects two nodes.
type Edge struct {
	ID    string `json:"id"`
	From  string `json:"from"`
	To    string `json:"to"`
	Type  string `json:"type"`
	Label string `json:"label,omitempty"`
	Style string `json:"style,omitempty"`
	// Animated is nil when the creator did not say.
	Animated *bool `json:"animated,omitempty"`
}

// Annotation is human ink on the canvas: a freehand stroke or a text label.
type Annotation struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Points    []Point   `json:"points"`
	Bounds    Bounds    `json:"bounds"`
	Color     string    `json:"color"`
	Width     float64   `json:"width"`
	Text      string    `json:"text,omitempty"`
	Label     string    `json:"label,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// Layout is the whole canvas (GET /api/canvas/state).
type Layout struct {
	Viewport    Viewport     `json:"viewport"`
	Theme       string       `json:"theme"`
	Nodes       []Node       `json:"nodes"`
	Edges       []Edge       `json:"edges"`
	Annotations []Annotation `json:"annotations"`
	// Revision counts the canvas's committed layout changes.
	Revision uint64 `json:"revision"`
}

// Node returns the node with id, or nil.
func (l *Layout) Node(id string) *Node {
	for i := range l.Nodes {
		if l.Nodes[i].ID == id {
			return &l.Nodes[i]
		}
	}
	return nil
}

// ContextNode is a node as agent context reads it (pinned, focused).
type ContextNode struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Kind     string `json:"kind"`
	Title    string `json:"title"`
	Content  string `json:"content"`
	Metadata any    `json:"metadata,omitempty"`
	Position Point  `json:"position"`
}

// PinnedContext is the pinned nodes as agent context.
type PinnedContext struct {
	// Preamble is the pinned content as one text for a prompt.
	Preamble string        `json:"preamble"`
	NodeIDs  []string      `json:"nodeIds"`
	Count    int           `json:"count"`
	Nodes    []ContextNode `json:"nodes"`
}

// Snapshot describes a saved layout.
type Snapshot struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	NodeCount int       `json:"nodeCount"`
	EdgeCount int       `json:"edgeCount"`
}
