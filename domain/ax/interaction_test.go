package ax

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestEffectiveCapabilitiesDefaults(t *testing.T) {
	for _, tc := range []struct {
		typ      string
		enabled  bool
		allowed  string
		delivery string
	}{
		{"markdown", true, "steer work.create evidence.add command.invoke event.record", "notify-agent"},
		{"context", true, "focus.set steer evidence.add command.invoke event.record", "notify-agent"},
		{"status", true, "work.create work.update approval.request mode.request event.record", "notify-agent"},
		{"file", true, "evidence.add review.add focus.set event.record", "record-only"},
		{"json-render", true, "work.create work.update evidence.add elicitation.request event.record", "record-only"},
		{"graph", true, "evidence.add focus.set event.record", "record-only"},
		{"ledger", true, "evidence.add event.record", "record-only"},
		{"trace", true, "evidence.add event.record", "record-only"},
		{"image", true, "evidence.add review.add", "record-only"},
		{"webpage", true, "evidence.add review.add focus.set event.record", "record-only"},
		{"group", true, "focus.set work.create command.invoke event.record", "record-only"},
		{"html", false, "work.create work.update steer approval.request review.add evidence.add focus.set elicitation.request mode.request command.invoke event.record", "notify-agent"},
		{"mcp-app", false, "event.record evidence.add work.create work.update focus.set elicitation.request", "record-only"},
		{"prompt", false, "event.record", "record-only"},
		{"response", false, "event.record", "record-only"},
		{"diagram", false, "", "record-only"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			c := EffectiveCapabilities(&canvas.Node{ID: "x", Type: tc.typ})
			want := []string{}
			if tc.allowed != "" {
				for _, a := range strings.Fields(tc.allowed) {
					want = append(want, "ax."+a)
				}
			}
			if c.Enabled != tc.enabled || !eqStrings(c.Allowed, want) || c.Delivery != tc.delivery ||
				c.RequiresApproval == nil || len(c.RequiresApproval) != 0 || c.Allowed == nil {
				t.Fatalf("caps = %+v", c)
			}
			if slicesContain(c.Allowed, "ax.approval.resolve") {
				t.Fatal("no ceiling contains ax.approval.resolve")
			}
		})
	}
	if c := EffectiveCapabilities(nil); c.Enabled || len(c.Allowed) != 0 || c.Delivery != "record-only" {
		t.Fatalf("nil node caps = %+v", c)
	}
	// The defaults are not shared with callers.
	c := EffectiveCapabilities(&canvas.Node{Type: "markdown"})
	c.Allowed[0] = "changed"
	if EffectiveCapabilities(&canvas.Node{Type: "markdown"}).Allowed[0] != "ax.steer" {
		t.Fatal("capabilities alias the defaults")
	}
}

