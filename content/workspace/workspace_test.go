package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a workspace with a file, a directory, a link that stays
// inside and links that leave (relative and absolute).
func fixture(t testing.TB) *Root {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"src", ".pmx-canvas/artifacts"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600)
	os.Symlink("a.go", filepath.Join(dir, "src", "in.go"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "abs-out"))
	os.Symlink("../"+filepath.Base(outside), filepath.Join(dir, "rel-out"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestResolve(t *testing.T) {
	r := fixture(t)
	for _, tc := range []struct {
		path, rel, err string
	}{
		{"src/a.go", "src/a.go", ""},
		{"./src/../src/a.go", "src/a.go", ""},
		{filepath.Join(r.Dir(), "src/a.go"), "src/a.go", ""},
		{"src/in.go", "src/a.go", ""},
		{"new/file.txt", "new/file.txt", ""}, // not there yet: its parent is checked
		{".", ".", ""},
		{".pmx-canvas/artifacts/site/index.html", ".pmx-canvas/artifacts/site/index.html", ""},
		{"..", "", "is outside the workspace"},
		{"../x", "", "is outside the workspace"},
		{"/etc/passwd", "", "is outside the workspace"},
		{"abs-out", "", "leaves the workspace through a symlink"},
		{"rel-out/secret", "", "leaves the workspace through a symlink"},
		{"rel-out/new.txt", "", "leaves the workspace through a symlink"},
		{".pmx-canvas/canvas.db", "", "store, not workspace content"},
		{"", "", "is empty"},
		{"a\x00b", "", "NUL"},
	} {
		rel, err := r.Resolve(tc.path)
		switch {
		case tc.err == "" && (err != nil || filepath.ToSlash(rel) != tc.rel):
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.path, rel, err, tc.rel)
		case tc.err != "" && (err == nil || !IsOutside(err) || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Resolve(%q) = %q, %v; want a path error with %q", tc.path, rel, err, tc.err)
		}
	}
	if rel, err := r.Contain(".pmx-canvas/profile"); err != nil || rel != filepath.Join(".pmx-canvas", "profile") {
		t.Errorf("Contain allows the store directory: %q %v", rel, err)
	}
}

// Whatever the input, a resolved path is inside the workspace, also once
// its symlinks are followed.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"src/a.go", "../x", "/etc", "abs-out", "rel-out/secret", "src/../../x", "src//in.go", ".pmx-canvas/x"} {
		f.Add(s)
	}
	r := fixture(f)
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := r.Resolve(p)
		if err != nil {
			return
		}
		abs := r.Abs(rel)
		if _, ok := r.within(abs); !ok {
			t.Fatalf("Resolve(%q) = %q, outside %s", p, rel, r.Dir())
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			if _, ok := r.within(real); !ok {
				t.Fatalf("Resolve(%q) = %q, which leads to %s", p, rel, real)
			}
		}
	})
}
