package ax

import (
	"net/http"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestNormalizeSource(t *testing.T) {
	for _, tc := range []struct{ in, fallback, want string }{
		{"copilot", "api", "copilot"},
		{"system", "mcp", "system"},
		{"", "api", "api"},
		{"Copilot", "api", "api"}, // case-sensitive
		{"hacker", "mcp", "mcp"},
		{"sdk", "", "sdk"},
	} {
		if got := NormalizeSource(tc.in, tc.fallback); got != tc.want {
			t.Errorf("NormalizeSource(%q, %q) = %q, want %q", tc.in, tc.fallback, got, tc.want)
		}
	}
	for _, s := range Sources {
		if NormalizeSource(s, "x") != s {
			t.Errorf("source %q not kept", s)
		}
	}
}

func TestEmptyStateJSON(t *testing.T) {
	got := jsonOf(t, StateOf(EmptyBoard(), EmptyGates()))
	want := `{"version":1,"focus":{"nodeIds":[],"primaryNodeId":null,"updatedAt":null,"source":null},` +
		`"workItems":[],"approvalGates":[],"reviewAnnotations":[],"elicitations":[],"modeRequests":[],` +
		`"policy":{"tools":{"allowed":[],"excluded":[],"approvalRequired":[]},"prompt":{"systemAppend":null,"mode":null}}}`
	if got != want {
		t.Fatalf("empty state\n got %s\nwant %s", got, want)
	}
	// Zero values render the same empty lists.
	if got := jsonOf(t, StateOf(Board{}, GateSet{})); got != want {
		t.Fatalf("zero state\n got %s\nwant %s", got, want)
	}
}

func TestStateOfCarriesEverything(t *testing.T) {
	b := EmptyBoard()
	b.WorkItems = []*WorkItem{{ID: "w1"}}
	b.Reviews = []*ReviewAnnotation{{ID: "r1"}}
	b.Focus = Focus{NodeIDs: []string{"N"}, PrimaryNodeID: sp("N")}
	b.Policy.Tools.Allowed = []string{"read"}
	g := GateSet{Approvals: []*ApprovalGate{{ID: "a1"}}, Elicitations: []*Elicitation{{ID: "e1"}}, Modes: []*ModeRequest{{ID: "m1"}}}
	s := StateOf(b, g)
	if s.Version != 1 || s.WorkItems[0].ID != "w1" || s.ReviewAnnotations[0].ID != "r1" || s.ApprovalGates[0].ID != "a1" ||
		s.Elicitations[0].ID != "e1" || s.ModeRequests[0].ID != "m1" || s.Focus.NodeIDs[0] != "N" || s.Policy.Tools.Allowed[0] != "read" {
		t.Fatalf("state = %+v", s)
	}
}

func TestSetFocus(t *testing.T) {
	nodes := stdNodes()
	for _, tc := range []struct {
		name    string
		ids     []any
		source  string
		want    []string
		primary string
		src     string
	}{
		{"reference example", []any{"ghost", "F", "S", "F"}, "api", []string{"F", "S"}, "F", "api"},
		{"first kept is primary", []any{"S", "N"}, "browser", []string{"S", "N"}, "S", "browser"},
		{"non-strings dropped", []any{3.0, nil, true, "N", map[string]any{}}, "cli", []string{"N"}, "N", "cli"},
		{"empty clears", []any{}, "api", []string{}, "<nil>", "api"},
		{"nil clears", nil, "api", []string{}, "<nil>", "api"},
		{"unknown source stored as null", []any{"N"}, "martian", []string{"N"}, "N", "<nil>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := jsonOf(t, tc.ids)
			f := SetFocus(tc.ids, tc.source, nodes, testEnv())
			unchanged(t, before, tc.ids)
			if !eqStrings(f.NodeIDs, tc.want) || f.NodeIDs == nil {
				t.Fatalf("nodeIds = %#v, want %v", f.NodeIDs, tc.want)
			}
			if deref(f.PrimaryNodeID) != tc.primary || deref(f.Source) != tc.src || deref(f.UpdatedAt) != ts0 {
				t.Fatalf("focus = primary %s source %s updatedAt %s", deref(f.PrimaryNodeID), deref(f.Source), deref(f.UpdatedAt))
			}
		})
	}
	// A nil canvas keeps nothing.
	if f := SetFocus([]any{"N"}, "api", nil, testEnv()); len(f.NodeIDs) != 0 || f.PrimaryNodeID != nil {
		t.Fatalf("nil canvas focus = %+v", f)
	}
}

