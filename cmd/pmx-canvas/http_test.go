package main

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestHealth(t *testing.T) {
	p := startServer(t, "")
	r := p.must(200, "GET", "/health", nil)
	if r.body["ok"] != true || r.str("workspace") != p.ws || r.str("version") == "" {
		t.Fatalf("health = %s", r.raw)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	if p.do("POST", "/health", nil).status != 200 {
		t.Fatal("/health answers any method, as the reference's")
	}
}

func TestFreshWorkspaceState(t *testing.T) {
	p := startServer(t, "")
	st := p.state("")
	nodes := nodesOf(st)
	if len(nodes) != 2 || nodes[0]["id"] != "status-main" || nodes[1]["id"] != "context-main" {
		t.Fatalf("fresh workspace nodes: %v", nodes)
	}
	if nodes[0]["dockPosition"] != "left" || nodes[1]["dockPosition"] != "right" || nodes[0]["collapsed"] != true {
		t.Fatalf("docked widgets: %v", nodes)
	}
	vp := st["viewport"].(map[string]any)
	if vp["x"] != 0.0 || vp["scale"] != 1.0 || st["theme"] != "dark" {
		t.Fatalf("viewport/theme: %v %v", vp, st["theme"])
	}
	if _, ok := st["ok"]; ok {
		t.Fatal("the state read has no ok key")
	}
	for _, k := range []string{"edges", "annotations"} {
		if arr, ok := st[k].([]any); !ok || len(arr) != 0 {
			t.Fatalf("%s = %v", k, st[k])
		}
	}
}

func TestNodeRoutes(t *testing.T) {
	p := startServer(t, "")

	t.Run("add returns the node response", func(t *testing.T) {
		r := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"Hello","content":"# World","extraUnknownKey":123}`)
		id := r.str("id")
		if !strings.HasPrefix(id, "node-") || r.str("nodeId") != id || r.body["ok"] != true {
			t.Fatalf("response %s", r.raw)
		}
		node := r.body["node"].(map[string]any)
		for _, k := range []string{"id", "type", "position", "size", "zIndex", "collapsed", "pinned", "dockPosition", "data", "kind", "title", "content", "path", "url", "surfaceUrl", "provenance"} {
			if _, ok := node[k]; !ok {
				t.Errorf("node lacks %q", k)
			}
			if _, ok := r.body[k]; !ok {
				t.Errorf("response lacks top-level %q", k)
			}
		}
		if pos := node["position"].(map[string]any); pos["x"] != 40.0 || pos["y"] != 80.0 {
			t.Errorf("first node at the board origin, in view (docked widgets are not obstacles): %v", pos)
		}
		if size := node["size"].(map[string]any); size["width"] != 640.0 || size["height"] != 420.0 {
			t.Errorf("markdown default size: %v", size)
		}
		if r.header.Get("X-PMX-Revision") == "" || r.body["revision"] == nil {
			t.Error("mutation replies carry the revision")
		}
		if _, has := node["extraUnknownKey"]; has {
			t.Error("unknown keys are ignored")
		}
	})

	t.Run("second node goes to the right with a 24px gap", func(t *testing.T) {
		st := p.state("")
		last := nodesOf(st)[len(nodesOf(st))-1]
		lastX := last["position"].(map[string]any)["x"].(float64)
		r := p.must(200, "POST", "/api/canvas/node", `{"type":"status"}`)
		pos := r.body["position"].(map[string]any)
		if pos["x"] != lastX+640+24 || pos["y"] != 80.0 {
			t.Fatalf("second node at %v (last x %v)", pos, lastX)
		}
	})

	t.Run("type from the query, typed query values", func(t *testing.T) {
		r := p.must(200, "POST", "/api/canvas/node?type=ledger&x=5&y=6", nil)
		if r.str("type") != "ledger" {
			t.Fatalf("%s", r.raw)
		}
		if pos := r.body["position"].(map[string]any); pos["x"] != 5.0 || pos["y"] != 6.0 {
			t.Fatalf("query numbers place the node: %v", pos)
		}
		if bad := p.must(400, "POST", "/api/canvas/node?type=ledger&x=left", nil); bad.str("code") != "invalid-input" || !strings.Contains(bad.str("error"), `"x"`) {
			t.Fatalf("a bad query number names the field: %s", bad.raw)
		}
	})

	errs := []struct {
		name, body, code, want string
		status                 int
	}{
		{"missing type", `{}`, "bad-request", "node creation requires a 'type'", 400},
		{"malformed JSON", `not json{`, "invalid-json", "JSON object", 400},
		{"truncated JSON", `{"type":"markdown"`, "invalid-json", "not valid JSON", 400},
		{"array body", `[1,2]`, "invalid-json", "JSON object", 400},
		{"wrong field type", `{"type":"markdown","title":5}`, "invalid-input", `field "title" must be a string`, 400},
		{"wrong nested type", `{"type":"markdown","position":{"x":"1","y":2}}`, "invalid-input", `"position.x" must be a number`, 400},
		{"invalid type", `{"type":"bogus"}`, "bad-request", `Invalid node type: "bogus".`, 400},
		{"json-render redirect", `{"type":"json-render"}`, "bad-request", "POST /api/canvas/json-render", 400},
		{"graph redirect", `{"type":"graph"}`, "bad-request", "POST /api/canvas/graph", 400},
		{"web-artifact redirect", `{"type":"web-artifact"}`, "bad-request", "POST /api/canvas/web-artifact", 400},
		{"html must be a string", `{"type":"html","html":{}}`, "bad-request", `HTML node field "html" must be a string.`, 400},
		{"group with missing child", `{"type":"group","childIds":["ghost"]}`, "bad-request", "Missing child node ID(s): ghost", 400},
	}
	for _, tc := range errs {
		t.Run("add error: "+tc.name, func(t *testing.T) {
			r := p.must(tc.status, "POST", "/api/canvas/node", tc.body)
			if r.body["ok"] != false || r.str("code") != tc.code || !strings.Contains(r.str("error"), tc.want) {
				t.Fatalf("got %s, want code %s containing %q", r.raw, tc.code, tc.want)
			}
		})
	}

	t.Run("get, patch, delete", func(t *testing.T) {
		id := p.addNode(`{"type":"markdown","title":"T","x":10,"y":20}`)
		got := p.must(200, "GET", "/api/canvas/node/"+id, nil)
		if got.str("id") != id || got.body["nodeId"] != nil || got.body["ok"] != nil {
			t.Fatalf("get returns the bare node: %s", got.raw)
		}
		up := p.must(200, "PATCH", "/api/canvas/node/"+id, `{"x":99,"size":{"height":50},"title":"U","data":{"k":1},"id":"other"}`)
		if up.str("id") != id || up.str("title") != "U" {
			t.Fatalf("patch: %s", up.raw)
		}
		pos, size := up.body["position"].(map[string]any), up.body["size"].(map[string]any)
		if pos["x"] != 99.0 || pos["y"] != 20.0 || size["width"] != 640.0 || size["height"] != 50.0 {
			t.Fatalf("partial geometry: %v %v", pos, size)
		}
		if up.body["data"].(map[string]any)["k"] != 1.0 {
			t.Fatal("data merges")
		}
		for _, tc := range []struct{ body, want string }{
			{`{"width":0}`, "Size width and height must be greater than zero."},
			{`{"collapsed":"yes"}`, `field "collapsed" must be a boolean`},
			{`{"type":"html"}`, "Cannot change the type"},
			{`{"dockPosition":"top"}`, "dockPosition must be"},
		} {
			if r := p.must(400, "PATCH", "/api/canvas/node/"+id, tc.body); !strings.Contains(r.str("error"), tc.want) {
				t.Errorf("PATCH %s: %s", tc.body, r.raw)
			}
		}
		p.must(404, "PATCH", "/api/canvas/node/nope", `{"x":1}`)
		del := p.must(200, "DELETE", "/api/canvas/node/"+id, `{"ignored":true}`)
		if del.str("removed") != id || del.body["ok"] != true {
			t.Fatalf("delete: %s", del.raw)
		}
		if r := p.must(404, "GET", "/api/canvas/node/"+id, nil); r.str("error") != fmt.Sprintf("Node %q not found.", id) || r.str("code") != "not-found" {
			t.Fatalf("get after delete: %s", r.raw)
		}
		p.must(404, "DELETE", "/api/canvas/node/"+id, nil)
	})

	t.Run("encoded ids", func(t *testing.T) {
		if r := p.must(404, "GET", "/api/canvas/node/a%2Fb", nil); r.str("error") != `Node "a/b" not found.` {
			t.Fatalf("encoded slash: %s", r.raw)
		}
		if status, body := p.raw("GET /api/canvas/node/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"); status != 400 || !strings.Contains(body, `"code":"bad-request"`) {
			t.Fatalf("a malformed escape is a 400, not a 500: %d %s", status, body)
		}
	})

	t.Run("includeBlobs", func(t *testing.T) {
		big := strings.Repeat("x", 4096)
		id := p.addNode(fmt.Sprintf(`{"type":"mcp-app","title":"App","data":{"html":%q}}`, big))
		summary := p.must(200, "GET", "/api/canvas/node/"+id, nil).body["data"].(map[string]any)["html"]
		if m, ok := summary.(map[string]any); !ok || m["stored"] != "sidecar" {
			t.Fatalf("default read summarises large mcp-app payloads: %v", summary)
		}
		full := p.must(200, "GET", "/api/canvas/node/"+id+"?includeBlobs=true", nil).body["data"].(map[string]any)["html"]
		if full != big {
			t.Fatal("includeBlobs=true returns the payload")
		}
		for _, n := range nodesOf(p.must(200, "GET", "/api/canvas/state?includeBlobs=true", nil).body) {
			if n["id"] == id && n["data"].(map[string]any)["html"] != big {
				t.Fatal("state?includeBlobs=true returns the payload")
			}
		}
	})
}

func TestEdgeRoutes(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"Hello"}`)
	b := p.addNode(`{"type":"markdown","title":"Second node","content":"auth flow notes"}`)

	r := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow","label":"next"}`, a, b))
	edge := r.str("id")
	if !strings.HasPrefix(edge, "edge-") || r.str("from") != a || r.str("to") != b || r.str("label") != "next" {
		t.Fatalf("edge add: %s", r.raw)
	}
	if _, has := r.body["style"]; has {
		t.Fatal("unset style is omitted")
	}
	s := p.must(200, "POST", "/api/canvas/edge", `{"fromSearch":"Hello","toSearch":"Second node","type":"relation","style":"dashed","animated":1}`)
	if s.body["animated"] != true || s.str("style") != "dashed" || s.str("from") != a {
		t.Fatalf("search edge: %s", s.raw)
	}
	f := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"references","animated":false}`, b, a))
	if f.body["animated"] != false {
		t.Fatalf("animated:false is kept: %s", f.raw)
	}

	for _, tc := range []struct{ body, want string }{
		{fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, a, b), "Duplicate or self-edge."},
		{fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, a, a), "Duplicate or self-edge."},
		{`{"from":"nope","to":"x","type":"flow"}`, `Node "nope" not found.`},
		{`{"type":"flow"}`, "Missing required fields: type plus from/fromSearch and to/toSearch."},
		{fmt.Sprintf(`{"from":%q,"to":%q,"type":"x"}`, a, b), `Invalid edge type: "x".`},
		{fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow","style":"wavy"}`, b, a), `Invalid edge style: "wavy". Use solid, dashed, or dotted.`},
		{fmt.Sprintf(`{"fromSearch":"zzz","to":%q,"type":"flow"}`, a), `No node matches search "zzz".`},
	} {
		if r := p.must(400, "POST", "/api/canvas/edge", tc.body); r.str("error") != tc.want {
			t.Errorf("%s: got %s, want %q", tc.body, r.raw, tc.want)
		}
	}

	edges := p.state("")["edges"].([]any)
	if len(edges) != 3 {
		t.Fatalf("edges in state: %v", edges)
	}

	p.must(400, "DELETE", "/api/canvas/edge", nil)
	if r := p.must(404, "DELETE", "/api/canvas/edge", `{"edge_id":"edge-nope"}`); r.str("error") != `Edge "edge-nope" not found.` {
		t.Fatalf("%s", r.raw)
	}
	if r := p.must(200, "DELETE", "/api/canvas/edge", fmt.Sprintf(`{"edge_id":%q}`, edge)); r.str("removed") != edge {
		t.Fatalf("delete by body: %s", r.raw)
	}
	if r := p.must(200, "DELETE", "/api/canvas/edge?id="+url.QueryEscape(s.str("id")), nil); r.str("removed") != s.str("id") {
		t.Fatalf("delete by query: %s", r.raw)
	}
	p.must(404, "DELETE", "/api/canvas/edge", fmt.Sprintf(`{"edge_id":%q}`, edge))

	// Deleting a node removes its edges.
	p.must(200, "DELETE", "/api/canvas/node/"+a, nil)
	if edges := p.state("")["edges"].([]any); len(edges) != 0 {
		t.Fatalf("edges of a deleted node remain: %v", edges)
	}
}

