package messages

// workbenchOps are the workbench's intents (trace controls and the generic
// intents agents read), the trace manager's feed, and the prompt threads:
// a human asks on the canvas, an agent answers through prompt.respond.
var workbenchOps = []*Op{
	{
		Name: "workbench.intent", Owner: OwnerLayout, Kind: Write,
		Summary:  "Send a workbench intent: trace-toggle and trace-clear drive the trace manager; every other type is queued for agents (newest 120).",
		NewInput: input[WorkbenchIntentInput](),
		Output:   output[IntentResult](),
		CLI:      &CLIBinding{Path: "workbench intent", Args: []string{"type"}},
		HTTP:     []Route{{"POST", "/api/workbench/intent"}},
		MCP: []MCPBinding{{Tool: "canvas_workbench_intent",
			Description: "Send a workbench intent. trace-toggle (payload.enabled true or false) turns the trace manager on or off: while on, tool calls on this canvas appear as trace pills. trace-clear removes every trace pill. Other types (focus-primary, refresh-artifact, review-artifact, focus-approval, open-aux, close-aux, mcp-app-focus, mcp-app-close, canvas-prompt) are queued for agents (canvas_list_workbench_intents) and sent as a workbench-intent event."}},
	},
	{
		Name: "workbench.intents", Owner: OwnerLayout, Kind: Read,
		Summary:  "List the queued generic workbench intents, oldest first (the newest 120), and the trace state.",
		NewInput: input[WorkbenchIntentsInput](),
		Output:   output[IntentList](),
		CLI:      &CLIBinding{Path: "workbench intents"},
		HTTP:     []Route{{"GET", "/api/workbench/intents"}},
		MCP: []MCPBinding{{Tool: "canvas_list_workbench_intents",
			Description: "List the generic workbench intents the human sent (oldest first, the newest 120; after: only those after that intent id) and whether the trace is on."}},
	},
	{
		Name: "trace.record", Owner: OwnerLayout, Kind: Write,
		Summary:  "Feed the trace manager one tool start or finish; while the trace is on it becomes a trace pill (ignored while off).",
		NewInput: input[TraceRecordInput](),
		Output:   output[TraceRecordResult](),
		CLI:      &CLIBinding{Path: "trace record", Args: []string{"phase", "name"}},
		HTTP:     []Route{{"POST", "/api/workbench/trace"}},
		MCP: []MCPBinding{{Tool: "canvas_record_trace",
			Description: "Record a tool start (phase start, name, toolCallId) or finish (phase finish, toolCallId, success, resultSummary or error) for the canvas's trace. While the trace is off it is ignored (recorded:false). This server's own MCP tool calls are traced without it; use it for tools the agent runs elsewhere."}},
	},
	{
		Name: "prompt.create", Owner: OwnerLayout, Kind: Write,
		Summary:  "Ask the agent on the canvas: a new prompt thread node, or a reply in a thread (threadNodeId); delivered to agents as steering of kind prompt.",
		NewInput: input[PromptInput](),
		Output:   output[PromptResult](),
		CLI:      &CLIBinding{Path: "prompt", Args: []string{"text..."}},
		HTTP:     []Route{{"POST", "/api/canvas/prompt"}},
		MCP: []MCPBinding{{Tool: "canvas_prompt",
			Description: "Start a prompt thread on the canvas (a prompt node linked to parentNodeId and the context nodes) or add a turn to one (threadNodeId). The prompt reaches agents as a steering message of kind prompt carrying the node id; answer it with canvas_respond_prompt."}},
	},
	{
		Name: "prompt.respond", Owner: OwnerLayout, Kind: Write,
		Summary:  "Answer a prompt thread: append text to the assistant's turn (streaming), done:true completes it.",
		NewInput: input[PromptRespondInput](),
		Output:   output[PromptRespondResult](),
		CLI:      &CLIBinding{Path: "prompt respond", Args: []string{"nodeId", "text..."}},
		HTTP:     []Route{{"POST", "/api/canvas/prompt/:nodeId/response"}},
		MCP: []MCPBinding{{Tool: "canvas_respond_prompt",
			Description: "Answer a prompt thread node (the nodeId of a prompt steering message): text is appended to the assistant's turn of the thread's newest question, shown streaming; done:true marks it answered. One call with the whole answer and done:true is enough."}},
	},
}

// IntentTypes are the workbench intent types the reference accepts.
var IntentTypes = []string{"focus-primary", "refresh-artifact", "review-artifact", "focus-approval", "open-aux", "close-aux",
	"mcp-app-focus", "mcp-app-close", "trace-toggle", "trace-clear", "canvas-prompt"}

// IntentQueueMax is how many generic intents a canvas keeps (the newest).
const IntentQueueMax = 120

// TraceNodesMax caps the trace manager's pills; the oldest is removed.
const TraceNodesMax = 120

// PromptTurnsMax caps a prompt thread's turns.
const PromptTurnsMax = 100

// PromptContextMax caps a prompt's context nodes.
const PromptContextMax = 20

// WorkbenchIntentInput is workbench.intent's input.
type WorkbenchIntentInput struct {
	Type    *string        `json:"type" doc:"Intent type: focus-primary, refresh-artifact, review-artifact, focus-approval, open-aux, close-aux, mcp-app-focus, mcp-app-close, trace-toggle, trace-clear, canvas-prompt." pmx:"required,handler"`
	Payload map[string]any `json:"payload" doc:"Type-specific payload; trace-toggle reads enabled (true turns the trace on, anything else off)."`
}

