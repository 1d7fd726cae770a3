// Package unidiff parses unified diffs — git diff output as well as plain
// diff -u output — into files, hunks and numbered lines, in a form that can
// be sent as JSON to the canvas's diff node and summarised for agents.
//
// Parsing is strict where a mistake would mislead a reader (a hunk whose
// lines do not add up to its header is an error) and lenient where diffs
// are commonly wrapped in other text (anything before the first file header,
// such as a commit message from git show, is ignored).
package unidiff

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Caps on what Parse accepts, so that a hostile or accidental input cannot
// make it allocate without bound.
const (
	MaxFiles = 5000    // files in one diff
	MaxLines = 200_000 // hunk lines (context, added and removed) in one diff
)

// File statuses.
const (
	StatusAdded    = "added"
	StatusDeleted  = "deleted"
	StatusModified = "modified"
	StatusRenamed  = "renamed"
	StatusBinary   = "binary" // a binary file that was modified in place
)

// Line kinds.
const (
	KindAdd     = "add"
	KindRemove  = "remove"
	KindContext = "context"
)

// Diff is a parsed unified diff.
type Diff struct {
	Files []File `json:"files"`
	Stats Stats  `json:"stats"`
}

// Stats totals a diff: the number of files and of added and removed lines.
type Stats struct {
	Files     int `json:"files"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// File is the change to one file.
//
// Paths have git's "a/" and "b/" prefixes removed. The path of a side that
// does not exist (the old side of an added file, the new side of a deleted
// one) is empty; Path gives the one to show.
type File struct {
	OldPath string `json:"oldPath"`
	NewPath string `json:"newPath"`
	// Status is one of the Status constants. An added, deleted or renamed
	// binary file keeps that status; StatusBinary is for binary files
	// changed in place. A copied file is StatusAdded with OldPath set to
	// its source.
	Status    string `json:"status"`
	Binary    bool   `json:"binary"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Hunks     []Hunk `json:"hunks"`
}

// Path returns the file's new path, or its old path when it was deleted.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Hunk is one "@@ -a,b +c,d @@ section" block of a file's changes.
type Hunk struct {
	OldStart int `json:"oldStart"`
	OldLines int `json:"oldLines"`
	NewStart int `json:"newStart"`
	NewLines int `json:"newLines"`
	// Section is the text after the closing "@@", usually the enclosing
	// function, without the separating space.
	Section string `json:"section"`
	Lines   []Line `json:"lines"`
}

// Line is one line of a hunk.
type Line struct {
	Kind string `json:"kind"`
	Text string `json:"text"`          // without the leading marker
	Old  int    `json:"old,omitempty"` // line number in the old file; 0 for an added line
	New  int    `json:"new,omitempty"` // line number in the new file; 0 for a removed line
	// NoNewline reports that this line is the last of its file and has no
	// newline ("\ No newline at end of file" followed it).
	NoNewline bool `json:"noNewline,omitempty"`
}

// Parse parses the unified diff in text. It returns an error when text holds
// no file header or hunk, when a hunk's lines disagree with its header, or
// when the diff exceeds MaxFiles or MaxLines.
func Parse(text string) (*Diff, error) {
	p := &parser{sc: scanner{text: text}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.files) == 0 {
		return nil, fmt.Errorf("unidiff: no file headers or hunks found")
	}
	d := &Diff{Files: p.files}
	for i := range d.Files {
		f := &d.Files[i]
		if f.Hunks == nil {
			f.Hunks = []Hunk{} // JSON [] rather than null
		}
		for j := range f.Hunks {
			h := &f.Hunks[j]
			if h.Lines == nil {
				h.Lines = []Line{}
			}
			for _, l := range h.Lines {
				switch l.Kind {
				case KindAdd:
					f.Additions++
				case KindRemove:
					f.Deletions++
				}
			}
		}
		d.Stats.Additions += f.Additions
		d.Stats.Deletions += f.Deletions
	}
	d.Stats.Files = len(d.Files)
	return d, nil
}

