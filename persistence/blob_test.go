package persistence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A blob's bytes live in their own file, the log holds a stub; deleting or
// replacing the key removes the file once durable; an unnamed file (a
// crash between a blob's write and its commit) goes on the next open; a
// value stored inline before blobs reads the same through GetBlob.
func TestBlobsLiveOutsideTheLog(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	big := strings.Repeat("x", 1<<20)
	if err := s.Commit([]Op{SetBlob("canvas/main/snap/a", []byte(big)), Set("canvas/main/inline", "old value")}); err != nil {
		t.Fatal(err)
	}
	blobs := filepath.Join(ws, Dir, BlobsDir)
	if got, ok, err := s.GetBlob("canvas/main/snap/a"); err != nil || !ok || string(got) != big {
		t.Fatalf("GetBlob: %d bytes, %v, %v", len(got), ok, err)
	}
	if got, ok, _ := s.GetBlob("canvas/main/inline"); !ok || string(got) != "old value" {
		t.Fatalf("an inline value through GetBlob: %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(ws, Dir, FileName)); fi.Size() > 64<<10 {
		t.Fatalf("the log holds the blob: %d bytes", fi.Size())
	}
	if _, err := os.Stat(filepath.Join(blobs, "canvas_main_snap_a.json")); err != nil {
		t.Fatal(err)
	}
	// Replaced by another key's blob, then deleted: the file goes.
	if err := s.Commit([]Op{SetBlob("canvas/main/snap/b", []byte("b")), Delete("canvas/main/snap/a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(blobs, "canvas_main_snap_a.json")); !os.IsNotExist(err) {
		t.Fatalf("a deleted blob's file is still there: %v", err)
	}
	// An orphan (written, never committed) is removed on open.
	if err := os.WriteFile(filepath.Join(blobs, "canvas_main_snap_orphan.json"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, ws, Options{})
	defer r.Close()
	if _, err := os.Stat(filepath.Join(blobs, "canvas_main_snap_orphan.json")); !os.IsNotExist(err) {
		t.Fatalf("an orphan blob survived the open: %v", err)
	}
	if got, ok, err := r.GetBlob("canvas/main/snap/b"); err != nil || !ok || string(got) != "b" {
		t.Fatalf("after reopen: %q %v %v", got, ok, err)
	}
}
