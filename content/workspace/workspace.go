// Package workspace confines file access to the server's workspace
// directory. Every file the canvas reads or writes for a node (file and
// image nodes, /api/file, file bytes, artifacts) goes through a Root, so a
// path that leaves the workspace — by "..", by an absolute path elsewhere
// or through a symlink — is refused with an error naming the path.
//
// Resolution is two-step: the path is made absolute against the workspace
// and its symlinks are evaluated (so links that stay inside, absolute or
// relative, work), then the file is opened through an os.Root, which
// refuses an escape even if a link is swapped in between the two steps.
package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// StateDir is the workspace's own store directory. Its files (the
// database, the daemon's pid and log) are not workspace content: file
// routes refuse them, except the artifacts the canvas builds there.
const StateDir = ".pmx-canvas"

// Root is an open workspace directory.
type Root struct {
	dir  string // absolute, symlinks evaluated
	root *os.Root
}

// Open opens dir (made absolute, symlinks evaluated) as a workspace.
func Open(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %q: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %q: %w", dir, err)
	}
	return &Root{dir: abs, root: r}, nil
}

// Dir is the workspace's absolute directory.
func (r *Root) Dir() string { return r.dir }

// Close releases the directory handle.
func (r *Root) Close() error { return r.root.Close() }

// PathError says why a path was refused: it is outside the workspace, or
// it names the workspace's own store.
type PathError struct {
	Path   string // as the caller gave it
	Reason string
}

func (e *PathError) Error() string { return fmt.Sprintf("path %q %s", e.Path, e.Reason) }

// IsOutside reports whether err is a refused path (a *PathError).
func IsOutside(err error) bool {
	var pe *PathError
	return errors.As(err, &pe)
}

// Resolve maps p (absolute, or relative to the workspace) to its path
// relative to the workspace, with symlinks of the existing part evaluated.
// The result is slash-free of "..", never leaves the workspace and is "."
// for the workspace itself. A path that does not exist yet resolves too
// (its existing parent is checked), so callers can report "not found".
func (r *Root) Resolve(p string) (string, error) {
	rel, err := r.Contain(p)
	if err != nil {
		return "", err
	}
	if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); first == StateDir &&
		!strings.HasPrefix(filepath.ToSlash(rel), StateDir+"/artifacts/") {
		return "", &PathError{Path: p, Reason: "is in the workspace's " + StateDir + " store, not workspace content"}
	}
	return rel, nil
}

// Contain is Resolve without the store rule: for paths the server itself
// keeps in the workspace (a browser profile may live in .pmx-canvas/).
func (r *Root) Contain(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", &PathError{Path: p, Reason: "is empty"}
	}
	if strings.ContainsRune(p, 0) {
		return "", &PathError{Path: p, Reason: "contains a NUL byte"}
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.dir, abs)
	}
	abs = filepath.Clean(abs)
	if _, ok := r.within(abs); !ok {
		return "", &PathError{Path: p, Reason: "is outside the workspace " + r.dir}
	}
	real, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	rel, ok := r.within(real)
	if !ok {
		return "", &PathError{Path: p, Reason: "leaves the workspace through a symlink (to " + real + ")"}
	}
	return rel, nil
}

// Abs is the absolute path of a workspace-relative path.
func (r *Root) Abs(rel string) string { return filepath.Join(r.dir, rel) }

// within returns abs relative to the workspace, or false when it is outside.
func (r *Root) within(abs string) (string, bool) {
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// evalExisting evaluates the symlinks of the longest existing prefix of
// abs and appends the rest unchanged.
func evalExisting(abs string) (string, error) {
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Stat stats a resolved path (following in-workspace symlinks).
func (r *Root) Stat(rel string) (fs.FileInfo, error) { return r.root.Stat(rel) }

// Open opens a resolved path for reading.
func (r *Root) Open(rel string) (*os.File, error) { return r.root.Open(rel) }

// ReadFile reads at most limit bytes of a resolved path (limit <= 0: all)
// and reports whether the file was longer.
func (r *Root) ReadFile(rel string, limit int64) (data []byte, truncated bool, err error) {
	f, err := r.root.Open(rel)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if limit <= 0 {
		data, err = io.ReadAll(f)
		return data, false, err
	}
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}

// WriteFileAtomic replaces a resolved path with data: it writes a
// temporary file next to it, syncs it and renames it over the target, so
// a reader (or a crash) sees the old content or the new, never half. The
// file's directory must exist; a new file gets perm, an existing one
// keeps its mode.
func (r *Root) WriteFileAtomic(rel string, data []byte, perm fs.FileMode) error {
	if fi, err := r.root.Stat(rel); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", rel)
		}
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(rel)
	var tmp string
	var f *os.File
	for i := 0; ; i++ {
		tmp = filepath.Join(dir, fmt.Sprintf(".%s.pmx-tmp-%d-%d", filepath.Base(rel), os.Getpid(), i))
		var err error
		f, err = r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.root.Rename(tmp, rel)
	}
	if werr != nil {
		_ = r.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", rel, werr)
	}
	return nil
}
