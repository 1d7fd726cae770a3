package content_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

func TestFileNodeReadsItsFile(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	content := "export const x = 1;\nconsole.log(x)\n"
	abs := s.write("src/app.ts", content)
	n := s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "src/app.ts"})
	d := s.node(nodeID(t, n))
	sum := sha256.Sum256([]byte(content))
	fi, _ := os.Stat(abs)
	want := map[string]any{
		"path": abs, "title": "app.ts", "fileContent": content, "lineCount": 3.0, "sha256": hex.EncodeToString(sum[:]),
		"language": "typescript", "updatedAt": fi.ModTime().UTC().Format("2006-01-02T15:04:05.000Z"), "size": float64(len(content)),
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("data.%s = %#v, want %#v", k, d[k], v)
		}
	}
	prov, _ := d["provenance"].(map[string]any)
	if prov["sourceKind"] != "workspace-file" || prov["refreshStrategy"] != "file-watch" || prov["sourceUri"] != "file://"+filepath.ToSlash(abs) ||
		prov["syncedAt"] != want["updatedAt"] {
		t.Errorf("provenance = %v", prov)
	}
	// An absolute path inside the workspace works too.
	n2 := s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": abs, "title": "App"})
	if d2 := s.node(nodeID(t, n2)); d2["title"] != "App" || d2["fileContent"] != content {
		t.Errorf("absolute path node: %v", d2)
	}
}

func TestFileNodeConfinedToTheWorkspace(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(s.ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"../" + filepath.Base(outside) + "/secret.txt", "is outside the workspace"},
		{"/etc/passwd", `path "/etc/passwd" is outside the workspace`},
		{"./link.txt", "leaves the workspace through a symlink"},
		{".pmx-canvas/canvas.db", "store, not workspace content"},
	} {
		out := s.fails(400, tc.want, "POST", "/api/canvas/node", map[string]any{"type": "file", "content": tc.path})
		if out["field"] != "path" {
			t.Errorf("%s: field = %v", tc.path, out["field"])
		}
	}
	st := s.ok("GET", "/api/canvas/state", nil)
	for _, n := range st["nodes"].([]any) {
		if n.(map[string]any)["type"] == "file" {
			t.Errorf("a refused file node was created: %v", n)
		}
	}
}

func TestFileNodeLimits(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	s.write("big.log", strings.Repeat("0123456789abcdef\n", (3<<20)/17))
	s.write("tool.bin", "\x7fELF\x00\x00\x01\x02rest")
	s.write("data.csv", "name,qty\napple,3\n\"pear, green\",4\n")
	s.write("doc.pdf", "%PDF-1.7\n\x00\x01\x02binary body")

	big := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "big.log"})))
	if big["truncated"] != true || len(big["fileContent"].(string)) != 2<<20 {
		t.Errorf("big file: truncated=%v len=%d", big["truncated"], len(big["fileContent"].(string)))
	}
	bin := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "tool.bin"})))
	if bin["binary"] != true || !strings.HasPrefix(bin["fileContent"].(string), "[binary file:") {
		t.Errorf("binary file: %v", bin)
	}
	csv := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "data.csv"})))
	table, _ := csv["table"].(map[string]any)
	if table == nil || table["rowCount"] != 2.0 || table["rows"].([]any)[1].([]any)[0] != "pear, green" {
		t.Errorf("csv table: %v", csv["table"])
	}
	pdf := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "doc.pdf"})))
	fileURL, _ := pdf["fileUrl"].(string)
	if pdf["mimeType"] != "application/pdf" || fileURL == "" {
		t.Fatalf("pdf node: %v", pdf)
	}
	code, _, raw, hdr := s.do("GET", fileURL, nil)
	if code != 200 || hdr.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(raw), "%PDF-1.7") ||
		hdr.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("file-bytes: %d %q csp %q", code, hdr.Get("Content-Type"), hdr.Get("Content-Security-Policy"))
	}
	s.fails(400, "is outside the workspace", "GET", "/api/canvas/file-bytes?path=/etc/passwd", nil)
	s.fails(404, "not found", "GET", "/api/canvas/file-bytes?path=nope.pdf", nil)
}

