package persistence

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/buntdb"
)

// Large values (a snapshot's saved layout) are blobs: their bytes live in a
// file of their own under <workspace>/.pmx-canvas/blobs/, and the log holds
// only a stub naming the file. The log, and the in-memory index built from
// it, stay the size of the live canvas however many snapshots there are;
// a blob is read when it is needed (a restore, a diff).
//
// A blob file is written and fsynced before the commit that names it, so an
// acknowledged commit's blobs are on disk; a crash before the commit's
// marker leaves an unnamed file, removed on the next open. A blob is
// removed once the commit that deletes or replaces its key is durable.

// BlobsDir is the directory of blob files inside Dir.
const BlobsDir = "blobs"

// blobStub is the log's value for a blob key.
type blobStub struct {
	Blob  string `json:"blob"`
	Bytes int    `json:"bytes"`
}

const blobStubPrefix = `{"blob":`

// SetBlob returns an op that stores data as the blob of key.
func SetBlob(key string, data []byte) Op {
	stub, _ := json.Marshal(blobStub{Blob: blobFileName(key), Bytes: len(data)})
	v := string(stub)
	return Op{Key: key, Value: &v, blob: data}
}

// blobFileName is the file of key's blob: the key with its separators
// replaced (keys are built from validated ids).
func blobFileName(key string) string {
	return strings.NewReplacer("/", "_", "\\", "_", "..", "_").Replace(key) + ".json"
}

func (s *Store) blobPath(name string) string { return filepath.Join(s.dir, BlobsDir, name) }

// writeBlobs writes the blobs of ops to their files, each fsynced, and the
// directory once.
func (s *Store) writeBlobs(batch []*commitReq) error {
	wrote := false
	for _, r := range batch {
		for _, op := range r.ops {
			if op.blob == nil {
				continue
			}
			if !wrote {
				if err := os.MkdirAll(filepath.Join(s.dir, BlobsDir), 0o755); err != nil {
					return fmt.Errorf("blobs: %w", err)
				}
				wrote = true
			}
			if err := writeFileSynced(s.blobPath(blobFileName(op.Key)), op.blob); err != nil {
				return fmt.Errorf("blob %s: %w", op.Key, err)
			}
		}
	}
	if wrote && !s.opts.NoSync {
		syncDir(filepath.Join(s.dir, BlobsDir))
	}
	return nil
}

// writeFileSynced writes data to path through a temporary file: fsynced,
// then renamed over path.
func writeFileSynced(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// replacedBlobs lists the blob files that ops delete or replace (a key
// whose current value is a stub of another file, or deleted), read before
// the ops are applied.
func (s *Store) replacedBlobs(batch []*commitReq) []string {
	var out []string
	_ = s.db.View(func(tx *buntdb.Tx) error {
		for _, r := range batch {
			for _, op := range r.ops {
				v, err := tx.Get(op.Key)
				if err != nil || !strings.HasPrefix(v, blobStubPrefix) {
					continue
				}
				var stub blobStub
				if json.Unmarshal([]byte(v), &stub) != nil {
					continue
				}
				if op.blob == nil || blobFileName(op.Key) != stub.Blob {
					out = append(out, stub.Blob)
				}
			}
		}
		return nil
	})
	return out
}

// GetBlob reads the value of key: the blob's bytes for a blob key, the
// value itself for a key stored inline (as every value was before blobs).
func (s *Store) GetBlob(key string) ([]byte, bool, error) {
	v, ok, err := s.Get(key)
	if err != nil || !ok {
		return nil, ok, err
	}
	if !strings.HasPrefix(v, blobStubPrefix) {
		return []byte(v), true, nil
	}
	var stub blobStub
	if err := json.Unmarshal([]byte(v), &stub); err != nil {
		return nil, false, fmt.Errorf("blob stub of %s: %w", key, err)
	}
	data, err := os.ReadFile(s.blobPath(filepath.Base(stub.Blob)))
	if err != nil {
		return nil, false, fmt.Errorf("blob of %s: %w", key, err)
	}
	return data, true, nil
}

// removeOrphanBlobs deletes the blob files no key names (left by a crash
// between a blob's write and its commit, or by a delete whose removal did
// not happen before the process stopped).
func (s *Store) removeOrphanBlobs() {
	entries, err := os.ReadDir(filepath.Join(s.dir, BlobsDir))
	if err != nil {
		return
	}
	named := map[string]bool{}
	_ = s.db.View(func(tx *buntdb.Tx) error {
		return tx.Ascend("", func(_, v string) bool {
			if strings.HasPrefix(v, blobStubPrefix) {
				var stub blobStub
				if json.Unmarshal([]byte(v), &stub) == nil {
					named[stub.Blob] = true
				}
			}
			return true
		})
	})
	for _, e := range entries {
		if !named[e.Name()] {
			if err := os.Remove(s.blobPath(e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.log.Warn("could not remove an orphan blob", "file", e.Name(), "err", err)
			}
		}
	}
}
