package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// frames reads n frames (pings skipped) and returns their event names.
func (s *sseStream) names(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, s.next(t).event)
	}
	return out
}

// freshStream opens a stream and consumes its connect burst.
func (p *proc) freshStream(t *testing.T) *sseStream {
	t.Helper()
	s := p.openStream("")
	s.names(t, 4)
	return s
}

func TestGroupRoutes(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"status","x":100,"y":200,"width":360,"height":200}`)
	b := p.addNode(`{"type":"status","x":520,"y":260,"width":300,"height":240}`)
	c := p.addNode(`{"type":"status","x":2000,"y":2000}`)

	g := p.must(200, "POST", "/api/canvas/group", fmt.Sprintf(`{"title":"G1","childIds":[%q,%q],"color":"#4a9eff"}`, a, b))
	gid := g.str("id")
	if !strings.HasPrefix(gid, "group-") || g.str("type") != "group" {
		t.Fatalf("group: %s", g.raw)
	}
	pos, size := g.body["position"].(map[string]any), g.body["size"].(map[string]any)
	if pos["x"] != 44.0 || pos["y"] != 112.0 || size["width"] != 832.0 || size["height"] != 444.0 {
		t.Fatalf("fit frame %v %v", pos, size)
	}
	data := g.body["data"].(map[string]any)
	if data["frameMode"] != "fit" || data["color"] != "#4a9eff" || len(data["children"].([]any)) != 2 {
		t.Fatalf("group data %v", data)
	}
	if r := p.must(400, "POST", "/api/canvas/group", `{"childIds":["a","b"]}`); r.str("error") != "Cannot create group: missing child node ID(s): a, b." {
		t.Fatalf("%s", r.raw)
	}

	// Moving the group moves its members.
	p.must(200, "PATCH", "/api/canvas/node/"+gid, `{"x":144,"y":212}`)
	if pos := p.must(200, "GET", "/api/canvas/node/"+a, nil).body["position"].(map[string]any); pos["x"] != 200.0 || pos["y"] != 300.0 {
		t.Fatalf("member after group move: %v", pos)
	}

	if r := p.must(200, "POST", "/api/canvas/group/add", fmt.Sprintf(`{"groupId":%q,"childIds":[%q]}`, gid, c)); r.str("groupId") != gid {
		t.Fatalf("%s", r.raw)
	}
	for _, tc := range []struct{ path, body, want string }{
		{"/api/canvas/group/add", `{"groupId":""}`, "Missing groupId or childIds."},
		{"/api/canvas/group/add", fmt.Sprintf(`{"groupId":"nope","childIds":[%q]}`, a), "Group not found or no valid children."},
		{"/api/canvas/group/ungroup", `{}`, "Missing groupId."},
		{"/api/canvas/group/ungroup", `{"groupId":"nope"}`, "Group not found or empty."},
	} {
		if r := p.must(400, "POST", tc.path, tc.body); r.str("error") != tc.want {
			t.Errorf("%s %s: %s", tc.path, tc.body, r.raw)
		}
	}
	if r := p.must(200, "POST", "/api/canvas/group/ungroup", fmt.Sprintf(`{"groupId":%q}`, gid)); r.str("groupId") != gid {
		t.Fatalf("%s", r.raw)
	}
	if d := p.must(200, "GET", "/api/canvas/node/"+a, nil).body["data"].(map[string]any); d["parentGroup"] != nil {
		t.Fatalf("ungrouped member keeps parentGroup: %v", d)
	}
}

func TestPinRoutesAndEvents(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Alpha","content":"first"}`)
	b := p.addNode(`{"type":"markdown","title":"Beta"}`)
	s := p.freshStream(t)

	r := p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q,%q]}`, a, b))
	if r.body["count"] != 2.0 {
		t.Fatalf("%s", r.raw)
	}
	f := s.next(t)
	if f.event != "context-pins-changed" || f.data["count"] != 2.0 {
		t.Fatalf("pins frame: %s %v", f.event, f.data)
	}
	s.quiet(t, 200*time.Millisecond) // no layout frame for pins

	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q],"mode":"remove"}`, a))
	if r := p.must(400, "POST", "/api/canvas/context-pins", `{"nodeIds":["ghost"],"mode":"add"}`); !strings.Contains(r.str("error"), "ghost") {
		t.Fatalf("unknown pin: %s", r.raw)
	}
	nodes := nodesOf(p.state(""))
	for _, n := range nodes {
		if n["id"] == b && n["pinned"] != true {
			t.Fatal("a context-pinned node reads pinned:true")
		}
		if n["id"] == a && n["pinned"] != false {
			t.Fatal("an unpinned node reads pinned:false")
		}
	}
}

