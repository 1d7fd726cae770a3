package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

type notice struct {
	path   string
	owners []string
}

func start(t *testing.T) (*Watcher, chan notice) {
	t.Helper()
	ch := make(chan notice, 16)
	w, err := New(100*time.Millisecond, func(p string, o []string) { ch <- notice{p, o} }, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, ch
}

func expect(t *testing.T, ch chan notice, path string) notice {
	t.Helper()
	select {
	case n := <-ch:
		if n.path != path {
			t.Fatalf("notice for %s, want %s", n.path, path)
		}
		return n
	case <-time.After(5 * time.Second):
		t.Fatalf("no notice for %s", path)
	}
	return notice{}
}

func quiet(t *testing.T, ch chan notice, d time.Duration) {
	t.Helper()
	select {
	case n := <-ch:
		t.Fatalf("unexpected notice %+v", n)
	case <-time.After(d):
	}
}

func TestBurstIsOneNotice(t *testing.T) {
	w, ch := start(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	os.WriteFile(p, []byte("0"), 0o644)
	if err := w.Watch(p, "main"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		os.WriteFile(p, []byte{byte('a' + i)}, 0o644)
	}
	n := expect(t, ch, p)
	if len(n.owners) != 1 || n.owners[0] != "main" {
		t.Errorf("owners = %v", n.owners)
	}
	quiet(t, ch, 200*time.Millisecond)
	// An unwatched neighbour in the same directory says nothing.
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("x"), 0o644)
	quiet(t, ch, 150*time.Millisecond)
}

func TestRenameOverAndDelete(t *testing.T) {
	w, ch := start(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	os.WriteFile(p, []byte("0"), 0o644)
	w.Watch(p, "main")
	tmp := filepath.Join(dir, ".a.txt.tmp")
	os.WriteFile(tmp, []byte("new"), 0o644)
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	expect(t, ch, p)
	os.Remove(p)
	expect(t, ch, p)
}

func TestOwnersAndUnwatch(t *testing.T) {
	w, ch := start(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	os.WriteFile(p, []byte("0"), 0o644)
	w.Watch(p, "a")
	w.Watch(p, "b")
	w.Watch(p, "b")
	w.Unwatch(p, "b") // b still holds one watch
	os.WriteFile(p, []byte("1"), 0o644)
	if n := expect(t, ch, p); len(n.owners) != 2 {
		t.Errorf("owners = %v, want a and b", n.owners)
	}
	w.UnwatchOwner("b")
	w.Unwatch(p, "a")
	if w.Watched() != 0 {
		t.Errorf("watched = %d after every owner left", w.Watched())
	}
	os.WriteFile(p, []byte("2"), 0o644)
	quiet(t, ch, 200*time.Millisecond)
	if err := w.Watch(filepath.Join(dir, "missing-dir", "x"), "a"); err == nil {
		t.Error("watching a file in a missing directory succeeded")
	}
}