// A watched file changes on disk: its node gets the new content in one
// layout frame, with no undo entry; a deleted file marks the node missing;
// a file that comes back clears the mark; a removed node stops watching.
func TestFileWatcher(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	p := s.write("notes.txt", "v1\n")
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "notes.txt"}))
	time.Sleep(400 * time.Millisecond) // the code-graph tick after the add
	hist := historyLen(s)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sub, err := s.Canvas().Subscribe(ctx, pmxcanvas.SubscribeOptions{SkipInitial: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := os.WriteFile(p, []byte("v2\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	frames := layoutFrames(sub, 1500*time.Millisecond)
	if len(frames) != 1 {
		t.Fatalf("%d layout frames after one edit, want 1", len(frames))
	}
	if !frameShows(frames[0], id, "v2\nmore\n") {
		t.Errorf("the frame does not carry the new content")
	}
	if d := s.node(id); d["fileContent"] != "v2\nmore\n" || d["lineCount"] != 3.0 {
		t.Errorf("after edit: %v", d)
	}
	if h := historyLen(s); h != hist {
		t.Errorf("history grew from %d to %d: a watch refresh must not be an undo entry", hist, h)
	}

	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the node marked missing", func() bool { return s.node(id)["missing"] == true })
	if d := s.node(id); d["fileContent"] != "v2\nmore\n" {
		t.Errorf("a missing file's node lost its last content: %v", d["fileContent"])
	}
	s.write("notes.txt", "back\n")
	eventually(t, "the file back", func() bool { d := s.node(id); return d["missing"] == nil && d["fileContent"] == "back\n" })

	s.ok("DELETE", "/api/canvas/node/"+id, nil)
	layoutFrames(sub, 500*time.Millisecond) // the frames so far, the removal's included
	if err := os.WriteFile(p, []byte("after removal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(layoutFrames(sub, 800*time.Millisecond)); n != 0 {
		t.Errorf("%d layout frames after editing a file no node shows", n)
	}
}

// A file node whose file does not exist yet is created, marked missing,
// and fills in when the file appears.
func TestFileNodeForAMissingFile(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "later.md"}))
	if d := s.node(id); d["missing"] != true || d["path"] != filepath.Join(s.ws, "later.md") || d["title"] != "later.md" {
		t.Fatalf("missing file node: %v", d)
	}
	s.write("later.md", "# Here\n")
	eventually(t, "the file's content", func() bool { return s.node(id)["fileContent"] == "# Here\n" })
}

func TestFileRefresh(t *testing.T) {
	s := start(t, pmxcanvas.Options{WatchDebounce: time.Hour})
	p := s.write("a.txt", "one")
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "a.txt"}))
	if err := os.WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := s.ok("POST", "/api/canvas/node/"+id+"/refresh", nil)
	if out["ok"] != true || s.node(id)["fileContent"] != "two" {
		t.Errorf("refresh: %v / %v", out, s.node(id)["fileContent"])
	}
	md := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
	s.fails(400, "only file, image and webpage nodes refresh", "POST", "/api/canvas/node/"+md+"/refresh", nil)
	s.fails(404, "not found", "POST", "/api/canvas/node/nope/refresh", nil)
}

func TestFileRoutes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	s.write("docs/plan.md", "# Plan\r\n\r\n- [ ] ship\n")
	doc := s.ok("GET", "/api/file?path=docs/plan.md", nil)
	if doc["title"] != "plan.md" || doc["content"] != "# Plan\r\n\r\n- [ ] ship\n" || doc["path"] != filepath.Join(s.ws, "docs/plan.md") {
		t.Errorf("file.get: %v", doc)
	}
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "docs/plan.md"}))
	saved := s.ok("POST", "/api/file/save", map[string]any{"path": "docs/plan.md", "content": "# Plan\r\nv2\r\n"})
	b, _ := os.ReadFile(filepath.Join(s.ws, "docs/plan.md"))
	if saved["ok"] != true || string(b) != "# Plan\nv2\n" {
		t.Errorf("file.save: %v, disk %q", saved, b)
	}
	eventually(t, "the saved content on the node", func() bool { return s.node(id)["fileContent"] == "# Plan\nv2\n" })
	entries, _ := os.ReadDir(filepath.Join(s.ws, "docs"))
	if len(entries) != 1 {
		t.Errorf("temporary files left next to the saved file: %v", entries)
	}
	s.fails(400, "its directory does not exist", "POST", "/api/file/save", map[string]any{"path": "nodir/x.md", "content": "x"})
	s.fails(400, "is outside the workspace", "POST", "/api/file/save", map[string]any{"path": "../escape.md", "content": "x"})
	s.fails(400, `field "content" is required`, "POST", "/api/file/save", map[string]any{"path": "docs/plan.md"})
	s.fails(404, "not found", "GET", "/api/file?path=none.md", nil)

	r := s.ok("POST", "/api/render", map[string]any{"markdown": "| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n- [x] done"})
	html, _ := r["html"].(string)
	if !strings.Contains(html, "<table>") || !strings.Contains(html, `type="checkbox"`) || strings.Contains(html, "<script") {
		t.Errorf("render: %s", html)
	}

	code, _, raw, hdr := s.do("GET", "/artifact?path=docs/plan.md", nil)
	if code != 200 || !strings.Contains(string(raw), "<h1") || !strings.Contains(string(raw), "PMX Artifact") ||
		hdr.Get("Content-Security-Policy") != "sandbox allow-scripts" {
		t.Errorf("artifact md: %d csp %q %s", code, hdr.Get("Content-Security-Policy"), raw)
	}
	s.write("site/index.html", "<html><body><p>hi</p></body></html>")
	_, _, raw, hdr = s.do("GET", "/artifact?path=site/index.html&frameToken=abc", nil)
	if !strings.Contains(string(raw), "<p>hi</p>") || !strings.Contains(string(raw), "pmx-frame-height") ||
		hdr.Get("Content-Security-Policy") != "sandbox allow-scripts" {
		t.Errorf("artifact html: %s", raw)
	}
	s.write("notes.txt", "<b>not html</b>")
	_, _, raw, _ = s.do("GET", "/artifact?path=notes.txt", nil)
	if !strings.Contains(string(raw), "&lt;b&gt;not html&lt;/b&gt;") {
		t.Errorf("artifact text is not escaped: %s", raw)
	}
	s.fails(400, "is outside the workspace", "GET", "/artifact?path=/etc/hosts", nil)
}

