package canvas

import "testing"

func TestAnnotationSummary(t *testing.T) {
	tests := []struct {
		name string
		ann  *Annotation
		want string
	}{
		{"freehand", &Annotation{
			ID: "ann-mx2wkcsc-s8hred", Type: "freehand", Points: []Point{{0, 0}, {100, 50}},
			Bounds: Rect{0, 0, 100, 50}, Color: "#ff0000", Width: 24, Label: "circle this",
			CreatedAt: "2026-11-30T06:44:16.956Z",
		}, `{"id":"ann-mx2wkcsc-s8hred","type":"freehand","bounds":{"x":0,"y":0,"width":100,"height":50},"color":"#ff0000","width":24,"pointCount":2,"text":null,"label":"circle this","createdAt":"2026-11-30T06:44:16.956Z"}`},
		{"text", &Annotation{
			ID: "ann-mx2wkcsv-p7krs5", Type: "text", Points: []Point{{10, 10}},
			Bounds: Rect{10, -14, 74.4, 28.799999999999997}, Color: "currentColor", Width: 24, Text: "hello", Label: "hello",
			CreatedAt: "2026-11-30T06:44:16.975Z",
		}, `{"id":"ann-mx2wkcsv-p7krs5","type":"text","bounds":{"x":10,"y":-14,"width":74.4,"height":28.799999999999997},"color":"currentColor","width":24,"pointCount":1,"text":"hello","label":"hello","createdAt":"2026-11-30T06:44:16.975Z"}`},
		{"no label, no points", &Annotation{ID: "a", Type: "freehand", Color: "currentColor", Width: 4},
			`{"id":"a","type":"freehand","bounds":{"x":0,"y":0,"width":0,"height":0},"color":"currentColor","width":4,"pointCount":0,"text":null,"label":null,"createdAt":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonOf(t, AnnotationSummary(tt.ann)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestAnnotationContextOf(t *testing.T) {
	nodes := func() []*Node {
		docked := nd(t, "dock", "status", 60, 60, 10, 10, `{"title":"Status"}`)
		docked.DockPosition = "left"
		return []*Node{
			nd(t, "a", "markdown", 0, 0, 100, 100, `{"title":"A"}`),
			nd(t, "b", "markdown", 100, 0, 50, 50, `{"title":""}`), // touches the ink at its corner
			nd(t, "c", "markdown", 101, 0, 10, 10, `{"title":"C"}`),
			docked,
			nd(t, "far", "markdown", 5000, 5000, 10, 10, `{"title":"Far"}`),
		}
	}
	tests := []struct {
		name string
		ann  *Annotation
		want string
	}{
		{"targets touching or overlapping, docked included, layout order",
			&Annotation{ID: "ann-1", Bounds: Rect{50, 50, 50, 50}, Label: "look"},
			`{"id":"ann-1","label":"look","bounds":{"x":50,"y":50,"width":50,"height":50},"targetNodeIds":["a","b","dock"],"targetNodeTitles":["A","b","Status"],"target":"A, b, Status"}`},
		{"label falls back to text; empty region",
			&Annotation{ID: "ann-2", Bounds: Rect{-500, -500, 10, 10}, Text: "note"},
			`{"id":"ann-2","label":"note","bounds":{"x":-500,"y":-500,"width":10,"height":10},"targetNodeIds":[],"targetNodeTitles":[],"target":"empty canvas region"}`},
		{"no label at all",
			&Annotation{ID: "ann-3", Bounds: Rect{-500, -500, 10, 10}},
			`{"id":"ann-3","label":null,"bounds":{"x":-500,"y":-500,"width":10,"height":10},"targetNodeIds":[],"targetNodeTitles":[],"target":"empty canvas region"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := board{nodes: nodes()}.state(t)
			if got := jsonOf(t, AnnotationContextOf(st, tt.ann)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	t.Run("empty canvas", func(t *testing.T) {
		want := `{"totalNodes":0,"totalEdges":0,"totalAnnotations":0,"annotations":[],"nodesByType":{},"pinnedCount":0,"pinnedTitles":[],"viewport":{"x":0,"y":0,"scale":1}}`
		if got := jsonOf(t, Summary(board{}.state(t))); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("kinds, pins and annotations", func(t *testing.T) {
		status := nd(t, "status-main", "status", 40, 80, 300, 120, `{"phase":"idle"}`)
		status.DockPosition = "left"
		st := board{
			nodes: []*Node{
				status,
				nd(t, "md1", "markdown", 400, 80, 100, 100, `{"title":"Design Doc"}`),
				nd(t, "ext", "mcp-app", 600, 80, 100, 100, `{"mode":"ext-app"}`),
				nd(t, "md2", "markdown", 800, 80, 100, 100, `{}`),
				nd(t, "art", "mcp-app", 1000, 80, 100, 100, `{"viewerType":"web-artifact"}`),
				nd(t, "web", "webpage", 1200, 80, 100, 100, `{"pageTitle":"Page Title"}`),
			},
			edges: []*Edge{{ID: "e1", From: "md1", To: "md2", Type: "flow"}},
			pins:  []string{"web", "md2", "md1"},
			anns:  []*Annotation{{ID: "ann-1", Bounds: Rect{390, 70, 20, 20}, Label: "here"}},
		}.state(t)
		want := `{"totalNodes":6,"totalEdges":1,"totalAnnotations":1,` +
			`"annotations":[{"id":"ann-1","label":"here","bounds":{"x":390,"y":70,"width":20,"height":20},"targetNodeIds":["md1"],"targetNodeTitles":["Design Doc"],"target":"Design Doc"}],` +
			`"nodesByType":{"status":1,"markdown":2,"external-app":1,"web-artifact":1,"webpage":1},` +
			`"pinnedCount":3,"pinnedTitles":["Design Doc","md2","Page Title"],"viewport":{"x":0,"y":0,"scale":1}}`
		if got := jsonOf(t, Summary(st)); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}
