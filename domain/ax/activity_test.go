package ax

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestPlanActivityErrors(t *testing.T) {
	kindErr := "activity requires a valid 'kind': one of tool-start, tool-result, failure, error, session-start, session-end, command, note."
	for _, tc := range []struct{ in, err string }{
		{`{"title":"t"}`, kindErr},
		{`{"kind":"crash","title":"t"}`, kindErr},
		{`{"kind":"Failure","title":"t"}`, kindErr},
		{`{"kind":"error"}`, "activity requires a title."},
		{`{"kind":"error","title":"  "}`, "activity requires a title."},
		{`{"title":""}`, kindErr}, // kind is checked first
	} {
		_, err := PlanActivity(decode[messages.AxActivityInput](t, tc.in), stdNodes())
		wantErr(t, err, 400, tc.err)
	}
	_, err := PlanActivity(nil, nil)
	wantErr(t, err, 400, kindErr)
}

func TestPlanActivityEventKinds(t *testing.T) {
	for kind, want := range map[string]string{
		"tool-start": "tool-start", "tool-result": "tool-result", "failure": "failure", "error": "failure",
		"session-start": "assistant-message", "session-end": "assistant-message", "command": "command", "note": "assistant-message",
	} {
		p, err := PlanActivity(decode[messages.AxActivityInput](t, `{"kind":"`+kind+`","title":"t"}`), nil)
		noErr(t, err)
		if deref(p.Event.Kind) != want || p.Event.Data["activityKind"] != kind {
			t.Errorf("%s -> %s (data %v)", kind, deref(p.Event.Kind), p.Event.Data)
		}
		// Every mapped kind is a valid event kind.
		if _, err := NewEvent(p.Event, EventKinds, "api", testEnv()); err != nil {
			t.Errorf("%s: planned event refused: %v", kind, err)
		}
	}
}

