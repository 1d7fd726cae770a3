package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// dwLayout builds a canvas-layout-update payload. Nodes are
// "id:type:x:y:w:h[:title]" (title defaults to the id).
func dwLayout(nodes []string, edges []string, groups map[string][]string) json.RawMessage {
	type n = map[string]any
	var ns []n
	for _, spec := range nodes {
		p := strings.Split(spec, ":")
		var x, y, w, h float64
		fmt.Sscan(p[2], &x)
		fmt.Sscan(p[3], &y)
		fmt.Sscan(p[4], &w)
		fmt.Sscan(p[5], &h)
		title := p[0]
		if len(p) > 6 {
			title = p[6]
		}
		data := n{"title": title}
		if kids, ok := groups[p[0]]; ok {
			data["children"] = kids
		}
		ns = append(ns, n{"id": p[0], "type": p[1], "position": n{"x": x, "y": y}, "size": n{"width": w, "height": h}, "data": data})
	}
	es := []n{}
	for _, spec := range edges { // "id:from:to:type"
		p := strings.Split(spec, ":")
		es = append(es, n{"id": p[0], "from": p[1], "to": p[2], "type": p[3]})
	}
	b, _ := json.Marshal(n{"layout": n{"nodes": ns, "edges": es}, "sessionId": "pmx-s", "timestamp": "T"})
	return b
}

func dwPins(ids ...string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"count": len(ids), "nodeIds": ids, "sessionId": "pmx-s", "timestamp": "T"})
	return b
}

func dwCompactLines(events []watchEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.compact())
	}
	return out
}

