// Package persistence is the durable store of a workspace: one append-only
// log file under <workspace>/.pmx-canvas/ with one key per record, written
// in group commits that are fsynced before any writer is told they
// succeeded. buntdb holds the records in memory (ordered keys, expiry) and
// reads the log's format; the store writes the log itself, so it controls
// exactly what a commit puts on disk.
//
// Guarantees and their limits:
//   - An acknowledged commit is on disk: Commit returns only after fsync.
//   - A commit is atomic on disk. Its commands are appended as one buffer
//     that ends with a commit marker (set ~commit <seq>); on open, whatever
//     follows the last complete marker (an unfinished commit cut by a crash,
//     however short the write was) is dropped and the file truncated there,
//     so after any crash a commit is there whole or not at all. A file
//     without any marker (written before markers existed) is kept up to its
//     last complete command and gets a marker on open.
//   - A failed fsync or write stops the store: every later Commit fails
//     with ErrStoreFailed while the disk fails. A recovery loop probes it
//     with backoff (cut what the failed write left after the last durable
//     commit, write and sync an empty commit); when a probe succeeds,
//     commits resume, with no restart.
//   - A lock file keeps a second process from opening the same store.
package persistence

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tidwall/buntdb"
)

// Dir is the workspace-relative directory the store lives in.
const Dir = ".pmx-canvas"

// FileName is the store file inside Dir.
const FileName = "canvas.buntdb"

// CommitKey is the key of the commit marker that closes every commit.
const CommitKey = "~commit"

// ErrStoreFailed wraps the first fatal error; once set, writes are refused.
var ErrStoreFailed = errors.New("store failed")

// ErrLocked reports that another process holds the workspace.
var ErrLocked = errors.New("workspace store is locked by another process")

// Options configure Open.
type Options struct {
	Logger *slog.Logger
	// SyncHook, when set, runs before every fsync; an error it returns is
	// treated as an fsync failure. Tests use it to inject disk faults.
	SyncHook func() error
	// WrapWriter, when set, wraps the log file for every commit write.
	// Tests use it to make writes short, slow or failing. When nil, the
	// PMX_FAULT_WRITE environment variable may install one (see fault.go).
	WrapWriter func(io.Writer) io.Writer
	// NoSync skips fsync (benchmarks of the fsync effect only).
	NoSync bool
	// RecoverFirst and RecoverMax are the backoff of the probes that
	// resume writes after a storage error: the first after RecoverFirst,
	// doubling up to RecoverMax (0: 100 ms and 5 s).
	RecoverFirst, RecoverMax time.Duration
	// CompactRatio triggers compaction on open when the file is this many
	// times larger than its live data (and over CompactMinBytes). 0 = 4.
	CompactRatio    float64
	CompactMinBytes int64
}

// Store is an open workspace store. It is safe for concurrent use.
type Store struct {
	dir  string
	path string
	opts Options
	log  *slog.Logger

	db   *buntdb.DB // in memory; the log file is the durable copy
	lock *os.File

	// mu serialises commits with their write and fsync, so a commit never
	// returns before the bytes it wrote are synced.
	mu     sync.Mutex
	file   *os.File  // the log, opened for append
	w      io.Writer // file, or a fault-injecting wrapper of it
	buf    []byte
	failed error
	// seq is the sequence of the last commit on disk (its marker).
	seq uint64
	// good is the log's length after the last durable commit: a failed
	// write or fsync may leave anything after it, so recovery cuts there.
	good int64
	// broken mirrors failed != nil for readers that must not wait on mu.
	broken atomic.Bool
	// probing is set while a recovery loop runs.
	probing atomic.Bool
	// live estimates the bytes of the live records (keys, values and a
	// per-record overhead), kept by apply; compaction compares the log
	// with it. compacting is set while an online compaction runs;
	// compactions counts them (tests).
	live        int64
	compacting  atomic.Bool
	compactions int
	cmu         sync.Mutex // one compaction at a time
	// readOnly is set when the workspace cannot be written (readonly.go).
	readOnly bool

	// queue holds the commits waiting for the lock holder (qmu guards
	// it): whoever takes mu next writes all of them with one write and
	// one fsync, so the commits of every canvas share a sync (store-level
	// group commit) instead of queueing one fsync each behind mu.
	qmu     sync.Mutex
	queue   []*commitReq
	leading bool // a caller is writing a batch; the others wait to be told
}

// commitReq is one Commit waiting in the queue.
type commitReq struct {
	ops []Op
	seq uint64
	err error
	// wake tells a waiting caller its commit was written (false) or that
	// it is to write the next batch (true).
	wake chan bool
}