func TestPlanActivity(t *testing.T) {
	nodes := stdNodes()
	type want struct {
		event, work, evidence, review string // JSON of each planned input; "" = not produced
	}
	for _, tc := range []struct {
		name, in string
		want     want
	}{
		{name: "reference failure example",
			in: `{"kind":"error","title":"tsc failed","summary":"TS2345 in x.ts","ref":"src/x.ts","nodeIds":["ghost","F"],"data":{"exitCode":2,"activityKind":"spoof"},"source":"copilot"}`,
			want: want{
				event:    `{"kind":"failure","summary":"tsc failed","detail":"TS2345 in x.ts","nodeIds":["ghost","F"],"data":{"activityKind":"error","exitCode":2,"ref":"src/x.ts"},"source":"copilot"}`,
				work:     `{"title":"tsc failed","status":"blocked","detail":"TS2345 in x.ts","nodeIds":["ghost","F"],"source":"copilot"}`,
				evidence: `{"kind":"logs","title":"tsc failed","body":"TS2345 in x.ts","ref":"src/x.ts","nodeIds":["ghost","F"],"data":null,"source":"copilot"}`,
				review:   `{"body":"TS2345 in x.ts","kind":"finding","severity":"error","anchorType":null,"nodeId":"F","file":"src/x.ts","region":null,"author":null,"source":"copilot"}`,
			}},
		{name: "reference overrides example",
			in: `{"kind":"tool-result","title":"lint failed","outcome":"failure","ref":"src/y.ts","reactions":{"workItem":{"status":"todo","detail":"fix lint"},"evidence":false,"review":{"severity":"warning","kind":"comment"}}}`,
			want: want{
				event:  `{"kind":"tool-result","summary":"lint failed","detail":null,"nodeIds":[],"data":{"activityKind":"tool-result","outcome":"failure","ref":"src/y.ts"},"source":""}`,
				work:   `{"title":"lint failed","status":"todo","detail":"fix lint","nodeIds":[],"source":""}`,
				review: `{"body":"lint failed","kind":"comment","severity":"warning","anchorType":null,"nodeId":null,"file":"src/y.ts","region":null,"author":null,"source":""}`,
			}},
		{name: "session start has no reactions",
			in:   `{"kind":"session-start","title":"session began"}`,
			want: want{event: `{"kind":"assistant-message","summary":"session began","detail":null,"nodeIds":[],"data":{"activityKind":"session-start"},"source":""}`}},
		{name: "bad anchor skips the review only",
			in:   `{"kind":"failure","title":"bad anchor","reactions":{"review":{"anchorType":"node"},"workItem":false,"evidence":false}}`,
			want: want{event: `{"kind":"failure","summary":"bad anchor","detail":null,"nodeIds":[],"data":{"activityKind":"failure"},"source":""}`}},
		{name: "review override node that is not live is skipped",
			in:   `{"kind":"failure","title":"t","nodeIds":["F"],"reactions":{"review":{"nodeId":"ghost"},"workItem":false,"evidence":false}}`,
			want: want{event: `{"kind":"failure","summary":"t","detail":null,"nodeIds":["F"],"data":{"activityKind":"failure"},"source":""}`}},
		{name: "tool success gives evidence only",
			in: `{"kind":"tool-result","title":"tests passed","summary":"42 ok","outcome":"success","nodeIds":["S"]}`,
			want: want{
				event:    `{"kind":"tool-result","summary":"tests passed","detail":"42 ok","nodeIds":["S"],"data":{"activityKind":"tool-result","outcome":"success"},"source":""}`,
				evidence: `{"kind":"tool-result","title":"tests passed","body":"42 ok","ref":null,"nodeIds":["S"],"data":null,"source":""}`,
			}},
		{name: "invalid outcome and override fields dropped; true leaves defaults",
			in: `{"kind":"failure","title":"t","outcome":"meh","nodeIds":["S","N"],"reactions":{"workItem":{"status":"in_progress","detail":5},"evidence":{"kind":"video","body":"b"},"review":true}}`,
			want: want{
				event:    `{"kind":"failure","summary":"t","detail":null,"nodeIds":["S","N"],"data":{"activityKind":"failure"},"source":""}`,
				work:     `{"title":"t","status":"blocked","detail":"t","nodeIds":["S","N"],"source":""}`,
				evidence: `{"kind":"logs","title":"t","body":"b","ref":null,"nodeIds":["S","N"],"data":null,"source":""}`,
				review:   `{"body":"t","kind":"finding","severity":"error","anchorType":null,"nodeId":"S","file":null,"region":null,"author":null,"source":""}`,
			}},
		{name: "override objects force reactions on",
			in: `{"kind":"note","title":"n","summary":"s","reactions":{"workItem":{},"evidence":{},"review":{"anchorType":"file"}}}`,
			want: want{
				event:    `{"kind":"assistant-message","summary":"n","detail":"s","nodeIds":[],"data":{"activityKind":"note"},"source":""}`,
				work:     `{"title":"n","status":"blocked","detail":"s","nodeIds":[],"source":""}`,
				evidence: `{"kind":"logs","title":"n","body":"s","ref":null,"nodeIds":[],"data":null,"source":""}`,
				review:   `{"body":"s","kind":"finding","severity":"error","anchorType":"file","nodeId":null,"file":null,"region":null,"author":null,"source":""}`,
			}},
		{name: "caller outcome and ref survive when not supplied",
			in:   `{"kind":"command","title":"c","data":{"outcome":"x","ref":"y"},"ref":""}`,
			want: want{event: `{"kind":"command","summary":"c","detail":null,"nodeIds":[],"data":{"activityKind":"command","outcome":"x","ref":"y"},"source":""}`}},
		{name: "blank summary falls back to the title for reactions",
			in: `{"kind":"error","title":"boom","summary":"","reactions":{"evidence":false,"workItem":false}}`,
			want: want{
				event:  `{"kind":"failure","summary":"boom","detail":"","nodeIds":[],"data":{"activityKind":"error"},"source":""}`,
				review: `{"body":"boom","kind":"finding","severity":"error","anchorType":null,"nodeId":null,"file":null,"region":null,"author":null,"source":""}`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxActivityInput](t, tc.in)
			before := jsonOf(t, in)
			p, err := PlanActivity(in, nodes)
			unchanged(t, before, in)
			noErr(t, err)
			check := func(part string, got any, want string) {
				t.Helper()
				g := ""
				switch v := got.(type) {
				case *messages.AxEventInput:
					if v != nil {
						g = jsonOf(t, v)
					}
				case *messages.AxWorkCreateInput:
					if v != nil {
						g = jsonOf(t, v)
					}
				case *messages.AxEvidenceInput:
					if v != nil {
						g = jsonOf(t, v)
					}
				case *messages.AxReviewAddInput:
					if v != nil {
						g = jsonOf(t, v)
					}
				}
				if g != want {
					t.Errorf("%s\n got %s\nwant %s", part, g, want)
				}
			}
			check("event", p.Event, tc.want.event)
			check("workItem", p.WorkItem, tc.want.work)
			check("evidence", p.Evidence, tc.want.evidence)
			check("review", p.Review, tc.want.review)
		})
	}
}

// TestPlanActivityFeedsTheCore checks that every planned input is accepted
// by the function the actor hands it to.
func TestPlanActivityFeedsTheCore(t *testing.T) {
	nodes := stdNodes()
	in := decode[messages.AxActivityInput](t, `{"kind":"error","title":"tsc failed","summary":"TS2345","ref":"src/x.ts","nodeIds":["ghost","F"],"source":"copilot"}`)
	p, err := PlanActivity(in, nodes)
	noErr(t, err)
	src := NormalizeSource(in.Source, "api")
	env := testEnv()
	e, err := NewEvent(p.Event, EventKinds, src, env)
	noErr(t, err)
	w, err := CreateWork(p.WorkItem, src, nodes, env)
	noErr(t, err)
	ev, err := NewEvidence(p.Evidence, src, env)
	noErr(t, err)
	r, err := AddReview(p.Review, src, nodes, env)
	noErr(t, err)
	if !eqStrings(e.NodeIDs, []string{"ghost", "F"}) || !eqStrings(w.NodeIDs, []string{"F"}) || w.Status != "blocked" ||
		!eqStrings(ev.NodeIDs, []string{"ghost", "F"}) || r.AnchorType != "node" || deref(r.NodeID) != "F" || r.File != nil ||
		deref(e.Source) != "copilot" || deref(r.Source) != "copilot" {
		t.Fatalf("event %s\nwork %s\nevidence %s\nreview %s", jsonOf(t, e), jsonOf(t, w), jsonOf(t, ev), jsonOf(t, r))
	}
}