// Summary returns a short plain-text account of the diff for agents: a
// totals line, then one line per file with a status letter (A added,
// D deleted, R renamed, M otherwise). It is cut to at most max characters,
// ending in "…" when cut; max <= 0 means no limit.
func (d *Diff) Summary(max int) string {
	var b strings.Builder
	files := "files"
	if d.Stats.Files == 1 {
		files = "file"
	}
	fmt.Fprintf(&b, "%d %s changed, +%d −%d", d.Stats.Files, files, d.Stats.Additions, d.Stats.Deletions)
	for i := range d.Files {
		f := &d.Files[i]
		letter, name := "M", f.Path()
		switch f.Status {
		case StatusAdded:
			letter = "A"
		case StatusDeleted:
			letter = "D"
		case StatusRenamed:
			letter, name = "R", f.OldPath+" → "+f.NewPath
		}
		counts := fmt.Sprintf("+%d −%d", f.Additions, f.Deletions)
		if f.Binary {
			counts = "binary"
		}
		fmt.Fprintf(&b, "\n%s %s (%s)", letter, name, counts)
		if max > 0 && b.Len() > 4*max {
			break // already far too long; stop formatting
		}
	}
	return truncate(b.String(), max)
}

// truncate cuts s to at most max runes, the last being "…" when cut.
func truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// scanner yields the lines of a text one at a time, without their line
// terminator ("\n" or "\r\n"), and can look ahead without consuming.
type scanner struct {
	text string
	pos  int
}

// peek returns the line k lines ahead (0 is the next line).
func (s *scanner) peek(k int) (string, bool) {
	pos := s.pos
	for ; ; k-- {
		if pos >= len(s.text) {
			return "", false
		}
		end := strings.IndexByte(s.text[pos:], '\n')
		var line string
		if end < 0 {
			line, pos = s.text[pos:], len(s.text)
		} else {
			line, pos = s.text[pos:pos+end], pos+end+1
		}
		if k == 0 {
			return strings.TrimSuffix(line, "\r"), true
		}
	}
}

// next consumes and returns the next line.
func (s *scanner) next() (string, bool) {
	line, ok := s.peek(0)
	if ok {
		if end := strings.IndexByte(s.text[s.pos:], '\n'); end < 0 {
			s.pos = len(s.text)
		} else {
			s.pos += end + 1
		}
	}
	return line, ok
}

type parser struct {
	sc    scanner
	files []File
	lines int // hunk lines parsed so far, against MaxLines
}

func (p *parser) parse() error {
	var cur *File // the file that hunks belong to; nil before any header
	for {
		line, ok := p.sc.peek(0)
		if !ok {
			return nil
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			p.sc.next()
			var err error
			if cur, err = p.add(p.gitFile(line)); err != nil {
				return err
			}
		case strings.HasPrefix(line, "diff --cc ") || strings.HasPrefix(line, "diff --combined "):
			_, path, _ := strings.Cut(line[len("diff --"):], " ")
			return fmt.Errorf("unidiff: %s: combined diffs of merges are not supported", unquote(path))
		case p.atFileHeader():
			f := &File{}
			p.minusPlus(f)
			plainStatus(f)
			var err error
			if cur, err = p.add(f); err != nil {
				return err
			}
		case strings.HasPrefix(line, "Binary files ") && strings.HasSuffix(line, " differ"):
			// Plain diff's note for binary files, outside any git header.
			p.sc.next()
			f := &File{Binary: true}
			f.OldPath, f.NewPath = binaryPaths(line)
			f.OldPath, f.NewPath = stripPrefixes(f.OldPath, f.NewPath)
			plainStatus(f)
			var err error
			if cur, err = p.add(f); err != nil {
				return err
			}
		case strings.HasPrefix(line, "@@ "):
			if cur == nil {
				// A bare hunk, without a file header.
				var err error
				if cur, err = p.add(&File{Status: StatusModified}); err != nil {
					return err
				}
			}
			if err := p.hunk(cur); err != nil {
				return err
			}
		default:
			p.sc.next() // text outside the diff: commit messages, signatures, "Only in" notes
		}
	}
}

