package mcpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// --- helpers -------------------------------------------------------------

// op runs a catalog operation directly (setup the tools do not cover).
func (h *harness) op(op, input string) map[string]any {
	h.t.Helper()
	reply, err := h.srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: op, Source: "api", Input: json.RawMessage(input)})
	if err != nil {
		h.t.Fatalf("%s %s: %v", op, input, err)
	}
	raw, _ := json.Marshal(reply.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// errText runs a tool and asserts an isError result, returning its text.
func (h *harness) errText(tool, args string) string {
	h.t.Helper()
	r := h.call(tool, args)
	if !r.IsError {
		h.t.Fatalf("%s %s: want isError, got %s", tool, args, r.Text)
	}
	return r.Text
}

// addNode adds a markdown node and returns its id.
func (h *harness) addNode(title string) string {
	h.t.Helper()
	out := h.ok("canvas_add_node", `{"type":"markdown","title":"`+title+`","content":"body of `+title+`"}`)
	return out["id"].(string)
}

// keysOf lists the top-level keys of a JSON object in order.
func keysOf(t *testing.T, text string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", text)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// rawKeys lists the keys of a nested object value in order.
func rawKeys(t *testing.T, text string, path ...string) []string {
	t.Helper()
	cur := text
	for _, p := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(cur), &m); err != nil {
			t.Fatal(err)
		}
		cur = string(m[p])
	}
	return keysOf(t, cur)
}

