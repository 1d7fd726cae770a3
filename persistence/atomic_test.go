package persistence

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/buntdb"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
)

// commitLog is a store file built from known commits: sizes[i] is the
// file length once commit i is on disk (sizes[0]: after Open's own commit)
// and states[i] the records then (without the marker and schema records).
type commitLog struct {
	data   []byte
	sizes  []int64
	states []map[string]string
}

// multiRecordCommits are canvas commits of several records each: adds,
// a move plus a delete plus an add, more adds (each with its meta record).
func multiRecordCommits() [][]Op {
	st := canvas.NewState()
	var out [][]Op
	step := func(f func(tx *canvas.Tx)) {
		tx := canvas.Begin(st, canvas.DefaultEnv())
		f(tx)
		next, ch, _ := tx.Commit()
		out = append(out, ChangeOps("main", ch, next))
		st = next
	}
	node := func(tx *canvas.Tx, id string, x float64) {
		tx.PutNode(&canvas.Node{ID: id, Type: "markdown", Position: canvas.Point{X: x}, Size: canvas.Size{Width: 10, Height: 10},
			Data: map[string]any{"title": id, "content": strings.Repeat(id, 8)}})
	}
	step(func(tx *canvas.Tx) { node(tx, "a1", 1); node(tx, "a2", 2); node(tx, "a3", 3) })
	step(func(tx *canvas.Tx) {
		n, _ := tx.Node("a1")
		m := *n
		m.Position.X = 100
		tx.PutNode(&m)
		tx.DeleteNode("a2")
		node(tx, "b1", 4)
	})
	step(func(tx *canvas.Tx) { node(tx, "c1", 5); node(tx, "c2", 6) })
	return out
}

