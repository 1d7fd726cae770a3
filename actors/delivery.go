package actors

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// A write's reply waits for its frames: the Events actor holds the replies
// of a commit until every subscriber that keeps up has written the commit's
// frames to its connection (the reference writes its frames before it
// answers, so a writer's reply never overtakes what watchers are sent), or
// until Config.DeliveryBound passes. A subscriber that missed the bound
// counts as lagging, and holds no later reply until it has caught up: one
// slow reader cannot slow every writer.

// heldReply is a write's answer waiting for its frames to be written.
type heldReply struct {
	to    *actor.PID
	reply *messages.Reply
}

// delivery is one commit's held replies and how many writers it waits for:
// one per subscriber sent its frames, plus the Events actor itself until it
// has sent them all (so a quick subscriber cannot release it early).
type delivery struct {
	root     *actor.RootContext
	set      *heldSet
	replies  []heldReply
	need     atomic.Int32
	released atomic.Bool
	// bound is the timer that releases the replies when a subscriber is
	// late; set before the Events actor's own count is done.
	bound *time.Timer
}

// heldSet is a canvas's deliveries not yet released. It lives in the
// canvas handle: a canvas reloaded while replies were held sends them (the
// writes are durable) instead of leaving their callers to time out.
type heldSet struct {
	mu sync.Mutex
	m  map[*delivery]struct{}
}

// hold starts a delivery of the replies to waiters.
func (s *heldSet) hold(root *actor.RootContext, waiters []*actor.PID, reply *messages.Reply) *delivery {
	d := &delivery{root: root, set: s}
	for _, w := range waiters {
		d.replies = append(d.replies, heldReply{to: w, reply: reply})
	}
	d.need.Store(1)
	s.mu.Lock()
	if s.m == nil {
		s.m = map[*delivery]struct{}{}
	}
	s.m[d] = struct{}{}
	s.mu.Unlock()
	return d
}

// releaseAll releases every delivery still held.
func (s *heldSet) releaseAll() {
	s.mu.Lock()
	all := make([]*delivery, 0, len(s.m))
	for d := range s.m {
		all = append(all, d)
	}
	s.mu.Unlock()
	for _, d := range all {
		d.release()
	}
}

// done counts one writer as finished; the last one releases the replies.
func (d *delivery) done() {
	if d.need.Add(-1) == 0 {
		d.release()
	}
}

// release sends the replies, once.
func (d *delivery) release() {
	if d.released.CompareAndSwap(false, true) {
		if d.bound != nil {
			d.bound.Stop()
		}
		d.set.mu.Lock()
		delete(d.set.m, d)
		d.set.mu.Unlock()
		for _, r := range d.replies {
			d.root.Send(r.to, &invokeResult{reply: r.reply})
		}
	}
}

// deliveryExpired tells the Events actor a delivery's bound passed.
type deliveryExpired struct{ d *delivery }

// acks is a subscriber's side of deliveries: the commits whose frames it
// was sent and has not written yet, oldest first. The Events actor adds to
// it, the subscriber's writer takes from it (Subscription.Written).
type acks struct {
	mu      sync.Mutex
	pending []ackEntry
	// lagging is set when a delivery's bound passed with this subscriber's
	// frames unwritten; it then holds no reply until it has written every
	// event the canvas emitted (head): a reader that is slow but alive
	// would otherwise make every other write wait the bound.
	lagging bool
	head    *atomic.Uint64
}

type ackEntry struct {
	seq uint64 // the last event of the commit this subscriber was sent
	d   *delivery
}

// hold records that frame seq of delivery d was queued to this subscriber,
// and reports whether d now waits for it. Frames of one commit are one
// entry: its last frame's number.
func (a *acks) hold(seq uint64, d *delivery) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lagging {
		return false
	}
	if n := len(a.pending); n > 0 && a.pending[n-1].d == d {
		a.pending[n-1].seq = seq
		return false
	}
	a.pending = append(a.pending, ackEntry{seq, d})
	return true
}

// written is the writer's report that every frame up to seq reached the
// connection: the deliveries waiting for those are done with it.
func (a *acks) written(seq uint64) {
	a.mu.Lock()
	n := 0
	for n < len(a.pending) && a.pending[n].seq <= seq {
		n++
	}
	done := a.pending[:n:n]
	a.pending = a.pending[n:]
	if seq >= a.head.Load() {
		a.lagging = false
	}
	a.mu.Unlock()
	for _, e := range done {
		e.d.done()
	}
}

// expire marks the subscriber lagging when it still owes d, and drops its
// entry for d.
func (a *acks) expire(d *delivery) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, e := range a.pending {
		if e.d == d {
			a.pending = append(a.pending[:i:i], a.pending[i+1:]...)
			a.lagging = true
			return
		}
	}
}

// drop releases every delivery the subscriber still owes: it is gone.
func (a *acks) drop() {
	a.mu.Lock()
	pending := a.pending
	a.pending, a.lagging = nil, true
	a.mu.Unlock()
	for _, e := range pending {
		e.d.done()
	}
}
