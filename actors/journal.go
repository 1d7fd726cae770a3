package actors

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// flushNow is the Journal's note to itself to commit what it has queued.
type flushNow struct{}

// journalActor is a canvas's single writer to the store. It group-commits:
// writes that arrive while a commit (and its fsync) is running queue up in
// the mailbox and go to disk together in the next transaction, so one fsync
// serves many writers. The flush is triggered by a message to itself, which
// the FIFO mailbox delivers after every write already queued.
type journalActor struct {
	ref       *canvasRef
	queue     []*journalWrite
	scheduled bool
}

func (j *journalActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *journalWrite:
		j.queue = append(j.queue, m)
		if !j.scheduled {
			j.scheduled = true
			ctx.Send(ctx.Self(), flushNow{})
		}
	case flushNow:
		j.scheduled = false
		j.flush(ctx)
	case *actor.Stopping:
		for len(j.queue) > 0 {
			j.flush(ctx)
		}
	}
}

func (j *journalActor) flush(ctx actor.Context) {
	if len(j.queue) == 0 {
		return
	}
	batch := j.queue
	if max := j.ref.sys.cfg.MaxBatch; max > 0 && len(batch) > max {
		batch = batch[:max]
	}
	j.queue = append([]*journalWrite(nil), j.queue[len(batch):]...)
	if len(j.queue) > 0 && !j.scheduled {
		j.scheduled = true
		ctx.Send(ctx.Self(), flushNow{})
	}
	n := 0
	for _, w := range batch {
		n += len(w.ops)
	}
	ops := make([]persistence.Op, 0, n)
	for _, w := range batch {
		ops = append(ops, w.ops...)
	}
	err := j.ref.sys.cfg.Store.Commit(ops)
	// Tell each writer once, with its newest write in the batch (a batch
	// holds each writer's writes in its own order).
	told := make([]*actor.PID, 0, 4)
	for i := len(batch) - 1; i >= 0; i-- {
		w := batch[i]
		if slices.ContainsFunc(told, w.from.Equal) {
			continue
		}
		told = append(told, w.from)
		ctx.Send(w.from, &journalCommitted{upTo: w.seq, err: err})
	}
}
