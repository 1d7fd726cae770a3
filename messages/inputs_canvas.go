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
	X        *float64    `json:"x"`
	Y        *float64    `json:"y"`
	Width    *float64    `json:"width"`
	Height   *float64    `json:"height"`
	Position *PointInput `json:"position"`
	Size     *SizeInput  `json:"size"`
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
	ToolName      *string `json:"toolName"`
	Category      *string `json:"category"`
	Status        *string `json:"status"`
	Duration      *string `json:"duration"`
	ResultSummary *string `json:"resultSummary"`
	Error         *string `json:"error"`
}

// HTMLFields are the html node's top-level fields. Html is untyped so the
// domain can answer with the reference's own message for a non-string.
type HTMLFields struct {
	HTML            any            `json:"html"`
	Summary         *string        `json:"summary"`
	AgentSummary    *string        `json:"agentSummary"`
	Description     *string        `json:"description"`
	Presentation    any            `json:"presentation"`
	SlideTitles     []any          `json:"slideTitles"`
	EmbeddedNodeIDs []any          `json:"embeddedNodeIds"`
	EmbeddedURLs    []any          `json:"embeddedUrls"`
	AxCapabilities  map[string]any `json:"axCapabilities"`
}

// NodeAddInput is the input of node.add (POST /api/canvas/node).
type NodeAddInput struct {
	Type       string         `json:"type"`
	Title      *string        `json:"title"`
	Content    *string        `json:"content"`
	Data       map[string]any `json:"data"`
	StrictSize *bool          `json:"strictSize"`
	Geometry
	TraceFields
	HTMLFields

	// Path is the image node's alias for content.
	Path *string `json:"path"`
	// URL is the webpage node's address (content is the fallback).
	URL *string `json:"url"`
	// Primitive and Kind select an html primitive.
	Primitive *string `json:"primitive"`
	Kind      *string `json:"kind"`

	// Group creation fields.
	Children    any     `json:"children"`
	ChildIDs    any     `json:"childIds"`
	ChildLayout *string `json:"childLayout"`
	Color       *string `json:"color"`

	// Full and Verbose shape MCP output only; HTTP ignores them.
	Full    *bool `json:"full"`
	Verbose *bool `json:"verbose"`
}

// NodeGetInput is the input of node.get (GET /api/canvas/node/:id).
type NodeGetInput struct {
	ID           string `json:"id"`
	IncludeBlobs *bool  `json:"includeBlobs"`
}

// NodeUpdateInput is the input of node.update (PATCH /api/canvas/node/:id).
type NodeUpdateInput struct {
	ID string `json:"id"`
	Geometry
	TraceFields
	Type           *string        `json:"type"`
	Title          *string        `json:"title"`
	Content        *string        `json:"content"`
	Data           map[string]any `json:"data"`
	Collapsed      *bool          `json:"collapsed"`
	Pinned         *LooseBool     `json:"pinned"`
	DockPosition   Opt[string]    `json:"dockPosition"`
	ArrangeLocked  *bool          `json:"arrangeLocked"`
	StrictSize     *bool          `json:"strictSize"`
	HTML           any            `json:"html"`
	URL            *string        `json:"url"`
	AxCapabilities map[string]any `json:"axCapabilities"`
	Children       any            `json:"children"`
	ChildIDs       any            `json:"childIds"`
	Refresh        *bool          `json:"refresh"`
}

// NodeRemoveInput is the input of node.remove (DELETE /api/canvas/node/:id).
type NodeRemoveInput struct {
	ID string `json:"id"`
}

// LayoutGetInput is the input of layout.get (GET /api/canvas/state).
type LayoutGetInput struct {
	IncludeBlobs *bool `json:"includeBlobs"`
	// View "agent" returns the layout as agents read it (MCP layout reads):
	// annotations as context summaries plus the canvas summary, all from one
	// state. Absent or empty: the HTTP layout.
	View *string `json:"view"`
}

// EdgeAddInput is the input of edge.add (POST /api/canvas/edge).
type EdgeAddInput struct {
	Type       string     `json:"type"`
	From       *string    `json:"from"`
	FromSearch *string    `json:"fromSearch"`
	To         *string    `json:"to"`
	ToSearch   *string    `json:"toSearch"`
	Label      *string    `json:"label"`
	Style      *string    `json:"style"`
	Animated   *LooseBool `json:"animated"`
}

// EdgeRemoveInput is the input of edge.remove (DELETE /api/canvas/edge). The
// legacy edge_id wins over id.
type EdgeRemoveInput struct {
	EdgeID *string `json:"edge_id"`
	ID     *string `json:"id"`
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
