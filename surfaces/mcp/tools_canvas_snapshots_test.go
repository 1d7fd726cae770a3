package mcpapi_test

import (
	"strings"
	"testing"
)

func TestSnapshotTools(t *testing.T) {
	h := newHarness(t)
	a := h.addNode("Alpha")

	saved := h.text("canvas_snapshot", `{"name":" first "}`)
	if strings.Contains(saved, "\n") {
		t.Errorf("save is compact: %s", saved)
	}
	if k := keysOf(t, saved); len(k) < 3 || strings.Join(k[:3], " ") != "ok id snapshot" {
		t.Errorf("save keys %v", k)
	}
	s := decode(t, saved)
	snapID := s["id"].(string)
	meta := s["snapshot"].(map[string]any)
	deepEq(t, "snapshot", []any{meta["id"], meta["name"], meta["nodeCount"], meta["edgeCount"]}, []any{snapID, "first", 3.0, 0.0})
	// bytes (the saved content's size) is ours, after the reference's keys.
	deepEq(t, "snapshot keys", rawKeys(t, saved, "snapshot"), []string{"id", "name", "createdAt", "nodeCount", "edgeCount", "bytes"})

	list := h.text("canvas_list_snapshots", `{}`)
	deepEq(t, "list keys", keysOf(t, list), []string{"snapshots"})
	rows := decode(t, list)["snapshots"].([]any)
	deepEq(t, "listed", rows, []any{meta})
	deepEq(t, "filtered out", h.text("canvas_list_snapshots", `{"query":"zzz"}`), "{\n  \"snapshots\": []\n}")
	deepEq(t, "q wins", len(decode(t, h.text("canvas_list_snapshots", `{"q":"FIR","query":"zzz"}`))["snapshots"].([]any)), 1)
	h.sameAsOp("canvas_list_snapshots", `{"q":5,"query":"fir"}`)

	h.text("canvas_update_node", `{"id":"`+a+`","title":"Alpha 2"}`)
	diff := h.text("canvas_diff", `{"snapshot":"first","id":"ignored"}`)
	if !strings.HasPrefix(diff, "Diff: current canvas vs snapshot \"first\"\n") || !strings.Contains(diff, "Summary: +0 -0 ~1 nodes, +0 -0 edges") {
		t.Errorf("diff text: %q", diff)
	}

	h.addNode("Beta")
	restored := h.text("canvas_restore", `{"id":"first"}`)
	deepEq(t, "restore keys", keysOf(t, restored), []string{"ok", "restored", "summary"})
	deepEq(t, "summary keys", rawKeys(t, restored, "summary"), []string{"nodeCount", "edgeCount", "annotationCount", "nodesByType", "viewport"})
	deepEq(t, "nodesByType order", rawKeys(t, restored, "summary", "nodesByType"), []string{"status", "context", "markdown"})
	r := decode(t, restored)
	deepEq(t, "restored as given", r["restored"], "first")
	sum := r["summary"].(map[string]any)
	deepEq(t, "summary", []any{sum["nodeCount"], sum["edgeCount"], sum["annotationCount"], sum["nodesByType"]},
		[]any{3.0, 0.0, 0.0, map[string]any{"status": 1.0, "context": 1.0, "markdown": 1.0}})
	deepEq(t, "title back", h.ok("canvas_get_node", `{"id":"`+a+`"}`)["title"], "Alpha")

	h.text("canvas_snapshot", `{"name":"second"}`)
	h.text("canvas_snapshot", `{"name":"third"}`)
	gc := h.text("canvas_gc_snapshots", `{"keep":1,"dryRun":true}`)
	deepEq(t, "gc keys", keysOf(t, gc), []string{"ok", "kept", "deleted", "dryRun"})
	g := decode(t, gc)
	deepEq(t, "gc", []any{g["kept"], len(g["deleted"].([]any)), g["dryRun"]}, []any{1.0, 2, true})
	deepEq(t, "dry run deleted nothing", len(decode(t, h.text("canvas_list_snapshots", `{}`))["snapshots"].([]any)), 3)

	deepEq(t, "delete", h.text("canvas_delete_snapshot", `{"id":"`+snapID+`"}`), `{"ok":true,"deleted":"`+snapID+`"}`)

	tests := []struct{ tool, args, want string }{
		{"canvas_snapshot", `{}`, `Missing snapshot name`},
		{"canvas_snapshot", `{"name":"  "}`, `Missing snapshot name`},
		{"canvas_snapshot", `{"name":5}`, `invalid input for snapshot.save: field "name" must be a string, got number`},
		{"canvas_snapshot", `{"action":"undo"}`, `MCP error -32602: Input validation error: Invalid arguments for tool canvas_snapshot: action: expected one of "save"|"list"|"restore"|"delete"|"gc"|"diff"`},
		{"canvas_snapshot", `{"action":"restore"}`, `invalid input for snapshot.restore: field "id" is required`},
		{"canvas_snapshot", `{"action":"diff"}`, `invalid input for snapshot.diff: field "id" is required`},
		{"canvas_restore", `{"id":"nope"}`, `Snapshot not found`},
		{"canvas_delete_snapshot", `{"id":"nope"}`, `Snapshot not found`},
		{"canvas_diff", `{"snapshot":"nope"}`, `Snapshot "nope" not found.`},
		{"canvas_diff", `{"id":"first"}`, `invalid input for snapshot.diff: field "id" is required`},
		{"canvas_list_snapshots", `{"all":"yes"}`, `invalid input for snapshot.list: field "all" must be a boolean, got string`},
	}
	for _, tt := range tests {
		h.fails(tt.tool, tt.args, tt.want)
	}
}

