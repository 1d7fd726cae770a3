package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// call is what a write handler gets: the transaction over the working
// state, the envelope, and the canvas handle (for loading snapshot content).
type call struct {
	tx  *canvas.Tx
	env *messages.Envelope
	ref *canvasRef
	// axFocus is set by node.focus: the AX focus follows the focused node.
	axFocus *string
	// inBatch is set while the handler runs as an entry of canvas.batch:
	// it answers in the reference's batch shape for that operation.
	inBatch bool
	// fetches are webpage nodes a batch created, to fetch once durable.
	fetches []string
}

// nodeResult is a handler's reply for node n: the full node reply, or
// the compact node a batch entry answers with.
func (c *call) nodeResult(n *canvas.Node) any {
	pinned := c.tx.State().IsPinned(n.ID)
	if c.inBatch {
		return canvas.CompactNode(n, pinned)
	}
	return canvas.NodeResponse(n, pinned, nil)
}

// readHandler answers a read operation from a published view.
type readHandler func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error)

// writeHandler runs a write operation as a transaction on the working state.
type writeHandler func(c *call) (any, *messages.Error)

// readHandlers and writeHandlers hold one handler per catalog operation;
// TestEveryOperationHasAHandler keeps them in step with messages.Catalog.
var readHandlers = map[string]readHandler{
	"layout.get": func(s *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.LayoutGetInput)
		opts := canvas.ReadOptions{IncludeBlobs: in.IncludeBlobs != nil && *in.IncludeBlobs}
		if in.View != nil && *in.View != "" {
			if *in.View != "agent" {
				return nil, messages.InvalidInput(`view must be "agent"`).With("field", "view")
			}
			return s.AgentLayout(opts), nil
		}
		return s.WireLayoutJSON(opts), nil
	},
	"node.get": func(s *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.NodeGetInput)
		n, ok := s.Nodes.Get(in.ID)
		if !ok {
			return nil, canvas.NodeNotFound(in.ID)
		}
		return canvas.Wire(n, s.IsPinned(n.ID), canvas.ReadOptions{IncludeBlobs: in.IncludeBlobs != nil && *in.IncludeBlobs}), nil
	},
	"edge.list": func(s *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.EdgeListInput)
		if in.Type != nil && !slices.Contains(messages.EdgeTypes, *in.Type) {
			return nil, messages.BadRequest("Invalid edge type: %q.", *in.Type)
		}
		out := []canvas.WireEdge{}
		s.Edges.Each(func(e *canvas.Edge) bool {
			touches := in.NodeID == nil || e.From == *in.NodeID || e.To == *in.NodeID
			if touches && (in.Type == nil || e.Type == *in.Type) {
				out = append(out, canvas.WireOfEdge(e))
			}
			return true
		})
		return out, nil
	},
	"search": func(s *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.SearchInput)
		limit := 0 // all; the decoder refuses a limit below 1
		if in.Limit != nil {
			limit = *in.Limit
		}
		q := in.Q
		if q == "" && in.Query != nil {
			q = *in.Query
		}
		all := canvas.Search(s, q, 0)
		results := all
		if limit > 0 && len(results) > limit {
			results = results[:limit]
		}
		return map[string]any{"results": results, "query": strings.TrimSpace(q), "resultCount": len(all)}, nil
	},
	"history.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return s.History.View(time.Local, s.Revision), nil
	},
	"theme.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return map[string]any{"ok": true, "theme": s.Theme}, nil
	},
	"snapshot.list": func(s *canvas.State, env *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.SnapshotListInput)
		q := canvas.ListSnapshotsQuery{All: in.All != nil && *in.All}
		if in.Limit != nil { // at least 1: the decoder checks the bound
			q.Limit = *in.Limit
		}
		switch {
		case in.Q != nil:
			q.Query = *in.Q
		case in.Query != nil:
			q.Query = *in.Query
		}
		if in.Before != nil {
			q.Before = *in.Before
		}
		if in.After != nil {
			q.After = *in.After
		}
		return canvas.ListSnapshots(s, q), nil
	},
	"snapshot.diff": func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		id := env.Args.(*messages.SnapshotRefInput).ID
		return diffAgainst(s, ref, id, messages.NotFound("Snapshot %q not found.", id))
	},
	"snapshot.diff.query": func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.SnapshotDiffQueryInput)
		key := ""
		switch {
		case in.Name != nil:
			key = *in.Name
		case in.ID != nil:
			key = *in.ID
		}
		if strings.TrimSpace(key) == "" {
			return nil, messages.BadRequest("Missing snapshot name or id.")
		}
		return diffAgainst(s, ref, key, messages.NotFound("Snapshot %q not found.", key))
	},
	"annotation.list": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		out := []canvas.AnnotationInfo{}
		for _, a := range s.Annotations.All() {
			out = append(out, canvas.AnnotationSummary(a))
		}
		return map[string]any{"annotations": out}, nil
	},
	"pinned.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return canvas.PinnedContext(s), nil
	},
	"validate.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return canvas.Validate(s), nil
	},
	"summary.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return canvas.Summary(s), nil
	},
	"spatial.get": func(s *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return canvas.SpatialContext(s), nil
	},
}