var idPattern = regexp.MustCompile(`\b(node|group|edge|snap|ann)-[a-z0-9]+-[a-z0-9]+\b`)
var timePattern = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`)

// norm hides generated ids and timestamps so two canvases compare.
func norm(s string) string {
	return timePattern.ReplaceAllString(idPattern.ReplaceAllString(s, "<$1>"), "<time>")
}

func deepEq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}

var compactNodeKeys = []string{"id", "type", "kind", "title", "content", "position", "size", "pinned", "collapsed", "dockPosition", "provenance"}
var fullNodeKeys = []string{"id", "type", "position", "size", "zIndex", "collapsed", "pinned", "dockPosition", "data", "kind", "title", "content", "path", "url", "surfaceUrl", "provenance"}

func registry(t *testing.T) *mcpapi.Registry {
	t.Helper()
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// --- schemas ---------------------------------------------------------------

// Every canvas tool advertises the reference's fields in the reference's
// order with its required set; composites derive theirs from the members.
func TestCanvasToolSchemas(t *testing.T) {
	reg := registry(t)
	tests := []struct {
		tool     string
		fields   string
		required string
	}{
		{"canvas_add_node", "type title content path url x y width height strictSize children childIds childLayout color toolName category status duration resultSummary error data html primitive kind summary agentSummary description presentation slideTitles embeddedNodeIds embeddedUrls axCapabilities position size full verbose", "type"},
		{"canvas_get_node", "id includeBlobs full verbose", "id"},
		{"canvas_update_node", "id title content x y width height position size spec graphType data xKey yKey chartHeight toolName category status duration resultSummary error collapsed dockPosition pinned arrangeLocked strictSize axCapabilities html url refresh children childIds full verbose", "id"},
		{"canvas_remove_node", "id", "id"},
		{"canvas_get_layout", "includeBlobs full verbose", ""},
		{"canvas_add_edge", "from to fromSearch toSearch type label style animated", "type"},
		{"canvas_remove_edge", "id edge_id", "id"},
		{"canvas_arrange", "layout", ""},
		{"canvas_focus_node", "id noPan", "id"},
		{"canvas_fit_view", "width height padding maxScale nodeIds", ""},
		{"canvas_clear", "", ""},
		{"canvas_create_group", "title childIds color x y width height childLayout full verbose", ""},
		{"canvas_group_nodes", "groupId childIds childLayout", "groupId childIds"},
		{"canvas_ungroup", "groupId", "groupId"},
		{"canvas_pin_nodes", "nodeIds mode", "nodeIds"},
		{"canvas_search", "q limit query", "query"},
		{"canvas_undo", "", ""},
		{"canvas_redo", "", ""},
		{"canvas_validate", "", ""},
		{"canvas_remove_annotation", "id", "id"},
		{"canvas_list_snapshots", "limit q query before after all", ""},
		{"canvas_snapshot", "name action id snapshot limit q query before after all keep dryRun", ""},
		{"canvas_gc_snapshots", "keep dryRun", ""},
		{"canvas_diff", "id snapshot", "snapshot"},
		{"canvas_restore", "id", "id"},
		{"canvas_delete_snapshot", "id", "id"},
		{"canvas_batch", "operations full verbose", "operations"},
		{"canvas_add_html_node", "html title summary agentSummary description presentation slideTitles embeddedNodeIds embeddedUrls x y width height strictSize axCapabilities full verbose", "html"},
		{"canvas_node", "action type title content path url x y width height strictSize children childIds childLayout color toolName category status duration resultSummary error data html primitive kind summary agentSummary description presentation slideTitles embeddedNodeIds embeddedUrls axCapabilities position size full verbose id includeBlobs spec graphType xKey yKey chartHeight collapsed dockPosition pinned arrangeLocked refresh", "action"},
		{"canvas_edge", "action from to fromSearch toSearch type label style animated id edge_id", "action"},
		{"canvas_group", "action title childIds color x y width height childLayout full verbose groupId", "action"},
		{"canvas_history", "action", "action"},
		{"canvas_view", "action layout id noPan width height padding maxScale nodeIds", "action"},
		{"canvas_query", "action q limit query includeBlobs full verbose", "action"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tool, ok := reg.Tool(tt.tool)
			if !ok {
				t.Fatal("not registered")
			}
			var names, req []string
			for _, f := range tool.Fields {
				names = append(names, f.Name)
				if f.Required {
					req = append(req, f.Name)
				}
			}
			// The names are frozen; their order follows the input type.
			deepEq(t, "fields", sortedWords(strings.Join(names, " ")), sortedWords(tt.fields))
			deepEq(t, "required", sortedWords(strings.Join(req, " ")), sortedWords(tt.required))
		})
	}
}

// Shared composite fields take the first member's loose type; fields of one
// action keep their strict type (reference §6 tables).
func TestCanvasCompositeFieldTypes(t *testing.T) {
	reg := registry(t)
	schema := func(tool, field string) string {
		tl, _ := reg.Tool(tool)
		for _, f := range tl.Fields {
			if f.Name == field {
				b, _ := json.Marshal(f.Schema)
				return string(b)
			}
		}
		t.Fatalf("%s has no field %s", tool, field)
		return ""
	}
	typeOf := func(tool, field string) any {
		var m map[string]any
		_ = json.Unmarshal([]byte(schema(tool, field)), &m)
		return m["type"]
	}
	tests := []struct {
		tool, field string
		typ         any
	}{
		// Generated from the operations' input types: a shared field has
		// the type every action decodes it with, and none when the actions
		// decode it differently (children: a list on add, anything on
		// update; timeline kind: an event kind or an evidence kind).
		{"canvas_ax_timeline", "kind", nil},
		{"canvas_node", "type", "string"}, {"canvas_node", "title", "string"}, {"canvas_node", "x", "number"},
		{"canvas_node", "strictSize", "boolean"}, {"canvas_node", "children", nil}, {"canvas_node", "childIds", nil},
		{"canvas_node", "data", "object"}, {"canvas_node", "axCapabilities", "object"}, {"canvas_node", "full", "boolean"},
		{"canvas_node", "id", "string"}, {"canvas_node", "spec", "object"}, {"canvas_node", "refresh", "boolean"},
		{"canvas_edge", "type", "string"}, {"canvas_edge", "edge_id", "string"},
		{"canvas_group", "childIds", "array"}, {"canvas_group", "childLayout", "string"}, {"canvas_group", "groupId", "string"},
		{"canvas_view", "id", "string"}, {"canvas_view", "nodeIds", "array"}, {"canvas_view", "layout", "string"},
		{"canvas_query", "q", "string"}, {"canvas_query", "query", "string"},
	}
	for _, tt := range tests {
		deepEq(t, tt.tool+"."+tt.field, typeOf(tt.tool, tt.field), tt.typ)
	}
	if s := schema("canvas_group", "childLayout"); !strings.Contains(s, `"enum":["grid","column","flow"]`) {
		t.Errorf("canvas_group.childLayout: %s", s)
	}
	if s := schema("canvas_update_node", "dockPosition"); s != `{"anyOf":[{"type":"string","enum":["left","right"]},{"type":"null"}],"description":"left or right docks the node into a side column; null undocks it."}` {
		t.Errorf("dockPosition schema: %s", s)
	}
	if s := schema("canvas_snapshot", "action"); !strings.Contains(s, `"enum":["save","list","restore","delete","gc","diff"]`) {
		t.Errorf("canvas_snapshot.action: %s", s)
	}
}

// Legacy tools reachable through a composite carry the derived prefix; the
// pins, snapshot and batch tools carry none; canvas_add_html_node carries
// its hand-written one.
func TestCanvasDeprecationPrefixes(t *testing.T) {
	reg := registry(t)
	tests := map[string]string{
		"canvas_add_node":          `Deprecated: use canvas_node with action "add". `,
		"canvas_get_node":          `Deprecated: use canvas_node with action "get". `,
		"canvas_update_node":       `Deprecated: use canvas_node with action "update". `,
		"canvas_remove_node":       `Deprecated: use canvas_node with action "remove". `,
		"canvas_get_layout":        `Deprecated: use canvas_query with action "layout". `,
		"canvas_add_edge":          `Deprecated: use canvas_edge with action "add". `,
		"canvas_remove_edge":       `Deprecated: use canvas_edge with action "remove". `,
		"canvas_arrange":           `Deprecated: use canvas_view with action "arrange". `,
		"canvas_focus_node":        `Deprecated: use canvas_view with action "focus". `,
		"canvas_fit_view":          `Deprecated: use canvas_view with action "fit". `,
		"canvas_clear":             `Deprecated: use canvas_view with action "clear". `,
		"canvas_remove_annotation": `Deprecated: use canvas_view with action "remove-annotation". `,
		"canvas_create_group":      `Deprecated: use canvas_group with action "create". `,
		"canvas_group_nodes":       `Deprecated: use canvas_group with action "add". `,
		"canvas_ungroup":           `Deprecated: use canvas_group with action "ungroup". `,
		"canvas_search":            `Deprecated: use canvas_query with action "search". `,
		"canvas_validate":          `Deprecated: use canvas_query with action "validate". `,
		"canvas_undo":              `Deprecated: use canvas_history with action "undo". `,
		"canvas_redo":              `Deprecated: use canvas_history with action "redo". `,
		"canvas_add_html_node":     `Deprecated: use canvas_node with action "add" and type:"html". `,
	}
	for name, prefix := range tests {
		tool, _ := reg.Tool(name)
		if !strings.HasPrefix(tool.Description, prefix) || strings.Count(tool.Description, "Deprecated:") != 1 {
			t.Errorf("%s: %q", name, tool.Description)
		}
	}
	for _, name := range []string{"canvas_pin_nodes", "canvas_list_snapshots", "canvas_snapshot", "canvas_gc_snapshots",
		"canvas_diff", "canvas_restore", "canvas_delete_snapshot", "canvas_batch", "canvas_node", "canvas_edge",
		"canvas_group", "canvas_history", "canvas_view", "canvas_query"} {
		if tool, _ := reg.Tool(name); strings.Contains(tool.Description, "Deprecated") {
			t.Errorf("%s is not deprecated: %q", name, tool.Description)
		}
	}
}

// --- nodes -----------------------------------------------------------------

func TestAddNode(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_add_node", `{"type":"markdown","title":"Draft note","content":"# Hello\nfrom the agent"}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "node", "id", "nodeId"})
	deepEq(t, "node keys", rawKeys(t, text, "node"), compactNodeKeys)
	out := decode(t, text)
	node := out["node"].(map[string]any)
	deepEq(t, "id", out["nodeId"], out["id"])
	deepEq(t, "node.id", node["id"], out["id"])
	deepEq(t, "title", node["title"], "Draft note")
	deepEq(t, "content", node["content"], "# Hello\nfrom the agent")
	deepEq(t, "position", node["position"], map[string]any{"x": 40.0, "y": 80.0})
	deepEq(t, "size", node["size"], map[string]any{"width": 640.0, "height": 420.0})
	if !strings.HasPrefix(text, "{\n  \"ok\": true,") {
		t.Errorf("not pretty: %s", text)
	}

	// full: the full node, spread, nodeId, then our revision.
	full := h.text("canvas_add_node", `{"type":"trace","title":"T","toolName":"grep","status":"running","strictSize":true,"width":320,"height":140,"full":true}`)
	deepEq(t, "full keys", keysOf(t, full), append(append([]string{"ok", "node"}, fullNodeKeys...), "nodeId", "revision"))
	deepEq(t, "full node keys", rawKeys(t, full, "node"), fullNodeKeys)
	f := decode(t, full)
	data := f["data"].(map[string]any)
	deepEq(t, "trace data", []any{data["toolName"], data["status"], data["strictSize"]}, []any{"grep", "running", true})
	deepEq(t, "strict size", f["size"], map[string]any{"width": 320.0, "height": 140.0})
	if v := h.text("canvas_add_node", `{"type":"markdown","verbose":true}`); !strings.Contains(v, `"zIndex"`) {
		t.Errorf("verbose is full: %s", v)
	}

	// A wrong-typed field is refused with the operation's text (the
	// reference's tool dropped it silently).
	h.fails("canvas_add_node", `{"type":"markdown","title":5,"content":"c"}`, `invalid input for node.add: field "title" must be a string, got number`)
	h.fails("canvas_add_node", `{"type":"markdown","x":"10"}`, `invalid input for node.add: field "x" must be a number, got string`)
	h.fails("canvas_add_node", `{"type":"html","html":"<p>x</p>","slideTitles":"nope"}`, `invalid input for node.add: field "slideTitles" must be an array, got string`)
	html := h.ok("canvas_add_node", `{"type":"html","html":"<p>x</p>","embeddedUrls":["u"],"full":true}`)
	hd := html["data"].(map[string]any)
	deepEq(t, "embeddedUrls kept", hd["embeddedUrls"], []any{"u"})

	// A webpage answers the whole body, compact (no page fetch yet).
	web := h.text("canvas_add_node", `{"type":"webpage","url":"https://example.com/a"}`)
	if !strings.HasPrefix(web, `{"ok":true,"node":{`) || strings.Contains(web, "\n") || !strings.Contains(web, `"nodeId":"node-`) {
		t.Errorf("webpage: %s", web)
	}
	deepEq(t, "webpage url", decode(t, web)["url"], "https://example.com/a")

	// A group node.
	a, b := h.addNode("A"), h.addNode("B")
	g := h.ok("canvas_add_node", `{"type":"group","title":"G","childIds":["`+a+`","`+b+`"],"full":true}`)
	deepEq(t, "group children", g["data"].(map[string]any)["children"], []any{a, b})

	tests := []struct{ args, want string }{
		{`{"type":"webpage"}`, `Webpage nodes require a non-empty URL.`},
		{`{"type":"webpage","url":""}`, `Webpage nodes require a non-empty URL.`},
		{`{"type":"html","primitive":"status-board"}`, "Unknown HTML primitive: status-board. Known HTML primitives: choice-grid, plan-timeline, review-sheet, pr-writeup, system-map, code-walkthrough, design-sheet, component-gallery, interaction-prototype, flowchart, deck, presentation, illustration-set, explainer, status-report, incident-report, triage-board, config-editor, prompt-tuner."},
		{`{"type":"html","kind":"checklist"}`, "Unknown HTML primitive: checklist. Known HTML primitives: choice-grid, plan-timeline, review-sheet, pr-writeup, system-map, code-walkthrough, design-sheet, component-gallery, interaction-prototype, flowchart, deck, presentation, illustration-set, explainer, status-report, incident-report, triage-board, config-editor, prompt-tuner."},
		{`{"type":"html","html":5}`, `HTML node field "html" must be a string.`},
		{`{"type":"group","childIds":["nope"]}`, `Cannot create group: Missing child node ID(s): nope.`},
		{`{"type":"markdown","width":0}`, `Size width and height must be greater than zero.`},
		{`{"type":"json-render"}`, `Node type "json-render" is created via POST /api/canvas/json-render. See /api/canvas/schema for the required spec shape.`},
		// "": the text the operation gives over HTTP.
		{`{"title":"x"}`, ""},
		{`{"type":"group","children":5}`, ""},
		{`{"type":"markdown","full":"yes"}`, `invalid input for node.add: field "full" must be a boolean, got string`},
	}
	for _, tt := range tests {
		if tt.want == "" {
			tt.want = h.httpError("node.add", tt.args)
		}
		h.fails("canvas_add_node", tt.args, tt.want)
	}
	// kind/primitive on other types are ignored, as the reference does,
	// but decoded like every field.
	h.ok("canvas_add_node", `{"type":"markdown","kind":"x","primitive":"x"}`)
	h.fails("canvas_add_node", `{"type":"markdown","kind":5}`, h.httpError("node.add", `{"type":"markdown","kind":5}`))
}

