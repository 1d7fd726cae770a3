package actors

import (
	"encoding/json"
	"errors"
	"reflect"

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
// graphConfig with the patched kind, rows, chart options and plot height
// (or replaced by a spec). Every chart option is kept across a patch (the
// reference dropped the bar and Tufte options). Nodes of other types
// refuse them, naming the field.
func rebuildSpec(tx *canvas.Tx, n *canvas.Node, env *messages.Envelope, in *messages.NodeUpdateInput) (*canvas.Node, *messages.Error) {
	rows, hasRows := in.DataRows()
	graphPatch := (in.Title != nil && n.Type == "graph") || in.GraphType != nil || in.ChartHeight != nil || hasRows || !reflect.ValueOf(in.ChartOptions).IsZero() ||
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
		patch, perr := chartPatch(env, in, rows, hasRows)
		if perr != nil {
			return nil, perr
		}
		prev, _ := n.Data["graphConfig"].(map[string]any)
		res, err := graphspec.Update(prev, patch)
		if err != nil {
			return nil, messages.BadRequest("%s", err.Error())
		}
		return canvas.SetSpec(tx, n.ID, res.Spec, res.GraphConfig)
	}
	field := "spec"
	if in.Spec == nil {
		field = givenChartField(in)
	}
	return nil, messages.BadRequest("Field %q only applies to json-render and graph nodes; node %q is a %s node.", field, n.ID, n.Type).With("field", field)
}

// givenChartField names the first chart field a patch gives, for the
// error that refuses it on a node that is not a chart.
func givenChartField(in *messages.NodeUpdateInput) string {
	switch {
	case in.GraphType != nil:
		return "graphType"
	case in.ChartHeight != nil:
		return "chartHeight"
	}
	opts, _ := json.Marshal(in.ChartOptions)
	var m map[string]any
	_ = json.Unmarshal(opts, &m)
	for _, f := range messages.FieldsOf(reflect.TypeOf(in.ChartOptions)) {
		if m[f.Name] != nil {
			return f.Name
		}
	}
	if in.Type != nil {
		return "type"
	}
	return "data"
}

// chartPatch is a graph PATCH as content/graphspec merges it: the chart
// options given, the kind (graphType, or a type other than graph), the
// plot height (chartHeight) and the rows. The rows are read from the
// request's JSON when there is one, so their key order is the caller's.
func chartPatch(env *messages.Envelope, in *messages.NodeUpdateInput, rows []map[string]any, hasRows bool) (graphspec.Input, *messages.Error) {
	opts, err := json.Marshal(in.ChartOptions)
	if err != nil {
		return graphspec.Input{}, messages.BadRequest("%s", err.Error())
	}
	var m map[string]any
	_ = json.Unmarshal(opts, &m)
	for k, v := range m {
		if v == nil { // not given (an explicit highlight:null cannot be told apart)
			delete(m, k)
		}
	}
	switch {
	case in.GraphType != nil:
		m["graphType"] = *in.GraphType
	case in.Type != nil && *in.Type != "graph":
		m["graphType"] = *in.Type
	}
	if in.ChartHeight != nil {
		m["height"] = *in.ChartHeight
	}
	if in.Title != nil { // the card's title follows the node's
		m["title"] = *in.Title
	}
	if hasRows {
		m["data"] = rows
		var body struct {
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(env.Input, &body) == nil && len(body.Data) > 0 {
			m["data"] = body.Data // as written: graphspec records the first row's key order
		}
	}
	var patch graphspec.Input
	raw, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(raw, &patch)
	}
	if err != nil {
		return patch, messages.BadRequest("%s", err.Error()).With("field", "data")
	}
	return patch, nil
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
