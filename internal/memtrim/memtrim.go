// Package memtrim gives freed heap, and the binary's start-up pages, back
// to the operating system once the process goes idle after a burst of work.
//
// The server runs with a GC target of 200% (fast writes), so under load the
// heap grows to about three times the live data, and the runtime's
// background scavenger returns the slack only slowly: an idle server kept
// its peak resident size for minutes. One forced collection and scavenge
// when allocation has stopped costs nothing a writer waits on and brings
// the resident size back to the live data.
package memtrim

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Policy says when a trim is worth doing.
type Policy struct {
	// Every is how often the allocation counter is sampled.
	Every time.Duration
	// IdleBytes is the most a process may allocate in one interval and
	// still count as idle.
	IdleBytes uint64
	// MinGrowth is how much must have been allocated since the last trim
	// for another one to be worth a full collection.
	MinGrowth uint64
}

// Default samples every second and trims after at least 16 MiB of
// allocation once a second passes with less than 256 KiB allocated.
var Default = Policy{Every: time.Second, IdleBytes: 256 << 10, MinGrowth: 16 << 20}

// tracker holds the counters between samples.
type tracker struct {
	p       Policy
	last    uint64 // cumulative allocated bytes at the previous sample
	atTrim  uint64 // cumulative allocated bytes at the last trim
	sampled bool
	trimmed bool // a trim has happened: start-up is over
}

// observe takes the cumulative allocated bytes and reports whether to trim
// now: at the first idle interval (start-up, and whatever burst came
// before the first sample, is over), then at each idle interval after
// MinGrowth more allocation.
func (t *tracker) observe(allocs uint64) bool {
	if !t.sampled {
		t.sampled, t.last = true, allocs
		return false
	}
	delta := allocs - t.last
	t.last = allocs
	if delta > t.p.IdleBytes || (t.trimmed && allocs-t.atTrim < t.p.MinGrowth) {
		return false
	}
	t.atTrim, t.trimmed = allocs, true
	return true
}

const allocsMetric = "/gc/heap/allocs:bytes"

// Run samples the allocation counter until ctx ends and trims whenever the
// policy says so.
func Run(ctx context.Context, p Policy) {
	t := &tracker{p: p}
	sample := []metrics.Sample{{Name: allocsMetric}}
	tick := time.NewTicker(p.Every)
	defer tick.Stop()
	dropNext := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return // metric unknown to this runtime: nothing to go on
		}
		// The image pages go one tick after the collection: the collection
		// and what runs right after it touch code and tables all over the
		// binary, which would bring back what an earlier drop let go.
		if dropNext {
			dropNext = false
			_, _ = DropImagePages() // best effort: a refusal only leaves pages resident
		}
		if t.observe(sample[0].Value.Uint64()) {
			debug.FreeOSMemory()
			dropNext = true
		}
	}
}
