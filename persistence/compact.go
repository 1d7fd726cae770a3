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

// maybeCompact rewrites the append-only store file when it has grown well
// past its live data. It runs at open, before any writer, and swaps files
// safely: the new file is fsynced before the rename and the directory after,
// so a crash at any point leaves either the old or the new complete file,
// and the new file ends with the commit marker of the last commit it holds.
func (s *Store) maybeCompact() error {
	ratio := s.opts.CompactRatio
	if ratio <= 0 {
		ratio = 4
	}
	minBytes := s.opts.CompactMinBytes
	if minBytes <= 0 {
		minBytes = 64 << 20
	}
	fi, err := os.Stat(s.path)
	if err != nil {
		return err
	}
	live := int64(0)
	_ = s.db.View(func(tx *buntdb.Tx) error {
		return tx.AscendKeys("*", func(k, v string) bool {
			live += int64(len(k) + len(v) + 32)
			return true
		})
	})
	if fi.Size() < minBytes || float64(fi.Size()) < ratio*float64(live) {
		return nil
	}
	return s.compact()
}

func (s *Store) compact() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	tmp := s.path + ".compact"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	now := time.Now()
	err = s.db.View(func(tx *buntdb.Tx) error {
		var werr error
		var buf []byte
		_ = tx.AscendKeys("*", func(k, v string) bool {
			if k == CommitKey {
				return true
			}
			op := Set(k, v)
			if ttl, err := tx.TTL(k); err == nil && ttl > 0 {
				op.TTL = ttl
			}
			buf = appendOp(buf[:0], op, now)
			_, werr = w.Write(buf)
			return werr == nil
		})
		return werr
	})
	// The rewritten file is one complete commit: it ends with the marker
	// of the last commit it holds.
	if err == nil {
		_, err = w.Write(appendMarker(nil, s.seq))
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	before, _ := os.Stat(s.path)
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
	after, _ := os.Stat(s.path)
	if after != nil {
		s.good = after.Size()
	}
	if before != nil && after != nil {
		s.log.Info("compacted store", "path", s.path, "before", before.Size(), "after", after.Size())
	}
	return nil
}
