package mcpapi

// Canvas tools: nodes, edges, groups, view, query, history, snapshots,
// batch, pins, search, validation, annotations (reference mcp.md §6, §7.1–7.6).

func init() {
	define(
		&Tool{
			Name:        "canvas_remove_node",
			Description: "Delete a node from the canvas. Its edges are removed too.",
			Fields: []Field{
				{Name: "id", Required: true, Check: Reject, Schema: Obj{{"type", "string"}, {"description", "Node to delete (its edges go too)."}}},
			},
			Op:     "node.remove",
			Format: CompactBody,
		},
	)
}
