package actors

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// waitMargin is how much longer than its wait a parked call may take
// before the caller gives up on the actor (which answers at the deadline).
const waitMargin = 5 * time.Second

// park runs a parking read in its owner's mailbox: a gate await or a
// delivery claim. The owner answers on a channel; if ctx ends first (the
// client went away) the waiter is cancelled at once.
func (s *System) park(ctx context.Context, ref *canvasRef, op *messages.Op, env *messages.Envelope, wait time.Duration) (*messages.Reply, error) {
	token := s.tokens.Add(1)
	reply := make(chan *invokeResult, 1)
	var pid = ref.gatesPID.Load()
	var msg any
	switch in := env.Args.(type) {
	case *messages.AxAwaitInput:
		kind := map[string]string{"ax.approval.get": gateApproval, "ax.elicitation.get": gateElicitation, "ax.mode.get": gateMode}[op.Name]
		msg = &awaitGate{kind: kind, id: in.ID, wait: wait, token: token, reply: reply}
	case *messages.AxDeliveryPendingInput:
		pid = ref.timelinePID.Load()
		msg = &claimSteering{in: in, wait: wait, lease: in.Lease(), token: token, reply: reply}
	default:
		return nil, messages.Internal("operation %s cannot park", op.Name)
	}
	if pid == nil {
		return nil, messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	// A reload answers the wait even if the owner dropped it unread.
	ref.calls.Store(token, func(e *messages.Error) {
		select {
		case reply <- &invokeResult{err: e}:
		default:
		}
	})
	defer ref.calls.Delete(token)
	loads := ref.loads.Load()
	// Sent as a request from a reply process only to hear of a dead
	// letter: an owner stopped by a reload never reads the wait.
	dead := &replyProcess{ch: make(chan any, 1)}
	self, _ := s.as.ProcessRegistry.Add(dead, "park"+s.as.ProcessRegistry.NextId())
	defer s.as.ProcessRegistry.Remove(self)
	s.as.Root.RequestWithCustomSender(pid, msg, self)
	timer := time.NewTimer(wait + waitMargin)
	defer timer.Stop()
	select {
	case m := <-dead.ch:
		if _, isDead := m.(*actor.DeadLetterResponse); isDead {
			return nil, messages.Unavailable("canvas %q reloaded during the wait; wait again", ref.id)
		}
		return nil, messages.Internal("unexpected reply to a wait: %T", m)
	case r := <-reply:
		if r.err != nil {
			return nil, r.err
		}
		return r.reply, nil
	case <-ctx.Done():
		s.as.Root.Send(pid, &cancelWait{token: token})
		return nil, messages.Unavailable("the caller went away")
	case <-timer.C:
		s.as.Root.Send(pid, &cancelWait{token: token})
		if ref.loads.Load() != loads || ref.reloading.Load() {
			// The canvas reloaded under the wait: its owner never saw it.
			return nil, messages.Unavailable("canvas %q reloaded during the wait; wait again", ref.id)
		}
		return nil, messages.Timeout(op.Name)
	}
}

// routerOps are the composite operations. Each step goes through the
// owner of its state, one after the other, so frames come in the
// reference's order.
var routerOps = []string{"ax.command.invoke", "ax.activity", "ax.interaction"}

func (s *System) route(ctx context.Context, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	switch op.Name {
	case "ax.command.invoke":
		return s.invokeCommand(ctx, ref, env, before)
	case "ax.activity":
		return s.ingestActivity(ctx, ref, env)
	case "ax.interaction":
		return s.interact(ctx, ref, env)
	}
	return nil, messages.Internal("no router handler for %s", op.Name)
}

// step runs one member operation of a composite with input args.
func (s *System) step(ctx context.Context, ref *canvasRef, name string, parent *messages.Envelope, args any, before map[string]any) (*messages.Reply, error) {
	op, _ := messages.Lookup(name)
	sub := *parent
	sub.Op, sub.Args, sub.Input, sub.IdempotencyKey, sub.IfRevision = name, args, nil, "", nil
	if op.Owner == messages.OwnerRouter {
		return s.route(ctx, ref, op, &sub, before)
	}
	return s.ask(ctx, ref, ref.owner(op.Owner), op, &sub, before)
}

// invokeCommand validates the command, applies the tool policy, then
// records the command event.
func (s *System) invokeCommand(ctx context.Context, ref *canvasRef, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	in := env.Args.(*messages.AxCommandInput)
	if _, err := ax.CommandEvent(in.Name, in.Args, "api", s.cfg.Env); err != nil {
		return nil, err
	}
	if err := s.checkPolicy(ctx, ref, in.Name.(string), axSource(in.Source, env)); err != nil {
		return nil, err
	}
	op, _ := messages.Lookup("ax.command.invoke")
	return s.ask(ctx, ref, ref.timelinePID.Load(), op, env, before)
}

// checkPolicy applies the canvas's tool policy to a call named name: an
// excluded name or one outside a non-empty allow-list is refused; a name
// that requires approval is refused with the approval gate opened for it
// until a human approves, after which one call passes.
func (s *System) checkPolicy(ctx context.Context, ref *canvasRef, name, source string) *messages.Error {
	d := ax.CheckPolicy(ref.boardView.Load().Board.Policy, name)
	if !d.Allowed && !d.NeedsApproval {
		return messages.Make(d.Code, "%s", d.Message).With("tool", name)
	}
	if !d.NeedsApproval {
		return nil
	}
	pid := ref.gatesPID.Load()
	if pid == nil {
		return messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	res, err := s.request(ref, pid, &authorizeCall{name: name, source: source}, s.cfg.DefaultTimeout)
	if errors.Is(err, actor.ErrDeadLetter) {
		return messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	if err != nil {
		return messages.Timeout("policy check")
	}
	if r, ok := res.(*invokeResult); ok { // answered by a reload
		return r.err
	}
	auth := res.(*authorization)
	switch {
	case auth.err != nil:
		return auth.err
	case auth.allowed:
		return nil
	}
	return messages.Make(messages.CodeApprovalRequired,
		"%q requires approval: resolve approval gate %s, then call again.", name, auth.gate.ID).
		With("approvalGate", auth.gate).With("tool", name)
}

// ingestActivity records an activity event and its reactions, in the
// reference's order: event, work item, evidence, review.
func (s *System) ingestActivity(ctx context.Context, ref *canvasRef, env *messages.Envelope) (*messages.Reply, error) {
	in := env.Args.(*messages.AxActivityInput)
	plan, perr := ax.PlanActivity(in, ref.view.Load())
	if perr != nil {
		return nil, perr
	}
	src := axSource(in.Source, env)
	sub := *env
	sub.Source = src
	body := map[string]any{"ok": true, "event": nil, "workItem": nil, "evidence": nil, "review": nil}
	type stepSpec struct {
		op, key, field string
		args           any
		optional       bool
	}
	steps := []stepSpec{{"ax.event.record", "event", "event", plan.Event, false}}
	if plan.WorkItem != nil {
		steps = append(steps, stepSpec{"ax.work.create", "workItem", "workItem", plan.WorkItem, false})
	}
	if plan.Evidence != nil {
		steps = append(steps, stepSpec{"ax.evidence.add", "evidence", "evidence", plan.Evidence, false})
	}
	if plan.Review != nil {
		steps = append(steps, stepSpec{"ax.review.add", "review", "reviewAnnotation", plan.Review, true})
	}
	for _, st := range steps {
		reply, err := s.step(ctx, ref, st.op, &sub, st.args, nil)
		if err != nil {
			if e := messages.AsError(err); st.optional && e.Status == 400 {
				continue // an invalid review anchor skips the review
			}
			return nil, err
		}
		body[st.key] = reply.Body.(map[string]any)[st.field]
	}
	s.traceActivity(ctx, ref, &sub, in)
	return &messages.Reply{Body: body}, nil
}
