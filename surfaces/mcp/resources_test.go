package mcpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/skills"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// resourceHarness runs resource reads and catalog operations on a canvas.
type resourceHarness struct {
	*harness
	call *mcpapi.Call
}

func newResourceHarness(t *testing.T) *resourceHarness {
	h := newHarness(t)
	return &resourceHarness{harness: h, call: &mcpapi.Call{Ctx: context.Background(), Invoker: h.srv.Invoker(), Canvas: "main"}}
}

// invoke runs an operation and returns its reply as an object.
func (h *resourceHarness) invoke(op string, input mcpapi.Args) map[string]any {
	h.t.Helper()
	r, err := h.call.Invoke(op, input)
	if err != nil {
		h.t.Fatalf("%s: %v", op, err)
	}
	return r.Map()
}

func resource(t *testing.T, uri string) *mcpapi.Resource {
	t.Helper()
	r, ok := mcpapi.FindResource(uri)
	if !ok {
		t.Fatalf("no resource %s", uri)
	}
	return r
}

// read reads a resource and returns its text.
func (h *resourceHarness) read(uri string) string {
	h.t.Helper()
	text, err := resource(h.t, uri).Read(h.call)
	if err != nil {
		h.t.Fatalf("read %s: %v", uri, err)
	}
	return text
}

// readJSON reads a JSON resource, checks it is pretty-printed, and returns
// its top-level keys in order and the decoded value.
func (h *resourceHarness) readJSON(uri string) ([]string, map[string]any) {
	h.t.Helper()
	text := h.read(uri)
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(text), "", "  "); err != nil || buf.String() != text {
		h.t.Fatalf("%s is not pretty JSON: %v\n%s", uri, err, text)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		h.t.Fatal(err)
	}
	return topKeys(h.t, text), m
}

func topKeys(t *testing.T, text string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func wantKeys(t *testing.T, uri string, got []string, want ...string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s keys %v, want %v", uri, got, want)
	}
}