func TestSearchRoute(t *testing.T) {
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"Second node","content":"auth flow notes"}`)
	p.addNode(`{"type":"markdown","title":"auth design"}`)
	r := p.must(200, "GET", "/api/canvas/search?q=auth", nil)
	results := r.body["results"].([]any)
	if len(results) != 2 || r.str("query") != "auth" || results[0].(map[string]any)["title"] != "auth design" {
		t.Fatalf("search: %s", r.raw)
	}
	if got := p.must(200, "GET", "/api/canvas/search?q=auth&limit=1", nil).body["results"].([]any); len(got) != 1 {
		t.Fatalf("limit is honoured: %v", got)
	}
	if r := p.must(200, "GET", "/api/canvas/search?q=%20", nil); len(r.body["results"].([]any)) != 0 || r.str("query") != "" {
		t.Fatalf("blank query: %s", r.raw)
	}
	p.must(400, "GET", "/api/canvas/search?q=a&limit=0", nil)
}

func TestViewRoutesAndFrames(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"status","x":1000,"y":500}`)
	s := p.freshStream(t)

	if r := p.must(200, "POST", "/api/canvas/viewport", `{"x":10,"scale":0.5}`); r.body["viewport"].(map[string]any)["scale"] != 0.5 {
		t.Fatalf("%s", r.raw)
	}
	if f := s.next(t); f.event != "canvas-viewport-update" || f.data["viewport"].(map[string]any)["x"] != 10.0 {
		t.Fatalf("viewport frame %v", f)
	}
	p.must(400, "POST", "/api/canvas/viewport", `{"scale":0}`)

	fr := p.must(200, "POST", "/api/canvas/focus", fmt.Sprintf(`{"id":%q}`, a))
	if fr.str("focused") != a || fr.body["panned"] != true {
		t.Fatalf("focus: %s", fr.raw)
	}
	// The AX focus follows the focused node (ax-state-changed {focus}).
	if got := strings.Join(s.names(t, 4), ","); got != "canvas-focus-node,canvas-viewport-update,canvas-layout-update,ax-state-changed" {
		t.Fatalf("focus frames: %s", got)
	}
	p.must(200, "POST", "/api/canvas/focus", fmt.Sprintf(`{"id":%q,"noPan":true}`, a))
	if got := strings.Join(s.names(t, 3), ","); got != "canvas-focus-node,canvas-layout-update,ax-state-changed" {
		t.Fatalf("noPan focus frames: %s", got)
	}
	if r := p.must(400, "POST", "/api/canvas/focus", `{}`); r.str("error") != "Missing id." {
		t.Fatal(r.raw)
	}
	p.must(404, "POST", "/api/canvas/focus", `{"id":"nope"}`)

	fit := p.must(200, "POST", "/api/canvas/fit", fmt.Sprintf(`{"nodeIds":[%q]}`, a))
	if fit.body["nodeCount"] != 1.0 || fit.body["bounds"].(map[string]any)["x"] != 1000.0 {
		t.Fatalf("fit: %s", fit.raw)
	}
	if f := s.next(t); f.event != "canvas-viewport-update" {
		t.Fatalf("fit frame: %s", f.event)
	}

	if th := p.must(200, "GET", "/api/canvas/theme", nil); th.str("theme") != "dark" {
		t.Fatal(th.raw)
	}
	p.must(200, "POST", "/api/canvas/theme", `{"theme":"light"}`)
	if f := s.next(t); f.event != "theme-changed" || f.data["theme"] != "light" {
		t.Fatalf("theme frame %v", f)
	}
	if r := p.must(400, "POST", "/api/canvas/theme", `{"theme":"neon"}`); !strings.Contains(r.str("error"), "neon") {
		t.Fatal(r.raw)
	}
	s.quiet(t, 200*time.Millisecond) // an invalid theme emits nothing

	up := p.must(200, "POST", "/api/canvas/update", fmt.Sprintf(`{"updates":[{"id":%q,"position":{"x":5,"y":6}},{"id":"ghost"},{"id":%q,"size":{"width":-1,"height":5}}]}`, a, a))
	if up.body["applied"] != 1.0 || up.body["skipped"] != 1.0 || up.body["dropped"] != 1.0 {
		t.Fatalf("update: %s", up.raw)
	}
	if f := s.next(t); f.event != "canvas-layout-update" {
		t.Fatalf("update frame %s", f.event)
	}
	p.must(200, "POST", "/api/canvas/update", `{"updates":[{"id":"ghost"}]}`)
	s.quiet(t, 200*time.Millisecond) // nothing applied: no frame

	p.must(200, "POST", "/api/canvas/clear", nil)
	if st := p.state(""); len(st["nodes"].([]any)) != 0 || st["theme"] != "light" {
		t.Fatalf("clear keeps the theme and removes everything: %v", st["theme"])
	}
	if next := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`).body["position"].(map[string]any); next["x"] != 40.0 || next["y"] != 80.0 {
		t.Fatalf("after clear the first node lands at (40,80): %v", next)
	}
}

func TestHistoryUndoRedo(t *testing.T) {
	p := startServer(t, "")
	a := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Doc"}`, "X-PMX-Agent", "planner").str("id")
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"x":1,"y":2}`)
	p.must(200, "POST", "/api/canvas/viewport", `{"x":50,"recordHistory":false}`)
	h := p.must(200, "GET", "/api/canvas/history", nil)
	entries := h.body["entries"].([]any)
	last := entries[len(entries)-1].(map[string]any)
	first := entries[len(entries)-2].(map[string]any)
	if last["description"] != `Updated node "Doc"` || last["operationType"] != "updateNode" || last["isCurrent"] != true {
		t.Fatalf("last entry %v", last)
	}
	if first["description"] != `Added markdown node "Doc"` || first["agent"] != "planner" {
		t.Fatalf("entry %v", first)
	}
	if !strings.Contains(h.str("text"), "(by planner)") || h.body["canUndo"] != true {
		t.Fatalf("history text %q", h.str("text"))
	}

	s := p.freshStream(t)
	u := p.must(200, "POST", "/api/canvas/undo", nil)
	if u.body["ok"] != true || u.str("description") != `Undid: Updated node "Doc"` {
		t.Fatal(u.raw)
	}
	if got := strings.Join(s.names(t, 2), ","); got != "canvas-viewport-update,canvas-layout-update" {
		t.Fatalf("undo frames %s", got)
	}
	if pos := p.must(200, "GET", "/api/canvas/node/"+a, nil).body["position"].(map[string]any); pos["x"] == 1.0 {
		t.Fatal("undo did not move the node back")
	}
	if r := p.must(200, "POST", "/api/canvas/redo", nil); r.str("description") != `Redid: Updated node "Doc"` {
		t.Fatal(r.raw)
	}
	if r := p.must(200, "POST", "/api/canvas/redo", nil); r.body["ok"] != false || r.str("description") != "Nothing to redo" {
		t.Fatal(r.raw)
	}
	s.names(t, 2)
	for i := 0; i < 10; i++ {
		p.must(200, "POST", "/api/canvas/undo", nil)
	}
	if r := p.must(200, "POST", "/api/canvas/undo", nil); r.str("description") != "Nothing to undo" {
		t.Fatal(r.raw)
	}
}

func TestSnapshotRoutes(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"keep"}`)
	gone := p.addNode(`{"type":"status","title":"via query"}`)
	s := p.freshStream(t)
	save := p.must(200, "POST", "/api/canvas/snapshots", `{"name":"before refactor"}`)
	snap := save.body["snapshot"].(map[string]any)
	if !strings.HasPrefix(save.str("id"), "snap-") || snap["name"] != "before refactor" || snap["nodeCount"] != 4.0 {
		t.Fatalf("save: %s", save.raw)
	}
	s.quiet(t, 200*time.Millisecond) // snapshot save emits nothing
	p.must(400, "POST", "/api/canvas/snapshots", `{"name":"  "}`)

	p.must(200, "DELETE", "/api/canvas/node/"+gone, nil)
	s.next(t)
	list := p.do("GET", "/api/canvas/snapshots", nil)
	var arr []map[string]any
	if err := json.Unmarshal(list.raw, &arr); err != nil || len(arr) != 1 || arr[0]["id"] != save.str("id") {
		t.Fatalf("list is a bare array: %s", list.raw)
	}

	diff := p.must(200, "GET", "/api/canvas/snapshots/"+save.str("id")+"/diff", nil)
	if !strings.Contains(diff.str("text"), "Removed nodes (1):\n  - [status] via query") ||
		!strings.HasSuffix(diff.str("text"), "Summary: +0 -1 ~0 nodes, +0 -0 edges") {
		t.Fatalf("diff text %q", diff.str("text"))
	}
	byName := p.must(200, "GET", "/api/canvas/snapshots/diff?name="+url.QueryEscape("before refactor"), nil)
	if byName.str("text") != diff.str("text") {
		t.Fatal("diff by ?name= differs from diff by id")
	}
	p.must(400, "GET", "/api/canvas/snapshots/diff", nil)
	if r := p.must(404, "GET", "/api/canvas/snapshots/diff?id=nope", nil); r.str("error") != `Snapshot "nope" not found.` {
		t.Fatal(r.raw)
	}

	r := p.must(200, "POST", "/api/canvas/snapshots/before%20refactor", nil)
	if r.body["ok"] != true {
		t.Fatal(r.raw)
	}
	if got := s.names(t, 1); got[0] != "canvas-layout-update" {
		t.Fatal(got)
	}
	s.quiet(t, 300*time.Millisecond) // one layout frame, not the reference's two
	if _, err := findNode(p, gone); err != nil {
		t.Fatal("restore brings the removed node back")
	}
	if r := p.must(404, "POST", "/api/canvas/snapshots/nope", nil); r.str("error") != "Snapshot not found" {
		t.Fatal(r.raw)
	}
	// Restore is undoable.
	if u := p.must(200, "POST", "/api/canvas/undo", nil); !strings.Contains(u.str("description"), `Restored snapshot "before refactor"`) {
		t.Fatal(u.raw)
	}

	p.must(200, "POST", "/api/canvas/snapshots", `{"name":"second"}`)
	gc := p.must(200, "POST", "/api/canvas/snapshots/gc", `{"keep":"1","dryRun":true}`)
	if gc.body["kept"] != 1.0 || len(gc.body["deleted"].([]any)) != 1 || gc.body["dryRun"] != true {
		t.Fatal(gc.raw)
	}
	p.must(400, "POST", "/api/canvas/snapshots/gc", `{"keep":"none"}`)
	p.must(200, "DELETE", "/api/canvas/snapshots/second", nil) // by name
	p.must(404, "DELETE", "/api/canvas/snapshots/second", nil)
	_ = a
}