func slicesContain(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestEffectiveCapabilitiesOverrides(t *testing.T) {
	for _, tc := range []struct {
		name, typ string
		override  any
		enabled   bool
		allowed   []string
		approval  []string
		delivery  string
	}{
		{"html opt-in", "html", map[string]any{"enabled": true, "allowed": []any{"ax.work.create", "ax.steer"}},
			true, []string{"ax.work.create", "ax.steer"}, []string{}, "notify-agent"},
		{"enable keeps ceiling", "mcp-app", map[string]any{"enabled": true},
			true, []string{"ax.event.record", "ax.evidence.add", "ax.work.create", "ax.work.update", "ax.focus.set", "ax.elicitation.request"}, []string{}, "record-only"},
		{"cannot escalate beyond ceiling", "file", map[string]any{"allowed": []any{"ax.steer", "ax.focus.set", "ax.approval.resolve"}},
			true, []string{"ax.focus.set"}, []string{}, "record-only"},
		{"disable", "markdown", map[string]any{"enabled": false},
			false, []string{"ax.steer", "ax.work.create", "ax.evidence.add", "ax.command.invoke", "ax.event.record"}, []string{}, "notify-agent"},
		{"unknown and non-string entries dropped, deduped", "status", map[string]any{"allowed": []any{"ax.nope", 3.0, "ax.mode.request", "ax.mode.request"}},
			true, []string{"ax.mode.request"}, []string{}, "notify-agent"},
		{"requiresApproval narrowed to allowed", "html", map[string]any{"enabled": true, "allowed": []any{"ax.steer", "ax.work.create"},
			"requiresApproval": []any{"ax.steer", "ax.mode.request", "bogus"}, "delivery": "send-to-agent"},
			true, []string{"ax.steer", "ax.work.create"}, []string{"ax.steer"}, "send-to-agent"},
		{"requiresApproval against the ceiling", "context", map[string]any{"requiresApproval": []any{"ax.command.invoke"}},
			true, []string{"ax.focus.set", "ax.steer", "ax.evidence.add", "ax.command.invoke", "ax.event.record"}, []string{"ax.command.invoke"}, "notify-agent"},
		{"Go string slices accepted", "html", map[string]any{"enabled": true, "allowed": []string{"ax.focus.set"}},
			true, []string{"ax.focus.set"}, []string{}, "notify-agent"},
		{"empty allowed disables everything", "markdown", map[string]any{"allowed": []any{}},
			true, []string{}, []string{}, "notify-agent"},
		{"wrong field types ignored", "html", map[string]any{"enabled": "yes", "allowed": "ax.steer", "delivery": "loud"},
			false, []string{"ax.work.create", "ax.work.update", "ax.steer", "ax.approval.request", "ax.review.add", "ax.evidence.add",
				"ax.focus.set", "ax.elicitation.request", "ax.mode.request", "ax.command.invoke", "ax.event.record"}, []string{}, "notify-agent"},
		{"non-object override ignored", "prompt", []any{"enabled"}, false, []string{"ax.event.record"}, []string{}, "record-only"},
		{"unknown type stays empty", "diagram", map[string]any{"enabled": true, "allowed": []any{"ax.steer"}}, true, []string{}, []string{}, "record-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := map[string]any{"axCapabilities": tc.override}
			n := &canvas.Node{ID: "x", Type: tc.typ, Data: data}
			before := jsonOf(t, data)
			c := EffectiveCapabilities(n)
			unchanged(t, before, data)
			if c.Enabled != tc.enabled || !eqStrings(c.Allowed, tc.allowed) || !eqStrings(c.RequiresApproval, tc.approval) || c.Delivery != tc.delivery {
				t.Fatalf("caps = %+v", c)
			}
		})
	}
}

// parse decodes and parses an envelope that must be valid.
func parse(t testing.TB, js string) *Interaction {
	t.Helper()
	it, rej := ParseInteraction(decode[messages.AxInteractionInput](t, js))
	if rej != nil {
		t.Fatalf("rejected %s: %+v", js, rej)
	}
	return it
}

