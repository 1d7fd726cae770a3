package canvas

import (
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// AddEdge creates an edge from edge.add input. Endpoints are given by id or
// resolved from a search; an id wins over a search when both are given.
func AddEdge(tx *Tx, in *messages.EdgeAddInput) (*Edge, *messages.Error) {
	hasFrom := nonBlank(in.From) || nonBlank(in.FromSearch)
	hasTo := nonBlank(in.To) || nonBlank(in.ToSearch)
	if in.Type == "" || !hasFrom || !hasTo {
		return nil, messages.BadRequest("Missing required fields: type plus from/fromSearch and to/toSearch.")
	}
	if !contains(EdgeTypes, in.Type) {
		return nil, messages.BadRequest("Invalid edge type: %q.", in.Type)
	}
	if in.Style != nil && *in.Style != "" && !contains(EdgeStyles, *in.Style) {
		return nil, messages.BadRequest("Invalid edge style: %q. Use solid, dashed, or dotted.", *in.Style)
	}
	from, err := ResolveNode(tx.State(), in.From, in.FromSearch)
	if err != nil {
		return nil, err
	}
	to, err := ResolveNode(tx.State(), in.To, in.ToSearch)
	if err != nil {
		return nil, err
	}
	if from.ID == to.ID || hasEdge(tx.State(), from.ID, to.ID, in.Type) {
		return nil, messages.BadRequest("Duplicate or self-edge.")
	}
	e := &Edge{ID: tx.NewEdgeID(), From: from.ID, To: to.ID, Type: in.Type}
	if in.Label != nil {
		e.Label = *in.Label
	}
	if in.Style != nil {
		e.Style = *in.Style
	}
	if in.Animated != nil {
		a := bool(*in.Animated)
		e.Animated = &a
	}
	tx.PutEdge(e)
	tx.Describe("addEdge", "Added "+e.Type+" edge "+e.From+" → "+e.To)
	tx.EmitLayout()
	return e, nil
}

func hasEdge(s *State, from, to, typ string) bool {
	for _, id := range s.Edges.Touching(from) {
		if e, ok := s.Edges.Get(id); ok && e.From == from && e.To == to && e.Type == typ {
			return true
		}
	}
	return false
}

// RemoveEdge deletes the edge with id.
func RemoveEdge(tx *Tx, id string) *messages.Error {
	if id == "" {
		return messages.BadRequest("Missing edge_id.")
	}
	e, ok := tx.State().Edges.Get(id)
	if !ok {
		return messages.NotFound("Edge %q not found.", id)
	}
	tx.DeleteEdge(id)
	tx.Describe("removeEdge", "Removed "+e.Type+" edge "+e.From+" → "+e.To)
	tx.EmitLayout()
	return nil
}

// EdgeResponse is edge.add's reply: {ok:true, id, from, to, type, label?, style?, animated?}.
func EdgeResponse(e *Edge) map[string]any {
	out := map[string]any{"ok": true, "id": e.ID, "from": e.From, "to": e.To, "type": e.Type}
	if e.Label != "" {
		out["label"] = e.Label
	}
	if e.Style != "" {
		out["style"] = e.Style
	}
	if e.Animated != nil {
		out["animated"] = *e.Animated
	}
	return out
}

func nonBlank(s *string) bool { return s != nil && strings.TrimSpace(*s) != "" }
