// Package files reads a workspace file for a file node: its text, line
// count, digest, language and modification time, with the limits a board
// needs — text past MaxContent is cut (and flagged), binary files get a
// placeholder instead of bytes, CSV and TSV files are also parsed into a
// table, PDFs are marked for the browser's viewer.
package files

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pmxcanvas/pmx-canvas/content/workspace"
)

// MaxContent is how many bytes of a file a node holds; the rest is cut.
const MaxContent = 2 << 20

// Table caps: a board shows a preview, not a spreadsheet.
const (
	MaxTableRows    = 1000
	MaxTableColumns = 100
)

// Snapshot is what a file node shows of its file.
type Snapshot struct {
	// Rel is the workspace-relative path; Abs the absolute one.
	Rel, Abs string
	// Content is the file's text (up to MaxContent bytes, cut on a rune
	// boundary), or a placeholder line for a binary file.
	Content string
	// LineCount is the reference's count: newline-separated parts, so a
	// trailing newline counts as an extra (empty) line.
	LineCount int
	// SHA256 is the hex digest of the whole file.
	SHA256   string
	Language string
	MimeType string
	Size     int64
	ModTime  time.Time
	// Truncated is set when Content holds only the first MaxContent bytes.
	Truncated bool
	// Binary is set when the file is not text; Content is a placeholder.
	Binary bool
	// Table is the parsed rows of a CSV or TSV file.
	Table *Table
}

// Table is a delimited file's rows: the first row as columns.
type Table struct {
	Delimiter string     `json:"delimiter"`
	Columns   []string   `json:"columns"`
	Rows      [][]string `json:"rows"`
	// RowCount counts every data row of the file's parsed part, shown or not.
	RowCount  int    `json:"rowCount"`
	Truncated bool   `json:"truncated,omitempty"`
	Error     string `json:"error,omitempty"`
}

// ErrNotFile is returned for a path that exists but is not a regular file.
var ErrNotFile = errors.New("not a regular file")

// Read reads the file at p (absolute or workspace-relative) through root.
// A missing file is fs.ErrNotExist (wrapped); a path outside the workspace
// is a *workspace.PathError.
func Read(root *workspace.Root, p string) (*Snapshot, error) {
	rel, err := root.Resolve(p)
	if err != nil {
		return nil, err
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", p, ErrNotFile)
	}
	h := sha256.New()
	var head bytes.Buffer
	// The digest covers the whole file; only the first MaxContent bytes
	// are kept.
	n, err := io.Copy(h, io.TeeReader(f, &limitWriter{w: &head, left: MaxContent}))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	s := &Snapshot{
		Rel: rel, Abs: root.Abs(rel), SHA256: hex.EncodeToString(h.Sum(nil)),
		Size: n, ModTime: fi.ModTime(), Language: Language(rel),
	}
	data := head.Bytes()
	s.Truncated = n > int64(len(data))
	s.MimeType = mimeType(rel, data)
	if isBinary(data, s.Truncated) {
		s.Binary = true
		s.Content = fmt.Sprintf("[binary file: %s, %s]", s.MimeType, humanBytes(n))
		s.LineCount = 1
		return s, nil
	}
	if s.Truncated {
		data = trimPartialRune(data)
	}
	s.Content = string(data)
	s.LineCount = strings.Count(s.Content, "\n") + 1
	switch strings.ToLower(filepath.Ext(rel)) {
	case ".csv":
		s.Table = parseTable(data, ',', s.Truncated)
	case ".tsv", ".tab":
		s.Table = parseTable(data, '\t', s.Truncated)
	}
	return s, nil
}

// IsNotExist reports whether err means the file is missing.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// limitWriter keeps the first left bytes written to it and drops the rest.
type limitWriter struct {
	w    io.Writer
	left int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		k := min(len(p), l.left)
		l.w.Write(p[:k])
		l.left -= k
	}
	return len(p), nil
}

// isBinary: a NUL byte, or bytes that are not UTF-8 (a cut may leave an
// incomplete rune at the end, which is not a sign of binary).
func isBinary(data []byte, truncated bool) bool {
	sample := data
	if len(sample) > 8192 {
		sample = sample[:8192]
		truncated = true
	}
	if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	if truncated {
		sample = trimPartialRune(sample)
	}
	return !utf8.Valid(sample)
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		r, size := utf8.DecodeLastRune(b[:len(b)-i])
		if r != utf8.RuneError || size > 1 {
			return b[:len(b)-i]
		}
	}
	return b
}

func parseTable(data []byte, delim rune, cut bool) *Table {
	t := &Table{Delimiter: string(delim), Columns: []string{}, Rows: [][]string{}}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	first := true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !cut { // a cut file ends mid-record: not the file's fault
				t.Error = err.Error()
			}
			break
		}
		if len(rec) > MaxTableColumns {
			rec, t.Truncated = rec[:MaxTableColumns], true
		}
		if first {
			t.Columns, first = rec, false
			continue
		}
		t.RowCount++
		if len(t.Rows) < MaxTableRows {
			t.Rows = append(t.Rows, rec)
		} else {
			t.Truncated = true
		}
	}
	if cut {
		t.Truncated = true
	}
	return t
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// mimeType is the extension's type for the formats a board treats
// specially, else the sniffed one.
func mimeType(rel string, head []byte) string {
	switch strings.ToLower(filepath.Ext(rel)) {
	case ".pdf":
		return "application/pdf"
	case ".csv":
		return "text/csv"
	case ".tsv", ".tab":
		return "text/tab-separated-values"
	case ".md", ".markdown":
		return "text/markdown"
	case ".json":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	}
	return http.DetectContentType(head)
}

// Language names a file's language by its extension (or name), "" when
// unknown; the workbench uses it for the language chip and highlighting.
func Language(p string) string {
	base := strings.ToLower(filepath.Base(p))
	if l, ok := byName[base]; ok {
		return l
	}
	return byExt[strings.ToLower(filepath.Ext(base))]
}

var byName = map[string]string{
	"makefile": "makefile", "dockerfile": "dockerfile", "go.mod": "go-mod", "go.sum": "go-sum",
	"cmakelists.txt": "cmake", ".gitignore": "gitignore",
}

var byExt = map[string]string{
	".ts": "typescript", ".tsx": "tsx", ".mts": "typescript", ".cts": "typescript",
	".js": "javascript", ".jsx": "jsx", ".mjs": "javascript", ".cjs": "javascript",
	".go": "go", ".py": "python", ".rs": "rust", ".rb": "ruby", ".java": "java", ".kt": "kotlin",
	".swift": "swift", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
	".php": "php", ".lua": "lua", ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ps1": "powershell",
	".sql": "sql", ".md": "markdown", ".markdown": "markdown", ".json": "json", ".jsonl": "json",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".xml": "xml", ".html": "html", ".htm": "html",
	".css": "css", ".scss": "scss", ".less": "less", ".vue": "vue", ".svelte": "svelte",
	".csv": "csv", ".tsv": "tsv", ".txt": "text", ".proto": "protobuf", ".graphql": "graphql",
	".tf": "hcl", ".hcl": "hcl", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
	".scala": "scala", ".dart": "dart", ".r": "r", ".jl": "julia", ".zig": "zig", ".nim": "nim",
	".pdf": "pdf", ".ini": "ini", ".env": "dotenv", ".diff": "diff", ".patch": "diff",
}
