package persistence

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/tidwall/buntdb"
)

// A workspace the process may not write (a read-only mount, a directory
// of another user) opens read-only: its records are read into memory and
// served, and every commit is refused with ErrStoreFailed and the reason.
// No lock is taken (a lock file cannot be created), nothing is repaired,
// migrated or compacted, and no recovery probe runs.

// readOnlyErr reports whether err means the workspace cannot be written.
func readOnlyErr(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
}

func (s *Store) openReadOnly(cause error) (*Store, error) {
	db, err := buntdb.Open(":memory:")
	if err != nil {
		return nil, err
	}
	if err := db.SetConfig(buntdb.Config{SyncPolicy: buntdb.Never, AutoShrinkDisabled: true}); err != nil {
		_ = db.Close()
		return nil, err
	}
	f, err := os.Open(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Nothing stored yet: an empty, read-only store.
	case err != nil:
		_ = db.Close()
		return nil, fmt.Errorf("open %s: %w", s.path, err)
	default:
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			_ = db.Close()
			return nil, err
		}
		scan, err := scanLog(io.NewSectionReader(f, 0, fi.Size()))
		if err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("read %s: %w", s.path, err)
		}
		// Only whole commits are read; a torn tail is left on disk as it is.
		if err := db.Load(io.NewSectionReader(f, 0, scan.Keep)); err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("load %s: %w", s.path, err)
		}
		s.seq = scan.LastSeq
	}
	s.db, s.readOnly = db, true
	s.failed = fmt.Errorf("%w: the workspace is read-only (%v): reads are served, writes are refused", ErrStoreFailed, cause)
	s.broken.Store(true)
	s.recountLive()
	s.log.Warn("workspace is read-only: serving reads, refusing writes", "dir", s.dir, "cause", cause)
	return s, nil
}