func TestCreateWork(t *testing.T) {
	nodes := stdNodes()
	statusErr := `invalid work item status "in_progress"; expected one of: todo, in-progress, blocked, done, cancelled.`
	for _, tc := range []struct {
		name, in, source string
		err              string
		check            func(t *testing.T, w *WorkItem)
	}{
		{name: "missing title", in: `{}`, err: "work item requires a title."},
		{name: "blank title", in: `{"title":"  \t "}`, err: "work item requires a title."},
		{name: "title before status", in: `{"status":"nope"}`, err: "work item requires a title."},
		{name: "bad status", in: `{"title":"x","status":"in_progress"}`, err: statusErr},
		{name: "empty status is invalid", in: `{"title":"x","status":""}`,
			err: `invalid work item status ""; expected one of: todo, in-progress, blocked, done, cancelled.`},
		{name: "reference example", source: "api",
			in: `{"title":"Wire auth","status":"in-progress","detail":"JWT middleware","nodeIds":["N","ghost-node","N",5]}`,
			check: func(t *testing.T, w *WorkItem) {
				want := `{"id":"` + id("work", 1) + `","title":"Wire auth","status":"in-progress","detail":"JWT middleware",` +
					`"nodeIds":["N"],"createdAt":"` + ts0 + `","updatedAt":"` + ts0 + `","source":"api"}`
				if got := jsonOf(t, w); got != want {
					t.Fatalf("work item\n got %s\nwant %s", got, want)
				}
			}},
		{name: "defaults", in: `{"title":"  padded  ","detail":""}`, source: "nobody",
			check: func(t *testing.T, w *WorkItem) {
				if w.Title != "  padded  " || w.Status != "todo" || w.Detail != nil || w.Source != nil || len(w.NodeIDs) != 0 || w.NodeIDs == nil {
					t.Fatalf("work item = %s", jsonOf(t, w))
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxWorkCreateInput](t, tc.in)
			before := jsonOf(t, in)
			w, err := CreateWork(in, tc.source, nodes, testEnv())
			unchanged(t, before, in)
			if tc.err != "" {
				wantErr(t, err, http.StatusBadRequest, tc.err)
				if err.Code != messages.CodeBadRequest {
					t.Fatalf("code = %s", err.Code)
				}
				return
			}
			noErr(t, err)
			tc.check(t, w)
		})
	}
	if _, err := CreateWork(nil, "api", nodes, testEnv()); err == nil || err.Message != "work item requires a title." {
		t.Fatalf("nil input error = %v", err)
	}
}

func TestValidateWorkStatus(t *testing.T) {
	for _, s := range WorkStatuses {
		if err := ValidateWorkStatus(sp(s)); err != nil {
			t.Errorf("%s rejected: %v", s, err)
		}
	}
	if err := ValidateWorkStatus(nil); err != nil {
		t.Errorf("nil rejected")
	}
	wantErr(t, ValidateWorkStatus(sp("DONE")), 400, `invalid work item status "DONE"; expected one of: todo, in-progress, blocked, done, cancelled.`)
}

