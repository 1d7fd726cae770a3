package persistence

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The log is compacted online once it outgrows its live data: writers keep
// committing meanwhile (their commits are carried over into the new file),
// the file shrinks, and after a reopen every record has its last value.
func TestOnlineCompactionKeepsEveryCommit(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{CompactRatio: 2, CompactMinBytes: 256 << 10})
	path := filepath.Join(ws, Dir, FileName)
	const writers, rounds = 4, 400
	value := func(w, i int) string { return fmt.Sprintf("%d-%d-%0500d", w, i, 0) }
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				// Overwrite 10 keys per writer: the log grows, the live set does not.
				if err := s.Commit([]Op{Set(fmt.Sprintf("k/%d/%d", w, i%10), value(w, i))}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for s.compacting.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	s.mu.Lock()
	n := s.compactions
	s.mu.Unlock()
	fi, _ := os.Stat(path)
	if n == 0 || fi.Size() > 1<<20 {
		t.Fatalf("%d compactions, log %d bytes: want it compacted online", n, fi.Size())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, ws, Options{})
	defer r.Close()
	for w := range writers {
		for k := range 10 {
			last := rounds - 10 + k
			if v, ok, _ := r.Get(fmt.Sprintf("k/%d/%d", w, k)); !ok || v != value(w, last) {
				t.Fatalf("k/%d/%d = %.12q after reopen, want the value of round %d", w, k, v, last)
			}
		}
	}
	t.Logf("%d online compactions; log %d bytes", n, fi.Size())
}
