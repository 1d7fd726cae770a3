package actors

import (
	"container/heap"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// deadlines is an actor's set of pending deadlines (waiters, leases) behind
// one runtime timer armed for the earliest. Parking a thousand waiters costs
// a thousand heap entries, not a thousand timers or goroutines: when the
// timer fires it sends one tick to the actor, which pops what is due.
type deadlines struct {
	h     deadlineHeap
	timer *time.Timer
	armed time.Time
	// tick sends the owning actor its tick message (from the timer's
	// goroutine, so it must only send).
	tick func()
}

// deadline is one entry; index is maintained by the heap.
type deadline struct {
	at    time.Time
	index int
	// owner is what the entry belongs to (a waiter, a lease).
	owner any
}

// start makes the timer tick the actor of ctx, and arms it for deadlines
// a restarted actor kept.
func (d *deadlines) start(ctx actor.Context, sys *System) {
	self := ctx.Self()
	d.tick = func() { sys.as.Root.Send(self, waitTick{}) }
	d.arm()
}

func (d *deadlines) add(at time.Time, owner any) *deadline {
	e := &deadline{at: at, owner: owner}
	heap.Push(&d.h, e)
	d.arm()
	return e
}

func (d *deadlines) remove(e *deadline) {
	if e == nil || e.index < 0 {
		return
	}
	heap.Remove(&d.h, e.index)
}

// due pops every entry due at now and re-arms the timer.
func (d *deadlines) due(now time.Time) []any {
	var out []any
	for len(d.h) > 0 && !d.h[0].at.After(now) {
		e := heap.Pop(&d.h).(*deadline)
		out = append(out, e.owner)
	}
	d.armed = time.Time{}
	d.arm()
	return out
}

func (d *deadlines) len() int { return len(d.h) }

// arm makes sure the timer fires at (or just after) the earliest deadline.
func (d *deadlines) arm() {
	if len(d.h) == 0 {
		return
	}
	next := d.h[0].at
	if !d.armed.IsZero() && !next.Before(d.armed) {
		return
	}
	d.armed = next
	wait := time.Until(next)
	if d.timer == nil {
		d.timer = time.AfterFunc(wait, d.tick)
		return
	}
	d.timer.Reset(wait)
}

// stop cancels the timer (actor stopping).
func (d *deadlines) stop() {
	if d.timer != nil {
		d.timer.Stop()
	}
}

type deadlineHeap []*deadline

func (h deadlineHeap) Len() int           { return len(h) }
func (h deadlineHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h deadlineHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *deadlineHeap) Push(x any) {
	e := x.(*deadline)
	e.index = len(*h)
	*h = append(*h, e)
}
func (h *deadlineHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	e.index = -1
	*h = old[:len(old)-1]
	return e
}