func TestUpdateWork(t *testing.T) {
	nodes := stdNodes()
	old := &WorkItem{ID: "w1", Title: "Wire auth", Status: "todo", Detail: sp("d"), NodeIDs: []string{"N"},
		CreatedAt: "2026-01-01T00:00:00.000Z", UpdatedAt: "2026-01-01T00:00:00.000Z", Source: sp("copilot")}
	for _, tc := range []struct {
		name, in string
		old      *WorkItem
		status   int
		err      string
		check    func(t *testing.T, w *WorkItem)
	}{
		{name: "status checked before lookup", in: `{"status":"in_progress"}`, old: nil, status: 400,
			err: `invalid work item status "in_progress"; expected one of: todo, in-progress, blocked, done, cancelled.`},
		{name: "not found", in: `{"status":"done"}`, old: nil, status: 404, err: "work item not found."},
		{name: "status and source", in: `{"status":"done"}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if w.Status != "done" || w.Title != "Wire auth" || deref(w.Detail) != "d" || !eqStrings(w.NodeIDs, []string{"N"}) {
				t.Fatalf("w = %s", jsonOf(t, w))
			}
			if deref(w.Source) != "copilot" || deref(w.UpdatedBy) != "mcp" {
				t.Fatalf("source %s updatedBy %s: the creator must be kept", deref(w.Source), deref(w.UpdatedBy))
			}
			if w.UpdatedAt != ts0 || w.CreatedAt != "2026-01-01T00:00:00.000Z" {
				t.Fatalf("times %s %s", w.CreatedAt, w.UpdatedAt)
			}
		}},
		{name: "empty title allowed", in: `{"title":""}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if w.Title != "" {
				t.Fatalf("title %q", w.Title)
			}
		}},
		{name: "detail null clears", in: `{"detail":null}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if w.Detail != nil {
				t.Fatalf("detail %s", deref(w.Detail))
			}
		}},
		{name: "detail empty clears", in: `{"detail":""}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if w.Detail != nil {
				t.Fatalf("detail %s", deref(w.Detail))
			}
		}},
		{name: "detail absent kept", in: `{}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if deref(w.Detail) != "d" {
				t.Fatalf("detail %s", deref(w.Detail))
			}
		}},
		{name: "nodeIds replaced and validated", in: `{"nodeIds":["S","ghost","F","S"]}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if !eqStrings(w.NodeIDs, []string{"S", "F"}) {
				t.Fatalf("nodeIds %v", w.NodeIDs)
			}
		}},
		{name: "nodeIds empty clears", in: `{"nodeIds":[]}`, old: old, check: func(t *testing.T, w *WorkItem) {
			if len(w.NodeIDs) != 0 || w.NodeIDs == nil {
				t.Fatalf("nodeIds %#v", w.NodeIDs)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxWorkUpdateInput](t, tc.in)
			before := jsonOf(t, old)
			w, err := UpdateWork(tc.old, in, "mcp", nodes, testEnv())
			unchanged(t, before, old)
			if tc.err != "" {
				wantErr(t, err, tc.status, tc.err)
				return
			}
			noErr(t, err)
			if w == old {
				t.Fatal("returned the argument")
			}
			tc.check(t, w)
		})
	}
}

func TestAddReview(t *testing.T) {
	nodes := stdNodes()
	anchorErr := "node-anchored review annotation requires a nodeId that exists on the canvas."
	for _, tc := range []struct {
		name, in string
		err      string
		check    func(t *testing.T, r *ReviewAnnotation)
	}{
		{name: "missing body", in: `{}`, err: "review annotation requires a body."},
		{name: "blank body", in: `{"body":"   "}`, err: "review annotation requires a body."},
		{name: "node anchor without node", in: `{"body":"b","anchorType":"node"}`, err: anchorErr},
		{name: "node anchor with ghost", in: `{"body":"b","nodeId":"ghost"}`, err: anchorErr},
		{name: "body only is a file anchor", in: `{"body":"looks off"}`, check: func(t *testing.T, r *ReviewAnnotation) {
			want := `{"id":"` + id("rev", 1) + `","kind":"comment","body":"looks off","severity":"info","status":"open",` +
				`"anchorType":"file","nodeId":null,"file":null,"region":null,"author":null,` +
				`"createdAt":"` + ts0 + `","updatedAt":"` + ts0 + `","source":"api"}`
			if got := jsonOf(t, r); got != want {
				t.Fatalf("\n got %s\nwant %s", got, want)
			}
		}},
		{name: "nodeId implies node anchor", in: `{"body":"b","nodeId":"N","file":"a.ts","kind":"finding","severity":"error","author":"me"}`,
			check: func(t *testing.T, r *ReviewAnnotation) {
				if r.AnchorType != "node" || deref(r.NodeID) != "N" || r.File != nil || r.Kind != "finding" || r.Severity != "error" || deref(r.Author) != "me" {
					t.Fatalf("r = %s", jsonOf(t, r))
				}
			}},
		{name: "invalid enums ignored", in: `{"body":"b","kind":"rant","severity":"fatal","anchorType":"bogus","file":"x.go"}`,
			check: func(t *testing.T, r *ReviewAnnotation) {
				if r.Kind != "comment" || r.Severity != "info" || r.AnchorType != "file" || deref(r.File) != "x.go" {
					t.Fatalf("r = %s", jsonOf(t, r))
				}
			}},
		{name: "file anchor drops nodeId", in: `{"body":"b","anchorType":"file","nodeId":"N","file":""}`,
			check: func(t *testing.T, r *ReviewAnnotation) {
				if r.NodeID != nil || r.File != nil || r.Region != nil {
					t.Fatalf("r = %s", jsonOf(t, r))
				}
			}},
		{name: "region keeps typed keys only", in: `{"body":"b","anchorType":"region","file":"x","region":{"line":3,"endLine":"12","label":"hot","extra":1}}`,
			check: func(t *testing.T, r *ReviewAnnotation) {
				if got := jsonOf(t, r.Region); got != `{"line":3,"label":"hot"}` || r.File != nil {
					t.Fatalf("region = %s file %s", got, deref(r.File))
				}
			}},
		{name: "region not an object", in: `{"body":"b","anchorType":"region","region":[1]}`,
			check: func(t *testing.T, r *ReviewAnnotation) {
				if r.Region != nil {
					t.Fatalf("region = %s", jsonOf(t, r.Region))
				}
			}},
		{name: "empty author is null", in: `{"body":"b","author":""}`, check: func(t *testing.T, r *ReviewAnnotation) {
			if r.Author != nil {
				t.Fatalf("author %s", deref(r.Author))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxReviewAddInput](t, tc.in)
			r, err := AddReview(in, "api", nodes, testEnv())
			if tc.err != "" {
				wantErr(t, err, 400, tc.err)
				return
			}
			noErr(t, err)
			tc.check(t, r)
		})
	}
}

