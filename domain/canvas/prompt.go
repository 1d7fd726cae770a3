package canvas

import (
	"maps"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Prompt threads (domain.md §2.15): a prompt node holds a conversation as
// data.turns ({role: user|assistant, text, status}); the human asks with
// prompt.create, an agent answers with prompt.respond. The node's
// threadStatus is pending (a question is open), streaming (an answer is
// coming), answered or error.

// Prompt event names.
const (
	EventPromptCreated   = "canvas-prompt-created"
	EventPromptStatus    = "canvas-prompt-status"
	EventResponseStart   = "canvas-response-start"
	EventResponseDelta   = "canvas-response-delta"
	EventResponseDone    = "canvas-response-complete"
	promptW, promptH     = 520, 400
	promptTurnUser       = "user"
	promptTurnAssistant  = "assistant"
	promptStatusPending  = "pending"
	promptStatusStream   = "streaming"
	promptStatusAnswered = "answered"
)

func promptTurns(n *Node) []any {
	turns, _ := n.Data["turns"].([]any)
	return turns
}

// CreatePrompt starts a prompt thread or adds a question to one. It
// returns the prompt node and the question's text.
func CreatePrompt(tx *Tx, in *messages.PromptInput) (*Node, string, *messages.Error) {
	text := ""
	if in.Text != nil {
		text = strings.TrimSpace(*in.Text)
	}
	if text == "" {
		return nil, "", messages.BadRequest("Missing prompt text").With("field", "text")
	}
	turn := map[string]any{"role": promptTurnUser, "text": text, "status": promptStatusPending, "createdAt": tx.Env().Timestamp()}
	if id := strings.TrimSpace(in.ThreadNodeID); id != "" {
		n, ok := tx.Node(id)
		if !ok || n.Type != "prompt" {
			return nil, "", messages.NotFound("Prompt thread %q not found.", id).With("field", "threadNodeId")
		}
		turns := promptTurns(n)
		if len(turns) >= messages.PromptTurnsMax {
			return nil, "", messages.BadRequest("Thread has reached the maximum number of turns").With("field", "threadNodeId")
		}
		c := n.Clone()
		c.Data["turns"] = append(append([]any(nil), turns...), turn)
		c.Data["text"] = text
		c.Data["threadStatus"], c.Data["status"] = promptStatusPending, promptStatusPending
		delete(c.Data, "error")
		tx.PutNode(c)
		tx.Describe("promptReply", "Asked in thread: "+clipText(text, 60))
		tx.Emit(Event{Name: EventPromptCreated, Data: map[string]any{"nodeId": id, "threadNodeId": id, "text": text}})
		tx.Emit(Event{Name: EventPromptStatus, Data: map[string]any{"nodeId": id, "status": promptStatusPending}})
		tx.EmitLayout()
		return c, text, nil
	}

	var ctxIDs []string
	if in.ContextNodeIDs != nil {
		ctxIDs = in.ContextNodeIDs
	} else {
		ctxIDs = tx.State().Pins
	}
	seen := map[string]bool{}
	kept := []string{}
	for _, id := range ctxIDs {
		if _, ok := tx.Node(id); ok && !seen[id] && len(kept) < messages.PromptContextMax {
			seen[id] = true
			kept = append(kept, id)
		}
	}
	parent := strings.TrimSpace(in.ParentNodeID)
	if parent != "" {
		if _, ok := tx.Node(parent); !ok {
			return nil, "", NodeNotFound(parent).With("field", "parentNodeId")
		}
	}
	var pos Point
	if in.Position != nil && in.Position.X != nil && in.Position.Y != nil {
		pos = Point{X: *in.Position.X, Y: *in.Position.Y}
	} else {
		count := 0
		tx.State().Nodes.Each(func(n *Node) bool {
			if n.Type == "prompt" || n.Type == "response" {
				count++
			}
			return true
		})
		pos = Point{X: 380 + float64(count)*30, Y: 1260 + float64(count)*30}
	}
	data := map[string]any{"text": text, "turns": []any{turn}, "threadStatus": promptStatusPending, "status": promptStatusPending}
	if parent != "" {
		data["parentNodeId"] = parent
	}
	if len(kept) > 0 {
		data["contextNodeIds"] = toAnyList(kept)
	}
	n := &Node{Type: "prompt", Position: pos, Size: Size{Width: promptW, Height: promptH}, ZIndex: 1, Data: data}
	n.ID = tx.NewNodeID("prompt")
	tx.PutNode(n)
	if parent != "" {
		tx.PutEdge(&Edge{ID: "edge-" + parent + "-" + n.ID, From: parent, To: n.ID, Type: "flow", Style: "dashed"})
	}
	for _, c := range kept {
		tx.PutEdge(&Edge{ID: "edge-ctx-" + c + "-" + n.ID, From: c, To: n.ID, Type: "references", Style: "dashed"})
	}
	tx.Describe("prompt", "Asked: "+clipText(text, 60))
	ev := map[string]any{"nodeId": n.ID, "text": text, "position": map[string]any{"x": pos.X, "y": pos.Y}, "contextNodeIds": toAnyList(kept)}
	if parent != "" {
		ev["parentNodeId"] = parent
	}
	tx.Emit(Event{Name: EventPromptCreated, Data: ev})
	tx.EmitLayout()
	return n, text, nil
}

// RespondPrompt applies one piece of an agent's answer to a thread: the
// first call opens the assistant's turn for the newest question, each call
// appends its text, done completes it and error ends it failed.
func RespondPrompt(tx *Tx, in *messages.PromptRespondInput) (*Node, *messages.Error) {
	n, ok := tx.Node(in.NodeID)
	if !ok {
		return nil, messages.NotFound("Prompt node %q not found.", in.NodeID).With("field", "nodeId")
	}
	if n.Type != "prompt" {
		return nil, messages.BadRequest("Node %q is a %s node, not a prompt thread.", in.NodeID, n.Type).With("field", "nodeId")
	}
	text := ""
	if in.Text != nil {
		text = *in.Text
	}
	done := in.Done != nil && *in.Done
	turns := append([]any(nil), promptTurns(n)...)
	var last map[string]any
	if len(turns) > 0 {
		last, _ = turns[len(turns)-1].(map[string]any)
	}
	c := n.Clone()
	streaming := last != nil && last["role"] == promptTurnAssistant && last["status"] == promptStatusStream
	if !streaming {
		if last == nil || last["role"] != promptTurnUser {
			return nil, messages.BadRequest("Prompt thread %q has no open question to answer.", in.NodeID).With("field", "nodeId")
		}
		q := maps.Clone(last)
		q["status"] = "sent"
		turns[len(turns)-1] = q
		last = map[string]any{"role": promptTurnAssistant, "text": "", "status": promptStatusStream, "createdAt": tx.Env().Timestamp()}
		turns = append(turns, last)
		tx.Emit(Event{Name: EventResponseStart, Data: map[string]any{"nodeId": n.ID, "threadNodeId": n.ID}})
	} else {
		last = maps.Clone(last)
		turns[len(turns)-1] = last
	}
	if text != "" {
		prev, _ := last["text"].(string) // a batch may have stored anything
		last["text"] = prev + text
		tx.Emit(Event{Name: EventResponseDelta, Data: map[string]any{"nodeId": n.ID, "threadNodeId": n.ID, "delta": text}})
	}
	status := promptStatusStream
	switch {
	case strings.TrimSpace(in.Error) != "":
		last["status"], last["error"] = "error", in.Error
		status = "error"
		c.Data["error"] = in.Error
		tx.Emit(Event{Name: EventPromptStatus, Data: map[string]any{"nodeId": n.ID, "status": "error", "error": in.Error}})
	case done:
		last["status"] = "complete"
		status = promptStatusAnswered
		tx.Emit(Event{Name: EventResponseDone, Data: map[string]any{"nodeId": n.ID, "threadNodeId": n.ID, "text": last["text"]}})
	}
	c.Data["turns"] = turns
	c.Data["threadStatus"], c.Data["status"] = status, status
	tx.PutNode(c)
	tx.EmitLayout()
	return c, nil
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// PromptTurnCount is the number of turns of a prompt node.
func PromptTurnCount(n *Node) int { return len(promptTurns(n)) }
