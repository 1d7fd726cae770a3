package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestAXWorkbenchInteractions drives the workbench surface over HTTP: its
// token, the human's answers to all three kinds of gate (each releasing
// the agent's parked await), the browser recorded as the decider whatever
// the envelope says, and the refusals.
func TestAXWorkbenchInteractions(t *testing.T) {
	p := startServer(t, "")
	tok := p.must(200, "GET", "/api/canvas/ax/surface-token?surface=workbench", nil)
	token := tok.str("token")
	if token == "" || tok.str("surface") != "workbench" || tok.body["nodeId"] != nil {
		t.Fatalf("workbench token: %s", tok.raw)
	}
	if other := p.must(200, "GET", "/api/canvas/ax/surface-token?surface=workbench&canvas=other", nil).str("token"); other == token {
		t.Fatal("two canvases share a workbench token")
	}
	interact := func(status int, body string) *response {
		t.Helper()
		return p.must(status, "POST", "/api/canvas/ax/interaction", body)
	}

	// An approval: the await parked on it returns as soon as the workbench decides.
	gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Deploy?"}`).body, "approvalGate")["id"].(string)
	done := awaitGate(p.url + "/api/canvas/ax/approval/" + gate + "?waitMs=20000")
	time.Sleep(200 * time.Millisecond) // let the await park
	start := time.Now()
	r := interact(200, fmt.Sprintf(`{"type":"ax.approval.resolve","sourceSurface":"workbench","surfaceToken":%q,"source":"cli",`+
		`"payload":{"id":%q,"decision":"approved","resolution":"ship it"}}`, token, gate))
	if prim := obj(r.body, "primitive"); prim["status"] != "approved" || prim["resolution"] != "ship it" || prim["resolvedBy"] != "browser" {
		t.Fatalf("resolve: %s", r.raw)
	}
	got := <-done
	if time.Since(start) > 2*time.Second || got["pending"] != false || obj(got, "approvalGate")["status"] != "approved" {
		t.Fatalf("await after %v: %v", time.Since(start), got)
	}

	// An elicitation answered with its fields.
	elic := obj(p.must(200, "POST", "/api/canvas/ax/elicitation", `{"prompt":"Which branch?","fields":["branch","reason"]}`).body, "elicitation")["id"].(string)
	done = awaitGate(p.url + "/api/canvas/ax/elicitation/" + elic + "?waitMs=20000")
	time.Sleep(200 * time.Millisecond)
	interact(200, fmt.Sprintf(`{"type":"ax.elicitation.respond","sourceSurface":"workbench","surfaceToken":%q,`+
		`"payload":{"id":%q,"response":{"branch":"main","reason":"release"}}}`, token, elic))
	got = <-done
	if e := obj(got, "elicitation"); got["pending"] != false || obj(e, "response")["branch"] != "main" {
		t.Fatalf("elicitation await: %v", got)
	}

	// A mode request rejected with a note.
	mode := obj(p.must(200, "POST", "/api/canvas/ax/mode", `{"mode":"autonomous","reason":"faster"}`).body, "modeRequest")["id"].(string)
	done = awaitGate(p.url + "/api/canvas/ax/mode/" + mode + "?waitMs=20000")
	time.Sleep(200 * time.Millisecond)
	interact(200, fmt.Sprintf(`{"type":"ax.mode.resolve","sourceSurface":"workbench","surfaceToken":%q,`+
		`"payload":{"id":%q,"decision":"rejected","resolution":"stay in plan"}}`, token, mode))
	got = <-done
	if m := obj(got, "modeRequest"); got["pending"] != false || m["status"] != "rejected" || m["resolution"] != "stay in plan" {
		t.Fatalf("mode await: %v", got)
	}

	// The decider is recorded as the browser.
	state := obj(p.must(200, "GET", "/api/canvas/ax?includeContext=false", nil).body, "state")
	for _, list := range []string{"approvalGates", "elicitations", "modeRequests"} {
		rows, _ := state[list].([]any)
		if len(rows) != 1 {
			t.Fatalf("%s: %v", list, state[list])
		}
		row := rows[0].(map[string]any)
		if row["resolvedBy"] != "browser" {
			t.Errorf("%s decided by %v, want browser: %v", list, row["resolvedBy"], row)
		}
	}

	rejects := []struct {
		body, code string
		status     int
	}{
		{fmt.Sprintf(`{"type":"ax.steer","sourceSurface":"workbench","payload":{"message":"x"}}`), "invalid-surface-token", 403},
		{fmt.Sprintf(`{"type":"ax.steer","sourceSurface":"workbench","surfaceToken":"forged","payload":{"message":"x"}}`), "invalid-surface-token", 403},
		{fmt.Sprintf(`{"type":"ax.approval.request","sourceSurface":"workbench","surfaceToken":%q,"payload":{"title":"x"}}`, token), "not-allowed", 403},
		{fmt.Sprintf(`{"type":"ax.mode.resolve","sourceSurface":"workbench","surfaceToken":%q,"payload":{"id":%q,"decision":"approved"}}`, token, mode), "mode-request-not-found", 404},
		{fmt.Sprintf(`{"type":"ax.elicitation.respond","sourceSurface":"workbench","surfaceToken":%q,"payload":{"id":"elic-nope","response":{}}}`, token), "elicitation-not-found", 404},
		{fmt.Sprintf(`{"type":"ax.elicitation.respond","sourceSurface":"workbench","surfaceToken":%q,"payload":{"id":%q}}`, token, elic), "invalid-payload", 400},
		// A node's surface token is not the workbench's.
		{fmt.Sprintf(`{"type":"ax.steer","sourceSurface":"workbench","surfaceToken":%q,"payload":{"message":"x"}}`,
			p.must(200, "GET", "/api/canvas/ax/surface-token?nodeId=status-main", nil).str("token")), "invalid-surface-token", 403},
		// Node surfaces cannot answer gates.
		{`{"type":"ax.mode.resolve","sourceNodeId":"status-main","payload":{"id":"m","decision":"approved"}}`, "not-allowed", 403},
	}
	for _, c := range rejects {
		r := interact(c.status, c.body)
		if r.body["ok"] != false || r.body["code"] != c.code {
			t.Errorf("%s: %s", c.body, r.raw)
		}
	}
}