func findNode(p *proc, id string) (map[string]any, error) {
	for _, n := range nodesOf(p.state("")) {
		if n["id"] == id {
			return n, nil
		}
	}
	return nil, fmt.Errorf("node %s not found", id)
}

func TestSnapshotSurvivesRestart(t *testing.T) {
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"one"}`)
	p.must(200, "POST", "/api/canvas/snapshots", `{"name":"s1"}`)
	want := stripRevision(p.must(200, "GET", "/api/canvas/state", nil).raw)
	p.addNode(`{"type":"markdown","title":"two"}`)
	p.stop()

	q := startServer(t, p.ws)
	q.must(200, "POST", "/api/canvas/snapshots/s1", nil)
	if got := stripRevision(q.must(200, "GET", "/api/canvas/state", nil).raw); !bytes.Equal(got, want) {
		t.Fatalf("restored after restart:\n got %s\nwant %s", got, want)
	}
}

func stripRevision(raw []byte) []byte {
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	delete(m, "revision")
	out, _ := json.Marshal(m)
	return out
}

func TestBatchRoute(t *testing.T) {
	p := startServer(t, "")
	s := p.freshStream(t)
	r := p.must(200, "POST", "/api/canvas/batch", `{"operations":[
		{"op":"node.add","assign":"a","args":{"type":"markdown","title":"Batch A","content":"costs $100","x":2000,"y":100}},
		{"op":"node.add","assign":"b","args":{"type":"markdown","title":"Batch B","x":2000,"y":600}},
		{"op":"edge.add","args":{"from":"$a","to":"$b.id","type":"depends-on"}},
		{"op":"group.create","assign":"frame","args":{"title":"Frame","childIds":["$a.id","$b"]}},
		{"op":"pin.add","args":{"nodeIds":["$a"]}},
		{"op":"snapshot.save","assign":"s","args":{"name":"after-batch"}},
		{"op":"node.update","args":{"id":"$a","title":"Renamed"}}]}`)
	results := r.body["results"].([]any)
	refs := r.body["refs"].(map[string]any)
	if len(results) != 7 || refs["a"] == nil || refs["frame"] == nil {
		t.Fatalf("batch: %s", r.raw)
	}
	a := refs["a"].(map[string]any)
	if a["data"].(map[string]any)["content"] != "costs $100" {
		t.Fatalf("a $ in text that names no ref stays text: %v", a["data"])
	}
	if _, has := a["node"]; has {
		t.Fatal("batch node results are compact (no node key)")
	}
	edge := results[2].(map[string]any)
	if edge["from"] != a["id"] || edge["to"] != refs["b"].(map[string]any)["id"] {
		t.Fatalf("refs resolved: %v", edge)
	}
	if pins := results[4].(map[string]any); pins["count"] != 1.0 {
		t.Fatalf("pin result %v", pins)
	}
	if got := s.names(t, 1); got[0] != "canvas-layout-update" {
		t.Fatal(got)
	}
	s.quiet(t, 300*time.Millisecond) // exactly one frame

	h := p.must(200, "GET", "/api/canvas/history", nil).body["entries"].([]any)
	if last := h[len(h)-1].(map[string]any); last["description"] != "Batch of 7 operations" {
		t.Fatalf("one undo step: %v", last)
	}
	if u := p.must(200, "POST", "/api/canvas/undo", nil); u.body["ok"] != true {
		t.Fatal(u.raw)
	}
	if n := len(nodesOf(p.state(""))); n != 2 {
		t.Fatalf("undo of the batch removes all it added: %d nodes", n)
	}

	// Bare array form.
	arr := p.must(200, "POST", "/api/canvas/batch", `[{"op":"node.add","args":{"type":"status"}}]`)
	if len(arr.body["results"].([]any)) != 1 {
		t.Fatal(arr.raw)
	}
}

// A batch whose 5th of 10 entries fails leaves the canvas byte-identical
// and emits no frame.
func TestBatchIsAtomic(t *testing.T) {
	p := startServer(t, "")
	p.addNode(`{"type":"markdown","title":"existing"}`)
	before := p.must(200, "GET", "/api/canvas/state", nil).raw
	snapsBefore := p.do("GET", "/api/canvas/snapshots", nil).raw
	s := p.freshStream(t)

	var ops []string
	for i := 0; i < 10; i++ {
		switch i {
		case 2:
			ops = append(ops, `{"op":"snapshot.save","args":{"name":"inside"}}`)
		case 4:
			ops = append(ops, `{"op":"node.remove","args":{"id":"node-does-not-exist"}}`)
		default:
			ops = append(ops, fmt.Sprintf(`{"op":"node.add","assign":"n%d","args":{"type":"status","title":"n%d"}}`, i, i))
		}
	}
	r := p.must(400, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
	if r.body["ok"] != false || r.body["failedIndex"] != 4.0 || r.str("error") != `Node "node-does-not-exist" not found.` ||
		r.str("code") != "batch-failed" || r.str("failedCode") != "not-found" || len(r.body["results"].([]any)) != 4 {
		t.Fatalf("failure body: %s", r.raw)
	}
	if after := p.must(200, "GET", "/api/canvas/state", nil).raw; !bytes.Equal(before, after) {
		t.Fatalf("a failed batch changed the canvas:\n%s\n%s", before, after)
	}
	if after := p.do("GET", "/api/canvas/snapshots", nil).raw; !bytes.Equal(snapsBefore, after) {
		t.Fatal("a failed batch saved a snapshot")
	}
	s.quiet(t, 300*time.Millisecond)

	for _, tc := range []struct{ body, want string }{
		{`[{"op":"canvas.clear"}]`, `Unsupported canvas_batch operation "canvas.clear".`},
		{`[{"op":"node.add","args":5}]`, "Operation 0 has invalid args."},
		{`{"operations":[{"op":"mcpapp.open"}]}`, `Unsupported canvas_batch operation "mcpapp.open".`},
	} {
		if r := p.must(400, "POST", "/api/canvas/batch", tc.body); r.str("error") != tc.want {
			t.Errorf("%s: %s", tc.body, r.raw)
		}
	}
	p.must(400, "POST", "/api/canvas/batch", `garbage`)
}

func TestJSONCanvasExportImportRoundTrip(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Plan","content":"Ship it","x":0,"y":0}`)
	b := p.addNode(`{"type":"webpage","url":"https://example.com/","x":700,"y":0}`)
	f := p.addNode(`{"type":"file","content":"docs/readme.md","x":0,"y":600}`)
	p.must(200, "POST", "/api/canvas/group", fmt.Sprintf(`{"title":"Box","childIds":[%q,%q]}`, a, f))
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow","label":"read"}`, a, b))
	doc := p.must(200, "GET", "/api/canvas/export?format=jsoncanvas", nil).raw

	q := startServer(t, "")
	p.must(400, "GET", "/api/canvas/export?format=bmp", nil)
	imp := q.must(200, "POST", "/api/canvas/import?canvas=fresh", doc)
	if imp.body["nodes"] != 4.0 || imp.body["edges"] != 1.0 {
		t.Fatalf("import: %s", imp.raw)
	}
	again := q.must(200, "GET", "/api/canvas/export?canvas=fresh", nil).raw
	if !bytes.Equal(doc, again) {
		t.Fatalf("export → import → export differs:\n%s\n%s", doc, again)
	}
	if r := q.must(400, "POST", "/api/canvas/import", `{"nodes":[{"id":"x","type":"video","x":0,"y":0,"width":1,"height":1}]}`); !strings.Contains(r.str("error"), "x") {
		t.Fatalf("bad import: %s", r.raw)
	}
	// replace=true clears first.
	q.must(200, "POST", "/api/canvas/import?canvas=fresh&replace=true", doc)
	if n := len(nodesOf(q.state("fresh"))); n != 4 {
		t.Fatalf("replace import left %d nodes", n)
	}
}

