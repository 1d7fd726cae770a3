package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Copilot extension, run by Node as Copilot CLI runs it but with a
// stand-in for the SDK module (joinSession calls each tool and prints
// what it returned): its tools call the pmx-canvas routes they name.
func TestCopilotExtensionTools(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("PMX_REQUIRE_WEB") == "1" {
			t.Fatal("PMX_REQUIRE_WEB=1 but node is not installed")
		}
		t.Skip("node is not installed")
	}
	var mu sync.Mutex
	var calls []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.RequestURI()+" "+string(body)+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/api/canvas/board":
			_, _ = io.WriteString(w, `{"ok":true,"summary":"1 node","nodes":[{"id":"n1"}]}`)
		case r.URL.Path == "/api/canvas/node":
			_, _ = io.WriteString(w, `{"id":"node-1","type":"markdown"}`)
		case r.URL.Path == "/api/canvas/ax/approval" && r.Method == "POST":
			_, _ = io.WriteString(w, `{"ok":true,"approvalGate":{"id":"appr-1","status":"pending"}}`)
		case strings.HasPrefix(r.URL.Path, "/api/canvas/ax/approval/"):
			_, _ = io.WriteString(w, `{"ok":true,"approvalGate":{"id":"appr-1","status":"approved"}}`)
		default:
			w.WriteHeader(404)
			_, _ = io.WriteString(w, `{"ok":false,"error":"no route"}`)
		}
	}))
	defer srv.Close()

	dir := t.TempDir()
	sdk := filepath.Join(dir, "node_modules", "@github", "copilot-sdk")
	for name, text := range map[string]string{
		filepath.Join(sdk, "package.json"): `{"name":"@github/copilot-sdk","type":"module","exports":{"./extension":"./extension.js"}}`,
		filepath.Join(sdk, "extension.js"): `export async function joinSession({ tools }) {
  const calls = JSON.parse(process.env.CALLS);
  const out = {};
  for (const [name, args] of calls) {
    const tool = tools.find((t) => t.name === name);
    try { out[name] = JSON.parse(await tool.handler(args, { toolName: name })); } catch (err) { out[name] = { error: err.message }; }
  }
  out.names = tools.map((t) => t.name);
  process.stdout.write(JSON.stringify(out));
}`,
		filepath.Join(dir, "extension.mjs"): string(copilotExtension),
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, "extension.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PMX_CANVAS_URL="+srv.URL+"/", "PMX_CANVAS_TOKEN=tok-123",
		`CALLS=[["pmx_canvas_board",{}],["pmx_canvas_add_note",{"title":"Plan","content":"# Steps"}],["pmx_canvas_request_approval",{"title":"Ship?","timeoutMs":5000}],["pmx_canvas_pinned_context",{}]]`)
	raw, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, raw)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("output %s: %v", raw, err)
	}
	if names, _ := out["names"].([]any); len(names) != 4 {
		t.Errorf("tools %v", out["names"])
	}
	if b := out["pmx_canvas_board"].(map[string]any); b["summary"] != "1 node" {
		t.Errorf("board: %v", b)
	}
	if n := out["pmx_canvas_add_note"].(map[string]any); n["id"] != "node-1" {
		t.Errorf("add note: %v", n)
	}
	if a := out["pmx_canvas_request_approval"].(map[string]any); a["approvalGate"].(map[string]any)["status"] != "approved" {
		t.Errorf("approval: %v", a)
	}
	if e := out["pmx_canvas_pinned_context"].(map[string]any); e["error"] != "no route" {
		t.Errorf("a failing route: %v", e)
	}
	want := []string{
		"GET /api/canvas/board  Bearer tok-123",
		`POST /api/canvas/node {"type":"markdown","title":"Plan","content":"# Steps"} Bearer tok-123`,
		`POST /api/canvas/ax/approval {"title":"Ship?","source":"copilot"} Bearer tok-123`,
		"GET /api/canvas/ax/approval/appr-1?waitMs=5000  Bearer tok-123",
		"GET /api/canvas/pinned-context  Bearer tok-123",
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
}
