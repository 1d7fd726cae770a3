package persistence

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/buntdb"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func openT(t *testing.T, ws string, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet()
	}
	s, err := Open(ws, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func sampleState(t *testing.T) *canvas.State {
	t.Helper()
	tx := canvas.Begin(canvas.NewState(), canvas.DefaultEnv())
	canvas.SeedDockedWidgets(tx)
	f := false
	tx.PutNode(&canvas.Node{ID: "n1", Type: "markdown", Position: canvas.Point{X: 1, Y: 2}, Size: canvas.Size{Width: 3, Height: 4},
		ZIndex: 1, Data: map[string]any{"title": "T", "nested": map[string]any{"k": []any{1.0, "x"}}}})
	tx.PutEdge(&canvas.Edge{ID: "e1", From: "n1", To: "status-main", Type: "flow", Animated: &f})
	tx.PutAnnotation(&canvas.Annotation{ID: "a1", Type: "text", Points: []canvas.Point{{X: 1, Y: 2}}, Color: "currentColor", Width: 24, Text: "hi", Label: "hi"})
	tx.SetPins([]string{"n1"})
	tx.SetViewport(canvas.Viewport{X: 5, Y: 6, Scale: 0.5})
	tx.SetTheme("light")
	st, _, _ := tx.Commit()
	return st
}

func TestCommitAndLoadRoundTrip(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	want := sampleState(t)
	if err := s.Commit(StateOps("main", want)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openT(t, ws, Options{})
	defer s.Close()
	got, found, err := s.LoadCanvas("main")
	if err != nil || !found {
		t.Fatalf("LoadCanvas: found=%v err=%v", found, err)
	}
	if got.Revision != want.Revision || got.Theme != "light" || got.Viewport != want.Viewport || got.NextOrd != want.NextOrd {
		t.Fatalf("meta: got rev=%d theme=%s vp=%v ord=%d", got.Revision, got.Theme, got.Viewport, got.NextOrd)
	}
	gotIDs, wantIDs := ids(got.Nodes.All()), ids(want.Nodes.All())
	if strings.Join(gotIDs, ",") != strings.Join(wantIDs, ",") {
		t.Fatalf("node order: got %v want %v", gotIDs, wantIDs)
	}
	e, _ := got.Edges.Get("e1")
	if e == nil || e.Animated == nil || *e.Animated {
		t.Fatalf("edge animated:false must survive a reload: %+v", e)
	}
	if got.Annotations.Len() != 1 || len(got.Pins) != 1 {
		t.Fatalf("annotations=%d pins=%v", got.Annotations.Len(), got.Pins)
	}
	if _, found, _ := s.LoadCanvas("other"); found {
		t.Fatal("a never-written canvas must not be found")
	}
	list, _ := s.Canvases()
	if len(list) != 1 || list[0] != "main" {
		t.Fatalf("Canvases = %v", list)
	}
}

func ids(ns []*canvas.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func TestSecondProcessIsLockedOut(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	defer s.Close()
	_, err := Open(ws, Options{Logger: quiet()})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
}

func TestFailedFsyncIsFatal(t *testing.T) {
	ws := t.TempDir()
	fail := false
	s := openT(t, ws, Options{SyncHook: func() error {
		if fail {
			return errors.New("EIO")
		}
		return nil
	}})
	defer s.Close()
	if err := s.Commit([]Op{Set("k1", "v1")}); err != nil {
		t.Fatal(err)
	}
	fail = true
	if err := s.Commit([]Op{Set("k2", "v2")}); !errors.Is(err, ErrStoreFailed) {
		t.Fatalf("commit with failing fsync: %v", err)
	}
	fail = false
	if err := s.Commit([]Op{Set("k3", "v3")}); !errors.Is(err, ErrStoreFailed) {
		t.Fatalf("writes after a failed fsync must stay refused: %v", err)
	}
	if s.Failed() == nil {
		t.Fatal("Failed() must report the cause")
	}
}

func TestTruncatedTailIsDropped(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	_ = s.Commit([]Op{Set("a", "1")})
	_ = s.Commit([]Op{Set("b", "2")})
	path := s.Path()
	_ = s.Close()
	// A torn write: half of a command at the end.
	appendBytes(t, path, "*3\r\n$3\r\nset\r\n$1\r\nc\r\n$10\r\n12")
	s = openT(t, ws, Options{})
	defer s.Close()
	for k, want := range map[string]string{"a": "1", "b": "2"} {
		if v, ok, _ := s.Get(k); !ok || v != want {
			t.Fatalf("%s = %q %v", k, v, ok)
		}
	}
	if _, ok, _ := s.Get("c"); ok {
		t.Fatal("the torn command must not be applied")
	}
}

func TestCorruptTailIsRepairedAndKept(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	_ = s.Commit([]Op{Set("a", "1")})
	path := s.Path()
	_ = s.Close()
	appendBytes(t, path, "garbage that is not RESP\r\n")
	s = openT(t, ws, Options{})
	defer s.Close()
	if v, ok, _ := s.Get("a"); !ok || v != "1" {
		t.Fatalf("a = %q %v after repair", v, ok)
	}
	copies, _ := filepath.Glob(path + ".corrupt-*")
	if len(copies) != 1 {
		t.Fatalf("expected a kept copy of the damaged file, found %v", copies)
	}
	if err := s.Commit([]Op{Set("b", "2")}); err != nil {
		t.Fatalf("repaired store must take writes: %v", err)
	}
}

func appendBytes(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
}

func TestMigrations(t *testing.T) {
	db, _ := buntdb.Open(":memory:")
	defer db.Close()
	_ = db.Update(func(tx *buntdb.Tx) error {
		_, _, err := tx.Set("old/key", "v", nil)
		return err
	})
	var applied []string
	list := []Migration{
		{To: 2, Name: "rename", Apply: func(tx *buntdb.Tx) error {
			v, err := tx.Get("old/key")
			if err != nil {
				return err
			}
			_, _ = tx.Delete("old/key")
			_, _, err = tx.Set("new/key", v, nil)
			applied = append(applied, "2")
			return err
		}},
		{To: 3, Name: "noop", Apply: func(tx *buntdb.Tx) error { applied = append(applied, "3"); return nil }},
	}
	logf := func(int, int, string) {}
	if err := runMigrations(db, list, 3, logf); err != nil {
		t.Fatal(err)
	}
	if strings.Join(applied, ",") != "2,3" {
		t.Fatalf("applied %v", applied)
	}
	_ = db.View(func(tx *buntdb.Tx) error {
		if v, _ := tx.Get(schemaKey); v != "3" {
			t.Errorf("schema = %q", v)
		}
		if v, _ := tx.Get("new/key"); v != "v" {
			t.Errorf("migrated value = %q", v)
		}
		return nil
	})
	// Running again is a no-op; a newer store is refused.
	if err := runMigrations(db, list, 3, logf); err != nil || len(applied) != 2 {
		t.Fatalf("rerun: %v %v", err, applied)
	}
	if err := runMigrations(db, list, 2, logf); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("older build on newer store: %v", err)
	}
}

func TestCompactionKeepsLiveData(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	for i := 0; i < 300; i++ {
		_ = s.Commit([]Op{Set("hot", strings.Repeat("x", 1000)+string(rune('a'+i%26)))})
	}
	_ = s.Commit([]Op{Set("keep", "me")})
	ttl := Set("ttl", "t")
	ttl.TTL = 3600e9
	_ = s.Commit([]Op{ttl})
	path := s.Path()
	_ = s.Close()
	before, _ := os.Stat(path)

	s = openT(t, ws, Options{CompactRatio: 2, CompactMinBytes: 1})
	defer s.Close()
	after, _ := os.Stat(path)
	if after.Size() >= before.Size()/10 {
		t.Fatalf("file not compacted: %d -> %d", before.Size(), after.Size())
	}
	if v, ok, _ := s.Get("keep"); !ok || v != "me" {
		t.Fatal("live key lost in compaction")
	}
	if v, _, _ := s.Get("hot"); !strings.HasSuffix(v, string(rune('a'+299%26))) {
		t.Fatal("compaction must keep the latest value")
	}
	if _, ok, _ := s.Get("ttl"); !ok {
		t.Fatal("expiring key lost in compaction")
	}
	if err := s.Commit([]Op{Set("after", "1")}); err != nil {
		t.Fatalf("commit after compaction: %v", err)
	}
}

func TestReserveEventSeqNeverRepeats(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	a, _ := s.ReserveEventSeq("main", 100)
	b, _ := s.ReserveEventSeq("main", 100)
	_ = s.Close()
	s = openT(t, ws, Options{})
	defer s.Close()
	c, _ := s.ReserveEventSeq("main", 100)
	if a != 0 || b != 100 || c != 200 {
		t.Fatalf("reservations %d %d %d", a, b, c)
	}
}
