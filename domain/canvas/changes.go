package canvas

import (
	"encoding/json"
	"slices"
)

// EventChanges is the frame that says what one commit changed, node by
// node: a client that holds the layout at BaseRevision patches it instead
// of replacing the whole board (the canvas-layout-update frame, which
// stays for clients that ask for it).
const EventChanges = "canvas-changes"

// ChangesFrame renders one commit's change as the layout frame would show
// the records it touched: nodes as raw nodes (with the context-pin flag),
// edges and annotations in their wire form, plus the ids removed. A node
// whose context pin flipped is listed as changed.
type ChangesFrame struct {
	// State is the canvas after the commit; Change what the commit did.
	State  *State
	Change *Change
	// BaseRevision is the revision the change applies to (the previous
	// frame's); a client at another revision reloads the layout.
	BaseRevision uint64
	// Agent is who made the change (the envelope's agent), "" if unknown.
	Agent     string
	SessionID string
	Timestamp string
}

// changesWire is the frame's JSON.
type changesWire struct {
	Revision           uint64            `json:"revision"`
	BaseRevision       uint64            `json:"baseRevision"`
	Nodes              []json.RawMessage `json:"nodes"`
	RemovedNodes       []string          `json:"removedNodes"`
	Edges              []WireEdge        `json:"edges"`
	RemovedEdges       []string          `json:"removedEdges"`
	Annotations        []WireAnnotation  `json:"annotations"`
	RemovedAnnotations []string          `json:"removedAnnotations"`
	Pins               []string          `json:"pins,omitempty"`
	Viewport           *Viewport         `json:"viewport,omitempty"`
	Theme              string            `json:"theme,omitempty"`
	Agent              string            `json:"agent,omitempty"`
	SessionID          string            `json:"sessionId"`
	Timestamp          string            `json:"timestamp"`
}

// MarshalJSON implements json.Marshaler.
func (f ChangesFrame) MarshalJSON() ([]byte, error) { return f.JSONBytes() }

// JSONBytes renders the frame; changed nodes come from their cached JSON.
func (f ChangesFrame) JSONBytes() ([]byte, error) {
	s, ch := f.State, f.Change
	w := changesWire{Revision: s.Revision, BaseRevision: f.BaseRevision, Agent: f.Agent, SessionID: f.SessionID,
		Timestamp: f.Timestamp, Nodes: []json.RawMessage{}, RemovedNodes: []string{}, Edges: []WireEdge{},
		RemovedEdges: []string{}, Annotations: []WireAnnotation{}, RemovedAnnotations: []string{}}
	// A transaction lists each record once; a pin flip may name a node
	// the commit also changed.
	changed := make([]string, 0, len(ch.Nodes))
	listed := make(map[string]bool, len(ch.Nodes))
	for _, c := range ch.Nodes {
		changed, listed[c.ID] = append(changed, c.ID), true
	}
	if ch.PinsChanged {
		w.Pins = append([]string{}, s.Pins...)
		for _, id := range pinFlips(ch.PinsBefore, ch.PinsAfter) {
			if !listed[id] {
				changed, listed[id] = append(changed, id), true
			}
		}
	}
	pins := pinSet(s.Pins)
	for _, id := range changed {
		n, ok := s.Nodes.Get(id)
		if !ok {
			w.RemovedNodes = append(w.RemovedNodes, id)
			continue
		}
		var js []byte
		var err error
		if pins[id] && !n.Pinned {
			js, err = json.Marshal(Raw(n, true))
		} else {
			js, err = n.rawJSON()
		}
		if err != nil {
			return nil, err
		}
		w.Nodes = append(w.Nodes, js)
	}
	for _, c := range ch.Edges {
		if e, ok := s.Edges.Get(c.ID); ok {
			w.Edges = append(w.Edges, WireOfEdge(e))
		} else {
			w.RemovedEdges = append(w.RemovedEdges, c.ID)
		}
	}
	for _, c := range ch.Annotations {
		if a, ok := s.Annotations.Get(c.ID); ok {
			w.Annotations = append(w.Annotations, WireOfAnnotation(a))
		} else {
			w.RemovedAnnotations = append(w.RemovedAnnotations, c.ID)
		}
	}
	if ch.ViewportChanged {
		v := s.Viewport
		w.Viewport = &v
	}
	if ch.ThemeChanged {
		w.Theme = s.Theme
	}
	return json.Marshal(w)
}

// pinFlips lists the ids pinned in exactly one of before and after.
func pinFlips(before, after []string) []string {
	var out []string
	for _, id := range before {
		if !slices.Contains(after, id) {
			out = append(out, id)
		}
	}
	for _, id := range after {
		if !slices.Contains(before, id) {
			out = append(out, id)
		}
	}
	return out
}