func TestParseInteraction(t *testing.T) {
	it := parse(t, `{"type":"ax.work.create","sourceNodeId":"S","sourceSurface":"native-node","payload":{"title":"x"},"source":"browser",
		"actor":{"kind":"human","id":"u1","displayName":"U"},"correlationId":"c-1","metadata":{"k":1},"extra":true}`)
	if it.Type != "ax.work.create" || it.SourceNodeID != "S" || it.SourceSurface != "native-node" || it.Scoped ||
		it.Source != "browser" || it.Payload["title"] != "x" {
		t.Fatalf("it = %+v", it)
	}
	it = parse(t, `{"type":"ax.steer","sourceNodeId":"M"}`)
	if it.Payload == nil || len(it.Payload) != 0 || it.SourceSurface != "" || it.Scoped {
		t.Fatalf("absent payload/surface: %+v", it)
	}
	for surface, scoped := range map[string]bool{"html-node": true, "mcp-app": true, "json-render": true, "native-node": false, "adapter": false, "workbench": false} {
		it := parse(t, `{"type":"ax.steer","sourceNodeId":"M","sourceSurface":"`+surface+`"}`)
		if it.Scoped != scoped || it.SourceSurface != surface {
			t.Errorf("surface %s: scoped %v", surface, it.Scoped)
		}
	}

	typeErr := `type: Invalid option: expected one of "ax.event.record"|"ax.steer"|"ax.work.create"|"ax.work.update"|"ax.evidence.add"|` +
		`"ax.approval.request"|"ax.approval.resolve"|"ax.review.add"|"ax.focus.set"|"ax.command.invoke"|"ax.elicitation.request"|"ax.mode.request"|` +
		`"ax.elicitation.respond"|"ax.mode.resolve"` // the reference's 12, then ours
	for _, tc := range []struct {
		name, in, err, typ, src string
	}{
		{"reference example", `{"type":"ax.nope","payload":[]}`,
			typeErr + `; sourceNodeId: Invalid input: expected string, received undefined; payload: Invalid input: expected record, received array`,
			"ax.nope", ""},
		{"empty body", `{}`, typeErr + `; sourceNodeId: Invalid input: expected string, received undefined`, "unknown", ""},
		{"non-string type", `{"type":5,"sourceNodeId":"S"}`, typeErr, "unknown", "S"},
		{"empty sourceNodeId", `{"type":"ax.steer","sourceNodeId":""}`, `sourceNodeId: sourceNodeId is required`, "ax.steer", ""},
		{"numeric sourceNodeId", `{"type":"ax.steer","sourceNodeId":12}`, `sourceNodeId: Invalid input: expected string, received number`, "ax.steer", ""},
		{"bad surface", `{"type":"ax.steer","sourceNodeId":"S","sourceSurface":"iframe"}`,
			`sourceSurface: Invalid option: expected one of "native-node"|"json-render"|"html-node"|"mcp-app"|"adapter"|"workbench"`, "ax.steer", "S"},
		{"actor not an object", `{"type":"ax.steer","sourceNodeId":"S","actor":"me"}`, `actor: Invalid input: expected object, received string`, "ax.steer", "S"},
		{"actor kind and id", `{"type":"ax.steer","sourceNodeId":"S","actor":{"kind":"robot","id":5}}`,
			`actor.kind: Invalid option: expected one of "human"|"agent"|"system"; actor.id: Invalid input: expected string, received number`, "ax.steer", "S"},
		{"null payload", `{"type":"ax.steer","sourceNodeId":"S","payload":null}`, `payload: Invalid input: expected record, received null`, "ax.steer", "S"},
		{"string payload", `{"type":"ax.steer","sourceNodeId":"S","payload":"hi"}`, `payload: Invalid input: expected record, received string`, "ax.steer", "S"},
		{"correlation and metadata", `{"type":"ax.steer","sourceNodeId":"S","correlationId":1,"metadata":[1]}`,
			`correlationId: Invalid input: expected string, received number; metadata: Invalid input: expected record, received array`, "ax.steer", "S"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := decode[messages.AxInteractionInput](t, tc.in)
			before := jsonOf(t, in)
			it, rej := ParseInteraction(in)
			unchanged(t, before, in)
			if it != nil || rej == nil {
				t.Fatalf("accepted: %+v", it)
			}
			if rej.Status != 400 || rej.Code != "invalid-envelope" || rej.Error != tc.err || rej.Type != tc.typ || rej.SourceNodeID != tc.src {
				t.Fatalf("rejection = %+v\nwant error %s", rej, tc.err)
			}
		})
	}
	if _, rej := ParseInteraction(nil); rej == nil || rej.Code != "invalid-envelope" || rej.Type != "unknown" {
		t.Fatalf("nil input: %+v", rej)
	}
}

func interactionNodes() *canvas.State {
	return canvasOf(
		testNode{id: "S", typ: "status"},
		testNode{id: "F", typ: "file"},
		testNode{id: "M", typ: "markdown"},
		testNode{id: "C", typ: "context"},
		testNode{id: "G", typ: "group"},
		testNode{id: "J", typ: "json-render"},
		testNode{id: "H0", typ: "html"},
		testNode{id: "H1", typ: "html", data: map[string]any{"axCapabilities": map[string]any{"enabled": true, "requiresApproval": []any{"ax.steer"}}}},
		testNode{id: "A", typ: "mcp-app", data: map[string]any{"axCapabilities": map[string]any{"enabled": true}}},
	)
}

