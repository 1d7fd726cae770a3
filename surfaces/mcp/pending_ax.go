package mcpapi

func init() {
	pendingTools("canvas_get_ax", "canvas_set_ax_focus", "canvas_set_ax_policy", "canvas_report_host_capability",
		"canvas_add_work_item", "canvas_update_work_item", "canvas_add_review_annotation", "canvas_request_approval",
		"canvas_resolve_approval", "canvas_request_elicitation", "canvas_respond_elicitation", "canvas_request_mode",
		"canvas_resolve_mode", "canvas_record_ax_event", "canvas_add_evidence", "canvas_send_steering",
		"canvas_get_ax_timeline", "canvas_claim_ax_delivery", "canvas_mark_ax_delivery", "canvas_invoke_command",
		"canvas_await_approval", "canvas_await_elicitation", "canvas_await_mode", "canvas_ax_state", "canvas_ax_work",
		"canvas_ax_gate", "canvas_ax_timeline", "canvas_ax_delivery", "canvas_ax_interaction", "canvas_ingest_activity")
}
