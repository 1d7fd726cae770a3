package content_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

const articleHTML = `<!doctype html><html><head><title>Plain title</title>
<meta property="og:title" content="The &amp; Title">
<meta name="description" content="What the page is about">
<meta property="og:image" content="/img/cover.png">
</head><body><nav>Home | About</nav><main><article><h1>Release notes</h1>
<p>Version 2 adds <a href="/docs">docs</a> and a faster engine for everyone who builds with it.</p>
<ul><li>first change</li><li>second change</li></ul><script>alert(1)</script></article></main></body></html>`

// fixture serves the pages the webpage tests fetch, on loopback.
func fixture(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Frame-Options", "DENY")
		fmt.Fprint(w, articleHTML)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><main><p>")
		chunk := strings.Repeat("lorem ipsum ", 1000)
		for i := 0; i < 500; i++ { // ~6 MB
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/article", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestWebpageNodeFetchesItsPage(t *testing.T) {
	web, hits := fixture(t)
	s := start(t, pmxcanvas.Options{})
	out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + "/moved"})
	if f, _ := out["fetch"].(map[string]any); f["ok"] != true {
		t.Fatalf("create reply: %v", out)
	}
	d := s.node(nodeID(t, out))
	content, _ := d["content"].(string)
	for k, v := range map[string]any{
		"url": web.URL + "/article", "status": "ready", "statusCode": 200.0, "title": "The & Title", "titleSource": "page",
		"pageTitle": "The & Title", "description": "What the page is about", "imageUrl": web.URL + "/img/cover.png", "frameBlocked": true,
	} {
		if d[k] != v {
			t.Errorf("data.%s = %#v, want %#v", k, d[k], v)
		}
	}
	if !strings.Contains(content, "# Release notes") || !strings.Contains(content, "[docs]("+web.URL+"/docs)") ||
		!strings.Contains(content, "- first change") || strings.Contains(content, "alert(1)") || strings.Contains(content, "Home | About") {
		t.Errorf("content is not the article as markdown:\n%s", content)
	}
	if ex, _ := d["excerpt"].(string); !strings.HasPrefix(ex, "Release notes") || strings.Contains(ex, "#") {
		t.Errorf("excerpt = %q", ex)
	}
	if prov, _ := d["provenance"].(map[string]any); prov["sourceKind"] != "webpage-url" || prov["syncedAt"] != d["fetchedAt"] {
		t.Errorf("provenance = %v", prov)
	}
	before := hits.Load()
	id := nodeID(t, out)
	r := s.ok("POST", "/api/canvas/node/"+id+"/refresh", nil)
	if r["ok"] != true || hits.Load() != before+1 {
		t.Errorf("refresh: %v (hits %d → %d)", r, before, hits.Load())
	}
	// PATCH refresh:true is the same refresh; a user title sticks.
	s.ok("PATCH", "/api/canvas/node/"+id, map[string]any{"title": "Mine"})
	s.ok("PATCH", "/api/canvas/node/"+id, map[string]any{"refresh": true})
	if d := s.node(id); d["title"] != "Mine" || d["titleSource"] != "user" || hits.Load() != before+2 {
		t.Errorf("after refresh with a user title: %v", d["title"])
	}
	s.fails(400, "Webpage nodes only support http(s) URLs.", "POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": "ftp://x"})
	s.fails(400, "Webpage nodes require a non-empty URL.", "POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": "  "})
}

