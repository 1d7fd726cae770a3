package memtrim

import (
	"runtime/metrics"
	"testing"
)

func TestTrimOnlyWhenIdleAfterGrowth(t *testing.T) {
	p := Policy{IdleBytes: 100, MinGrowth: 1000}
	steps := []struct {
		allocs uint64
		trim   bool
		why    string
	}{
		{0, false, "first sample only records"},
		{5000, false, "busy: 5000 in one interval (a burst before the first sample counts too)"},
		{5050, true, "idle after 5050 of growth"},
		{5060, false, "idle, but nothing new since the trim"},
		{5500, false, "busy again"},
		{5550, false, "idle, but only 490 since the trim"},
		{7000, false, "busy"},
		{7001, true, "idle after 1441 of growth"},
	}
	tr := &tracker{p: p}
	for _, s := range steps {
		if got := tr.observe(s.allocs); got != s.trim {
			t.Fatalf("allocs=%d: trim=%v, want %v (%s)", s.allocs, got, s.trim, s.why)
		}
	}
}

func TestAllocsMetricExists(t *testing.T) {
	// Run stops quietly on a runtime without the metric; this runtime must have it.
	found := false
	for _, d := range metricsAll() {
		if d == allocsMetric {
			found = true
		}
	}
	if !found {
		t.Fatalf("runtime/metrics has no %s", allocsMetric)
	}
}

func metricsAll() []string {
	var names []string
	for _, d := range metrics.All() {
		names = append(names, d.Name)
	}
	return names
}

func TestFirstIdleIntervalTrims(t *testing.T) {
	// Start-up allocated before the first sample; the first quiet interval
	// ends start-up and trims even without MinGrowth since then.
	tr := &tracker{p: Policy{IdleBytes: 100, MinGrowth: 1000}}
	for i, s := range []struct {
		allocs uint64
		trim   bool
	}{{900, false}, {950, true}, {960, false}, {1900, false}, {1920, false}, {2100, false}, {2150, true}} {
		if got := tr.observe(s.allocs); got != s.trim {
			t.Fatalf("step %d allocs=%d: trim=%v, want %v", i, s.allocs, got, s.trim)
		}
	}
}
