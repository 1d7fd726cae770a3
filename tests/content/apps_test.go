package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// transports are the fixture app server over both transports.
func transports(t *testing.T) map[string]map[string]any {
	stdio := mcpappfixture.StdioTransport()
	return map[string]map[string]any{
		"stdio": {"type": "stdio", "command": stdio.Command, "env": stdio.Env},
		"http":  {"type": "http", "url": mcpappfixture.StartHTTP(t)},
	}
}

// structured is a tool result's structuredContent.
func structured(v any) map[string]any {
	m, _ := v.(map[string]any)
	sc, _ := m["structuredContent"].(map[string]any)
	return sc
}

// firstText is a tool result's first text content.
func firstText(v any) string {
	m, _ := v.(map[string]any)
	content, _ := m["content"].([]any)
	if len(content) == 0 {
		return "<none>"
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// Over stdio and Streamable HTTP: open an app, the node it makes, tool
// calls through the bridge recorded on the node, model context, resources
// and lists, reopening in place, and the session closing with its node.
func TestMCPAppOverBothTransports(t *testing.T) {
	for name, transport := range transports(t) {
		t.Run(name, func(t *testing.T) {
			s := start(t, pmxcanvas.Options{})
			r := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport,
				"toolArguments": map[string]any{"start": 1}, "serverName": "Fixture"})
			id, _ := r["id"].(string)
			sess, _ := r["sessionId"].(string)
			tc, _ := r["toolCallId"].(string)
			if !strings.HasPrefix(id, "ext-app-") || strings.Count(id, "ext-app-") != 1 || r["nodeId"] != id ||
				strings.HasPrefix(tc, "ext-app-") || sess == "" || r["resourceUri"] != mcpappfixture.ResourceURI {
				t.Fatalf("open: %v", r)
			}
			n := s.ok("GET", "/api/canvas/node/"+id, nil)
			d := n["data"].(map[string]any)
			if n["kind"] != "external-app" || d["mode"] != "ext-app" || d["title"] != "Counter App" || d["sessionStatus"] != "ready" ||
				d["appSessionId"] != sess || d["serverName"] != "Fixture" || d["toolName"] != "show_counter" || d["hostMode"] != "hosted" {
				t.Fatalf("node %v", n)
			}
			full := s.ok("GET", "/api/canvas/state?includeBlobs=true", nil)["nodes"].([]any)[0].(map[string]any)["data"].(map[string]any)
			if html, _ := full["html"].(string); !strings.Contains(html, "data-pmx-storage-shim") || !strings.Contains(html, "Content-Security-Policy") {
				t.Errorf("html lacks the storage shim or the CSP: %.300s", html)
			}
			if got := firstText(d["toolResult"]); got != "Counter ready at 1." {
				t.Errorf("toolResult text %q", got)
			}

			call := func(tool string, args map[string]any) map[string]any {
				t.Helper()
				return s.ok("POST", "/api/ext-app/call-tool", map[string]any{"sessionId": sess, "nodeId": id, "toolName": tool, "arguments": args})["result"].(map[string]any)
			}
			call("increment", nil)
			if c := structured(call("increment", nil))["count"]; c != float64(2) {
				t.Errorf("two increments: count %v", c)
			}
			d = s.node(id)
			if c := structured(d["appModelContext"])["count"]; c != float64(2) || firstText(d["toolResult"]) != "Counter ready at 1." {
				t.Errorf("after increments: appModelContext %v, toolResult %v", d["appModelContext"], d["toolResult"])
			}
			call("save_checkpoint", map[string]any{"id": "c1", "data": "saved-scene"})
			if got := firstText(call("read_checkpoint", map[string]any{"id": "c1"})); got != "saved-scene" {
				t.Errorf("read_checkpoint %q", got)
			}
			if got := firstText(call("read_checkpoint", map[string]any{"id": "missing"})); got != "" {
				t.Errorf("read_checkpoint of a missing id %q", got)
			}
			if ctx := s.node(id)["appModelContext"].(map[string]any); fmt.Sprint(ctx["content"]) != "[map[text: type:text]]" {
				t.Errorf("appModelContext after an empty read: %v", ctx)
			}

			res := s.ok("POST", "/api/ext-app/read-resource", map[string]any{"sessionId": sess, "uri": mcpappfixture.ResourceURI})["result"].(map[string]any)
			if contents, _ := res["contents"].([]any); len(contents) != 1 {
				t.Errorf("read-resource: %v", res)
			}
			tools := s.ok("POST", "/api/ext-app/list-tools", map[string]any{"sessionId": sess})["result"].(map[string]any)
			if list, _ := tools["tools"].([]any); len(list) < 5 {
				t.Errorf("list-tools: %v", tools)
			}
			for _, route := range []string{"list-resources", "list-resource-templates", "list-prompts"} {
				code, out, raw, _ := s.do("POST", "/api/ext-app/"+route, map[string]any{"sessionId": sess})
				if code != 200 || out["ok"] != true {
					t.Errorf("%s: %d %s", route, code, raw)
				}
			}
			s.ok("POST", "/api/ext-app/model-context", map[string]any{"nodeId": id, "structuredContent": map[string]any{"note": "hi"}})
			if d := s.node(id); structured(d["appModelContext"])["note"] != "hi" || firstText(d["toolResult"]) != "Counter ready at 1." {
				t.Errorf("model-context: %v", d["appModelContext"])
			}

			// Bad calls name what is wrong.
			s.fails(400, `MCP app session "nope" not found.`, "POST", "/api/ext-app/list-tools", map[string]any{"sessionId": "nope"})
			s.fails(400, "Missing sessionId or toolName.", "POST", "/api/ext-app/call-tool", map[string]any{"sessionId": sess})
			s.fails(400, `Tool "plain_tool" does not declare an MCP App resource.`, "POST", "/api/canvas/mcp-app/open",
				map[string]any{"toolName": "plain_tool", "transport": transport})
			s.fails(400, "Missing valid transport or toolName.", "POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter"})
			s.fails(404, `Node "ghost" not found.`, "POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport, "nodeId": "ghost"})

			// Reopen in place: the same node, a new session; the old one is closed.
			r2 := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport, "nodeId": id})
			if _, has := r2["id"]; has || r2["nodeId"] != id || r2["sessionId"] == sess {
				t.Fatalf("reopen: %v", r2)
			}
			s.fails(400, "not found", "POST", "/api/ext-app/list-tools", map[string]any{"sessionId": sess})
			newSess := r2["sessionId"].(string)
			s.ok("POST", "/api/ext-app/list-tools", map[string]any{"sessionId": newSess})

			// Removing the node closes its session.
			s.ok("DELETE", "/api/canvas/node/"+id, nil)
			eventually(t, "the session to close with its node", func() bool {
				code, _, _, _ := s.do("POST", "/api/ext-app/list-tools", map[string]any{"sessionId": newSess})
				return code == 400
			})
		})
	}
}