func TestWebpageFetchFailures(t *testing.T) {
	web, _ := fixture(t)
	s := start(t, pmxcanvas.Options{FetchTimeout: 300 * time.Millisecond})
	for _, tc := range []struct{ path, want string }{
		{"/missing", "Request failed with 404 Not Found"},
		{"/slow", "Timed out after 300ms while fetching " + web.URL + "/slow."},
		{"/loop", "redirects"},
	} {
		// Creating succeeds (the node exists) and says the fetch failed.
		out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + tc.path})
		msg, _ := out["error"].(string)
		if f, _ := out["fetch"].(map[string]any); f["ok"] != false || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: create reply %v, want an error with %q", tc.path, out, tc.want)
		}
		id := nodeID(t, out)
		if d := s.node(id); d["status"] != "error" || !strings.Contains(d["error"].(string), tc.want) {
			t.Errorf("%s: node %v", tc.path, d)
		}
		// A refresh that fails is an error, never ok:true.
		e := s.fails(502, tc.want, "POST", "/api/canvas/node/"+id+"/refresh", nil)
		if e["code"] != "fetch-failed" || e["id"] != id {
			t.Errorf("%s: refresh error %v", tc.path, e)
		}
	}
	out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + "/huge"})
	if d := s.node(nodeID(t, out)); d["status"] != "ready" || d["truncated"] != true || len(d["content"].(string)) > 50000 {
		t.Errorf("oversize page: status %v truncated %v len %d", d["status"], d["truncated"], len(d["content"].(string)))
	}
}

// A server bound beyond loopback refuses loopback and private targets
// unless --fetch-allow names them; open-external is loopback-only.
func TestFetchPolicyOnAnExposedServer(t *testing.T) {
	web, hits := fixture(t)
	token := "content-test-token-0123456789"
	s := start(t, pmxcanvas.Options{Host: "0.0.0.0", Token: token})
	s.base = strings.Replace(s.base, "0.0.0.0", "127.0.0.1", 1)
	s.base = strings.Replace(s.base, "[::]", "127.0.0.1", 1)
	out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + "/article"})
	msg, _ := out["error"].(string)
	if !strings.Contains(msg, "127.0.0.1") || !strings.Contains(msg, "--fetch-allow") || hits.Load() != 0 {
		t.Errorf("blocked fetch: %v (hits %d)", out, hits.Load())
	}
	e := s.fails(403, "--fetch-allow", "POST", "/api/canvas/node/"+nodeID(t, out)+"/refresh", nil)
	if e["code"] != "fetch-blocked" {
		t.Errorf("code = %v", e["code"])
	}
	e = s.fails(403, "bound beyond loopback", "POST", "/api/canvas/open-external", map[string]any{"nodeId": nodeID(t, out)})
	if e["code"] != "loopback-only" {
		t.Errorf("open-external code = %v", e["code"])
	}

	allowed := start(t, pmxcanvas.Options{Host: "0.0.0.0", Token: token, FetchAllow: []string{"127.0.0.0/8"}})
	allowed.base = strings.Replace(strings.Replace(allowed.base, "0.0.0.0", "127.0.0.1", 1), "[::]", "127.0.0.1", 1)
	out = allowed.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": web.URL + "/article"})
	if f, _ := out["fetch"].(map[string]any); f["ok"] != true {
		t.Errorf("--fetch-allow 127.0.0.0/8 did not allow the fixture: %v", out)
	}
}

func TestOpenExternalOnLoopback(t *testing.T) {
	t.Setenv("PMX_CANVAS_DISABLE_BROWSER_OPEN", "1")
	s := start(t, pmxcanvas.Options{})
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
	out := s.ok("POST", "/api/canvas/open-external", map[string]any{"nodeId": id, "url": "/api/canvas/surface/" + id + "?theme=light"})
	if out["ok"] != true || out["opened"] != false || out["url"] != "/api/canvas/surface/"+id+"?theme=light" {
		t.Errorf("open-external: %v", out)
	}
	s.fails(400, "url must target the requested node surface.", "POST", "/api/canvas/open-external",
		map[string]any{"nodeId": id, "url": "https://evil.example/"})
	s.fails(404, "not found", "POST", "/api/canvas/open-external", map[string]any{"nodeId": "nope"})
}

const sampleDiff = `diff --git a/src/app.go b/src/app.go
index 1111111..2222222 100644
--- a/src/app.go
+++ b/src/app.go
@@ -1,3 +1,4 @@
 package app
-func Old() {}
+func New() {}
+func Extra() {}
 // end
`

