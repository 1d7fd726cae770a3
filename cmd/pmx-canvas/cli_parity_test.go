package main

// CLI ↔ HTTP parity: every command that maps to an operation gives the
// JSON of the operation's HTTP route for the same input on the same state.
//
// The test keeps two canvases on one server in lockstep: each step runs the
// command on canvas "parity-cli" (PMX_CANVAS_ID) and the route on canvas
// "parity-http" (?canvas=), with the body the command sends and the CLI's
// X-PMX-Source header. The canvases see the same operations in the same
// order, so the replies are equal once the ids and timestamps the two calls
// generate are normalised (ids are numbered by first appearance in each
// reply; timestamps become <ts>). Commands that shape their output on the
// client (node list, edge list, node list --ids) compare against the same
// shaping of the route's reply.

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

type parityStep struct {
	cli    []string          // the command; {VAR} is a captured value of the canvas
	method string            // the route
	path   string            // {VAR} as above
	body   string            // the JSON the command sends; {VAR} as above
	exit   int               // the command's expected exit code
	shape  func(v any) any   // client-side shaping of the route's reply
	mask   []string          // dotted paths whose values differ per canvas (tokens)
	save   map[string]string // VAR -> dotted path in the reply
}

// paritySide is one canvas with its captured values.
type paritySide struct {
	canvas string
	vars   map[string]string
}

func (s *paritySide) expand(text string) string {
	for k, v := range s.vars {
		text = strings.ReplaceAll(text, "{"+k+"}", v)
	}
	return text
}

var (
	cliParityID = regexp.MustCompile(`\b(node|graph|ui|edge|group|snap|work|appr|rev|elic|mode|evt|evd|steer|mut|ann|artifact|prompt|trace|intent)-[0-9a-z]+-[0-9a-z]+\b`)
	cliParityTS = regexp.MustCompile(`(\d{4}-\d\d-\d\dT)?\d\d:\d\d:\d\d(\.\d+)?Z?`)
)

// normalise renders v canonically (sorted keys) with ids numbered by first
// appearance and timestamps replaced.
func cliNormalise(v any) string {
	b, _ := json.Marshal(v)
	seen := map[string]string{}
	out := cliParityID.ReplaceAllStringFunc(string(b), func(id string) string {
		if n, ok := seen[id]; ok {
			return n
		}
		n := "<" + strings.SplitN(id, "-", 2)[0] + "#" + string(rune('a'+len(seen))) + ">"
		seen[id] = n
		return n
	})
	out = strings.NewReplacer("parity-cli", "parity-<side>", "parity-http", "parity-<side>").Replace(out)
	return cliParityTS.ReplaceAllString(out, "<ts>")
}

func field(path string) func(any) any {
	return func(v any) any {
		got, _ := walk(v, path)
		return got
	}
}

func nodeIDsOf(v any) any {
	nodes, _ := walk(v, "nodes")
	out := []any{}
	for _, n := range nodes.([]any) {
		out = append(out, n.(map[string]any)["id"])
	}
	return out
}

