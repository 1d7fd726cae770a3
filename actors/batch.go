package actors

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// batchAliases are the reference's batch-only names: pin.add and
// pin.remove run pin.set with that mode.
var batchAliases = map[string]struct{ op, mode string }{
	"pin.add":    {"pin.set", "add"},
	"pin.remove": {"pin.set", "remove"},
}

// runBatch runs canvas.batch: every entry in one transaction, so the batch
// applies whole or not at all, records one undo step and emits one layout
// frame. Entries reference earlier results with "$name" / "$name.path".
// An entry runs through its operation's own write handler (the catalog's
// Batch operations), which answers in the batch shape.
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
		name, mode := entry.Op, ""
		if a, ok := batchAliases[entry.Op]; ok {
			name, mode = a.op, a.mode
		}
		op, ok := messages.Lookup(name)
		switch {
		case !ok || !op.Batch:
			return fail(i, messages.BadRequest("Unsupported canvas_batch operation %q.", entry.Op))
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
		input, derr := op.DecodeInput(raw)
		if derr != nil {
			return fail(i, derr)
		}
		result, err := c.entry(name, raw, input)
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

// entry runs one batch entry through the operation's write handler, on the
// batch's transaction, as if it had been called alone with this input.
func (c *call) entry(name string, raw json.RawMessage, args any) (any, *messages.Error) {
	outer := c.env
	env := *outer
	env.Op, env.Input, env.Args = name, raw, args
	c.env, c.inBatch = &env, true
	defer func() { c.env, c.inBatch = outer, false }()
	return writeHandlers[name](c)
}

// canvas.batch is registered here, not in the writeHandlers literal: it
// dispatches through writeHandlers itself.
func init() { writeHandlers["canvas.batch"] = runBatch }

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