func TestImageNodes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	s.write("shots/a.png", string(pngBytes(40, 30)))
	s.write("passwd", "root:x:0:0")
	s.write("fake.png", "just text")
	n := s.ok("POST", "/api/canvas/node", map[string]any{"type": "image", "content": "shots/a.png"})
	id := nodeID(t, n)
	d := s.node(id)
	if d["mimeType"] != "image/png" || d["width"] != 40.0 || d["height"] != 30.0 || d["title"] != "a.png" ||
		d["src"] != filepath.Join(s.ws, "shots/a.png") {
		t.Errorf("image data: %v", d)
	}
	code, _, raw, hdr := s.do("GET", "/api/canvas/image/"+id, nil)
	if code != 200 || hdr.Get("Content-Type") != "image/png" || len(raw) != len(pngBytes(40, 30)) {
		t.Errorf("image.get: %d %q %d bytes", code, hdr.Get("Content-Type"), len(raw))
	}
	s.fails(400, "is outside the workspace", "POST", "/api/canvas/node", map[string]any{"type": "image", "content": "/etc/passwd"})
	s.fails(400, `"passwd" has no extension`, "POST", "/api/canvas/node", map[string]any{"type": "image", "path": "passwd"})
	s.fails(400, "is not a recognized image file", "POST", "/api/canvas/node", map[string]any{"type": "image", "content": "fake.png"})
	s.fails(400, "does not exist", "POST", "/api/canvas/node", map[string]any{"type": "image", "content": "missing.png"})
	s.fails(400, `data URI must be an image/* media type (got "data:text/html,<b>x</b>")`, "POST", "/api/canvas/node",
		map[string]any{"type": "image", "content": "data:text/html,<b>x</b>"})

	web := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "image", "content": "https://example.com/img/cat.jpg"})))
	if web["src"] != "https://example.com/img/cat.jpg" || web["title"] != "cat.jpg" {
		t.Errorf("url image: %v", web)
	}
	data := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "image", "content": "data:image/png;base64,iVBORw0KGgo="}))
	s.fails(400, "not file-based", "GET", "/api/canvas/image/"+data, nil)
	s.fails(404, "not found", "GET", "/api/canvas/image/nope", nil)

	// A stored path outside the workspace (patched in) is refused when served.
	s.ok("PATCH", "/api/canvas/node/"+id, map[string]any{"data": map[string]any{"path": "/etc/hosts"}})
	out := s.fails(403, "is outside the workspace", "GET", "/api/canvas/image/"+id, nil)
	if out["code"] != "outside-workspace" {
		t.Errorf("code = %v", out["code"])
	}
}

// layoutFrames collects the canvas-layout-update events for d.
func layoutFrames(sub *pmxcanvas.Subscription, d time.Duration) []pmxcanvas.Event {
	var out []pmxcanvas.Event
	deadline := time.After(d)
	for {
		select {
		case ev, ok := <-sub.Events:
			if !ok {
				return out
			}
			if ev.Name == "canvas-layout-update" {
				out = append(out, ev)
			}
		case <-deadline:
			return out
		}
	}
}

func frameShows(ev pmxcanvas.Event, id, content string) bool {
	var payload struct {
		Layout struct {
			Nodes []struct {
				ID   string         `json:"id"`
				Data map[string]any `json:"data"`
			} `json:"nodes"`
		} `json:"layout"`
	}
	if json.Unmarshal(ev.Data, &payload) != nil {
		return false
	}
	for _, n := range payload.Layout.Nodes {
		if n.ID == id {
			return n.Data["fileContent"] == content
		}
	}
	return false
}
