package content_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

func TestSurfaceDocuments(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	s.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	plain := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html", "title": "Chart", "html": "<p id=x>hi</p>"}))
	code, _, raw, hdr := s.do("GET", "/api/canvas/surface/"+plain+"?theme=light&frameToken=f<1>&axToken=ax-1", nil)
	doc := string(raw)
	if code != 200 || hdr.Get("Content-Security-Policy") != "sandbox allow-scripts" || hdr.Get("Cache-Control") != "no-store" ||
		!strings.Contains(doc, `data-theme="light"`) || !strings.Contains(doc, "<title>Chart</title>") ||
		!strings.Contains(doc, "<p id=x>hi</p>") || !strings.Contains(doc, `"frameToken":"f1"`) || !strings.Contains(doc, `"ax":false`) {
		t.Fatalf("surface: %d %v\n%s", code, hdr, doc)
	}
	// HEAD answers the same headers.
	if code, _, _, hdr := s.do("HEAD", "/api/canvas/surface/"+plain, nil); code != 200 || hdr.Get("Content-Security-Policy") != "sandbox allow-scripts" {
		t.Errorf("HEAD: %d %v", code, hdr)
	}
	// An AX-enabled node gets PMX_AX with the surface snapshot when the
	// parent passes its nonce.
	axNode := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html", "html": "<p>ax</p>",
		"axCapabilities": map[string]any{"enabled": true, "allowed": []string{"ax.work.create"}}}))
	_, _, raw, _ = s.do("GET", "/api/canvas/surface/"+axNode+"?axToken=ax-abc", nil)
	if d := string(raw); !strings.Contains(d, `"ax":true`) || !strings.Contains(d, `"axToken":"ax-abc"`) || !strings.Contains(d, `"state":{`) {
		t.Errorf("AX surface lacks its bridge config:\n%s", d)
	}

	web := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "webpage", "url": "http://127.0.0.1:1/page"}))
	if code, _, _, hdr := s.do("GET", "/api/canvas/surface/"+web, nil); code != 302 || hdr.Get("Location") != "http://127.0.0.1:1/page" {
		t.Errorf("webpage surface: %d %q", code, hdr.Get("Location"))
	}
	md := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "markdown", "content": "x"}))
	s.fails(404, "cannot be opened as a site", "GET", "/api/canvas/surface/"+md, nil)
	s.fails(404, "not found", "GET", "/api/canvas/surface/nope", nil)
	empty := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html"}))
	s.fails(404, "has no content", "GET", "/api/canvas/surface/"+empty, nil)
}

func TestFrameDocuments(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	out := s.ok("POST", "/api/canvas/frame-documents", map[string]any{"html": "<p>frame</p>", "sandbox": "allow-forms allow-scripts"})
	u, _ := out["url"].(string)
	if !strings.HasPrefix(u, "/api/canvas/frame-documents/") {
		t.Fatalf("create: %v", out)
	}
	code, _, raw, hdr := s.do("GET", u, nil)
	if code != 200 || string(raw) != "<p>frame</p>" || hdr.Get("Content-Security-Policy") != "sandbox allow-forms allow-scripts" {
		t.Errorf("get: %d %q %v", code, raw, hdr)
	}
	s.fails(400, "Frame document sandbox contains unsupported tokens.", "POST", "/api/canvas/frame-documents", map[string]any{"html": "<p>", "sandbox": "allow-same-origin"})
	s.fails(400, "Frame document requires non-empty html.", "POST", "/api/canvas/frame-documents", map[string]any{"html": " "})
	s.fails(404, "Frame document not found.", "GET", "/api/canvas/frame-documents/nope", nil)
}

// The semantic sidecar of html nodes follows the html (the reference kept
// a stale agentSummary once one existed).
func TestHTMLSidecar(t *testing.T) {
	s := start(t, pmxcanvas.Options{})
	id := nodeID(t, s.ok("POST", "/api/canvas/node", map[string]any{"type": "html", "summary": "Q3 chart",
		"html": `<h1>Revenue</h1><p>See node-abc-1 and <a href="https://example.com/r">the report</a>.</p><script>x()</script>`}))
	d := s.node(id)
	if d["contentSummary"] != "Revenue See node-abc-1 and the report ." { // tags read as spaces, as in the reference
		t.Errorf("contentSummary = %q", d["contentSummary"])
	}
	if ids, _ := d["embeddedNodeIds"].([]any); len(ids) != 1 || ids[0] != "node-abc-1" {
		t.Errorf("embeddedNodeIds = %v", d["embeddedNodeIds"])
	}
	if urls, _ := d["embeddedUrls"].([]any); len(urls) != 1 || urls[0] != "https://example.com/r" {
		t.Errorf("embeddedUrls = %v", d["embeddedUrls"])
	}
	first, _ := d["agentSummary"].(string)
	if !strings.Contains(first, "Q3 chart") || !strings.Contains(first, "Revenue") {
		t.Errorf("agentSummary = %q", first)
	}
	s.ok("PATCH", "/api/canvas/node/"+id, map[string]any{"html": "<h1>Costs</h1>"})
	if a, _ := s.node(id)["agentSummary"].(string); !strings.Contains(a, "Costs") || strings.Contains(a, "Revenue") {
		t.Errorf("agentSummary after the html changed = %q", a)
	}
	s.ok("PATCH", "/api/canvas/node/"+id, map[string]any{"data": map[string]any{"agentSummary": "Mine"}})
	if a := s.node(id)["agentSummary"]; a != "Mine" {
		t.Errorf("explicit agentSummary = %v", a)
	}
}