// Open opens (creating if needed) the store of a workspace.
func Open(workspace string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if opts.WrapWriter == nil {
		wrap, err := faultFromEnv(os.Getenv("PMX_FAULT_WRITE"))
		if err != nil {
			return nil, err
		}
		opts.WrapWriter = wrap
	}
	dir := filepath.Join(workspace, Dir)
	s := &Store{dir: dir, path: filepath.Join(dir, FileName), opts: opts, log: opts.Logger}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if readOnlyErr(err) {
			return s.openReadOnly(err)
		}
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	if err := s.acquireLock(); err != nil {
		if readOnlyErr(err) {
			return s.openReadOnly(err)
		}
		return nil, err
	}
	if err := s.openDB(); err != nil {
		s.releaseLock()
		return nil, err
	}
	// migrate commits the schema record, so every open ends the file with
	// a commit marker (a file from before markers gets its first here).
	if err := s.migrate(); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.maybeCompact(); err != nil {
		s.log.Warn("store compaction skipped", "err", err)
	}
	s.removeOrphanBlobs()
	return s, nil
}

// Path returns the store file path.
func (s *Store) Path() string { return s.path }

func (s *Store) acquireLock() error {
	f, err := os.OpenFile(filepath.Join(s.dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		_ = f.Close()
		holder := string(b[:n])
		if holder != "" {
			return fmt.Errorf("%w (pid %s): %s", ErrLocked, holder, s.dir)
		}
		return fmt.Errorf("%w: %s", ErrLocked, s.dir)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())), 0)
	s.lock = f
	return nil
}

func (s *Store) releaseLock() {
	if s.lock != nil {
		_ = syscall.Flock(int(s.lock.Fd()), syscall.LOCK_UN)
		_ = s.lock.Close()
		s.lock = nil
	}
}

// openDB reads the log into memory. Before loading it cuts the file after
// the last complete commit (see scanLog): an unfinished commit is dropped
// whole, and damage (bytes that are not commands) is cut after a copy of
// the whole file is kept next to it.
func (s *Store) openDB() error {
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", s.path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	if fi.Size() == 0 {
		syncDir(s.dir) // a new file: make its directory entry durable
	}
	scan, err := scanLog(io.NewSectionReader(f, 0, fi.Size()))
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("read %s: %w", s.path, err)
	}
	if scan.Keep < fi.Size() {
		if err := s.cutTail(f, fi.Size(), scan); err != nil {
			_ = f.Close()
			return err
		}
	}
	db, err := buntdb.Open(":memory:")
	if err != nil {
		_ = f.Close()
		return err
	}
	if err := db.SetConfig(buntdb.Config{SyncPolicy: buntdb.Never, AutoShrinkDisabled: true}); err != nil {
		_ = db.Close()
		_ = f.Close()
		return err
	}
	if err := db.Load(io.NewSectionReader(f, 0, scan.Keep)); err != nil {
		_ = db.Close()
		_ = f.Close()
		return fmt.Errorf("load %s: %w", s.path, err)
	}
	s.db, s.file, s.seq, s.good = db, f, scan.LastSeq, scan.Keep
	s.recountLive()
	s.w = io.Writer(f)
	if s.opts.WrapWriter != nil {
		s.w = s.opts.WrapWriter(f)
	}
	return nil
}