// add appends f to the result and returns the stored copy.
func (p *parser) add(f *File) (*File, error) {
	if len(p.files) == MaxFiles {
		return nil, fmt.Errorf("unidiff: diff has more than %d files", MaxFiles)
	}
	p.files = append(p.files, *f)
	return &p.files[len(p.files)-1], nil
}

// atFileHeader reports whether the next lines are a "--- old" and "+++ new"
// pair.
func (p *parser) atFileHeader() bool {
	l0, _ := p.sc.peek(0)
	l1, _ := p.sc.peek(1)
	return strings.HasPrefix(l0, "--- ") && strings.HasPrefix(l1, "+++ ")
}

// atNextFile reports whether the next lines start a plain diff's next file:
// "--- old", "+++ new" and a hunk header. Inside a hunk, the hunk header is
// what tells these from a removed line starting "-- " and an added one
// starting "++ ", since a hunk header cannot appear while the current hunk
// still expects lines.
func (s *scanner) atNextFile() bool {
	l0, _ := s.peek(0)
	l1, _ := s.peek(1)
	l2, _ := s.peek(2)
	return strings.HasPrefix(l0, "--- ") && strings.HasPrefix(l1, "+++ ") && strings.HasPrefix(l2, "@@ ")
}

// minusPlus consumes a "--- old" / "+++ new" pair and sets f's paths from it.
func (p *parser) minusPlus(f *File) {
	l0, _ := p.sc.next()
	l1, _ := p.sc.next()
	f.OldPath, f.NewPath = stripPrefixes(headerPath(l0[4:]), headerPath(l1[4:]))
}

// gitFile parses the extended header lines that follow "diff --git".
func (p *parser) gitFile(header string) *File {
	f := &File{}
	f.OldPath, f.NewPath = gitHeaderPaths(header[len("diff --git "):])
	var added, deleted, renamed, copied bool
	for {
		line, ok := p.sc.peek(0)
		if !ok {
			break
		}
		if strings.HasPrefix(line, "--- ") {
			if !p.atFileHeader() {
				break
			}
			p.minusPlus(f)
			break // hunks follow
		}
		key, val, known := extendedHeader(line)
		if !known {
			break
		}
		p.sc.next()
		switch key {
		case "new file mode":
			added = true
		case "deleted file mode":
			deleted = true
		case "rename from":
			renamed, f.OldPath = true, unquote(val)
		case "rename to":
			renamed, f.NewPath = true, unquote(val)
		case "copy from":
			copied, f.OldPath = true, unquote(val)
		case "copy to":
			copied, f.NewPath = true, unquote(val)
		case "Binary files", "GIT binary patch":
			f.Binary = true // the patch data that may follow is skipped as unknown text
		}
	}
	switch {
	case added:
		f.Status, f.OldPath = StatusAdded, ""
	case deleted:
		f.Status, f.NewPath = StatusDeleted, ""
	case copied:
		f.Status = StatusAdded
	case renamed:
		f.Status = StatusRenamed
	case f.OldPath == "":
		f.Status = StatusAdded
	case f.NewPath == "":
		f.Status = StatusDeleted
	case f.Binary:
		f.Status = StatusBinary
	default:
		f.Status = StatusModified
	}
	return f
}

// extendedHeader recognises one of git's extended header lines.
func extendedHeader(line string) (key, val string, ok bool) {
	for _, k := range [...]string{
		"old mode", "new mode", "deleted file mode", "new file mode",
		"rename from", "rename to", "copy from", "copy to",
		"similarity index", "dissimilarity index", "index",
	} {
		if v, found := strings.CutPrefix(line, k+" "); found {
			return k, v, true
		}
	}
	if strings.HasPrefix(line, "Binary files ") {
		return "Binary files", "", true
	}
	if line == "GIT binary patch" {
		return line, "", true
	}
	return "", "", false
}

