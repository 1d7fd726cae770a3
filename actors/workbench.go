package actors

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// workbenchState is a canvas's trace manager and its queue of generic
// workbench intents. Both are in-memory, as in the reference (its SDK's
// singletons): a restarted server starts with the trace off and no
// intents. Only the Layout's goroutine changes trace and intents (inside
// write handlers); traceOn and intentsView are what everyone else reads.
type workbenchState struct {
	trace   canvas.Trace
	intents []messages.Intent
	traceOn atomic.Bool
	// intentsView is the published queue (never changed in place).
	intentsView atomic.Pointer[[]messages.Intent]
}

// TraceArmed reports whether the trace of canvas id is on. It never opens
// a canvas: one that is not loaded has no trace.
func (s *System) TraceArmed(id string) bool {
	if id == "" {
		id = messages.DefaultCanvas
	}
	v, ok := s.canvases.Load(id)
	if !ok {
		return false
	}
	return v.(*canvasRef).workbench.traceOn.Load()
}

const (
	eventTraceState = "trace-state"
	eventIntent     = "workbench-intent"
)

// queueIntent adds a generic intent to the queue (newest IntentQueueMax
// kept), publishes the queue and emits workbench-intent.
func queueIntent(c *call, typ string, payload map[string]any) messages.Intent {
	if payload == nil {
		payload = map[string]any{}
	}
	env := c.tx.Env()
	in := messages.Intent{ID: env.NewID("intent", 6), Type: typ, Payload: payload, CreatedAt: env.Timestamp()}
	wb := &c.ref.workbench
	q := append(slices.Clip(wb.intents), in)
	if len(q) > messages.IntentQueueMax {
		q = slices.Clone(q[len(q)-messages.IntentQueueMax:])
	}
	wb.intents = q
	wb.intentsView.Store(&q)
	c.tx.Emit(canvas.Event{Name: eventIntent, Data: map[string]any{"id": in.ID, "type": in.Type, "payload": in.Payload, "createdAt": in.CreatedAt}})
	return in
}

func setTrace(c *call, t canvas.Trace) {
	c.ref.workbench.trace = t
	c.ref.workbench.traceOn.Store(t.Enabled)
}

func init() {
	writeHandlers["workbench.intent"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.WorkbenchIntentInput)
		typ := ""
		if in.Type != nil {
			typ = strings.TrimSpace(*in.Type)
		}
		if typ == "" {
			return nil, messages.BadRequest("Missing intent type").With("field", "type")
		}
		if !slices.Contains(messages.IntentTypes, typ) {
			return nil, messages.BadRequest("Unsupported intent type").With("field", "type")
		}
		wb := &c.ref.workbench
		switch typ {
		case "trace-toggle":
			on := in.Payload["enabled"] == true
			setTrace(c, canvas.SetTraceEnabled(wb.trace, c.tx.State(), on))
			c.tx.Emit(canvas.Event{Name: eventTraceState, Data: map[string]any{"enabled": on}})
			return &messages.IntentResult{OK: true, TraceEnabled: &on}, nil
		case "trace-clear":
			t, removed := canvas.ClearTrace(c.tx, wb.trace)
			setTrace(c, t)
			on := t.Enabled
			c.tx.Emit(canvas.Event{Name: eventTraceState, Data: map[string]any{"enabled": on}})
			res := &messages.IntentResult{OK: true, Removed: &removed, TraceEnabled: &on}
			if removed == 0 {
				res.Note = "Trace is already empty."
				if on {
					res.Note = "Trace is enabled, but no tool or subagent activity has been recorded yet."
				}
			}
			return res, nil
		}
		intent := queueIntent(c, typ, in.Payload)
		return &messages.IntentResult{OK: true, Intent: &intent}, nil
	}
	readHandlers["workbench.intents"] = func(_ *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		out := []messages.Intent{}
		if q := ref.workbench.intentsView.Load(); q != nil {
			out = *q
		}
		if after := env.Args.(*messages.WorkbenchIntentsInput).After; after != "" {
			if i := slices.IndexFunc(out, func(x messages.Intent) bool { return x.ID == after }); i >= 0 {
				out = out[i+1:]
			}
		}
		return &messages.IntentList{OK: true, TraceEnabled: ref.workbench.traceOn.Load(), Intents: out}, nil
	}
	writeHandlers["trace.record"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.TraceRecordInput)
		wb := &c.ref.workbench
		if !wb.trace.Enabled {
			// Validate anyway: a bad call is refused whatever the state.
			if _, err := canvas.CheckTraceRecord(in); err != nil {
				return nil, err
			}
			return &messages.TraceRecordResult{OK: true}, nil
		}
		t, id, err := canvas.RecordTrace(c.tx, wb.trace, in)
		if err != nil {
			return nil, err
		}
		setTrace(c, t)
		return &messages.TraceRecordResult{OK: true, Recorded: id != "", TraceEnabled: true, NodeID: id}, nil
	}
	writeHandlers["prompt.create"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.PromptInput)
		n, text, err := canvas.CreatePrompt(c.tx, in)
		if err != nil {
			return nil, err
		}
		// No host prompt handler runs inside the server: the prompt is
		// queued as the reference's canvas-prompt intent (and delivered as
		// steering by promptThenSteer).
		payload := map[string]any{"nodeId": n.ID, "text": text}
		if in.ThreadNodeID != "" {
			payload["threadNodeId"] = n.ID
		}
		queueIntent(c, "canvas-prompt", payload)
		return &messages.PromptResult{OK: true, NodeID: n.ID}, nil
	}
	writeHandlers["prompt.respond"] = func(c *call) (any, *messages.Error) {
		n, err := canvas.RespondPrompt(c.tx, c.env.Args.(*messages.PromptRespondInput))
		if err != nil {
			return nil, err
		}
		status, _ := n.Data["threadStatus"].(string)
		return &messages.PromptRespondResult{OK: true, NodeID: n.ID, ThreadStatus: status, Turns: canvas.PromptTurnCount(n)}, nil
	}
	contentHooks["prompt.create"] = promptThenSteer
}

