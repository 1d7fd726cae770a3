package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// axWriter is the durable write path the AX actors share, the same one
// Layout follows: a handler computes the next state, the actor keeps it as
// its working state and sends the records to the Journal, and only when the
// Journal says they are durable does release run (publish the view, emit
// the frames, reply, wake waiters). Writes that store nothing are released
// in order behind the writes still pending, so a reply never reveals state
// that might not become durable.
//
// It lives in the canvas handle with the rest of the actor's state, so a
// restarted actor keeps its pending writes.
type axWriter struct {
	seq     uint64
	pending []axPending
	// failed is set once the store fails; writes are refused after that.
	failed *messages.Error
}

type axPending struct {
	seq     uint64
	release func(ctx actor.Context)
	fail    func(ctx actor.Context, err *messages.Error)
}

// write queues a write: ops go to the Journal (if any), release runs once
// they are durable and fail if the store fails.
func (w *axWriter) write(ctx actor.Context, ref *canvasRef, ops []persistence.Op,
	release func(actor.Context), fail func(actor.Context, *messages.Error)) {
	if len(ops) == 0 {
		if len(w.pending) == 0 {
			release(ctx)
			return
		}
		w.pending = append(w.pending, axPending{seq: w.seq, release: release, fail: fail})
		return
	}
	w.seq++
	w.pending = append(w.pending, axPending{seq: w.seq, release: release, fail: fail})
	ctx.Send(ref.journalPID.Load(), &journalWrite{from: ctx.Self(), seq: w.seq, ops: ops})
}

// committed releases every write up to m.upTo. It reports false when the
// store failed: every pending write has been failed and the actor must go
// back to its published view.
func (w *axWriter) committed(ctx actor.Context, m *journalCommitted) bool {
	if m.err != nil {
		w.failed = messages.StoreFailed(m.err)
		for _, p := range w.pending {
			if p.fail != nil {
				p.fail(ctx, w.failed)
			}
		}
		w.pending = nil
		return false
	}
	n := 0
	for n < len(w.pending) && w.pending[n].seq <= m.upTo {
		n++
	}
	done := w.pending[:n]
	w.pending = append([]axPending(nil), w.pending[n:]...)
	for _, p := range done {
		p.release(ctx)
	}
	return true
}

// syncJournal asks the Journal to repeat how far this actor's writes are
// durable, when it holds pending writes (called on Started: a restarted
// actor may have lost that message with the one that failed).
func syncJournal(ctx actor.Context, ref *canvasRef, pending int) {
	if pid := ref.journalPID.Load(); pending > 0 && pid != nil {
		ctx.Send(pid, &journalSync{from: ctx.Self()})
	}
}

// replyTo answers a request parked as a future (ctx.Sender at the time).
func replyTo(ctx actor.Context, to *actor.PID, reply *messages.Reply, err *messages.Error) {
	if to != nil {
		ctx.Send(to, &invokeResult{reply: reply, err: err})
	}
}

// failTo returns a fail callback answering to with the error.
func failTo(to *actor.PID) func(actor.Context, *messages.Error) {
	return func(ctx actor.Context, err *messages.Error) { replyTo(ctx, to, nil, err) }
}

// broken reports whether this writer still refuses writes after a store
// failure: once the store has recovered (a probe commit was synced), the
// failure is cleared and writes resume.
func (w *axWriter) broken(ref *canvasRef) bool {
	if w.failed != nil && !ref.storeFailed() {
		w.failed = nil
	}
	return w.failed != nil
}