func TestReadAnalyses(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Alpha","content":"first","x":0,"y":300}`)
	b := p.addNode(`{"type":"markdown","title":"Beta","content":"second","x":100,"y":400}`)
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, a))

	pc := p.must(200, "GET", "/api/canvas/pinned-context", nil)
	if pc.body["count"] != 1.0 || !strings.HasPrefix(pc.str("preamble"), `[Context from "Alpha" (markdown)]`+"\nfirst\n") {
		t.Fatalf("pinned context: %s", pc.raw)
	}
	node := pc.body["nodes"].([]any)[0].(map[string]any)
	if _, hasData := node["data"]; hasData || node["position"] == nil || node["kind"] != "markdown" {
		t.Fatalf("pinned node: %v", node)
	}

	v := p.must(200, "GET", "/api/canvas/validate", nil)
	if v.body["ok"] != false || len(v.body["collisions"].([]any)) != 1 {
		t.Fatalf("overlapping nodes are a collision: %s", v.raw)
	}
	col := v.body["collisions"].([]any)[0].(map[string]any)
	if col["aId"] != a || col["bId"] != b || col["aTitle"] != "Alpha" {
		t.Fatalf("collision %v", col)
	}

	sm := p.must(200, "GET", "/api/canvas/summary", nil)
	if sm.body["totalNodes"] != 4.0 || sm.body["pinnedCount"] != 1.0 || sm.body["nodesByType"].(map[string]any)["markdown"] != 2.0 {
		t.Fatalf("summary: %s", sm.raw)
	}
	sp := p.must(200, "GET", "/api/canvas/spatial-context", nil)
	if sp.body["totalNodes"] != 4.0 || len(sp.body["clusters"].([]any)) == 0 || len(sp.body["nodesInReadingOrder"].([]any)) != 4 {
		t.Fatalf("spatial: %s", sp.raw)
	}

	// Arrange resolves the collision; the reply reports validation.
	s := p.freshStream(t)
	ar := p.must(200, "POST", "/api/canvas/arrange", `{"layout":"column"}`)
	if ar.body["layout"] != "column" || ar.body["arranged"] != 2.0 || ar.body["ok"] != true {
		t.Fatalf("arrange: %s", ar.raw)
	}
	if got := s.names(t, 1); got[0] != "canvas-layout-update" {
		t.Fatal(got)
	}
	if v := p.must(200, "GET", "/api/canvas/validate", nil); v.body["ok"] != true {
		t.Fatalf("after arrange: %s", v.raw)
	}
	if r := p.must(400, "POST", "/api/canvas/arrange", `{"layout":"spiral"}`); r.str("error") != `Invalid layout: "spiral". Use: grid, column, flow` {
		t.Fatal(r.raw)
	}
	if u := p.must(200, "POST", "/api/canvas/undo", nil); u.str("description") != "Undid: Auto-arranged 2 nodes (column)" {
		t.Fatal(u.raw)
	}
}

