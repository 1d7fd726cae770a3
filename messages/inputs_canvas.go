package messages

import "encoding/json"

// Opt is an optional input field that tells "absent" (Set false) from an
// explicit JSON null (Set and Null true). Use it where null means something,
// such as dockPosition:null to undock a node.
type Opt[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON records presence and decodes non-null values.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// MarshalJSON renders an absent or null field as null.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Set || o.Null {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

// LooseBool is a boolean input that also takes a number (0 is false, any
// other number true), for the fields the reference coerced with Boolean()
// and that existing clients send as 1/0 (edge animated, node pinned).
type LooseBool bool

// UnmarshalJSON accepts true, false and numbers.
func (b *LooseBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch t := v.(type) {
	case bool:
		*b = LooseBool(t)
	case float64:
		*b = t != 0
	default:
		return &json.UnmarshalTypeError{Value: JSONKind(v), Type: boolType}
	}
	return nil
}

// PointInput is a partial {x,y}.
type PointInput struct {
	X *float64 `json:"x"`
	Y *float64 `json:"y"`
}

// SizeInput is a partial {width,height}.
type SizeInput struct {
	Width  *float64 `json:"width"`
	Height *float64 `json:"height"`
}

// Geometry is the position/size input shared by node creation and update:
// flat x,y,width,height, or the object forms position and size. Flat keys win.
type Geometry struct {
	X        *float64    `json:"x" doc:"World X; auto-placed unless both x and y are given."`
	Y        *float64    `json:"y" doc:"World Y; auto-placed unless both x and y are given."`
	Width    *float64    `json:"width" doc:"Frame width (defaults by type: markdown 640, html 720, mcp-app 960, image 480, ledger 420, webpage 520, others 360)."`
	Height   *float64    `json:"height" doc:"Frame height (defaults by type: markdown 420, html 640, mcp-app 600, image 360, ledger 280, webpage 420, others 200)."`
	Position *PointInput `json:"position" doc:"Object form {x, y}; top-level x/y win."`
	Size     *SizeInput  `json:"size" doc:"Object form {width, height}; top-level width/height win."`
}

// XY returns the effective x and y (flat keys first, then position).
func (g *Geometry) XY() (x, y *float64) {
	x, y = g.X, g.Y
	if g.Position != nil {
		if x == nil {
			x = g.Position.X
		}
		if y == nil {
			y = g.Position.Y
		}
	}
	return x, y
}

// WH returns the effective width and height (flat keys first, then size).
func (g *Geometry) WH() (w, h *float64) {
	w, h = g.Width, g.Height
	if g.Size != nil {
		if w == nil {
			w = g.Size.Width
		}
		if h == nil {
			h = g.Size.Height
		}
	}
	return w, h
}

// TraceFields are the trace node's top-level string fields, copied into data.
type TraceFields struct {
	ToolName      *string `json:"toolName" doc:"Trace nodes: the tool or operation label."`
	Category      *string `json:"category" doc:"Trace nodes: mcp, file, subagent or other."`
	Status        *string `json:"status" doc:"Trace nodes: running, success or failed."`
	Duration      *string `json:"duration" doc:"Trace nodes: duration badge text."`
	ResultSummary *string `json:"resultSummary" doc:"Trace nodes: one-line result summary."`
	Error         *string `json:"error" doc:"Trace nodes: error message."`
}

// HTMLFields are the html node's top-level fields. Html is untyped so the
// domain can answer with the reference's own message for a non-string.
type HTMLFields struct {
	HTML            any            `json:"html" doc:"Html nodes: the document or fragment (a string)." type:"string"`
	Summary         *string        `json:"summary" doc:"Html nodes: agent-readable summary (data.summary)."`
	AgentSummary    *string        `json:"agentSummary" doc:"Html nodes: explicit agent summary (data.agentSummary)."`
	Description     *string        `json:"description" doc:"Html nodes: short description for search and context."`
	Presentation    any            `json:"presentation" doc:"Html nodes: true marks a fullscreen deck." type:"boolean"`
	SlideTitles     []any          `json:"slideTitles" doc:"Html nodes: slide titles (an array)."`
	EmbeddedNodeIDs []any          `json:"embeddedNodeIds" doc:"Html nodes: ids of the nodes the surface represents (an array)."`
	EmbeddedURLs    []any          `json:"embeddedUrls" doc:"Html nodes: URLs the surface represents (an array)."`
	AxCapabilities  map[string]any `json:"axCapabilities" doc:"Html nodes: opt into AX interactions {enabled, allowed[]}."`
}

// NodeAddInput is the input of node.add (POST /api/canvas/node).
type NodeAddInput struct {
	Type       string         `json:"type" doc:"Node type to create." enum:"nodeTypes" pmx:"required,handler"`
	Title      *string        `json:"title" doc:"Node title."`
	Content    *string        `json:"content" doc:"Body: markdown text, a file path (file), an image path, URL or data URI (image), the URL (webpage, when url is absent), or a unified diff (diff)."`
	Data       map[string]any `json:"data" doc:"Extra node data (an object) merged into the node's data."`
	StrictSize *bool          `json:"strictSize" doc:"Keep the given width and height; overflowing content scrolls instead of the frame growing."`
	Geometry
	TraceFields
	HTMLFields

	// Path is the image node's alias for content.
	Path *string `json:"path" doc:"Image nodes: used as the content when content is absent."`
	// URL is the webpage node's address (content is the fallback).
	URL *string `json:"url" doc:"Webpage nodes: the page URL (preferred over content)."`
	// GitDiff and GitBase make a diff node from git.
	GitDiff any     `json:"gitDiff" mcp:"-" doc:"Diff nodes: true, or a list of workspace paths, shows git diff of the workspace (against gitBase) instead of content."`
	GitBase *string `json:"gitBase" mcp:"-" doc:"Diff nodes with gitDiff: the revision to compare the working tree with." default:"\"HEAD\""`
	// Primitive and Kind select an html primitive.
	Primitive *string `json:"primitive" doc:"Html nodes: an HTML primitive kind to generate from data (one of the 19; see the schema's htmlPrimitives)."`
	Kind      *string `json:"kind" doc:"Alias of primitive: the HTML primitive kind (one of the 19; see the schema's htmlPrimitives)."`

	// Group creation fields.
	Children    any     `json:"children" doc:"Group nodes: member ids (alias of childIds, read first)." type:"array"`
	ChildIDs    any     `json:"childIds" doc:"Group nodes: member ids; they must exist and must not be groups." type:"array"`
	ChildLayout *string `json:"childLayout" doc:"Group nodes: pack the members in this layout; omit to keep their positions." enum:"childLayouts"`
	Color       *string `json:"color" doc:"Group nodes: frame accent colour."`

	OutputShape
}

// OutputShape selects the MCP tools' node rendering; the operation itself
// ignores it (HTTP always answers the full node).
type OutputShape struct {
	Full    *bool `json:"full" cli:"-" doc:"true returns the full node payload (with data) instead of the compact one."`
	Verbose *bool `json:"verbose" cli:"-" doc:"Same as full:true."`
}

// NodeGetInput is the input of node.get (GET /api/canvas/node/:id).
type NodeGetInput struct {
	ID           string `json:"id" doc:"Node id." pmx:"required"`
	IncludeBlobs *bool  `json:"includeBlobs" cli:"-" doc:"Ignored: node reads always include large app payloads."`
	OutputShape
}

// DataObject is the data patch as an object (ok false when data is absent
// or not an object).
func (in *NodeUpdateInput) DataObject() (map[string]any, bool) {
	m, ok := in.Data.(map[string]any)
	return m, ok
}

// DataRows is the data patch as chart rows (ok false when data is not an
// array of objects).
func (in *NodeUpdateInput) DataRows() ([]map[string]any, bool) {
	list, ok := in.Data.([]any)
	if !ok {
		return nil, false
	}
	rows := make([]map[string]any, len(list))
	for i, v := range list {
		if rows[i], ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return rows, true
}

// NodeUpdateInput is the input of node.update (PATCH /api/canvas/node/:id).
type NodeUpdateInput struct {
	ID string `json:"id" doc:"Node to patch." pmx:"required"`
	Geometry
	TraceFields
	Type    *string `json:"type" mcp:"-" cli:"-" doc:"Must match the node's type when given (a node's type never changes)."`
	Title   *string `json:"title" doc:"New title."`
	Content *string `json:"content" doc:"New content text."`
	// Data is an object merged into the node's data, or on a graph node
	// the replacement rows (an array), as the reference's PATCH takes both.
	Data        any            `json:"data" schema:"dataObject" doc:"Extra node data (an object) merged into the node's data; on a graph node an array of rows replaces the chart's data."`
	Spec        map[string]any `json:"spec" doc:"Replacement json-render spec or graph payload (graph and json-render nodes)."`
	GraphType   *string        `json:"graphType" doc:"Graph nodes: new chart kind."`
	ChartHeight *float64       `json:"chartHeight" doc:"Graph nodes: plot height (not the frame height)."`
	// ChartOptions patch a graph node's chart: given ones replace the
	// stored ones, the rest are kept. (The MCP tools advertise only the
	// reference's frozen xKey and yKey of them.)
	ChartOptions
	Collapsed      *bool          `json:"collapsed" doc:"Collapse or expand."`
	Pinned         *LooseBool     `json:"pinned" doc:"Pin flag (pinned nodes stay put on arrange); not a context pin."`
	DockPosition   Opt[string]    `json:"dockPosition" doc:"left or right docks the node into a side column; null undocks it." enum:"dockPositions"`
	ArrangeLocked  *bool          `json:"arrangeLocked" doc:"Keep the node out of auto-arrange."`
	StrictSize     *bool          `json:"strictSize" doc:"Keep the given width and height; overflowing content scrolls."`
	HTML           any            `json:"html" doc:"Html nodes: replacement document (a string)."`
	URL            *string        `json:"url" doc:"Webpage nodes: new URL."`
	AxCapabilities map[string]any `json:"axCapabilities" doc:"AX interaction opt-in {enabled, allowed[]}, merged into the node's data."`
	Children       any            `json:"children" doc:"Group nodes: replacement member list."`
	ChildIDs       any            `json:"childIds" doc:"Group nodes: alias of children."`
	Refresh        *bool          `json:"refresh" doc:"true refreshes instead of patching: a webpage node re-fetches its page (at url when given), a file or image node re-reads its file."`
	OutputShape
}

// NodeRemoveInput is the input of node.remove (DELETE /api/canvas/node/:id).
type NodeRemoveInput struct {
	ID string `json:"id" doc:"Node to delete (its edges go too)." pmx:"required"`
}

// LayoutGetInput is the input of layout.get (GET /api/canvas/state).
type LayoutGetInput struct {
	IncludeBlobs *bool `json:"includeBlobs" cli:"-" doc:"Ignored: layout reads always include large app payloads."`
	// View "agent" returns the layout as agents read it (MCP layout reads):
	// annotations as context summaries plus the canvas summary, all from one
	// state. Absent or empty: the HTTP layout.
	View *string `json:"view" mcp:"-" cli:"-" doc:"\"agent\" returns the layout as agents read it (annotation summaries and the canvas summary); absent: the HTTP layout."`
	OutputShape
}

// EdgeAddInput is the input of edge.add (POST /api/canvas/edge).
type EdgeAddInput struct {
	Type       string     `json:"type" doc:"flow: sequence, depends-on: dependency, relation: generic link, references: cross-reference." enum:"edgeTypes" pmx:"required,handler"`
	From       *string    `json:"from" doc:"Source node id."`
	FromSearch *string    `json:"fromSearch" doc:"Find the source by title or content instead of id."`
	To         *string    `json:"to" doc:"Target node id."`
	ToSearch   *string    `json:"toSearch" doc:"Find the target by title or content instead of id."`
	Label      *string    `json:"label" doc:"Edge label."`
	Style      *string    `json:"style" doc:"Stroke style." enum:"edgeStyles"`
	Animated   *LooseBool `json:"animated" doc:"Animated stroke."`
}

// EdgeListInput is the input of edge.list (GET /api/canvas/edges).
type EdgeListInput struct {
	NodeID *string `json:"nodeId" doc:"Only edges from or to this node."`
	Type   *string `json:"type" doc:"Only edges of this type." enum:"edgeTypes"`
}

// EdgeRemoveInput is the input of edge.remove (DELETE /api/canvas/edge). The
// legacy edge_id wins over id.
type EdgeRemoveInput struct {
	EdgeID *string `json:"edge_id" doc:"Legacy alias of id; wins when both are given."`
	ID     *string `json:"id" doc:"Edge id."`
}

// TargetID returns the edge id to remove.
func (in *EdgeRemoveInput) TargetID() string {
	if in.EdgeID != nil && *in.EdgeID != "" {
		return *in.EdgeID
	}
	if in.ID != nil {
		return *in.ID
	}
	return ""
}
