package files

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/content/workspace"
)

func setup(t *testing.T) (*workspace.Root, string) {
	t.Helper()
	dir := t.TempDir()
	root, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root, root.Dir()
}

func write(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadText(t *testing.T) {
	root, dir := setup(t)
	write(t, dir, "src/app.ts", []byte("import x from './x'\nconsole.log(x)\n"))
	s, err := Read(root, "src/app.ts")
	if err != nil {
		t.Fatal(err)
	}
	if s.Rel != filepath.Join("src", "app.ts") || s.Abs != filepath.Join(dir, "src", "app.ts") {
		t.Errorf("paths = %q %q", s.Rel, s.Abs)
	}
	if s.LineCount != 3 || s.Language != "typescript" || s.Binary || s.Truncated || s.Size != 35 {
		t.Errorf("snapshot = %+v", s)
	}
	if sum := sha256.Sum256([]byte("import x from './x'\nconsole.log(x)\n")); s.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 = %q", s.SHA256)
	}
	abs, err := Read(root, filepath.Join(dir, "src/app.ts"))
	if err != nil || abs.SHA256 != s.SHA256 {
		t.Errorf("absolute path: %v %v", abs, err)
	}
}

func TestReadLimits(t *testing.T) {
	root, dir := setup(t)
	big := strings.Repeat("é", MaxContent) // 2 bytes each: twice the cap
	write(t, dir, "big.txt", []byte(big))
	write(t, dir, "bin.dat", []byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2})
	write(t, dir, "t.csv", []byte("name,qty\napple,3\n\"pear, green\",4\n"))
	write(t, dir, "t.tsv", []byte("a\tb\n1\t2\n"))
	write(t, dir, "doc.pdf", []byte("%PDF-1.7\n\x00\x01binary"))

	s, err := Read(root, "big.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Truncated || len(s.Content) != MaxContent || s.Size != int64(2*MaxContent) || s.Binary {
		t.Errorf("big: truncated=%v len=%d size=%d binary=%v", s.Truncated, len(s.Content), s.Size, s.Binary)
	}

	s, err = Read(root, "bin.dat")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Binary || !strings.HasPrefix(s.Content, "[binary file: application/octet-stream, 8 bytes]") {
		t.Errorf("binary: %+v", s)
	}

	s, err = Read(root, "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if s.Table == nil || strings.Join(s.Table.Columns, "|") != "name|qty" || s.Table.RowCount != 2 ||
		s.Table.Rows[1][0] != "pear, green" || s.MimeType != "text/csv" {
		t.Errorf("csv: %+v", s.Table)
	}
	s, _ = Read(root, "t.tsv")
	if s.Table == nil || s.Table.Delimiter != "\t" || s.Table.Rows[0][1] != "2" {
		t.Errorf("tsv: %+v", s.Table)
	}
	s, _ = Read(root, "doc.pdf")
	if !s.Binary || s.MimeType != "application/pdf" || s.Language != "pdf" {
		t.Errorf("pdf: %+v", s)
	}
}

func TestReadRefusals(t *testing.T) {
	root, dir := setup(t)
	outside := t.TempDir()
	write(t, outside, "secret.txt", []byte("secret"))
	write(t, dir, "ok.txt", []byte("ok"))
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "ok.txt"), filepath.Join(dir, "inside.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{"../" + filepath.Base(outside) + "/secret.txt", "is outside the workspace"},
		{filepath.Join(outside, "secret.txt"), "is outside the workspace"},
		{"/etc/passwd", "is outside the workspace"},
		{"link.txt", "leaves the workspace through a symlink"},
		{".pmx-canvas/canvas.db", "store, not workspace content"},
		{"", "is empty"},
	} {
		_, err := Read(root, tc.path)
		if err == nil || !workspace.IsOutside(err) || !strings.Contains(err.Error(), tc.want) ||
			!strings.Contains(err.Error(), "\""+tc.path+"\"") {
			t.Errorf("Read(%q) = %v, want a path error naming it with %q", tc.path, err, tc.want)
		}
	}
	if s, err := Read(root, "inside.txt"); err != nil || s.Content != "ok" {
		t.Errorf("in-workspace symlink: %v %v", s, err)
	}
	if _, err := Read(root, "missing.txt"); !IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Read(root, "sub"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	root, dir := setup(t)
	write(t, dir, "notes.md", []byte("old"))
	if err := os.Chmod(filepath.Join(dir, "notes.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := root.WriteFileAtomic("notes.md", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "notes.md"))
	fi, _ := os.Stat(filepath.Join(dir, "notes.md"))
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("content %q mode %v", b, fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := root.WriteFileAtomic("nodir/x.md", []byte("x"), 0o644); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

func TestLineCountMatchesReference(t *testing.T) {
	root, dir := setup(t)
	for content, want := range map[string]int{"": 1, "a": 1, "a\n": 2, "a\nb": 2, "\n\n": 3} {
		write(t, dir, "f.txt", []byte(content))
		s, err := Read(root, "f.txt")
		if err != nil || s.LineCount != want {
			t.Errorf("lineCount(%q) = %v, want %d (%v)", content, s.LineCount, want, err)
		}
	}
}
