package messages

import (
	"encoding/json"
	"time"
)

// Outputs of the layout operations: the reply bodies as clients decode
// them. Their json tags are the wire keys (docs/http-api.md); a JSON null
// reads as the zero value. The domain renders these bodies itself; these
// types are the typed view every surface and the Go package decode into.

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

// Node is a serialised canvas node (node.get).
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

// NodeResult is the node response of node.add, node.update and
// group.create (the node's fields also appear at the top level).
type NodeResult struct {
	OK       bool   `json:"ok"`
	Node     Node   `json:"node"`
	NodeID   string `json:"nodeId"`
	Revision uint64 `json:"revision"`
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

// EdgeResult is edge.add's reply: the edge's fields at the top level.
type EdgeResult struct {
	OK bool `json:"ok"`
	Edge
	Revision uint64 `json:"revision"`
}

// Removed is the reply of a delete (node, edge, annotation).
type Removed struct {
	OK       bool   `json:"ok"`
	Removed  string `json:"removed"`
	Revision uint64 `json:"revision"`
}

// GroupResult is the reply of group.add and group.remove.
type GroupResult struct {
	OK       bool   `json:"ok"`
	GroupID  string `json:"groupId"`
	Revision uint64 `json:"revision"`
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

// AnnotationSummary is an annotation without its points, as annotation.add
// and annotation.list answer.
type AnnotationSummary struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Bounds     Bounds    `json:"bounds"`
	Color      string    `json:"color"`
	Width      float64   `json:"width"`
	PointCount int       `json:"pointCount"`
	Text       string    `json:"text,omitempty"`
	Label      string    `json:"label,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
}

// AnnotationResult is annotation.add's reply.
type AnnotationResult struct {
	OK         bool              `json:"ok"`
	Annotation AnnotationSummary `json:"annotation"`
	Revision   uint64            `json:"revision"`
}

// Annotations is annotation.list's reply.
type Annotations struct {
	Annotations []AnnotationSummary `json:"annotations"`
}

// Layout is the whole canvas (layout.get).
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

// PinnedContext is the pinned nodes as agent context (pinned.get).
type PinnedContext struct {
	// Preamble is the pinned content as one text for a prompt.
	Preamble string        `json:"preamble"`
	NodeIDs  []string      `json:"nodeIds"`
	Count    int           `json:"count"`
	Nodes    []ContextNode `json:"nodes"`
}

// Pins are the canvas's context pins (pin.set).
type Pins struct {
	Count   int      `json:"count"`
	NodeIDs []string `json:"nodeIds"`
}

// SearchHit is one search result.
type SearchHit struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Title   string  `json:"title"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// SearchResults are the hits of a search, best first.
type SearchResults struct {
	Query string `json:"query"`
	// ResultCount is the number of hits before the limit.
	ResultCount int         `json:"resultCount"`
	Results     []SearchHit `json:"results"`
}

// Validation reports layout problems (validate.get).
type Validation struct {
	// OK is true when there is nothing to report.
	OK                    bool             `json:"ok"`
	Collisions            []Collision      `json:"collisions"`
	Containments          []Containment    `json:"containments"`
	ContainmentViolations []Containment    `json:"containmentViolations"`
	MissingEdgeEndpoints  []MissingEdgeEnd `json:"missingEdgeEndpoints"`
	// Summary counts nodes, edges and each kind of problem.
	Summary map[string]int `json:"summary"`
}

// Collision is two overlapping nodes.
type Collision struct {
	AID    string `json:"aId"`
	ATitle string `json:"aTitle"`
	BID    string `json:"bId"`
	BTitle string `json:"bTitle"`
}

// Containment is a group member and its group.
type Containment struct {
	GroupID    string `json:"groupId"`
	GroupTitle string `json:"groupTitle"`
	ChildID    string `json:"childId"`
	ChildTitle string `json:"childTitle"`
}

// MissingEdgeEnd is an edge whose end is gone.
type MissingEdgeEnd struct {
	EdgeID string `json:"edgeId"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// ThemeResult is the reply of theme.get and theme.set.
type ThemeResult struct {
	OK       bool   `json:"ok"`
	Theme    string `json:"theme"`
	Revision uint64 `json:"revision,omitempty"`
}

// ViewportResult is viewport.set's reply.
type ViewportResult struct {
	OK       bool     `json:"ok"`
	Viewport Viewport `json:"viewport"`
	Revision uint64   `json:"revision"`
}

// FocusResult says what node.focus did.
type FocusResult struct {
	Focused string `json:"focused"`
	Panned  bool   `json:"panned"`
}

// FitResult is the viewport view.fit set.
type FitResult struct {
	Viewport  Viewport `json:"viewport"`
	NodeCount int      `json:"nodeCount"`
	// Bounds is the fitted box; nil on an empty canvas.
	Bounds *Bounds `json:"bounds"`
}

// ArrangeResult says what arrange did. OK is false (with Validation) when
// the result still has layout problems.
type ArrangeResult struct {
	OK         bool        `json:"ok"`
	Arranged   int         `json:"arranged"`
	Layout     string      `json:"layout"`
	Validation *Validation `json:"validation,omitempty"`
}

// Written is the reply of a write that answers only its revision
// (canvas.clear).
type Written struct {
	OK       bool   `json:"ok"`
	Revision uint64 `json:"revision"`
}

// UpdateResult counts what layout.update applied.
type UpdateResult struct {
	OK      bool `json:"ok"`
	Applied int  `json:"applied"`
	Skipped int  `json:"skipped"`
	Dropped int  `json:"dropped"`
}

// HistoryEntry is one undoable change.
type HistoryEntry struct {
	ID            string    `json:"id"`
	Timestamp     time.Time `json:"timestamp"`
	Description   string    `json:"description"`
	OperationType string    `json:"operationType"`
	// Agent made the change (X-PMX-Agent); "" when unnamed.
	Agent     string `json:"agent,omitempty"`
	IsCurrent bool   `json:"isCurrent"`
	IsUndone  bool   `json:"isUndone"`
}

// History is the undo log (history.get).
type History struct {
	Text    string         `json:"text"`
	Entries []HistoryEntry `json:"entries"`
	CanUndo bool           `json:"canUndo"`
	CanRedo bool           `json:"canRedo"`
}

// HistoryStep is the outcome of canvas.undo or canvas.redo. OK is false
// (with "Nothing to undo" / "Nothing to redo") when there was nothing to
// do.
type HistoryStep struct {
	OK          bool   `json:"ok"`
	Description string `json:"description"`
}

// Snapshot describes a saved layout.
type Snapshot struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	NodeCount int       `json:"nodeCount"`
	EdgeCount int       `json:"edgeCount"`
	// Bytes is the size of the stored content.
	Bytes int `json:"bytes"`
}

// SnapshotSaved is snapshot.save's reply.
type SnapshotSaved struct {
	OK       bool     `json:"ok"`
	ID       string   `json:"id"`
	Snapshot Snapshot `json:"snapshot"`
	Revision uint64   `json:"revision"`
}

// SnapshotRestored is snapshot.restore's reply.
type SnapshotRestored struct {
	OK       bool     `json:"ok"`
	Restored Snapshot `json:"restored"`
	Revision uint64   `json:"revision"`
}

// SnapshotDeleted is snapshot.delete's reply.
type SnapshotDeleted struct {
	OK       bool     `json:"ok"`
	Deleted  Snapshot `json:"deleted"`
	Revision uint64   `json:"revision"`
}

// DiffNode names a node in a snapshot diff.
type DiffNode struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	// Changes lists what changed (modified nodes only).
	Changes []string `json:"changes,omitempty"`
}

// DiffEdge names an edge in a snapshot diff.
type DiffEdge struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

// SnapshotDiff is the current canvas against a snapshot.
type SnapshotDiff struct {
	// Text is the diff as the reference formats it.
	Text string `json:"text"`
	Diff struct {
		SnapshotName  string     `json:"snapshotName"`
		AddedNodes    []DiffNode `json:"addedNodes"`
		RemovedNodes  []DiffNode `json:"removedNodes"`
		ModifiedNodes []DiffNode `json:"modifiedNodes"`
		AddedEdges    []DiffEdge `json:"addedEdges"`
		RemovedEdges  []DiffEdge `json:"removedEdges"`
	} `json:"diff"`
}

// SnapshotGC is what snapshot.gc kept and deleted.
type SnapshotGC struct {
	Kept    int        `json:"kept"`
	Deleted []Snapshot `json:"deleted"`
	DryRun  bool       `json:"dryRun"`
}

// BatchResult holds each batch entry's result and the assigned ones.
type BatchResult struct {
	Results []json.RawMessage          `json:"results"`
	Refs    map[string]json.RawMessage `json:"refs"`
}

// Ref returns the id of the result assigned to name ("" if none).
func (r *BatchResult) Ref(name string) string {
	var v struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(r.Refs[name], &v)
	return v.ID
}

// ImportResult is canvas.import's reply: counts, and the new id of each
// imported node and edge by its id in the document.
type ImportResult struct {
	OK       bool              `json:"ok"`
	Nodes    int               `json:"nodes"`
	Edges    int               `json:"edges"`
	NodeIDs  map[string]string `json:"nodeIds"`
	EdgeIDs  map[string]string `json:"edgeIds"`
	Revision uint64            `json:"revision"`
}

// BoardView is the reply of board.show: a compact, read-mostly picture of
// the board for a small live view (the board MCP App): every node's box
// and title, the edges, the context pins and the approvals waiting on the
// human.
type BoardView struct {
	OK               bool            `json:"ok"`
	Revision         uint64          `json:"revision"`
	Summary          string          `json:"summary"`
	Nodes            []BoardNode     `json:"nodes"`
	Edges            []BoardEdge     `json:"edges"`
	Pins             []string        `json:"pins"`
	PendingApprovals []BoardApproval `json:"pendingApprovals"`
}

// BoardNode is one node of a BoardView.
type BoardNode struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind"`
	Title     string  `json:"title"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Width     float64 `json:"width"`
	Height    float64 `json:"height"`
	Collapsed bool    `json:"collapsed,omitempty"`
}

// BoardEdge is one edge of a BoardView.
type BoardEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// BoardApproval is a pending approval gate of a BoardView.
type BoardApproval struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Detail  string   `json:"detail,omitempty"`
	NodeIDs []string `json:"nodeIds"`
}
