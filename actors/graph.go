package actors

import (
	"encoding/json"
	"errors"

	"github.com/pmxcanvas/pmx-canvas/content/graphspec"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// graphInput reads a graph payload as content/graphspec takes it, from
// the request's JSON (so the first row's key order, which picks default
// keys, is the caller's).
func graphInput(env *messages.Envelope) (graphspec.Input, *messages.Error) {
	raw := []byte(env.Input)
	if len(raw) == 0 {
		raw, _ = json.Marshal(env.Args)
	}
	var in graphspec.Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, messages.BadRequest("%s", err.Error()).With("field", "data")
	}
	return in, nil
}

func init() {
	writeHandlers["graph.add"] = func(c *call) (any, *messages.Error) {
		args := c.env.Args.(*messages.GraphAddInput)
		if args.Data == nil {
			return nil, messages.BadRequest("Missing required field: data.").With("field", "data")
		}
		in, err := graphInput(c.env)
		if err != nil {
			return nil, err
		}
		if in.GraphType == "" && args.Type != nil {
			in.GraphType = *args.Type
		}
		res, berr := graphspec.Build(in)
		switch {
		case errors.Is(berr, graphspec.ErrNoData):
			return nil, messages.BadRequest("Missing required field: data.").With("field", "data")
		case berr != nil:
			return nil, messages.BadRequest("%s", berr.Error())
		}
		g := canvas.GraphNode{Title: res.Title, Spec: res.Spec, GraphConfig: res.GraphConfig,
			X: args.X, Y: args.Y, W: args.Width, H: args.NodeHeight, StrictSize: args.StrictSize != nil && *args.StrictSize}
		if g.H == nil {
			g.H = args.HeightPx
		}
		if args.Position != nil {
			if g.X == nil {
				g.X = args.Position.X
			}
			if g.Y == nil {
				g.Y = args.Position.Y
			}
		}
		if args.Size != nil {
			if g.W == nil {
				g.W = args.Size.Width
			}
			if g.H == nil {
				g.H = args.Size.Height
			}
		}
		n, aerr := canvas.AddGraphNode(c.tx, g)
		if aerr != nil {
			return nil, aerr
		}
		if c.inBatch {
			return canvas.CompactNode(n, false), nil
		}
		return canvas.NodeResponse(n, false, map[string]any{"url": canvas.ViewerURL(n.ID), "spec": res.Spec}), nil
	}
}