func list(v any) []any         { l, _ := v.([]any); return l }
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// Each resource is notified after the change classes its content depends
// on (the reference notified the layout resources after every AX change).
func TestResourceList(t *testing.T) {
	want := []struct {
		uri, name, mime string
		classes         []string
	}{
		{"canvas://schema", "schema", "application/json", nil},
		{"canvas://pinned-context", "pinned-context", "application/json", []string{"nodes", "pins"}},
		{"canvas://ax", "ax-state", "application/json", []string{"ax"}},
		{"canvas://ax-context", "ax-context", "application/json", []string{"nodes", "pins", "ax", "ax-timeline"}},
		{"canvas://ax-timeline", "ax-timeline", "application/json", []string{"ax-timeline"}},
		{"canvas://ax-work", "ax-work", "application/json", []string{"ax"}},
		{"canvas://ax-pending-steering", "ax-pending-steering", "application/json", []string{"ax", "ax-timeline"}},
		{"canvas://ax-delivery", "ax-delivery", "application/json", []string{"ax-timeline"}},
		{"canvas://layout", "canvas-layout", "application/json", []string{"nodes", "pins"}},
		{"canvas://summary", "canvas-summary", "application/json", []string{"nodes", "pins"}},
		{"canvas://spatial-context", "spatial-context", "application/json", []string{"nodes", "pins"}},
		{"canvas://history", "history", "text/plain", []string{"nodes", "pins"}},
		{"canvas://code-graph", "code-graph", "application/json", []string{"nodes"}},
		{"canvas://skills", "bundled-skills", "application/json", nil},
		{"ui://pmx-canvas/board", "board-app", "text/html;profile=mcp-app", nil},
	}
	fixed := mcpapi.Resources()
	if len(fixed) != len(want) {
		t.Fatalf("%d fixed resources, want %d", len(fixed), len(want))
	}
	for i, w := range want {
		r := fixed[i]
		if r.URI != w.uri || r.Name != w.name || r.MimeType != w.mime || r.Description == "" || r.Read == nil {
			t.Errorf("resource %d = %s %s %s, want %s %s %s", i, r.URI, r.Name, r.MimeType, w.uri, w.name, w.mime)
		}
		got := append([]string(nil), r.Classes...)
		if !reflect.DeepEqual(sortedCopy(got), sortedCopy(w.classes)) {
			t.Errorf("%s classes %v, want %v", r.URI, r.Classes, w.classes)
		}
	}
	all := mcpapi.AllResources()
	if len(all) < len(want)+1 || all[len(want)].URI != "canvas://skills/pmx-canvas" {
		t.Fatalf("skill resources missing after the fixed ones: %d resources", len(all))
	}
	if _, ok := mcpapi.FindResource("canvas://nope"); ok {
		t.Fatal("unknown URI found")
	}
	if !strings.HasSuffix(fixed[0].Description, `Routing: markdown: canvas_add_node, status: canvas_add_node, context: canvas_add_node, ledger: canvas_add_node, trace: canvas_add_node, file: canvas_add_node, image: canvas_add_node, webpage: canvas_add_node, html: canvas_node (action:"add", type:"html"), html-primitive: canvas_node (action:"add", type:"html", primitive), mcp-app: canvas_add_node, diff: canvas_add_node, mermaid: canvas_add_node, group: canvas_create_group, json-render: canvas_add_json_render_node, graph: canvas_add_graph_node, web-artifact: canvas_build_web_artifact`) {
		t.Fatalf("schema description: %s", fixed[0].Description)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// The canvas resources reshape the operations' replies to the reference's
// payloads, with the values of the canvas they read.
func TestCanvasResources(t *testing.T) {
	h := newResourceHarness(t)
	plan := h.invoke("node.add", mcpapi.Args{"type": "markdown", "title": "Plan", "content": "ship it"})["id"].(string)
	risk := h.invoke("node.add", mcpapi.Args{"type": "markdown", "title": "Risks", "content": "none"})["id"].(string)
	far := h.invoke("node.add", mcpapi.Args{"type": "ledger", "title": "Far", "x": 9000, "y": 9000})["id"].(string)
	edge := h.invoke("edge.add", mcpapi.Args{"type": "flow", "from": plan, "to": risk})["id"].(string)
	h.invoke("edge.add", mcpapi.Args{"type": "relation", "from": plan, "to": far, "label": "see"})
	h.invoke("pin.set", mcpapi.Args{"nodeIds": []string{plan, risk}})

	t.Run("pinned-context", func(t *testing.T) {
		keys, m := h.readJSON("canvas://pinned-context")
		wantKeys(t, "pinned-context", keys, "pinnedCount", "nodes", "edges", "neighborhoods")
		if m["pinnedCount"] != 2.0 || len(list(m["nodes"])) != 2 || obj(list(m["nodes"])[0])["content"] != "ship it" {
			t.Fatalf("pinned-context: %v", m)
		}
		edges := list(m["edges"])
		if len(edges) != 1 || !reflect.DeepEqual(edges[0], map[string]any{"id": edge, "from": plan, "to": risk, "type": "flow", "label": nil}) {
			t.Fatalf("only the edge between pinned nodes, with label null: %v", edges)
		}
		hoods := list(m["neighborhoods"])
		if len(hoods) != 2 || obj(hoods[0])["pinnedNodeId"] != plan || obj(hoods[0])["pinnedNodeTitle"] != "Plan" {
			t.Fatalf("neighborhoods: %v", hoods)
		}
		if _, ok := obj(hoods[0])["nearbyNodes"].([]any); !ok {
			t.Fatalf("nearbyNodes: %v", hoods[0])
		}
	})

	t.Run("layout", func(t *testing.T) {
		keys, m := h.readJSON("canvas://layout")
		wantKeys(t, "layout", keys, "viewport", "theme", "nodes", "edges", "annotations", "revision")
		nodes := list(m["nodes"])
		if len(nodes) != 5 || len(list(m["edges"])) != 2 || m["theme"] != "dark" {
			t.Fatalf("layout: %d nodes, %v", len(nodes), m["edges"])
		}
		last := obj(nodes[4])
		if last["id"] != far || obj(last["data"])["title"] != "Far" || last["kind"] != "ledger" {
			t.Fatalf("full nodes expected: %v", last)
		}
	})

	t.Run("summary", func(t *testing.T) {
		keys, m := h.readJSON("canvas://summary")
		wantKeys(t, "summary", keys, "totalNodes", "totalEdges", "totalAnnotations", "annotations", "nodesByType", "pinnedCount", "pinnedTitles", "viewport")
		if m["totalNodes"] != 5.0 || m["totalEdges"] != 2.0 || m["pinnedCount"] != 2.0 ||
			!reflect.DeepEqual(m["pinnedTitles"], []any{"Plan", "Risks"}) || obj(m["nodesByType"])["markdown"] != 2.0 {
			t.Fatalf("summary: %v", m)
		}
	})

	t.Run("spatial-context", func(t *testing.T) {
		keys, m := h.readJSON("canvas://spatial-context")
		wantKeys(t, "spatial-context", keys, "totalNodes", "clusters", "nodesInReadingOrder", "pinnedNeighborhoods", "annotations")
		if m["totalNodes"] != 5.0 || len(list(m["nodesInReadingOrder"])) != 5 || len(list(m["pinnedNeighborhoods"])) != 2 {
			t.Fatalf("spatial-context: %v", m)
		}
	})

	t.Run("history", func(t *testing.T) {
		text := h.read("canvas://history")
		for _, want := range []string{"Canvas History (6 mutations, position 6/6)", `Added markdown node "Plan"`,
			"Set context pins (2 nodes) <<< current", "Can undo: yes | Can redo: no"} {
			if !strings.Contains(text, want) {
				t.Fatalf("history lacks %q:\n%s", want, text)
			}
		}
		if strings.HasPrefix(text, "{") {
			t.Fatal("history must be plain text")
		}
	})

	t.Run("other canvas", func(t *testing.T) {
		other := &mcpapi.Call{Ctx: context.Background(), Invoker: h.srv.Invoker(), Canvas: "other"}
		text, err := resource(t, "canvas://summary").Read(other)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(text), &m)
		if m["totalNodes"] != 2.0 || m["pinnedCount"] != 0.0 {
			t.Fatalf("a fresh canvas has the two docked widgets only: %v", m)
		}
	})
}

func TestCodeGraphResource(t *testing.T) {
	h := newResourceHarness(t)
	a := h.invoke("node.add", mcpapi.Args{"type": "file", "title": "Main", "data": map[string]any{"path": "cmd/main.go"}})["id"].(string)
	b := h.invoke("node.add", mcpapi.Args{"type": "file", "content": "internal/util.go"})["id"].(string)
	h.invoke("node.add", mcpapi.Args{"type": "file", "content": "package main\n\nfunc main() {}"}) // inline, no path
	h.invoke("node.add", mcpapi.Args{"type": "markdown", "title": "not a file"})

	keys, m := h.readJSON("canvas://code-graph")
	wantKeys(t, "code-graph", keys, "totalFileNodes", "totalAutoEdges", "nodes", "centralFiles", "isolatedFiles")
	if m["totalFileNodes"] != 2.0 || m["totalAutoEdges"] != 0.0 || len(list(m["centralFiles"])) != 0 {
		t.Fatalf("code-graph: %v", m)
	}
	// The files do not exist (the nodes are marked missing): no imports.
	nodes := list(m["nodes"])
	want0 := map[string]any{"id": a, "path": "cmd/main.go", "title": "Main", "imports": []any{}, "importedBy": []any{}, "outDegree": 0.0, "inDegree": 0.0}
	if len(nodes) != 2 || !reflect.DeepEqual(nodes[0], want0) || obj(nodes[1])["id"] != b || obj(nodes[1])["path"] != "internal/util.go" || obj(nodes[1])["title"] != "util.go" {
		t.Fatalf("code-graph nodes: %v", nodes)
	}
	iso := list(m["isolatedFiles"])
	if len(iso) != 2 || !reflect.DeepEqual(iso[0], map[string]any{"id": a, "path": "cmd/main.go", "title": "Main"}) {
		t.Fatalf("isolatedFiles: %v", iso)
	}
}

func TestAXResourcesAndPrompt(t *testing.T) {
	h := newResourceHarness(t)
	node := h.invoke("node.add", mcpapi.Args{"type": "markdown", "title": "Spec", "content": "the spec"})["id"].(string)
	h.invoke("pin.set", mcpapi.Args{"nodeIds": []string{node}})
	work := obj(h.invoke("ax.work.create", mcpapi.Args{"title": "Write the parser", "status": "in-progress", "nodeIds": []string{node}})["workItem"])
	gate := obj(h.invoke("ax.approval.request", mcpapi.Args{"title": "Merge?", "source": "browser"})["approvalGate"])
	h.invoke("ax.event.record", mcpapi.Args{"kind": "tool-start", "summary": "go test"})
	mine := obj(h.invoke("ax.steer", mcpapi.Args{"message": "from the agent"})["steering"])
	human := obj(h.invoke("ax.steer", mcpapi.Args{"message": "use the fast path", "source": "browser"})["steering"])
	done := obj(h.invoke("ax.steer", mcpapi.Args{"message": "already handled", "source": "browser"})["steering"])
	h.invoke("ax.delivery.mark", mcpapi.Args{"id": done["id"]})

	t.Run("ax", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax")
		wantKeys(t, "ax", keys, "state")
		state := obj(m["state"])
		var text = h.read("canvas://ax")
		var inner struct {
			State json.RawMessage `json:"state"`
		}
		_ = json.Unmarshal([]byte(text), &inner)
		wantKeys(t, "ax state", topKeys(t, string(inner.State)), "version", "focus", "workItems", "approvalGates",
			"reviewAnnotations", "elicitations", "modeRequests", "policy")
		items := list(state["workItems"])
		if len(items) != 1 || obj(items[0])["id"] != work["id"] || obj(items[0])["status"] != "in-progress" ||
			obj(list(state["approvalGates"])[0])["id"] != gate["id"] {
			t.Fatalf("ax state: %v", state)
		}
	})

	t.Run("ax-work", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax-work")
		wantKeys(t, "ax-work", keys, "workItems", "approvalGates", "reviewAnnotations", "elicitations", "modeRequests", "policy")
		if obj(list(m["workItems"])[0])["title"] != "Write the parser" || obj(list(m["approvalGates"])[0])["source"] != "browser" ||
			obj(obj(m["policy"])["tools"])["allowed"] == nil {
			t.Fatalf("ax-work: %v", m)
		}
	})

	t.Run("ax-context", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax-context")
		wantKeys(t, "ax-context", keys, "version", "generatedAt", "surface", "delivery", "pinned", "focus", "workItems",
			"approvalGates", "reviewAnnotations", "elicitations", "modeRequests", "policy", "timeline", "host")
		pending := list(obj(m["delivery"])["pendingSteering"])
		// Consumer mcp: the agent's own message is left out, the delivered one too.
		if len(pending) != 1 || obj(pending[0])["id"] != human["id"] {
			t.Fatalf("delivery for consumer mcp: %v", pending)
		}
		activity := list(obj(m["delivery"])["pendingActivity"])
		if len(activity) != 1 || obj(activity[0])["id"] != gate["id"] {
			t.Fatalf("pendingActivity for consumer mcp (the mcp work item excluded): %v", activity)
		}
		pinned := obj(m["pinned"])
		if pinned["count"] != 1.0 || pinned["preamble"] != "[Context from \"Spec\" (markdown)]\nthe spec\n\n" {
			t.Fatalf("pinned: %v", pinned)
		}
	})

	t.Run("ax-timeline", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax-timeline")
		wantKeys(t, "ax-timeline", keys, "events", "evidence", "steering", "summary")
		if len(list(m["events"])) != 1 || obj(list(m["events"])[0])["summary"] != "go test" || len(list(m["steering"])) != 3 {
			t.Fatalf("ax-timeline: %v", m)
		}
		counts := obj(obj(m["summary"])["counts"])
		if counts["events"] != 1.0 || counts["steering"] != 3.0 {
			t.Fatalf("counts: %v", counts)
		}
	})

	t.Run("ax-pending-steering", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax-pending-steering")
		wantKeys(t, "ax-pending-steering", keys, "pending", "pendingActivity")
		pending := list(m["pending"])
		// Every consumer: the agent's own message too, oldest first; not the delivered one.
		if len(pending) != 2 || obj(pending[0])["id"] != mine["id"] || obj(pending[1])["id"] != human["id"] {
			t.Fatalf("pending: %v", pending)
		}
		if len(list(m["pendingActivity"])) != 2 {
			t.Fatalf("pendingActivity (unfiltered): %v", m["pendingActivity"])
		}
	})

	t.Run("ax-delivery", func(t *testing.T) {
		keys, m := h.readJSON("canvas://ax-delivery")
		wantKeys(t, "ax-delivery", keys, "steering")
		steering := list(m["steering"])
		if len(steering) != 3 || obj(steering[0])["id"] != done["id"] || obj(steering[0])["delivered"] != true ||
			obj(steering[2])["delivered"] != false {
			t.Fatalf("ax-delivery (newest first, with delivered): %v", steering)
		}
	})

	t.Run("prompt", func(t *testing.T) {
		prompts := mcpapi.Prompts()
		if len(prompts) != 1 || prompts[0].Name != "pmx-current-context" || prompts[0].Description == "" {
			t.Fatalf("prompts: %+v", prompts)
		}
		text, err := prompts[0].Text(h.call)
		if err != nil {
			t.Fatal(err)
		}
		const prefix = "Current PMX Canvas context:\n\n"
		if !strings.HasPrefix(text, prefix) {
			t.Fatalf("prompt: %q", text)
		}
		var fromPrompt, fromResource map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(text, prefix)), &fromPrompt); err != nil {
			t.Fatal(err)
		}
		_, fromResource = h.readJSON("canvas://ax-context")
		delete(fromPrompt, "generatedAt")
		delete(fromResource, "generatedAt")
		if !reflect.DeepEqual(fromPrompt, fromResource) {
			t.Fatalf("prompt context differs from canvas://ax-context")
		}
		if !strings.Contains(text, "\n  \"workItems\": [") {
			t.Fatal("prompt JSON must be pretty")
		}
	})
}