func TestCLIHTTPParity(t *testing.T) {
	t.Setenv("PMX_CANVAS_DISABLE_BROWSER_OPEN", "1") // open-external, in the server
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes", "main.go"), []byte("package notes\n\nimport \"fmt\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	app := mcpappfixture.StartHTTP(t) // the app server of the app steps
	p := startServer(t, ws, "--diagram-server-url", app)
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.canvas")
	if err := os.WriteFile(doc, []byte(`{"nodes":[{"id":"t1","type":"text","text":"# Imported","x":0,"y":-900,"width":200,"height":100}],"edges":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []parityStep{
		{cli: []string{"layout"}, method: "GET", path: "/api/canvas/state"},
		{cli: []string{"node", "add", "--title", "A", "--content", "alpha text", "--x", "-100", "--y", "200"},
			method: "POST", path: "/api/canvas/node", body: `{"type":"markdown","title":"A","content":"alpha text","x":-100,"y":200}`, save: map[string]string{"A": "id"}},
		{cli: []string{"node", "add", "--type", "status", "--title", "B", "--content", "passing", "-x", "900", "-y", "200"},
			method: "POST", path: "/api/canvas/node", body: `{"type":"status","title":"B","content":"passing","x":900,"y":200}`, save: map[string]string{"B": "id"}},
		{cli: []string{"node", "add", "--type", "webpage", "--url", "https://example.com", "--width", "500"},
			method: "POST", path: "/api/canvas/node", body: `{"type":"webpage","url":"https://example.com","width":500}`, save: map[string]string{"W": "id"}},
		{cli: []string{"node", "add", "--type", "html", "--html", "<p>x</p>", "--summary", "S", "--strict-size"},
			method: "POST", path: "/api/canvas/node", body: `{"type":"html","html":"<p>x</p>","summary":"S","strictSize":true}`},
		{cli: []string{"node", "get", "{A}"}, method: "GET", path: "/api/canvas/node/{A}"},
		{cli: []string{"node", "update", "{A}", "--title", "A2", "--x", "-10", "--pinned", "true", "--lock-arrange"},
			method: "PATCH", path: "/api/canvas/node/{A}", body: `{"title":"A2","x":-10,"pinned":true,"arrangeLocked":true}`},
		{cli: []string{"node", "update", "{B}", "--dock-position", "none", "--node-height", "300"},
			method: "PATCH", path: "/api/canvas/node/{B}", body: `{"dockPosition":null,"height":300}`},
		{cli: []string{"node", "list"}, method: "GET", path: "/api/canvas/state", shape: field("nodes")},
		{cli: []string{"node", "list", "--ids"}, method: "GET", path: "/api/canvas/state", shape: nodeIDsOf},
		{cli: []string{"edge", "add", "--from", "{A}", "--to", "{B}", "--type", "depends-on", "--label", "imports", "--style", "dashed", "--animated"},
			method: "POST", path: "/api/canvas/edge", body: `{"type":"depends-on","from":"{A}","to":"{B}","label":"imports","style":"dashed","animated":true}`, save: map[string]string{"E": "id"}},
		{cli: []string{"edge", "add", "--from-search", "A2", "--to-search", "example.com"},
			method: "POST", path: "/api/canvas/edge", body: `{"type":"flow","fromSearch":"A2","toSearch":"example.com"}`, save: map[string]string{"E2": "id"}},
		{cli: []string{"edge", "list"}, method: "GET", path: "/api/canvas/state", shape: field("edges")},
		{cli: []string{"edge", "list", "--node-id", "{A}", "--type", "depends-on"}, method: "GET", path: "/api/canvas/edges?nodeId={A}&type=depends-on"},
		{cli: []string{"search", "alpha"}, method: "GET", path: "/api/canvas/search?q=alpha"},
		{cli: []string{"search", "--query", "passing", "--limit", "1"}, method: "GET", path: "/api/canvas/search?q=passing&limit=1"},
		{cli: []string{"layout", "--summary"}, method: "GET", path: "/api/canvas/summary"},
		{cli: []string{"pin", "{A}", "{B}"}, method: "POST", path: "/api/canvas/context-pins", body: `{"nodeIds":["{A}","{B}"]}`},
		{cli: []string{"pin", "--list"}, method: "GET", path: "/api/canvas/pinned-context"},
		{cli: []string{"pin", "--clear"}, method: "POST", path: "/api/canvas/context-pins", body: `{"nodeIds":[]}`},
		{cli: []string{"focus", "{A}", "--no-pan"}, method: "POST", path: "/api/canvas/focus", body: `{"id":"{A}","noPan":true}`},
		{cli: []string{"focus", "{B}"}, method: "POST", path: "/api/canvas/focus", body: `{"id":"{B}"}`},
		{cli: []string{"fit", "{A}", "{B}", "--padding", "10", "--max-scale", "2"}, method: "POST", path: "/api/canvas/fit", body: `{"padding":10,"maxScale":2,"nodeIds":["{A}","{B}"]}`},
		{cli: []string{"group", "create", "--title", "G", "--color", "#123456", "{A}", "{B}"},
			method: "POST", path: "/api/canvas/group", body: `{"title":"G","color":"#123456","childIds":["{A}","{B}"]}`, save: map[string]string{"G": "id"}},
		{cli: []string{"group", "add", "--group", "{G}", "{W}"}, method: "POST", path: "/api/canvas/group/add", body: `{"groupId":"{G}","childIds":["{W}"]}`},
		{cli: []string{"group", "remove", "{G}"}, method: "POST", path: "/api/canvas/group/ungroup", body: `{"groupId":"{G}"}`},
		{cli: []string{"group", "create", "--title", "Frame", "--x", "-2000", "--y", "0", "--width", "900", "--height", "700", "--child-layout", "column"},
			method: "POST", path: "/api/canvas/group", body: `{"title":"Frame","x":-2000,"y":0,"width":900,"height":700,"childLayout":"column"}`},
		{cli: []string{"arrange", "--layout", "column"}, method: "POST", path: "/api/canvas/arrange", body: `{"layout":"column"}`},
		{cli: []string{"validate"}, method: "GET", path: "/api/canvas/validate", exit: 2}, // A2 is locked, so it still overlaps
		{cli: []string{"node", "add", "--title", "Clash", "--x", "-2000", "--y", "0"}, method: "POST", path: "/api/canvas/node", body: `{"type":"markdown","title":"Clash","x":-2000,"y":0}`},
		{cli: []string{"node", "add", "--title", "Clash2", "--x", "-1990", "--y", "10"}, method: "POST", path: "/api/canvas/node", body: `{"type":"markdown","title":"Clash2","x":-1990,"y":10}`, save: map[string]string{"C": "id"}},
		{cli: []string{"validate"}, method: "GET", path: "/api/canvas/validate", exit: 2},
		{cli: []string{"spatial"}, method: "GET", path: "/api/canvas/spatial-context"},
		{cli: []string{"history"}, method: "GET", path: "/api/canvas/history"},
		{cli: []string{"undo"}, method: "POST", path: "/api/canvas/undo"},
		{cli: []string{"redo"}, method: "POST", path: "/api/canvas/redo"},
		{cli: []string{"redo"}, method: "POST", path: "/api/canvas/redo"},
		{cli: []string{"snapshot", "save", "--name", "s1"}, method: "POST", path: "/api/canvas/snapshots", body: `{"name":"s1"}`},
		{cli: []string{"snapshot", "save", "--name", "s2"}, method: "POST", path: "/api/canvas/snapshots", body: `{"name":"s2"}`},
		{cli: []string{"snapshot", "list", "--query", "s", "--limit", "5"}, method: "GET", path: "/api/canvas/snapshots?query=s&limit=5"},
		{cli: []string{"node", "remove", "{C}"}, method: "DELETE", path: "/api/canvas/node/{C}"},
		{cli: []string{"snapshot", "diff", "s1"}, method: "GET", path: "/api/canvas/snapshots/s1/diff"},
		{cli: []string{"diff", "s2"}, method: "GET", path: "/api/canvas/snapshots/s2/diff"},
		{cli: []string{"snapshot", "restore", "s1"}, method: "POST", path: "/api/canvas/snapshots/s1"},
		{cli: []string{"snapshot", "gc", "--keep", "1", "--dry-run"}, method: "POST", path: "/api/canvas/snapshots/gc", body: `{"keep":1,"dryRun":true}`},
		{cli: []string{"snapshot", "delete", "s2"}, method: "DELETE", path: "/api/canvas/snapshots/s2"},
		{cli: []string{"snapshot", "gc", "--keep", "5", "--yes"}, method: "POST", path: "/api/canvas/snapshots/gc", body: `{"keep":5,"dryRun":false}`},
		{cli: []string{"batch", "--json", `[{"op":"node.add","assign":"a","args":{"type":"markdown","title":"BA","x":3000,"y":3000}},{"op":"edge.add","args":{"from":"$a","to":"{B}","type":"flow"}}]`},
			method: "POST", path: "/api/canvas/batch", body: `{"operations":[{"op":"node.add","assign":"a","args":{"type":"markdown","title":"BA","x":3000,"y":3000}},{"op":"edge.add","args":{"from":"$a","to":"{B}","type":"flow"}}]}`},
		{cli: []string{"edge", "remove", "{E2}"}, method: "DELETE", path: "/api/canvas/edge", body: `{"edge_id":"{E2}"}`},
		{cli: []string{"export"}, method: "GET", path: "/api/canvas/export"},
		{cli: []string{"import", "--file", doc}, method: "POST", path: "/api/canvas/import",
			body: `{"nodes":[{"id":"t1","type":"text","text":"# Imported","x":0,"y":-900,"width":200,"height":100}],"edges":[]}`},

		// AX.
		{cli: []string{"ax", "focus", "{A}"}, method: "POST", path: "/api/canvas/ax/focus", body: `{"nodeIds":["{A}"],"source":"cli"}`},
		{cli: []string{"ax", "event", "add", "--kind", "note", "--summary", "hello", "--detail", "d", "{A}"},
			method: "POST", path: "/api/canvas/ax/event", body: `{"kind":"note","summary":"hello","detail":"d","nodeIds":["{A}"],"source":"cli"}`},
		{cli: []string{"ax", "steer", "ship", "it"}, method: "POST", path: "/api/canvas/ax/steer", body: `{"message":"ship it","source":"cli"}`, save: map[string]string{"S": "steering.id"}},
		{cli: []string{"ax", "evidence", "add", "--kind", "logs", "--title", "Build log", "--body", "ok", "--ref", "ci"},
			method: "POST", path: "/api/canvas/ax/evidence", body: `{"kind":"logs","title":"Build log","body":"ok","ref":"ci","source":"cli"}`},
		{cli: []string{"ax", "work", "add", "--title", "Auth", "--status", "todo", "--detail", "x", "{A}"},
			method: "POST", path: "/api/canvas/ax/work", body: `{"title":"Auth","status":"todo","detail":"x","nodeIds":["{A}"],"source":"cli"}`, save: map[string]string{"WK": "workItem.id"}},
		{cli: []string{"ax", "work", "update", "{WK}", "--status", "done", "{B}"},
			method: "PATCH", path: "/api/canvas/ax/work/{WK}", body: `{"status":"done","nodeIds":["{B}"],"source":"cli"}`},
		{cli: []string{"ax", "work", "list"}, method: "GET", path: "/api/canvas/ax/work"},
		{cli: []string{"ax", "approval", "request", "--title", "Deploy?", "--action", "deploy"},
			method: "POST", path: "/api/canvas/ax/approval", body: `{"title":"Deploy?","action":"deploy","source":"cli"}`, save: map[string]string{"AP": "approvalGate.id"}},
		{cli: []string{"ax", "approval", "resolve", "{AP}", "--decision", "approved", "--resolution", "ok"},
			method: "POST", path: "/api/canvas/ax/approval/{AP}/resolve", body: `{"decision":"approved","resolution":"ok","source":"cli"}`},
		{cli: []string{"ax", "approval", "list"}, method: "GET", path: "/api/canvas/ax/approval"},
		{cli: []string{"ax", "elicitation", "request", "--prompt", "Which?", "--fields", "a,b"},
			method: "POST", path: "/api/canvas/ax/elicitation", body: `{"prompt":"Which?","fields":["a","b"],"source":"cli"}`, save: map[string]string{"EL": "elicitation.id"}},
		{cli: []string{"ax", "elicitation", "respond", "{EL}", "--response", `{"a":1}`},
			method: "POST", path: "/api/canvas/ax/elicitation/{EL}/respond", body: `{"response":{"a":1},"source":"cli"}`},
		{cli: []string{"ax", "elicitation", "list"}, method: "GET", path: "/api/canvas/ax/elicitation"},
		{cli: []string{"ax", "mode", "request", "--mode", "execute", "--reason", "go"},
			method: "POST", path: "/api/canvas/ax/mode", body: `{"mode":"execute","reason":"go","source":"cli"}`, save: map[string]string{"MO": "modeRequest.id"}},
		{cli: []string{"ax", "mode", "resolve", "{MO}", "--decision", "rejected"},
			method: "POST", path: "/api/canvas/ax/mode/{MO}/resolve", body: `{"decision":"rejected","source":"cli"}`},
		{cli: []string{"ax", "mode", "list"}, method: "GET", path: "/api/canvas/ax/mode"},
		{cli: []string{"ax", "review", "add", "--body", "Fix it", "--severity", "high", "--node", "{A}", "--author", "ana"},
			method: "POST", path: "/api/canvas/ax/review", body: `{"body":"Fix it","severity":"high","nodeId":"{A}","author":"ana","source":"cli"}`,
			save: map[string]string{"RV": "reviewAnnotation.id"}},
		{cli: []string{"ax", "review", "list"}, method: "GET", path: "/api/canvas/ax/review"},
		{cli: []string{"ax", "command", "list"}, method: "GET", path: "/api/canvas/ax/command"},
		{cli: []string{"ax", "command", "invoke", "pmx.plan", "--args", `{"x":1}`},
			method: "POST", path: "/api/canvas/ax/command", body: `{"name":"pmx.plan","args":{"x":1},"source":"cli"}`},
		{cli: []string{"ax", "interaction", "--type", "ax.steer", "--node", "{A}", "--payload", `{"message":"from node"}`},
			method: "POST", path: "/api/canvas/ax/interaction", body: `{"type":"ax.steer","sourceNodeId":"{A}","payload":{"message":"from node"},"source":"cli"}`},
		{cli: []string{"ax", "policy", "set", "--excluded-tools", "pmx.review", "--mode", "plan"},
			method: "POST", path: "/api/canvas/ax/policy", body: `{"tools":{"excluded":["pmx.review"]},"prompt":{"mode":"plan"},"source":"cli"}`},
		{cli: []string{"ax", "policy", "get"}, method: "GET", path: "/api/canvas/ax/policy"},
		{cli: []string{"ax", "host", "report", "--host", "codex", "--canvas", "--tools"},
			method: "PUT", path: "/api/canvas/ax/host-capability",
			body: `{"host":"codex","canvas":true,"hooks":false,"tools":true,"sessionMessaging":false,"permissions":false,"files":false,"uiPrompts":false,"source":"cli"}`},
		{cli: []string{"ax", "host", "status"}, method: "GET", path: "/api/canvas/ax/host-capability"},
		{cli: []string{"ax", "timeline", "--limit", "5"}, method: "GET", path: "/api/canvas/ax/timeline?limit=5"},
		{cli: []string{"ax", "delivery", "list", "--consumer", "codex", "--limit", "5"}, method: "GET", path: "/api/canvas/ax/delivery/pending?consumer=codex&limit=5"},
		{cli: []string{"ax", "delivery", "mark", "{S}"}, method: "POST", path: "/api/canvas/ax/delivery/{S}/mark", body: `{}`},
		{cli: []string{"ax", "context", "--consumer", "codex"}, method: "GET", path: "/api/canvas/ax/context?consumer=codex"},
		{cli: []string{"ax", "status"}, method: "GET", path: "/api/canvas/ax"},

		// Operations with the builder's default command.
		{cli: []string{"ax", "review", "update", "{RV}", "--status", "resolved"}, method: "PATCH", path: "/api/canvas/ax/review/{RV}", body: `{"status":"resolved","source":"cli"}`},
		{cli: []string{"ax", "approval", "get", "{AP}"}, method: "GET", path: "/api/canvas/ax/approval/{AP}"},
		{cli: []string{"ax", "elicitation", "get", "{EL}"}, method: "GET", path: "/api/canvas/ax/elicitation/{EL}"},
		{cli: []string{"ax", "mode", "get", "{MO}", "--wait-ms", "0"}, method: "GET", path: "/api/canvas/ax/mode/{MO}?waitMs=0"},
		{cli: []string{"ax", "activity", "--kind", "note", "--title", "hi"}, method: "POST", path: "/api/canvas/ax/activity", body: `{"kind":"note","title":"hi","source":"cli"}`},
		{cli: []string{"ax", "patch", "--focus", `{"nodeIds":["{A}"]}`}, method: "PATCH", path: "/api/canvas/ax", body: `{"focus":{"nodeIds":["{A}"]}}`},
		{cli: []string{"ax", "surface-snapshot"}, method: "GET", path: "/api/canvas/ax/surface-snapshot"},
		{cli: []string{"ax", "surface-token", "--node-id", "{A}"}, method: "GET", path: "/api/canvas/ax/surface-token?nodeId={A}", mask: []string{"token"}},
		{cli: []string{"ax", "stats"}, method: "GET", path: "/api/canvas/ax/stats"},
		{cli: []string{"presence"}, method: "GET", path: "/api/canvas/presence"},
		{cli: []string{"workbench", "intent", "trace-toggle", "--payload", `{"enabled":true}`}, method: "POST", path: "/api/workbench/intent", body: `{"type":"trace-toggle","payload":{"enabled":true}}`},
		{cli: []string{"trace", "record", "start", "Read", "--tool-call-id", "t1"}, method: "POST", path: "/api/workbench/trace", body: `{"phase":"start","name":"Read","toolCallId":"t1"}`},
		{cli: []string{"trace", "record", "finish", "Read", "--tool-call-id", "t1", "--result-summary", "ok"}, method: "POST", path: "/api/workbench/trace", body: `{"phase":"finish","name":"Read","toolCallId":"t1","resultSummary":"ok"}`},
		{cli: []string{"workbench", "intent", "trace-clear"}, method: "POST", path: "/api/workbench/intent", body: `{"type":"trace-clear"}`},
		{cli: []string{"workbench", "intent", "trace-toggle"}, method: "POST", path: "/api/workbench/intent", body: `{"type":"trace-toggle"}`},
		{cli: []string{"workbench", "intent", "focus-primary"}, method: "POST", path: "/api/workbench/intent", body: `{"type":"focus-primary"}`},
		{cli: []string{"workbench", "intents"}, method: "GET", path: "/api/workbench/intents"},
		{cli: []string{"prompt", "what", "now?"}, method: "POST", path: "/api/canvas/prompt", body: `{"text":"what now?"}`, save: map[string]string{"PR": "nodeId"}},
		{cli: []string{"prompt", "respond", "{PR}", "this", "--done"}, method: "POST", path: "/api/canvas/prompt/{PR}/response", body: `{"text":"this","done":true}`},
		{cli: []string{"ax", "surface-token", "--surface", "workbench"}, method: "GET", path: "/api/canvas/ax/surface-token?surface=workbench", mask: []string{"token"}},
		{cli: []string{"theme", "set", "--theme", "light"}, method: "POST", path: "/api/canvas/theme", body: `{"theme":"light"}`},
		{cli: []string{"theme", "get"}, method: "GET", path: "/api/canvas/theme"},
		{cli: []string{"viewport", "set", "--x", "10", "--y", "-20", "--scale", "1.5"}, method: "POST", path: "/api/canvas/viewport", body: `{"x":10,"y":-20,"scale":1.5}`},
		{cli: []string{"layout", "update", "--updates", `[{"id":"{A}","position":{"x":5,"y":6}}]`}, method: "POST", path: "/api/canvas/update", body: `{"updates":[{"id":"{A}","position":{"x":5,"y":6}}]}`},
		{cli: []string{"snapshot", "diff-query", "--name", "s1"}, method: "GET", path: "/api/canvas/snapshots/diff?name=s1"},
		{cli: []string{"annotation", "add", "--type", "text", "--text", "hi", "--points", `[{"x":1,"y":2}]`},
			method: "POST", path: "/api/canvas/annotation", body: `{"type":"text","text":"hi","points":[{"x":1,"y":2}]}`, save: map[string]string{"AN": "annotation.id"}},
		{cli: []string{"annotation", "list"}, method: "GET", path: "/api/canvas/annotations"},
		{cli: []string{"annotation", "remove", "{AN}"}, method: "DELETE", path: "/api/canvas/annotation/{AN}"},

		// Workspace content.
		{cli: []string{"node", "add", "--type", "file", "--content", "notes/main.go"},
			method: "POST", path: "/api/canvas/node", body: `{"type":"file","content":"notes/main.go"}`, save: map[string]string{"F": "id"}},
		{cli: []string{"node", "refresh", "{F}"}, method: "POST", path: "/api/canvas/node/{F}/refresh", body: `{}`},
		{cli: []string{"code-graph"}, method: "GET", path: "/api/canvas/code-graph"},
		{cli: []string{"file", "save", "notes/plan.md", "--content", "# Plan"}, method: "POST", path: "/api/file/save", body: `{"path":"notes/plan.md","content":"# Plan"}`},
		{cli: []string{"file", "get", "notes/plan.md"}, method: "GET", path: "/api/file?path=notes/plan.md"},
		{cli: []string{"render", "--markdown", "**b**"}, method: "POST", path: "/api/render", body: `{"markdown":"**b**"}`},
		{cli: []string{"open-external", "{A}"}, method: "POST", path: "/api/canvas/open-external", body: `{"nodeId":"{A}"}`},
		{cli: []string{"graph", "add", "--graph-type", "bar", "--data", `[{"t":"a","n":1}]`, "--x-key", "t", "--y-key", "n"},
			method: "POST", path: "/api/canvas/graph", body: `{"graphType":"bar","data":[{"t":"a","n":1}],"xKey":"t","yKey":"n"}`},
		{cli: []string{"ui", "add", "--spec", `{"root":"c","elements":{"c":{"type":"Card","props":{"title":"P"},"children":[]}}}`},
			method: "POST", path: "/api/canvas/json-render", body: `{"spec":{"root":"c","elements":{"c":{"type":"Card","props":{"title":"P"},"children":[]}}}}`},
		{cli: []string{"ui", "stream", "--patches", `[{"op":"add","path":"/root","value":"c"}]`},
			method: "POST", path: "/api/canvas/json-render/stream", body: `{"patches":[{"op":"add","path":"/root","value":"c"}]}`},
		{cli: []string{"validate", "spec", "--type", "graph", "--graph-type", "bar", "--data", `[{"t":"a","n":1}]`},
			method: "POST", path: "/api/canvas/schema/validate", body: `{"type":"graph","graphType":"bar","data":[{"t":"a","n":1}]}`},
		{cli: []string{"node", "schema"}, method: "GET", path: "/api/canvas/schema"},
		{cli: []string{"board"}, method: "GET", path: "/api/canvas/board"},
		{cli: []string{"external-app", "open", "--tool-name", "show_counter", "--url", app, "--title", "Counter"},
			method: "POST", path: "/api/canvas/mcp-app/open",
			body: `{"toolName":"show_counter","transport":{"type":"http","url":"` + app + `"},"title":"Counter"}`,
			mask: []string{"id", "nodeId", "toolCallId", "sessionId"}, save: map[string]string{"APP": "nodeId", "SESS": "sessionId"}},
		{cli: []string{"external-app", "list-tools", "--session-id", "{SESS}"}, method: "POST", path: "/api/ext-app/list-tools", body: `{"sessionId":"{SESS}"}`},
		{cli: []string{"external-app", "list-resources", "--session-id", "{SESS}"}, method: "POST", path: "/api/ext-app/list-resources", body: `{"sessionId":"{SESS}"}`},
		{cli: []string{"external-app", "list-resource-templates", "--session-id", "{SESS}"}, method: "POST", path: "/api/ext-app/list-resource-templates", body: `{"sessionId":"{SESS}"}`},
		{cli: []string{"external-app", "list-prompts", "--session-id", "{SESS}"}, method: "POST", path: "/api/ext-app/list-prompts", body: `{"sessionId":"{SESS}"}`},
		{cli: []string{"external-app", "read-resource", "--session-id", "{SESS}", "--uri", "ui://fixture/counter.html"},
			method: "POST", path: "/api/ext-app/read-resource", body: `{"sessionId":"{SESS}","uri":"ui://fixture/counter.html"}`},
		{cli: []string{"external-app", "call-tool", "--session-id", "{SESS}", "--tool-name", "read_checkpoint", "--arguments", `{"id":"none"}`, "--node-id", "{APP}"},
			method: "POST", path: "/api/ext-app/call-tool", body: `{"sessionId":"{SESS}","toolName":"read_checkpoint","arguments":{"id":"none"},"nodeId":"{APP}"}`},
		{cli: []string{"external-app", "model-context", "{APP}", "--structured-content", `{"k":1}`},
			method: "POST", path: "/api/ext-app/model-context", body: `{"nodeId":"{APP}","structuredContent":{"k":1}}`},
		{cli: []string{"external-app", "add", "--kind", "excalidraw", "--elements", `[{"type":"rectangle","x":0,"y":0,"width":10,"height":10}]`},
			method: "POST", path: "/api/canvas/diagram",
			body: `{"title":"Excalidraw Diagram","elements":[{"type":"rectangle","x":0,"y":0,"width":10,"height":10}]}`,
			mask: []string{"id", "nodeId", "toolCallId", "sessionId"}},
		{cli: []string{"web-artifact", "build", "--title", "Parity", "--app-tsx", "export default () => <p>hi</p>", "--no-open-in-canvas"},
			method: "POST", path: "/api/canvas/web-artifact",
			body: `{"title":"Parity","appTsx":"export default () => <p>hi</p>","openInCanvas":false}`, mask: []string{"durationMs"}},
		{cli: []string{"node", "add", "--type", "web-artifact", "--title", "Parity", "--app-tsx", "export default () => <p>hi</p>"},
			method: "POST", path: "/api/canvas/web-artifact",
			body: `{"title":"Parity","appTsx":"export default () => <p>hi</p>"}`, mask: []string{"durationMs"}},
		{cli: []string{"frame-document", "create", "--html", "<p>f</p>"}, method: "POST", path: "/api/canvas/frame-documents",
			body: `{"html":"<p>f</p>"}`, mask: []string{"url"}},

		{cli: []string{"clear", "--yes"}, method: "POST", path: "/api/canvas/clear"},
		{cli: []string{"layout"}, method: "GET", path: "/api/canvas/state"},
	}

	// The automation webview: each side's canvas gets its own browser.
	steps = append(steps,
		parityStep{cli: []string{"webview", "status"}, method: "GET", path: "/api/workbench/webview"},
		parityStep{cli: []string{"webview", "stop"}, method: "DELETE", path: "/api/workbench/webview"})
	if (&automation.Chromium{}).Supported() || os.Getenv("PMX_REQUIRE_CHROMIUM") == "1" {
		steps = append(steps,
			parityStep{cli: []string{"webview", "start", "--width", "800", "--height", "600"}, method: "POST", path: "/api/workbench/webview/start", body: `{"width":800,"height":600}`},
			parityStep{cli: []string{"webview", "evaluate", "--expression", "document.title"}, method: "POST", path: "/api/workbench/webview/evaluate", body: `{"expression":"document.title"}`},
			parityStep{cli: []string{"webview", "evaluate", "--script", "return innerWidth * 2"}, method: "POST", path: "/api/workbench/webview/evaluate", body: `{"script":"return innerWidth * 2"}`},
			parityStep{cli: []string{"webview", "resize", "--width", "640", "--height", "480"}, method: "POST", path: "/api/workbench/webview/resize", body: `{"width":640,"height":480}`},
			parityStep{cli: []string{"webview", "stop"}, method: "DELETE", path: "/api/workbench/webview"})
	} else {
		t.Log("no Chromium: webview start, evaluate and resize are left out of the parity run")
	}

	// Every operation a CLI command runs has a step.
	covered := map[string]bool{}
	for _, st := range steps {
		covered[routeOp(t, st.method, st.path)] = true
	}
	// webview.screenshot answers image bytes that differ per render; the
	// webview testscript checks the CLI writes a PNG.
	covered["webview.screenshot"] = true
	// So do the byte-serving workspace routes; testdata/script/content.txtar
	// checks their commands write the bytes.
	for _, op := range []string{"file.bytes", "image.get", "artifact.get", "surface.get", "frame-document.get", "jsonrender.view"} {
		covered[op] = true
	}
	for _, op := range cliOperations(t) {
		if !covered[op] && !(strings.HasPrefix(op, "webview.") && !(&automation.Chromium{}).Supported()) {
			t.Errorf("no parity step runs %s, which a CLI command maps to", op)
		}
	}

	cliSide := &paritySide{canvas: "parity-cli", vars: map[string]string{}}
	httpSide := &paritySide{canvas: "parity-http", vars: map[string]string{}}
	for i, st := range steps {
		args := make([]string, len(st.cli))
		for j, a := range st.cli {
			args[j] = cliSide.expand(a)
		}
		name := strings.Join(st.cli, " ")
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), "PMX_CANVAS_URL="+p.url, "PMX_CANVAS_ID="+cliSide.canvas)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != st.exit {
			t.Fatalf("step %d %q: exit %d, want %d\n%s%s", i, name, code, st.exit, out, stderr.String())
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("step %d %q: stdout is not JSON: %v\n%s", i, name, err, out)
		}

		path := httpSide.expand(st.path)
		if strings.Contains(path, "?") {
			path += "&canvas=" + httpSide.canvas
		} else {
			path += "?canvas=" + httpSide.canvas
		}
		var body any
		if st.body != "" {
			body = httpSide.expand(st.body)
		}
		r := p.do(st.method, path, body, "X-PMX-Source", "cli")
		if r.status != 200 {
			t.Fatalf("step %d %s %s: status %d: %s", i, st.method, path, r.status, r.raw)
		}
		var want any
		if err := json.Unmarshal(r.raw, &want); err != nil {
			t.Fatalf("step %d %s %s: %v", i, st.method, path, err)
		}
		if st.shape != nil {
			want = st.shape(want)
		}
		// Values are saved before masking (a masked id is still used).
		for k, pathInReply := range st.save {
			cv, ok1 := walk(got, pathInReply)
			hv, ok2 := walk(want, pathInReply)
			if !ok1 || !ok2 {
				t.Fatalf("step %d %q: no %s in the replies", i, name, pathInReply)
			}
			cliSide.vars[k], _ = cv.(string)
			httpSide.vars[k], _ = hv.(string)
		}
		for _, m := range st.mask {
			maskPath(got, m)
			maskPath(want, m)
		}
		if g, w := cliNormalise(got), cliNormalise(want); g != w {
			t.Errorf("step %d %q differs from %s %s:\ncli:  %s\nhttp: %s", i, name, st.method, st.path, g, w)
		}
	}
}

// routeOp finds the catalog operation of an HTTP route.
func routeOp(t *testing.T, method, path string) string {
	t.Helper()
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(path, "/")
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			rs := strings.Split(r.Path, "/")
			if r.Method != method || len(rs) != len(segs) {
				continue
			}
			match := true
			for i := range rs {
				if !strings.HasPrefix(rs[i], ":") && rs[i] != segs[i] {
					match = false
					break
				}
			}
			if match {
				return op.Name
			}
		}
	}
	t.Fatalf("no operation serves %s %s", method, path)
	return ""
}

// cliOperations lists the operations the agent commands run: every
// catalog operation has a command (surfaces/cli builds one for each, and
// TestEveryOperationIsReachable runs them).
func cliOperations(t *testing.T) []string {
	t.Helper()
	out := make([]string, 0, len(messages.Catalog))
	for _, op := range messages.Catalog {
		out = append(out, op.Name)
	}
	return out
}

// maskPath replaces the value at a dotted path of a decoded reply.
func maskPath(v any, path string) {
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		v, _ = v.(map[string]any)[p]
	}
	if m, ok := v.(map[string]any); ok {
		m[parts[len(parts)-1]] = "<masked>"
	}
}
