package actors

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// referenceBatchOps are the entries the reference's canvas.batch allows
// (domain.md §14). pin.add and pin.remove are its aliases of pin.set, and
// graph.add runs as an entry too.
var referenceBatchOps = []string{"node.add", "node.update", "node.remove", "graph.add", "edge.add",
	"group.create", "group.add", "group.remove", "pin.set", "pin.add", "pin.remove", "snapshot.save", "arrange"}

// A batch accepts exactly the catalog's Batch operations, and those are the
// reference's: each a Layout write whose own handler runs the entry.
func TestBatchAcceptsTheReferencesOperations(t *testing.T) {
	for _, op := range messages.Catalog {
		want := slices.Contains(referenceBatchOps, op.Name)
		if op.Batch != want {
			t.Errorf("%s: Batch is %v; the reference's batch allows it: %v", op.Name, op.Batch, want)
		}
		if op.Batch && (op.Owner != messages.OwnerLayout || op.Kind != messages.Write || writeHandlers[op.Name] == nil) {
			t.Errorf("%s: a Batch operation must be a Layout write with a write handler", op.Name)
		}
	}
	for _, name := range referenceBatchOps {
		op, inCatalog := messages.Lookup(name)
		alias, isAlias := batchAliases[name]
		switch {
		case isAlias:
			if target, ok := messages.Lookup(alias.op); !ok || !target.Batch {
				t.Errorf("alias %s runs %s, which is not a Batch operation", name, alias.op)
			}
		case !inCatalog || !op.Batch:
			t.Errorf("the reference's batch allows %s, this one does not", name)
		}
	}
}

// Every entry the reference allows runs in one batch with the reference's
// result shape per operation, through the same handlers as single calls.
func TestBatchRunsEveryOperationWithTheReferencesResults(t *testing.T) {
	h := start(t, t.TempDir())
	out := h.mustCall("", "canvas.batch", `{"operations":[
		{"op":"node.add","assign":"a","args":{"type":"markdown","title":"A"}},
		{"op":"node.add","assign":"b","args":{"type":"prompt","title":"B","x":400,"y":0}},
		{"op":"node.update","args":{"id":"$a","title":"A2"}},
		{"op":"edge.add","args":{"from":"$a","to":"$b","type":"flow"}},
		{"op":"group.create","assign":"g","args":{"title":"G","childIds":["$a"]}},
		{"op":"group.add","args":{"groupId":"$g","childIds":["$b"]}},
		{"op":"group.remove","args":{"groupId":"$g"}},
		{"op":"pin.set","args":{"nodeIds":["$a"]}},
		{"op":"pin.add","args":{"nodeIds":["$b"]}},
		{"op":"pin.remove","args":{"nodeIds":["$a"]}},
		{"op":"snapshot.save","assign":"s","args":{"name":"base"}},
		{"op":"arrange","args":{"layout":"grid"}},
		{"op":"node.remove","args":{"id":"$b"}}
	]}`)
	results := out["results"].([]any)
	if len(results) != 13 {
		t.Fatalf("%d results: %v", len(results), out)
	}
	keys := func(i int) string {
		m := results[i].(map[string]any)
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	node := func(i int, typ string) {
		t.Helper()
		m := results[i].(map[string]any)
		if m["ok"] != true || m["type"] != typ || m["node"] != nil || m["nodeId"] != nil {
			t.Errorf("result %d is not a compact %s node: %v", i, typ, m)
		}
	}
	node(0, "markdown")
	node(1, "prompt")
	node(2, "markdown")
	node(4, "group")
	node(5, "group")
	for i, want := range map[int]string{
		3: "from,id,ok,to,type", 6: "groupId,ok", 7: "count,nodeIds,ok", 8: "count,nodeIds,ok", 9: "count,nodeIds,ok",
		10: "ok,snapshot", 11: "arranged,layout,ok", 12: "id,ok,removed",
	} {
		if got := keys(i); got != want {
			t.Errorf("result %d has keys %s, want %s: %v", i, got, want, results[i])
		}
	}
	if r := results[12].(map[string]any); r["removed"] != true {
		t.Errorf("node.remove: %v", r)
	}
	if pins := results[9].(map[string]any)["nodeIds"].([]any); len(pins) != 1 {
		t.Errorf("pin.add then pin.remove left %v", pins)
	}
	if _, ok := out["refs"].(map[string]any)["s"].(map[string]any)["snapshot"]; !ok {
		t.Errorf("refs: %v", out["refs"])
	}
	if _, err := h.call("", "canvas.batch", `{"operations":[{"op":"graph.add","args":{}}]}`); err == nil || !strings.Contains(err.Message, "Missing required field: data.") {
		t.Errorf("graph.add: %v", err)
	}
	if _, err := h.call("", "canvas.batch", `{"operations":[{"op":"canvas.clear"}]}`); err == nil || !strings.Contains(err.Message, `Unsupported canvas_batch operation "canvas.clear"`) {
		t.Errorf("canvas.clear: %v", err)
	}
}
