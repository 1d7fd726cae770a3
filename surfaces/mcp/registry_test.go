package mcpapi_test

import (
	"sort"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
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
	// The reference's 83 come first, in its order; any further tool is an
	// operation's MCP binding from the catalog.
	if len(names) < 83 || len(mcpapi.ToolOrder) != 83 {
		t.Fatalf("%d tools (%d frozen), want the 83 first", len(names), len(mcpapi.ToolOrder))
	}
	for i, n := range mcpapi.ToolOrder {
		if names[i] != n {
			t.Fatalf("tool %d is %s, want %s", i, names[i], n)
		}
	}
	bound := map[string]bool{}
	for _, op := range messages.Catalog {
		if op.MCP != nil {
			bound[op.MCP.Tool] = true
		}
	}
	for _, n := range names[83:] {
		if !bound[n] {
			t.Fatalf("tool %s is neither frozen nor bound by a catalog operation", n)
		}
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