// diffAgainst diffs the current layout against a snapshot (id or name).
func diffAgainst(s *canvas.State, ref *canvasRef, key string, notFound *messages.Error) (any, *messages.Error) {
	sn, err := ref.snapshotWithContent(s, key)
	if err != nil {
		if err.Status == 404 {
			return nil, notFound
		}
		return nil, err
	}
	d := canvas.DiffLayouts(sn.Name, sn.Content.State(), s)
	return map[string]any{"ok": true, "text": canvas.FormatDiff(d), "diff": d}, nil
}

// runImport adds a JSON Canvas document to the canvas (after clearing it
// when replace is set), as one undoable step.
func runImport(c *call) (any, *messages.Error) {
	in := c.env.Args.(*messages.ImportInput)
	var doc canvas.JSONCanvas
	if len(in.Nodes) > 0 && string(in.Nodes) != "null" {
		if err := json.Unmarshal(in.Nodes, &doc.Nodes); err != nil {
			return nil, messages.InvalidInput("nodes must be an array of JSON Canvas nodes: %v", err).With("field", "nodes")
		}
	}
	if len(in.Edges) > 0 && string(in.Edges) != "null" {
		if err := json.Unmarshal(in.Edges, &doc.Edges); err != nil {
			return nil, messages.InvalidInput("edges must be an array of JSON Canvas edges: %v", err).With("field", "edges")
		}
	}
	if in.Replace != nil && *in.Replace {
		canvas.Clear(c.tx)
	}
	plan, err := canvas.ImportJSONCanvas(doc, c.tx.State(), c.tx.Env())
	if err != nil {
		return nil, err
	}
	plan.Apply(c.tx)
	c.tx.Describe("import", fmt.Sprintf("Imported JSON Canvas (%d nodes, %d edges)", len(plan.Nodes), len(plan.Edges)))
	return map[string]any{"ok": true, "nodes": len(plan.Nodes), "edges": len(plan.Edges),
		"nodeIds": plan.NodeIDs, "edgeIds": plan.EdgeIDs}, nil
}

