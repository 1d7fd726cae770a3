package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// The whole tool list runs through an MCP server hosting the canvas itself
// (local) and one forwarding to a daemon over HTTP (remote); every result
// must be the same text, up to ids, timestamps and session ids.

// paritySteps are tool calls; "$node1", "$appr2", ... in the arguments stand
// for the ids the earlier results produced, in order of appearance.
var paritySteps = []struct{ tool, args string }{
	{"canvas_add_node", `{"type":"markdown","title":"Parity A","content":"alpha"}`},
	{"canvas_add_node", `{"type":"markdown","title":"Parity B","x":900,"y":100,"full":true}`},
	{"canvas_get_node", `{"id":"$node1"}`},
	{"canvas_update_node", `{"id":"$node1","title":"Parity A2"}`},
	{"canvas_get_layout", `{}`},
	{"canvas_add_edge", `{"from":"$node1","to":"$node2","type":"flow","label":"goes"}`},
	{"canvas_remove_edge", `{"id":"$edge1"}`},
	{"canvas_arrange", `{"layout":"grid"}`},
	{"canvas_focus_node", `{"id":"$node1"}`},
	{"canvas_fit_view", `{}`},
	{"canvas_create_group", `{"title":"G","childIds":["$node1"]}`},
	{"canvas_group_nodes", `{"groupId":"$group1","childIds":["$node2"]}`},
	{"canvas_ungroup", `{"groupId":"$group1"}`},
	{"canvas_pin_nodes", `{"nodeIds":["$node1"]}`},
	{"canvas_search", `{"query":"Parity"}`},
	{"canvas_undo", `{}`},
	{"canvas_redo", `{}`},
	{"canvas_validate", `{}`},
	{"canvas_remove_annotation", `{"id":"ann-nope"}`},
	{"canvas_snapshot", `{"name":"s1"}`},
	{"canvas_list_snapshots", `{}`},
	{"canvas_diff", `{"snapshot":"s1"}`},
	{"canvas_restore", `{"id":"s1"}`},
	{"canvas_gc_snapshots", `{"keep":5,"dryRun":true}`},
	{"canvas_snapshot", `{"action":"list"}`},
	{"canvas_delete_snapshot", `{"id":"s1"}`},
	{"canvas_add_json_render_node", `{"spec":{"root":"r","elements":{}}}`},
	{"canvas_stream_json_render_node", `{"patches":[]}`},
	{"canvas_add_graph_node", `{"graphType":"bar","data":[{"a":1}]}`},
	{"canvas_describe_schema", `{}`},
	{"canvas_validate_spec", `{"type":"graph"}`},
	{"canvas_get_ax", `{"includeContext":false}`},
	{"canvas_set_ax_focus", `{"nodeIds":["$node1"]}`},
	{"canvas_set_ax_policy", `{"tools":{"excluded":["pmx.plan"]}}`},
	{"canvas_report_host_capability", `{"host":"codex","canvas":true}`},
	{"canvas_add_work_item", `{"title":"Wire auth","nodeIds":["$node1"]}`},
	{"canvas_update_work_item", `{"id":"$work1","status":"done"}`},
	{"canvas_add_review_annotation", `{"body":"check","nodeId":"$node1"}`},
	{"canvas_request_approval", `{"title":"Deploy"}`},
	{"canvas_resolve_approval", `{"id":"$appr1","decision":"approved"}`},
	{"canvas_request_elicitation", `{"prompt":"Which DB?"}`},
	{"canvas_respond_elicitation", `{"id":"$elic1","response":{"db":"pg"}}`},
	{"canvas_request_mode", `{"mode":"plan"}`},
	{"canvas_resolve_mode", `{"id":"$mode1","decision":"rejected"}`},
	{"canvas_record_ax_event", `{"kind":"tool-start","summary":"npm test"}`},
	{"canvas_add_evidence", `{"kind":"logs","title":"out"}`},
	{"canvas_send_steering", `{"message":"look here","source":"browser"}`},
	{"canvas_get_ax_timeline", `{"limit":5}`},
	{"canvas_claim_ax_delivery", `{"consumer":"mcp"}`},
	{"canvas_mark_ax_delivery", `{"id":"$steer1"}`},
	{"canvas_invoke_command", `{"name":"pmx.review"}`},
	{"canvas_invoke_command", `{"name":"pmx.plan"}`},
	{"canvas_await_approval", `{"id":"$appr1","timeoutMs":1000}`},
	{"canvas_await_elicitation", `{"id":"$elic1"}`},
	{"canvas_await_mode", `{"id":"mode-nope","timeoutMs":0}`},
	{"canvas_batch", `{"operations":[{"op":"node.add","assign":"n","args":{"type":"markdown","title":"B1"}},{"op":"edge.add","args":{"from":"$n","to":"$node1","type":"flow"}}]}`},
	{"canvas_webview_status", `{}`},
	{"canvas_evaluate", `{"expression":"1+1"}`},
	{"canvas_webview_start", `{"width":800,"height":600}`},
	{"canvas_evaluate", `{"expression":"document.title"}`},
	{"canvas_evaluate", `{"script":"const r = await Promise.resolve(21); return {r: r * 2, w: innerWidth}"}`},
	{"canvas_evaluate", `{"expression":"throw new Error('boom')"}`},
	{"canvas_resize", `{"width":640,"height":480}`},
	{"canvas_screenshot", `{"format":"jpeg","quality":60}`},
	{"canvas_webview_stop", `{}`},
	{"canvas_open_mcp_app", `{"toolName":"t","transport":{"type":"http","url":"http://127.0.0.1:1"}}`},
	{"canvas_add_diagram", `{"elements":[]}`},
	{"canvas_build_web_artifact", `{"title":"A","appTsx":"x"}`},
	{"canvas_node", `{"action":"get","id":"$node2"}`},
	{"canvas_node", `{"action":"add","type":"status","title":"S"}`},
	{"canvas_render", `{"action":"describe-schema"}`},
	{"canvas_edge", `{"action":"add","from":"$node1","to":"$node2","type":"depends-on"}`},
	{"canvas_group", `{"action":"create","title":"G2"}`},
	{"canvas_history", `{"action":"undo"}`},
	{"canvas_view", `{"action":"fit"}`},
	{"canvas_query", `{"action":"layout"}`},
	{"canvas_query", `{"action":"search","query":"Parity"}`},
	{"canvas_app", `{"action":"diagram","elements":[]}`},
	{"canvas_webview", `{"action":"status"}`},
	{"canvas_ax_state", `{"action":"get","includeContext":true}`},
	{"canvas_ax_work", `{"action":"add","title":"From composite"}`},
	{"canvas_ax_gate", `{"kind":"approval","action":"request","title":"Gate","approvalAction":"db.drop"}`},
	{"canvas_ax_gate", `{"kind":"approval","action":"await","id":"$appr2","timeoutMs":50}`},
	{"canvas_ax_timeline", `{"action":"read","limit":3}`},
	{"canvas_ax_delivery", `{"action":"claim"}`},
	{"canvas_add_html_node", `{"html":"<p>hello</p>","title":"H"}`},
	{"canvas_add_html_primitive", `{"kind":"choice-grid"}`},
	{"canvas_refresh_webpage_node", `{"id":"$node1"}`},
	{"canvas_ax_interaction", `{"type":"ax.work.create","sourceNodeId":"status-main","payload":{"title":"Fix build"}}`},
	{"canvas_ax_interaction", `{"type":"ax.steer","sourceNodeId":"$node1","payload":{"message":"x"}}`},
	{"canvas_ingest_activity", `{"kind":"error","title":"tsc failed","summary":"TS2345","nodeIds":["$node1"]}`},
	{"canvas_screenshot", `{}`},
	// Every other composite action.
	{"canvas_node", `{"action":"update","id":"$node2","content":"updated"}`},
	{"canvas_render", `{"action":"validate","type":"graph"}`},
	{"canvas_render", `{"action":"add-json-render","spec":{}}`},
	{"canvas_render", `{"action":"stream-json-render"}`},
	{"canvas_render", `{"action":"add-graph","graphType":"bar","data":[]}`},
	{"canvas_edge", `{"action":"remove","id":"$edge3"}`},
	{"canvas_group", `{"action":"add","groupId":"$group2","childIds":["$node2"]}`},
	{"canvas_group", `{"action":"ungroup","groupId":"$group2"}`},
	{"canvas_history", `{"action":"redo"}`},
	{"canvas_view", `{"action":"arrange","layout":"column"}`},
	{"canvas_view", `{"action":"focus","id":"$node2","noPan":true}`},
	{"canvas_view", `{"action":"remove-annotation","id":"ann-nope"}`},
	{"canvas_query", `{"action":"validate"}`},
	{"canvas_app", `{"action":"open-mcp-app","toolName":"t"}`},
	{"canvas_app", `{"action":"build-artifact","title":"A","appTsx":"x"}`},
	{"canvas_ax_state", `{"action":"set-focus","nodeIds":["$node2"]}`},
	{"canvas_ax_state", `{"action":"set-policy","prompt":{"mode":"concise"}}`},
	{"canvas_ax_state", `{"action":"report-capability","host":"copilot","canvas":true,"files":true}`},
	{"canvas_ax_work", `{"action":"update","id":"$work2","status":"blocked"}`},
	{"canvas_ax_work", `{"action":"annotate","body":"from composite","anchorType":"file","file":"a.go"}`},
	{"canvas_ax_gate", `{"kind":"approval","action":"resolve","id":"$appr2","decision":"rejected"}`},
	{"canvas_ax_gate", `{"kind":"elicitation","action":"request","prompt":"Name?"}`},
	{"canvas_ax_gate", `{"kind":"elicitation","action":"resolve","id":"$elic2","response":{"name":"x"}}`},
	{"canvas_ax_gate", `{"kind":"elicitation","action":"await","id":"$elic2","timeoutMs":0}`},
	{"canvas_ax_gate", `{"kind":"mode","action":"request","mode":"execute","reason":"ready"}`},
	{"canvas_ax_gate", `{"kind":"mode","action":"await","id":"$mode2","timeoutMs":20}`},
	{"canvas_ax_gate", `{"kind":"mode","action":"resolve","id":"$mode2","decision":"approved"}`},
	{"canvas_ax_timeline", `{"action":"record-event","kind":"prompt","summary":"hi"}`},
	{"canvas_ax_timeline", `{"action":"add-evidence","kind":"diff","title":"patch"}`},
	{"canvas_ax_timeline", `{"action":"send-steering","message":"turn left"}`},
	{"canvas_ax_delivery", `{"action":"mark","id":"$steer2"}`},
	{"canvas_node", `{"action":"remove","id":"$node2"}`},
	{"canvas_view", `{"action":"clear"}`},
	{"canvas_remove_node", `{"id":"status-main"}`},
	{"canvas_clear", `{}`},
	{"canvas_get_layout", `{"full":true}`},
	// Last: the workbench the webview opens grows its html frames to
	// their content (a layout write at a moment of its own), so no step
	// after it may report a revision.
	{"canvas_webview", `{"action":"start"}`},
	{"canvas_webview", `{"action":"resize","width":10,"height":10}`},
	{"canvas_webview", `{"action":"evaluate","expression":"1"}`},
	{"canvas_webview", `{"action":"stop"}`},
	{"canvas_webview", `{"action":"evaluate","expression":"1"}`},
}

