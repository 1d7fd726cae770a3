package mcpapi

import (
	"errors"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// canvas_batch (reference mcp.md §7.12). Our batch is atomic: a failing
// entry leaves the canvas unchanged and the operation answers 400
// batch-failed with {failedIndex, failedCode, error, results, refs}. The
// tool answers as the reference does — the envelope {ok, failedIndex?,
// error?, results, refs} as pretty JSON, isError when ok is false — with
// our failedCode after error; results and refs of a failed batch are the
// entries that ran before the failure, none of which was applied.

// cvBatchKeys are the keys a node-like batch result keeps unless full.
var cvBatchKeys = []string{"ok", "id", "type", "kind", "title", "content", "position", "size", "fetch", "error", "from",
	"to", "groupId", "nodeIds", "snapshot", "arranged", "layout"}

func init() {
	define(&Tool{
		Name: "canvas_batch",
		Run:  runBatch,
	})
}

func runBatch(c *Call, a Args) (*Result, error) {
	full := cvWantsFull(a)
	ops := cvList(a["operations"])
	reply, err := c.Invoke("canvas.batch", a)
	if err != nil {
		var me *messages.Error
		if !errors.As(err, &me) || me.Code != messages.CodeBatchFailed {
			return nil, err
		}
		out := Obj{{"ok", false}}
		if v, ok := me.Extra["failedIndex"]; ok {
			out = append(out, KV{"failedIndex", v})
		}
		out = append(out, KV{"error", me.Message})
		if v, ok := me.Extra["failedCode"]; ok {
			out = append(out, KV{"failedCode", v})
		}
		results, err := cvToOrdered(me.Extra["results"])
		if err != nil {
			return nil, err
		}
		refs, err := cvToOrdered(me.Extra["refs"])
		if err != nil {
			return nil, err
		}
		out = append(out, KV{"results", cvBatchResults(results, full)}, KV{"refs", cvBatchRefs(refs, ops, full)})
		text, err := Pretty(out)
		return &Result{Text: text, IsError: true}, err
	}
	body, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	out := Obj{{"ok", cvGet(body, "ok")}, {"results", cvBatchResults(cvGet(body, "results"), full)},
		{"refs", cvBatchRefs(cvGet(body, "refs"), ops, full)}}
	if rev, ok := body.Get("revision"); ok {
		out = append(out, KV{"revision", rev})
	}
	text, err := Pretty(out)
	if err != nil {
		return nil, err
	}
	return &Result{Text: text, IsError: cvGet(body, "ok") == false}, nil
}

func cvBatchResults(v any, full bool) []any {
	out := []any{}
	for _, e := range cvList(v) {
		out = append(out, cvBatchValue(e, full))
	}
	return out
}

// cvBatchRefs renders the refs in the order their names were first
// assigned (our batch renders them sorted).
func cvBatchRefs(v any, ops []any, full bool) Obj {
	refs, _ := v.(Obj)
	var names []string
	seen := map[string]bool{}
	for _, e := range ops {
		if name, ok := e.(map[string]any)["assign"].(string); ok && !seen[strings.TrimSpace(name)] {
			seen[strings.TrimSpace(name)] = true
			names = append(names, strings.TrimSpace(name))
		}
	}
	out := Obj{}
	for _, kv := range cvReorder(refs, names...) {
		out = append(out, KV{kv.K, cvBatchValue(kv.V, full)})
	}
	return out
}

// cvBatchValue renders one batch result or ref in the reference's key
// order (our batch results render their keys sorted). Unless full, a
// node-like value (string id and type) keeps only the batch keys.
func cvBatchValue(v any, full bool) any {
	o, ok := v.(Obj)
	if !ok {
		return v
	}
	_, hasID := cvStrAt(o, "id")
	_, hasType := cvStrAt(o, "type")
	var out Obj
	switch {
	case hasID && hasType && !full:
		out = cvPickPresent(o, cvBatchKeys...)
	case hasID && hasType && cvHas(o, "from"):
		out = cvReorder(o, "ok", "id", "from", "to", "type", "label", "style", "animated")
	case hasID && hasType:
		out = cvReorder(o, cvBatchNodeKeys...)
	default:
		out = cvReorder(o, "ok")
	}
	for i, kv := range out {
		switch kv.K {
		case "position":
			if p, isObj := kv.V.(Obj); isObj {
				out[i].V = cvReorder(p, "x", "y")
			}
		case "size":
			if sz, isObj := kv.V.(Obj); isObj {
				out[i].V = cvReorder(sz, "width", "height")
			}
		}
	}
	return out
}

// cvBatchNodeKeys order a full node result: ok, then the serialized node.
var cvBatchNodeKeys = []string{"ok", "id", "type", "position", "size", "zIndex", "collapsed", "pinned", "dockPosition",
	"data", "kind", "title", "content", "path", "url", "surfaceUrl", "provenance"}

func cvHas(o Obj, key string) bool {
	_, ok := o.Get(key)
	return ok
}

// cvWithout returns o without the given keys.
func cvWithout(o Obj, keys ...string) Obj {
	out := Obj{}
	for _, kv := range o {
		skip := false
		for _, k := range keys {
			skip = skip || kv.K == k
		}
		if !skip {
			out = append(out, kv)
		}
	}
	return out
}