// WorkbenchIntentsInput is workbench.intents's input.
type WorkbenchIntentsInput struct {
	After string `json:"after" doc:"Only intents queued after the intent with this id (a cursor); unknown or absent: all."`
}

// TraceRecordInput is trace.record's input.
type TraceRecordInput struct {
	Phase            *string `json:"phase" doc:"start or finish." pmx:"required,handler"`
	Name             string  `json:"name" doc:"The tool's name (required to start)."`
	ToolCallID       string  `json:"toolCallId" doc:"Pairs a finish with its start; absent, a finish closes the oldest open call of the same name."`
	MCPServerName    string  `json:"mcpServerName" doc:"The MCP server the tool belongs to (its category is then mcp)."`
	Category         string  `json:"category" doc:"mcp, file, subagent or other; absent, derived from the name and server."`
	Activity         string  `json:"activity" doc:"What the tool is doing, one line."`
	ParentToolCallID string  `json:"parentToolCallId" doc:"A subagent's parent call: the pill goes below the grid under its parent, linked by a spawn edge."`
	Success          *bool   `json:"success" doc:"finish: whether the call succeeded (default true unless error is set)."`
	ResultSummary    string  `json:"resultSummary" doc:"finish: a one-line result."`
	Error            string  `json:"error" doc:"finish: the error text (marks the call failed)."`
}

// PromptPosition is a prompt node's position.
type PromptPosition struct {
	X *float64 `json:"x" doc:"Left edge."`
	Y *float64 `json:"y" doc:"Top edge."`
}

// PromptInput is prompt.create's input.
type PromptInput struct {
	Text           *string         `json:"text" doc:"The question (trimmed; must not be blank)." pmx:"required,handler"`
	ThreadNodeID   string          `json:"threadNodeId" doc:"Reply in this prompt thread instead of starting a new one."`
	Position       *PromptPosition `json:"position" doc:"Where a new prompt node goes; absent, below the board's prompts."`
	ParentNodeID   string          `json:"parentNodeId" doc:"A node the new prompt follows from (flow edge, dashed)."`
	ContextNodeIDs []string        `json:"contextNodeIds" doc:"Nodes the prompt refers to (references edges, at most 20); absent, the context pins."`
}

// PromptRespondInput is prompt.respond's input.
type PromptRespondInput struct {
	NodeID string  `json:"nodeId" doc:"The prompt thread node." pmx:"required"`
	Text   *string `json:"text" doc:"Text appended to the assistant's answer (may be empty with done)."`
	Done   *bool   `json:"done" doc:"true: the answer is complete (the thread is answered)."`
	Error  string  `json:"error" doc:"The agent could not answer: the turn ends with this error."`
}

// Intent is one queued workbench intent.
type Intent struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	Payload   map[string]any `json:"payload"`
	CreatedAt string         `json:"createdAt"`
}

// IntentResult is workbench.intent's reply: intent for a queued type,
// traceEnabled (and removed, note for trace-clear) for the trace types.
type IntentResult struct {
	OK           bool    `json:"ok"`
	Intent       *Intent `json:"intent,omitempty"`
	TraceEnabled *bool   `json:"traceEnabled,omitempty"`
	Removed      *int    `json:"removed,omitempty"`
	Note         string  `json:"note,omitempty"`
	Revision     uint64  `json:"revision,omitempty"`
}

// SetRevision implements the Layout's revision stamp.
func (r *IntentResult) SetRevision(rev uint64) { r.Revision = rev }

// IntentList is workbench.intents's reply.
type IntentList struct {
	OK           bool     `json:"ok"`
	TraceEnabled bool     `json:"traceEnabled"`
	Intents      []Intent `json:"intents"`
}

// TraceRecordResult is trace.record's reply.
type TraceRecordResult struct {
	OK           bool   `json:"ok"`
	Recorded     bool   `json:"recorded"`
	TraceEnabled bool   `json:"traceEnabled"`
	NodeID       string `json:"nodeId,omitempty"`
	Revision     uint64 `json:"revision,omitempty"`
}

// SetRevision implements the Layout's revision stamp.
func (r *TraceRecordResult) SetRevision(rev uint64) { r.Revision = rev }

// PromptResult is prompt.create's reply.
type PromptResult struct {
	OK     bool   `json:"ok"`
	NodeID string `json:"nodeId"`
	// SteeringID is the steering message that carries the prompt to agents.
	SteeringID string `json:"steeringId,omitempty"`
	Revision   uint64 `json:"revision,omitempty"`
}

// SetRevision implements the Layout's revision stamp.
func (r *PromptResult) SetRevision(rev uint64) { r.Revision = rev }

// PromptRespondResult is prompt.respond's reply.
type PromptRespondResult struct {
	OK           bool   `json:"ok"`
	NodeID       string `json:"nodeId"`
	ThreadStatus string `json:"threadStatus"`
	Turns        int    `json:"turns"`
	Revision     uint64 `json:"revision,omitempty"`
}

// SetRevision implements the Layout's revision stamp.
func (r *PromptRespondResult) SetRevision(rev uint64) { r.Revision = rev }