// awaitGate starts a gate await over HTTP and delivers its decoded reply.
func awaitGate(url string) <-chan map[string]any {
	done := make(chan map[string]any, 1)
	go func() {
		var body map[string]any
		if res, err := http.Get(url); err == nil {
			_ = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
		}
		done <- body
	}()
	return done
}

// TestAXSteeringToOneConsumer: a steer addressed to one consumer wakes
// and reaches only that consumer's claim; the others never see it.
func TestAXSteeringToOneConsumer(t *testing.T) {
	p := startServer(t, "")
	done := make(chan *response, 1)
	go func() { done <- p.do("GET", "/api/canvas/ax/delivery/pending?consumer=bob&waitMs=10000", nil) }()
	waitFor(t, func() bool { return p.must(200, "GET", "/api/canvas/ax/stats", nil).body["deliveryWaiters"] == 1.0 })
	st := p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"alice only","to":"alice","source":"browser"}`)
	if obj(st.body, "steering")["to"] != "alice" {
		t.Fatalf("steer: %s", st.raw)
	}
	select {
	case r := <-done:
		t.Fatalf("bob was woken by alice's message: %s", r.raw)
	case <-time.After(300 * time.Millisecond):
	}
	if got := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=bob", nil).body, "pending"); len(got) != 0 {
		t.Fatalf("bob sees %v", got)
	}
	got := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=alice", nil).body, "pending")
	if len(got) != 1 || got[0]["message"] != "alice only" {
		t.Fatalf("alice sees %v", got)
	}
	// A message for everyone still wakes bob.
	p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"all hands","source":"browser"}`)
	select {
	case r := <-done:
		if rows := list(r.body, "pending"); len(rows) != 1 || rows[0]["message"] != "all hands" {
			t.Fatalf("bob's claim: %s", r.raw)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a broadcast did not wake bob")
	}
}