// A killed app server marks its node sessionStatus:"error" with the
// reason; reopening the node brings it back.
func TestMCPAppServerKilled(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	transport := transports(t)["stdio"]
	r := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport})
	id, sess := r["id"].(string), r["sessionId"].(string)
	who := s.ok("POST", "/api/ext-app/call-tool", map[string]any{"sessionId": sess, "toolName": "whoami"})["result"]
	pid, err := strconv.Atoi(firstText(who))
	if err != nil || pid <= 0 {
		t.Fatalf("whoami: %v", who)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the node to report the dead server", func() bool { return s.node(id)["sessionStatus"] == "error" })
	if why, _ := s.node(id)["sessionError"].(string); !strings.Contains(why, "app server exited") {
		t.Errorf("sessionError %q", why)
	}
	s.fails(400, "not found", "POST", "/api/ext-app/list-tools", map[string]any{"sessionId": sess})
	r2 := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport, "nodeId": id})
	if d := s.node(id); d["sessionStatus"] != "ready" || d["appSessionId"] != r2["sessionId"] || d["sessionError"] != nil {
		t.Errorf("after reopen: %v", d)
	}
}

// After a restart of our server, a snapshot restore and an undo, app
// nodes are re-opened: a new session, ready, the old id dead.
func TestMCPAppRehydrates(t *testing.T) {
	ws := t.TempDir()
	transport := transports(t)["http"]
	s := start(t, pmxcanvas.Options{Workspace: ws})
	r := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transport})
	id, sess := r["id"].(string), r["sessionId"].(string)
	rehydrated := func(s *server, old string) string {
		t.Helper()
		var now string
		eventually(t, "the app node to be re-opened", func() bool {
			d := s.node(id)
			now, _ = d["appSessionId"].(string)
			return d["sessionStatus"] == "ready" && now != old
		})
		s.ok("POST", "/api/ext-app/list-tools", map[string]any{"sessionId": now})
		s.fails(400, "not found", "POST", "/api/ext-app/list-tools", map[string]any{"sessionId": old})
		return now
	}

	// Snapshot restore.
	s.ok("POST", "/api/canvas/snapshots", map[string]any{"name": "with-app"})
	_, _, raw, _ := s.do("GET", "/api/canvas/snapshots", nil)
	var snaps []map[string]any
	if err := json.Unmarshal(raw, &snaps); err != nil || len(snaps) == 0 {
		t.Fatalf("snapshots: %s", raw)
	}
	snap := snaps[0]["id"].(string)
	s.ok("POST", "/api/canvas/snapshots/"+snap, nil)
	sess = rehydrated(s, sess)

	// Undo of the node's removal.
	s.ok("DELETE", "/api/canvas/node/"+id, nil)
	s.ok("POST", "/api/canvas/undo", nil)
	sess = rehydrated(s, sess)

	// A restart of our server on the same workspace.
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	s2 := start(t, pmxcanvas.Options{Workspace: ws})
	rehydrated(s2, sess)
}