func TestUpdateReview(t *testing.T) {
	old := &ReviewAnnotation{ID: "r1", Kind: "comment", Body: "b", Severity: "info", Status: "open", AnchorType: "file",
		CreatedAt: "2026-01-01T00:00:00.000Z", UpdatedAt: "2026-01-01T00:00:00.000Z", Source: sp("browser")}
	before := jsonOf(t, old)
	r := UpdateReview(old, decode[messages.AxReviewUpdateInput](t, `{"status":"resolved","severity":"warning","kind":"finding","body":"new"}`), "codex", testEnv())
	unchanged(t, before, old)
	if r.Status != "resolved" || r.Severity != "warning" || r.Kind != "finding" || r.Body != "new" ||
		deref(r.Source) != "browser" || deref(r.UpdatedBy) != "codex" || r.UpdatedAt != ts0 {
		t.Fatalf("r = %s", jsonOf(t, r))
	}
	r = UpdateReview(old, decode[messages.AxReviewUpdateInput](t, `{"status":"closed","severity":"fatal","kind":"x"}`), "api", testEnv())
	if r.Status != "open" || r.Severity != "info" || r.Kind != "comment" || r.Body != "b" {
		t.Fatalf("invalid enums not ignored: %s", jsonOf(t, r))
	}
	if UpdateReview(nil, &messages.AxReviewUpdateInput{}, "api", testEnv()) != nil {
		t.Fatal("nil old must give nil")
	}
}