func TestSchemaResource(t *testing.T) {
	h := newResourceHarness(t)
	keys, m := h.readJSON("canvas://schema")
	wantKeys(t, "schema", keys, "ok", "source", "version", "nodeTypes", "jsonRender", "graph", "htmlPrimitives", "mcp")
	if m["ok"] != true || m["source"] != "running-server" || m["version"] != "0.2.0" {
		t.Fatalf("schema head: %v %v %v", m["ok"], m["source"], m["version"])
	}
	var types []any
	for _, nt := range list(m["nodeTypes"]) {
		e := obj(nt)
		types = append(types, e["type"])
		for _, k := range []string{"kind", "description", "endpoint", "mcpTool", "fields", "example"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("node type %v lacks %s", e["type"], k)
			}
		}
		for _, f := range list(e["fields"]) {
			if fo := obj(f); fo["name"] == "" || fo["type"] == "" || fo["description"] == "" {
				t.Fatalf("bad field %v of %v", f, e["type"])
			}
		}
	}
	if !reflect.DeepEqual(types, []any{"markdown", "status", "context", "ledger", "trace", "file", "image", "webpage", "html", "html-primitive", "mcp-app", "diff", "mermaid", "group", "json-render", "graph", "web-artifact"}) {
		t.Fatalf("node types: %v", types)
	}
	webpage := obj(list(m["nodeTypes"])[7])
	url := obj(list(webpage["fields"])[0])
	if url["name"] != "url" || url["required"] != true || !reflect.DeepEqual(url["aliases"], []any{"content"}) {
		t.Fatalf("webpage url field: %v", url)
	}
	jr := obj(m["jsonRender"])
	if len(list(jr["components"])) != 48 || len(list(jr["directives"])) == 0 || obj(jr["rootShape"])["root"] == nil {
		t.Fatalf("jsonRender: %d components, rootShape %v", len(list(jr["components"])), jr["rootShape"])
	}
	if len(list(obj(m["graph"])["graphTypes"])) != 12 || len(list(m["htmlPrimitives"])) != 19 {
		t.Fatal("the graph types and the 19 primitives are listed")
	}
	mcp := obj(m["mcp"])
	tools := list(mcp["tools"])
	if !reflect.DeepEqual(tools, []any{"canvas_add_node", "canvas_add_html_node", "canvas_add_html_primitive", "canvas_add_json_render_node", "canvas_stream_json_render_node", "canvas_add_graph_node", "canvas_create_group", "canvas_update_node", "canvas_fit_view", "canvas_describe_schema", "canvas_validate_spec", "canvas_build_web_artifact"}) {
		t.Fatalf("schema tools (available ones only): %v", tools)
	}
	routing := obj(mcp["nodeTypeRouting"])
	if routing["html"] != `canvas_node (action:"add", type:"html")` || routing["group"] != "canvas_create_group" || len(routing) != 17 {
		t.Fatalf("routing: %v", routing)
	}
	if !reflect.DeepEqual(mcp["resources"], []any{"canvas://schema"}) {
		t.Fatalf("resources: %v", mcp["resources"])
	}
}