func TestDiffNodes(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	out := s.ok("POST", "/api/canvas/node", map[string]any{"type": "diff", "content": sampleDiff})
	id := nodeID(t, out)
	d := s.node(id)
	diff, _ := d["diff"].(map[string]any)
	stats, _ := diff["stats"].(map[string]any)
	files, _ := diff["files"].([]any)
	if stats["additions"] != 2.0 || stats["deletions"] != 1.0 || len(files) != 1 || d["title"] != "Diff: src/app.go" {
		t.Fatalf("diff node: %v", d)
	}
	hunk := files[0].(map[string]any)["hunks"].([]any)[0].(map[string]any)
	if lines := hunk["lines"].([]any); len(lines) != 5 || lines[1].(map[string]any)["kind"] != "remove" {
		t.Errorf("hunk lines: %v", hunk["lines"])
	}
	if sum, _ := d["summary"].(string); !strings.Contains(sum, "src/app.go") {
		t.Errorf("summary = %q", sum)
	}
	res := s.ok("GET", "/api/canvas/search?q=Extra", nil)
	if rs, _ := res["results"].([]any); len(rs) != 1 || rs[0].(map[string]any)["id"] != id {
		t.Errorf("search for a diff line: %v", res)
	}
	s.fails(400, "Invalid diff node", "POST", "/api/canvas/node", map[string]any{"type": "diff", "content": "not a diff"})
	s.fails(400, "Diff nodes require a unified diff", "POST", "/api/canvas/node", map[string]any{"type": "diff"})

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", s.ws, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, b)
		}
	}
	git("init", "-q")
	s.write("lib.txt", "one\ntwo\n")
	git("add", "lib.txt")
	git("commit", "-q", "-m", "c1")
	if err := os.WriteFile(filepath.Join(s.ws, "lib.txt"), []byte("one\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := s.node(nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "diff", "gitDiff": []string{"lib.txt"}})))
	if c, _ := g["content"].(string); !strings.Contains(c, "+three") || !strings.Contains(c, "-two") {
		t.Errorf("git diff node content: %q", c)
	}
	s.fails(400, "is outside the workspace", "POST", "/api/canvas/node", map[string]any{"type": "diff", "gitDiff": []string{"../x"}})
	s.fails(400, "not a revision", "POST", "/api/canvas/node", map[string]any{"type": "diff", "gitDiff": true, "gitBase": "--output=/tmp/x"})
}

func TestCodeGraph(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	s.write("src/main.ts", "import { util } from './util'\nimport React from 'react'\nconsole.log(util)\n")
	s.write("src/util.ts", "export const util = 1\n")
	s.write("tools/gen.py", "import os\n")
	mainID := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "src/main.ts"}))
	utilID := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "src/util.ts"}))
	pyID := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "file", "content": "tools/gen.py"}))
	edgeID := "codegraph-" + mainID + "-" + utilID
	hasEdge := func() bool {
		st := s.ok("GET", "/api/canvas/state", nil)
		for _, e := range st["edges"].([]any) {
			if e.(map[string]any)["id"] == edgeID {
				return true
			}
		}
		return false
	}
	eventually(t, "the import edge", hasEdge)
	g := s.ok("GET", "/api/canvas/code-graph", nil)
	if g["totalFileNodes"] != 3.0 || g["totalAutoEdges"] != 1.0 {
		t.Errorf("code graph: %v", g)
	}
	central, _ := g["centralFiles"].([]any)
	isolated, _ := g["isolatedFiles"].([]any)
	if len(central) != 1 || central[0].(map[string]any)["id"] != utilID || len(isolated) != 1 || isolated[0].(map[string]any)["id"] != pyID {
		t.Errorf("central %v isolated %v", central, isolated)
	}
	hist := historyLen(s)
	// Editing the importer on disk drops the import: the edge goes too.
	s.write("src/main.ts", "console.log('no imports')\n")
	eventually(t, "the import edge removed", func() bool { return !hasEdge() })
	if h := historyLen(s); h != hist {
		t.Errorf("history grew from %d to %d with automatic edges", hist, h)
	}
}