// A hosted external app's shell HTML is never handed to the agent: full
// payloads replace it with {omitted, resourceUri, bytes, sha256}.
func TestExternalAppHTMLIsElided(t *testing.T) {
	h := newHarness(t)
	html := "<b>Fixture Counter</b> ü"
	sum := sha256.Sum256([]byte(html))
	want := map[string]any{"omitted": "external-mcp-app-html", "resourceUri": "ui://fixture/counter.html",
		"bytes": float64(len(html)), "sha256": hex.EncodeToString(sum[:])}
	text := h.text("canvas_add_node", `{"type":"mcp-app","title":"App","data":{"mode":"ext-app","html":"`+html+`","resourceUri":"ui://fixture/counter.html"},"full":true}`)
	out := decode(t, text)
	id := out["id"].(string)
	deepEq(t, "add full html", out["data"].(map[string]any)["html"], want)
	deepEq(t, "add full node html", out["node"].(map[string]any)["data"].(map[string]any)["html"], want)
	for _, tt := range []struct{ tool, args string }{
		{"canvas_get_node", `{"id":"` + id + `","full":true}`},
		{"canvas_get_layout", `{"full":true}`},
		{"canvas_update_node", `{"id":"` + id + `","title":"App 2","full":true}`},
	} {
		got := h.text(tt.tool, tt.args)
		if strings.Contains(got, "Fixture Counter") || !strings.Contains(got, `"omitted": "external-mcp-app-html"`) {
			t.Errorf("%s leaks the shell html: %s", tt.tool, got)
		}
	}
	// Other html is kept: an mcp-app that is not an external app.
	plain := h.ok("canvas_add_node", `{"type":"mcp-app","data":{"html":"<i>keep</i>"},"full":true}`)
	deepEq(t, "non ext-app html", plain["data"].(map[string]any)["html"], "<i>keep</i>")
	// Large payloads come back whole in full reads (never the sidecar summary).
	big := strings.Repeat("x", 3000)
	bigNode := h.ok("canvas_add_node", `{"type":"mcp-app","data":{"toolResult":"`+big+`"},"full":true}`)
	deepEq(t, "blob inlined", bigNode["data"].(map[string]any)["toolResult"], big)
}

