package main

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Black-box tests of the AX flows: delivery leases, policy enforcement,
// interactions, activity ingest, node deletion, snapshots, many waiters.

func TestAXDeliveryLeases(t *testing.T) {
	p := startServer(t, "")
	var steers []string
	for i := range 4 {
		st := p.must(200, "POST", "/api/canvas/ax/steer", fmt.Sprintf(`{"message":"m%d","source":"browser"}`, i))
		steers = append(steers, obj(st.body, "steering")["id"].(string))
	}
	p.must(400, "GET", "/api/canvas/ax/delivery/pending?leaseMs=1000", nil)

	// A leases two rows; B sees only the other two, and leases them.
	a := p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent-a&limit=2&leaseMs=600", nil)
	if got := ids(list(a.body, "pending")); strings.Join(got, ",") != steers[0]+","+steers[1] || a.body["leaseExpiresAt"] == nil {
		t.Fatalf("A's claim: %s", a.raw)
	}
	b := p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent-b&leaseMs=60000", nil)
	if got := ids(list(b.body, "pending")); strings.Join(got, ",") != steers[2]+","+steers[3] {
		t.Fatalf("B's claim overlaps A's lease: %s", b.raw)
	}
	// A third consumer sees nothing while both leases hold; the context's
	// delivery block agrees.
	if c := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent-c", nil).body, "pending"); len(c) != 0 {
		t.Fatalf("C sees leased rows: %v", c)
	}
	if d := list(obj(p.must(200, "GET", "/api/canvas/ax/context?consumer=agent-c", nil).body, "delivery"), "pendingSteering"); len(d) != 0 {
		t.Fatalf("context shows leased rows: %v", d)
	}
	if st := p.must(200, "GET", "/api/canvas/ax/stats", nil); st.body["leases"] != 4.0 {
		t.Fatalf("stats: %s", st.raw)
	}

	// Mark is a compare-and-set on the lease.
	r := p.must(409, "POST", "/api/canvas/ax/delivery/"+steers[2]+"/mark", `{"consumer":"agent-a"}`)
	if r.str("code") != "lease-held" || r.str("leaseExpiresAt") == "" {
		t.Fatalf("mark under another's lease: %s", r.raw)
	}
	p.must(409, "POST", "/api/canvas/ax/delivery/"+steers[2]+"/mark", nil)
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[2]+"/mark", `{"consumer":"agent-b"}`)

	// A's lease expires: its rows are visible to C again, and a parked
	// claim of C's is woken by the expiry.
	start := time.Now()
	c := p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent-c&waitMs=5000", nil)
	if got := ids(list(c.body, "pending")); strings.Join(got, ",") != steers[0]+","+steers[1] {
		t.Fatalf("after A's lease: %s", c.raw)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("claim woke %v after the lease ended", el)
	}

	// Deliver everything; then a waiting claim with a lease is answered by
	// the first new message for it (not by its own) and leases it.
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[0]+"/mark", nil)
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[1]+"/mark", nil)
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[3]+"/mark", `{"consumer":"agent-b"}`)
	done := make(chan *response, 1)
	go func() {
		done <- p.do("GET", "/api/canvas/ax/delivery/pending?consumer=agent&waitMs=10000&leaseMs=60000", nil)
	}()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["deliveryWaiters"] == 1.0 })
	p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"mine","source":"agent"}`)
	fresh := obj(p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"for the agent","source":"browser"}`).body, "steering")["id"]
	select {
	case r := <-done:
		if got := ids(list(r.body, "pending")); len(got) != 1 || got[0] != fresh || r.body["leaseMs"] != 60000.0 {
			t.Fatalf("woken claim: %s", r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the claim was not answered")
	}
	if st := p.must(200, "GET", "/api/canvas/ax/stats", nil); st.body["deliveryWaiters"] != 0.0 {
		t.Fatalf("waiter left behind: %s", st.raw)
	}
	// The fresh row is leased to "agent": others do not see it.
	for _, r := range list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=copilot", nil).body, "pending") {
		if r["id"] == fresh {
			t.Fatal("a leased row was handed to another consumer")
		}
	}
}

