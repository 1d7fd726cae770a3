package persistence

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tidwall/buntdb"
)

// maybeCompact rewrites the append-only store file when it has grown well
// past its live data. It runs at open, before any writer, and swaps files
// safely: the new file is fsynced before the rename and the directory after,
// so a crash at any point leaves either the old or the new complete file.
// (buntdb's own shrink renames an unsynced file and is disabled.)
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
	tmp := s.path + ".compact"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = s.db.View(func(tx *buntdb.Tx) error {
		var werr error
		_ = tx.AscendKeys("*", func(k, v string) bool {
			parts := []string{"set", k, v}
			if ttl, err := tx.TTL(k); err == nil && ttl > 0 {
				parts = append(parts, "ex", strconv.FormatInt(int64(math.Ceil(ttl.Seconds())), 10))
			}
			werr = writeCommand(w, parts)
			return werr == nil
		})
		return werr
	})
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
	if err := s.db.Close(); err != nil {
		return err
	}
	_ = s.syncFile.Close()
	if err := os.Rename(tmp, s.path); err != nil {
		return fmt.Errorf("swap compacted file: %w", err)
	}
	if d, err := os.Open(filepath.Dir(s.path)); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	if err := s.openDB(); err != nil {
		return err
	}
	after, _ := os.Stat(s.path)
	if before != nil && after != nil {
		s.log.Info("compacted store", "path", s.path, "before", before.Size(), "after", after.Size())
	}
	return nil
}

// writeCommand writes one RESP array of bulk strings, buntdb's file format.
func writeCommand(w *bufio.Writer, parts []string) error {
	if _, err := fmt.Fprintf(w, "*%d\r\n", len(parts)); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := fmt.Fprintf(w, "$%d\r\n%s\r\n", len(p), p); err != nil {
			return err
		}
	}
	return nil
}