func TestGetNode(t *testing.T) {
	h := newHarness(t)
	id := h.addNode("Plan")
	h.op("pin.set", `{"nodeIds":["`+id+`"]}`)
	text := h.text("canvas_get_node", `{"id":"`+id+`"}`)
	deepEq(t, "compact keys", keysOf(t, text), compactNodeKeys)
	n := decode(t, text)
	deepEq(t, "title", n["title"], "Plan")
	deepEq(t, "content", n["content"], "body of Plan")
	deepEq(t, "context pin reads pinned", n["pinned"], true)
	full := h.text("canvas_get_node", `{"id":"`+id+`","full":true,"includeBlobs":false}`)
	deepEq(t, "full keys", keysOf(t, full), fullNodeKeys)
	deepEq(t, "data", decode(t, full)["data"], map[string]any{"title": "Plan", "content": "body of Plan"})
	h.fails("canvas_get_node", `{"id":"nope"}`, `Node "nope" not found.`)
	h.fails("canvas_node", `{"action":"get"}`, `invalid input for node.get: field "id" is required`)
	// A field of another action is refused, naming the action and the field
	// (the reference passed it on to be ignored).
	h.fails("canvas_node", `{"action":"get","id":"`+id+`","type":"status"}`, `canvas_node: action "get" does not take field "type".`)
	h.fails("canvas_ax_gate", `{"kind":"mode","action":"await","id":"x","title":"t","prompt":"p"}`,
		`canvas_ax_gate: kind "mode" action "await" does not take fields "prompt" and "title".`)
}

func TestUpdateNode(t *testing.T) {
	h := newHarness(t)
	id := h.addNode("Plan")
	text := h.text("canvas_update_node", `{"id":"`+id+`","title":"Plan 2","x":10,"width":500,"collapsed":true}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "node", "id", "nodeId"})
	n := decode(t, text)["node"].(map[string]any)
	deepEq(t, "title", n["title"], "Plan 2")
	deepEq(t, "position keeps y", n["position"], map[string]any{"x": 10.0, "y": 80.0})
	deepEq(t, "size keeps height", n["size"], map[string]any{"width": 500.0, "height": 420.0})
	deepEq(t, "collapsed", n["collapsed"], true)

	full := h.ok("canvas_update_node", `{"id":"`+id+`","arrangeLocked":true,"dockPosition":"right","pinned":true,"full":true}`)
	deepEq(t, "arrangeLocked", full["data"].(map[string]any)["arrangeLocked"], true)
	deepEq(t, "dock", full["dockPosition"], "right")
	deepEq(t, "pinned", full["pinned"], true)
	undock := h.ok("canvas_update_node", `{"id":"`+id+`","dockPosition":null,"verbose":true}`)
	deepEq(t, "undocked", undock["dockPosition"], nil)

	// canvas_node update merges an object data.
	merged := h.ok("canvas_node", `{"action":"update","id":"`+id+`","data":{"extra":1},"full":true}`)
	deepEq(t, "data merged", merged["data"].(map[string]any)["extra"], 1.0)
	h.fails("canvas_node", `{"action":"update","id":"`+id+`","title":7}`, `invalid input for node.update: field "title" must be a string, got number`)

	// refresh: re-fetches a webpage (tests/content drives real fetches);
	// other node types do not refresh.
	h.fails("canvas_node", `{"action":"update","id":"`+id+`","refresh":true}`, `Node "`+id+`" is a markdown node; only file, image and webpage nodes refresh.`)

	tests := []struct{ tool, args, want string }{
		{"canvas_update_node", `{"id":"nope","title":"x"}`, `Node "nope" not found.`},
		{"canvas_update_node", `{"id":"` + id + `","width":-5}`, "Size width and height must be greater than zero."},
		{"canvas_update_node", `{"id":"` + id + `","data":[{"k":1}]}`, `invalid input for node.update: field "data" must be an object, got array (an array of rows patches a graph node only)`},
		{"canvas_update_node", `{"id":"` + id + `","title":5}`, `invalid input for node.update: field "title" must be a string, got number`},
		{"canvas_node", `{"action":"update","title":"x"}`, `invalid input for node.update: field "id" is required`},
		{"canvas_update_node", `{"id":"` + id + `","html":"<p>"}`, `Field "html" only applies to html nodes; node "` + id + `" is a markdown node.`},
	}
	for _, tt := range tests {
		h.fails(tt.tool, tt.args, tt.want)
	}
}

func TestRemoveNodeTools(t *testing.T) {
	h := newHarness(t)
	id := h.addNode("Gone")
	deepEq(t, "remove", h.text("canvas_node", `{"action":"remove","id":"`+id+`"}`), `{"ok":true,"removed":"`+id+`","revision":3}`)
	h.fails("canvas_node", `{"action":"remove","id":"`+id+`"}`, `Node "`+id+`" not found.`)
	h.fails("canvas_node", `{"action":"remove"}`, `invalid input for node.remove: field "id" is required`)
}

func TestAddHTMLNode(t *testing.T) {
	h := newHarness(t)
	text := h.text("canvas_add_html_node", `{"html":"<p>hi</p>","title":"H","description":"d","presentation":false,"strictSize":false,"slideTitles":["one"],"x":10,"y":20,"axCapabilities":{"enabled":true,"allowed":["ax.work.create"]}}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "node", "id", "nodeId"})
	n := decode(t, text)["node"].(map[string]any)
	deepEq(t, "type", n["type"], "html")
	deepEq(t, "geometry", []any{n["position"], n["size"]}, []any{map[string]any{"x": 10.0, "y": 20.0}, map[string]any{"width": 720.0, "height": 640.0}})
	full := h.ok("canvas_get_node", `{"id":"`+n["id"].(string)+`","full":true}`)
	data := full["data"].(map[string]any)
	deepEq(t, "html", data["html"], "<p>hi</p>")
	deepEq(t, "slideTitles", data["slideTitles"], []any{"one"})
	deepEq(t, "false flags not stored", []any{data["presentation"], data["strictSize"]}, []any{nil, nil})
	deepEq(t, "axCapabilities", data["axCapabilities"].(map[string]any)["enabled"], true)
	if f := h.ok("canvas_add_html_node", `{"html":"<p/>","presentation":true,"full":true}`); f["data"].(map[string]any)["presentation"] != true {
		t.Errorf("presentation true: %v", f["data"])
	}
	// html is advertised as required; the operation decides, and an html
	// node without a document is created as over HTTP.
	deepEq(t, "no html", h.ok("canvas_add_html_node", `{"title":"x"}`)["node"].(map[string]any)["type"], "html")
	h.fails("canvas_add_html_node", `{"html":"x","x":"1"}`, `invalid input for node.add: field "x" must be a number, got string`)
}

