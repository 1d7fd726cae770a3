package messages

// The value lists of enumerated fields. Each list is declared once here; the
// domain validates against it, input fields name it in their enum tag, and
// every surface's schema, flag help and docs print it.
var (
	// NodeTypes are the types node.add accepts, in the reference's order.
	NodeTypes = []string{"markdown", "status", "context", "ledger", "trace", "file", "image", "mcp-app", "webpage", "html", "group", "diff", "mermaid"}
	// GraphTypes are graph.add's chart kinds (content/graphspec builds
	// them; a test keeps the two lists equal).
	GraphTypes   = []string{"line", "bar", "pie", "area", "scatter", "radar", "stacked-bar", "composed", "sparkline", "dot-plot", "bullet", "slopegraph"}
	EdgeTypes    = []string{"relation", "depends-on", "flow", "references"}
	EdgeStyles   = []string{"solid", "dashed", "dotted"}
	ChildLayouts = []string{"grid", "column", "flow"}
	// ArrangeLayouts are canvas_arrange's layouts (the same three names).
	ArrangeLayouts = []string{"grid", "column", "flow"}
	DockPositions  = []string{"left", "right"}
	PinModes       = []string{"set", "add", "remove"}

	// AX.
	Sources          = []string{"agent", "api", "browser", "cli", "codex", "copilot", "mcp", "sdk", "system"}
	WorkStatuses     = []string{"todo", "in-progress", "blocked", "done", "cancelled"}
	OpenWorkStatuses = []string{"todo", "in-progress", "blocked"}
	ReviewKinds      = []string{"comment", "finding"}
	Severities       = []string{"info", "warning", "error"}
	ReviewStatuses   = []string{"open", "resolved", "dismissed"}
	AnchorTypes      = []string{"node", "file", "region"}
	Decisions        = []string{"approved", "rejected"}
	Modes            = []string{"plan", "execute", "autonomous"}
	EventKinds       = []string{"prompt", "assistant-message", "tool-start", "tool-result", "failure", "approval", "steering", "command", "note"}
	// InteractionEventKinds are the event kinds a node interaction may
	// record: EventKinds without command and note.
	InteractionEventKinds = []string{"prompt", "assistant-message", "tool-start", "tool-result", "failure", "approval", "steering"}
	EvidenceKinds         = []string{"logs", "tool-result", "screenshot", "file", "diff", "test-output"}
	InteractionTypes      = []string{
		"ax.event.record", "ax.steer", "ax.work.create", "ax.work.update", "ax.evidence.add", "ax.approval.request",
		"ax.approval.resolve", "ax.review.add", "ax.focus.set", "ax.command.invoke", "ax.elicitation.request", "ax.mode.request",
		// Ours: the human's answers, sent by the workbench surface.
		"ax.elicitation.respond", "ax.mode.resolve",
	}
	// InteractionSurfaces are the sourceSurface values in the reference's
	// schema order, then ours: workbench, the human's own page, which
	// speaks for no node and presents the canvas's workbench token.
	InteractionSurfaces = []string{"native-node", "json-render", "html-node", "mcp-app", "adapter", "workbench"}
	// TokenSurfaces are the surfaces ax.surface-token issues a token for
	// without a node.
	TokenSurfaces     = []string{"workbench"}
	Outcomes          = []string{"success", "failure"}
	Themes            = []string{"dark", "light", "high-contrast"}
	AnnotationTypes   = []string{"freehand", "text"}
	ExportFormats     = []string{"jsoncanvas", "svg", "png"}
	ScreenshotFormats = []string{"png", "jpeg", "webp"}
	// WebviewBackends are the engines a webview start names (only chrome
	// runs here; webkit is refused with a message saying so).
	WebviewBackends = []string{"chrome", "webkit"}
	ActivityKinds   = []string{"tool-start", "tool-result", "failure", "error", "session-start", "session-end", "command", "note"}
)

// Enums names each list for the enum struct tag.
var Enums = map[string][]string{
	"aggregates": {"sum", "count", "avg"}, "colorBys": {"series", "category", "value", "none"}, "sortOrders": {"asc", "desc", "none"},
	"specTypes": {"json-render", "graph", "html-primitive"},
	"nodeTypes": NodeTypes, "edgeTypes": EdgeTypes, "edgeStyles": EdgeStyles,
	"childLayouts": ChildLayouts, "arrangeLayouts": ArrangeLayouts, "dockPositions": DockPositions, "pinModes": PinModes,
	"sources": Sources, "workStatuses": WorkStatuses, "openWorkStatuses": OpenWorkStatuses,
	"reviewKinds": ReviewKinds, "severities": Severities, "reviewStatuses": ReviewStatuses,
	"anchorTypes": AnchorTypes, "decisions": Decisions, "modes": Modes, "eventKinds": EventKinds,
	"interactionEventKinds": InteractionEventKinds, "evidenceKinds": EvidenceKinds, "activityKinds": ActivityKinds,
	"interactionTypes": InteractionTypes, "interactionSurfaces": InteractionSurfaces, "tokenSurfaces": TokenSurfaces, "outcomes": Outcomes,
	"webviewBackends": WebviewBackends, "themes": Themes, "annotationTypes": AnnotationTypes,
	"exportFormats": ExportFormats, "screenshotFormats": ScreenshotFormats,
}
