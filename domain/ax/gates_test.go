package ax

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestRequestApproval(t *testing.T) {
	nodes := stdNodes()
	for _, tc := range []struct{ name, in, source, want, err string }{
		{name: "missing title", in: `{"detail":"x"}`, err: "approval request requires a title."},
		{name: "blank title", in: `{"title":" "}`, err: "approval request requires a title."},
		{name: "reference example", source: "copilot",
			in: `{"title":"Deploy to prod","detail":"rolls out auth","action":"deploy.prod","nodeIds":["N","ghost"]}`,
			want: `{"id":"` + id("appr", 1) + `","title":"Deploy to prod","detail":"rolls out auth","action":"deploy.prod","status":"pending",` +
				`"nodeIds":["N"],"createdAt":"` + ts0 + `","resolvedAt":null,"resolution":null,"source":"copilot"}`},
		{name: "empty optional strings are null", source: "api", in: `{"title":"t","detail":"","action":""}`,
			want: `{"id":"` + id("appr", 1) + `","title":"t","detail":null,"action":null,"status":"pending",` +
				`"nodeIds":[],"createdAt":"` + ts0 + `","resolvedAt":null,"resolution":null,"source":"api"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := RequestApproval(decode[messages.AxApprovalRequestInput](t, tc.in), tc.source, nodes, testEnv())
			if tc.err != "" {
				wantErr(t, err, 400, tc.err)
				return
			}
			noErr(t, err)
			if got := jsonOf(t, g); got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestValidateDecision(t *testing.T) {
	for _, d := range []string{"approved", "rejected"} {
		got, err := ValidateDecision(sp(d))
		noErr(t, err)
		if got != d {
			t.Fatalf("got %q", got)
		}
	}
	for _, d := range []*string{nil, sp(""), sp("approve"), sp("APPROVED")} {
		_, err := ValidateDecision(d)
		wantErr(t, err, 400, "resolve requires decision approved or rejected.")
	}
}

func TestResolveApproval(t *testing.T) {
	pending := &ApprovalGate{ID: "a1", Title: "Deploy", Status: "pending", NodeIDs: []string{"N"}, CreatedAt: "c", Source: sp("copilot")}
	before := jsonOf(t, pending)
	g, err := ResolveApproval(pending, "approved", sp("ship it"), "browser", testEnv())
	noErr(t, err)
	unchanged(t, before, pending)
	if g.Status != "approved" || deref(g.ResolvedAt) != ts0 || deref(g.Resolution) != "ship it" {
		t.Fatalf("g = %s", jsonOf(t, g))
	}
	// The fixed quirk: the requester is kept, the resolver recorded apart.
	if deref(g.Source) != "copilot" || deref(g.ResolvedBy) != "browser" {
		t.Fatalf("source %s resolvedBy %s", deref(g.Source), deref(g.ResolvedBy))
	}

	g, err = ResolveApproval(pending, "rejected", nil, "api", testEnv())
	noErr(t, err)
	if g.Status != "rejected" || g.Resolution != nil {
		t.Fatalf("omitted resolution must be null: %s", jsonOf(t, g))
	}
	g, _ = ResolveApproval(pending, "rejected", sp(""), "api", testEnv())
	if g.Resolution != nil {
		t.Fatalf("empty resolution must be null")
	}

	resolved := *pending
	resolved.Status = "approved"
	for _, old := range []*ApprovalGate{nil, &resolved} {
		_, err := ResolveApproval(old, "rejected", nil, "api", testEnv())
		wantErr(t, err, 404, "approval gate not found or already resolved.")
	}
	_, err = ResolveApproval(pending, "maybe", nil, "api", testEnv())
	wantErr(t, err, 400, "resolve requires decision approved or rejected.")
}

func TestRequestElicitation(t *testing.T) {
	nodes := stdNodes()
	_, err := RequestElicitation(decode[messages.AxElicitationRequestInput](t, `{"fields":["a"]}`), "api", nodes, testEnv())
	wantErr(t, err, 400, "elicitation requires a prompt.")
	_, err = RequestElicitation(decode[messages.AxElicitationRequestInput](t, `{"prompt":"\n"}`), "api", nodes, testEnv())
	wantErr(t, err, 400, "elicitation requires a prompt.")

	e, err := RequestElicitation(decode[messages.AxElicitationRequestInput](t, `{"prompt":"Who owns it?","fields":["owner",3,"due"],"nodeIds":["F","x"]}`), "codex", nodes, testEnv())
	noErr(t, err)
	want := `{"id":"` + id("elic", 1) + `","prompt":"Who owns it?","fields":["owner","due"],"status":"pending","response":null,` +
		`"nodeIds":["F"],"createdAt":"` + ts0 + `","resolvedAt":null,"source":"codex"}`
	if got := jsonOf(t, e); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	e, _ = RequestElicitation(decode[messages.AxElicitationRequestInput](t, `{"prompt":"p"}`), "api", nodes, testEnv())
	if e.Fields == nil || len(e.Fields) != 0 {
		t.Fatalf("fields = %#v", e.Fields)
	}
}

func TestRespondElicitation(t *testing.T) {
	pending := &Elicitation{ID: "e1", Prompt: "p", Fields: []string{"owner"}, Status: "pending", NodeIDs: []string{}, Source: sp("agent")}
	resp := map[string]any{"owner": "me"}
	before, beforeResp := jsonOf(t, pending), jsonOf(t, resp)
	e, err := RespondElicitation(pending, resp, "browser", testEnv())
	noErr(t, err)
	unchanged(t, before, pending)
	unchanged(t, beforeResp, resp)
	if e.Status != "answered" || jsonOf(t, e.Response) != `{"owner":"me"}` || deref(e.ResolvedAt) != ts0 ||
		deref(e.Source) != "agent" || deref(e.ResolvedBy) != "browser" {
		t.Fatalf("e = %s", jsonOf(t, e))
	}
	for _, r := range []any{nil, "text", []any{1}, 5.0} {
		e, err := RespondElicitation(pending, r, "api", testEnv())
		noErr(t, err)
		if jsonOf(t, e.Response) != `{}` {
			t.Fatalf("response %v stored as %s", r, jsonOf(t, e.Response))
		}
	}
	answered := *pending
	answered.Status = "answered"
	for _, old := range []*Elicitation{nil, &answered} {
		_, err := RespondElicitation(old, resp, "api", testEnv())
		wantErr(t, err, 404, "elicitation not found or already answered.")
	}
}

func TestRequestMode(t *testing.T) {
	nodes := stdNodes()
	for _, in := range []string{`{}`, `{"mode":"turbo"}`, `{"mode":""}`, `{"mode":"Plan"}`} {
		_, err := RequestMode(decode[messages.AxModeRequestInput](t, in), "api", nodes, testEnv())
		wantErr(t, err, 400, "mode request requires mode plan|execute|autonomous.")
	}
	m, err := RequestMode(decode[messages.AxModeRequestInput](t, `{"mode":"autonomous","reason":"overnight","nodeIds":["S"]}`), "agent", nodes, testEnv())
	noErr(t, err)
	want := `{"id":"` + id("mode", 1) + `","mode":"autonomous","reason":"overnight","status":"pending","nodeIds":["S"],` +
		`"createdAt":"` + ts0 + `","resolvedAt":null,"resolution":null,"source":"agent"}`
	if got := jsonOf(t, m); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

func TestResolveMode(t *testing.T) {
	pending := &ModeRequest{ID: "m1", Mode: "plan", Status: "pending", NodeIDs: []string{}, Source: sp("agent")}
	before := jsonOf(t, pending)
	m, err := ResolveMode(pending, "approved", sp("go"), "browser", testEnv())
	noErr(t, err)
	unchanged(t, before, pending)
	if m.Status != "approved" || deref(m.Resolution) != "go" || deref(m.ResolvedAt) != ts0 || deref(m.Source) != "agent" || deref(m.ResolvedBy) != "browser" {
		t.Fatalf("m = %s", jsonOf(t, m))
	}
	done := *m
	for _, old := range []*ModeRequest{nil, &done} {
		_, err := ResolveMode(old, "approved", nil, "api", testEnv())
		wantErr(t, err, 404, "mode request not found or already resolved.")
	}
	_, err = ResolveMode(pending, "", nil, "api", testEnv())
	wantErr(t, err, 400, "resolve requires decision approved or rejected.")
}