func TestSkillResources(t *testing.T) {
	h := newResourceHarness(t)

	// The bundled skill.
	keys, m := h.readJSON("canvas://skills")
	wantKeys(t, "skills", keys, "count", "skills")
	var found map[string]any
	for _, s := range list(m["skills"]) {
		if obj(s)["name"] == "pmx-canvas" {
			found = obj(s)
		}
	}
	if found == nil || found["uri"] != "canvas://skills/pmx-canvas" || !strings.HasPrefix(found["description"].(string), "Work on a PMX Canvas through its MCP tools") ||
		strings.Contains(found["description"].(string), "\n") {
		t.Fatalf("pmx-canvas skill: %v", found)
	}
	doc := h.read("canvas://skills/pmx-canvas")
	if !strings.HasPrefix(doc, "---\nname: pmx-canvas\n") || !strings.Contains(doc, "canvas_ax_gate") {
		t.Fatalf("skill document: %.80q", doc)
	}
	if r := resource(t, "canvas://skills/pmx-canvas"); r.Name != "skill-pmx-canvas" || r.MimeType != "text/markdown" || len(r.Classes) != 0 {
		t.Fatalf("skill resource: %+v", r)
	}

	// Front matter forms, ordering, skipping and the 400-character cut.
	long := strings.Repeat("x", 450)
	fsys := fstest.MapFS{
		"zeta/SKILL.md":     {Data: []byte("---\nname: zeta\ndescription: \"Quoted: with \\\"escapes\\\"\"\n---\nbody")},
		"alpha/SKILL.md":    {Data: []byte("---\nname: alpha\ndescription: >\n  Folded over\n  two lines.\nother: x\n---\n# Alpha\n")},
		"beta/SKILL.md":     {Data: []byte("# no front matter\n")},
		"gamma/SKILL.md":    {Data: []byte("---\ndescription: " + long + "\n---\n")},
		".hidden/SKILL.md":  {Data: []byte("---\ndescription: hidden\n---\n")},
		"empty/README.md":   {Data: []byte("not a skill")},
		"delta/SKILL.md":    {Data: []byte("---\r\ndescription: 'it''s plain'\r\n---\r\n")},
		"epsilon/SKILL.md":  {Data: []byte("---\ndescription: |\n  line one\n  line two\n---\n")},
		"unclosed/SKILL.md": {Data: []byte("---\ndescription: never closed\n")},
	}
	mcpapi.SetSkills(fsys)
	t.Cleanup(func() { mcpapi.SetSkills(skills.FS()) })
	want := []map[string]any{
		{"name": "alpha", "description": "Folded over two lines.", "uri": "canvas://skills/alpha"},
		{"name": "beta", "description": "", "uri": "canvas://skills/beta"},
		{"name": "delta", "description": "it's plain", "uri": "canvas://skills/delta"},
		{"name": "epsilon", "description": "line one\nline two", "uri": "canvas://skills/epsilon"},
		{"name": "gamma", "description": long[:400], "uri": "canvas://skills/gamma"},
		{"name": "unclosed", "description": "", "uri": "canvas://skills/unclosed"},
		{"name": "zeta", "description": `Quoted: with "escapes"`, "uri": "canvas://skills/zeta"},
	}
	_, m = h.readJSON("canvas://skills")
	if m["count"] != float64(len(want)) {
		t.Fatalf("count %v", m["count"])
	}
	for i, s := range list(m["skills"]) {
		if !reflect.DeepEqual(s, want[i]) {
			t.Fatalf("skill %d = %v, want %v", i, s, want[i])
		}
	}
	skillRes := mcpapi.SkillResources()
	if len(skillRes) != len(want) || skillRes[1].Description != "Bundled PMX Canvas skill: beta" || skillRes[0].Name != "skill-alpha" {
		t.Fatalf("skill resources: %+v", skillRes[:2])
	}
	if doc := h.read("canvas://skills/alpha"); doc != "---\nname: alpha\ndescription: >\n  Folded over\n  two lines.\nother: x\n---\n# Alpha\n" {
		t.Fatalf("alpha: %q", doc)
	}
	// A skill whose file vanished after listing.
	alpha := resource(t, "canvas://skills/alpha")
	delete(fsys, "alpha/SKILL.md")
	if doc, err := alpha.Read(h.call); err != nil || doc != "# alpha\n\n_Skill file not found on disk._\n" {
		t.Fatalf("vanished skill: %q %v", doc, err)
	}
	// No skills at all.
	mcpapi.SetSkills(nil)
	if _, m := h.readJSON("canvas://skills"); m["count"] != 0.0 || len(list(m["skills"])) != 0 {
		t.Fatalf("no skills: %v", m)
	}
}

// The schema names only tools this build runs: every create tool and every
// node type's creating tool is defined and available.
func TestSchemaNamesAvailableTools(t *testing.T) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	check := func(where, name string) {
		name, _, _ = strings.Cut(name, " ") // canvas_node (action:"add", …)
		if _, ok := reg.Tool(name); !ok {
			t.Errorf("%s names %s, which this build does not run", where, name)
		}
	}
	for _, name := range messages.SchemaTools {
		check("mcp.tools", name)
	}
	for _, r := range messages.SchemaNodeRouting {
		check("nodeTypeRouting."+r.Type, r.Tool)
	}
	for _, nt := range messages.SchemaNodeTypes {
		check("nodeTypes."+nt.Type+".mcpTool", nt.MCPTool)
		if tool, ok := messages.SchemaNodeRouting.Tool(nt.Type); !ok || tool != nt.MCPTool {
			t.Errorf("node type %s: mcpTool %q, routing %q", nt.Type, nt.MCPTool, tool)
		}
	}
}
