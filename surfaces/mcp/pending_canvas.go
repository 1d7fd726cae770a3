package mcpapi

func init() {
	pendingTools("canvas_add_node", "canvas_get_node", "canvas_update_node", "canvas_get_layout",
		"canvas_add_edge", "canvas_remove_edge", "canvas_arrange", "canvas_focus_node", "canvas_fit_view", "canvas_clear",
		"canvas_create_group", "canvas_group_nodes", "canvas_ungroup", "canvas_pin_nodes", "canvas_search", "canvas_undo",
		"canvas_redo", "canvas_validate", "canvas_remove_annotation", "canvas_list_snapshots", "canvas_snapshot",
		"canvas_gc_snapshots", "canvas_diff", "canvas_restore", "canvas_delete_snapshot", "canvas_batch",
		"canvas_node", "canvas_edge", "canvas_group", "canvas_history", "canvas_view", "canvas_query", "canvas_add_html_node")
}