// canvas_snapshot with an action answers exactly what the matching snapshot
// tool answers; without one (or with save) it saves.
func TestSnapshotActionsMatchSnapshotTools(t *testing.T) {
	setup := func(h *harness) {
		h.addNode("Alpha")
		h.text("canvas_snapshot", `{"name":"base"}`)
		h.addNode("Beta")
		h.text("canvas_snapshot", `{"name":"later"}`)
	}
	tests := []struct{ action, tool, args string }{
		{"save", "canvas_snapshot", `{"name":"x"}`},
		{"list", "canvas_list_snapshots", `{"limit":1}`},
		{"list", "canvas_list_snapshots", `{"all":true,"query":"BA"}`},
		{"restore", "canvas_restore", `{"id":"base"}`},
		{"restore", "canvas_restore", `{"id":"nope"}`},
		{"delete", "canvas_delete_snapshot", `{"id":"later"}`},
		{"gc", "canvas_gc_snapshots", `{"keep":1}`},
		{"gc", "canvas_gc_snapshots", `{}`},
		{"diff", "canvas_diff", `{"snapshot":"base"}`},
		{"diff", "canvas_diff", `{"snapshot":"nope"}`},
	}
	for _, tt := range tests {
		t.Run(tt.action+" "+tt.args, func(t *testing.T) {
			h1, h2 := newHarness(t), newHarness(t)
			setup(h1)
			setup(h2)
			want := h1.call(tt.tool, tt.args)
			args := `{"action":"` + tt.action + `",` + strings.TrimPrefix(tt.args, "{")
			got := h2.call("canvas_snapshot", strings.Replace(args, ",}", "}", 1))
			if want.IsError != got.IsError || norm(want.Text) != norm(got.Text) {
				t.Errorf("%s: isError=%v %s\ncanvas_snapshot %s: isError=%v %s", tt.tool, want.IsError, want.Text, tt.action, got.IsError, got.Text)
			}
		})
	}
	// Without action it saves.
	h := newHarness(t)
	if s := h.ok("canvas_snapshot", `{"name":"plain"}`); s["snapshot"].(map[string]any)["name"] != "plain" {
		t.Errorf("save: %v", s)
	}
}

