package actors

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// layout.get with view "agent" is the HTTP layout with annotations as
// context summaries and the canvas summary, from one state (the MCP layout
// reads); any other view is a 400 naming the field.
func TestLayoutGetAgentView(t *testing.T) {
	h := start(t, "")
	node := h.mustCall("", "node.add", `{"type":"markdown","title":"Plan","x":0,"y":0,"width":100,"height":100}`)
	id := node["id"].(string)
	h.mustCall("", "annotation.add", `{"points":[{"x":10,"y":10},{"x":50,"y":50}],"label":"look"}`)
	h.mustCall("", "pin.set", `{"nodeIds":["`+id+`"]}`)

	reply, err := h.sys.Invoke(t.Context(), &messages.Envelope{Op: "layout.get", Source: "api", Input: json.RawMessage(`{"view":"agent"}`)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(reply.Body)
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	if want := []string{"viewport", "theme", "nodes", "edges", "annotations", "summary", "revision"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	var got struct {
		Nodes       []map[string]any `json:"nodes"`
		Annotations []map[string]any `json:"annotations"`
		Summary     map[string]any   `json:"summary"`
		Revision    float64          `json:"revision"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	plain := h.mustCall("", "layout.get", `{}`)
	if len(got.Nodes) != len(plain["nodes"].([]any)) || got.Revision != plain["revision"].(float64) {
		t.Fatalf("nodes/revision differ from the HTTP layout: %d nodes rev %v", len(got.Nodes), got.Revision)
	}
	if len(got.Annotations) != 1 || got.Annotations[0]["target"] != "Plan" || got.Annotations[0]["points"] != nil {
		t.Fatalf("annotations: %v", got.Annotations)
	}
	if got.Summary["pinnedCount"] != 1.0 || !reflect.DeepEqual(got.Summary["pinnedTitles"], []any{"Plan"}) ||
		!reflect.DeepEqual(got.Summary["annotations"], toGeneric(got.Annotations)) {
		t.Fatalf("summary: %v", got.Summary)
	}

	_, e := h.call("", "layout.get", `{"view":"compact"}`)
	if e == nil || e.Status != 400 || e.Code != messages.CodeInvalidInput || e.Extra["field"] != "view" {
		t.Fatalf("bad view: %+v", e)
	}
}
