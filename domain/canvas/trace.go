package canvas

import (
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Trace is a canvas's trace manager (domain.md §2.5): while Enabled, each
// tool call becomes a trace pill on a grid below the board, consecutive
// pills linked by flow edges that are animated while the call runs. It is
// in-memory state of the Layout (the reference's SDK singleton): a server
// restart starts with the trace off. A Trace value is never changed in
// place; the functions return the next one.
type Trace struct {
	Enabled bool
	// OriginX, OriginY are the grid's top left, computed once per enable.
	OriginX, OriginY float64
	// Next is the grid index of the next pill.
	Next int
	// Pills are the manager's pill ids, oldest first (at most
	// messages.TraceNodesMax).
	Pills []string
	// Open maps an open call's key (its toolCallId, or "name:"+tool name)
	// to its pill; Last is the newest pill (the next pill's flow source).
	Open map[string]string
	Last string
}

// Trace pill geometry (domain.md §2.5).
const (
	tracePillW, tracePillH = 200, 56
	traceCols              = 6
	traceStepX, traceStepY = 224, 136
)

// TraceCategory is the pill's category: mcp for an MCP server's tool, file
// for a name that reads or writes files, else other.
func TraceCategory(name, server string) string {
	if server != "" {
		return "mcp"
	}
	l := strings.ToLower(name)
	for _, w := range []string{"read", "write", "edit", "glob", "grep", "bash"} {
		if strings.Contains(l, w) {
			return "file"
		}
	}
	return "other"
}

// TraceDuration renders a call's duration as the reference does: "<n>ms"
// below a second, else "<n.n>s".
func TraceDuration(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%dms", ms)
	}
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}

// SetTraceEnabled turns the trace on or off. Turning it on places the grid
// below every non-trace node (40, bottom + 80), starts a new chain, and
// counts the trace nodes already on the board toward the cap (oldest
// first), so the board never holds more than TraceNodesMax of them
// because of the trace.
func SetTraceEnabled(t Trace, s *State, on bool) Trace {
	next := t
	next.Enabled = on
	if on && !t.Enabled {
		bottom := 0.0
		var pills []string
		s.Nodes.Each(func(n *Node) bool {
			if n.Type == "trace" {
				pills = append(pills, n.ID)
			} else if n.DockPosition == "" {
				bottom = max(bottom, n.Position.Y+n.Size.Height)
			}
			return true
		})
		next.OriginX, next.OriginY = 40, bottom+80
		next.Next, next.Last, next.Open, next.Pills = 0, "", nil, pills
	}
	return next
}

// ClearTrace removes every trace node of the canvas and returns how many
// it removed and the trace's next state.
func ClearTrace(tx *Tx, t Trace) (Trace, int) {
	var ids []string
	tx.State().Nodes.Each(func(n *Node) bool {
		if n.Type == "trace" {
			ids = append(ids, n.ID)
		}
		return true
	})
	for _, id := range ids {
		_ = RemoveNode(tx, id)
	}
	if len(ids) > 0 {
		tx.Describe("traceClear", fmt.Sprintf("Cleared trace (%d nodes)", len(ids)))
	}
	next := t
	next.Pills, next.Open, next.Last, next.Next = nil, nil, "", 0
	return next, len(ids)
}

// RecordTrace applies one tool start or finish to the trace (which must be
// enabled). It returns the trace's next state and the pill it touched ("":
// a finish without an open call).
func RecordTrace(tx *Tx, t Trace, in *messages.TraceRecordInput) (Trace, string, *messages.Error) {
	phase, err := CheckTraceRecord(in)
	if err != nil {
		return t, "", err
	}
	if phase == "start" {
		return traceStart(tx, t, in)
	}
	return traceFinish(tx, t, in)
}

// CheckTraceRecord validates a trace step and returns its phase: a call is
// refused for bad input whether the trace is on or not.
func CheckTraceRecord(in *messages.TraceRecordInput) (string, *messages.Error) {
	phase := ""
	if in.Phase != nil {
		phase = strings.TrimSpace(*in.Phase)
	}
	switch phase {
	case "start":
		if strings.TrimSpace(in.Name) == "" {
			return "", messages.BadRequest("name is required to start a trace step.").With("field", "name")
		}
		return phase, nil
	case "finish":
		return phase, nil
	case "":
		return "", messages.BadRequest("phase is required: start or finish.").With("field", "phase")
	}
	return "", messages.BadRequest("phase must be start or finish.").With("field", "phase")
}

func callKey(id, name string) string {
	if id != "" {
		return "id:" + id
	}
	return "name:" + name
}