func TestBatch(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_batch", `{"operations":[
		{"op":"node.add","assign":"a","args":{"type":"markdown","title":"Batch A","content":"alpha"}},
		{"op":"node.add","assign":"b","args":{"type":"status","title":"Batch B","content":"ok"}},
		{"op":"edge.add","assign":"e","args":{"from":"$a","to":"$b","type":"flow","label":"next"}},
		{"op":"pin.add","args":{"nodeIds":["$a"]}},
		{"op":"arrange","args":{"layout":"column"}}]}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "results", "refs", "revision"})
	out := decode(t, text)
	results := out["results"].([]any)
	nodeA := results[0].(map[string]any)
	deepEq(t, "node result", []any{nodeA["ok"], nodeA["type"], nodeA["kind"], nodeA["title"], nodeA["content"], nodeA["data"], nodeA["zIndex"]},
		[]any{true, "markdown", "markdown", "Batch A", "alpha", nil, nil})
	var raw struct {
		Results []jsonRaw `json:"results"`
		Refs    map[string]jsonRaw
	}
	mustUnmarshal(t, text, &raw)
	deepEq(t, "node result keys", keysOf(t, string(raw.Results[0])), []string{"ok", "id", "type", "kind", "title", "content", "position", "size"})
	deepEq(t, "size order", rawKeys(t, string(raw.Results[0]), "size"), []string{"width", "height"})
	edge := results[2].(map[string]any)
	deepEq(t, "edge result (label dropped)", edge, map[string]any{"ok": true, "id": edge["id"], "type": "flow", "from": nodeA["id"], "to": results[1].(map[string]any)["id"]})
	deepEq(t, "edge keys", keysOf(t, string(raw.Results[2])), []string{"ok", "id", "type", "from", "to"})
	deepEq(t, "pin result", results[3], map[string]any{"ok": true, "count": 1.0, "nodeIds": []any{nodeA["id"]}})
	deepEq(t, "pin keys", keysOf(t, string(raw.Results[3])), []string{"ok", "count", "nodeIds"})
	deepEq(t, "arrange keys", keysOf(t, string(raw.Results[4])), []string{"ok", "arranged", "layout"})
	deepEq(t, "refs in assignment order", rawKeys(t, text, "refs"), []string{"a", "b", "e"})
	reordered := h.text("canvas_batch", `{"operations":[
		{"op":"node.add","assign":"z","args":{"type":"markdown","title":"Z"}},
		{"op":"node.add","assign":"m","args":{"type":"markdown","title":"M"}},
		{"op":"node.update","assign":"z","args":{"id":"$z","title":"Z2"}}]}`)
	deepEq(t, "refs keep first assignment order", rawKeys(t, reordered, "refs"), []string{"z", "m"})
	deepEq(t, "reassigned ref holds the last result", decode(t, reordered)["refs"].(map[string]any)["z"].(map[string]any)["title"], "Z2")
	refs := out["refs"].(map[string]any)
	deepEq(t, "refs", []any{refs["a"], refs["e"]}, []any{results[0], results[2]})
	deepEq(t, "pinned", h.op("pinned.get", `{}`)["nodeIds"], []any{nodeA["id"]})

	// full: entries keep every key, in the serialized node's order.
	full := h.text("canvas_batch", `{"operations":[{"op":"node.add","args":{"type":"markdown","title":"F"}},{"op":"node.remove","args":{"id":"status-main"}}],"full":true}`)
	mustUnmarshal(t, full, &raw)
	deepEq(t, "full node keys", keysOf(t, string(raw.Results[0])), append([]string{"ok"}, fullNodeKeys...))
	deepEq(t, "remove result keys", keysOf(t, string(raw.Results[1])), []string{"ok", "id", "removed"})
	deepEq(t, "verbose", norm(h.text("canvas_batch", `{"operations":[{"op":"node.add","args":{"type":"markdown","title":"F","x":0,"y":0}}],"verbose":true}`)) != "", true)

	// Failure: isError with the envelope; atomic, so nothing was applied.
	before := len(h.op("layout.get", `{}`)["nodes"].([]any))
	r := h.call("canvas_batch", `{"operations":[{"op":"node.add","assign":"a","args":{"type":"markdown","title":"Never"}},{"op":"node.frob"}]}`)
	if !r.IsError {
		t.Fatalf("failed batch is not isError: %s", r.Text)
	}
	deepEq(t, "failure keys", keysOf(t, r.Text), []string{"ok", "failedIndex", "error", "failedCode", "results", "refs"})
	f := decode(t, r.Text)
	deepEq(t, "failure", []any{f["ok"], f["failedIndex"], f["error"], f["failedCode"], len(f["results"].([]any))},
		[]any{false, 1.0, `Unsupported canvas_batch operation "node.frob".`, "bad-request", 1})
	deepEq(t, "failure refs compacted", f["refs"].(map[string]any)["a"].(map[string]any)["title"], "Never")
	if !strings.HasPrefix(r.Text, "{\n  \"ok\": false,") {
		t.Errorf("failure is pretty: %s", r.Text)
	}
	deepEq(t, "nothing applied", len(h.op("layout.get", `{}`)["nodes"].([]any)), before)

	nf := h.call("canvas_batch", `{"operations":[{"op":"node.remove","args":{"id":"nope"}}]}`)
	deepEq(t, "op failure", []any{nf.IsError, decode(t, nf.Text)["error"], decode(t, nf.Text)["failedCode"]}, []any{true, `Node "nope" not found.`, "not-found"})

	deepEq(t, "empty", h.text("canvas_batch", `{"operations":[]}`), "{\n  \"ok\": true,\n  \"results\": [],\n  \"refs\": {}\n}")
	// Entries decode as over HTTP.
	noOp := h.call("canvas_batch", `{"operations":[{"args":{}}]}`)
	deepEq(t, "entry without op", []any{noOp.IsError, decode(t, noOp.Text)["error"]}, []any{true, `Unsupported canvas_batch operation "".`})
	h.sameAsOp("canvas_batch", `{"operations":[{"op":5}]}`)
	h.sameAsOp("canvas_batch", `{}`)
}
