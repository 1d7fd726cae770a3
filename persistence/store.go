// Package persistence is the durable store of a workspace: one buntdb file
// under <workspace>/.pmx-canvas/ with one key per record, written in group
// commits that are fsynced before any writer is told they succeeded.
//
// Guarantees and their limits:
//   - An acknowledged commit is on disk: Commit returns only after fsync.
//   - A commit is one buntdb transaction, appended with a single write(2), so
//     a killed process never leaves it half-applied. A torn tail from a
//     power loss is truncated to the last complete command on open.
//   - A failed fsync or write is fatal for the store: every later Commit
//     fails with ErrStoreFailed until the process restarts. (buntdb itself
//     ignores fsync errors, so the store fsyncs through its own descriptor.)
//   - A lock file keeps a second process from opening the same store.
package persistence

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/tidwall/buntdb"
)

// Dir is the workspace-relative directory the store lives in.
const Dir = ".pmx-canvas"

// FileName is the store file inside Dir.
const FileName = "canvas.buntdb"

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
	// NoSync skips fsync (benchmarks of the fsync effect only).
	NoSync bool
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

	db   *buntdb.DB
	lock *os.File

	// mu serialises commits with their fsync, so a commit never returns
	// before the bytes it wrote are synced.
	mu       sync.Mutex
	syncFile *os.File
	failed   error
	commits  uint64
}

// Open opens (creating if needed) the store of a workspace.
func Open(workspace string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	dir := filepath.Join(workspace, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	s := &Store{dir: dir, path: filepath.Join(dir, FileName), opts: opts, log: opts.Logger}
	if err := s.acquireLock(); err != nil {
		return nil, err
	}
	if err := s.openDB(); err != nil {
		s.releaseLock()
		return nil, err
	}
	if err := s.migrate(); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.sync(); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.maybeCompact(); err != nil {
		s.log.Warn("store compaction skipped", "err", err)
	}
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

func (s *Store) openDB() error {
	db, err := buntdb.Open(s.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		// A corrupt tail: keep a copy, cut the file at the last good
		// command, say so, and try once more.
		good, rerr := repairTail(s.path, s.log)
		if rerr != nil {
			return fmt.Errorf("open %s: %v (repair failed: %w)", s.path, err, rerr)
		}
		s.log.Error("store file had a corrupt tail; truncated to the last complete transaction",
			"path", s.path, "keptBytes", good, "cause", err)
		db, err = buntdb.Open(s.path)
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", s.path, err)
	}
	// We fsync ourselves (buntdb ignores fsync errors) and compact
	// ourselves (buntdb's shrink swaps the file under our descriptor).
	if err := db.SetConfig(buntdb.Config{SyncPolicy: buntdb.Never, AutoShrinkDisabled: true}); err != nil {
		_ = db.Close()
		return err
	}
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		_ = db.Close()
		return fmt.Errorf("open %s for fsync: %w", s.path, err)
	}
	s.db, s.syncFile = db, f
	return nil
}

// Close flushes and closes the store and releases the workspace lock.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	if s.db != nil {
		if s.failed == nil && !s.opts.NoSync {
			errs = append(errs, s.syncFile.Sync())
		}
		errs = append(errs, s.db.Close(), s.syncFile.Close())
		s.db = nil
	}
	s.releaseLock()
	return errors.Join(errs...)
}

// Failed returns the fatal error that stopped writes, or nil.
func (s *Store) Failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// Op is one write of a commit: a set (Value non-nil) or a delete.
type Op struct {
	Key   string
	Value *string
	// TTL, when positive, makes the key expire.
	TTL time.Duration
}

// Set returns a set op.
func Set(key, value string) Op { return Op{Key: key, Value: &value} }

// Delete returns a delete op.
func Delete(key string) Op { return Op{Key: key} }

// Commit applies ops in order in one transaction and fsyncs. When it returns
// nil the ops are durable. Any failure is fatal for the store.
func (s *Store) Commit(ops []Op) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed != nil {
		return s.failed
	}
	if s.db == nil {
		return fmt.Errorf("%w: store is closed", ErrStoreFailed)
	}
	err := s.db.Update(func(tx *buntdb.Tx) error {
		for _, op := range ops {
			if op.Value == nil {
				if _, err := tx.Delete(op.Key); err != nil && !errors.Is(err, buntdb.ErrNotFound) {
					return err
				}
				continue
			}
			var so *buntdb.SetOptions
			if op.TTL > 0 {
				so = &buntdb.SetOptions{Expires: true, TTL: op.TTL}
			}
			if _, _, err := tx.Set(op.Key, *op.Value, so); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = s.sync()
	}
	if err != nil {
		s.failed = fmt.Errorf("%w: %v", ErrStoreFailed, err)
		s.log.Error("STORE FAILED: refusing further writes until restart", "path", s.path, "err", err)
		return s.failed
	}
	s.commits++
	return nil
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
	if err := s.syncFile.Sync(); err != nil {
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
