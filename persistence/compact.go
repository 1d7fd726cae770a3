package persistence

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tidwall/buntdb"
)

// Compaction rewrites the append-only log when it has grown well past its
// live data (CompactRatio times, and over CompactMinBytes): at open, and
// online, started by the commit that crosses the threshold. Online it
// holds the write lock only at its two ends:
//
//  1. under the lock, copy every live record (an in-memory copy) and note
//     where the log ends;
//  2. without the lock, write the copy and the last commit's marker to a
//     new file and fsync it, while commits go on appending to the old log;
//  3. under the lock, append the commits made meanwhile (the old log's
//     bytes after the noted end, each closed by its marker), fsync, rename
//     the new file over the old, fsync the directory.
//
// A crash at any point leaves either the old or the new complete file.

func (s *Store) compactThresholds() (ratio float64, minBytes int64) {
	ratio = s.opts.CompactRatio
	if ratio <= 0 {
		ratio = 4
	}
	minBytes = s.opts.CompactMinBytes
	if minBytes <= 0 {
		minBytes = 64 << 20
	}
	return ratio, minBytes
}

// dueForCompaction reports whether the log has outgrown its live data. The
// caller holds mu.
func (s *Store) dueForCompaction() bool {
	ratio, minBytes := s.compactThresholds()
	return s.good >= minBytes && float64(s.good) >= ratio*float64(s.live)
}

// maybeCompact compacts at open, when due.
func (s *Store) maybeCompact() error {
	s.mu.Lock()
	due := s.dueForCompaction()
	s.mu.Unlock()
	if !due {
		return nil
	}
	return s.compact()
}

// compactInBackground starts an online compaction unless one runs. The
// caller holds mu.
func (s *Store) compactInBackground() {
	if !s.compacting.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.compacting.Store(false)
		if err := s.compact(); err != nil {
			s.log.Warn("store compaction failed; the log stays as it is", "path", s.path, "err", err)
		}
	}()
}

type liveRecord struct {
	key, value string
	ttl        time.Duration
}

// compact rewrites the log (see the package comment above). Compactions
// run one at a time (cmu): they share the temporary file.
func (s *Store) compact() error {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	// 1. Copy the live records and note where the log ends.
	s.mu.Lock()
	if s.db == nil || s.failed != nil {
		s.mu.Unlock()
		return nil
	}
	var records []liveRecord
	_ = s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendKeys("*", func(k, v string) bool {
			if k == CommitKey {
				return true
			}
			r := liveRecord{key: k, value: v}
			if ttl, err := tx.TTL(k); err == nil && ttl > 0 {
				r.ttl = ttl
			}
			records = append(records, r)
			return true
		})
	})
	from, seq := s.good, s.seq
	s.mu.Unlock()

	// 2. Write them and the last commit's marker to a new file.
	tmp := s.path + ".compact"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := writeRecords(f, records, seq); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}

	// 3. Append what was committed meanwhile, then swap the files.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil || s.failed != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return nil
	}
	if s.good > from {
		if _, err := io.Copy(f, io.NewSectionReader(s.file, from, s.good-from)); err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
			return fmt.Errorf("copy the commits made during compaction: %w", err)
		}
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	size, _ := f.Seek(0, io.SeekCurrent)
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	before := s.good
	if err := os.Rename(tmp, s.path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("swap compacted file: %w", err)
	}
	syncDir(filepath.Dir(s.path))
	nf, err := os.OpenFile(s.path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return s.fail(fmt.Errorf("reopen after compaction: %v", err))
	}
	_ = s.file.Close()
	s.file, s.w = nf, io.Writer(nf)
	if s.opts.WrapWriter != nil {
		s.w = s.opts.WrapWriter(nf)
	}
	s.good = size
	s.compactions++
	s.log.Info("compacted store", "path", s.path, "before", before, "after", size)
	return nil
}

// writeRecords writes records as one complete commit closed by seq's
// marker, and fsyncs.
func writeRecords(f *os.File, records []liveRecord, seq uint64) error {
	w := bufio.NewWriterSize(f, 1<<20)
	now := time.Now()
	var buf []byte
	for _, r := range records {
		op := Set(r.key, r.value)
		op.TTL = r.ttl
		buf = appendOp(buf[:0], op, now)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if _, err := w.Write(appendMarker(nil, seq)); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}
