package actors

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/pmxcanvas/pmx-canvas/content/graphspec"
	"github.com/pmxcanvas/pmx-canvas/content/jsonrender"
	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// specError is a spec the validator refused: 400 with its text.
func specError(err error) *messages.Error {
	return messages.BadRequest("%s", err.Error()).With("field", "spec")
}

// specJSON turns a normalised spec into plain JSON values for node data.
func specJSON(s *jsonrender.Spec) any { return toGeneric(s) }

func init() {
	writeHandlers["jsonrender.add"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.JSONRenderAddInput)
		var raw any = in.Spec
		if _, isObject := in.Spec.(map[string]any); !isObject {
			// The whole body is the spec (a bare component).
			var body map[string]any
			if json.Unmarshal(c.env.Input, &body) == nil {
				raw = body
			}
		}
		spec, err := jsonrender.Normalize(raw)
		if err != nil {
			return nil, specError(err)
		}
		title := ""
		if in.Title != nil {
			title = *in.Title
		}
		j := canvas.JSONRenderNode{Title: spec.Title(title), Spec: specJSON(spec), StrictSize: in.StrictSize != nil && *in.StrictSize}
		j.X, j.Y, j.W, j.H = frame(in.X, in.Y, in.Width, in.Height, in.Position, in.Size)
		n, aerr := canvas.AddJSONRenderNode(c.tx, j)
		if aerr != nil {
			return nil, aerr
		}
		return canvas.NodeResponse(n, false, map[string]any{"url": canvas.ViewerURL(n.ID), "spec": j.Spec}), nil
	}
	writeHandlers["jsonrender.stream"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.JSONRenderStreamInput)
		var stream *jsonrender.Stream
		var existing *canvas.Node
		if in.NodeID != nil && *in.NodeID != "" {
			n, ok := c.tx.Node(*in.NodeID)
			if !ok || n.Type != "json-render" {
				return nil, messages.BadRequest("Node %q not found.", *in.NodeID).With("field", "nodeId")
			}
			existing = n
			version, _ := n.Data["specVersion"].(float64)
			if v, ok := n.Data["specVersion"].(int); ok {
				version = float64(v)
			}
			var err error
			if stream, err = jsonrender.ResumeStream(n.Data["spec"], int(version), jsonrender.Limits{}); err != nil {
				return nil, specError(err)
			}
		} else {
			stream = &jsonrender.Stream{}
		}
		applied, skipped, err := stream.Apply(in.Patches)
		if err != nil {
			if errors.Is(err, jsonrender.ErrLimit) {
				return nil, messages.Make(messages.CodeBodyTooLarge, "%s", err.Error()).With("field", "patches")
			}
			return nil, messages.BadRequest("%s", err.Error()).With("field", "patches")
		}
		doc := any(stream.Document())
		if in.Done != nil && *in.Done {
			spec, cerr := stream.Close()
			if cerr != nil {
				return nil, specError(cerr)
			}
			doc = specJSON(spec)
		}
		j := canvas.JSONRenderNode{Spec: doc, SpecVersion: stream.SpecVersion(), StreamStatus: stream.Status(),
			X: in.X, Y: in.Y, W: in.Width, H: in.Height, StrictSize: in.StrictSize != nil && *in.StrictSize}
		if j.H == nil {
			j.H = in.NodeHeight
		}
		var n *canvas.Node
		var werr *messages.Error
		if existing != nil {
			n, werr = canvas.SetJSONRenderSpec(c.tx, existing.ID, j)
		} else {
			if in.Title != nil {
				j.Title = *in.Title
			} else {
				j.Title = "json-render"
			}
			n, werr = canvas.AddJSONRenderNode(c.tx, j)
		}
		if werr != nil {
			return nil, werr
		}
		return &messages.StreamResult{ID: n.ID, URL: canvas.ViewerURL(n.ID), OK: true, Applied: applied, Skipped: skipped,
			SpecVersion: stream.SpecVersion(), StreamStatus: stream.Status(), ElementCount: stream.ElementCount()}, nil
	}
}

func init() {
	readHandlers["spec.validate"] = func(_ *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.SpecValidateInput)
		fail := func(err error) *messages.Error {
			return messages.BadRequest("%s", err.Error()).With("type", in.Type)
		}
		switch in.Type {
		case "json-render":
			var raw any = in.Spec
			if _, isObject := in.Spec.(map[string]any); !isObject {
				var body map[string]any
				if json.Unmarshal(env.Input, &body) == nil {
					delete(body, "type")
					raw = body
				}
			}
			spec, err := jsonrender.Normalize(raw)
			if err != nil {
				return nil, fail(err)
			}
			sum := spec.Summary()
			return &messages.SpecValidation{OK: true, Type: in.Type, NormalizedSpec: toGeneric(spec),
				Summary: toGeneric(sum).(map[string]any)}, nil
		case "graph":
			gin, gerr := graphInput(env)
			if gerr != nil {
				return nil, gerr.With("type", in.Type)
			}
			gin.GraphType = ""
			if in.GraphType != nil {
				gin.GraphType = *in.GraphType
			} else if in.TypeName != nil {
				gin.GraphType = *in.TypeName
			}
			res, err := graphspec.Build(gin)
			if err != nil {
				return nil, fail(err)
			}
			return &messages.SpecValidation{OK: true, Type: in.Type, NormalizedSpec: res.Spec, Summary: map[string]any{
				"graphType": res.Summary.GraphType, "dataPoints": res.Summary.DataPoints, "root": res.Summary.Root,
				"elementCount": res.Summary.ElementCount}}, nil
		case "html-primitive":
			kind := ""
			for _, p := range []*string{in.Kind, in.Primitive} {
				if p != nil && *p != "" {
					kind = *p
					break
				}
			}
			if in.Data == nil && in.PrimitiveData != nil {
				in.Data = in.PrimitiveData
			}
			data, isObject := in.Data.(map[string]any)
			if in.Data != nil && !isObject {
				return nil, messages.BadRequest("html-primitive data must be an object.").With("field", "data").With("type", in.Type)
			}
			title := ""
			if in.Title != nil {
				title = *in.Title
			}
			res, err := primitives.Build(kind, title, data)
			if err != nil {
				return nil, fail(err)
			}
			keys := []string{}
			for k := range data {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			size := map[string]any{"width": res.DefaultSize.Width, "height": res.DefaultSize.Height}
			return &messages.SpecValidation{OK: true, Type: in.Type,
				NormalizedPrimitive: map[string]any{"kind": res.Kind, "title": res.Title, "htmlBytes": len(res.HTML), "defaultSize": size},
				Summary:             map[string]any{"kind": res.Kind, "title": res.Title, "dataKeys": keys}}, nil
		}
		return nil, messages.BadRequest(`Validation type must be "json-render", "graph", or "html-primitive".`).With("field", "type")
	}
}
