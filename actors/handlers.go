package actors

import (
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// readHandler answers a read operation from a published view.
type readHandler func(s *canvas.State, env *messages.Envelope) (any, *messages.Error)

// writeHandler runs a write operation as a transaction on the working state.
type writeHandler func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error)

// readHandlers and writeHandlers hold one handler per catalog operation;
// TestEveryOperationHasAHandler keeps them in step with messages.Catalog.
var readHandlers = map[string]readHandler{
	"layout.get": func(s *canvas.State, env *messages.Envelope) (any, *messages.Error) {
		in := env.Args.(*messages.LayoutGetInput)
		return s.WireLayout(canvas.ReadOptions{IncludeBlobs: in.IncludeBlobs != nil && *in.IncludeBlobs}), nil
	},
	"node.get": func(s *canvas.State, env *messages.Envelope) (any, *messages.Error) {
		in := env.Args.(*messages.NodeGetInput)
		n, ok := s.Nodes.Get(in.ID)
		if !ok {
			return nil, canvas.NodeNotFound(in.ID)
		}
		return canvas.Wire(n, s.IsPinned(n.ID), canvas.ReadOptions{IncludeBlobs: in.IncludeBlobs != nil && *in.IncludeBlobs}), nil
	},
}

var writeHandlers = map[string]writeHandler{
	"node.add": func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error) {
		n, err := canvas.AddNode(tx, env.Args.(*messages.NodeAddInput), false)
		if err != nil {
			return nil, err
		}
		return canvas.NodeResponse(n, tx.State().IsPinned(n.ID), nil), nil
	},
	"node.update": func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error) {
		n, err := canvas.UpdateNode(tx, env.Args.(*messages.NodeUpdateInput))
		if err != nil {
			return nil, err
		}
		return canvas.NodeResponse(n, tx.State().IsPinned(n.ID), nil), nil
	},
	"node.remove": func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error) {
		id := env.Args.(*messages.NodeRemoveInput).ID
		if err := canvas.RemoveNode(tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "removed": id}, nil
	},
	"edge.add": func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error) {
		e, err := canvas.AddEdge(tx, env.Args.(*messages.EdgeAddInput))
		if err != nil {
			return nil, err
		}
		return canvas.EdgeResponse(e), nil
	},
	"edge.remove": func(tx *canvas.Tx, env *messages.Envelope) (any, *messages.Error) {
		id := env.Args.(*messages.EdgeRemoveInput).TargetID()
		if err := canvas.RemoveEdge(tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "removed": id}, nil
	},
}

// runRead answers a read from the canvas's latest published view.
func runRead(ref *canvasRef, op *messages.Op, env *messages.Envelope) (*messages.Reply, error) {
	h, ok := readHandlers[op.Name]
	if !ok {
		return nil, messages.Internal("no handler for %s", op.Name)
	}
	state := ref.view.Load()
	body, err := h(state, env)
	if err != nil {
		return nil, err
	}
	return &messages.Reply{Body: body, Revision: state.Revision}, nil
}