func TestAXDeliveryWaitIsWokenBySteer(t *testing.T) {
	p := startServer(t, "")
	done := make(chan *response, 1)
	go func() { done <- p.do("GET", "/api/canvas/ax/delivery/pending?consumer=copilot&waitMs=10000", nil) }()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["deliveryWaiters"] == 1.0 })
	p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"own","source":"copilot"}`)
	select {
	case r := <-done:
		t.Fatalf("woken by its own message: %s", r.raw)
	case <-time.After(200 * time.Millisecond):
	}
	st := p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"for you","source":"browser"}`)
	select {
	case r := <-done:
		if got := ids(list(r.body, "pending")); len(got) != 1 || got[0] != obj(st.body, "steering")["id"] {
			t.Fatalf("woken claim: %s", r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("steer did not wake the claim")
	}
	// A wait that ends with nothing pending answers an empty list.
	for _, row := range list(p.must(200, "GET", "/api/canvas/ax/delivery/pending", nil).body, "pending") {
		p.must(200, "POST", "/api/canvas/ax/delivery/"+row["id"].(string)+"/mark", nil)
	}
	start := time.Now()
	r := p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=browser&waitMs=200", nil)
	if len(list(r.body, "pending")) != 0 || time.Since(start) < 200*time.Millisecond {
		t.Fatalf("empty wait: %s after %v", r.raw, time.Since(start))
	}
}

func TestAXTimelineSurvivesCrash(t *testing.T) {
	ws := t.TempDir()
	p := startServer(t, ws)
	var steers []string
	for i := range 5 {
		st := p.must(200, "POST", "/api/canvas/ax/steer", fmt.Sprintf(`{"message":"m%d"}`, i))
		steers = append(steers, obj(st.body, "steering")["id"].(string))
	}
	p.must(200, "POST", "/api/canvas/ax/event", `{"kind":"note","summary":"before crash"}`)
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[1]+"/mark", nil)
	p.must(200, "POST", "/api/canvas/ax/delivery/"+steers[3]+"/mark", nil)
	p.must(200, "POST", "/api/canvas/ax/work", `{"title":"kept"}`)
	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"kept gate"}`).body, "approvalGate")["id"].(string)
	p.must(200, "POST", "/api/canvas/ax/approval/"+gate+"/resolve", `{"decision":"approved"}`)
	p.kill()

	q := startServer(t, ws)
	tl := q.must(200, "GET", "/api/canvas/ax/timeline", nil)
	st := list(tl.body, "steering")
	if len(st) != 5 {
		t.Fatalf("steering after crash: %s", tl.raw)
	}
	for i, row := range st { // newest first
		want := steers[4-i]
		if row["id"] != want || row["seq"] != float64(5-i) || row["delivered"] != (want == steers[1] || want == steers[3]) {
			t.Fatalf("row %d after crash: %v", i, row)
		}
	}
	if ev := list(tl.body, "events"); len(ev) != 1 || ev[0]["summary"] != "before crash" {
		t.Fatalf("events after crash: %v", ev)
	}
	next := obj(q.must(200, "POST", "/api/canvas/ax/steer", `{"message":"after"}`).body, "steering")
	if next["seq"] != 6.0 {
		t.Fatalf("seq after restart: %v", next)
	}
	if w := list(q.must(200, "GET", "/api/canvas/ax/work", nil).body, "workItems"); len(w) != 1 || w[0]["title"] != "kept" {
		t.Fatalf("work after crash: %v", w)
	}
	if g := obj(q.must(200, "GET", "/api/canvas/ax/approval/"+gate, nil).body, "approvalGate"); g["status"] != "approved" {
		t.Fatalf("gate after crash: %v", g)
	}
}

func TestAXTimelineRetention(t *testing.T) {
	p := startServer(t, "")
	for i := range 503 {
		p.must(200, "POST", "/api/canvas/ax/event", fmt.Sprintf(`{"kind":"note","summary":"e%d"}`, i))
	}
	tl := p.must(200, "GET", "/api/canvas/ax/timeline?limit=200", nil)
	ev := list(tl.body, "events")
	if obj(obj(tl.body, "summary"), "counts")["events"] != 500.0 || ev[0]["seq"] != 503.0 || ev[0]["summary"] != "e502" || len(ev) != 200 {
		t.Fatalf("retention: counts %v, newest %v", obj(obj(tl.body, "summary"), "counts"), ev[0])
	}
}

func TestAXPolicyEnforcement(t *testing.T) {
	p := startServer(t, "")
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"approvalRequired":["pmx.execute","ax.steer"],"excluded":["pmx.plan"]}}`)

	// Excluded: refused, nothing recorded.
	r := p.must(403, "POST", "/api/canvas/ax/command", `{"name":"pmx.plan"}`)
	if r.str("code") != "tool-excluded" {
		t.Fatalf("excluded: %s", r.raw)
	}
	// Approval required: refused with a gate; the gate is reused while pending.
	r = p.must(403, "POST", "/api/canvas/ax/command", `{"name":"pmx.execute","source":"copilot"}`)
	gate := obj(r.body, "approvalGate")
	if r.str("code") != "approval-required" || gate["action"] != "policy:pmx.execute" || gate["status"] != "pending" || gate["source"] != "copilot" {
		t.Fatalf("approval required: %s", r.raw)
	}
	if again := obj(p.must(403, "POST", "/api/canvas/ax/command", `{"name":"pmx.execute"}`).body, "approvalGate"); again["id"] != gate["id"] {
		t.Fatalf("a second refusal opened another gate: %v", again)
	}
	// Approved: the same call succeeds once.
	p.must(200, "POST", "/api/canvas/ax/approval/"+gate["id"].(string)+"/resolve", `{"decision":"approved","source":"browser"}`)
	ok := p.must(200, "POST", "/api/canvas/ax/command", `{"name":"pmx.execute"}`)
	if obj(ok.body, "event")["summary"] != "pmx.execute" {
		t.Fatalf("approved call: %s", ok.raw)
	}
	consumed := obj(p.must(200, "GET", "/api/canvas/ax/approval/"+gate["id"].(string), nil).body, "approvalGate")
	if consumed["consumedAt"] == nil || consumed["status"] != "approved" {
		t.Fatalf("approval not consumed: %v", consumed)
	}
	r = p.must(403, "POST", "/api/canvas/ax/command", `{"name":"pmx.execute"}`)
	if next := obj(r.body, "approvalGate"); next["id"] == gate["id"] || next["status"] != "pending" {
		t.Fatalf("the approval allowed a second call: %s", r.raw)
	}
	// Commands not named in the policy run.
	p.must(200, "POST", "/api/canvas/ax/command", `{"name":"pmx.review"}`)

	// An allow-list refuses names outside it.
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"allowed":["pmx.review"]}}`)
	if r := p.must(403, "POST", "/api/canvas/ax/command", `{"name":"pmx.summarize"}`); r.str("code") != "tool-not-allowed" {
		t.Fatalf("allow-list: %s", r.raw)
	}
	p.must(200, "POST", "/api/canvas/ax/command", `{"name":"pmx.review"}`)
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"allowed":[]}}`)

	// Interactions: the type is checked (ax.steer needs approval).
	env := `{"type":"ax.steer","sourceNodeId":"context-main","sourceSurface":"native-node","payload":{"message":"go"}}`
	r = p.must(403, "POST", "/api/canvas/ax/interaction", env)
	ig := obj(r.body, "approvalGate")
	if r.body["code"] != "approval-required" || r.body["status"] != 403.0 || ig["action"] != "policy:ax.steer" {
		t.Fatalf("interaction policy: %s", r.raw)
	}
	p.must(200, "POST", "/api/canvas/ax/approval/"+ig["id"].(string)+"/resolve", `{"decision":"approved"}`)
	if r := p.must(200, "POST", "/api/canvas/ax/interaction", env); r.body["ok"] != true {
		t.Fatalf("approved interaction: %s", r.raw)
	}
	p.must(403, "POST", "/api/canvas/ax/interaction", env)
	// A rejected approval keeps refusing; the next call opens a new gate.
	r = p.must(403, "POST", "/api/canvas/ax/interaction", env)
	pending := obj(r.body, "approvalGate")["id"].(string)
	p.must(200, "POST", "/api/canvas/ax/approval/"+pending+"/resolve", `{"decision":"rejected"}`)
	if r := p.must(403, "POST", "/api/canvas/ax/interaction", env); obj(r.body, "approvalGate")["id"] == pending {
		t.Fatalf("a rejected gate was reused: %s", r.raw)
	}
}