func TestMergePolicy(t *testing.T) {
	base := Policy{Tools: PolicyTools{Allowed: []string{"read"}, Excluded: []string{"rm"}, ApprovalRequired: []string{"deploy"}},
		Prompt: PolicyPrompt{SystemAppend: sp("be brief"), Mode: sp("concise")}}
	for _, tc := range []struct {
		name, in string
		old      Policy
		want     string
		field    string
	}{
		{name: "reference example", old: emptyPolicy(),
			in:   `{"tools":{"approvalRequired":["shell","deploy"]},"prompt":{"mode":"concise","systemAppend":""}}`,
			want: `{"tools":{"allowed":[],"excluded":[],"approvalRequired":["shell","deploy"]},"prompt":{"systemAppend":null,"mode":"concise"}}`},
		{name: "omitted keys kept", old: base, in: `{"tools":{"allowed":["write"]}}`,
			want: `{"tools":{"allowed":["write"],"excluded":["rm"],"approvalRequired":["deploy"]},"prompt":{"systemAppend":"be brief","mode":"concise"}}`},
		{name: "prompt alone keeps tools", old: base, in: `{"prompt":{"mode":null}}`,
			want: `{"tools":{"allowed":["read"],"excluded":["rm"],"approvalRequired":["deploy"]},"prompt":{"systemAppend":"be brief","mode":null}}`},
		{name: "null and [] clear", old: base, in: `{"tools":{"allowed":[],"excluded":null}}`,
			want: `{"tools":{"allowed":[],"excluded":[],"approvalRequired":["deploy"]},"prompt":{"systemAppend":"be brief","mode":"concise"}}`},
		{name: "non-object tools and prompt ignored", old: base, in: `{"tools":"x","prompt":[1]}`,
			want: `{"tools":{"allowed":["read"],"excluded":["rm"],"approvalRequired":["deploy"]},"prompt":{"systemAppend":"be brief","mode":"concise"}}`},
		{name: "non-string prompt value clears", old: base, in: `{"prompt":{"systemAppend":5}}`,
			want: `{"tools":{"allowed":["read"],"excluded":["rm"],"approvalRequired":["deploy"]},"prompt":{"systemAppend":null,"mode":"concise"}}`},
		{name: "zero old renders lists", old: Policy{}, in: `{}`,
			want: `{"tools":{"allowed":[],"excluded":[],"approvalRequired":[]},"prompt":{"systemAppend":null,"mode":null}}`},
		{name: "malformed list is a 400", old: base, in: `{"tools":{"approvalRequired":["x"],"excluded":"notarray"}}`, field: "tools.excluded"},
		{name: "non-string entries are a 400", old: base, in: `{"tools":{"allowed":["a",3]}}`, field: "tools.allowed"},
		{name: "empty string list is a 400", old: base, in: `{"tools":{"approvalRequired":""}}`, field: "tools.approvalRequired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxPolicyInput](t, tc.in)
			before := jsonOf(t, tc.old)
			p, err := MergePolicy(tc.old, in)
			unchanged(t, before, tc.old)
			if tc.field != "" {
				wantErr(t, err, 400, "policy "+tc.field+" must be an array of strings.")
				if err.Code != messages.CodeInvalidInput || err.Extra["field"] != tc.field {
					t.Fatalf("code %s extra %v", err.Code, err.Extra)
				}
				if jsonOf(t, p) != before {
					t.Fatalf("a refused merge must return the old policy, got %s", jsonOf(t, p))
				}
				return
			}
			noErr(t, err)
			if got := jsonOf(t, p); got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestReportHost(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"reference example", `{"host":"copilot","canvas":true,"hooks":"yes","sessionMessaging":true,"raw":{"v":1}}`,
			`{"host":"copilot","canvas":true,"hooks":false,"tools":false,"sessionMessaging":true,"permissions":false,"files":false,"uiPrompts":false,"reportedAt":"` + ts0 + `","raw":{"v":1}}`},
		{"top-level and nested merged, nested wins", `{"host":"codex","capabilities":{"files":true,"uiPrompts":true,"canvas":false},"canvas":true,"tools":true}`,
			`{"host":"codex","canvas":false,"hooks":false,"tools":true,"sessionMessaging":false,"permissions":false,"files":true,"uiPrompts":true,"reportedAt":"` + ts0 + `","raw":null}`},
		{"empty report", `{}`,
			`{"host":null,"canvas":false,"hooks":false,"tools":false,"sessionMessaging":false,"permissions":false,"files":false,"uiPrompts":false,"reportedAt":"` + ts0 + `","raw":null}`},
		{"non-string host, non-object raw, truthy non-booleans", `{"host":5,"raw":[1],"permissions":1,"hooks":"true","capabilities":{"files":"true"}}`,
			`{"host":null,"canvas":false,"hooks":false,"tools":false,"sessionMessaging":false,"permissions":false,"files":false,"uiPrompts":false,"reportedAt":"` + ts0 + `","raw":null}`},
		{"empty host is null", `{"host":"","permissions":true}`,
			`{"host":null,"canvas":false,"hooks":false,"tools":false,"sessionMessaging":false,"permissions":true,"files":false,"uiPrompts":false,"reportedAt":"` + ts0 + `","raw":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxHostInput](t, tc.in)
			before := jsonOf(t, in)
			h := ReportHost(in, testEnv())
			unchanged(t, before, in)
			if got := jsonOf(t, h); got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	if h := ReportHost(nil, testEnv()); h.Host != nil || h.Canvas || h.ReportedAt != ts0 {
		t.Fatalf("nil report = %+v", h)
	}
}