func TestAnnotationRoutes(t *testing.T) {
	p := startServer(t, "")
	s := p.freshStream(t)
	r := p.must(200, "POST", "/api/canvas/annotation", `{"type":"text","text":"hello","points":[{"x":10,"y":10}]}`)
	ann := r.body["annotation"].(map[string]any)
	if !strings.HasPrefix(ann["id"].(string), "ann-") || ann["pointCount"] != 1.0 || ann["text"] != "hello" || ann["label"] != "hello" {
		t.Fatalf("annotation: %s", r.raw)
	}
	if got := s.names(t, 1); got[0] != "canvas-layout-update" {
		t.Fatal(got)
	}
	free := p.must(200, "POST", "/api/canvas/annotation", `{"points":[{"x":0,"y":0},{"x":100,"y":50}],"color":"#ff0000","label":"circle this"}`)
	for _, tc := range []struct{ body, want string }{
		{`{"points":[{"x":0,"y":0}]}`, "Annotation requires at least two valid points."},
		{`{"type":"text","text":"x"}`, "Text annotation requires a valid point."},
		{`{"type":"text","points":[{"x":0,"y":0}]}`, "Text annotation requires text."},
	} {
		if r := p.must(400, "POST", "/api/canvas/annotation", tc.body); r.str("error") != tc.want {
			t.Errorf("%s: %s", tc.body, r.raw)
		}
	}
	list := p.must(200, "GET", "/api/canvas/annotations", nil).body["annotations"].([]any)
	if len(list) != 2 {
		t.Fatalf("list %v", list)
	}
	if anns := p.state("")["annotations"].([]any); len(anns) != 2 || anns[1].(map[string]any)["color"] != "#ff0000" {
		t.Fatalf("state annotations %v", anns)
	}
	id := free.body["annotation"].(map[string]any)["id"].(string)
	if r := p.must(200, "DELETE", "/api/canvas/annotation/"+id, nil); r.str("removed") != id {
		t.Fatal(r.raw)
	}
	if r := p.must(404, "DELETE", "/api/canvas/annotation/"+id, nil); r.str("error") != fmt.Sprintf("Annotation %q not found.", id) {
		t.Fatal(r.raw)
	}
}