// A server bound beyond loopback refuses stdio app servers unless
// --allow-app-command names the command; HTTP app servers are fine.
func TestMCPAppStdioRefusedBeyondLoopback(t *testing.T) {
	tr := transports(t)
	s := start(t, pmxcanvas.Options{Host: "0.0.0.0", Token: "0123456789abcdef0123"})
	s.base = strings.Replace(s.base, "0.0.0.0", "127.0.0.1", 1)
	body := s.fails(403, "stdio MCP app servers are refused", "POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": tr["stdio"]})
	if body["code"] != "loopback-only" || body["field"] != "transport" {
		t.Errorf("refusal: %v", body)
	}
	s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": tr["http"]})

	allowed := start(t, pmxcanvas.Options{Host: "0.0.0.0", Token: "0123456789abcdef0123", AppCommands: []string{tr["stdio"]["command"].(string)}})
	allowed.base = strings.Replace(allowed.base, "0.0.0.0", "127.0.0.1", 1)
	allowed.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": tr["stdio"]})
}

// The diagram preset: elements through create_view, the checkpoint id,
// the camera, update in place, bad elements refused.
func TestDiagramOpen(t *testing.T) {
	url := mcpappfixture.StartHTTP(t)
	s := start(t, pmxcanvas.Options{DiagramServerURL: url})
	r := s.ok("POST", "/api/canvas/diagram", map[string]any{"title": "Arch", "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 200, "height": 100},
		map[string]any{"type": "text", "id": "t", "containerId": "a", "text": "API"},
	}})
	id := r["id"].(string)
	d := s.node(id)
	if d["serverName"] != "Excalidraw" || d["toolName"] != "create_view" || d["title"] != "Arch" {
		t.Fatalf("diagram node %v", d)
	}
	if cp := structured(d["toolResult"])["checkpointId"]; cp != "pmx-"+id {
		t.Errorf("checkpointId %v, want pmx-%s", cp, id)
	}
	var els []map[string]any
	if err := json.Unmarshal([]byte(d["toolInput"].(map[string]any)["elements"].(string)), &els); err != nil || len(els) != 2 ||
		els[0]["type"] != "cameraUpdate" || els[1]["label"].(map[string]any)["text"] != "API" {
		t.Fatalf("toolInput elements %v %v", els, err)
	}
	r2 := s.ok("POST", "/api/canvas/diagram", map[string]any{"nodeId": id, "elements": `[{"type":"ellipse","x":0,"y":0,"width":50,"height":50}]`})
	if r2["nodeId"] != id || r2["sessionId"] == r["sessionId"] {
		t.Errorf("update in place: %v", r2)
	}
	// save_checkpoint: the node keeps the checkpoint and a tool input that
	// restores it in the same camera; its tool result stays.
	s.ok("POST", "/api/ext-app/call-tool", map[string]any{"sessionId": r2["sessionId"], "nodeId": id, "toolName": "save_checkpoint",
		"arguments": map[string]any{"id": "pmx-" + id, "data": `{"elements":[]}`}})
	d = s.node(id)
	if cp, _ := d["appCheckpoint"].(map[string]any); cp["id"] != "pmx-"+id || cp["data"] != `{"elements":[]}` {
		t.Errorf("appCheckpoint %v", d["appCheckpoint"])
	}
	var restore []map[string]any
	if err := json.Unmarshal([]byte(d["toolInput"].(map[string]any)["elements"].(string)), &restore); err != nil || len(restore) != 2 ||
		restore[0]["type"] != "restoreCheckpoint" || restore[0]["id"] != "pmx-"+id || restore[1]["type"] != "cameraUpdate" {
		t.Errorf("toolInput after save_checkpoint: %v %v", restore, err)
	}
	if cp := structured(d["toolResult"])["checkpointId"]; cp != "pmx-"+id {
		t.Errorf("save_checkpoint replaced the tool result: %v", d["toolResult"])
	}
	if got := firstText(s.ok("POST", "/api/ext-app/call-tool", map[string]any{"sessionId": r2["sessionId"], "nodeId": id,
		"toolName": "read_checkpoint", "arguments": map[string]any{"id": "pmx-" + id}})["result"]); got != `{"elements":[]}` {
		t.Errorf("read_checkpoint %q", got)
	}
	apps := 0
	for _, n := range s.ok("GET", "/api/canvas/state", nil)["nodes"].([]any) {
		if n.(map[string]any)["type"] == "mcp-app" {
			apps++
		}
	}
	if apps != 1 {
		t.Errorf("%d mcp-app nodes after the update, want 1", apps)
	}
	for _, bad := range []any{"not json", []any{}, []any{"x"}, 42} {
		s.fails(400, "elements", "POST", "/api/canvas/diagram", map[string]any{"elements": bad})
	}
}