func TestAXInteraction(t *testing.T) {
	p := startServer(t, "")
	f := p.addNode(`{"type":"file","path":"a.ts"}`)
	h0 := p.addNode(`{"type":"html","title":"plain","content":"<p>x</p>"}`)
	h1 := p.addNode(`{"type":"html","title":"opted in","content":"<p>x</p>"}`)
	p.must(200, "PATCH", "/api/canvas/node/"+h1, `{"data":{"axCapabilities":{"enabled":true,"requiresApproval":["ax.steer"]}}}`)
	s := p.freshStream(t)

	// Accepted: ax-interaction first, then the primitive's frame.
	r := p.must(200, "POST", "/api/canvas/ax/interaction", fmt.Sprintf(
		`{"type":"ax.work.create","sourceNodeId":"status-main","sourceSurface":"native-node","payload":{"title":"Fix build","nodeIds":[%q]},"source":"browser"}`, f))
	prim := obj(r.body, "primitive")
	if r.body["ok"] != true || r.body["type"] != "ax.work.create" || prim["title"] != "Fix build" || strs(prim["nodeIds"])[0] != f || prim["source"] != "browser" {
		t.Fatalf("accepted: %s", r.raw)
	}
	if fr := s.next(t); fr.event != "ax-interaction" || fr.data["ok"] != true || fr.data["sourceNodeId"] != "status-main" {
		t.Fatalf("first frame %v", fr)
	}
	if fr := s.next(t); fr.event != "ax-state-changed" || obj(fr.data, "workItem")["title"] != "Fix build" {
		t.Fatalf("second frame %v", fr)
	}
	// Default anchoring to the source node, source api.
	r = p.must(200, "POST", "/api/canvas/ax/interaction", `{"type":"ax.work.create","sourceNodeId":"status-main","payload":{"title":"Default anchored"}}`)
	if prim := obj(r.body, "primitive"); strs(prim["nodeIds"])[0] != "status-main" || prim["source"] != "api" {
		t.Fatalf("default anchor: %s", r.raw)
	}
	s.names(t, 2)

	rejects := []struct {
		body, code string
		status     int
		error      string
	}{
		{fmt.Sprintf(`{"type":"ax.steer","sourceNodeId":%q,"payload":{"message":"x"}}`, f), "not-allowed", 403, `Node type "file" cannot emit "ax.steer".`},
		{fmt.Sprintf(`{"type":"ax.work.create","sourceNodeId":%q,"payload":{"title":"x"}}`, h0), "ax-disabled", 403, fmt.Sprintf(`AX interactions are not enabled for node "%s".`, h0)},
		{fmt.Sprintf(`{"type":"ax.steer","sourceNodeId":%q,"payload":{"message":"x"}}`, h1), "requires-approval", 403, `"ax.steer" requires approval routing, which is not yet available.`},
		{fmt.Sprintf(`{"type":"ax.approval.resolve","sourceNodeId":%q,"payload":{"id":"a","decision":"approved"}}`, h1), "not-allowed", 403, `Node type "html" cannot emit "ax.approval.resolve".`},
		{`{"type":"ax.work.create","sourceNodeId":"ghost","payload":{"title":"x"}}`, "unknown-node", 404, `Source node "ghost" not found.`},
		{`{"type":"ax.event.record","sourceNodeId":"status-main","payload":{"kind":"note","summary":"x"}}`, "invalid-payload", 400, ""},
		{`{"type":"ax.work.update","sourceNodeId":"status-main","payload":{"id":"work-nope","status":"done"}}`, "work-item-not-found", 404, `Work item "work-nope" not found.`},
		{`{"type":"ax.command.invoke","sourceNodeId":"context-main","payload":{"name":"nope"}}`, "unknown-command", 400, `Unknown command "nope".`},
		{`{"type":"ax.nope","payload":[]}`, "invalid-envelope", 400, ""},
		// A sandboxed surface must present its node's surface token.
		{fmt.Sprintf(`{"type":"ax.work.create","sourceNodeId":%q,"sourceSurface":"html-node","payload":{"title":"x"}}`, h1), "invalid-surface-token", 403, ""},
		{fmt.Sprintf(`{"type":"ax.work.create","sourceNodeId":%q,"sourceSurface":"html-node","surfaceToken":"forged","payload":{"title":"x"}}`, h1), "invalid-surface-token", 403, ""},
	}
	for _, c := range rejects {
		r := p.must(c.status, "POST", "/api/canvas/ax/interaction", c.body)
		if r.body["ok"] != false || r.body["code"] != c.code || r.body["status"] != float64(c.status) || (c.error != "" && r.str("error") != c.error) {
			t.Fatalf("%s: %s", c.body, r.raw)
		}
		fr := s.next(t)
		if fr.event != "ax-interaction" || fr.data["ok"] != false || fr.data["code"] != c.code || fr.data["status"] != nil {
			t.Fatalf("rejection frame for %s: %v", c.code, fr)
		}
	}

	// With the token, a sandboxed surface is accepted and clamped to its node.
	tok := p.must(200, "GET", "/api/canvas/ax/surface-token?nodeId="+h1, nil)
	token := tok.str("token")
	if token == "" || tok.str("nodeId") != h1 {
		t.Fatalf("token: %s", tok.raw)
	}
	p.must(404, "GET", "/api/canvas/ax/surface-token?nodeId=ghost", nil)
	p.must(400, "GET", "/api/canvas/ax/surface-token", nil)
	if other := p.must(200, "GET", "/api/canvas/ax/surface-token?nodeId="+h0, nil).str("token"); other == token {
		t.Fatal("two nodes share a surface token")
	}
	r = p.must(200, "POST", "/api/canvas/ax/interaction", fmt.Sprintf(
		`{"type":"ax.work.create","sourceNodeId":%q,"sourceSurface":"html-node","surfaceToken":%q,"payload":{"title":"from board","nodeIds":["status-main"]}}`, h1, token))
	if got := strs(obj(r.body, "primitive")["nodeIds"]); len(got) != 1 || got[0] != h1 {
		t.Fatalf("clamped: %s", r.raw)
	}
	r = p.must(200, "POST", "/api/canvas/ax/interaction", fmt.Sprintf(
		`{"type":"ax.review.add","sourceNodeId":%q,"sourceSurface":"html-node","surfaceToken":%q,"payload":{"body":"looks off","anchorType":"file","file":"a.ts","nodeId":"status-main"}}`, h1, url.QueryEscape(token)))
	if rev := obj(r.body, "primitive"); rev["anchorType"] != "node" || rev["nodeId"] != h1 || rev["file"] != nil {
		t.Fatalf("clamped review: %s", r.raw)
	}
	// A token of another node does not pass.
	other := p.must(200, "GET", "/api/canvas/ax/surface-token?nodeId="+h0, nil).str("token")
	p.must(403, "POST", "/api/canvas/ax/interaction", fmt.Sprintf(
		`{"type":"ax.work.create","sourceNodeId":%q,"sourceSurface":"mcp-app","surfaceToken":%q,"payload":{"title":"x"}}`, h1, other))
}

