package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

const mib = 1 << 20

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		name              string
		live, floor       uint64
		base, wantPercent int
	}{
		{"no live heap yet", 0, 256 * mib, 200, 200},
		{"no floor", 10 * mib, 0, 200, 200},
		{"GC off stays off", 10 * mib, 256 * mib, -1, -1},
		{"small heap reaches the floor", 16 * mib, 256 * mib, 200, 1500},
		{"uneven division rounds down", 30 * mib, 256 * mib, 200, 753},
		{"heap whose base goal passes the floor", 100 * mib, 256 * mib, 200, 200},
		{"heap past the floor", 300 * mib, 256 * mib, 200, 200},
		{"tiny heap is capped", 1024, 256 * mib, 200, MaxPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Percent(tc.live, tc.floor, tc.base)
			if got != tc.wantPercent {
				t.Fatalf("Percent(%d, %d, %d) = %d, want %d", tc.live, tc.floor, tc.base, got, tc.wantPercent)
			}
			if tc.live > 0 && tc.floor > 0 && got > tc.base && got < MaxPercent {
				goal := tc.live + tc.live*uint64(got)/100
				if goal > tc.floor || tc.floor-goal > tc.live/100 {
					t.Fatalf("goal %d for live %d is not at the floor %d", goal, tc.live, tc.floor)
				}
			}
		})
	}
}

// gogc reads the runtime's current GOGC without changing it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// After a collection the policy raises GOGC so the goal reaches the floor,
// and Stop puts the base back.
func TestStartSetsThePercentAfterACollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	live := make([]*[1024]byte, 8*1024) // about 8 MiB of live heap
	for i := range live {
		live[i] = new([1024]byte)
	}
	f := Start(1024*mib, 200)
	if got := gogc(); got != 200 {
		t.Fatalf("GOGC right after Start = %d, want the base 200", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for gogc() == 200 {
		if time.Now().After(deadline) {
			t.Fatal("GOGC still 200 ten seconds after collections with a 1 GiB floor")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := gogc(); got < 1000 {
		t.Fatalf("GOGC after a collection with ~8 MiB live and a 1 GiB floor = %d, want well above 1000", got)
	}
	runtime.KeepAlive(live)
	f.Stop()
	if got := gogc(); got != 200 {
		t.Fatalf("GOGC after Stop = %d, want the base 200", got)
	}
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := gogc(); got != 200 {
		t.Fatalf("GOGC changed after Stop: %d", got)
	}
}