func TestUnknownRoutesAndLimits(t *testing.T) {
	p := startServer(t, "", "--max-body", "1024")
	if r := p.must(404, "GET", "/api/canvas/nope", nil); r.str("code") != "route-not-found" {
		t.Fatalf("%s", r.raw)
	}
	if r := p.must(405, "GET", "/api/canvas/edge", nil); r.str("code") != "method-not-allowed" || r.header.Get("Allow") != "POST, DELETE" {
		t.Fatalf("wrong method: %s allow=%q", r.raw, r.header.Get("Allow"))
	}
	p.must(405, "PUT", "/api/canvas/node/x", nil)
	big := fmt.Sprintf(`{"type":"markdown","content":%q}`, strings.Repeat("x", 2000))
	if r := p.must(413, "POST", "/api/canvas/node", big); r.str("code") != "body-too-large" {
		t.Fatalf("%s", r.raw)
	}
	if n := len(nodesOf(p.state(""))); n != 2 {
		t.Fatalf("an oversized request changed the canvas: %d nodes", n)
	}
}

func TestRevisionAndIdempotencyOverHTTP(t *testing.T) {
	p := startServer(t, "")
	rev := p.state("")["revision"].(float64)

	r := p.must(409, "POST", "/api/canvas/node", fmt.Sprintf(`{"type":"markdown","ifRevision":%d}`, int(rev)-1))
	if r.str("code") != "revision-conflict" || r.body["revision"] != rev {
		t.Fatalf("stale ifRevision: %s", r.raw)
	}
	p.must(409, "POST", "/api/canvas/node", `{"type":"markdown"}`, "X-PMX-If-Revision", fmt.Sprint(int(rev)-1))
	ok := p.must(200, "POST", "/api/canvas/node", fmt.Sprintf(`{"type":"markdown","ifRevision":%d}`, int(rev)))
	if ok.body["revision"] != rev+1 {
		t.Fatalf("revision after conditional write: %v", ok.body["revision"])
	}
	p.must(400, "POST", "/api/canvas/node", `{"type":"markdown","ifRevision":"soon"}`)

	first := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"once"}`, "Idempotency-Key", "abc")
	again := p.must(200, "POST", "/api/canvas/node", `{"title":"once","type":"markdown"}`, "Idempotency-Key", "abc")
	if first.str("id") != again.str("id") {
		t.Fatalf("retry created %s, first %s", again.str("id"), first.str("id"))
	}
	if r := p.must(422, "POST", "/api/canvas/node", `{"type":"markdown","title":"twice"}`, "Idempotency-Key", "abc"); r.str("code") != "idempotency-key-reused" {
		t.Fatalf("%s", r.raw)
	}
	if n := len(nodesOf(p.state(""))); n != 4 {
		t.Fatalf("%d nodes, want 4", n)
	}
}

func TestCanvasIsolationOverHTTP(t *testing.T) {
	p := startServer(t, "")
	p.must(200, "POST", "/api/canvas/node?canvas=team", `{"type":"markdown","title":"team note"}`)
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"header canvas"}`, "X-PMX-Canvas", "other")
	if n := len(nodesOf(p.state("team"))); n != 3 {
		t.Fatalf("team canvas has %d nodes", n)
	}
	if n := len(nodesOf(p.state("other"))); n != 3 {
		t.Fatalf("other canvas has %d nodes", n)
	}
	if n := len(nodesOf(p.state(""))); n != 2 {
		t.Fatalf("main canvas has %d nodes", n)
	}
	p.must(400, "GET", "/api/canvas/state?canvas=../etc", nil)
}

// The reference's bare form "pmx-canvas --no-open --port=N" runs the server
// with the current directory as the workspace.
func TestBareFormAndPortEnv(t *testing.T) {
	ws := t.TempDir()
	port := freePort(t)
	cmd := exec.Command(binary, "--no-open", "--port="+port)
	cmd.Dir = ws
	p := runUntilHealthy(t, cmd, "http://127.0.0.1:"+port, ws)
	if r := p.must(200, "GET", "/health", nil); r.str("workspace") != ws {
		t.Fatalf("bare form workspace %q, want %q", r.str("workspace"), ws)
	}
	p.stop()

	port = freePort(t)
	cmd = exec.Command(binary, "serve", "--workspace", ws)
	cmd.Env = append(os.Environ(), "PMX_WEB_CANVAS_PORT="+port)
	q := runUntilHealthy(t, cmd, "http://127.0.0.1:"+port, ws)
	q.must(200, "GET", "/health", nil)
}