// promptThenSteer creates the prompt node, then delivers the question to
// agents as a steering message of kind "prompt" naming the node: an agent
// claiming ax/delivery/pending (or waiting on it) gets it and answers with
// prompt.respond.
func promptThenSteer(ctx context.Context, s *System, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	reply, err := s.ask(ctx, ref, ref.owner(op.Owner), op, env, before)
	if err != nil {
		return nil, err
	}
	res, ok := reply.Body.(*messages.PromptResult)
	if !ok {
		return reply, nil
	}
	in := env.Args.(*messages.PromptInput)
	text := strings.TrimSpace(*in.Text)
	steer := &messages.AxSteerInput{Message: &text, Kind: "prompt", NodeID: res.NodeID}
	if st, serr := s.step(ctx, ref, "ax.steer", env, steer, nil); serr == nil {
		if b, ok := st.Body.(map[string]any); ok {
			if row, ok := b["steering"].(*ax.Steering); ok {
				res.SteeringID = row.ID
			}
		}
	} else {
		s.cfg.Logger.Warn("prompt: steering delivery failed", "canvas", ref.id, "node", res.NodeID, "err", serr)
	}
	return reply, nil
}

// traceActivity feeds an ingested tool-start or tool-result to the trace.
func (s *System) traceActivity(ctx context.Context, ref *canvasRef, env *messages.Envelope, in *messages.AxActivityInput) {
	if !ref.workbench.traceOn.Load() || in.Kind == nil || in.Title == nil {
		return
	}
	rec := &messages.TraceRecordInput{Name: strings.TrimSpace(*in.Title)}
	if id, ok := in.Data["toolCallId"].(string); ok {
		rec.ToolCallID = id
	}
	if srv, ok := in.Data["mcpServerName"].(string); ok {
		rec.MCPServerName = srv
	}
	if p, ok := in.Data["parentToolCallId"].(string); ok {
		rec.ParentToolCallID = p
	}
	if cat, ok := in.Data["category"].(string); ok {
		rec.Category = cat
	}
	phase := ""
	switch *in.Kind {
	case "tool-start":
		phase = "start"
		if in.Summary != nil {
			rec.Activity = *in.Summary
		}
	case "tool-result":
		phase = "finish"
		failed := in.Outcome != nil && *in.Outcome == "failure"
		ok := !failed
		rec.Success = &ok
		if in.Summary != nil {
			if failed {
				rec.Error = *in.Summary
			} else {
				rec.ResultSummary = *in.Summary
			}
		}
	default:
		return
	}
	rec.Phase = &phase
	if _, err := s.step(ctx, ref, "trace.record", env, rec, nil); err != nil {
		s.cfg.Logger.Debug("trace: activity not recorded", "canvas", ref.id, "err", err)
	}
}