// cutTail truncates the log to scan.Keep, keeping a copy first when the
// dropped bytes are damage rather than an unfinished commit.
func (s *Store) cutTail(f *os.File, size int64, scan logScan) error {
	if scan.Damage != nil {
		backup := fmt.Sprintf("%s.corrupt-%d", s.path, time.Now().Unix())
		if err := copyFile(s.path, backup); err != nil {
			return fmt.Errorf("keep a copy before repair: %w", err)
		}
		s.log.Error("store file was damaged; truncated to the last complete commit",
			"path", s.path, "keptBytes", scan.Keep, "droppedBytes", size-scan.Keep, "copy", backup, "cause", scan.Damage)
	} else {
		s.log.Warn("store file ended in an unfinished commit (the process stopped while writing it); dropped it",
			"path", s.path, "keptBytes", scan.Keep, "droppedBytes", size-scan.Keep, "lastCommit", scan.LastSeq)
	}
	if err := f.Truncate(scan.Keep); err != nil {
		return fmt.Errorf("truncate %s: %w", s.path, err)
	}
	return f.Sync()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// Close flushes and closes the store and releases the workspace lock.
func (s *Store) Close() error {
	s.cmu.Lock() // a running compaction finishes first
	defer s.cmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	if s.db != nil {
		if s.failed == nil && !s.opts.NoSync {
			errs = append(errs, s.file.Sync())
		}
		errs = append(errs, s.db.Close())
		if s.file != nil {
			errs = append(errs, s.file.Close())
		}
		s.db = nil
	}
	s.releaseLock()
	return errors.Join(errs...)
}

// Failed returns the error that stops writes, or nil. It does not wait
// for a commit in progress.
func (s *Store) Failed() error {
	if !s.broken.Load() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// fail records a storage error: writes are refused from now on, and a
// recovery loop probes the disk until a verified commit succeeds. The
// caller holds mu.
func (s *Store) fail(err error) error {
	s.failed = fmt.Errorf("%w: %v", ErrStoreFailed, err)
	s.broken.Store(true)
	s.log.Error("STORE FAILED: refusing writes until a probe commit succeeds", "path", s.path, "err", err)
	if !s.readOnly && s.probing.CompareAndSwap(false, true) {
		go s.recoverLoop()
	}
	return s.failed
}

// Default recovery backoff (Options.RecoverFirst, RecoverMax).
const (
	defaultRecoverFirst = 100 * time.Millisecond
	defaultRecoverMax   = 5 * time.Second
)

// recoverLoop probes the store with backoff until it recovers or closes.
func (s *Store) recoverLoop() {
	defer s.probing.Store(false)
	wait, most := s.opts.RecoverFirst, s.opts.RecoverMax
	if wait <= 0 {
		wait = defaultRecoverFirst
	}
	if most <= 0 {
		most = defaultRecoverMax
	}
	for {
		time.Sleep(wait)
		s.mu.Lock()
		if s.db == nil || s.failed == nil {
			s.mu.Unlock()
			return
		}
		err := s.probe()
		if err == nil {
			s.failed = nil
			s.broken.Store(false)
			s.log.Info("store recovered: a probe commit was written and synced; writes resume", "path", s.path)
		}
		s.mu.Unlock()
		if err == nil {
			return
		}
		s.log.Warn("store still failing", "path", s.path, "err", err, "retry in", wait)
		wait = min(2*wait, most)
	}
}

// probe cuts whatever a failed write left after the last durable commit
// and writes an empty commit (a marker) through the same path as every
// commit: when it is synced, the disk takes writes again. The caller
// holds mu.
func (s *Store) probe() error {
	if err := s.file.Truncate(s.good); err != nil {
		return fmt.Errorf("cut the failed tail: %w", err)
	}
	buf := appendMarker(nil, s.seq+1)
	if err := s.write(buf); err != nil {
		return err
	}
	if err := s.sync(); err != nil {
		return err
	}
	if err := s.apply(nil, s.seq+1); err != nil {
		return err
	}
	s.seq++
	s.good += int64(len(buf))
	return nil
}

// Op is one write of a commit: a set (Value non-nil) or a delete.
type Op struct {
	Key   string
	Value *string
	// TTL, when positive, makes the key expire.
	TTL time.Duration
	// blob, when set (SetBlob), is written to the key's blob file and
	// Value is the stub naming it.
	blob []byte
}

// Set returns a set op.
func Set(key, value string) Op { return Op{Key: key, Value: &value} }

// Delete returns a delete op.
func Delete(key string) Op { return Op{Key: key} }

// Commit applies ops in order as one commit and fsyncs. When it returns nil
// the ops are durable; after a crash at any point the commit is on disk
// whole or not at all. Any failure is fatal for the store.
func (s *Store) Commit(ops []Op) error {
	_, err := s.CommitSeq(ops)
	return err
}

// CommitSeq is Commit that also returns the commit's sequence number.
//
// Commits from many goroutines (each canvas's Journal) are grouped: a
// caller queues its commit, then takes the write lock; if an earlier lock
// holder already wrote it, it returns; otherwise it writes every queued
// commit, each closed by its own marker, in one write(2) and one fsync.
// Each commit stays atomic on disk (a crash keeps the commits before the
// cut whole and drops the rest), and each caller returns only after the
// fsync that covers its commit.
func (s *Store) CommitSeq(ops []Op) (uint64, error) {
	req := &commitReq{ops: ops, wake: make(chan bool, 1)}
	s.qmu.Lock()
	s.queue = append(s.queue, req)
	if s.leading {
		s.qmu.Unlock()
		if lead := <-req.wake; !lead {
			return req.seq, req.err // written by the leader
		}
		s.qmu.Lock() // handed the lead: write what has queued since
	} else {
		s.leading = true
	}
	batch := s.queue
	s.queue = nil
	s.qmu.Unlock()

	s.mu.Lock()
	s.commitBatch(batch)
	s.mu.Unlock()

	// Hand the lead to the first caller that queued meanwhile, then tell
	// the batch they are done (waking them directly: no convoy on mu).
	s.qmu.Lock()
	if len(s.queue) > 0 {
		s.queue[0].wake <- true
	} else {
		s.leading = false
	}
	s.qmu.Unlock()
	for _, r := range batch {
		if r != req {
			r.wake <- false
		}
	}
	return req.seq, req.err
}

// commitBatch writes, syncs and applies the queued commits in order; the
// caller holds mu. A failure fails them all and the store.
func (s *Store) commitBatch(batch []*commitReq) {
	fail := func(err error) {
		for _, r := range batch {
			r.err = err
		}
	}
	if s.failed != nil {
		fail(s.failed)
		return
	}
	if s.db == nil {
		fail(fmt.Errorf("%w: store is closed", ErrStoreFailed))
		return
	}
	if err := s.writeBlobs(batch); err != nil {
		fail(s.fail(err))
		return
	}
	replaced := s.replacedBlobs(batch)
	now := time.Now()
	buf := s.buf[:0]
	for i, r := range batch {
		for _, op := range r.ops {
			buf = appendOp(buf, op, now)
		}
		buf = appendMarker(buf, s.seq+uint64(i)+1)
	}
	err := s.write(buf)
	if cap(buf) <= 1<<20 {
		s.buf = buf // reuse moderate buffers; let huge ones go
	}
	if err == nil {
		err = s.sync()
	}
	if err == nil {
		s.good += int64(len(buf)) // durable: a recovery never cuts it
	}
	for i := 0; err == nil && i < len(batch); i++ {
		seq := s.seq + 1
		if err = s.apply(batch[i].ops, seq); err == nil {
			s.seq = seq
			batch[i].seq = seq
		}
	}
	if err != nil {
		s.fail(err)
		for _, r := range batch {
			if r.seq == 0 {
				r.err = s.failed
			}
		}
		return
	}
	for _, name := range replaced {
		_ = os.Remove(s.blobPath(name)) // an orphan left here goes on the next open
	}
	if s.dueForCompaction() {
		s.compactInBackground()
	}
}

func (s *Store) write(buf []byte) error {
	n, err := s.w.Write(buf)
	if err == nil && n < len(buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// apply makes a durable commit visible to readers, and keeps the live
// size.
func (s *Store) apply(ops []Op, seq uint64) error {
	return s.db.Update(func(tx *buntdb.Tx) error {
		for _, op := range ops {
			if op.Value == nil {
				old, err := tx.Delete(op.Key)
				if err == nil {
					s.live -= recordSize(op.Key, old)
				} else if !errors.Is(err, buntdb.ErrNotFound) {
					return err
				}
				continue
			}
			var so *buntdb.SetOptions
			if op.TTL > 0 {
				so = &buntdb.SetOptions{Expires: true, TTL: op.TTL}
			}
			old, replaced, err := tx.Set(op.Key, *op.Value, so)
			if err != nil {
				return err
			}
			if replaced {
				s.live -= recordSize(op.Key, old)
			}
			s.live += recordSize(op.Key, *op.Value)
		}
		_, _, err := tx.Set(CommitKey, strconv.FormatUint(seq, 10), nil)
		return err
	})
}

// recountLive sums the live size from the records in memory.
func (s *Store) recountLive() {
	s.live = 0
	_ = s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendKeys("*", func(k, v string) bool {
			s.live += recordSize(k, v)
			return true
		})
	})
}

// recordSize is a record's share of the live size.
func recordSize(k, v string) int64 { return int64(len(k) + len(v) + 32) }

// LastCommit returns the sequence of the last durable commit.
func (s *Store) LastCommit() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

func (s *Store) sync() error {
	if s.opts.SyncHook != nil {
		if err := s.opts.SyncHook(); err != nil {
			return fmt.Errorf("fsync: %w", err)
		}
	}
	if s.opts.NoSync {
		return nil
	}
	if err := s.file.Sync(); err != nil {
		return fmt.Errorf("fsync: %w", err)
	}
	return nil
}

// Get returns the value of key.
func (s *Store) Get(key string) (string, bool, error) {
	var val string
	err := s.db.View(func(tx *buntdb.Tx) error {
		v, err := tx.Get(key)
		val = v
		return err
	})
	if errors.Is(err, buntdb.ErrNotFound) {
		return "", false, nil
	}
	return val, err == nil, err
}

// Scan calls fn for every key with prefix, in key order.
func (s *Store) Scan(prefix string, fn func(key, value string) bool) error {
	return s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendGreaterOrEqual("", prefix, func(k, v string) bool {
			if len(k) < len(prefix) || k[:len(prefix)] != prefix {
				return false
			}
			return fn(k, v)
		})
	})
}
