package canvas

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestWireDerivedFields(t *testing.T) {
	big := strings.Repeat("<p>x</p>", 400)
	tests := []struct {
		name                          string
		node                          Node
		kind, title, content, surface string
	}{
		{"markdown", Node{ID: "n1", Type: "markdown", Data: map[string]any{"title": "T", "content": "C"}}, "markdown", "T", "C", ""},
		{"webpage falls back to pageTitle and url", Node{ID: "n2", Type: "webpage", Data: map[string]any{"pageTitle": "P", "url": "https://x"}}, "webpage", "P", "https://x", "/api/canvas/surface/n2"},
		{"file content falls back to path", Node{ID: "n3", Type: "file", Data: map[string]any{"path": "/a/b.go"}}, "file", "", "/a/b.go", ""},
		{"image content falls back to src", Node{ID: "n4", Type: "image", Data: map[string]any{"src": "data:image/png;base64,x"}}, "image", "", "data:image/png;base64,x", ""},
		{"html uses summaries", Node{ID: "n5", Type: "html", Data: map[string]any{"html": "<b>", "contentSummary": "S"}}, "html", "", "S", "/api/canvas/surface/n5"},
		{"html primitive summary", Node{ID: "n6", Type: "html", Data: map[string]any{"htmlPrimitive": "kpi", "description": "D"}}, "html", "", "kpi: D", ""},
		{"mcp-app web-artifact", Node{ID: "n7", Type: "mcp-app", Data: map[string]any{"viewerType": "web-artifact", "path": "/a.html"}}, "web-artifact", "", "", "/api/canvas/surface/n7"},
		{"mcp-app ext-app", Node{ID: "n8", Type: "mcp-app", Data: map[string]any{"mode": "ext-app", "html": big}}, "external-app", "", "", "/api/canvas/surface/n8"},
		{"mcp-app hosted with path", Node{ID: "n9", Type: "mcp-app", Data: map[string]any{"hostMode": "hosted", "path": "p"}}, "web-artifact", "", "", "/api/canvas/surface/n9"},
		{"plain mcp-app", Node{ID: "n10", Type: "mcp-app", Data: map[string]any{}}, "mcp-app", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := Wire(&tc.node, false, ReadOptions{})
			str := func(p *string) string {
				if p == nil {
					return ""
				}
				return *p
			}
			if w.Kind != tc.kind || str(w.Title) != tc.title || str(w.Content) != tc.content || str(w.SurfaceURL) != tc.surface {
				t.Fatalf("kind=%q title=%q content=%q surface=%q", w.Kind, str(w.Title), str(w.Content), str(w.SurfaceURL))
			}
		})
	}
}

func TestBlobSummaryOnlyInDefaultReads(t *testing.T) {
	big := strings.Repeat("x", 3000)
	n := &Node{ID: "a", Type: "mcp-app", Data: map[string]any{"html": big, "toolInput": map[string]any{"a": 1.0}}}
	w := Wire(n, false, ReadOptions{})
	sum, ok := w.Data["html"].(map[string]any)
	if !ok || sum["stored"] != "sidecar" || sum["jsonBytes"] != 3002 || !strings.HasPrefix(sum["path"].(string), "blobs/") {
		t.Fatalf("summary = %v", w.Data["html"])
	}
	if _, small := w.Data["toolInput"].(map[string]any)["a"]; !small {
		t.Fatal("small payloads stay inline")
	}
	if full := Wire(n, false, ReadOptions{IncludeBlobs: true}); full.Data["html"] != big {
		t.Fatal("includeBlobs returns the full payload")
	}
	if n.Data["html"] != big {
		t.Fatal("summarising must not modify the node")
	}
}