func buildCommitLog(t testing.TB, commits [][]Op) commitLog {
	t.Helper()
	ws := t.TempDir()
	s, err := Open(ws, Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var log commitLog
	record := func() {
		fi, err := os.Stat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		log.sizes = append(log.sizes, fi.Size())
		log.states = append(log.states, dumpStore(t, s))
	}
	record()
	for _, ops := range commits {
		if err := s.Commit(ops); err != nil {
			t.Fatal(err)
		}
		record()
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if log.data, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	return log
}

// dumpStore returns every record but the marker and the schema record.
func dumpStore(t testing.TB, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendKeys("*", func(k, v string) bool {
			if k != CommitKey && k != schemaKey {
				out[k] = v
			}
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// openCut writes the first cut bytes of data as a workspace's store file,
// opens it and returns its records.
func openCut(t testing.TB, ws string, data []byte, cut int64) (map[string]string, *Store) {
	t.Helper()
	dir := filepath.Join(ws, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ws, Options{Logger: quiet()})
	if err != nil {
		t.Fatalf("open after a cut at %d: %v", cut, err)
	}
	return dumpStore(t, s), s
}

// wantAtCut is the state a cut at offset leaves: every commit that ended at
// or before it, none after.
func (l commitLog) wantAtCut(cut int64) (int, map[string]string) {
	k := 0
	for i, end := range l.sizes {
		if end <= cut {
			k = i
		}
	}
	return k, l.states[k]
}

func checkCut(t testing.TB, l commitLog, ws string, cut int64) {
	t.Helper()
	got, s := openCut(t, ws, l.data, cut)
	defer s.Close()
	k, want := l.wantAtCut(cut)
	if !maps.Equal(got, want) {
		t.Fatalf("cut at byte %d (commits end at %v): want exactly the first %d commits, got a different set of records:\n%s",
			cut, l.sizes, k, diffRecords(want, got))
	}
	// The layout derived from what is on disk hands out fresh ordinals.
	st, _, err := s.LoadCanvas("main")
	if err != nil {
		t.Fatal(err)
	}
	if st.NextOrd <= maxOrd(st) {
		t.Fatalf("cut at %d: next ordinal %d reuses one on disk (max %d)", cut, st.NextOrd, maxOrd(st))
	}
	// The store takes writes after the repair, and they survive a reopen.
	if err := s.Commit([]Op{Set("after/cut", "1")}); err != nil {
		t.Fatalf("commit after a cut at %d: %v", cut, err)
	}
}

func diffRecords(want, got map[string]string) string {
	var b strings.Builder
	keys := slices.Sorted(maps.Keys(want))
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		w, wok := want[k]
		g, gok := got[k]
		switch {
		case !gok:
			fmt.Fprintf(&b, "  missing %s\n", k)
		case !wok:
			fmt.Fprintf(&b, "  extra   %s\n", k)
		case w != g:
			fmt.Fprintf(&b, "  differs %s\n", k)
		}
	}
	return b.String()
}

// A crash can cut the file at any byte of a commit's write: at every one,
// the commit is there whole or not at all, and the commits before it are
// all there.
func TestEveryCutPointOfAMultiRecordCommit(t *testing.T) {
	l := buildCommitLog(t, multiRecordCommits())
	ws := t.TempDir()
	// Commit 2 (a move, a delete, an add and the meta record), every byte.
	from, to := l.sizes[1], l.sizes[2]
	if n := len(multiRecordCommits()[1]); n < 4 {
		t.Fatalf("commit under test has %d records; want several", n)
	}
	for cut := from; cut <= to; cut++ {
		checkCut(t, l, ws, cut)
	}
	// And the edges of every other commit.
	for _, end := range l.sizes {
		for _, cut := range []int64{end - 1, end, end + 1} {
			if cut >= 0 && cut <= int64(len(l.data)) {
				checkCut(t, l, ws, cut)
			}
		}
	}
}

// FuzzCommitCutPoint cuts a file of several multi-record commits at a
// fuzzed offset: the store opens with exactly the commits that ended
// before the cut.
func FuzzCommitCutPoint(f *testing.F) {
	l := buildCommitLog(f, multiRecordCommits())
	for _, end := range l.sizes {
		f.Add(uint(end))
		f.Add(uint(end) + 7)
	}
	f.Fuzz(func(t *testing.T, cut uint) {
		checkCut(t, l, t.TempDir(), int64(cut%uint(len(l.data)+1)))
	})
}

// A file written before commit markers existed (plain buntdb) opens with
// every record, gets a marker, and from then on a torn commit is dropped.
func TestStoreWithoutMarkersOpensWithAllData(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, Dir)
	_ = os.MkdirAll(dir, 0o755)
	db, err := buntdb.Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i := 0; i < 20; i++ {
		k, v := fmt.Sprintf("canvas/main/node/n%d", i), fmt.Sprintf(`{"id":"n%d","ord":%d}`, i, i+1)
		want[k] = v
		_ = db.Update(func(tx *buntdb.Tx) error { _, _, err := tx.Set(k, v, nil); return err })
	}
	_ = db.Update(func(tx *buntdb.Tx) error { _, err := tx.Delete("canvas/main/node/n3"); return err })
	delete(want, "canvas/main/node/n3")
	_ = db.Close()

	s := openT(t, ws, Options{})
	if got := dumpStore(t, s); !maps.Equal(got, want) {
		t.Fatalf("an old store lost records:\n%s", diffRecords(want, got))
	}
	st, _, _ := s.LoadCanvas("main")
	if st.NextOrd != 21 {
		t.Fatalf("next ordinal %d; want 21 (max on disk + 1, no meta record)", st.NextOrd)
	}
	path := s.Path()
	_ = s.Close()
	data, _ := os.ReadFile(path)
	if scan, _ := scanLog(strings.NewReader(string(data))); scan.Markers == 0 || scan.Keep != int64(len(data)) {
		t.Fatalf("an opened old store must end with a commit marker: %+v, %d bytes", scan, len(data))
	}
	// A commit cut short after the migration is dropped whole.
	torn := appendCommand(nil, "set", "canvas/main/node/x", "{}")
	torn = appendCommand(torn, "set", "canvas/main/node/y", "{}")
	appendBytes(t, path, string(torn))
	s = openT(t, ws, Options{})
	defer s.Close()
	if got := dumpStore(t, s); !maps.Equal(got, want) {
		t.Fatalf("an unclosed commit was applied:\n%s", diffRecords(want, got))
	}
}

// A write that fails part way (a full disk) fails the store and leaves
// nothing of its commit after a reopen.
func TestFailedWriteLeavesNoPartOfItsCommit(t *testing.T) {
	ws := t.TempDir()
	fail := false
	s := openT(t, ws, Options{WrapWriter: func(w io.Writer) io.Writer {
		return writerFunc(func(p []byte) (int, error) {
			if fail {
				return (&FaultWriter{W: w, FailAt: 0.5}).Write(p)
			}
			return w.Write(p)
		})
	}})
	commits := multiRecordCommits()
	if err := s.Commit(commits[0]); err != nil {
		t.Fatal(err)
	}
	want := dumpStore(t, s)
	fail = true
	if err := s.Commit(commits[1]); !errors.Is(err, ErrStoreFailed) {
		t.Fatalf("a failed write must fail the store: %v", err)
	}
	if got := dumpStore(t, s); !maps.Equal(got, want) {
		t.Fatalf("a failed commit became visible:\n%s", diffRecords(want, got))
	}
	_ = s.Close()
	s = openT(t, ws, Options{})
	defer s.Close()
	if got := dumpStore(t, s); !maps.Equal(got, want) {
		t.Fatalf("half of a failed commit is on disk:\n%s", diffRecords(want, got))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// A compacted file is one complete commit; a torn commit after it is
// dropped, and the commit sequence continues.
func TestCompactedFileKeepsTheMarkerRule(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	for i := 0; i < 50; i++ {
		_ = s.Commit([]Op{Set("hot", strings.Repeat("x", 500)), Set(fmt.Sprintf("k%d", i), "v")})
	}
	seq := s.LastCommit()
	_ = s.Close()
	s = openT(t, ws, Options{CompactRatio: 2, CompactMinBytes: 1})
	if s.LastCommit() != seq+1 {
		t.Fatalf("sequence after compaction %d; want %d", s.LastCommit(), seq+1)
	}
	want := dumpStore(t, s)
	path := s.Path()
	_ = s.Close()
	appendBytes(t, path, string(appendCommand(nil, "set", "k0", "torn")))
	s = openT(t, ws, Options{})
	defer s.Close()
	if got := dumpStore(t, s); !maps.Equal(got, want) {
		t.Fatalf("after compaction, an unclosed commit was applied:\n%s", diffRecords(want, got))
	}
}

// Ordinals come from the records too: a meta record behind its records
// (left by a torn commit before markers existed) never makes the layout
// hand out an ordinal a stored record holds.
func TestNextOrdinalIsDerivedFromRecords(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	defer s.Close()
	_ = s.Commit([]Op{
		Set(MetaKey("main"), `{"revision":3,"nextOrd":2,"populated":true}`),
		Set(NodeKey("main", "a"), `{"id":"a","type":"markdown","ord":1}`),
		Set(NodeKey("main", "b"), `{"id":"b","type":"markdown","ord":7}`),
		Set(SnapshotMetaKey("main", "s"), `{"id":"s","name":"s","ord":9}`),
	})
	st, _, err := s.LoadCanvas("main")
	if err != nil {
		t.Fatal(err)
	}
	if st.NextOrd != 10 {
		t.Fatalf("next ordinal %d; want 10", st.NextOrd)
	}
}

// Timeline numbers too: a counter record behind its rows never makes a
// row number come round again.
func TestTimelineSeqIsDerivedFromRows(t *testing.T) {
	ws := t.TempDir()
	s := openT(t, ws, Options{})
	defer s.Close()
	_ = s.Commit([]Op{
		AxSet(AxSeqKey("main"), AxSeq{Events: 1, Evidence: 0, Steering: 9}),
		AxPutRow("main", AxEvent, 4, map[string]any{"id": "e4", "seq": 4}),
		AxPutRow("main", AxEvidence, 2, map[string]any{"id": "d2", "seq": 2}),
		AxPutRow("main", AxSteering, 3, map[string]any{"id": "s3", "seq": 3}),
	})
	ax, err := s.LoadAX("main")
	if err != nil {
		t.Fatal(err)
	}
	if want := (AxSeq{Events: 4, Evidence: 2, Steering: 9}); ax.Seq != want {
		t.Fatalf("timeline counters %+v; want %+v", ax.Seq, want)
	}
}