var (
	parityID        = regexp.MustCompile(`\b(node|group|edge|work|appr|elic|mode|rev|evt|evd|steer|snap|mut|ann|ui|graph|artifact)-[a-z]*[0-9][a-z0-9]*(?:-[a-z0-9]{2,})?\b`)
	parityTimestamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z`)
	parityClock     = regexp.MustCompile(`\[\d\d:\d\d:\d\d\]`)
	paritySession   = regexp.MustCompile(`pmx-[a-z0-9]{6,}`)
	// Each side has its own server port, and its screenshot its own bytes
	// (the page shows the session id).
	parityPort  = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	parityBytes = regexp.MustCompile(`"bytes": \d+`)
	// Each side has its own workspace, and a build its own duration.
	parityWorkspace = regexp.MustCompile(`(/|%2F)tmp(/|%2F)TestMCPLocalAndRemoteAgree[0-9]+(/|%2F)00[0-9]`)
	parityDuration  = regexp.MustCompile(`"durationMs": \d+`)
)

// paritySession remembers one session's ids by order of appearance.
type parityIDs struct {
	byID   map[string]string // id -> $prefixN
	byName map[string]string // $prefixN -> id
	count  map[string]int
}

func newParityIDs() *parityIDs {
	return &parityIDs{byID: map[string]string{}, byName: map[string]string{}, count: map[string]int{}}
}

// normalize replaces ids (learning new ones), timestamps, clock times and
// session ids with stable placeholders.
func (p *parityIDs) normalize(text string) string {
	text = parityID.ReplaceAllStringFunc(text, func(id string) string {
		if name, ok := p.byID[id]; ok {
			return name
		}
		prefix := id[:strings.Index(id, "-")]
		p.count[prefix]++
		name := fmt.Sprintf("$%s%d", prefix, p.count[prefix])
		p.byID[id], p.byName[name] = name, id
		return name
	})
	text = parityTimestamp.ReplaceAllString(text, "<time>")
	text = parityClock.ReplaceAllString(text, "[hh:mm:ss]")
	text = parityPort.ReplaceAllString(text, "127.0.0.1:<port>")
	text = parityBytes.ReplaceAllString(text, `"bytes": <n>`)
	text = parityWorkspace.ReplaceAllString(text, "<workspace>")
	text = parityDuration.ReplaceAllString(text, `"durationMs": <n>`)
	return paritySession.ReplaceAllString(text, "<session>")
}

// args substitutes this session's ids for the placeholders.
func (p *parityIDs) args(template string) string {
	names := make([]string, 0, len(p.byName))
	for n := range p.byName {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) }) // $node10 before $node1
	for _, n := range names {
		template = strings.ReplaceAll(template, n, p.byName[n])
	}
	return template
}

func TestMCPLocalAndRemoteAgree(t *testing.T) {
	wsRemote := t.TempDir()
	daemon := startServer(t, wsRemote)
	remote := startMCP(t, wsRemote, []string{"PMX_CANVAS_URL=" + daemon.url})
	local := startMCP(t, "", nil)
	if !strings.Contains(remote.stderr.String(), "forwards to the canvas daemon") {
		t.Fatalf("the remote session is not forwarding:\n%s", remote.stderr.String())
	}

	used := map[string]bool{}
	usedAction := map[string]bool{}
	ids := map[*mcpSession]*parityIDs{remote: newParityIDs(), local: newParityIDs()}
	for i, step := range paritySteps {
		used[step.tool] = true
		var sel struct{ Kind, Action string }
		_ = json.Unmarshal([]byte(step.args), &sel)
		if step.tool != "canvas_ax_gate" { // elsewhere "kind" is a field, not a selector
			sel.Kind = ""
		}
		usedAction[step.tool+" "+sel.Kind+" "+sel.Action] = true
		var texts [2]string
		var errs [2]bool
		for j, s := range []*mcpSession{local, remote} {
			var args map[string]any
			if err := jsonUnmarshal(ids[s].args(step.args), &args); err != nil {
				t.Fatalf("step %d args: %v", i, err)
			}
			text, isErr := s.call(step.tool, args)
			texts[j], errs[j] = ids[s].normalize(text), isErr
		}
		if testing.Verbose() {
			t.Logf("%s -> isError=%v %.160s", step.tool, errs[0], texts[0])
		}
		if texts[0] != texts[1] || errs[0] != errs[1] {
			t.Fatalf("step %d %s %s: local and remote differ\nlocal  (isError=%v): %s\nremote (isError=%v): %s",
				i, step.tool, step.args, errs[0], texts[0], errs[1], texts[1])
		}
	}
	// Remote awaits block for their timeoutMs (the reference's returned at once).
	gate := remote.okJSON("canvas_request_approval", map[string]any{"title": "wait for me"})["approvalGate"].(map[string]any)["id"]
	start := time.Now()
	r := remote.okJSON("canvas_await_approval", map[string]any{"id": gate, "timeoutMs": 300})
	if el := time.Since(start); el < 300*time.Millisecond || r["pending"] != true {
		t.Fatalf("remote await answered after %v: %v", el, r)
	}

	var missing []string
	for _, name := range mcpapi.ToolOrder {
		if !used[name] {
			missing = append(missing, name)
		}
	}
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range reg.Tools(false) {
		for _, a := range tool.Actions {
			if !usedAction[tool.Name+" "+a.Kind+" "+a.Name] {
				missing = append(missing, fmt.Sprintf("%s %s %s", tool.Name, a.Kind, a.Name))
			}
		}
	}
	if len(missing) > 0 {
		t.Fatalf("tools not covered by the parity run: %v", missing)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