func TestSnapshotListQueries(t *testing.T) {
	p := startServer(t, "")
	var ids []string
	for _, name := range []string{"alpha one", "beta", "alpha two"} {
		ids = append(ids, p.must(200, "POST", "/api/canvas/snapshots", fmt.Sprintf(`{"name":%q}`, name)).str("id"))
		time.Sleep(5 * time.Millisecond) // distinct createdAt
	}
	list := func(query string) []map[string]any {
		var arr []map[string]any
		if err := json.Unmarshal(p.must(200, "GET", "/api/canvas/snapshots"+query, nil).raw, &arr); err != nil {
			t.Fatal(err)
		}
		return arr
	}
	if got := list(""); len(got) != 3 || got[0]["id"] != ids[2] {
		t.Fatalf("newest first: %v", got)
	}
	if got := list("?q=ALPHA"); len(got) != 2 {
		t.Fatalf("q filters by name: %v", got)
	}
	if got := list("?query=beta&q="); len(got) != 3 {
		t.Fatalf("q wins over query even when empty: %v", got)
	}
	if got := list("?limit=1"); len(got) != 1 {
		t.Fatalf("limit: %v", got)
	}
	created := list("")[1]["createdAt"].(string)
	if got := list("?before=" + url.QueryEscape(created)); len(got) != 2 {
		t.Fatalf("before is inclusive: %v", got)
	}
	if got := list("?after=" + url.QueryEscape(created)); len(got) != 2 {
		t.Fatalf("after is inclusive: %v", got)
	}
	p.must(400, "GET", "/api/canvas/snapshots?limit=0", nil)
	if r := p.must(404, "GET", "/api/canvas/snapshots/nope/diff", nil); r.str("error") != `Snapshot "nope" not found.` {
		t.Fatal(r.raw)
	}
	if r := p.must(200, "GET", "/api/canvas/snapshots/beta/diff", nil); !strings.Contains(r.str("text"), "No differences") {
		t.Fatalf("diff by name: %s", r.raw)
	}
}