// --- layout ----------------------------------------------------------------

func TestGetLayout(t *testing.T) {
	h := newHarness(t)
	a := h.addNode("Alpha")
	b := h.addNode("Beta")
	h.text("canvas_add_edge", `{"from":"`+a+`","to":"`+b+`","type":"flow","label":"next","style":"dashed","animated":false}`)
	h.op("pin.set", `{"nodeIds":["`+a+`"]}`)
	h.op("annotation.add", `{"points":[{"x":400,"y":300},{"x":420,"y":320}],"label":"look here"}`)

	text := h.text("canvas_get_layout", `{}`)
	deepEq(t, "keys", keysOf(t, text), []string{"summary", "viewport", "annotations", "nodes", "edges"})
	deepEq(t, "summary keys", rawKeys(t, text, "summary"), []string{"totalNodes", "totalEdges", "totalAnnotations", "annotations", "nodesByType", "pinnedCount", "pinnedTitles", "viewport"})
	l := decode(t, text)
	s := l["summary"].(map[string]any)
	deepEq(t, "counts", []any{s["totalNodes"], s["totalEdges"], s["totalAnnotations"], s["pinnedCount"]}, []any{4.0, 1.0, 1.0, 1.0})
	deepEq(t, "pinnedTitles", s["pinnedTitles"], []any{"Alpha"})
	deepEq(t, "nodesByType", s["nodesByType"], map[string]any{"status": 1.0, "context": 1.0, "markdown": 2.0})
	ann := l["annotations"].([]any)[0].(map[string]any)
	deepEq(t, "annotation", []any{ann["label"], ann["target"], ann["targetNodeIds"], ann["points"]}, []any{"look here", "Alpha", []any{a}, nil})
	deepEq(t, "summary annotations", s["annotations"], l["annotations"])
	nodes := l["nodes"].([]any)
	deepEq(t, "node count", len(nodes), 4)
	alpha := nodes[2].(map[string]any)
	deepEq(t, "compact node", []any{alpha["id"], alpha["pinned"], alpha["data"]}, []any{a, true, nil})
	deepEq(t, "edge", l["edges"], []any{map[string]any{"id": l["edges"].([]any)[0].(map[string]any)["id"], "from": a, "to": b, "type": "flow", "label": "next", "style": "dashed", "animated": false}})
	var raw struct {
		Nodes []json.RawMessage `json:"nodes"`
		Edges []json.RawMessage `json:"edges"`
	}
	_ = json.Unmarshal([]byte(text), &raw)
	deepEq(t, "compact node keys", keysOf(t, string(raw.Nodes[0])), compactNodeKeys)
	deepEq(t, "edge keys", keysOf(t, string(raw.Edges[0])), []string{"id", "from", "to", "type", "label", "style", "animated"})

	full := h.text("canvas_get_layout", `{"full":true}`)
	deepEq(t, "full keys", keysOf(t, full), []string{"viewport", "theme", "nodes", "edges", "annotations"})
	fl := decode(t, full)
	deepEq(t, "theme", fl["theme"], "dark")
	deepEq(t, "full annotations", fl["annotations"], l["annotations"])
	_ = json.Unmarshal([]byte(full), &raw)
	deepEq(t, "full node keys", keysOf(t, string(raw.Nodes[2])), fullNodeKeys)
	deepEq(t, "verbose", h.text("canvas_get_layout", `{"verbose":true}`), full)
	deepEq(t, "canvas_query layout", h.text("canvas_query", `{"action":"layout"}`), text)
	deepEq(t, "canvas_query layout full", h.text("canvas_query", `{"action":"layout","full":true}`), full)
}

// --- edges -----------------------------------------------------------------