// MCP (canvas_app and the legacy tools) and the Go package open apps as
// HTTP does.
func TestMCPAppOnMCPAndGo(t *testing.T) {
	tr := transports(t)
	s := start(t, pmxcanvas.Options{DiagramServerURL: tr["http"]["url"].(string)})
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	mcp := &mcpapi.Caller{Registry: reg, Invoker: s.Invoker(), DefaultCanvas: "main"}
	ctx := context.Background()
	var sessions []string
	for _, c := range []struct {
		tool string
		args mcpapi.Args
	}{
		{"canvas_open_mcp_app", mcpapi.Args{"toolName": "show_counter", "transport": tr["stdio"]}},
		{"canvas_app", mcpapi.Args{"action": "open-mcp-app", "toolName": "show_counter", "transport": tr["http"], "title": "Second"}},
		{"canvas_add_diagram", mcpapi.Args{"elements": `[{"type":"rectangle","x":0,"y":0,"width":10,"height":10}]`}},
		{"canvas_app", mcpapi.Args{"action": "diagram", "elements": []any{map[string]any{"type": "diamond", "x": 0, "y": 0, "width": 9, "height": 9}}}},
	} {
		res := mcp.Call(ctx, c.tool, c.args)
		var out messages.AppOpened
		if res.IsError || json.Unmarshal([]byte(res.Text), &out) != nil || !out.OK || out.SessionID == "" {
			t.Fatalf("%s: %s", c.tool, res.Text)
		}
		sessions = append(sessions, out.SessionID)
	}
	if res := mcp.Call(ctx, "canvas_app", mcpapi.Args{"action": "open-mcp-app", "toolName": "plain_tool", "transport": tr["http"]}); !res.IsError ||
		!strings.Contains(res.Text, "does not declare an MCP App resource") {
		t.Errorf("plain_tool over MCP: %+v", res)
	}
	opened, err := s.Canvas().OpenMCPApp(ctx, &messages.MCPAppOpenInput{ToolName: pmxcanvas.Ptr("show_counter"),
		Transport: &messages.AppTransport{Type: "http", URL: tr["http"]["url"].(string)}})
	if err != nil || !opened.OK || opened.ID == "" {
		t.Fatalf("Go OpenMCPApp: %+v %v", opened, err)
	}
	tools, err := s.Canvas().ExtAppListTools(ctx, &messages.ExtAppSessionInput{SessionID: &opened.SessionID})
	if err != nil || !strings.Contains(string(tools.Result), "show_counter") {
		t.Errorf("Go ExtAppListTools: %v %v", tools, err)
	}
	// Clearing the canvas closes every session.
	s.ok("POST", "/api/canvas/clear", nil)
	for _, id := range append(sessions, opened.SessionID) {
		eventually(t, "clear to close "+id, func() bool {
			code, _, _, _ := s.do("POST", "/api/ext-app/list-tools", map[string]any{"sessionId": id})
			return code == 400
		})
	}
}

