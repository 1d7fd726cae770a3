package canvas

// AgentLayout is the layout as agents read it (layout.get with view
// "agent", which the MCP layout reads use): the HTTP layout's viewport,
// theme, nodes and edges, with the annotations as context summaries (what
// they say and which nodes they mark, never stroke points) and the canvas
// summary, all taken from one state so they agree.
type AgentLayout struct {
	Viewport    Viewport            `json:"viewport"`
	Theme       string              `json:"theme"`
	Nodes       []WireNode          `json:"nodes"`
	Edges       []WireEdge          `json:"edges"`
	Annotations []AnnotationContext `json:"annotations"`
	Summary     SummaryResult       `json:"summary"`
	Revision    uint64              `json:"revision"`
}

// AgentLayout renders s for agents.
func (s *State) AgentLayout(opts ReadOptions) AgentLayout {
	l := s.WireLayout(opts)
	sum := Summary(s)
	return AgentLayout{Viewport: l.Viewport, Theme: l.Theme, Nodes: l.Nodes.([]WireNode), Edges: l.Edges,
		Annotations: sum.Annotations, Summary: sum, Revision: l.Revision}
}
