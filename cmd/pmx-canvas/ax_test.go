package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Black-box tests of the AX routes (docs/http-api.md "AX"). Each route is
// exercised with its happy path and its error cases over real HTTP.

// obj returns body[key] as an object.
func obj(body map[string]any, key string) map[string]any {
	m, _ := body[key].(map[string]any)
	return m
}

// list returns body[key] as a list of objects.
func list(body map[string]any, key string) []map[string]any {
	var out []map[string]any
	for _, v := range body[key].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func strs(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

// wantError asserts an error reply's status and exact message.
func (p *proc) wantError(status int, method, path string, body any, message string) *response {
	p.t.Helper()
	r := p.must(status, method, path, body)
	if r.body["ok"] != false || r.str("error") != message {
		p.t.Fatalf("%s %s: error %q, want %q (%s)", method, path, r.str("error"), message, r.raw)
	}
	return r
}

func TestAXStateRoutes(t *testing.T) {
	p := startServer(t, "")
	s := p.freshStream(t)
	a := p.addNode(`{"type":"markdown","title":"Auth module","content":"JWT"}`)
	s.names(t, 1)

	// Empty state.
	st := p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil)
	state := obj(st.body, "state")
	if state["version"] != 1.0 || len(state["workItems"].([]any)) != 0 || st.body["host"] != nil || st.body["context"] != nil {
		t.Fatalf("empty state: %s", st.raw)
	}
	if pol := obj(state, "policy"); obj(pol, "tools")["allowed"] == nil || obj(pol, "prompt")["mode"] != nil {
		t.Fatalf("empty policy: %v", pol)
	}

	// Focus: ghosts dropped, duplicates removed, primary = first kept.
	f := p.must(200, "POST", "/api/canvas/ax/focus", fmt.Sprintf(`{"nodeIds":["ghost",%q,"status-main",%q,7],"source":"copilot"}`, a, a))
	focus := obj(f.body, "focus")
	if got := strs(focus["nodeIds"]); len(got) != 2 || got[0] != a || got[1] != "status-main" || focus["primaryNodeId"] != a || focus["source"] != "copilot" {
		t.Fatalf("focus: %s", f.raw)
	}
	if fr := s.next(t); fr.event != "ax-state-changed" || obj(fr.data, "focus")["primaryNodeId"] != a || fr.data["sessionId"] == nil {
		t.Fatalf("focus frame %v", fr)
	}
	p.wantError(400, "POST", "/api/canvas/ax/focus", `{"nodeIds":"x"}`, `invalid input for ax.focus.set: field "nodeIds" must be an array, got string`)

	// PATCH /api/canvas/ax is the legacy focus set.
	pr := p.must(200, "PATCH", "/api/canvas/ax", `{"focus":{"nodeIds":["status-main"]}}`)
	if f := obj(obj(pr.body, "state"), "focus"); f["primaryNodeId"] != "status-main" || f["source"] != "api" {
		t.Fatalf("patch: %s", pr.raw)
	}
	s.names(t, 1)
	p.wantError(400, "PATCH", "/api/canvas/ax", `{"focus":"x"}`, "PATCH /api/canvas/ax currently requires a focus object.")
	p.wantError(400, "PATCH", "/api/canvas/ax", `{}`, "PATCH /api/canvas/ax currently requires a focus object.")

	// Policy: merged per key; a malformed list is a 400 that keeps the list.
	pol := p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"approvalRequired":["shell","deploy"],"allowed":[]},"prompt":{"mode":"concise","systemAppend":""}}`)
	if tools := obj(obj(pol.body, "policy"), "tools"); len(tools["approvalRequired"].([]any)) != 2 || obj(obj(pol.body, "policy"), "prompt")["systemAppend"] != nil {
		t.Fatalf("policy: %s", pol.raw)
	}
	s.names(t, 1)
	bad := p.must(400, "POST", "/api/canvas/ax/policy", `{"tools":{"excluded":"notarray"}}`)
	if bad.str("field") != "tools.excluded" {
		t.Fatalf("malformed policy: %s", bad.raw)
	}
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"allowed":["read"]}}`)
	s.names(t, 1)
	got := p.must(200, "GET", "/api/canvas/ax/policy", nil)
	tools := obj(obj(got.body, "policy"), "tools")
	if strs(tools["allowed"])[0] != "read" || len(strs(tools["approvalRequired"])) != 2 || obj(obj(got.body, "policy"), "prompt")["mode"] != "concise" {
		t.Fatalf("policy after merge: %s", got.raw)
	}
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"allowed":null,"approvalRequired":[]}}`)
	s.names(t, 1)

	// Host: top-level flags and nested capabilities are both honoured.
	if r := p.must(200, "GET", "/api/canvas/ax/host-capability", nil); r.body["host"] != nil {
		t.Fatalf("host before report: %s", r.raw)
	}
	h := p.must(200, "PUT", "/api/canvas/ax/host-capability", `{"host":"codex","canvas":true,"hooks":"yes","capabilities":{"files":true,"uiPrompts":true},"raw":{"v":1}}`)
	host := obj(h.body, "host")
	if host["host"] != "codex" || host["canvas"] != true || host["hooks"] != false || host["files"] != true || host["uiPrompts"] != true || obj(host, "raw")["v"] != 1.0 {
		t.Fatalf("host: %s", h.raw)
	}
	if fr := s.next(t); fr.event != "ax-state-changed" || obj(fr.data, "host")["host"] != "codex" {
		t.Fatalf("host frame %v", fr)
	}
	if r := p.must(200, "GET", "/api/canvas/ax/host-capability", nil); obj(r.body, "host")["host"] != "codex" {
		t.Fatalf("host read: %s", r.raw)
	}

	// Context: pinned and focused nodes, delivery block, timeline, host.
	p.must(200, "POST", "/api/canvas/ax/focus", fmt.Sprintf(`{"nodeIds":[%q]}`, a))
	s.names(t, 1)
	ctx := p.must(200, "GET", "/api/canvas/ax/context?consumer=copilot", nil)
	if ctx.body["version"] != 1.0 || obj(ctx.body, "surface")["nodeCount"] != 3.0 || obj(ctx.body, "host")["host"] != "codex" {
		t.Fatalf("context: %s", ctx.raw)
	}
	fn := list(obj(ctx.body, "focus"), "nodes")
	if len(fn) != 1 || fn[0]["id"] != a || fn[0]["title"] != "Auth module" || obj(ctx.body, "pinned")["count"] != 0.0 {
		t.Fatalf("context focus/pinned: %s", ctx.raw)
	}
	if d := obj(ctx.body, "delivery"); d["pendingSteering"] == nil || d["pendingActivity"] == nil || obj(obj(ctx.body, "timeline"), "counts")["events"] != 0.0 {
		t.Fatalf("context delivery/timeline: %s", ctx.raw)
	}
	full := p.must(200, "GET", "/api/canvas/ax", nil)
	if obj(full.body, "context")["version"] != 1.0 {
		t.Fatalf("ax.get with context: %s", full.raw)
	}

	// Surface snapshot: focus as ids, reviews without body and author.
	p.must(200, "POST", "/api/canvas/ax/review", fmt.Sprintf(`{"body":"secret","author":"me","nodeId":%q}`, a))
	s.names(t, 1)
	snap := p.must(200, "GET", "/api/canvas/ax/surface-snapshot", nil)
	revs := list(snap.body, "reviewAnnotations")
	if strs(snap.body["focus"])[0] != a || len(revs) != 1 || revs[0]["body"] != nil || revs[0]["author"] != nil || revs[0]["nodeId"] != a {
		t.Fatalf("surface snapshot: %s", snap.raw)
	}
	if strings.Contains(string(snap.raw), "secret") {
		t.Fatalf("surface snapshot leaks the review body: %s", snap.raw)
	}
}

func TestAXWorkAndReviewRoutes(t *testing.T) {
	p := startServer(t, "")
	s := p.freshStream(t)
	n := p.addNode(`{"type":"markdown","title":"N"}`)
	s.names(t, 1)

	w := p.must(200, "POST", "/api/canvas/ax/work", fmt.Sprintf(`{"title":"Wire auth","status":"in-progress","detail":"JWT","nodeIds":[%q,"ghost"],"source":"copilot"}`, n))
	item := obj(w.body, "workItem")
	id := item["id"].(string)
	if !strings.HasPrefix(id, "work-") || item["status"] != "in-progress" || strs(item["nodeIds"])[0] != n || len(strs(item["nodeIds"])) != 1 ||
		item["source"] != "copilot" || item["createdAt"] != item["updatedAt"] {
		t.Fatalf("work create: %s", w.raw)
	}
	if fr := s.next(t); fr.event != "ax-state-changed" || obj(fr.data, "workItem")["id"] != id {
		t.Fatalf("work frame %v", fr)
	}
	if r := p.must(200, "POST", "/api/canvas/ax/work?title=fromquery", `{}`); obj(r.body, "workItem")["title"] != "fromquery" || obj(r.body, "workItem")["status"] != "todo" {
		t.Fatalf("title from query: %s", r.raw)
	}
	s.names(t, 1)
	p.wantError(400, "POST", "/api/canvas/ax/work", `{"title":"  "}`, "work item requires a title.")
	p.wantError(400, "POST", "/api/canvas/ax/work", `{"title":"x","status":"nope"}`,
		`invalid work item status "nope"; expected one of: todo, in-progress, blocked, done, cancelled.`)
	p.wantError(400, "POST", "/api/canvas/ax/work", `{"title":5}`, `invalid input for ax.work.create: field "title" must be a string, got number`)

	up := p.must(200, "PATCH", "/api/canvas/ax/work/"+id, `{"status":"done","detail":null,"source":"mcp"}`)
	item = obj(up.body, "workItem")
	if item["status"] != "done" || item["detail"] != nil || item["source"] != "copilot" || item["updatedBy"] != "mcp" {
		t.Fatalf("work update keeps source, records updatedBy: %s", up.raw)
	}
	s.names(t, 1)
	p.wantError(400, "PATCH", "/api/canvas/ax/work/work-nope", `{"status":"bad"}`,
		`invalid work item status "bad"; expected one of: todo, in-progress, blocked, done, cancelled.`)
	p.wantError(404, "PATCH", "/api/canvas/ax/work/work-nope", `{"status":"done"}`, "work item not found.")
	if l := p.must(200, "GET", "/api/canvas/ax/work", nil); len(list(l.body, "workItems")) != 2 {
		t.Fatalf("work list: %s", l.raw)
	}

	// Reviews: anchoring rules, update, errors.
	r := p.must(200, "POST", "/api/canvas/ax/review", fmt.Sprintf(`{"body":"looks off","nodeId":%q,"severity":"warning","kind":"bogus"}`, n))
	rev := obj(r.body, "reviewAnnotation")
	if rev["anchorType"] != "node" || rev["nodeId"] != n || rev["severity"] != "warning" || rev["kind"] != "comment" || rev["status"] != "open" {
		t.Fatalf("review: %s", r.raw)
	}
	s.names(t, 1)
	fileRev := obj(p.must(200, "POST", "/api/canvas/ax/review", `{"body":"note","anchorType":"bogus","file":"a.ts"}`).body, "reviewAnnotation")
	if fileRev["anchorType"] != "file" || fileRev["file"] != "a.ts" || fileRev["nodeId"] != nil {
		t.Fatalf("file review: %v", fileRev)
	}
	s.names(t, 1)
	region := obj(p.must(200, "POST", "/api/canvas/ax/review", `{"body":"r","anchorType":"region","region":{"line":3,"endLine":"12","label":"x","extra":1}}`).body, "reviewAnnotation")
	if reg := obj(region, "region"); reg["line"] != 3.0 || reg["endLine"] != nil || reg["label"] != "x" || reg["extra"] != nil {
		t.Fatalf("region review: %v", region)
	}
	s.names(t, 1)
	p.wantError(400, "POST", "/api/canvas/ax/review", `{"body":" "}`, "review annotation requires a body.")
	p.wantError(400, "POST", "/api/canvas/ax/review", `{"body":"x","anchorType":"node","nodeId":"ghost"}`,
		"node-anchored review annotation requires a nodeId that exists on the canvas.")
	ru := p.must(200, "PATCH", "/api/canvas/ax/review/"+rev["id"].(string), `{"status":"resolved","severity":"nope","source":"browser"}`)
	if u := obj(ru.body, "reviewAnnotation"); u["status"] != "resolved" || u["severity"] != "warning" || u["source"] != "api" || u["updatedBy"] != "browser" {
		t.Fatalf("review update: %s", ru.raw)
	}
	s.names(t, 1)
	p.wantError(404, "PATCH", "/api/canvas/ax/review/rev-nope", `{"status":"resolved"}`, "review annotation not found.")
	if l := p.must(200, "GET", "/api/canvas/ax/review", nil); len(list(l.body, "reviewAnnotations")) != 3 {
		t.Fatalf("review list: %s", l.raw)
	}
	s.quiet(t, 100*time.Millisecond)
}

func TestAXGateRoutes(t *testing.T) {
	p := startServer(t, "")
	n := p.addNode(`{"type":"markdown","title":"N"}`)

	g := p.must(200, "POST", "/api/canvas/ax/approval", fmt.Sprintf(`{"title":"Deploy","detail":"prod","action":"deploy.prod","nodeIds":[%q],"source":"copilot"}`, n))
	gate := obj(g.body, "approvalGate")
	id := gate["id"].(string)
	if !strings.HasPrefix(id, "appr-") || gate["status"] != "pending" || gate["resolvedAt"] != nil || gate["action"] != "deploy.prod" || gate["source"] != "copilot" {
		t.Fatalf("approval: %s", g.raw)
	}
	p.wantError(400, "POST", "/api/canvas/ax/approval", `{}`, "approval request requires a title.")

	// Immediate read, timed-out wait (waitMs and timeoutMs), unknown id.
	if r := p.must(200, "GET", "/api/canvas/ax/approval/"+id, nil); r.body["pending"] != true || obj(r.body, "approvalGate")["id"] != id {
		t.Fatalf("read: %s", r.raw)
	}
	start := time.Now()
	if r := p.must(200, "GET", "/api/canvas/ax/approval/"+id+"?waitMs=300", nil); r.body["pending"] != true || r.body["ok"] != true {
		t.Fatalf("timed out wait: %s", r.raw)
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Fatalf("waitMs=300 answered after %v", el)
	}
	start = time.Now()
	p.must(200, "GET", "/api/canvas/ax/approval/"+id+"?timeoutMs=200", nil)
	if el := time.Since(start); el < 200*time.Millisecond {
		t.Fatalf("timeoutMs=200 answered after %v", el)
	}
	if r := p.must(404, "GET", "/api/canvas/ax/approval/appr-nope?waitMs=1000", nil); string(r.raw) != `{"ok":false,"approvalGate":null,"pending":false}` {
		t.Fatalf("unknown gate: %s", r.raw)
	}

	// A resolve during a wait answers it at once.
	done := make(chan *response, 1)
	go func() { done <- p.do("GET", "/api/canvas/ax/approval/"+id+"?waitMs=10000", nil) }()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	p.wantError(400, "POST", "/api/canvas/ax/approval/"+id+"/resolve", `{"decision":"maybe"}`, "resolve requires decision approved or rejected.")
	res := p.must(200, "POST", "/api/canvas/ax/approval/"+id+"/resolve", `{"decision":"approved","resolution":"ship it","source":"browser"}`)
	resolved := obj(res.body, "approvalGate")
	if resolved["status"] != "approved" || resolved["resolution"] != "ship it" || resolved["source"] != "copilot" || resolved["resolvedBy"] != "browser" || resolved["resolvedAt"] == nil {
		t.Fatalf("resolve keeps source, records resolvedBy: %s", res.raw)
	}
	select {
	case r := <-done:
		if r.status != 200 || r.body["pending"] != false || obj(r.body, "approvalGate")["status"] != "approved" {
			t.Fatalf("woken waiter: %d %s", r.status, r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the resolve did not wake the waiter")
	}
	p.wantError(404, "POST", "/api/canvas/ax/approval/"+id+"/resolve", `{"decision":"rejected"}`, "approval gate not found or already resolved.")
	if r := p.must(200, "GET", "/api/canvas/ax/approval/"+id+"?waitMs=5000", nil); r.body["pending"] != false {
		t.Fatalf("read of a decided gate: %s", r.raw)
	}
	if l := p.must(200, "GET", "/api/canvas/ax/approval", nil); len(list(l.body, "approvalGates")) != 1 {
		t.Fatalf("approval list: %s", l.raw)
	}

	// Elicitation.
	e := p.must(200, "POST", "/api/canvas/ax/elicitation", `{"prompt":"Which DB?","fields":["owner",3]}`)
	el := obj(e.body, "elicitation")
	eid := el["id"].(string)
	if el["status"] != "pending" || len(strs(el["fields"])) != 1 || el["response"] != nil {
		t.Fatalf("elicitation: %s", e.raw)
	}
	p.wantError(400, "POST", "/api/canvas/ax/elicitation", `{"prompt":""}`, "elicitation requires a prompt.")
	if r := p.must(200, "GET", "/api/canvas/ax/elicitation/"+eid+"?waitMs=50", nil); r.body["pending"] != true {
		t.Fatalf("elicitation wait: %s", r.raw)
	}
	ans := p.must(200, "POST", "/api/canvas/ax/elicitation/"+eid+"/respond", `{"response":"not an object"}`)
	if a := obj(ans.body, "elicitation"); a["status"] != "answered" || len(obj(a, "response")) != 0 || a["response"] == nil {
		t.Fatalf("respond: %s", ans.raw)
	}
	p.wantError(404, "POST", "/api/canvas/ax/elicitation/"+eid+"/respond", `{"response":{}}`, "elicitation not found or already answered.")
	if r := p.must(200, "GET", "/api/canvas/ax/elicitation/"+eid, nil); r.body["pending"] != false {
		t.Fatalf("elicitation read: %s", r.raw)
	}
	p.must(404, "GET", "/api/canvas/ax/elicitation/elic-nope", nil)
	if l := p.must(200, "GET", "/api/canvas/ax/elicitation", nil); len(list(l.body, "elicitations")) != 1 {
		t.Fatalf("elicitation list: %s", l.raw)
	}

	// Mode.
	m := p.must(200, "POST", "/api/canvas/ax/mode", `{"mode":"plan","reason":"risky"}`)
	mid := obj(m.body, "modeRequest")["id"].(string)
	p.wantError(400, "POST", "/api/canvas/ax/mode", `{"mode":"yolo"}`, "mode request requires mode plan|execute|autonomous.")
	mr := p.must(200, "POST", "/api/canvas/ax/mode/"+mid+"/resolve", `{"decision":"rejected"}`)
	if mm := obj(mr.body, "modeRequest"); mm["status"] != "rejected" || mm["resolution"] != nil {
		t.Fatalf("mode resolve: %s", mr.raw)
	}
	p.wantError(404, "POST", "/api/canvas/ax/mode/"+mid+"/resolve", `{"decision":"approved"}`, "mode request not found or already resolved.")
	p.wantError(400, "POST", "/api/canvas/ax/mode/"+mid+"/resolve", `{}`, "resolve requires decision approved or rejected.")
	if r := p.must(200, "GET", "/api/canvas/ax/mode/"+mid+"?waitMs=1000", nil); obj(r.body, "modeRequest")["status"] != "rejected" {
		t.Fatalf("mode read: %s", r.raw)
	}
	p.must(404, "GET", "/api/canvas/ax/mode/mode-nope", nil)
	if l := p.must(200, "GET", "/api/canvas/ax/mode", nil); len(list(l.body, "modeRequests")) != 1 {
		t.Fatalf("mode list: %s", l.raw)
	}
	p.must(400, "GET", "/api/canvas/ax/mode/"+mid+"?waitMs=abc", nil)
}

func TestAXTimelineRoutes(t *testing.T) {
	p := startServer(t, "")
	s := p.freshStream(t)

	ev := p.must(200, "POST", "/api/canvas/ax/event", `{"kind":"tool-start","summary":"npm test","detail":"","nodeIds":["ghost","ghost"],"data":{"k":1},"source":"codex"}`)
	e := obj(ev.body, "event")
	if e["seq"] != 1.0 || e["detail"] != nil || strs(e["nodeIds"])[0] != "ghost" || len(strs(e["nodeIds"])) != 1 || e["source"] != "codex" {
		t.Fatalf("event: %s", ev.raw)
	}
	if fr := s.next(t); fr.event != "ax-event-created" || obj(fr.data, "event")["id"] != e["id"] {
		t.Fatalf("event frame %v", fr)
	}
	p.wantError(400, "POST", "/api/canvas/ax/event", `{"kind":"bogus","summary":"x"}`, "event requires kind and summary.")
	p.wantError(400, "POST", "/api/canvas/ax/event", `{"kind":"note"}`, "event requires kind and summary.")

	evd := p.must(200, "POST", "/api/canvas/ax/evidence", `{"kind":"test-output","title":"3 failed","body":"","ref":"out.log"}`)
	if d := obj(evd.body, "evidence"); d["seq"] != 1.0 || d["body"] != "" || d["ref"] != "out.log" {
		t.Fatalf("evidence: %s", evd.raw)
	}
	s.names(t, 1)
	p.wantError(400, "POST", "/api/canvas/ax/evidence", `{"kind":"logs","title":" "}`, "evidence requires kind and title.")

	var steers []string
	for i, src := range []string{"copilot", "browser", ""} {
		body := fmt.Sprintf(`{"message":"m%d","source":%q}`, i+1, src)
		st := obj(p.must(200, "POST", "/api/canvas/ax/steer", body).body, "steering")
		if st["seq"] != float64(i+1) || st["delivered"] != false {
			t.Fatalf("steer %d: %v", i, st)
		}
		steers = append(steers, st["id"].(string))
		if fr := s.next(t); fr.event != "ax-event-created" || obj(fr.data, "steering")["id"] != st["id"] {
			t.Fatalf("steer frame %v", fr)
		}
	}
	p.wantError(400, "POST", "/api/canvas/ax/steer", `{"message":"   "}`, "steer requires a non-empty message.")

	// Pending: the consumer's own messages are excluded; limit is steering only.
	pend := p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=copilot", nil)
	if ids := ids(list(pend.body, "pending")); strings.Join(ids, ",") != steers[1]+","+steers[2] {
		t.Fatalf("pending for copilot: %v", ids)
	}
	if all := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?limit=2", nil).body, "pending"); len(all) != 2 || all[0]["id"] != steers[0] {
		t.Fatalf("unscoped pending with limit: %v", all)
	}

	// Mark: delivered once, one frame; unknown id 404; re-mark no frame.
	if r := p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[1]+"/mark", `{"consumer":"copilot"}`); r.body["delivered"] != true {
		t.Fatalf("mark: %s", r.raw)
	}
	if fr := s.next(t); fr.event != "ax-event-created" || fr.data["steeringDelivered"] != steers[1] {
		t.Fatalf("mark frame %v", fr)
	}
	if r := p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[1]+"/mark", nil); r.body["delivered"] != true {
		t.Fatalf("re-mark: %s", r.raw)
	}
	p.wantError(404, "POST", "/api/canvas/ax/delivery/steer-nope/mark", nil, `steering message "steer-nope" not found.`)
	s.quiet(t, 150*time.Millisecond)

	// Timeline read: newest first, delivered rows included, summary.
	tl := p.must(200, "GET", "/api/canvas/ax/timeline?limit=2", nil)
	st := list(tl.body, "steering")
	if len(st) != 2 || st[0]["id"] != steers[2] || st[1]["id"] != steers[1] || st[1]["delivered"] != true || st[1]["deliveredTo"] != "copilot" {
		t.Fatalf("timeline steering: %s", tl.raw)
	}
	sum := obj(tl.body, "summary")
	if c := obj(sum, "counts"); c["events"] != 1.0 || c["evidence"] != 1.0 || c["steering"] != 3.0 || len(list(sum, "pendingSteering")) != 2 {
		t.Fatalf("summary: %v", sum)
	}
	if len(list(p.must(200, "GET", "/api/canvas/ax/timeline?limit=abc", nil).body, "steering")) != 3 {
		t.Fatal("limit=abc must read the default 50")
	}

	// Commands.
	cl := p.must(200, "GET", "/api/canvas/ax/command", nil)
	if cmds := list(cl.body, "commands"); len(cmds) != 5 || cmds[0]["name"] != "pmx.plan" || cmds[4]["name"] != "pmx.review" {
		t.Fatalf("commands: %s", cl.raw)
	}
	ci := p.must(200, "POST", "/api/canvas/ax/command", `{"name":"pmx.review","args":{"depth":2},"source":"codex"}`)
	ce := obj(ci.body, "event")
	if ce["kind"] != "command" || ce["summary"] != "pmx.review" || ce["detail"] != "Start a review pass over the focused nodes." ||
		obj(obj(ce, "data"), "args")["depth"] != 2.0 || ce["seq"] != 2.0 {
		t.Fatalf("command: %s", ci.raw)
	}
	s.names(t, 1)
	p.wantError(400, "POST", "/api/canvas/ax/command", `{"name":"rm -rf"}`, `Unknown command "rm -rf".`)
	p.wantError(400, "POST", "/api/canvas/ax/command", `{"name":5}`, "command requires a name.")
}

func ids(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		out = append(out, it["id"].(string))
	}
	return out
}

// waitFor polls cond until it holds (up to 10 s).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mustJSON renders v for a request body.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
