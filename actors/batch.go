package actors

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// batchOps are the operations a batch may contain (the reference's 13).
var batchOps = map[string]bool{
	"node.add": true, "node.update": true, "node.remove": true, "graph.add": true, "edge.add": true,
	"group.create": true, "group.add": true, "group.remove": true,
	"pin.set": true, "pin.add": true, "pin.remove": true, "snapshot.save": true, "arrange": true,
}

// runBatch runs canvas.batch: every entry in one transaction, so the batch
// applies whole or not at all, records one undo step and emits one layout
// frame. Entries reference earlier results with "$name" / "$name.path".
func runBatch(c *call) (any, *messages.Error) {
	in := c.env.Args.(*messages.BatchInput)
	c.tx.Quiet(true)
	refs := map[string]any{}
	results := []any{}
	fail := func(i int, err *messages.Error) (any, *messages.Error) {
		e := messages.Make(messages.CodeBatchFailed, "%s", err.Message)
		return nil, e.With("failedIndex", i).With("failedCode", string(err.Code)).
			With("results", results).With("refs", refs)
	}
	for i, entry := range in.Operations {
		if !batchOps[entry.Op] {
			return fail(i, messages.BadRequest("Unsupported canvas_batch operation %q.", entry.Op))
		}
		name, mode := entry.Op, ""
		switch entry.Op {
		case "pin.add":
			name, mode = "pin.set", "add"
		case "pin.remove":
			name, mode = "pin.set", "remove"
		case "graph.add":
			return fail(i, messages.BadRequest("graph.add is not available in this build yet."))
		}
		args := map[string]any{}
		if raw := strings.TrimSpace(string(entry.Args)); raw != "" && raw != "null" {
			if json.Unmarshal(entry.Args, &args) != nil {
				return fail(i, messages.BadRequest("Operation %d has invalid args.", i))
			}
		}
		resolved := canvas.ResolveRefs(args, refs).(map[string]any)
		if mode != "" {
			resolved["mode"] = mode
		}
		raw, _ := json.Marshal(resolved)
		op, _ := messages.Lookup(name)
		input, derr := op.DecodeInput(raw)
		if derr != nil {
			return fail(i, derr)
		}
		result, err := batchStep(c, name, input)
		if err != nil {
			return fail(i, err)
		}
		generic := toGeneric(result)
		results = append(results, generic)
		if a := strings.TrimSpace(entry.Assign); a != "" {
			refs[a] = generic
		}
	}
	c.tx.Quiet(false)
	if c.tx.Changed() {
		c.tx.Describe("batch", fmt.Sprintf("Batch of %d operations", len(in.Operations)))
		c.tx.EmitLayout()
	}
	return map[string]any{"ok": true, "results": results, "refs": refs}, nil
}

// batchStep runs one entry and shapes its result as the reference's batch
// does.
func batchStep(c *call, name string, input any) (any, *messages.Error) {
	tx := c.tx
	pinned := func(id string) bool { return tx.State().IsPinned(id) }
	switch name {
	case "node.add":
		n, err := canvas.AddNode(tx, input.(*messages.NodeAddInput), true)
		if err != nil {
			return nil, err
		}
		return canvas.CompactNode(n, pinned(n.ID)), nil
	case "node.update":
		n, err := canvas.UpdateNode(tx, input.(*messages.NodeUpdateInput))
		if err != nil {
			return nil, err
		}
		return canvas.CompactNode(n, pinned(n.ID)), nil
	case "node.remove":
		id := input.(*messages.NodeRemoveInput).ID
		if err := canvas.RemoveNode(tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "id": id, "removed": true}, nil
	case "edge.add":
		e, err := canvas.AddEdge(tx, input.(*messages.EdgeAddInput))
		if err != nil {
			return nil, err
		}
		return canvas.EdgeResponse(e), nil
	case "group.create":
		g, err := canvas.GroupCreate(tx, input.(*messages.GroupCreateInput))
		if err != nil {
			return nil, err
		}
		return canvas.CompactNode(g, pinned(g.ID)), nil
	case "group.add":
		g, err := canvas.GroupAdd(tx, input.(*messages.GroupAddInput))
		if err != nil {
			return nil, err
		}
		return canvas.CompactNode(g, pinned(g.ID)), nil
	case "group.remove":
		id := input.(*messages.GroupRemoveInput).GroupID
		if err := canvas.Ungroup(tx, id); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "groupId": id}, nil
	case "pin.set":
		return canvas.SetContextPins(tx, input.(*messages.PinSetInput))
	case "snapshot.save":
		sn, err := canvas.SaveSnapshot(tx, input.(*messages.SnapshotSaveInput).Name, c.ref.axSnapshotJSON())
		if err != nil {
			return nil, err
		}
		canvas.CapSnapshots(tx, c.ref.sys.cfg.snapshotCaps())
		return map[string]any{"ok": true, "snapshot": sn.Meta()}, nil
	case "arrange":
		return arrangeStep(tx, input.(*messages.ArrangeInput))
	}
	return nil, messages.BadRequest("Unsupported canvas_batch operation %q.", name)
}

// toGeneric turns a result into plain JSON values so $refs can walk it.
func toGeneric(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

func layoutName(in *messages.ArrangeInput) string {
	if in.Layout == nil {
		return ""
	}
	return *in.Layout
}

// arrangeStep runs arrange inside a batch: {ok:true, arranged, layout}.
func arrangeStep(tx *canvas.Tx, in *messages.ArrangeInput) (any, *messages.Error) {
	res, err := canvas.Arrange(tx, layoutName(in))
	if err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "arranged": res.Arranged, "layout": res.Layout}, nil
}
