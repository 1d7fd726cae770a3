package pmxcanvas

import "github.com/pmxcanvas/pmx-canvas/messages"

// The operations' reply types are declared once, in messages (the
// contract), where every surface and the generated methods use them; they
// are named here too so callers of the shortcuts need not import
// messages. Their json tags are the wire keys of the HTTP API
// (docs/http-api.md), so a value encodes to what the route returns; a JSON
// null reads as the zero value.
type (
	// Point is a canvas coordinate.
	Point = messages.Point
	// Size is a width and height in canvas units.
	Size = messages.Size
	// Bounds is a box on the canvas.
	Bounds = messages.Bounds
	// Viewport is the board's pan and zoom.
	Viewport = messages.Viewport
	// Node is a serialised canvas node.
	Node = messages.Node
	// Edge connects two nodes.
	Edge = messages.Edge
	// Annotation is human ink on the canvas: a freehand stroke or a text
	// label.
	Annotation = messages.Annotation
	// Layout is the whole canvas (GET /api/canvas/state).
	Layout = messages.Layout
	// ContextNode is a node as agent context reads it (pinned, focused).
	ContextNode = messages.ContextNode
	// PinnedContext is the pinned nodes as agent context.
	PinnedContext = messages.PinnedContext
	// Snapshot describes a saved layout.
	Snapshot = messages.Snapshot
	// Pins are the canvas's context pins.
	Pins = messages.Pins
	// SearchHit is one search result.
	SearchHit = messages.SearchHit
	// SearchResults are the hits of a search, best first.
	SearchResults = messages.SearchResults
	// Validation reports layout problems.
	Validation = messages.Validation
	// Collision is two overlapping nodes.
	Collision = messages.Collision
	// Containment is a group member and its group.
	Containment = messages.Containment
	// MissingEdgeEnd is an edge whose end is gone.
	MissingEdgeEnd = messages.MissingEdgeEnd
	// FocusResult says what FocusNode did.
	FocusResult = messages.FocusResult
	// FitResult is the viewport FitView set.
	FitResult = messages.FitResult
	// ArrangeResult says what Arrange did.
	ArrangeResult = messages.ArrangeResult
	// HistoryEntry is one undoable change.
	HistoryEntry = messages.HistoryEntry
	// History is the undo log.
	History = messages.History
	// HistoryStep is the outcome of Undo or Redo.
	HistoryStep = messages.HistoryStep
	// DiffNode names a node in a snapshot diff.
	DiffNode = messages.DiffNode
	// DiffEdge names an edge in a snapshot diff.
	DiffEdge = messages.DiffEdge
	// SnapshotDiff is the current canvas against a snapshot.
	SnapshotDiff = messages.SnapshotDiff
	// SnapshotGC is what GCSnapshots kept and deleted.
	SnapshotGC = messages.SnapshotGC
	// BatchResult holds each operation's result and the assigned ones.
	BatchResult = messages.BatchResult

	// AxFocus is the nodes the agent should look at.
	AxFocus = messages.AxFocus
	// WorkItem is a unit of the agent's work.
	WorkItem = messages.WorkItem
	// ReviewRegion is the part of a file a review is anchored to.
	ReviewRegion = messages.ReviewRegion
	// ReviewAnnotation is a review comment anchored to a node, a file or
	// a region.
	ReviewAnnotation = messages.ReviewAnnotation
	// ApprovalGate is a question the agent waits on until a human
	// approves or rejects it.
	ApprovalGate = messages.ApprovalGate
	// Elicitation asks the human for input.
	Elicitation = messages.Elicitation
	// ModeRequest asks the human to switch the agent's mode.
	ModeRequest = messages.ModeRequest
	// PolicyTools are the tool rules the server enforces for commands and
	// interactions.
	PolicyTools = messages.PolicyTools
	// PolicyPrompt is guidance for the agent's prompt.
	PolicyPrompt = messages.PolicyPrompt
	// Policy is the canvas's AX tool policy.
	Policy = messages.Policy
	// HostCapability is what the agent host reported it can do.
	HostCapability = messages.HostCapability
	// AxEvent is a timeline event.
	AxEvent = messages.AxEvent
	// Evidence is an item of evidence (logs, test output, a diff, ...).
	Evidence = messages.Evidence
	// Steering is a message from the human to the agent.
	Steering = messages.Steering
	// PendingItem is open AX work a consumer should know about.
	PendingItem = messages.PendingItem
	// Command is an allowlisted command.
	Command = messages.Command
	// AxState is the canvas-bound AX state and the host capability.
	AxState = messages.AxState
	// TimelineSummary is the recent part of the timeline.
	TimelineSummary = messages.TimelineSummary
	// AgentContext is everything an agent should know before its next
	// step.
	AgentContext = messages.AgentContext
	// Timeline is the AX timeline, each list newest first.
	Timeline = messages.Timeline
	// Delivery is what a claim returned.
	Delivery = messages.Delivery
	// InteractionResult is an accepted interaction and the record it made.
	InteractionResult = messages.InteractionResult
	// ActivityResult is what ingesting activity recorded; a reaction that
	// did not fire is nil.
	ActivityResult = messages.ActivityResult
	// AxStats are the canvas's runtime AX counters.
	AxStats = messages.AxStats
	// WebviewStatus is the automation webview's status: whether a browser
	// is available and running, and its URL, viewport, start time and
	// last error.
	WebviewStatus = messages.WebviewStatus
)
