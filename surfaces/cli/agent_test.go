package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestKebabFlags(t *testing.T) {
	for in, want := range map[string]string{
		"toolName": "tool-name", "agentSummary": "agent-summary", "xKey": "x-key", "nodeHeight": "node-height",
		"dry-run": "dry-run", "x": "x", "resultSummary": "result-summary",
	} {
		if got := string(kebabFlags(nil, in)); got != want {
			t.Errorf("kebabFlags(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"add", "get", "list", "remove", "schema", "update"}
	for word, want := range map[string]string{"lst": "list", "updat": "update", "rmove": "remove", "bogus": "", "sch": "schema", "x": ""} {
		if got := closest(word, names); got != want {
			t.Errorf("closest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestNumValue(t *testing.T) {
	cases := []struct {
		in                string
		positive, integer bool
		want              float64
		ok                bool
	}{
		{"-100", false, false, -100, true},
		{"2.5", false, false, 2.5, true},
		{"NaN", false, false, 0, false},
		{"Inf", false, false, 0, false},
		{"abc", false, false, 0, false},
		{"0", true, false, 0, false},
		{"-1", true, false, 0, false},
		{"3.9", true, true, 3, true},
	}
	for _, c := range cases {
		n := &numValue{positive: c.positive, integer: c.integer}
		err := n.Set(c.in)
		if (err == nil) != c.ok || (c.ok && n.v != c.want) {
			t.Errorf("Set(%q) positive=%v integer=%v: %v, %v; want %v ok=%v", c.in, c.positive, c.integer, n.v, err, c.want, c.ok)
		}
	}
}

func TestTruncateText(t *testing.T) {
	if got := truncateText("  a \n\n b\tc ", 240); got != "a b c" {
		t.Errorf("whitespace: %q", got)
	}
	long := strings.Repeat("x", 300)
	got := truncateText(long, 240)
	if r := []rune(got); len(r) != 240 || !strings.HasSuffix(got, "…") {
		t.Errorf("cut: %d runes, %q", len(r), got[len(got)-5:])
	}
}

func TestSummarizeNode(t *testing.T) {
	raw := json.RawMessage(`{"id":"n1","type":"mcp-app","position":{"x":1,"y":2},"size":{"width":10,"height":20},"collapsed":false,"pinned":true,"dockPosition":null,
		"data":{"title":"T","html":"<b>","hostMode":"hosted","toolName":"t","graphConfig":{"graphType":"bar","data":[{"k":1,"v":2},{"k":3,"v":4}],"xKey":"k"},"zeta":1},
		"kind":"web-artifact","title":"T","content":"hello   world","path":null,"url":null,"provenance":null}`)
	got, _ := json.Marshal(summarizeNode(raw))
	want := `{"id":"n1","type":"mcp-app","kind":"web-artifact","title":"T","contentPreview":"hello world","position":{"x":1,"y":2},"size":{"width":10,"height":20},"collapsed":false,"pinned":true,"dockPosition":null,"path":null,"url":null,"provenance":null,"toolName":"t","hostMode":"hosted","graph":{"graphType":"bar","dataPoints":2,"dataKeys":["k","v"],"xKey":"k"},"dataKeys":["graphConfig","hostMode","title","toolName","zeta"]}`
	if string(got) != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

func TestNodeField(t *testing.T) {
	var node map[string]any
	_ = json.Unmarshal([]byte(`{"id":"n","title":"T","size":{"width":1},"data":{"content":"c","nested":{"a":[5,6]},"title":"dt"}}`), &node)
	for field, want := range map[string]any{
		"title": "T", "size.width": 1.0, "content": "c", "data.content": "c", "nested.a.1": 6.0, "data.title": "dt",
	} {
		got, ok := nodeField(node, field)
		if !ok || got != want {
			t.Errorf("nodeField(%q) = %v, %v; want %v", field, got, ok, want)
		}
	}
	if _, ok := nodeField(node, "nope"); ok {
		t.Error("nope resolved")
	}
	if got := strings.Join(nodeFieldNames(node), ","); got != "content,data.content,data.nested,data.title,id,nested,size,title" {
		t.Errorf("field names: %s", got)
	}
}

func TestOrderedKeepsKeyOrder(t *testing.T) {
	o, err := rawObject([]byte(`{"z":1,"a":{"y":2,"b":3},"m":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	o.set("a", o.get("a"))
	o.set("new", true)
	b, _ := json.Marshal(o)
	if string(b) != `{"z":1,"a":{"y":2,"b":3},"m":[1],"new":true}` {
		t.Errorf("got %s", b)
	}
	if _, err := rawObject([]byte(`[1]`)); err == nil {
		t.Error("an array is not an object")
	}
}

// syncWriter is a goroutine-safe buffer standing in for a terminal.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func TestIndeterminateProgressOnlyOnATerminal(t *testing.T) {
	var plain bytes.Buffer
	p := startProgress(&plain, "[batch] 3 operations")
	p.finish("3 results") // nil-safe
	if plain.Len() != 0 {
		t.Fatalf("progress written to a non-terminal: %q", plain.String())
	}

	tick := progressTick
	defer func() { progressTick = tick }()
	t.Setenv("PMX_CANVAS_PROGRESS", "always")
	progressTick = time.Millisecond
	w := &syncWriter{}
	p = startProgress(w, "[batch] 3 operations from ops.json")
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(w.String(), "\r") < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	p.finish("3 results")
	p.finish("again") // once
	out := w.String()
	if !strings.HasPrefix(out, "\r[batch] 3 operations from ops.json: 0") || strings.Count(out, "\r") < 2 ||
		!strings.HasSuffix(out, "\n") || !strings.Contains(out, "[batch] 3 operations from ops.json: 3 results (") || strings.Contains(out, "again") {
		t.Fatalf("progress output %q", out)
	}
}

// fakeServer records the requests of one command run in process.
func fakeServer(t *testing.T, reply string) (*[]string, func(args ...string) (string, string, int)) {
	t.Helper()
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-PMX-Source")+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PMX_CANVAS_URL", srv.URL)
	t.Setenv("PMX_CANVAS_ID", "")
	return &got, func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := Execute(args, &out, &errOut)
		return out.String(), errOut.String(), code
	}
}

func TestRequestsCarryTheReferenceBodies(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ax", "host", "report", "--host", "codex", "--tools"},
			`PUT /api/canvas/ax/host-capability?canvas=main cli {"canvas":false,"files":false,"hooks":false,"host":"codex","permissions":false,"sessionMessaging":false,"source":"cli","tools":true,"uiPrompts":false}`},
		{[]string{"node", "update", "n1", "--x", "-100", "--dock-position", "null"},
			`PATCH /api/canvas/node/n1?canvas=main cli {"dockPosition":null,"x":-100}`},
		{[]string{"edge", "add", "--from", "a", "--to-search", "Build"},
			`POST /api/canvas/edge?canvas=main cli {"from":"a","toSearch":"Build","type":"flow"}`},
		{[]string{"batch", "--json", `[{"op":"arrange"}]`},
			`POST /api/canvas/batch?canvas=main cli {"operations":[{"op":"arrange"}]}`},
		{[]string{"snapshot", "list", "--q", "pre", "--all", "--canvas", "other"},
			`GET /api/canvas/snapshots?all=true&canvas=other&query=pre cli `},
		{[]string{"ax", "policy", "set", "--excluded-tools", "a, b,", "--system-append", "Ask"},
			`POST /api/canvas/ax/policy?canvas=main cli {"prompt":{"systemAppend":"Ask"},"source":"cli","tools":{"excluded":["a","b"]}}`},
		{[]string{"fit", "n1", "--max-scale", "2"},
			`POST /api/canvas/fit?canvas=main cli {"maxScale":2,"nodeIds":["n1"]}`},
		// Issue 13's drift: these flags were accepted and dropped.
		{[]string{"node", "add", "--type", "group", "--color", "#f00", "--data", `{"k":1}`},
			`POST /api/canvas/node?canvas=main cli {"color":"#f00","data":{"k":1},"type":"group"}`},
		{[]string{"node", "add", "--title", "T", "--data-json", `{"k":2}`, "--presentation", "false", "--summary", "S"},
			`POST /api/canvas/node?canvas=main cli {"data":{"k":2},"presentation":false,"summary":"S","title":"T","type":"markdown"}`},
		{[]string{"node", "update", "n1", "--data", `{"k":3}`, "--collapsed"},
			`PATCH /api/canvas/node/n1?canvas=main cli {"collapsed":true,"data":{"k":3}}`},
		// Chart flags and a spec patch a graph or json-render node.
		{[]string{"node", "update", "n1", "--graph-type", "bar", "--color", "red", "--metrics", "a,b", "--chart-height", "300"},
			`PATCH /api/canvas/node/n1?canvas=main cli {"chartHeight":300,"color":"red","graphType":"bar","metrics":["a","b"]}`},
		{[]string{"node", "update", "n1", "--spec-json", `{"root":"a","elements":{}}`},
			`PATCH /api/canvas/node/n1?canvas=main cli {"spec":{"root":"a","elements":{}}}`},
		{[]string{"edge", "add", "--from", "a", "--to", "b", "--animated=false"},
			`POST /api/canvas/edge?canvas=main cli {"animated":false,"from":"a","to":"b","type":"flow"}`},
		{[]string{"theme", "set", "--theme", "light"},
			`POST /api/canvas/theme?canvas=main cli {"theme":"light"}`},
	}
	for _, c := range cases {
		got, run := fakeServer(t, `{"ok":true}`)
		out, errOut, code := run(c.args...)
		if code != 0 || strings.TrimSpace(out) != "{\n  \"ok\": true\n}" {
			t.Errorf("%v: code %d out %q err %q", c.args, code, out, errOut)
			continue
		}
		if len(*got) != 1 || (*got)[0] != c.want {
			t.Errorf("%v sent\n %q\nwant\n %q", c.args, *got, c.want)
		}
	}
}

// copilot install-extension writes the embedded extension, never over a
// file without --yes, and calls no server.
func TestCopilotInstallExtension(t *testing.T) {
	got, run := fakeServer(t, `{}`)
	dir := t.TempDir()
	target := filepath.Join(dir, "ext", "extension.mjs")
	out, errOut, code := run("copilot", "install-extension", "--dry-run", "--target", target)
	var r map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r["dryRun"] != true || r["wrote"] != false || r["targetExists"] != false || r["targetPath"] != target {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the dry run wrote the file")
	}
	out, _, code = run("copilot", "install-extension", "--target", target)
	if code != 0 || !strings.Contains(out, `"wrote": true`) {
		t.Fatalf("install: %d %s", code, out)
	}
	if b, err := os.ReadFile(target); err != nil || !bytes.Equal(b, copilotExtension) {
		t.Fatalf("installed file differs: %v", err)
	}
	_, errOut, code = run("copilot", "install-extension", "--target", target)
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second install without --yes: %d %s", code, errOut)
	}
	if _, _, code = run("copilot", "install-extension", "--target", target, "--yes"); code != 0 {
		t.Errorf("--yes: exit %d", code)
	}
	if len(*got) != 0 {
		t.Errorf("install-extension called the server: %v", *got)
	}
}

func countFlags(args []string) int {
	n := 0
	for i := len(args) - 1; i >= 0; i-- {
		if strings.HasPrefix(args[i], "-") {
			n = len(args) - i
		}
	}
	return n
}

func TestValidateExitsTwoAfterTheReport(t *testing.T) {
	_, run := fakeServer(t, `{"ok":false,"collisions":[{}],"summary":{"collisions":1,"missingEdgeEndpoints":2}}`)
	out, errOut, code := run("validate")
	if code != 2 || !strings.Contains(out, `"ok": false`) ||
		!strings.Contains(errOut, `"error":"validate: the layout has problems: 1 collisions, 2 missingEdgeEndpoints"`) {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
}

// TestRefusedFlagsSendNothing checks the client-side refusals (issue 13: a
// flag is never accepted and then dropped) fail before any request, with
// exit 1 and an error naming the flag.
func TestRefusedFlagsSendNothing(t *testing.T) {
	got, run := fakeServer(t, `{"ok":true}`)
	for args, want := range map[string]string{
		"node add --data not-json":                  "Invalid --data JSON: invalid character 'o' in literal null (expecting 'u')",
		"node add --x ten":                          "Invalid value for --x: ten",
		"node add --graph-type bar":                 "--graph-type applies only to --type graph",
		"node add --spec-json {}":                   "--spec-json applies only to --type json-render",
		"node add --app-file App.tsx":               "--app-file applies only to --type web-artifact",
		"node add --height 1 --node-height 2":       "Use either --height/--node-height, not both.",
		"search design doc":                         "Unexpected argument: doc",
		"snapshot list --query a --q b":             "Use either --query/--q, not both.",
		"ax elicitation respond e1 --response {bad": "Invalid --response JSON: invalid character 'b' looking for beginning of object key string",
		"viewport set --scale big":                  "Invalid value for --scale: big",
	} {
		_, errOut, code := run(strings.Fields(args)...)
		var e struct{ Error string }
		_ = json.Unmarshal([]byte(errOut), &e)
		if code != 1 || e.Error != want {
			t.Errorf("%s: code %d, error %q; want %q", args, code, e.Error, want)
		}
	}
	if len(*got) != 0 {
		t.Errorf("refused commands called the server: %v", *got)
	}
}