func TestLayoutJSONShapes(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	SeedDockedWidgets(tx)
	a := mustAdd(t, tx, `{"type":"markdown","title":"A"}`)
	b := mustAdd(t, tx, `{"type":"markdown","title":"B"}`)
	f := false
	tx.PutEdge(&Edge{ID: "e1", From: a.ID, To: b.ID, Type: "flow", Animated: &f})
	tx.SetPins([]string{a.ID})
	st, _, _ := tx.Commit()

	raw, _ := json.Marshal(st.RawLayout())
	var layout struct {
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
	}
	_ = json.Unmarshal(raw, &layout)
	if len(layout.Nodes) != 4 || layout.Nodes[0]["id"] != "status-main" || layout.Nodes[2]["id"] != a.ID {
		t.Fatalf("layout order: %v", layout.Nodes)
	}
	if _, has := layout.Nodes[2]["kind"]; has {
		t.Error("raw layout nodes carry no derived fields")
	}
	if layout.Nodes[2]["pinned"] != true || layout.Nodes[3]["pinned"] != false {
		t.Error("context pins read as pinned:true")
	}
	if v, ok := layout.Edges[0]["animated"]; !ok || v != false {
		t.Errorf("animated:false must be kept, edge = %v", layout.Edges[0])
	}
	if _, has := layout.Edges[0]["label"]; has {
		t.Error("unset label is omitted")
	}
	wire, _ := json.Marshal(st.WireLayout(ReadOptions{}))
	if !strings.Contains(string(wire), `"kind":"markdown"`) || !strings.Contains(string(wire), `"revision":1`) {
		t.Fatalf("wire layout: %s", wire)
	}
}

func TestTxTracksFirstBeforeAndLastAfter(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"markdown","title":"A"}`)
	base, _, _ := tx.Commit()

	tx = Begin(base, testEnv())
	_, _ = UpdateNode(tx, decode[messages.NodeUpdateInput](t, `{"id":"`+a.ID+`","x":1}`))
	_, _ = UpdateNode(tx, decode[messages.NodeUpdateInput](t, `{"id":"`+a.ID+`","x":2}`))
	next, ch, events := tx.Commit()
	if len(ch.Nodes) != 1 || ch.Nodes[0].Before.Position.X != 40 || ch.Nodes[0].After.Position.X != 2 {
		t.Fatalf("change = %+v", ch.Nodes)
	}
	if len(events) != 1 || next.Revision != base.Revision+1 { // one layout frame per commit
		t.Fatalf("events=%d revision %d→%d", len(events), base.Revision, next.Revision)
	}
	if n, _ := base.Nodes.Get(a.ID); n.Position.X != 40 {
		t.Fatal("base state was modified")
	}
}

// The cached renderer produces exactly what encoding the Layout struct does.
func TestLayoutJSONMatchesLayout(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	SeedDockedWidgets(tx)
	a := mustAdd(t, tx, `{"type":"markdown","title":"A <b>&","content":"x"}`)
	mustAdd(t, tx, `{"type":"mcp-app","data":{"html":"`+strings.Repeat("y", 3000)+`"}}`)
	tx.SetPins([]string{a.ID})
	tx.PutEdge(&Edge{ID: "e", From: a.ID, To: "status-main", Type: "flow"})
	st, _, _ := tx.Commit()
	for _, tc := range []struct {
		name      string
		fast      LayoutJSON
		reference any
	}{
		{"wire", st.WireLayoutJSON(ReadOptions{}), st.WireLayout(ReadOptions{})},
		{"wire with blobs", st.WireLayoutJSON(ReadOptions{IncludeBlobs: true}), st.WireLayout(ReadOptions{IncludeBlobs: true})},
		{"raw", st.RawLayoutJSON(), st.RawLayout()},
	} {
		for round := 0; round < 2; round++ { // second round reads the cache
			got, err := json.Marshal(tc.fast)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(tc.reference)
			if string(got) != string(want) {
				t.Fatalf("%s round %d:\ngot  %s\nwant %s", tc.name, round, got, want)
			}
		}
	}
}