func TestCheckInteraction(t *testing.T) {
	nodes := interactionNodes()
	for _, tc := range []struct {
		name, in string
		status   int
		code     string
		err      string
	}{
		{"allowed", `{"type":"ax.work.create","sourceNodeId":"S"}`, 0, "", ""},
		{"unknown node", `{"type":"ax.work.create","sourceNodeId":"ghost"}`, 404, "unknown-node", `Source node "ghost" not found.`},
		{"html not opted in", `{"type":"ax.work.create","sourceNodeId":"H0"}`, 403, "ax-disabled", `AX interactions are not enabled for node "H0".`},
		{"file cannot steer", `{"type":"ax.steer","sourceNodeId":"F"}`, 403, "not-allowed", `Node type "file" cannot emit "ax.steer".`},
		{"approval.resolve is in no ceiling", `{"type":"ax.approval.resolve","sourceNodeId":"H1"}`, 403, "not-allowed", `Node type "html" cannot emit "ax.approval.resolve".`},
		{"requires approval fails closed", `{"type":"ax.steer","sourceNodeId":"H1"}`, 403, "requires-approval", `"ax.steer" requires approval routing, which is not yet available.`},
		{"opted-in html", `{"type":"ax.work.create","sourceNodeId":"H1"}`, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := parse(t, tc.in)
			rej := CheckInteraction(it, nodes)
			if tc.code == "" {
				if rej != nil {
					t.Fatalf("rejected: %+v", rej)
				}
				return
			}
			if rej == nil || rej.Status != tc.status || rej.Code != tc.code || rej.Error != tc.err || rej.Type != it.Type || rej.SourceNodeID != it.SourceNodeID {
				t.Fatalf("rejection = %+v", rej)
			}
		})
	}
	if rej := CheckInteraction(parse(t, `{"type":"ax.steer","sourceNodeId":"M"}`), nil); rej == nil || rej.Code != "unknown-node" {
		t.Fatalf("nil canvas: %+v", rej)
	}
}

