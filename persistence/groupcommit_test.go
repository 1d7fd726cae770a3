package persistence

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Commits from many goroutines (one Journal per canvas) share fsyncs: 32
// writers of 50 commits each need far fewer syncs than commits, every
// commit gets its own sequence, and after a reopen every acknowledged
// commit is there.
func TestConcurrentCommitsShareFsyncs(t *testing.T) {
	ws := t.TempDir()
	var syncs atomic.Int64
	s := openT(t, ws, Options{SyncHook: func() error {
		syncs.Add(1)
		time.Sleep(2 * time.Millisecond) // a disk: the other writers queue meanwhile
		return nil
	}})
	base := syncs.Load()
	const writers, each = 32, 50
	seqs := make(chan uint64, writers*each)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				seq, err := s.CommitSeq([]Op{Set(fmt.Sprintf("k/%02d/%03d", w, i), "v")})
				if err != nil {
					t.Error(err)
					return
				}
				seqs <- seq
			}
		}()
	}
	wg.Wait()
	close(seqs)
	seen := map[uint64]bool{}
	for q := range seqs {
		if seen[q] {
			t.Fatalf("sequence %d given twice", q)
		}
		seen[q] = true
	}
	n := syncs.Load() - base
	if len(seen) != writers*each || n > writers*each/4 {
		t.Fatalf("%d commits took %d fsyncs; want grouping", len(seen), n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, ws, Options{})
	defer r.Close()
	for w := range writers {
		for i := range each {
			if _, ok, err := r.Get(fmt.Sprintf("k/%02d/%03d", w, i)); err != nil || !ok {
				t.Fatalf("commit %d/%d lost after reopen: %v", w, i, err)
			}
		}
	}
	t.Logf("%d commits, %d fsyncs", len(seen), n)
}

// A failed write or fsync refuses commits while the disk keeps failing;
// when it works again a probe commit (cutting whatever the failed write
// left) succeeds and commits resume. Nothing unacknowledged survives, and
// everything acknowledged does, across a reopen.
func TestStoreRecoversAfterTheDiskDoes(t *testing.T) {
	ws := t.TempDir()
	var failing atomic.Bool
	s := openT(t, ws, Options{RecoverFirst: 10 * time.Millisecond, RecoverMax: 20 * time.Millisecond, SyncHook: func() error {
		if failing.Load() {
			return errors.New("injected EIO")
		}
		return nil
	}})
	if err := s.Commit([]Op{Set("k/before", "1")}); err != nil {
		t.Fatal(err)
	}
	failing.Store(true)
	if err := s.Commit([]Op{Set("k/lost", "1")}); !errors.Is(err, ErrStoreFailed) {
		t.Fatalf("commit on a failing disk: %v", err)
	}
	time.Sleep(100 * time.Millisecond) // several probes, all failing
	if err := s.Commit([]Op{Set("k/lost2", "1")}); !errors.Is(err, ErrStoreFailed) || s.Failed() == nil {
		t.Fatalf("commits stay refused while the disk fails: %v", err)
	}
	failing.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for s.Failed() != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store did not recover")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.Commit([]Op{Set("k/after", "1")}); err != nil {
		t.Fatalf("commit after recovery: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, ws, Options{})
	defer r.Close()
	for key, want := range map[string]bool{"k/before": true, "k/after": true, "k/lost": false, "k/lost2": false} {
		if _, ok, _ := r.Get(key); ok != want {
			t.Fatalf("%s present=%v after reopen, want %v", key, ok, want)
		}
	}
}
