package canvas

import (
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// External MCP Apps on the board: an mcp-app node in ext-app mode shows
// the ui:// app an external server's tool returned, and records the
// session that serves it (appSessionId, sessionStatus) and what the app
// said (toolResult, appModelContext, appCheckpoint).

// Session states of an ext-app node.
const (
	SessionReady       = "ready"
	SessionRehydrating = "rehydrating"
	SessionError       = "error"
)

// ExtAppNode is what mcpapp.open and diagram.open show.
type ExtAppNode struct {
	NodeID       string // update this node in place; "" picks or creates one
	ToolCallID   string
	Title        string
	HTML         string
	ToolInput    map[string]any
	ServerName   string
	ToolName     string
	SessionID    string
	Transport    map[string]any // the transport config, for re-opening
	ResourceURI  string
	ToolDef      any
	ResourceMeta any
	ToolResult   any
	// AdjustResult, when set, changes ToolResult (a map) once the node's
	// id is known (the diagram preset's checkpoint id names the node).
	AdjustResult func(nodeID string, result map[string]any)
	X, Y, W, H   *float64
}

// extAppSize is the frame of a new ext-app node.
var extAppSize = Size{Width: 720, Height: 500}

// IsExtApp reports whether n is an external-app node.
func IsExtApp(n *Node) bool {
	return n != nil && n.Type == "mcp-app" && dataString(n, "mode") == "ext-app"
}

// ExtAppTarget checks that id names an ext-app node (mcpapp.open's
// nodeId): 404 when it does not exist, 400 when it is another kind.
func ExtAppTarget(s *State, id string) (*Node, *messages.Error) {
	n, ok := s.Nodes.Get(id)
	if !ok {
		return nil, NodeNotFound(id).With("field", "nodeId")
	}
	if !IsExtApp(n) {
		return nil, messages.BadRequest("Node %q is not an external app node.", id).With("field", "nodeId")
	}
	return n, nil
}

// PlaceExtApp shows an opened app: in a.NodeID when given, else in a
// pending node of the same server and tool (one without a toolResult),
// else in a new node ext-app-<toolCallId> (720×500, auto-placed unless
// x and y are given). created says which.
func PlaceExtApp(tx *Tx, a ExtAppNode) (n *Node, created bool, err *messages.Error) {
	var old *Node
	if a.NodeID != "" {
		if old, err = ExtAppTarget(tx.State(), a.NodeID); err != nil {
			return nil, false, err
		}
	} else {
		for _, c := range tx.State().Nodes.All() {
			if IsExtApp(c) && dataString(c, "serverName") == a.ServerName && dataString(c, "toolName") == a.ToolName && c.Data["toolResult"] == nil {
				old = c
				break
			}
		}
	}
	if old != nil {
		n = old.Clone()
	} else {
		n = &Node{Type: "mcp-app", Size: extAppSize, ZIndex: 1, Data: map[string]any{}}
		n.ID = "ext-app-" + a.ToolCallID
		if _, taken := tx.Node(n.ID); taken {
			n.ID = tx.NewNodeID("ext-app")
		}
		created = true
	}
	if a.W != nil {
		n.Size.Width = *a.W
	}
	if a.H != nil {
		n.Size.Height = *a.H
	}
	if a.X != nil && a.Y != nil {
		n.Position = Point{X: *a.X, Y: *a.Y}
	} else if created {
		n.Position = FindOpenPosition(&tx.State().Nodes, n.Size.Width, n.Size.Height)
	}
	if m, ok := a.ToolResult.(map[string]any); ok && m != nil && a.AdjustResult != nil {
		a.AdjustResult(n.ID, m)
	}
	for k, v := range map[string]any{
		"mode": "ext-app", "toolCallId": a.ToolCallID, "nodeId": n.ID, "title": a.Title, "html": a.HTML,
		"toolInput": a.ToolInput, "serverName": a.ServerName, "toolName": a.ToolName, "appSessionId": a.SessionID,
		"transportConfig": a.Transport, "resourceUri": a.ResourceURI, "toolDefinition": a.ToolDef,
		"sessionStatus": SessionReady, "sessionError": nil, "hostMode": "hosted", "trustedDomain": true,
		"toolResult": a.ToolResult,
	} {
		n.Data[k] = v
	}
	if a.ResourceMeta != nil {
		n.Data["resourceMeta"] = a.ResourceMeta
	} else {
		delete(n.Data, "resourceMeta")
	}
	tx.PutNode(n)
	if created {
		tx.Describe("addNode", `Added app "`+titleOrID(n)+`"`)
	} else {
		tx.Describe("updateNode", `Reopened app "`+titleOrID(n)+`"`)
	}
	tx.EmitLayout()
	return n, created, nil
}

// ExtAppSession is a session-state change of an ext-app node: a new
// session (rehydrated), or its loss. Runtime state: no history entry.
type ExtAppSession struct {
	NodeID    string
	SessionID string // the new session; "" keeps the node's
	Status    string
	Error     string
	HTML      string // a re-read app document; "" keeps the node's
	// OnlySession applies the change only while the node still records
	// this session (a late notice about a replaced session is ignored).
	OnlySession string
}

// SetExtAppSession applies a session-state change; it reports whether the
// node was changed (gone, not an ext-app or another session: false).
func SetExtAppSession(tx *Tx, s ExtAppSession) bool {
	old, ok := tx.Node(s.NodeID)
	if !ok || !IsExtApp(old) || (s.OnlySession != "" && dataString(old, "appSessionId") != s.OnlySession) {
		return false
	}
	n := old.Clone()
	n.Data["sessionStatus"] = s.Status
	if s.Error != "" {
		n.Data["sessionError"] = s.Error
	} else {
		n.Data["sessionError"] = nil
	}
	if s.SessionID != "" {
		n.Data["appSessionId"] = s.SessionID
	}
	if s.HTML != "" {
		n.Data["html"] = s.HTML
	}
	tx.PutNode(n)
	tx.EmitLayout()
	return true
}

// AppResult is an app's tool call to record on its node.
type AppResult struct {
	NodeID, SessionID, ToolName string
	Result                      map[string]any
	// Checkpoint and ToolInput, when set, are a saved diagram checkpoint
	// (appCheckpoint) and the tool input that restores it.
	Checkpoint, ToolInput map[string]any
}

// RecordAppResult records an app's tool call on its node: a call of the
// node's own tool is its toolResult; any other (an app-only tool) is what
// the app tells the model, appModelContext. Runtime state: no history.
func RecordAppResult(tx *Tx, r AppResult) bool {
	old, ok := tx.Node(r.NodeID)
	if !ok || !IsExtApp(old) || dataString(old, "appSessionId") != r.SessionID {
		return false
	}
	n := old.Clone()
	toolName, result := r.ToolName, r.Result
	if r.Checkpoint != nil {
		n.Data["appCheckpoint"] = r.Checkpoint
	}
	if r.ToolInput != nil {
		n.Data["toolInput"] = r.ToolInput
	}
	if toolName == dataString(old, "toolName") {
		n.Data["toolResult"] = result
	} else {
		ctx := map[string]any{"updatedAt": tx.Env().Timestamp()}
		if c, ok := result["content"]; ok {
			ctx["content"] = c
		}
		if sc, ok := result["structuredContent"]; ok {
			ctx["structuredContent"] = sc
		}
		n.Data["appModelContext"] = ctx
	}
	tx.PutNode(n)
	tx.EmitLayout()
	return true
}

// SetModelContext sets a node's appModelContext (any node type, as the
// reference). Runtime state: no history entry.
func SetModelContext(tx *Tx, id string, content []any, structured map[string]any) (*Node, *messages.Error) {
	old, ok := tx.Node(id)
	if !ok {
		return nil, NodeNotFound(id).With("field", "nodeId")
	}
	n := old.Clone()
	ctx := map[string]any{"updatedAt": tx.Env().Timestamp()}
	if content != nil {
		ctx["content"] = content
	}
	if structured != nil {
		ctx["structuredContent"] = structured
	}
	n.Data["appModelContext"] = ctx
	tx.PutNode(n)
	tx.EmitLayout()
	return n, nil
}
