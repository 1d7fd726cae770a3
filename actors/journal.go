package actors

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// flushNow is the Journal's note to itself to commit what it has queued.
type flushNow struct{}

// journalSync asks the Journal to tell a writer again how far its writes
// are durable (a writer that restarted may have lost that message).
type journalSync struct{ from *actor.PID }

// journalCore is the Journal's state. It lives in the canvas handle so a
// restarted Journal continues from it: writes queued before a panic are
// still queued, and a batch whose commit was interrupted is committed again
// (a batch is a sequence of assignments, so committing it twice leaves the
// same records as once) before anyone hears it is durable.
type journalCore struct {
	queue []*journalWrite
	// durable is, per writer (PID id), the newest of its writes on disk.
	durable map[string]uint64
	// received is, per writer, the newest write queued: writers number
	// their writes one by one, so a gap is a write that never arrived
	// (lost with a Journal that panicked as it arrived).
	received map[string]uint64
	// lost is set once a gap was found: nothing more is committed or
	// acknowledged until the canvas reloads.
	lost bool
	// failed is the store failure every later write gets.
	failed error
}

func newJournalCore() *journalCore {
	return &journalCore{durable: map[string]uint64{}, received: map[string]uint64{}}
}

// journalFaultHook lets tests inject a panic into the commit path: it runs
// before each commit (afterCommit false) and after it, before any writer is
// told (afterCommit true).
var journalFaultHook atomic.Pointer[func(afterCommit bool)]

// journalActor is a canvas's single writer to the store. It group-commits:
// writes that arrive while a commit (and its fsync) is running queue up in
// the mailbox and go to disk together in the next transaction, so one fsync
// serves many writers. The flush is triggered by a message to itself, which
// the FIFO mailbox delivers after every write already queued.
type journalActor struct {
	ref       *canvasRef
	scheduled bool
}

func (j *journalActor) Receive(ctx actor.Context) {
	defer answerPanics(ctx)
	injectFault("journal", ctx)
	core := j.ref.journal
	switch m := ctx.Message().(type) {
	case *actor.Started:
		// A restarted Journal picks up what the failed one had queued.
		if len(core.queue) > 0 {
			j.schedule(ctx)
		}
	case *journalWrite:
		if core.lost {
			return // the canvas is reloading; its pending writes are failed
		}
		if last := core.received[m.from.Id]; m.seq != last+1 {
			// A write of this writer never arrived: acknowledging the
			// later ones would acknowledge it too. Reload from the store.
			core.lost = true
			j.ref.reloading.Store(true)
			ctx.Send(ctx.Parent(), &reloadCanvas{reason: fmt.Sprintf("the journal never received write %d of %s", last+1, m.from.Id)})
			return
		}
		core.received[m.from.Id] = m.seq
		core.queue = append(core.queue, m)
		j.schedule(ctx)
	case flushNow:
		j.scheduled = false
		j.flush(ctx)
	case *journalSync:
		ctx.Send(m.from, &journalCommitted{upTo: core.durable[m.from.Id], err: core.failed})
	case *actor.Stopping:
		for j.ref.draining.Load() && len(core.queue) > 0 {
			j.flush(ctx)
		}
	}
}

func (j *journalActor) schedule(ctx actor.Context) {
	if !j.scheduled {
		j.scheduled = true
		ctx.Send(ctx.Self(), flushNow{})
	}
}

func (j *journalActor) flush(ctx actor.Context) {
	core := j.ref.journal
	if len(core.queue) == 0 {
		return
	}
	batch := core.queue
	if max := j.ref.sys.cfg.MaxBatch; max > 0 && len(batch) > max {
		batch = batch[:max]
	}
	n := 1
	for _, w := range batch {
		n += len(w.ops)
	}
	unsaved := j.ref.unsaved.Load()
	ops := make([]persistence.Op, 0, n)
	if unsaved != nil {
		ops = append(ops, *unsaved...)
	}
	var meta *canvas.State
	for _, w := range batch {
		ops = append(ops, w.ops...)
		if w.meta != nil {
			meta = w.meta
		}
	}
	if meta != nil {
		ops = append(ops, persistence.MetaOp(j.ref.id, meta))
	}
	if hook := journalFaultHook.Load(); hook != nil {
		(*hook)(false)
	}
	err := j.ref.sys.cfg.Store.Commit(ops)
	if err == nil && unsaved != nil {
		j.ref.unsaved.CompareAndSwap(unsaved, nil)
	}
	if hook := journalFaultHook.Load(); hook != nil {
		(*hook)(true)
	}
	// Only now is the batch done: a panic above leaves it queued.
	core.queue = append([]*journalWrite(nil), core.queue[len(batch):]...)
	if len(core.queue) > 0 {
		j.schedule(ctx)
	}
	switch {
	case err != nil && core.failed == nil:
		core.failed = err
	case err == nil:
		core.failed = nil // the store recovered
	}
	// Tell each writer once, with its newest write in the batch (a batch
	// holds each writer's writes in its own order).
	told := make([]*actor.PID, 0, 4)
	for i := len(batch) - 1; i >= 0; i-- {
		w := batch[i]
		if slices.ContainsFunc(told, w.from.Equal) {
			continue
		}
		told = append(told, w.from)
		if err == nil {
			core.durable[w.from.Id] = w.seq
		}
		ctx.Send(w.from, &journalCommitted{upTo: w.seq, err: err})
	}
}
