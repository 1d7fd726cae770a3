package canvas

import "strings"

// AnnotationInfo is the reply summary of an annotation (POST
// /api/canvas/annotation): the stored fields without the points, plus the
// point count.
type AnnotationInfo struct {
	ID         string  `json:"id"`
	Type       string  `json:"type"`
	Bounds     Bounds  `json:"bounds"`
	Color      string  `json:"color"`
	Width      float64 `json:"width"`
	PointCount int     `json:"pointCount"`
	Text       *string `json:"text"`
	Label      *string `json:"label"`
	CreatedAt  string  `json:"createdAt"`
}

// AnnotationSummary summarises a for the annotation reply; an absent text
// or label is null.
func AnnotationSummary(a *Annotation) AnnotationInfo {
	return AnnotationInfo{
		ID: a.ID, Type: a.Type, Bounds: BoundsOf(a.Bounds), Color: a.Color, Width: a.Width,
		PointCount: len(a.Points), Text: nonEmpty(a.Text), Label: nonEmpty(a.Label), CreatedAt: a.CreatedAt,
	}
}

// AnnotationContext is an annotation as agents read it: what it says and
// which nodes it marks.
type AnnotationContext struct {
	ID               string   `json:"id"`
	Label            *string  `json:"label"`
	Bounds           Bounds   `json:"bounds"`
	TargetNodeIDs    []string `json:"targetNodeIds"`
	TargetNodeTitles []string `json:"targetNodeTitles"`
	// Target is the target titles joined with ", ", or
	// "empty canvas region" when the ink marks no node.
	Target string `json:"target"`
}

// AnnotationContextOf summarises a for agents. Its targets are the nodes
// (docked ones included) whose box touches or overlaps the annotation's
// bounds, in layout order; a target's title is its data.title, or its id
// when that is empty. The label is the label, else the text, else null.
func AnnotationContextOf(s *State, a *Annotation) AnnotationContext {
	c := AnnotationContext{
		ID: a.ID, Label: nonEmpty(a.Label), Bounds: BoundsOf(a.Bounds),
		TargetNodeIDs: []string{}, TargetNodeTitles: []string{},
	}
	if c.Label == nil {
		c.Label = nonEmpty(a.Text)
	}
	for _, n := range touching(s.Nodes, a.Bounds) {
		title := str(n.Data, "title")
		if title == "" {
			title = n.ID
		}
		c.TargetNodeIDs = append(c.TargetNodeIDs, n.ID)
		c.TargetNodeTitles = append(c.TargetNodeTitles, title)
	}
	c.Target = "empty canvas region"
	if len(c.TargetNodeTitles) > 0 {
		c.Target = strings.Join(c.TargetNodeTitles, ", ")
	}
	return c
}

// touching returns the nodes whose box touches or overlaps r (edges in
// contact count), in layout order. The index is asked with a small gap, a
// superset of the inclusive test, which then filters exactly.
func touching(nodes NodeSet, r Rect) []*Node {
	var out []*Node
	for _, n := range nodes.Overlapping(r, 1) {
		o := n.Rect()
		if r.X <= o.Right() && r.Right() >= o.X && r.Y <= o.Bottom() && r.Bottom() >= o.Y {
			out = append(out, n)
		}
	}
	return out
}

func annotationContexts(s *State) []AnnotationContext {
	anns := s.Annotations.All()
	out := make([]AnnotationContext, 0, len(anns))
	for _, a := range anns {
		out = append(out, AnnotationContextOf(s, a))
	}
	return out
}

// SummaryResult is GET /api/canvas/summary: counts, annotations, node
// kinds, pinned nodes and the viewport.
type SummaryResult struct {
	TotalNodes       int                 `json:"totalNodes"`
	TotalEdges       int                 `json:"totalEdges"`
	TotalAnnotations int                 `json:"totalAnnotations"`
	Annotations      []AnnotationContext `json:"annotations"`
	// NodesByType counts nodes by kind (mcp-app nodes split into
	// web-artifact, external-app and mcp-app), in order of first appearance.
	NodesByType  Fields   `json:"nodesByType"`
	PinnedCount  int      `json:"pinnedCount"`
	PinnedTitles []string `json:"pinnedTitles"`
	Viewport     Viewport `json:"viewport"`
}

// Summary is the canvas at a glance. Pinned titles are the serialized
// titles (id when there is none) of the context-pinned nodes, in layout
// order.
func Summary(s *State) SummaryResult {
	res := SummaryResult{
		TotalNodes: s.Nodes.Len(), TotalEdges: s.Edges.Len(), TotalAnnotations: s.Annotations.Len(),
		Annotations: annotationContexts(s), NodesByType: Fields{}, PinnedTitles: []string{}, Viewport: s.Viewport,
	}
	counts := map[string]int{}
	var kinds []string
	pins := pinSet(s.Pins)
	s.Nodes.Each(func(n *Node) bool {
		k := Kind(n)
		if _, seen := counts[k]; !seen {
			kinds = append(kinds, k)
		}
		counts[k]++
		if pins[n.ID] {
			t := Title(n)
			if t == "" {
				t = n.ID
			}
			res.PinnedTitles = append(res.PinnedTitles, t)
		}
		return true
	})
	for _, k := range kinds {
		res.NodesByType = append(res.NodesByType, Field{k, counts[k]})
	}
	res.PinnedCount = len(res.PinnedTitles)
	return res
}