var writeHandlers = map[string]writeHandler{
	"node.add": func(c *call) (any, *messages.Error) {
		// A batch may also create the internal prompt and response nodes.
		in := c.env.Args.(*messages.NodeAddInput)
		opts, err := c.addOptions(in)
		if err != nil {
			return nil, err
		}
		n, err := canvas.AddNode(c.tx, in, opts)
		if err != nil {
			return nil, err
		}
		if n.Type == "html" && n.Data["htmlPrimitive"] != nil && !c.inBatch {
			return canvas.NodeResponse(n, false, map[string]any{"primitive": canvas.PrimitiveExtra(n)}), nil
		}
		if c.inBatch && n.Type == "webpage" {
			// A single add fetches in the invoker (addThenFetch); a batch
			// entry's page is fetched by the Content actor once the batch
			// is durable.
			c.fetches = append(c.fetches, n.ID)
		}
		return c.nodeResult(n), nil
	},
	"node.update": func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.NodeUpdateInput)
		n, err := canvas.UpdateNode(c.tx, in)
		if err != nil {
			return nil, err
		}
		if n, err = rebuildSpec(c.tx, n, c.env, in); err != nil {
			return nil, err
		}
		return c.nodeResult(n), nil
	},
	"node.remove": func(c *call) (any, *messages.Error) {
		id := c.env.Args.(*messages.NodeRemoveInput).ID
		if err := canvas.RemoveNode(c.tx, id); err != nil {
			return nil, err
		}
		if c.inBatch {
			return map[string]any{"ok": true, "id": id, "removed": true}, nil
		}
		return map[string]any{"ok": true, "removed": id}, nil
	},
	"edge.add": func(c *call) (any, *messages.Error) {
		e, err := canvas.AddEdge(c.tx, c.env.Args.(*messages.EdgeAddInput))
		if err != nil {
			return nil, err
		}
		return canvas.EdgeResponse(e), nil
	},
	"edge.remove": func(c *call) (any, *messages.Error) {
		id := c.env.Args.(*messages.EdgeRemoveInput).TargetID()
		if err := canvas.RemoveEdge(c.tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "removed": id}, nil
	},
	"group.create": func(c *call) (any, *messages.Error) {
		g, err := canvas.GroupCreate(c.tx, c.env.Args.(*messages.GroupCreateInput))
		if err != nil {
			return nil, err
		}
		return c.nodeResult(g), nil
	},
	"group.add": func(c *call) (any, *messages.Error) {
		g, err := canvas.GroupAdd(c.tx, c.env.Args.(*messages.GroupAddInput))
		if err != nil {
			return nil, err
		}
		if c.inBatch {
			return c.nodeResult(g), nil
		}
		return map[string]any{"ok": true, "groupId": g.ID}, nil
	},
	"group.remove": func(c *call) (any, *messages.Error) {
		id := c.env.Args.(*messages.GroupRemoveInput).GroupID
		if err := canvas.Ungroup(c.tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "groupId": id}, nil
	},
	"pin.set": func(c *call) (any, *messages.Error) {
		res, err := canvas.SetContextPins(c.tx, c.env.Args.(*messages.PinSetInput))
		if err != nil {
			return nil, err
		}
		return res, nil
	},
	"canvas.undo": func(c *call) (any, *messages.Error) {
		if desc, ok := canvas.Undo(c.tx); ok {
			return map[string]any{"ok": true, "description": "Undid: " + desc}, nil
		}
		return map[string]any{"ok": false, "description": "Nothing to undo"}, nil
	},
	"canvas.redo": func(c *call) (any, *messages.Error) {
		if desc, ok := canvas.Redo(c.tx); ok {
			return map[string]any{"ok": true, "description": "Redid: " + desc}, nil
		}
		return map[string]any{"ok": false, "description": "Nothing to redo"}, nil
	},
	"viewport.set": func(c *call) (any, *messages.Error) {
		if err := canvas.SetViewport(c.tx, c.env.Args.(*messages.ViewportInput)); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "viewport": c.tx.State().Viewport}, nil
	},
	"node.focus": func(c *call) (any, *messages.Error) {
		res, err := canvas.Focus(c.tx, c.env.Args.(*messages.FocusInput))
		if err != nil {
			return nil, err
		}
		id := res.Focused
		c.axFocus = &id
		return res, nil
	},
	"view.fit": func(c *call) (any, *messages.Error) {
		res, err := canvas.Fit(c.tx, c.env.Args.(*messages.FitInput))
		if err != nil {
			return nil, err
		}
		return res, nil
	},
	"canvas.clear": func(c *call) (any, *messages.Error) {
		canvas.Clear(c.tx)
		c.tx.SetAXSwap(&canvas.AXSwap{Reason: "clear", Before: c.ref.axSnapshot(), After: ax.StateOf(ax.EmptyBoard(), ax.EmptyGates()),
			At: c.tx.Env().Timestamp()})
		return map[string]any{"ok": true}, nil
	},
	"theme.set": func(c *call) (any, *messages.Error) {
		theme := c.env.Args.(*messages.ThemeSetInput).Theme
		if err := canvas.SetTheme(c.tx, theme); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "theme": theme}, nil
	},
	"layout.update": func(c *call) (any, *messages.Error) {
		return canvas.ApplyUpdates(c.tx, c.env.Args.(*messages.UpdateInput)), nil
	},
	"snapshot.save": func(c *call) (any, *messages.Error) {
		sn, err := canvas.SaveSnapshot(c.tx, c.env.Args.(*messages.SnapshotSaveInput).Name, c.ref.axSnapshotJSON())
		if err != nil {
			return nil, err
		}
		dropped := canvas.CapSnapshots(c.tx, c.ref.sys.cfg.snapshotCaps())
		if c.inBatch {
			return map[string]any{"ok": true, "snapshot": sn.Meta()}, nil
		}
		body := map[string]any{"ok": true, "id": sn.ID, "snapshot": sn.Meta()}
		if len(dropped) > 0 {
			body["deleted"] = dropped // the oldest, past the canvas's caps
		}
		return body, nil
	},
	"snapshot.gc": func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.SnapshotGCInput)
		keep, err := gcKeep(in.Keep)
		if err != nil {
			return nil, err
		}
		dry := (in.DryRun != nil && *in.DryRun) || (in.DryRunDash != nil && *in.DryRunDash)
		kept, deleted := canvas.GCSnapshots(c.tx, keep, dry)
		return map[string]any{"ok": true, "kept": kept, "deleted": deleted, "dryRun": dry}, nil
	},
	"snapshot.restore": func(c *call) (any, *messages.Error) {
		sn, err := c.ref.snapshotWithContent(c.tx.State(), c.env.Args.(*messages.SnapshotRefInput).ID)
		if err != nil {
			return nil, err
		}
		canvas.RestoreSnapshot(c.tx, sn)
		c.tx.SetAXSwap(&canvas.AXSwap{Reason: "restore", Before: c.ref.axSnapshot(), After: snapshotAX(sn.Content.AX),
			At: c.tx.Env().Timestamp()})
		return map[string]any{"ok": true, "restored": sn.Meta()}, nil
	},
	"snapshot.delete": func(c *call) (any, *messages.Error) {
		sn, ok := c.tx.State().Snapshots.Find(c.env.Args.(*messages.SnapshotRefInput).ID)
		if !ok {
			return nil, canvas.SnapshotNotFound()
		}
		c.tx.DeleteSnapshot(sn.ID)
		return map[string]any{"ok": true, "deleted": sn.Meta()}, nil
	},
	"annotation.remove": func(c *call) (any, *messages.Error) {
		id := c.env.Args.(*messages.IDInput).ID
		if err := canvas.RemoveAnnotation(c.tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "removed": id}, nil
	},
	"canvas.import": runImport,
	"arrange": func(c *call) (any, *messages.Error) {
		res, err := canvas.Arrange(c.tx, layoutName(c.env.Args.(*messages.ArrangeInput)))
		if err != nil {
			return nil, err
		}
		if c.inBatch {
			return map[string]any{"ok": true, "arranged": res.Arranged, "layout": res.Layout}, nil
		}
		return res, nil
	},
	"annotation.add": func(c *call) (any, *messages.Error) {
		a, err := canvas.AddAnnotation(c.tx, c.env.Args.(*messages.AnnotationAddInput))
		if err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "annotation": canvas.AnnotationSummary(a)}, nil
	},
}