func TestAXActivityIngest(t *testing.T) {
	p := startServer(t, "")
	f := p.addNode(`{"type":"file","path":"src/x.ts"}`)
	s := p.freshStream(t)

	r := p.must(200, "POST", "/api/canvas/ax/activity", fmt.Sprintf(
		`{"kind":"error","title":"tsc failed","summary":"TS2345 in x.ts","ref":"src/x.ts","nodeIds":["ghost",%q],"data":{"exitCode":2,"activityKind":"spoof"},"source":"copilot"}`, f))
	ev, wi, evd, rev := obj(r.body, "event"), obj(r.body, "workItem"), obj(r.body, "evidence"), obj(r.body, "review")
	if ev["kind"] != "failure" || ev["summary"] != "tsc failed" || ev["detail"] != "TS2345 in x.ts" || obj(ev, "data")["activityKind"] != "error" ||
		obj(ev, "data")["exitCode"] != 2.0 || obj(ev, "data")["ref"] != "src/x.ts" || len(strs(ev["nodeIds"])) != 2 {
		t.Fatalf("event: %s", r.raw)
	}
	if wi["status"] != "blocked" || wi["detail"] != "TS2345 in x.ts" || strs(wi["nodeIds"])[0] != f || len(strs(wi["nodeIds"])) != 1 || wi["source"] != "copilot" {
		t.Fatalf("work item: %s", r.raw)
	}
	if evd["kind"] != "logs" || evd["ref"] != "src/x.ts" || evd["body"] != "TS2345 in x.ts" {
		t.Fatalf("evidence: %s", r.raw)
	}
	if rev["kind"] != "finding" || rev["severity"] != "error" || rev["anchorType"] != "node" || rev["nodeId"] != f {
		t.Fatalf("review: %s", r.raw)
	}
	if got := strings.Join(s.names(t, 4), ","); got != "ax-event-created,ax-state-changed,ax-event-created,ax-state-changed" {
		t.Fatalf("frames: %s", got)
	}

	r = p.must(200, "POST", "/api/canvas/ax/activity",
		`{"kind":"tool-result","title":"lint failed","outcome":"failure","ref":"src/y.ts","reactions":{"workItem":{"status":"todo","detail":"fix lint"},"evidence":false,"review":{"severity":"warning","kind":"comment"}}}`)
	if obj(r.body, "event")["kind"] != "tool-result" || obj(r.body, "workItem")["status"] != "todo" || r.body["evidence"] != nil ||
		obj(r.body, "review")["anchorType"] != "file" || obj(r.body, "review")["file"] != "src/y.ts" {
		t.Fatalf("overrides: %s", r.raw)
	}
	s.names(t, 3)
	r = p.must(200, "POST", "/api/canvas/ax/activity", `{"kind":"tool-result","title":"tests passed","outcome":"success"}`)
	if obj(r.body, "evidence")["kind"] != "tool-result" || r.body["workItem"] != nil || r.body["review"] != nil {
		t.Fatalf("success: %s", r.raw)
	}
	s.names(t, 2)
	r = p.must(200, "POST", "/api/canvas/ax/activity", `{"kind":"session-start","title":"session began"}`)
	if e := obj(r.body, "event"); e["kind"] != "assistant-message" || obj(e, "data")["activityKind"] != "session-start" || r.body["evidence"] != nil {
		t.Fatalf("session-start: %s", r.raw)
	}
	s.names(t, 1)
	r = p.must(200, "POST", "/api/canvas/ax/activity", `{"kind":"failure","title":"bad anchor","reactions":{"review":{"anchorType":"node"},"workItem":false,"evidence":false}}`)
	if r.body["review"] != nil || r.body["ok"] != true || r.body["event"] == nil {
		t.Fatalf("bad anchor: %s", r.raw)
	}
	p.wantError(400, "POST", "/api/canvas/ax/activity", `{"kind":"nope","title":"x"}`,
		"activity requires a valid 'kind': one of tool-start, tool-result, failure, error, session-start, session-end, command, note.")
	p.wantError(400, "POST", "/api/canvas/ax/activity", `{"kind":"note","title":" "}`, "activity requires a title.")
}

