package mcpapi

import (
	"sort"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// ToolOrder is the frozen tool list in tools/list order (the reference's
// registration order: registry tools, then the 14 composites, then the six
// hand-written tools). TestToolNamesAreFrozen pins it.
var ToolOrder = []string{
	"canvas_add_node",
	"canvas_get_node",
	"canvas_update_node",
	"canvas_remove_node",
	"canvas_get_layout",
	"canvas_add_edge",
	"canvas_remove_edge",
	"canvas_arrange",
	"canvas_focus_node",
	"canvas_fit_view",
	"canvas_clear",
	"canvas_create_group",
	"canvas_group_nodes",
	"canvas_ungroup",
	"canvas_pin_nodes",
	"canvas_search",
	"canvas_undo",
	"canvas_redo",
	"canvas_validate",
	"canvas_remove_annotation",
	"canvas_list_snapshots",
	"canvas_snapshot",
	"canvas_gc_snapshots",
	"canvas_diff",
	"canvas_restore",
	"canvas_delete_snapshot",
	"canvas_add_json_render_node",
	"canvas_stream_json_render_node",
	"canvas_add_graph_node",
	"canvas_describe_schema",
	"canvas_validate_spec",
	"canvas_get_ax",
	"canvas_set_ax_focus",
	"canvas_set_ax_policy",
	"canvas_report_host_capability",
	"canvas_add_work_item",
	"canvas_update_work_item",
	"canvas_add_review_annotation",
	"canvas_request_approval",
	"canvas_resolve_approval",
	"canvas_request_elicitation",
	"canvas_respond_elicitation",
	"canvas_request_mode",
	"canvas_resolve_mode",
	"canvas_record_ax_event",
	"canvas_add_evidence",
	"canvas_send_steering",
	"canvas_get_ax_timeline",
	"canvas_claim_ax_delivery",
	"canvas_mark_ax_delivery",
	"canvas_invoke_command",
	"canvas_await_approval",
	"canvas_await_elicitation",
	"canvas_await_mode",
	"canvas_batch",
	"canvas_webview_status",
	"canvas_webview_start",
	"canvas_webview_stop",
	"canvas_resize",
	"canvas_evaluate",
	"canvas_open_mcp_app",
	"canvas_add_diagram",
	"canvas_build_web_artifact",
	"canvas_node",
	"canvas_render",
	"canvas_edge",
	"canvas_group",
	"canvas_history",
	"canvas_view",
	"canvas_query",
	"canvas_app",
	"canvas_webview",
	"canvas_ax_state",
	"canvas_ax_work",
	"canvas_ax_gate",
	"canvas_ax_timeline",
	"canvas_ax_delivery",
	"canvas_add_html_node",
	"canvas_add_html_primitive",
	"canvas_refresh_webpage_node",
	"canvas_ax_interaction",
	"canvas_ingest_activity",
	"canvas_screenshot",
}

// CompactTools is the --tools=compact surface: the 14 composites,
// canvas_snapshot (which also serves as the snapshot composite) and six
// standalones.
var CompactTools = []string{
	"canvas_node", "canvas_render", "canvas_edge", "canvas_group", "canvas_history", "canvas_view",
	"canvas_query", "canvas_webview", "canvas_app", "canvas_ax_state", "canvas_ax_work", "canvas_ax_gate",
	"canvas_ax_timeline", "canvas_ax_delivery", "canvas_snapshot", "canvas_batch", "canvas_pin_nodes",
	"canvas_screenshot", "canvas_ax_interaction", "canvas_ingest_activity", "canvas_invoke_command",
}

// ListOrder is the full tools/list order: the frozen tools, then the tools
// catalog operations bind after the reference (messages.MCPBinding), by
// name.
func ListOrder() []string {
	frozen := map[string]bool{}
	for _, n := range ToolOrder {
		frozen[n] = true
	}
	var bound []string
	for _, op := range messages.Catalog {
		for _, b := range op.MCP {
			if !frozen[b.Tool] {
				bound = append(bound, b.Tool)
			}
		}
	}
	sort.Strings(bound)
	return append(append([]string(nil), ToolOrder...), bound...)
}