// gcKeep reads snapshot.gc's keep: a positive number or numeric string;
// absent means 20.
func gcKeep(v any) (int, *messages.Error) {
	switch t := v.(type) {
	case nil:
		return 20, nil
	case float64:
		if t >= 1 {
			return int(t), nil
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil && n >= 1 {
			return n, nil
		}
	}
	return 0, messages.InvalidInput("keep must be a positive number").With("field", "keep")
}

// snapshotWithContent finds a snapshot by id or name and loads its content
// from the store if this process has not got it in memory.
func (r *canvasRef) snapshotWithContent(s *canvas.State, idOrName string) (*canvas.Snapshot, *messages.Error) {
	sn, ok := s.Snapshots.Find(idOrName)
	if !ok {
		return nil, canvas.SnapshotNotFound()
	}
	if sn.Content != nil {
		return sn, nil
	}
	content, err := r.sys.cfg.Store.LoadSnapshotContent(r.id, sn.ID)
	if err != nil {
		return nil, messages.Internal("load snapshot %q: %v", sn.ID, err)
	}
	loaded := *sn
	loaded.Content = content
	return &loaded, nil
}

// axSnapshot is the canvas-bound AX state as published now.
func (r *canvasRef) axSnapshot() ax.State {
	return ax.StateOf(r.boardView.Load().Board, *r.gatesView.Load())
}

// axSnapshotJSON is the canvas-bound AX state saved with a snapshot.
func (r *canvasRef) axSnapshotJSON() json.RawMessage {
	b, err := json.Marshal(r.axSnapshot())
	if err != nil {
		return nil
	}
	return b
}

// snapshotAX is the AX state a snapshot restores: the saved one, or empty
// for a snapshot saved without AX (the reference's "missing -> empty").
func snapshotAX(raw json.RawMessage) ax.State {
	var s ax.State
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ax.StateOf(ax.EmptyBoard(), ax.EmptyGates())
	}
	return s
}

// runRead answers a read from the canvas's latest published view.
func runRead(ref *canvasRef, op *messages.Op, env *messages.Envelope) (*messages.Reply, error) {
	h, ok := readHandlers[op.Name]
	if !ok {
		return nil, messages.Internal("no handler for %s", op.Name)
	}
	state := ref.view.Load()
	body, err := h(state, env, ref)
	if err != nil {
		return nil, err
	}
	if r, ok := body.(*messages.Reply); ok { // a read with its own status
		return &messages.Reply{Status: r.Status, Body: r.Body, Revision: state.Revision}, nil
	}
	return &messages.Reply{Body: body, Revision: state.Revision}, nil
}