func TestAXNodeDeletionOrphansAndAudits(t *testing.T) {
	p := startServer(t, "")
	n := p.addNode(`{"type":"markdown","title":"Auth module"}`)
	work := obj(p.must(200, "POST", "/api/canvas/ax/work", fmt.Sprintf(`{"title":"w","nodeIds":[%q,"status-main"]}`, n)).body, "workItem")["id"].(string)
	appr := obj(p.must(200, "POST", "/api/canvas/ax/approval", fmt.Sprintf(`{"title":"a","nodeIds":[%q]}`, n)).body, "approvalGate")["id"].(string)
	elic := obj(p.must(200, "POST", "/api/canvas/ax/elicitation", fmt.Sprintf(`{"prompt":"p","nodeIds":[%q]}`, n)).body, "elicitation")["id"].(string)
	mode := obj(p.must(200, "POST", "/api/canvas/ax/mode", fmt.Sprintf(`{"mode":"plan","nodeIds":[%q]}`, n)).body, "modeRequest")["id"].(string)
	rev := obj(p.must(200, "POST", "/api/canvas/ax/review", fmt.Sprintf(`{"body":"r","nodeId":%q}`, n)).body, "reviewAnnotation")["id"].(string)
	p.must(200, "POST", "/api/canvas/ax/focus", fmt.Sprintf(`{"nodeIds":[%q]}`, n))
	s := p.freshStream(t)

	p.must(200, "DELETE", "/api/canvas/node/"+n, nil)
	// The reply comes after the AX side: the state is consistent at once.
	st := obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	if len(strs(obj(st, "focus")["nodeIds"])) != 0 || len(list(st, "reviewAnnotations")) != 0 ||
		strings.Join(strs(list(st, "workItems")[0]["nodeIds"]), ",") != "status-main" || len(strs(list(st, "approvalGates")[0]["nodeIds"])) != 0 {
		t.Fatalf("after delete: %v", st)
	}
	want := []string{"canvas-layout-update", "context-pins-changed", "ax-state-changed", "ax-event-created"}
	var got []string
	var note map[string]any
	for len(got) < 3 {
		fr := s.next(t)
		if fr.event == "context-pins-changed" {
			continue
		}
		got = append(got, fr.event)
		if fr.event == "ax-event-created" {
			note = obj(fr.data, "event")
		}
		if fr.event == "ax-state-changed" && fr.data["reason"] != "node-removed" {
			t.Fatalf("state frame %v", fr.data)
		}
	}
	if strings.Join(got, ",") != "canvas-layout-update,ax-state-changed,ax-event-created" {
		t.Fatalf("frames %v (want %v)", got, want)
	}
	data := obj(note, "data")
	wantSummary := "Node \"Auth module\" deleted \u2014 re-anchored 4 AX item(s), removed 1 node-anchored review annotation(s). (focus anchor cleared)"
	if note["kind"] != "note" || note["source"] != "system" || note["summary"] != wantSummary || note["detail"] != nil || len(strs(note["nodeIds"])) != 0 ||
		data["systemEvent"] != "ax-node-orphan" || data["removedNodeId"] != n || data["reanchoredFocus"] != true ||
		strings.Join(strs(data["reanchoredIds"]), ",") != strings.Join([]string{work, appr, elic, mode}, ",") ||
		strings.Join(strs(data["removedReviewIds"]), ",") != rev {
		t.Fatalf("audit note: %v", note)
	}

	// Undo restores the references; the note stays. Redo strips them again
	// without a second note.
	p.must(200, "POST", "/api/canvas/undo", nil)
	st = obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	if strs(list(st, "workItems")[0]["nodeIds"])[0] != n || strs(list(st, "approvalGates")[0]["nodeIds"])[0] != n ||
		len(list(st, "reviewAnnotations")) != 1 || obj(st, "focus")["primaryNodeId"] != n {
		t.Fatalf("after undo: %v", st)
	}
	p.must(200, "POST", "/api/canvas/redo", nil)
	st = obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	if len(list(st, "reviewAnnotations")) != 0 || len(strs(list(st, "approvalGates")[0]["nodeIds"])) != 0 {
		t.Fatalf("after redo: %v", st)
	}
	notes := 0
	for _, e := range list(p.must(200, "GET", "/api/canvas/ax/timeline", nil).body, "events") {
		if obj(e, "data")["systemEvent"] == "ax-node-orphan" {
			notes++
		}
	}
	if notes != 1 {
		t.Fatalf("%d audit notes after undo and redo, want 1", notes)
	}
	// A deletion that touches no AX state writes no note.
	plain := p.addNode(`{"type":"markdown","title":"plain"}`)
	p.must(200, "DELETE", "/api/canvas/node/"+plain, nil)
	if c := obj(obj(p.must(200, "GET", "/api/canvas/ax/timeline", nil).body, "summary"), "counts"); c["events"] != 1.0 {
		t.Fatalf("note for an untouched deletion: %v", c)
	}
	// Undoing an AX write is impossible: the undo stack holds layout steps.
	p.must(200, "POST", "/api/canvas/ax/approval/"+appr+"/resolve", `{"decision":"approved"}`)
	p.must(200, "POST", "/api/canvas/undo", nil)
	if g := obj(p.must(200, "GET", "/api/canvas/ax/approval/"+appr, nil).body, "approvalGate"); g["status"] != "approved" {
		t.Fatalf("undo put a resolved gate back: %v", g)
	}
}