func TestWatchReducerEvents(t *testing.T) {
	a := "a:markdown:100:100:200:100:Alpha"
	b := "b:markdown:2000:2000:200:100:Beta"
	tests := []struct {
		name   string
		before json.RawMessage
		pins   []string
		after  json.RawMessage
		want   []string
	}{
		{"node added", dwLayout([]string{a}, nil, nil), nil,
			dwLayout([]string{a, b}, nil, nil), []string{`add 1 node: "Beta"`}},
		{"two nodes added, sorted by id", dwLayout(nil, nil, nil), nil,
			dwLayout([]string{b, a}, nil, nil), []string{`add 2 nodes: "Alpha", "Beta"`}},
		{"untitled node shows its id", dwLayout(nil, nil, nil), nil,
			dwLayout([]string{"n1:status:0:0:10:10: "}, nil, nil), []string{`add 1 node: "n1"`}},
		{"edge connected", dwLayout([]string{a, b}, nil, nil), nil,
			dwLayout([]string{a, b}, []string{"e1:a:b:flow"}, nil), []string{`connect 1 edge: "Alpha" -> "Beta" (flow)`}},
		{"node removed with its edge", dwLayout([]string{a, b}, []string{"e1:a:b:flow"}, nil), nil,
			dwLayout([]string{a}, nil, nil), []string{`remove 1 node: "Beta" | 1 edge`}},
		{"group created is not an add", dwLayout([]string{a, b}, nil, nil), nil,
			dwLayout([]string{a, b, "g:group:0:0:10:10:G"}, nil, map[string][]string{"g": {"a", "b"}}),
			[]string{`group created: "G" (2 children)`}},
		{"one child", dwLayout([]string{a, b}, nil, nil), nil,
			dwLayout([]string{a, b, "g:group:0:0:10:10:G"}, nil, map[string][]string{"g": {"a"}}),
			[]string{`group created: "G" (1 child)`}},
		{"group updated", dwLayout([]string{a, b, "g:group:0:0:10:10:G"}, nil, map[string][]string{"g": {"a"}}), nil,
			dwLayout([]string{a, b, "g:group:0:0:10:10:G"}, nil, map[string][]string{"g": {"b"}}),
			[]string{`group updated: "G" +1 -1 children`}},
		{"move into a cluster", dwLayout([]string{a, b}, nil, nil), nil,
			dwLayout([]string{a, "b:markdown:350:100:200:100:Beta"}, nil, nil),
			[]string{`move-end: "Beta" joined cluster`}}, // Alpha did not move
		{"two moved nodes", dwLayout([]string{a, b, "c:markdown:5000:5000:10:10:Gamma"}, nil, nil), nil,
			dwLayout([]string{"a:markdown:4800:5000:100:10:Alpha", "b:markdown:5100:5000:10:10:Beta", "c:markdown:5000:5000:10:10:Gamma"}, nil, nil),
			[]string{`move-end: "Alpha" joined cluster, "Beta" joined cluster`}},
		{"a 40px nudge far from everything is quiet", dwLayout([]string{a, b}, nil, nil), nil,
			dwLayout([]string{a, "b:markdown:2040:2000:200:100:Beta"}, nil, nil), nil},
		{"move out of a cluster", dwLayout([]string{a, "b:markdown:350:100:200:100:Beta"}, nil, nil), nil,
			dwLayout([]string{a, b}, nil, nil), []string{`move-end: "Beta" left cluster`}},
		{"move into a pinned neighbourhood", dwLayout([]string{a, b}, nil, nil), []string{"a"},
			dwLayout([]string{a, "b:markdown:600:300:200:100:Beta"}, nil, nil),
			[]string{`move-end: "Beta" entered pinned neighborhood of "Alpha"`}},
		{"moved pin", dwLayout([]string{a, "b:markdown:600:300:200:100:Beta"}, nil, nil), []string{"a"},
			dwLayout([]string{"a:markdown:3000:3000:200:100:Alpha", "b:markdown:600:300:200:100:Beta"}, nil, nil),
			[]string{`move-end: "Alpha" pinned neighborhood changed`}},
		{"nothing changed", dwLayout([]string{a, b}, nil, nil), nil, dwLayout([]string{a, b}, nil, nil), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newWatchReducer()
			r.baseline("canvas-layout-update", tc.before)
			r.baseline("context-pins-changed", dwPins(tc.pins...))
			got := dwCompactLines(r.handle("canvas-layout-update", tc.after))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestWatchReducerOrderAndJSON(t *testing.T) {
	r := newWatchReducer()
	r.baseline("canvas-layout-update", dwLayout([]string{"a:markdown:0:0:100:100", "b:markdown:3000:0:100:100"}, []string{"e0:a:b:flow"}, nil))
	r.baseline("context-pins-changed", dwPins())
	// One frame with an add, a connect, a remove and a group: emitted in
	// the documented order.
	ev := r.handle("canvas-layout-update", dwLayout(
		[]string{"a:markdown:0:0:100:100", "c:markdown:6000:0:100:100", "g:group:0:0:10:10"},
		[]string{"e1:a:c:depends-on"}, map[string][]string{"g": {"a"}}))
	var kinds []string
	for _, e := range ev {
		kinds = append(kinds, e.kind())
	}
	if strings.Join(kinds, ",") != "add,connect,remove,group" {
		t.Fatalf("kinds %v", kinds)
	}
	b, _ := json.Marshal(ev[2])
	want := `{"type":"remove","timestamp":"T","sessionId":"pmx-s","nodes":[{"id":"b","title":"b","nodeType":"markdown"}],"edges":[{"id":"e0","edgeType":"flow","fromId":"a","toId":"b","fromTitle":"a","toTitle":"b"}]}`
	if string(b) != want {
		t.Fatalf("remove JSON\n got %s\nwant %s", b, want)
	}
}

func TestWatchReducerPins(t *testing.T) {
	r := newWatchReducer()
	// Pins before any layout only seed the set.
	if ev := r.handle("context-pins-changed", dwPins("a")); ev != nil {
		t.Fatalf("pins before a layout: %v", dwCompactLines(ev))
	}
	r.baseline("canvas-layout-update", dwLayout([]string{"a:markdown:0:0:10:10:Alpha", "b:markdown:0:0:10:10:Beta"}, nil, nil))
	ev := r.handle("context-pins-changed", dwPins("b", "gone"))
	want := `context-pin +2: "Beta", "gone" | removed: "Alpha"`
	if got := dwCompactLines(ev); len(got) != 1 || got[0] != want {
		t.Fatalf("got %q want %q", got, want)
	}
	b, _ := json.Marshal(ev[0])
	if !strings.Contains(string(b), `{"id":"gone","title":null,"nodeType":"markdown"}`) {
		t.Fatalf("unknown id summary: %s", b)
	}
	if ev := r.handle("context-pins-changed", dwPins("gone", "b")); ev != nil {
		t.Fatalf("same pins again: %v", dwCompactLines(ev))
	}
	// Frames the reducer does not read make nothing.
	if ev := r.handle("ping", json.RawMessage(`{"ts":1}`)); ev != nil {
		t.Fatal("ping made events")
	}
	if ev := r.handle("canvas-layout-update", json.RawMessage(`not json`)); ev != nil {
		t.Fatal("garbage made events")
	}
}

func TestWatchReadSSE(t *testing.T) {
	stream := ": comment\n" +
		"id: 7\nevent: connected\ndata: {\"a\":1}\n\n" +
		"event: multi\r\ndata: line1\r\ndata: line2\r\n\r\n" + // CRLF, id carries over
		"id: 8\nevent: empty\n\n" + // no data: skipped
		"data:{\"b\":2}\n\n" + // default event name, no space after the colon
		"id: 9\nevent: cut\ndata: {\"partial\":"
	var got []string
	err := readSSE(strings.NewReader(stream), nil, func(f sseFrame) error {
		got = append(got, f.id+"|"+f.event+"|"+string(f.data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`7|connected|{"a":1}`, "7|multi|line1\nline2", `8|message|{"b":2}`}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