func TestEdgeTools(t *testing.T) {
	h := newHarness(t)
	a, b := h.addNode("Alpha"), h.addNode("Beta")
	text := h.text("canvas_add_edge", `{"fromSearch":"alpha","toSearch":"Beta","type":"depends-on","style":"dotted","animated":true}`)
	deepEq(t, "keys", keysOf(t, text), []string{"id", "from", "to", "type", "style", "animated"})
	e := decode(t, text)
	deepEq(t, "endpoints", []any{e["from"], e["to"], e["type"]}, []any{a, b, "depends-on"})
	edge := e["id"].(string)

	tests := []struct{ tool, args, want string }{
		{"canvas_add_edge", `{"to":"` + b + `","type":"flow"}`, `Missing required fields: type plus from/fromSearch and to/toSearch.`},
		{"canvas_add_edge", `{"from":"` + a + `","type":"flow"}`, `Missing required fields: type plus from/fromSearch and to/toSearch.`},
		{"canvas_add_edge", `{"from":5,"to":"` + b + `","type":"flow"}`, `invalid input for edge.add: field "from" must be a string, got number`},
		{"canvas_add_edge", `{"from":"` + a + `","to":"` + b + `","type":"depends-on"}`, `Duplicate or self-edge.`},
		{"canvas_add_edge", `{"from":"` + a + `","to":"nope","type":"flow"}`, `Node "nope" not found.`},
		{"canvas_add_edge", `{"from":"` + a + `","to":"` + b + `"}`, `Missing required fields: type plus from/fromSearch and to/toSearch.`},
		{"canvas_edge", `{"action":"add","from":"` + a + `","to":"` + b + `"}`, `Missing required fields: type plus from/fromSearch and to/toSearch.`},
		{"canvas_edge", `{"action":"remove"}`, `Missing edge_id.`},
		{"canvas_remove_edge", `{"id":"edge-nope"}`, `Edge "edge-nope" not found.`},
	}
	for _, tt := range tests {
		h.fails(tt.tool, tt.args, tt.want)
	}
	// edge_id wins over id.
	got := h.text("canvas_remove_edge", `{"id":"edge-nope","edge_id":"`+edge+`"}`)
	deepEq(t, "removed", decode(t, got)["removed"], edge)
	deepEq(t, "remove keys", keysOf(t, got), []string{"ok", "removed", "revision"})
	if strings.Contains(got, "\n") {
		t.Errorf("remove is compact: %s", got)
	}
}

// --- view ------------------------------------------------------------------

func TestViewTools(t *testing.T) {
	h := newHarness(t)
	a := h.addNode("Alpha")
	h.addNode("Beta")
	deepEq(t, "arrange", h.text("canvas_arrange", `{}`), `{"ok":true,"layout":"grid"}`)
	deepEq(t, "arrange column", h.text("canvas_view", `{"action":"arrange","layout":"column"}`), `{"ok":true,"layout":"column"}`)
	deepEq(t, "focus", h.text("canvas_focus_node", `{"id":"`+a+`"}`), `{"ok":true,"focused":"`+a+`","panned":true}`)
	deepEq(t, "focus noPan", h.text("canvas_view", `{"action":"focus","id":"`+a+`","noPan":true}`), `{"ok":true,"focused":"`+a+`","panned":false}`)
	ax := h.op("ax.get", `{}`)
	deepEq(t, "AX focus follows", ax["state"].(map[string]any)["focus"].(map[string]any)["nodeIds"], []any{a})

	h.fails("canvas_fit_view", `{"padding":"10"}`, `invalid input for view.fit: field "padding" must be a number, got string`)
	fit := h.text("canvas_fit_view", `{"nodeIds":["`+a+`"]}`)
	deepEq(t, "fit keys", keysOf(t, fit), []string{"ok", "viewport", "nodeCount", "bounds"})
	f := decode(t, fit)
	deepEq(t, "fit count", f["nodeCount"], 1.0)
	deepEq(t, "fit bounds", f["bounds"], map[string]any{"x": 40.0, "y": 80.0, "width": 640.0, "height": 420.0})
	if !strings.Contains(fit, "\n") {
		t.Errorf("fit is pretty: %s", fit)
	}
	deepEq(t, "fit via canvas_view", h.text("canvas_view", `{"action":"fit","nodeIds":["`+a+`"]}`), fit)

	h.op("annotation.add", `{"id":"ink-1","points":[{"x":0,"y":0},{"x":10,"y":10}]}`)
	removed := h.text("canvas_view", `{"action":"remove-annotation","id":"ink-1"}`)
	deepEq(t, "remove annotation keys", keysOf(t, removed), []string{"ok", "removed", "revision"})
	deepEq(t, "removed", decode(t, removed)["removed"], "ink-1")

	tests := []struct{ tool, args, want string }{
		{"canvas_focus_node", `{"id":"nope"}`, `Node "nope" not found.`},
		{"canvas_view", `{"action":"focus"}`, `Missing id.`},
		{"canvas_view", `{"action":"focus","id":5}`, `invalid input for node.focus: field "id" must be a string, got number`},
		{"canvas_view", `{"action":"remove-annotation"}`, `Missing id.`},
		{"canvas_remove_annotation", `{"id":"ink-1"}`, `Annotation "ink-1" not found.`},
		{"canvas_fit_view", `{"nodeIds":["nope"]}`, `Unknown node ID(s) to fit: nope.`},
		{"canvas_arrange", `{"layout":"spiral"}`, `Invalid layout: "spiral". Use: grid, column, flow`},
		{"canvas_view", `{"action":"zoom"}`, `MCP error -32602: Input validation error: Invalid arguments for tool canvas_view: action: expected one of "arrange"|"focus"|"fit"|"clear"|"remove-annotation"`},
	}
	for _, tt := range tests {
		if tt.tool == "canvas_fit_view" {
			// The message is the operation's own; just require isError.
			h.errText(tt.tool, tt.args)
			continue
		}
		h.fails(tt.tool, tt.args, tt.want)
	}

	deepEq(t, "clear", h.text("canvas_clear", `{}`), `{"ok":true,"cleared":true}`)
	deepEq(t, "cleared", len(h.op("layout.get", `{}`)["nodes"].([]any)), 0)
	deepEq(t, "clear via canvas_view", h.text("canvas_view", `{"action":"clear"}`), `{"ok":true,"cleared":true}`)
}

// --- groups ----------------------------------------------------------------

