package mcpapi_test

import (
	"sort"
	"testing"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// The tool names are frozen (the reference's mcp-tool-freeze test).
func TestToolNamesAreFrozen(t *testing.T) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range reg.Tools(false) {
		names = append(names, tool.Name)
	}
	if len(names) != 83 {
		t.Fatalf("%d tools, want 83", len(names))
	}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			t.Fatalf("duplicate tool %s", sorted[i])
		}
	}
	if n := len(reg.Tools(true)); n != 21 {
		t.Fatalf("compact surface has %d tools, want 21", n)
	}
}

func TestRemoveNodeRunsTheOperation(t *testing.T) {
	h := newHarness(t)
	h.fails("canvas_remove_node", `{"id":"nope"}`, `Node "nope" not found.`)
	h.fails("canvas_remove_node", `{}`, `invalid input for node.remove: field "id" is required`)
	r := h.call("canvas_remove_node", `{"id":"status-main"}`)
	if r.IsError || r.Text != `{"ok":true,"removed":"status-main","revision":2}` {
		t.Fatalf("remove: %+v", r)
	}
}
