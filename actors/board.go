package actors

import (
	"fmt"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// board.show: the compact board the board MCP App draws, from the
// published views (no mailbox).
func init() {
	readHandlers["board.show"] = func(s *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		out := &messages.BoardView{OK: true, Revision: s.Revision, Nodes: []messages.BoardNode{}, Edges: []messages.BoardEdge{},
			Pins: append([]string{}, s.Pins...), PendingApprovals: []messages.BoardApproval{}}
		for _, n := range s.Nodes.All() {
			out.Nodes = append(out.Nodes, messages.BoardNode{ID: n.ID, Kind: canvas.Kind(n), Title: canvas.Title(n),
				X: n.Position.X, Y: n.Position.Y, Width: n.Size.Width, Height: n.Size.Height, Collapsed: n.Collapsed})
		}
		for _, e := range s.Edges.All() {
			out.Edges = append(out.Edges, messages.BoardEdge{From: e.From, To: e.To})
		}
		for _, g := range ref.gatesView.Load().Approvals {
			if g.Status != "pending" {
				continue
			}
			a := messages.BoardApproval{ID: g.ID, Title: g.Title, NodeIDs: append([]string{}, g.NodeIDs...)}
			if g.Detail != nil {
				a.Detail = *g.Detail
			}
			out.PendingApprovals = append(out.PendingApprovals, a)
		}
		out.Summary = fmt.Sprintf("%s, %s, %s pinned as context, %s waiting on the human.",
			plural(len(out.Nodes), "node"), plural(len(out.Edges), "edge"), plural(len(out.Pins), "node"),
			plural(len(out.PendingApprovals), "approval"))
		return out, nil
	}
}
