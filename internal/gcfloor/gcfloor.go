// Package gcfloor keeps the garbage collector's heap goal above a floor.
//
// The runtime starts the next collection when the heap reaches
// live × (1 + GOGC/100). A canvas server's live heap is small (tens of MiB)
// while a burst of writes allocates a few hundred MiB a second, so with a
// percentage alone it collects several times a second, and each mark phase
// takes CPU from the writers: on a two-core machine most of a write burst's
// tail latency was requests that landed in a mark phase. A floor under the
// goal makes a small heap collect rarely and leaves a large heap to the
// percentage. Unlike GOGC=off with GOMEMLIMIT, a live heap past the floor
// just collects at the percentage instead of collecting back to back.
//
// The floor is slack the heap may fill between collections, not memory the
// process keeps: internal/memtrim returns it once the process goes idle.
package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// MaxPercent bounds the percentage, so a nearly empty heap does not get an
// absurd factor (the goal is then below the floor, which is harmless).
const MaxPercent = 10000

// Percent returns the GOGC value that puts the next collection at
// max(live × (1 + base/100), floor), at most MaxPercent.
func Percent(live, floor uint64, base int) int {
	if live == 0 || floor == 0 || base < 0 {
		return base
	}
	if goal := live + live/100*uint64(base); goal >= floor {
		return base
	}
	p := int(min(float64(floor-live)/float64(live)*100, MaxPercent))
	return max(p, base)
}

const liveMetric = "/gc/heap/live:bytes"

// Floor runs the policy: it sets GOGC to base at once and recomputes it
// after every collection from the live heap the collection found. Stop ends
// it and leaves GOGC at base.
type Floor struct {
	floor uint64
	base  int

	mu      sync.Mutex
	stopped bool
	sample  []metrics.Sample
}

// Start begins the policy. floor is the smallest heap goal in bytes; base
// the percentage a heap past the floor uses.
func Start(floor uint64, base int) *Floor {
	f := &Floor{floor: floor, base: base, sample: []metrics.Sample{{Name: liveMetric}}}
	debug.SetGCPercent(base)
	f.arm()
	return f
}

// arm registers a cleanup on a fresh unreachable object: the runtime runs
// it after the next collection, and it re-arms itself.
func (f *Floor) arm() {
	sentinel := new([64]byte) // not a tiny allocation, so it is freed on its own
	runtime.AddCleanup(sentinel, func(f *Floor) { f.afterGC() }, f)
}

func (f *Floor) afterGC() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	metrics.Read(f.sample)
	if f.sample[0].Value.Kind() == metrics.KindUint64 {
		debug.SetGCPercent(Percent(f.sample[0].Value.Uint64(), f.floor, f.base))
	}
	f.arm()
}

// Stop ends the policy and sets GOGC back to base.
func (f *Floor) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
	debug.SetGCPercent(f.base)
}
