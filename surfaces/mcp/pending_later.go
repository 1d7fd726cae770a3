package mcpapi

func init() {
	pendingTools("canvas_add_json_render_node", "canvas_stream_json_render_node", "canvas_add_graph_node",
		"canvas_describe_schema", "canvas_validate_spec", "canvas_webview_status", "canvas_webview_start",
		"canvas_webview_stop", "canvas_resize", "canvas_evaluate", "canvas_open_mcp_app", "canvas_add_diagram",
		"canvas_build_web_artifact", "canvas_render", "canvas_app", "canvas_webview", "canvas_add_html_primitive",
		"canvas_refresh_webpage_node", "canvas_screenshot")
}
