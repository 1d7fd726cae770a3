package actors

import (
	"encoding/json"
	"errors"

	"github.com/pmxcanvas/pmx-canvas/content/graphspec"
	"github.com/pmxcanvas/pmx-canvas/content/jsonrender"
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
		h := args.NodeHeight
		if h == nil {
			h = args.HeightPx
		}
		g := canvas.GraphNode{Title: res.Title, Spec: res.Spec, GraphConfig: res.GraphConfig,
			StrictSize: args.StrictSize != nil && *args.StrictSize}
		g.X, g.Y, g.W, g.H = frame(args.X, args.Y, args.Width, h, args.Position, args.Size)
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

// rebuildSpec applies a PATCH's spec fields: a json-render node's spec is
// validated and replaced; a graph node's chart is rebuilt from its stored
// graphConfig with the patched type, keys and plot height (or replaced by
// a spec). Nodes of other types refuse them, naming the field.
func rebuildSpec(tx *canvas.Tx, n *canvas.Node, in *messages.NodeUpdateInput) (*canvas.Node, *messages.Error) {
	graphPatch := in.GraphType != nil || in.XKey != nil || in.YKey != nil || in.ChartHeight != nil ||
		(in.Type != nil && n.Type == "graph" && *in.Type != "graph")
	if in.Spec == nil && !graphPatch {
		return n, nil
	}
	switch n.Type {
	case "json-render":
		if in.Spec == nil {
			return nil, messages.BadRequest("Node %q is a json-render node: patch its spec, not chart fields.", n.ID).With("field", "graphType")
		}
		spec, err := jsonrender.Normalize(in.Spec)
		if err != nil {
			return nil, specError(err)
		}
		return canvas.SetSpec(tx, n.ID, toGeneric(spec), nil)
	case "graph":
		if in.Spec != nil && !graphPatch {
			spec, err := jsonrender.Normalize(in.Spec)
			if err != nil {
				return nil, specError(err)
			}
			return canvas.SetSpec(tx, n.ID, toGeneric(spec), nil)
		}
		prev, _ := n.Data["graphConfig"].(map[string]any)
		var patch graphspec.Input
		if in.GraphType != nil {
			patch.GraphType = *in.GraphType
		} else if in.Type != nil && *in.Type != "graph" {
			patch.GraphType = *in.Type
		}
		if in.XKey != nil {
			patch.XKey = *in.XKey
		}
		if in.YKey != nil {
			patch.YKey = *in.YKey
		}
		patch.Height = in.ChartHeight
		res, err := graphspec.Update(prev, patch)
		if err != nil {
			return nil, messages.BadRequest("%s", err.Error())
		}
		return canvas.SetSpec(tx, n.ID, res.Spec, res.GraphConfig)
	}
	field := "spec"
	if in.Spec == nil {
		field = "graphType"
	}
	return nil, messages.BadRequest("Field %q only applies to json-render and graph nodes; node %q is a %s node.", field, n.ID, n.Type).With("field", field)
}

// frame resolves a create's geometry: the flat x, y, width and height
// first, then the position and size objects.
func frame(x, y, w, h *float64, pos *messages.PointInput, size *messages.SizeInput) (*float64, *float64, *float64, *float64) {
	if pos != nil {
		if x == nil {
			x = pos.X
		}
		if y == nil {
			y = pos.Y
		}
	}
	if size != nil {
		if w == nil {
			w = size.Width
		}
		if h == nil {
			h = size.Height
		}
	}
	return x, y, w, h
}
