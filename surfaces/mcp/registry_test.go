package mcpapi_test

import (
	"sort"
	"strings"
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
		for _, b := range op.MCP {
			bound[b.Tool] = true
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

// A catalog operation bound to a composite action becomes that action: the
// selector lists it, the composite advertises its fields, and its tool is
// marked deprecated in favour of the composite.
func TestBoundOperationJoinsItsComposite(t *testing.T) {
	op := *messages.Catalog[0] // any input type will do
	op.Name = "test.bound"
	op.HTTP = nil
	op.MCP = []messages.MCPBinding{{Tool: "canvas_test_bound", Description: "Test.", Composite: "canvas_query", Action: "bound"}}
	saved := messages.Catalog
	messages.Catalog = append(append([]*messages.Op(nil), saved...), &op)
	t.Cleanup(func() { messages.Catalog = saved })

	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := reg.Tool("canvas_query")
	if d := c.Discriminators[0]; d.Values[len(d.Values)-1] != "bound" || !strings.HasSuffix(d.Description, "| bound.") {
		t.Fatalf("selector %+v", d)
	}
	member, ok := reg.Tool("canvas_test_bound")
	if !ok || !strings.HasPrefix(member.Description, `Deprecated: use canvas_query with action "bound".`) {
		t.Fatalf("member %+v", member)
	}
	// A fresh registry without the binding is unchanged (composites are built afresh).
	messages.Catalog = saved
	plain, _ := mcpapi.NewRegistry()
	if c, _ := plain.Tool("canvas_query"); c.Discriminators[0].Values[len(c.Discriminators[0].Values)-1] == "bound" {
		t.Fatal("the binding leaked into the shared definition")
	}
}