func traceStart(tx *Tx, t Trace, in *messages.TraceRecordInput) (Trace, string, *messages.Error) {
	next := t
	next.Open = make(map[string]string, len(t.Open)+1)
	for k, v := range t.Open {
		next.Open[k] = v
	}
	next.Pills = append([]string(nil), t.Pills...)
	// The cap: the oldest pills go first.
	for len(next.Pills) >= messages.TraceNodesMax {
		old := next.Pills[0]
		next.Pills = next.Pills[1:]
		if _, ok := tx.Node(old); ok {
			_ = RemoveNode(tx, old)
		}
		for k, v := range next.Open {
			if v == old {
				delete(next.Open, k)
			}
		}
	}
	category := strings.TrimSpace(in.Category)
	if category == "" {
		category = TraceCategory(in.Name, in.MCPServerName)
	}
	data := map[string]any{"toolName": in.Name, "title": in.Name, "category": category, "status": "running",
		"startedAt": tx.Env().Now().UnixMilli(), "traceManaged": true}
	if in.Activity != "" {
		data["activity"] = in.Activity
	}
	if in.ToolCallID != "" {
		data["toolCallId"] = in.ToolCallID
	}
	n := &Node{Type: "trace", Size: Size{Width: tracePillW, Height: tracePillH}, Pinned: true, Data: data}
	var parent *Node
	if in.ParentToolCallID != "" {
		if id := t.Open[callKey(in.ParentToolCallID, "")]; id != "" {
			parent, _ = tx.Node(id)
		}
	}
	if parent != nil {
		// A subagent goes below the grid, under its parent.
		rows := (t.Next + traceCols - 1) / traceCols
		n.Position = Point{X: parent.Position.X, Y: t.OriginY + float64(rows)*traceStepY}
		if category == "other" && in.Category == "" {
			data["category"] = "subagent"
		}
	} else {
		i := next.Next
		n.Position = Point{X: t.OriginX + float64(i%traceCols)*traceStepX, Y: t.OriginY + float64(i/traceCols)*traceStepY}
		next.Next++
	}
	n.ID = tx.NewNodeID("trace")
	tx.PutNode(n)
	anim := true
	switch {
	case parent != nil:
		tx.PutEdge(&Edge{ID: tx.NewEdgeID(), From: parent.ID, To: n.ID, Type: "flow", Label: "spawn", Animated: &anim})
	case t.Last != "":
		if _, ok := tx.Node(t.Last); ok {
			tx.PutEdge(&Edge{ID: tx.NewEdgeID(), From: t.Last, To: n.ID, Type: "flow", Animated: &anim})
		}
	}
	if parent == nil {
		next.Last = n.ID
	}
	next.Pills = append(next.Pills, n.ID)
	next.Open[callKey(in.ToolCallID, in.Name)] = n.ID
	tx.EmitLayout()
	return next, n.ID, nil
}

func traceFinish(tx *Tx, t Trace, in *messages.TraceRecordInput) (Trace, string, *messages.Error) {
	key := callKey(in.ToolCallID, in.Name)
	id := t.Open[key]
	if id == "" && in.ToolCallID != "" && in.Name != "" {
		id, key = t.Open[callKey("", in.Name)], callKey("", in.Name)
	}
	next := t
	next.Open = make(map[string]string, len(t.Open))
	for k, v := range t.Open {
		if k != key {
			next.Open[k] = v
		}
	}
	n, ok := tx.Node(id)
	if id == "" || !ok {
		return next, "", nil
	}
	c := n.Clone()
	failed := in.Error != "" || (in.Success != nil && !*in.Success)
	c.Data["status"] = "success"
	if failed {
		c.Data["status"] = "failed"
	}
	if in.ResultSummary != "" {
		c.Data["resultSummary"] = in.ResultSummary
	}
	if in.Error != "" {
		c.Data["error"] = in.Error
	}
	if started, ok := jsonnum.Float(n.Data["startedAt"]); ok {
		c.Data["duration"] = TraceDuration(max(0, tx.Env().Now().UnixMilli()-int64(started)))
	}
	tx.PutNode(c)
	// The call's incoming edges stop running.
	for _, eid := range tx.State().Edges.Touching(id) {
		if e, ok := tx.State().Edges.Get(eid); ok && e.To == id && e.Animated != nil && *e.Animated {
			ec := *e
			off := false
			ec.Animated = &off
			tx.PutEdge(&ec)
		}
	}
	tx.EmitLayout()
	return next, id, nil
}