func TestInteractionAction(t *testing.T) {
	nodes := interactionNodes()
	for _, tc := range []struct {
		name, in string
		op       string
		input    string // JSON of the action input
	}{
		{"event.record trusted default targets", `{"type":"ax.event.record","sourceNodeId":"S","source":"browser","payload":{"kind":"failure","summary":"x","detail":null,"data":{"a":1}}}`,
			"ax.event.record", `{"kind":"failure","summary":"x","detail":null,"nodeIds":["S"],"data":{"a":1},"source":"browser"}`},
		{"event.record trusted explicit targets", `{"type":"ax.event.record","sourceNodeId":"S","payload":{"kind":"prompt","summary":"x","nodeIds":["F","ghost"]}}`,
			"ax.event.record", `{"kind":"prompt","summary":"x","detail":null,"nodeIds":["F","ghost"],"data":null,"source":""}`},
		{"event.record scoped", `{"type":"ax.event.record","sourceNodeId":"A","sourceSurface":"mcp-app","payload":{"kind":"prompt","summary":"x","nodeIds":["F"]}}`,
			"ax.event.record", `{"kind":"prompt","summary":"x","detail":null,"nodeIds":["A"],"data":null,"source":""}`},
		{"steer", `{"type":"ax.steer","sourceNodeId":"M","payload":{"message":"hurry","nodeIds":["F"]}}`,
			"ax.steer", `{"message":"hurry","to":null,"source":""}`},
		{"work.create trusted", `{"type":"ax.work.create","sourceNodeId":"S","sourceSurface":"native-node","payload":{"title":"Fix build","nodeIds":["F"],"status":"blocked","detail":"d"}}`,
			"ax.work.create", `{"title":"Fix build","status":"blocked","detail":"d","nodeIds":["F"],"source":""}`},
		{"work.create trusted empty list kept", `{"type":"ax.work.create","sourceNodeId":"S","payload":{"title":"t","nodeIds":[]}}`,
			"ax.work.create", `{"title":"t","status":null,"detail":null,"nodeIds":[],"source":""}`},
		{"work.create scoped clamps", `{"type":"ax.work.create","sourceNodeId":"H1","sourceSurface":"html-node","payload":{"title":"from board","nodeIds":["S"]}}`,
			"ax.work.create", `{"title":"from board","status":null,"detail":null,"nodeIds":["H1"],"source":""}`},
		{"work.update trusted", `{"type":"ax.work.update","sourceNodeId":"S","payload":{"id":"w1","status":"done","detail":null,"nodeIds":["F"]}}`,
			"ax.work.update", `{"id":"w1","title":null,"status":"done","detail":null,"nodeIds":["F"],"source":""}`},
		{"work.update scoped clamps only given lists", `{"type":"ax.work.update","sourceNodeId":"J","sourceSurface":"json-render","payload":{"id":"w1","title":"","detail":"d"}}`,
			"ax.work.update", `{"id":"w1","title":"","status":null,"detail":"d","nodeIds":null,"source":""}`},
		{"work.update scoped list", `{"type":"ax.work.update","sourceNodeId":"J","sourceSurface":"json-render","payload":{"id":"w1","nodeIds":["S","F"]}}`,
			"ax.work.update", `{"id":"w1","title":null,"status":null,"detail":null,"nodeIds":["J"],"source":""}`},
		{"evidence.add", `{"type":"ax.evidence.add","sourceNodeId":"F","payload":{"kind":"diff","title":"t","body":"b","ref":null,"data":{"x":true}}}`,
			"ax.evidence.add", `{"kind":"diff","title":"t","body":"b","ref":null,"nodeIds":["F"],"data":{"x":true},"source":""}`},
		{"approval.request scoped", `{"type":"ax.approval.request","sourceNodeId":"H1","sourceSurface":"html-node","payload":{"title":"t","action":"deploy","nodeIds":["S"]}}`,
			"ax.approval.request", `{"title":"t","detail":null,"action":"deploy","nodeIds":["H1"],"source":""}`},
		{"approval.resolve", `{"type":"ax.approval.resolve","sourceNodeId":"S","payload":{"id":"a1","decision":"approved","resolution":"ok"}}`,
			"ax.approval.resolve", `{"id":"a1","decision":"approved","resolution":"ok","source":""}`},
		{"review.add scoped forces own node", `{"type":"ax.review.add","sourceNodeId":"H1","sourceSurface":"html-node","payload":{"body":"looks off","anchorType":"file","file":"a.ts","nodeId":"S"}}`,
			"ax.review.add", `{"body":"looks off","kind":null,"severity":null,"anchorType":"node","nodeId":"H1","file":null,"region":null,"author":null,"source":""}`},
		{"review.add trusted default node anchor", `{"type":"ax.review.add","sourceNodeId":"F","payload":{"body":"b","kind":"finding","severity":"warning","author":"me"}}`,
			"ax.review.add", `{"body":"b","kind":"finding","severity":"warning","anchorType":"node","nodeId":"F","file":null,"region":null,"author":"me","source":""}`},
		{"review.add trusted other node", `{"type":"ax.review.add","sourceNodeId":"F","payload":{"body":"b","nodeId":"S"}}`,
			"ax.review.add", `{"body":"b","kind":null,"severity":null,"anchorType":"node","nodeId":"S","file":null,"region":null,"author":null,"source":""}`},
		{"review.add trusted file anchor", `{"type":"ax.review.add","sourceNodeId":"F","payload":{"body":"b","anchorType":"file","file":"a.ts"}}`,
			"ax.review.add", `{"body":"b","kind":null,"severity":null,"anchorType":"file","nodeId":null,"file":"a.ts","region":null,"author":null,"source":""}`},
		{"focus.set trusted default", `{"type":"ax.focus.set","sourceNodeId":"C","payload":{}}`,
			"ax.focus.set", `{"nodeIds":["C"],"source":""}`},
		{"focus.set trusted clears", `{"type":"ax.focus.set","sourceNodeId":"C","payload":{"nodeIds":[]}}`,
			"ax.focus.set", `{"nodeIds":[],"source":""}`},
		{"focus.set scoped", `{"type":"ax.focus.set","sourceNodeId":"A","sourceSurface":"mcp-app","payload":{"nodeIds":[]}}`,
			"ax.focus.set", `{"nodeIds":["A"],"source":""}`},
		{"elicitation.request", `{"type":"ax.elicitation.request","sourceNodeId":"J","payload":{"prompt":"Who?","fields":["owner"]}}`,
			"ax.elicitation.request", `{"prompt":"Who?","fields":["owner"],"nodeIds":["J"],"source":""}`},
		{"mode.request", `{"type":"ax.mode.request","sourceNodeId":"S","payload":{"mode":"plan","reason":null,"nodeIds":["F","S"]}}`,
			"ax.mode.request", `{"mode":"plan","reason":null,"nodeIds":["F","S"],"source":""}`},
		{"command.invoke", `{"type":"ax.command.invoke","sourceNodeId":"G","payload":{"name":"pmx.review","args":{"depth":2}}}`,
			"ax.command.invoke", `{"name":"pmx.review","args":{"depth":2},"source":""}`},
		{"command.invoke without args", `{"type":"ax.command.invoke","sourceNodeId":"G","payload":{"name":"pmx.plan"}}`,
			"ax.command.invoke", `{"name":"pmx.plan","args":null,"source":""}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := parse(t, tc.in)
			before := jsonOf(t, it)
			a, rej := InteractionAction(it, nodes)
			unchanged(t, before, it)
			if rej != nil {
				t.Fatalf("rejected: %+v", rej)
			}
			if a.Op != tc.op {
				t.Fatalf("op = %s", a.Op)
			}
			if got := jsonOf(t, a.Input); got != tc.input {
				t.Fatalf("input\n got %s\nwant %s", got, tc.input)
			}
		})
	}
}

func TestInteractionActionInputsType(t *testing.T) {
	nodes := interactionNodes()
	for typ, payload := range map[string]string{
		"ax.event.record": `{"kind":"prompt","summary":"s"}`, "ax.steer": `{"message":"m"}`, "ax.work.create": `{"title":"t"}`,
		"ax.work.update": `{"id":"w"}`, "ax.evidence.add": `{"kind":"logs","title":"t"}`, "ax.approval.request": `{"title":"t"}`,
		"ax.approval.resolve": `{"id":"a","decision":"rejected"}`, "ax.review.add": `{"body":"b"}`, "ax.focus.set": `{}`,
		"ax.command.invoke": `{"name":"pmx.plan"}`, "ax.elicitation.request": `{"prompt":"p"}`, "ax.mode.request": `{"mode":"execute"}`,
		"ax.elicitation.respond": `{"id":"e","response":{}}`, "ax.mode.resolve": `{"id":"m","decision":"approved"}`,
	} {
		a, rej := InteractionAction(parse(t, `{"type":"`+typ+`","sourceNodeId":"F","payload":`+payload+`}`), nodes)
		if rej != nil {
			t.Fatalf("%s rejected: %+v", typ, rej)
		}
		var ok bool
		switch typ {
		case "ax.event.record":
			_, ok = a.Input.(*messages.AxEventInput)
		case "ax.steer":
			_, ok = a.Input.(*messages.AxSteerInput)
		case "ax.work.create":
			_, ok = a.Input.(*messages.AxWorkCreateInput)
		case "ax.work.update":
			_, ok = a.Input.(*messages.AxWorkUpdateInput)
		case "ax.evidence.add":
			_, ok = a.Input.(*messages.AxEvidenceInput)
		case "ax.approval.request":
			_, ok = a.Input.(*messages.AxApprovalRequestInput)
		case "ax.approval.resolve":
			_, ok = a.Input.(*messages.AxResolveInput)
		case "ax.review.add":
			_, ok = a.Input.(*messages.AxReviewAddInput)
		case "ax.focus.set":
			_, ok = a.Input.(*messages.AxFocusInput)
		case "ax.command.invoke":
			_, ok = a.Input.(*messages.AxCommandInput)
		case "ax.elicitation.request":
			_, ok = a.Input.(*messages.AxElicitationRequestInput)
		case "ax.mode.request":
			_, ok = a.Input.(*messages.AxModeRequestInput)
		case "ax.elicitation.respond":
			_, ok = a.Input.(*messages.AxElicitationRespondInput)
		case "ax.mode.resolve":
			_, ok = a.Input.(*messages.AxResolveInput)
		}
		if !ok || a.Op != typ {
			t.Errorf("%s: op %s input %T", typ, a.Op, a.Input)
		}
	}
}

func TestInteractionActionRejections(t *testing.T) {
	nodes := interactionNodes()
	for _, tc := range []struct {
		name, in string
		status   int
		code     string
		err      string
	}{
		{"empty payload", `{"type":"ax.work.create","sourceNodeId":"S","payload":{}}`, 400, "invalid-payload",
			"title: Invalid input: expected string, received undefined"},
		{"note not allowed", `{"type":"ax.event.record","sourceNodeId":"S","payload":{"kind":"note","summary":"x"}}`, 400, "invalid-payload",
			`kind: Invalid option: expected one of "prompt"|"assistant-message"|"tool-start"|"tool-result"|"failure"|"approval"|"steering"`},
		{"empty summary", `{"type":"ax.event.record","sourceNodeId":"S","payload":{"kind":"prompt","summary":""}}`, 400, "invalid-payload",
			"summary: Too small: expected string to have >=1 characters"},
		{"whitespace title", `{"type":"ax.work.create","sourceNodeId":"S","payload":{"title":"   "}}`, 400, "invalid-payload",
			"title: Too small: expected string to have >=1 non-whitespace characters"},
		{"bad status and ids", `{"type":"ax.work.create","sourceNodeId":"S","payload":{"title":"t","status":"in_progress","nodeIds":["S",3]}}`, 400, "invalid-payload",
			`status: Invalid option: expected one of "todo"|"in-progress"|"blocked"|"done"|"cancelled"; nodeIds.1: Invalid input: expected string, received number`},
		{"nodeIds not an array", `{"type":"ax.focus.set","sourceNodeId":"C","payload":{"nodeIds":"S"}}`, 400, "invalid-payload",
			"nodeIds: Invalid input: expected array, received string"},
		{"null for a non-nullable field", `{"type":"ax.approval.resolve","sourceNodeId":"S","payload":{"id":"a","decision":"approved","resolution":null}}`, 400, "invalid-payload",
			"resolution: Invalid input: expected string, received null"},
		{"missing decision", `{"type":"ax.approval.resolve","sourceNodeId":"S","payload":{"id":"a"}}`, 400, "invalid-payload",
			`decision: Invalid option: expected one of "approved"|"rejected"`},
		{"bad mode", `{"type":"ax.mode.request","sourceNodeId":"S","payload":{"mode":"turbo"}}`, 400, "invalid-payload",
			`mode: Invalid option: expected one of "plan"|"execute"|"autonomous"`},
		{"args not a record", `{"type":"ax.command.invoke","sourceNodeId":"G","payload":{"name":"pmx.plan","args":[1]}}`, 400, "invalid-payload",
			"args: Invalid input: expected record, received array"},
		{"data not a record", `{"type":"ax.evidence.add","sourceNodeId":"F","payload":{"kind":"logs","title":"t","data":"x"}}`, 400, "invalid-payload",
			"data: Invalid input: expected record, received string"},
		{"steer without message", `{"type":"ax.steer","sourceNodeId":"M","payload":{"msg":"x"}}`, 400, "invalid-payload",
			"message: Invalid input: expected string, received undefined"},
		{"unknown command", `{"type":"ax.command.invoke","sourceNodeId":"G","payload":{"name":"rm -rf"}}`, 400, "unknown-command", `Unknown command "rm -rf".`},
		{"review anchored to a ghost", `{"type":"ax.review.add","sourceNodeId":"F","payload":{"body":"b","nodeId":"ghost"}}`, 400, "invalid-review-anchor",
			"Node-anchored review requires a nodeId that exists on the canvas."},
		{"review scoped on a missing source", `{"type":"ax.review.add","sourceNodeId":"gone","sourceSurface":"html-node","payload":{"body":"b"}}`, 400, "invalid-review-anchor",
			"Node-anchored review requires a nodeId that exists on the canvas."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := parse(t, tc.in)
			_, rej := InteractionAction(it, nodes)
			if rej == nil || rej.Status != tc.status || rej.Code != tc.code || rej.Error != tc.err || rej.Type != it.Type || rej.SourceNodeID != it.SourceNodeID {
				t.Fatalf("rejection = %+v\nwant %s", rej, tc.err)
			}
		})
	}
	// An interaction built by hand with an unknown type is not executable.
	_, rej := InteractionAction(&Interaction{Type: "ax.teleport", SourceNodeID: "S"}, nodes)
	if rej == nil || rej.Status != 501 || rej.Code != "not-executable" || rej.Error != `"ax.teleport" is recognized but not yet executable.` {
		t.Fatalf("rejection = %+v", rej)
	}
}

func TestTargetRejections(t *testing.T) {
	it := parse(t, `{"type":"ax.work.update","sourceNodeId":"S","payload":{"id":"work-nope","status":"done"}}`)
	r := WorkItemNotFound(it, "work-nope")
	if r.Status != 404 || r.Code != "work-item-not-found" || r.Error != `Work item "work-nope" not found.` || r.Type != "ax.work.update" || r.SourceNodeID != "S" {
		t.Fatalf("r = %+v", r)
	}
	r = ApprovalNotFound(it, "appr-x")
	if r.Status != 404 || r.Code != "approval-not-found" || r.Error != `Approval "appr-x" not found or already resolved.` {
		t.Fatalf("r = %+v", r)
	}
}

// TestInteractionEndToEnd runs the full pipeline the actor runs for the
// reference's accepted example.
func TestInteractionEndToEnd(t *testing.T) {
	nodes := interactionNodes()
	it := parse(t, `{"type":"ax.work.create","sourceNodeId":"S","sourceSurface":"native-node","payload":{"title":"Fix build","nodeIds":["F"]},"source":"browser"}`)
	if rej := CheckInteraction(it, nodes); rej != nil {
		t.Fatal(rej)
	}
	a, rej := InteractionAction(it, nodes)
	if rej != nil {
		t.Fatal(rej)
	}
	in := a.Input.(*messages.AxWorkCreateInput)
	w, err := CreateWork(in, NormalizeSource(in.Source, "api"), nodes, testEnv())
	noErr(t, err)
	if w.Title != "Fix build" || !eqStrings(w.NodeIDs, []string{"F"}) || deref(w.Source) != "browser" {
		t.Fatalf("w = %s", jsonOf(t, w))
	}
}

func FuzzParseInteraction(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"type":"ax.nope","payload":[]}`,
		`{"type":"ax.work.create","sourceNodeId":"S","payload":{"title":"x","nodeIds":["S",1]}}`,
		`{"type":"ax.review.add","sourceNodeId":"F","sourceSurface":"html-node","payload":{"body":"b","anchorType":"region"}}`,
		`{"type":"ax.work.update","sourceNodeId":"J","payload":{"id":"w","detail":null,"nodeIds":null}}`,
		`{"type":"ax.command.invoke","sourceNodeId":"G","payload":{"name":"pmx.plan","args":{"a":[1,{"b":null}]}}}`,
		`{"type":"ax.event.record","sourceNodeId":"S","actor":{"kind":"human"},"metadata":{},"correlationId":"c","payload":{"kind":"prompt","summary":"s","data":null}}`,
		`{"type":"ax.focus.set","sourceNodeId":"C","payload":{"nodeIds":[]}}`,
	} {
		f.Add([]byte(seed))
	}
	nodes := interactionNodes()
	f.Fuzz(func(t *testing.T, body []byte) {
		in := &messages.AxInteractionInput{}
		if err := json.Unmarshal(body, in); err != nil {
			return
		}
		it, rej := ParseInteraction(in)
		if (it == nil) == (rej == nil) {
			t.Fatalf("exactly one of interaction and rejection expected: %v %v", it, rej)
		}
		if rej != nil {
			if rej.Status != 400 || rej.Code != "invalid-envelope" || rej.Error == "" {
				t.Fatalf("bad rejection %+v", rej)
			}
			return
		}
		if rej := CheckInteraction(it, nodes); rej != nil && rej.Error == "" {
			t.Fatalf("empty rejection %+v", rej)
		}
		a, rej := InteractionAction(it, nodes)
		if rej == nil && (a.Op != it.Type || a.Input == nil) {
			t.Fatalf("action %+v for %s", a, it.Type)
		}
		if rej == nil && it.Scoped {
			if ids := actionNodeIDs(a.Input); ids != nil && (len(ids) != 1 || ids[0] != it.SourceNodeID) {
				t.Fatalf("scoped interaction targets %v", ids)
			}
		}
	})
}

// actionNodeIDs returns the node targets of an action input (nil when the
// input has none).
func actionNodeIDs(in any) []any {
	switch v := in.(type) {
	case *messages.AxEventInput:
		return v.NodeIDs
	case *messages.AxWorkCreateInput:
		return v.NodeIDs
	case *messages.AxWorkUpdateInput:
		return v.NodeIDs
	case *messages.AxEvidenceInput:
		return v.NodeIDs
	case *messages.AxApprovalRequestInput:
		return v.NodeIDs
	case *messages.AxFocusInput:
		return v.NodeIDs
	case *messages.AxElicitationRequestInput:
		return v.NodeIDs
	case *messages.AxModeRequestInput:
		return v.NodeIDs
	case *messages.AxReviewAddInput:
		return []any{*v.NodeID}
	}
	return nil
}
