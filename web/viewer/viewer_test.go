package viewer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/web/viewer"
	"github.com/pmxcanvas/pmx-canvas/web/viewer/build"
)

const hostile = "</script><script>alert(1)</script>\u2028\u2029<!-- & >"

// payloadOf returns the JSON assigned to window.__PMX_VIEWER__.
func payloadOf(t *testing.T, doc []byte) []byte {
	t.Helper()
	const start = "<script>window.__PMX_VIEWER__="
	i := bytes.Index(doc, []byte(start))
	if i < 0 {
		t.Fatal("no payload script in the document")
	}
	rest := doc[i+len(start):]
	j := bytes.Index(rest, []byte(";</script>"))
	if j < 0 {
		t.Fatal("payload script not closed")
	}
	return rest[:j]
}

// TestDocumentEscapesPayload puts a spec (as a map and as raw JSON) and a
// mermaid source that try to end the script into documents: the payload
// must hold no <, >, &, U+2028 or U+2029, the document must have exactly
// its own script elements, and the values must decode back unchanged.
func TestDocumentEscapesPayload(t *testing.T) {
	raw, _ := json.Marshal(map[string]any{"root": "t", "elements": map[string]any{
		"t": map[string]any{"type": "Text", "props": map[string]any{"text": hostile}},
	}})
	cases := map[string]viewer.Options{
		"map spec": {Kind: viewer.KindJSONRender, NodeID: "ui-1", Title: hostile, Spec: map[string]any{
			"root": "t", "elements": map[string]any{"t": map[string]any{"type": "Text", "props": map[string]any{"text": hostile}}},
		}},
		"raw spec": {Kind: viewer.KindGraph, NodeID: hostile, Spec: json.RawMessage(raw)},
		"mermaid":  {Kind: viewer.KindMermaid, NodeID: "m-1", Source: "flowchart LR\nA[" + hostile + "] --> B"},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			doc := viewer.Document(o)
			data := payloadOf(t, doc)
			for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
				if bytes.Contains(data, []byte(bad)) {
					t.Errorf("payload contains %q unescaped: %s", bad, data)
				}
			}
			// Outside the bundle (React's code holds a "<script" string),
			// the document has only its two script elements.
			bundle := "viewer.js"
			if o.Kind == viewer.KindMermaid {
				bundle = "viewer-mermaid.js"
			}
			js, err := os.ReadFile(filepath.Join("dist", bundle))
			if err != nil {
				t.Fatal(err)
			}
			rest := bytes.ToLower(bytes.Replace(doc, js, nil, 1))
			if n := bytes.Count(rest, []byte("<script")); n != 2 {
				t.Errorf("document has %d <script tags, want 2 (payload, bundle)", n)
			}
			if n := bytes.Count(rest, []byte("</script")); n != 2 {
				t.Errorf("document has %d </script tags, want 2", n)
			}
			if bytes.Contains(doc, []byte("<title>"+hostile)) {
				t.Error("title not escaped")
			}
			var back struct {
				NodeID string          `json:"nodeId"`
				Spec   json.RawMessage `json:"spec"`
				Source string          `json:"source"`
			}
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatalf("payload is not JSON: %v", err)
			}
			var text string
			switch name {
			case "mermaid":
				text = back.Source
			case "raw spec":
				text = back.NodeID
			default:
				var spec struct {
					Elements map[string]struct {
						Props struct{ Text string } `json:"props"`
					} `json:"elements"`
				}
				if err := json.Unmarshal(back.Spec, &spec); err != nil {
					t.Fatal(err)
				}
				text = spec.Elements["t"].Props.Text
			}
			if !strings.Contains(text, hostile) {
				t.Errorf("value did not survive the escaping: %q", text)
			}
		})
	}
}

// TestDocumentAttributes checks the <html> attributes and that unknown
// themes, displays and kinds fall back to the defaults.
func TestDocumentAttributes(t *testing.T) {
	attrs := regexp.MustCompile(`<html lang="en"( class="dark")? data-theme="([^"]*)" data-display="([^"]*)" data-kind="([^"]*)">`)
	for _, c := range []struct {
		in                           viewer.Options
		dark                         bool
		theme, display, kind, script string
	}{
		{viewer.Options{Kind: "graph", Theme: "light", Display: "expanded"}, false, "light", "expanded", "graph", "viewer.js"},
		{viewer.Options{Kind: "mermaid", Theme: "high-contrast"}, true, "high-contrast", "inline", "mermaid", "viewer-mermaid.js"},
		{viewer.Options{Kind: "nonsense", Theme: "neon", Display: "huge"}, true, "dark", "inline", "json-render", "viewer.js"},
	} {
		doc := viewer.Document(c.in)
		m := attrs.FindSubmatch(doc)
		if m == nil {
			t.Fatalf("%+v: no <html> tag of the expected form in %.200s", c.in, doc)
		}
		if (len(m[1]) > 0) != c.dark || string(m[2]) != c.theme || string(m[3]) != c.display || string(m[4]) != c.kind {
			t.Errorf("%+v: got %s", c.in, m[0])
		}
		script, _ := os.ReadFile(filepath.Join("dist", c.script))
		if !bytes.Contains(doc, script) {
			t.Errorf("%+v: document does not inline dist/%s", c.in, c.script)
		}
		if !bytes.Contains(doc, []byte("<title>"+c.kind+"</title>")) {
			t.Errorf("%+v: default title is not the kind", c.in)
		}
	}
}

// TestDocumentUnencodableSpec: a spec encoding/json cannot encode gives a
// document that says so instead of a broken page.
func TestDocumentUnencodableSpec(t *testing.T) {
	doc := viewer.Document(viewer.Options{Kind: viewer.KindJSONRender, Spec: map[string]any{"c": make(chan int)}})
	var p struct{ Error string }
	if err := json.Unmarshal(payloadOf(t, doc), &p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Error, "cannot be encoded") {
		t.Errorf("error = %q", p.Error)
	}
}

// TestBundlesInlineSafely checks the committed bundles with the build's
// own rule for what can sit inside <script> and <style>.
func TestBundlesInlineSafely(t *testing.T) {
	for _, name := range build.Files {
		data, err := os.ReadFile(filepath.Join("dist", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := build.CheckInline(name, data); err != nil {
			t.Error(err)
		}
	}
}
