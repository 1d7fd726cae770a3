package messages

// presenceOps say who is at the canvas: the browser tabs (and other
// clients) following its event stream, and the agents that wrote to it
// lately. The workbench draws them as its presence strip; an agent reads
// them to know whether a human is watching before it asks for a decision.
var presenceOps = []*Op{
	{
		Name: "presence.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Who is at the canvas: event-stream clients (browser tabs, watchers) and recent writers by agent, each with what it last touched.",
		NewInput: input[EmptyInput](),
		Output:   output[Presence](),
		CLI:      &CLIBinding{Path: "presence"},
		HTTP:     []Route{{"GET", "/api/canvas/presence"}},
		MCP: []MCPBinding{{Tool: "canvas_get_presence",
			Description: "Read who is at the canvas: the clients following its event stream (browser tabs with their label, watchers) and the agents that changed it lately, with the node each last touched and when. Use it to know whether a human is watching."}},
	},
}

// PresenceClientsMax caps the clients presence.get lists (the count is
// always whole): a canvas may have thousands of stream subscribers.
const PresenceClientsMax = 100

// PresenceAgentsMax caps the writers presence remembers: the most recent
// ones are kept, so a stream of one-off agent names costs bounded memory.
const PresenceAgentsMax = 32

// Presence is presence.get's reply.
type Presence struct {
	OK     bool   `json:"ok"`
	Canvas string `json:"canvas"`
	// ClientCount is every open subscription; Clients the first
	// PresenceClientsMax of them, oldest first.
	ClientCount int              `json:"clientCount"`
	Clients     []PresenceClient `json:"clients"`
	// Agents are the recent writers, most recent first.
	Agents []PresenceAgent `json:"agents"`
}

// PresenceClient is one open event-stream subscription.
type PresenceClient struct {
	ID uint64 `json:"id"`
	// Client is the label the subscriber gave (?client=), "" if none.
	Client      string `json:"client"`
	ConnectedAt string `json:"connectedAt"`
}

// PresenceAgent is one recent writer (the envelopes' agent, X-PMX-Agent).
type PresenceAgent struct {
	Agent string `json:"agent"`
	// LastNodeID is the node its last change touched ("" when that change
	// touched no node: an edge, the viewport, a pin).
	LastNodeID string `json:"lastNodeId,omitempty"`
	// LastRemoved says the last touch removed that node.
	LastRemoved bool   `json:"lastRemoved,omitempty"`
	LastAt      string `json:"lastAt"`
	// Revision is the canvas revision of its last change; Changes counts
	// its commits since the canvas was loaded.
	Revision uint64 `json:"revision"`
	Changes  int    `json:"changes"`
}