func TestAXSnapshotRestoreAndClear(t *testing.T) {
	p := startServer(t, "")
	p.must(200, "POST", "/api/canvas/ax/work", `{"title":"Wire auth"}`)
	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Deploy"}`).body, "approvalGate")["id"].(string)
	p.must(200, "POST", "/api/canvas/ax/policy", `{"tools":{"excluded":["x"]}}`)
	p.must(200, "PUT", "/api/canvas/ax/host-capability", `{"host":"codex"}`)
	p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"s"}`)
	p.must(200, "POST", "/api/canvas/snapshots", `{"name":"ax-snap"}`)
	p.must(200, "POST", "/api/canvas/ax/work", `{"title":"after snap"}`)
	p.must(200, "POST", "/api/canvas/ax/approval/"+gate+"/resolve", `{"decision":"approved"}`)

	// Restore: the snapshot's canvas-bound AX comes back, but a gate
	// decided since keeps its decision; timeline and host are untouched.
	done := make(chan *response, 1)
	p.must(200, "POST", "/api/canvas/snapshots/ax-snap", nil)
	st := obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	if w := list(st, "workItems"); len(w) != 1 || w[0]["title"] != "Wire auth" {
		t.Fatalf("work after restore: %v", w)
	}
	if g := list(st, "approvalGates"); len(g) != 1 || g[0]["status"] != "approved" {
		t.Fatalf("restore regressed a decided gate: %v", g)
	}
	if host := obj(p.must(200, "GET", "/api/canvas/ax/host-capability", nil).body, "host"); host["host"] != "codex" {
		t.Fatal("host lost on restore")
	}

	// Clear empties canvas-bound AX (policy and focus too); a waiter on a
	// gate that vanishes is answered 404.
	pg := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"pending at clear"}`).body, "approvalGate")["id"].(string)
	go func() { done <- p.do("GET", "/api/canvas/ax/approval/"+pg+"?waitMs=10000", nil) }()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	p.must(200, "POST", "/api/canvas/clear", nil)
	select {
	case r := <-done:
		if r.status != 404 || r.body["ok"] != false {
			t.Fatalf("waiter on a cleared gate: %d %s", r.status, r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("clear did not answer the waiter")
	}
	st = obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	if len(list(st, "workItems")) != 0 || len(list(st, "approvalGates")) != 0 || len(strs(obj(obj(st, "policy"), "tools")["excluded"])) != 0 {
		t.Fatalf("after clear: %v", st)
	}
	if c := obj(obj(p.must(200, "GET", "/api/canvas/ax/timeline", nil).body, "summary"), "counts"); c["steering"] != 1.0 {
		t.Fatalf("timeline after clear: %v", c)
	}

	// Work created after the clear survives its undo; the cleared AX
	// (policy included) comes back.
	p.must(200, "POST", "/api/canvas/ax/work", `{"title":"after clear"}`)
	p.must(200, "POST", "/api/canvas/undo", nil)
	st = obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	var titles []string
	for _, w := range list(st, "workItems") {
		titles = append(titles, w["title"].(string))
	}
	if strings.Join(titles, ",") != "Wire auth,after clear" || strs(obj(obj(st, "policy"), "tools")["excluded"])[0] != "x" {
		t.Fatalf("after undo of clear: %v", st)
	}
}

// TestAXManyAwaiters parks 1,000 waiters on 1,000 gates and 1,000 on one
// gate, releases them by resolving, and checks that waiters whose clients
// go away are removed from the actor at once.
func TestAXManyAwaiters(t *testing.T) {
	if testing.Short() {
		t.Skip("many connections")
	}
	p := startServer(t, "")
	const n = 1000
	gates := make([]string, n)
	for i := range gates {
		gates[i] = obj(p.must(200, "POST", "/api/canvas/ax/approval", fmt.Sprintf(`{"title":"g%d"}`, i)).body, "approvalGate")["id"].(string)
	}
	statsWaiters := func() float64 { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"].(float64) }
	await := func(id string, out chan<- string) {
		r := p.do("GET", "/api/canvas/ax/approval/"+id+"?waitMs=60000", nil)
		if r.status != 200 || r.body["pending"] != false {
			out <- fmt.Sprintf("%s: %d %s", id, r.status, r.raw)
			return
		}
		out <- obj(r.body, "approvalGate")["id"].(string) + ":" + obj(r.body, "approvalGate")["status"].(string)
	}

	// 1,000 waiters on 1,000 gates, released by their own resolves.
	out := make(chan string, n)
	for _, id := range gates {
		go await(id, out)
	}
	waitFor(t, func() bool { return statsWaiters() == n })
	var wg sync.WaitGroup
	for i, id := range gates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			decision := []string{"approved", "rejected"}[i%2]
			p.must(200, "POST", "/api/canvas/ax/approval/"+id+"/resolve", fmt.Sprintf(`{"decision":%q}`, decision))
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for range n {
		select {
		case got := <-out:
			id, status, _ := strings.Cut(got, ":")
			seen[id] = true
			i := indexOf(gates, id)
			if i < 0 || status != []string{"approved", "rejected"}[i%2] {
				t.Fatalf("wrong release: %s", got)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d waiters released", len(seen), n)
		}
	}
	if len(seen) != n || statsWaiters() != 0 {
		t.Fatalf("released %d distinct, %v still parked", len(seen), statsWaiters())
	}

	// 1,000 waiters on one gate, released by one resolve.
	one := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"one"}`).body, "approvalGate")["id"].(string)
	for range n {
		go await(one, out)
	}
	waitFor(t, func() bool { return statsWaiters() == n })
	p.must(200, "POST", "/api/canvas/ax/approval/"+one+"/resolve", `{"decision":"approved"}`)
	for i := range n {
		select {
		case got := <-out:
			if got != one+":approved" {
				t.Fatalf("waiter %d: %s", i, got)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d waiters on one gate released", i, n)
		}
	}

	// Waiters whose clients disconnect are gone from the actor at once.
	left := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"abandoned"}`).body, "approvalGate")["id"].(string)
	var conns []func()
	for range 50 {
		conns = append(conns, p.hangingRequest("GET /api/canvas/ax/approval/"+left+"?waitMs=60000"))
	}
	waitFor(t, func() bool { return statsWaiters() == 50 })
	for _, hangUp := range conns {
		hangUp()
	}
	waitFor(t, func() bool { return statsWaiters() == 0 })
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// A shutdown answers parked waits at once instead of waiting for them.
func TestAXShutdownAnswersParkedWaits(t *testing.T) {
	p := startServer(t, "")
	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"g"}`).body, "approvalGate")["id"].(string)
	done := make(chan *response, 1)
	go func() { done <- p.do("GET", "/api/canvas/ax/approval/"+gate+"?waitMs=120000", nil) }()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["gateWaiters"] == 1.0 })
	start := time.Now()
	p.stop()
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("shutdown took %v with a parked wait", el)
	}
	select {
	case r := <-done:
		if r.status != 503 {
			t.Fatalf("parked wait at shutdown: %d %s", r.status, r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the parked wait was not answered")
	}
}