func TestGroupTools(t *testing.T) {
	h := newHarness(t)
	a, b, c := h.addNode("A"), h.addNode("B"), h.addNode("C")
	text := h.text("canvas_create_group", `{"title":"G","childIds":["`+a+`"],"color":"#f00"}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "node", "id", "nodeId"})
	g := decode(t, text)
	gid := g["id"].(string)
	deepEq(t, "group", []any{g["node"].(map[string]any)["type"], g["node"].(map[string]any)["title"]}, []any{"group", "G"})
	if !strings.HasPrefix(gid, "group-") {
		t.Errorf("group id %s", gid)
	}
	rev := func(text string) string {
		return regexp.MustCompile(`"revision":\d+`).ReplaceAllString(text, `"revision":N`)
	}
	deepEq(t, "add", rev(h.text("canvas_group_nodes", `{"groupId":"`+gid+`","childIds":["`+b+`"]}`)), `{"ok":true,"groupId":"`+gid+`","revision":N}`)
	h.fails("canvas_group", `{"action":"add","groupId":"`+gid+`","childIds":["`+c+`",5]}`, `invalid input for group.add: field "childIds" must be a string, got number`)
	deepEq(t, "add via canvas_group", rev(h.text("canvas_group", `{"action":"add","groupId":"`+gid+`","childIds":["`+c+`"]}`)), `{"ok":true,"groupId":"`+gid+`","revision":N}`)
	full := h.ok("canvas_get_node", `{"id":"`+gid+`","full":true}`)
	deepEq(t, "members", full["data"].(map[string]any)["children"], []any{a, b, c})
	deepEq(t, "ungroup", rev(h.text("canvas_group", `{"action":"ungroup","groupId":"`+gid+`"}`)), `{"ok":true,"groupId":"`+gid+`","revision":N}`)
	fullCreate := h.ok("canvas_group", `{"action":"create","title":"H","x":0,"y":600,"width":400,"height":300,"full":true}`)
	deepEq(t, "manual frame", fullCreate["data"].(map[string]any)["frameMode"], "manual")

	tests := []struct{ tool, args, want string }{
		{"canvas_create_group", `{"childIds":["nope"]}`, `Cannot create group: missing child node ID(s): nope.`},
		{"canvas_group_nodes", `{"groupId":"nope","childIds":["` + a + `"]}`, `Group not found or no valid children.`},
		{"canvas_ungroup", `{"groupId":"nope"}`, `Group not found or empty.`},
		{"canvas_group", `{"action":"add"}`, `Missing groupId or childIds.`},
		{"canvas_group", `{"action":"ungroup"}`, `Missing groupId.`},
		{"canvas_group", `{"action":"ungroup","groupId":5}`, `invalid input for group.remove: field "groupId" must be a string, got number`},
		{"canvas_group_nodes", `{"groupId":"` + gid + `"}`, `Missing groupId or childIds.`},
	}
	for _, tt := range tests {
		h.fails(tt.tool, tt.args, tt.want)
	}
}

// --- pins, search, history, validate -----------------------------------------

func TestPinNodes(t *testing.T) {
	h := newHarness(t)
	a, b := h.addNode("A"), h.addNode("B")
	deepEq(t, "set", h.text("canvas_pin_nodes", `{"nodeIds":["`+a+`","`+b+`"]}`), `{"ok":true,"pinnedNodeIds":["`+a+`","`+b+`"]}`)
	deepEq(t, "remove", h.text("canvas_pin_nodes", `{"nodeIds":["`+a+`"],"mode":"remove"}`), `{"ok":true,"pinnedNodeIds":["`+b+`"]}`)
	deepEq(t, "add", h.text("canvas_pin_nodes", `{"nodeIds":["`+a+`"],"mode":"add"}`), `{"ok":true,"pinnedNodeIds":["`+b+`","`+a+`"]}`)
	deepEq(t, "clear", h.text("canvas_pin_nodes", `{"nodeIds":[]}`), `{"ok":true,"pinnedNodeIds":[]}`)
	h.fails("canvas_pin_nodes", `{"nodeIds":["nope"]}`, `Cannot pin: unknown node ID(s): nope.`)
	h.fails("canvas_pin_nodes", `{"nodeIds":["`+a+`"],"mode":"toggle"}`, h.httpError("pin.set", `{"nodeIds":["`+a+`"],"mode":"toggle"}`))
}

func TestSearch(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 12; i++ {
		h.addNode("Report " + string(rune('a'+i)))
	}
	text := h.text("canvas_search", `{"query":" Report "}`)
	deepEq(t, "keys", keysOf(t, text), []string{"query", "resultCount", "results"})
	s := decode(t, text)
	deepEq(t, "query as given", s["query"], " Report ")
	deepEq(t, "all matches counted", s["resultCount"], 12.0)
	deepEq(t, "no default limit", len(s["results"].([]any)), 12)
	r0 := s["results"].([]any)[0].(map[string]any)
	deepEq(t, "result", []any{r0["type"], r0["title"], r0["score"]}, []any{"markdown", "Report a", 4.0})
	tests := []struct {
		args string
		n    int
	}{
		{`{"query":"report","limit":3}`, 3}, {`{"query":"report","limit":100}`, 12}, {`{"query":"zzz"}`, 0}, {`{"query":"   "}`, 0},
	}
	for _, tt := range tests {
		out := h.ok("canvas_search", tt.args)
		deepEq(t, tt.args, len(out["results"].([]any)), tt.n)
	}
	deepEq(t, "canvas_query search", h.text("canvas_query", `{"action":"search","query":" Report "}`), text)
	deepEq(t, "no query", h.text("canvas_query", `{"action":"search"}`), "{\n  \"resultCount\": 0,\n  \"results\": []\n}")
	h.sameAsOp("canvas_search", `{}`)
	h.fails("canvas_search", `{"query":"report","limit":0}`, `invalid input for search: field "limit" must be at least 1, got 0`)
	h.fails("canvas_search", `{"query":"report","limit":2.5}`, `invalid input for search: field "limit" must be an integer, got number 2.5`)
	h.fails("canvas_search", `{"query":"a","limit":"3"}`, `invalid input for search: field "limit" must be an integer, got string`)
}

func TestUndoRedo(t *testing.T) {
	h := newHarness(t)
	// An empty history is a normal result, not an error.
	deepEq(t, "nothing to undo", h.text("canvas_undo", `{}`), `{"ok":false,"description":"Nothing to undo","canUndo":false,"canRedo":false}`)
	deepEq(t, "nothing to redo", h.text("canvas_history", `{"action":"redo"}`), `{"ok":false,"description":"Nothing to redo","canUndo":false,"canRedo":false}`)
	h.addNode("Draft note")
	deepEq(t, "undo", h.text("canvas_history", `{"action":"undo"}`), `{"ok":true,"description":"Undid: Added markdown node \"Draft note\"","canUndo":false,"canRedo":true}`)
	deepEq(t, "node gone", len(h.op("layout.get", `{}`)["nodes"].([]any)), 2)
	deepEq(t, "redo", h.text("canvas_redo", `{}`), `{"ok":true,"description":"Redid: Added markdown node \"Draft note\"","canUndo":true,"canRedo":false}`)
	deepEq(t, "node back", len(h.op("layout.get", `{}`)["nodes"].([]any)), 3)
}

func TestValidate(t *testing.T) {
	h := newHarness(t)
	h.ok("canvas_add_node", `{"type":"markdown","title":"A","x":0,"y":0}`)
	h.ok("canvas_add_node", `{"type":"markdown","title":"B","x":10,"y":10}`)
	text := h.text("canvas_validate", `{}`)
	deepEq(t, "keys", keysOf(t, text), []string{"ok", "collisions", "containments", "containmentViolations", "missingEdgeEndpoints", "summary"})
	v := decode(t, text)
	deepEq(t, "not ok", v["ok"], false)
	c := v["collisions"].([]any)[0].(map[string]any)
	deepEq(t, "collision", []any{c["aTitle"], c["bTitle"]}, []any{"A", "B"})
	deepEq(t, "canvas_query validate", h.text("canvas_query", `{"action":"validate"}`), text)
}

// --- composite parity --------------------------------------------------------

// A composite action answers what its legacy tool answers for the same
// arguments (reference §5), on two canvases built the same way.
func TestCanvasCompositesMatchLegacyTools(t *testing.T) {
	setup := func(h *harness) map[string]string {
		a, b := h.addNode("Alpha"), h.addNode("Beta")
		g := h.ok("canvas_create_group", `{"title":"G","childIds":["`+a+`"]}`)["id"].(string)
		e := decode(t, h.text("canvas_add_edge", `{"from":"`+a+`","to":"`+b+`","type":"flow"}`))["id"].(string)
		h.op("annotation.add", `{"id":"ink-1","points":[{"x":0,"y":0},{"x":10,"y":10}]}`)
		return map[string]string{"$A": a, "$B": b, "$G": g, "$E": e}
	}
	tests := []struct {
		legacy, composite, args string
	}{
		{"canvas_add_node", `canvas_node","action":"add`, `{"type":"markdown","title":"New","content":"c"}`},
		{"canvas_add_node", `canvas_node","action":"add`, `{"type":"status","title":"S","full":true}`},
		{"canvas_add_node", `canvas_node","action":"add`, `{"type":"webpage","content":"https://example.com"}`},
		{"canvas_add_node", `canvas_node","action":"add`, `{"type":"html","kind":"checklist"}`},
		{"canvas_get_node", `canvas_node","action":"get`, `{"id":"$A"}`},
		{"canvas_get_node", `canvas_node","action":"get`, `{"id":"$A","full":true}`},
		{"canvas_get_node", `canvas_node","action":"get`, `{"id":"nope"}`},
		{"canvas_update_node", `canvas_node","action":"update`, `{"id":"$A","title":"Renamed","y":500}`},
		{"canvas_update_node", `canvas_node","action":"update`, `{"id":"$A","pinned":true,"verbose":true}`},
		{"canvas_remove_node", `canvas_node","action":"remove`, `{"id":"$B"}`},
		{"canvas_add_edge", `canvas_edge","action":"add`, `{"from":"$B","to":"$A","type":"references","label":"see"}`},
		{"canvas_add_edge", `canvas_edge","action":"add`, `{"fromSearch":"nothing matches","to":"$A","type":"flow"}`},
		{"canvas_remove_edge", `canvas_edge","action":"remove`, `{"id":"$E"}`},
		{"canvas_create_group", `canvas_group","action":"create`, `{"title":"H","childIds":["$B"],"childLayout":"column"}`},
		{"canvas_group_nodes", `canvas_group","action":"add`, `{"groupId":"$G","childIds":["$B"]}`},
		{"canvas_ungroup", `canvas_group","action":"ungroup`, `{"groupId":"$G"}`},
		{"canvas_undo", `canvas_history","action":"undo`, `{}`},
		{"canvas_redo", `canvas_history","action":"redo`, `{}`},
		{"canvas_arrange", `canvas_view","action":"arrange`, `{"layout":"flow"}`},
		{"canvas_focus_node", `canvas_view","action":"focus`, `{"id":"$A","noPan":true}`},
		{"canvas_fit_view", `canvas_view","action":"fit`, `{"width":1000,"height":800}`},
		{"canvas_clear", `canvas_view","action":"clear`, `{}`},
		{"canvas_remove_annotation", `canvas_view","action":"remove-annotation`, `{"id":"ink-1"}`},
		{"canvas_search", `canvas_query","action":"search`, `{"query":"alpha beta","limit":1}`},
		{"canvas_get_layout", `canvas_query","action":"layout`, `{}`},
		{"canvas_get_layout", `canvas_query","action":"layout`, `{"full":true}`},
		{"canvas_validate", `canvas_query","action":"validate`, `{}`},
	}
	for _, tt := range tests {
		composite, action, _ := strings.Cut(tt.composite, `","action":"`)
		t.Run(composite+" "+action+" "+tt.args, func(t *testing.T) {
			run := func(tool string, withAction bool) *mcpapi.Result {
				h := newHarness(t)
				ids := setup(h)
				args := tt.args
				for k, v := range ids {
					args = strings.ReplaceAll(args, k, v)
				}
				if withAction {
					args = `{"action":"` + action + `",` + strings.TrimPrefix(args, "{")
					args = strings.Replace(args, ",}", "}", 1)
				}
				return h.call(tool, args)
			}
			legacy, comp := run(tt.legacy, false), run(composite, true)
			if legacy.IsError != comp.IsError || norm(legacy.Text) != norm(comp.Text) {
				t.Errorf("legacy %s: isError=%v %s\ncomposite %s: isError=%v %s", tt.legacy, legacy.IsError, legacy.Text,
					composite, comp.IsError, comp.Text)
			}
		})
	}
}

type jsonRaw = json.RawMessage

func mustUnmarshal(t *testing.T, text string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(text), v); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
}

func sortedWords(s string) string {
	w := strings.Fields(s)
	sort.Strings(w)
	return strings.Join(w, " ")
}
