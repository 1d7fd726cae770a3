package ax

import (
	"encoding/json"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestNewEvent(t *testing.T) {
	const errText = "event requires kind and summary."
	for _, tc := range []struct {
		name, in string
		kinds    []string
		err      bool
		want     string
	}{
		{name: "missing kind", in: `{"summary":"x"}`, kinds: EventKinds, err: true},
		{name: "missing summary", in: `{"kind":"note"}`, kinds: EventKinds, err: true},
		{name: "unknown kind", in: `{"kind":"gossip","summary":"x"}`, kinds: EventKinds, err: true},
		{name: "note refused for interaction kinds", in: `{"kind":"note","summary":"x"}`, kinds: InteractionEventKinds, err: true},
		{name: "command refused for interaction kinds", in: `{"kind":"command","summary":"x"}`, kinds: InteractionEventKinds, err: true},
		{name: "empty summary accepted, dangling ids kept and deduped", kinds: EventKinds,
			in: `{"kind":"note","summary":"","detail":"","nodeIds":["ghost","N","ghost",7],"data":{"a":1}}`,
			want: `{"id":"` + id("evt", 1) + `","seq":0,"kind":"note","summary":"","detail":null,"nodeIds":["ghost","N"],` +
				`"data":{"a":1},"createdAt":"` + ts0 + `","source":"sdk"}`},
		{name: "minimal", kinds: InteractionEventKinds, in: `{"kind":"tool-start","summary":"go","detail":"d"}`,
			want: `{"id":"` + id("evt", 1) + `","seq":0,"kind":"tool-start","summary":"go","detail":"d","nodeIds":[],` +
				`"data":null,"createdAt":"` + ts0 + `","source":"sdk"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxEventInput](t, tc.in)
			before := jsonOf(t, in)
			e, err := NewEvent(in, tc.kinds, "sdk", testEnv())
			unchanged(t, before, in)
			if tc.err {
				wantErr(t, err, 400, errText)
				return
			}
			noErr(t, err)
			if got := jsonOf(t, e); got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	// The stored data is a copy.
	in := decode[messages.AxEventInput](t, `{"kind":"note","summary":"s","data":{"a":1}}`)
	e, _ := NewEvent(in, EventKinds, "api", testEnv())
	e.Data["a"] = 2.0
	if in.Data["a"] != 1.0 {
		t.Fatal("event data aliases the input")
	}
}

func TestNewEvidence(t *testing.T) {
	const errText = "evidence requires kind and title."
	for _, in := range []string{`{"title":"t"}`, `{"kind":"logs"}`, `{"kind":"logs","title":"  "}`, `{"kind":"video","title":"t"}`} {
		_, err := NewEvidence(decode[messages.AxEvidenceInput](t, in), "api", testEnv())
		wantErr(t, err, 400, errText)
	}
	e, err := NewEvidence(decode[messages.AxEvidenceInput](t,
		`{"kind":"test-output","title":"go test","body":"","ref":"","nodeIds":["ghost"],"data":{"exit":1}}`), "cli", testEnv())
	noErr(t, err)
	want := `{"id":"` + id("evd", 1) + `","seq":0,"kind":"test-output","title":"go test","body":"","ref":null,"nodeIds":["ghost"],` +
		`"data":{"exit":1},"createdAt":"` + ts0 + `","source":"cli"}`
	if got := jsonOf(t, e); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	e, _ = NewEvidence(decode[messages.AxEvidenceInput](t, `{"kind":"diff","title":"t","ref":"a.go"}`), "api", testEnv())
	if e.Body != nil || deref(e.Ref) != "a.go" {
		t.Fatalf("e = %s", jsonOf(t, e))
	}
}

func TestNewSteering(t *testing.T) {
	for _, in := range []string{`{}`, `{"message":""}`, `{"message":" \n "}`} {
		_, err := NewSteering(decode[messages.AxSteerInput](t, in), "api", testEnv())
		wantErr(t, err, 400, "steer requires a non-empty message.")
	}
	s, err := NewSteering(decode[messages.AxSteerInput](t, `{"message":" Focus on the failing test "}`), "copilot", testEnv())
	noErr(t, err)
	want := `{"id":"` + id("steer", 1) + `","seq":0,"message":" Focus on the failing test ","delivered":false,"createdAt":"` + ts0 + `","source":"copilot"}`
	if got := jsonOf(t, s); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

func TestCommands(t *testing.T) {
	want := `[{"name":"pmx.plan","description":"Enter planning: outline the approach before executing."},` +
		`{"name":"pmx.execute","description":"Proceed from plan to execution."},` +
		`{"name":"pmx.promote-context","description":"Promote focused/pinned nodes into durable agent context."},` +
		`{"name":"pmx.summarize","description":"Summarize the current canvas/work state."},` +
		`{"name":"pmx.review","description":"Start a review pass over the focused nodes."}]`
	c := Commands()
	if got := jsonOf(t, c); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	c[0].Name = "changed"
	if Commands()[0].Name != "pmx.plan" {
		t.Fatal("Commands returns the shared list")
	}
}

func TestCommandEvent(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cmd, args  any
		err, want  string
		wantSource string
	}{
		{name: "non-string name", cmd: 5.0, err: "command requires a name."},
		{name: "missing name", cmd: nil, err: "command requires a name."},
		{name: "unknown", cmd: "rm -rf", err: `Unknown command "rm -rf".`},
		{name: "empty name is unknown", cmd: "", err: `Unknown command "".`},
		{name: "case-sensitive", cmd: "PMX.PLAN", err: `Unknown command "PMX.PLAN".`},
		{name: "reference example", cmd: "pmx.review", args: map[string]any{"depth": 2.0},
			want: `{"id":"` + id("evt", 1) + `","seq":0,"kind":"command","summary":"pmx.review","detail":"Start a review pass over the focused nodes.",` +
				`"nodeIds":[],"data":{"args":{"depth":2},"command":"pmx.review"},"createdAt":"` + ts0 + `","source":"codex"}`},
		{name: "empty args object kept", cmd: "pmx.plan", args: map[string]any{},
			want: `{"id":"` + id("evt", 1) + `","seq":0,"kind":"command","summary":"pmx.plan","detail":"Enter planning: outline the approach before executing.",` +
				`"nodeIds":[],"data":{"args":{},"command":"pmx.plan"},"createdAt":"` + ts0 + `","source":"codex"}`},
		{name: "non-object args dropped", cmd: "pmx.execute", args: []any{1.0},
			want: `{"id":"` + id("evt", 1) + `","seq":0,"kind":"command","summary":"pmx.execute","detail":"Proceed from plan to execution.",` +
				`"nodeIds":[],"data":{"command":"pmx.execute"},"createdAt":"` + ts0 + `","source":"codex"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := CommandEvent(tc.cmd, tc.args, "codex", testEnv())
			if tc.err != "" {
				wantErr(t, err, 400, tc.err)
				return
			}
			noErr(t, err)
			if got := jsonOf(t, e); got != tc.want {
				t.Fatalf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseLimit(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want int
	}{
		{nil, 50}, {"", 50}, {"abc", 50}, {"0", 50}, {0.0, 50}, {-3.0, 50}, {"-1", 50},
		{2.7, 2}, {"2.7", 2}, {" 12 ", 12}, {"500", 200}, {500.0, 200}, {200.0, 200}, {199.9, 199},
		{1.0, 1}, {0.5, 50}, {"1e2", 100}, {"Infinity", 50}, {"NaN", 50}, {"inf", 50}, {"0x10", 16},
		{true, 1}, {false, 50}, {json.Number("7"), 7}, {7, 7}, {[]any{5.0}, 50}, {map[string]any{}, 50},
	} {
		if got := ParseLimit(tc.in); got != tc.want {
			t.Errorf("ParseLimit(%#v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestPendingActivity(t *testing.T) {
	b := EmptyBoard()
	b.WorkItems = []*WorkItem{
		{ID: "w-todo", Title: "Todo", Status: "todo", NodeIDs: []string{"N"}, Source: sp("api")},
		{ID: "w-done", Title: "Done", Status: "done", NodeIDs: []string{}, Source: sp("api")},
		{ID: "w-mcp", Title: "Mine", Status: "in-progress", NodeIDs: []string{}, Source: sp("mcp")},
		{ID: "w-null", Title: "Anon", Status: "blocked", NodeIDs: nil, Source: nil},
		{ID: "w-cancel", Title: "Cancelled", Status: "cancelled", Source: sp("browser")},
	}
	g := EmptyGates()
	g.Approvals = []*ApprovalGate{
		{ID: "a-pending", Title: "Deploy", Status: "pending", NodeIDs: []string{}, Source: sp("copilot")},
		{ID: "a-done", Title: "Old", Status: "approved", Source: sp("api")},
	}
	g.Elicitations = []*Elicitation{
		{ID: "e-pending", Prompt: "Who?", Status: "pending", NodeIDs: []string{}, Source: sp("mcp")},
		{ID: "e-done", Prompt: "Done?", Status: "answered"},
	}
	g.Modes = []*ModeRequest{
		{ID: "m-reason", Mode: "plan", Reason: sp("first think"), Status: "pending", Source: sp("agent")},
		{ID: "m-bare", Mode: "execute", Status: "pending", Source: sp("browser")},
		{ID: "m-done", Mode: "plan", Status: "rejected"},
	}
	before, beforeG := jsonOf(t, b), jsonOf(t, g)

	all := PendingActivity(b, g, "")
	unchanged(t, before, b)
	unchanged(t, beforeG, g)
	want := `[{"kind":"work-item","id":"w-todo","title":"Todo","status":"todo","nodeIds":["N"],"source":"api"},` +
		`{"kind":"work-item","id":"w-mcp","title":"Mine","status":"in-progress","nodeIds":[],"source":"mcp"},` +
		`{"kind":"work-item","id":"w-null","title":"Anon","status":"blocked","nodeIds":[],"source":null},` +
		`{"kind":"approval-gate","id":"a-pending","title":"Deploy","status":"pending","nodeIds":[],"source":"copilot"},` +
		`{"kind":"elicitation","id":"e-pending","title":"Who?","status":"pending","nodeIds":[],"source":"mcp"},` +
		`{"kind":"mode-request","id":"m-reason","title":"plan: first think","status":"pending","nodeIds":[],"source":"agent"},` +
		`{"kind":"mode-request","id":"m-bare","title":"mode: execute","status":"pending","nodeIds":[],"source":"browser"}]`
	if got := jsonOf(t, all); got != want {
		t.Fatalf("unfiltered\n got %s\nwant %s", got, want)
	}

	ids := func(items []PendingItem) []string {
		out := []string{}
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}
	for _, tc := range []struct {
		consumer string
		want     []string
	}{
		{"mcp", []string{"w-todo", "w-null", "a-pending", "m-reason", "m-bare"}},
		{"copilot", []string{"w-todo", "w-mcp", "w-null", "e-pending", "m-reason", "m-bare"}},
		{"browser", []string{"w-todo", "w-mcp", "w-null", "a-pending", "e-pending", "m-reason"}},
		{"somebody", []string{"w-todo", "w-mcp", "w-null", "a-pending", "e-pending", "m-reason", "m-bare"}},
	} {
		if got := ids(PendingActivity(b, g, tc.consumer)); !eqStrings(got, tc.want) {
			t.Errorf("consumer %q: got %v, want %v", tc.consumer, got, tc.want)
		}
	}

	if got := PendingActivity(EmptyBoard(), EmptyGates(), ""); got == nil || len(got) != 0 {
		t.Fatalf("empty = %#v", got)
	}
	// Rows copy the node ids.
	all[0].NodeIDs[0] = "changed"
	if b.WorkItems[0].NodeIDs[0] != "N" {
		t.Fatal("pending row aliases the work item's nodeIds")
	}
}