// Transport secrets (headers, env) never reach node data; re-opening after
// a restart still has them.
func TestMCPAppTransportSecrets(t *testing.T) {
	ws := t.TempDir()
	url := transports(t)["http"]["url"].(string)
	s := start(t, pmxcanvas.Options{Workspace: ws})
	r := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter",
		"transport": map[string]any{"type": "http", "url": url, "headers": map[string]any{"Authorization": "Bearer s3cret-token"}}})
	id, sess := r["id"].(string), r["sessionId"].(string)
	_, _, raw, _ := s.do("GET", "/api/canvas/state?includeBlobs=true", nil)
	if strings.Contains(string(raw), "s3cret-token") {
		t.Fatal("the header value is in the canvas state")
	}
	tc := s.node(id)["transportConfig"].(map[string]any)
	if h := tc["headers"].(map[string]any); h["Authorization"] != "<redacted>" || tc["url"] != url {
		t.Fatalf("transportConfig %v", tc)
	}
	kept, _ := filepath.Glob(filepath.Join(s.ws, ".pmx-canvas", "app-transports", "*", id+".json"))
	if len(kept) != 1 {
		t.Fatalf("the full transport is not kept: %v", kept)
	}
	if fi, err := os.Stat(kept[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("kept transport mode %v %v, want 0600", fi.Mode(), err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	s2 := start(t, pmxcanvas.Options{Workspace: ws})
	eventually(t, "the app re-opened with its header", func() bool {
		d := s2.node(id)
		return d["sessionStatus"] == "ready" && d["appSessionId"] != sess
	})
}

// A stdio app server's process dies with the canvas (here: our server
// stopping).
func TestMCPAppProcessDiesWithTheServer(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	r := s.ok("POST", "/api/canvas/mcp-app/open", map[string]any{"toolName": "show_counter", "transport": transports(t)["stdio"]})
	pid, err := strconv.Atoi(firstText(s.ok("POST", "/api/ext-app/call-tool", map[string]any{"sessionId": r["sessionId"], "toolName": "whoami"})["result"]))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the app server process to exit", func() bool {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err != nil || strings.Contains(string(stat), ") Z ")
	})
}
