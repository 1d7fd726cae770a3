package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// axHandler is a pure AX write handler: from what it is given (C) to the
// result its actor applies (R).
type axHandler[C, R any] func(c C) (R, *messages.Error)

// axOwner is what one AX actor (AxState, Gates, Timeline) adds to the
// shell: its own state, handlers and messages. The state stays in the
// canvas handle, so the accessors are read on every message, never cached.
type axOwner[C, R any] interface {
	// writer is the actor's durable write path; timers its deadlines, or
	// nil when it parks nothing.
	writer() *axWriter
	timers() *deadlines
	// rollback returns the working state to the published view after the
	// store failed.
	rollback()
	// newCall is what a handler gets for req.
	newCall(req *invokeRequest) C
	// commit makes a handler's result the working state and answers
	// sender once it is durable.
	commit(ctx actor.Context, req *invokeRequest, res R, sender *actor.PID)
	// effect applies the actor's part of a committed layout write.
	effect(ctx actor.Context, eff *axEffect)
	// receive handles the messages only this actor gets.
	receive(ctx actor.Context)
}

// axShell is the receive loop the AX actors share, so the fault handling,
// journal sync, expiry, store-failure refusal and handler dispatch are
// written once and each actor keeps only its own handling.
type axShell[C, R any] struct {
	ref *canvasRef
	// name is the actor's child name (and the fault hook's); label names
	// it in logs and errors.
	name, label string
	handlers    map[string]axHandler[C, R]
	owner       axOwner[C, R]
}

func (s *axShell[C, R]) Receive(ctx actor.Context) {
	defer answerPanics(ctx)
	injectFault(s.name, ctx)
	w, timers := s.owner.writer(), s.owner.timers()
	switch m := ctx.Message().(type) {
	case *actor.Started:
		if timers != nil {
			timers.start(ctx, s.ref.sys)
		}
		syncJournal(ctx, s.ref, len(w.pending))
	case *actor.Stopping:
		if timers != nil {
			timers.stop()
		}
	case *invokeRequest:
		if !expired(ctx, m) {
			s.invoke(ctx, m)
		}
	case *axEffect:
		if w.broken(s.ref) {
			m.finish(ctx, w.failed)
			return
		}
		s.owner.effect(ctx, m)
	case *journalCommitted:
		if !w.committed(ctx, m) {
			s.owner.rollback()
		}
	default:
		s.owner.receive(ctx)
	}
}

// invoke runs a write: refused while the store is failing, else its pure
// handler, whose result the owner commits.
func (s *axShell[C, R]) invoke(ctx actor.Context, req *invokeRequest) {
	w := s.owner.writer()
	if w.broken(s.ref) {
		ctx.Respond(&invokeResult{err: w.failed})
		return
	}
	h, ok := s.handlers[req.op.Name]
	if !ok {
		ctx.Respond(&invokeResult{err: messages.Internal("no %s handler for %s", s.label, req.op.Name)})
		return
	}
	sender := ctx.Sender()
	c := s.owner.newCall(req)
	res, err := runPure(ctx, s.ref, s.label, req.env, func() (R, *messages.Error) { return h(c) })
	if err != nil {
		ctx.Respond(&invokeResult{err: err})
		return
	}
	s.owner.commit(ctx, req, res, sender)
}

// answerWrite releases a durable AX write: the interaction frame the
// request carries, then the write's own frame (named name; none when frame
// is nil), then the reply, so the caller's reply follows its frames.
func (r *canvasRef) answerWrite(ctx actor.Context, req *invokeRequest, sender *actor.PID, name string, frame, body map[string]any) {
	if req.before != nil {
		r.emitAX(ctx, evAxInteraction, req.before)
	}
	if frame != nil {
		r.emitAX(ctx, name, frame)
	}
	replyTo(ctx, sender, &messages.Reply{Body: body}, nil)
}