// plainStatus sets the status of a file known only from "---"/"+++" or
// "Binary files" lines.
func plainStatus(f *File) {
	switch {
	case f.OldPath == "" && f.NewPath != "":
		f.Status = StatusAdded
	case f.NewPath == "" && f.OldPath != "":
		f.Status = StatusDeleted
	case f.Binary:
		f.Status = StatusBinary
	default:
		f.Status = StatusModified
	}
}

// hunk parses one hunk, header and lines, into f.
func (p *parser) hunk(f *File) error {
	header, _ := p.sc.next()
	h, err := parseHunkHeader(header)
	if err != nil {
		return err
	}
	oldLeft, newLeft := h.OldLines, h.NewLines
	oldNo, newNo := h.OldStart, h.NewStart
	for oldLeft > 0 || newLeft > 0 {
		line, ok := p.sc.peek(0)
		if !ok || p.sc.atNextFile() {
			break
		}
		var l Line
		switch {
		case line == "" || line[0] == ' ':
			// An empty line is a context line whose space was stripped,
			// as some editors and mailers do.
			if oldLeft == 0 || newLeft == 0 {
				break
			}
			l = Line{Kind: KindContext, Old: oldNo, New: newNo}
			oldLeft, newLeft, oldNo, newNo = oldLeft-1, newLeft-1, oldNo+1, newNo+1
		case line[0] == '-':
			if oldLeft == 0 {
				break
			}
			l = Line{Kind: KindRemove, Old: oldNo}
			oldLeft, oldNo = oldLeft-1, oldNo+1
		case line[0] == '+':
			if newLeft == 0 {
				break
			}
			l = Line{Kind: KindAdd, New: newNo}
			newLeft, newNo = newLeft-1, newNo+1
		case line[0] == '\\':
			p.sc.next()
			p.noNewline(h)
			continue
		}
		if l.Kind == "" {
			break // not a line this hunk can still hold
		}
		p.sc.next()
		if p.lines == MaxLines {
			return fmt.Errorf("unidiff: diff has more than %d lines", MaxLines)
		}
		p.lines++
		if line != "" {
			l.Text = line[1:]
		}
		h.Lines = append(h.Lines, l)
	}
	if line, ok := p.sc.peek(0); ok && strings.HasPrefix(line, `\`) {
		p.sc.next()
		p.noNewline(h)
	}

	// Count what is really there, including any lines past the header's
	// counts, so that an error says how far off the header is.
	extraOld, extraNew := p.countExtra()
	gotOld := h.OldLines - oldLeft + extraOld
	gotNew := h.NewLines - newLeft + extraNew
	if gotOld != h.OldLines || gotNew != h.NewLines {
		side, want, got := "old", h.OldLines, gotOld
		if gotOld == h.OldLines {
			side, want, got = "new", h.NewLines, gotNew
		}
		name := f.Path()
		if name == "" {
			name = "(unnamed file)"
		}
		rng := header
		if i := strings.Index(header[3:], " @@"); i >= 0 {
			rng = header[:3+i+3]
		}
		lines := "lines"
		if want == 1 {
			lines = "line"
		}
		return fmt.Errorf("unidiff: %s hunk %d (%s): header says %d %s %s, found %d",
			name, len(f.Hunks)+1, rng, want, side, lines, got)
	}
	f.Hunks = append(f.Hunks, *h)
	return nil
}

// noNewline marks the last line of h as having no newline.
func (p *parser) noNewline(h *Hunk) {
	if len(h.Lines) > 0 {
		h.Lines[len(h.Lines)-1].NoNewline = true
	}
}

// countExtra counts, without consuming, the hunk lines that follow where a
// hunk should have ended: added, removed and context lines up to the next
// header. A lone "-- " (the signature separator of a mailed patch) ends
// them.
func (p *parser) countExtra() (old, new int) {
	s := p.sc // a copy: nothing is consumed
	for {
		if s.atNextFile() {
			return old, new
		}
		line, ok := s.next()
		if !ok || line == "" || line == "-- " {
			return old, new
		}
		switch line[0] {
		case ' ':
			old++
			new++
		case '-':
			old++
		case '+':
			new++
		case '\\':
		default:
			return old, new
		}
	}
}

// maxLineNumber bounds the numbers in hunk headers, so that line numbers
// cannot overflow.
const maxLineNumber = 1 << 30

// parseHunkHeader parses "@@ -a[,b] +c[,d] @@[ section]".
func parseHunkHeader(line string) (*Hunk, error) {
	bad := func() (*Hunk, error) {
		return nil, fmt.Errorf("unidiff: invalid hunk header %q", truncate(line, 80))
	}
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return bad()
	}
	ranges, section, ok := strings.Cut(rest, " @@")
	if !ok {
		return bad()
	}
	oldR, newR, ok := strings.Cut(ranges, " +")
	if !ok {
		return bad()
	}
	h := &Hunk{Section: strings.TrimPrefix(section, " ")}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = parseRange(oldR)
	h.NewStart, h.NewLines, err2 = parseRange(newR)
	if err1 != nil || err2 != nil {
		return bad()
	}
	return h, nil
}

// parseRange parses "start[,count]"; an omitted count is 1.
func parseRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = parseNumber(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if hasCount {
		if count, err = parseNumber(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

func parseNumber(s string) (int, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxLineNumber {
		return 0, fmt.Errorf("not a line number: %q", s)
	}
	return n, nil
}

// headerPath extracts the path from the text after "--- " or "+++ ": a
// quoted path, or everything up to a tab (after which plain diff writes a
// timestamp). /dev/null becomes "".
func headerPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if q, err := strconv.QuotedPrefix(s); err == nil {
			s = q
		}
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = unquote(strings.TrimRight(s, " "))
	if s == "/dev/null" {
		return ""
	}
	return s
}

// stripPrefixes removes git's "a/" and "b/" prefixes, when the paths carry
// them (a missing side, "", does not count against that).
func stripPrefixes(oldPath, newPath string) (string, string) {
	hasA := oldPath == "" || strings.HasPrefix(oldPath, "a/")
	hasB := newPath == "" || strings.HasPrefix(newPath, "b/")
	if hasA && hasB && oldPath+newPath != "" {
		return strings.TrimPrefix(oldPath, "a/"), strings.TrimPrefix(newPath, "b/")
	}
	return oldPath, newPath
}

// gitHeaderPaths extracts the two paths of "diff --git a/x b/y". Unquoted
// paths may contain spaces, which makes the split ambiguous; a split into
// two equal paths is preferred, as the line is only relied on when no other
// header names the file.
func gitHeaderPaths(s string) (oldPath, newPath string) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", ""
		}
		oldPath, newPath = unquote(q), unquote(strings.TrimPrefix(s[len(q):], " "))
		return stripPrefixes(oldPath, newPath)
	}
	if i := strings.Index(s, ` "`); i >= 0 {
		return stripPrefixes(s[:i], unquote(s[i+1:]))
	}
	if len(s)%2 == 1 { // "a/P b/P" has odd length: 2·len("a/P") + 1
		half := len(s) / 2
		if s[half] == ' ' && strings.TrimPrefix(s[:half], "a/") == strings.TrimPrefix(s[half+1:], "b/") {
			return stripPrefixes(s[:half], s[half+1:])
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return stripPrefixes(s[:i], s[i+1:])
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return stripPrefixes(s[:i], s[i+1:])
	}
	return s, s
}

// binaryPaths extracts the paths of "Binary files x and y differ".
func binaryPaths(line string) (oldPath, newPath string) {
	s := strings.TrimSuffix(strings.TrimPrefix(line, "Binary files "), " differ")
	a, b, _ := strings.Cut(s, " and ")
	if a == "/dev/null" {
		a = ""
	}
	if b == "/dev/null" {
		b = ""
	}
	return unquote(a), unquote(b)
}

// unquote undoes git's C-style quoting of paths with unusual characters
// ("a/t\303\251st"); other strings are returned unchanged.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
