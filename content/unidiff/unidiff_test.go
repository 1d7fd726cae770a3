package unidiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func ctx(old, new int, text string) Line {
	return Line{Kind: KindContext, Text: text, Old: old, New: new}
}
func add(new int, text string) Line { return Line{Kind: KindAdd, Text: text, New: new} }
func del(old int, text string) Line { return Line{Kind: KindRemove, Text: text, Old: old} }

// lines joins its arguments with "\n" and ends the result with one.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestParseFiles(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []File
	}{
		{
			name: "git modified, two hunks with sections",
			in: lines(
				"diff --git a/x.go b/x.go",
				"index 83db48f..bf269f4 100644",
				"--- a/x.go",
				"+++ b/x.go",
				"@@ -1,3 +1,3 @@ package x",
				" a",
				"-b",
				"+B",
				" c",
				"@@ -10,2 +10,3 @@ func F() {",
				" j",
				"+k",
				" l",
			),
			want: []File{{OldPath: "x.go", NewPath: "x.go", Status: StatusModified, Additions: 2, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Section: "package x",
					Lines: []Line{ctx(1, 1, "a"), del(2, "b"), add(2, "B"), ctx(3, 3, "c")}},
				{OldStart: 10, OldLines: 2, NewStart: 10, NewLines: 3, Section: "func F() {",
					Lines: []Line{ctx(10, 10, "j"), add(11, "k"), ctx(11, 12, "l")}},
			}}},
		},
		{
			name: "git new file",
			in: lines(
				"diff --git a/new.txt b/new.txt",
				"new file mode 100644",
				"index 0000000..3b18e51",
				"--- /dev/null",
				"+++ b/new.txt",
				"@@ -0,0 +1,2 @@",
				"+hello",
				"+world",
			),
			want: []File{{NewPath: "new.txt", Status: StatusAdded, Additions: 2, Hunks: []Hunk{
				{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2, Lines: []Line{add(1, "hello"), add(2, "world")}},
			}}},
		},
		{
			name: "git new empty file has no ---/+++ lines",
			in: lines(
				"diff --git a/empty file b/empty file",
				"new file mode 100644",
				"index 0000000..e69de29",
			),
			want: []File{{NewPath: "empty file", Status: StatusAdded, Hunks: []Hunk{}}},
		},
		{
			name: "git deleted file",
			in: lines(
				"diff --git a/old.txt b/old.txt",
				"deleted file mode 100644",
				"index 3b18e51..0000000",
				"--- a/old.txt",
				"+++ /dev/null",
				"@@ -1 +0,0 @@",
				"-bye",
			),
			want: []File{{OldPath: "old.txt", Status: StatusDeleted, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 1, NewStart: 0, NewLines: 0, Lines: []Line{del(1, "bye")}},
			}}},
		},
		{
			name: "git pure rename",
			in: lines(
				"diff --git a/src/a.go b/lib/a.go",
				"similarity index 100%",
				"rename from src/a.go",
				"rename to lib/a.go",
			),
			want: []File{{OldPath: "src/a.go", NewPath: "lib/a.go", Status: StatusRenamed, Hunks: []Hunk{}}},
		},
		{
			name: "git rename with changes",
			in: lines(
				"diff --git a/a b.txt b/c.txt",
				"similarity index 90%",
				"rename from a b.txt",
				"rename to c.txt",
				"index 1111111..2222222 100644",
				"--- a/a b.txt",
				"+++ b/c.txt",
				"@@ -2 +2 @@",
				"-x",
				"+y",
			),
			want: []File{{OldPath: "a b.txt", NewPath: "c.txt", Status: StatusRenamed, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 1, Lines: []Line{del(2, "x"), add(2, "y")}},
			}}},
		},
		{
			name: "git copy",
			in: lines(
				"diff --git a/a.txt b/b.txt",
				"similarity index 100%",
				"copy from a.txt",
				"copy to b.txt",
			),
			want: []File{{OldPath: "a.txt", NewPath: "b.txt", Status: StatusAdded, Hunks: []Hunk{}}},
		},
		{
			name: "git mode change only",
			in: lines(
				"diff --git a/run.sh b/run.sh",
				"old mode 100644",
				"new mode 100755",
			),
			want: []File{{OldPath: "run.sh", NewPath: "run.sh", Status: StatusModified, Hunks: []Hunk{}}},
		},
		{
			name: "git binary modified",
			in: lines(
				"diff --git a/logo.png b/logo.png",
				"index 1111111..2222222 100644",
				"Binary files a/logo.png and b/logo.png differ",
			),
			want: []File{{OldPath: "logo.png", NewPath: "logo.png", Status: StatusBinary, Binary: true, Hunks: []Hunk{}}},
		},
		{
			name: "git binary added",
			in: lines(
				"diff --git a/logo.png b/logo.png",
				"new file mode 100644",
				"index 0000000..2222222",
				"Binary files /dev/null and b/logo.png differ",
			),
			want: []File{{NewPath: "logo.png", Status: StatusAdded, Binary: true, Hunks: []Hunk{}}},
		},
		{
			name: "git binary patch data is skipped",
			in: lines(
				"diff --git a/a.bin b/a.bin",
				"index 1111111..2222222 100644",
				"GIT binary patch",
				"literal 5",
				"McmZ?wbYx%v00K<`",
				"",
				"literal 3",
				"KcmZ?wbYuVk0RR91",
				"",
				"diff --git a/b.txt b/b.txt",
				"--- a/b.txt",
				"+++ b/b.txt",
				"@@ -1 +1 @@",
				"-1",
				"+2",
			),
			want: []File{
				{OldPath: "a.bin", NewPath: "a.bin", Status: StatusBinary, Binary: true, Hunks: []Hunk{}},
				{OldPath: "b.txt", NewPath: "b.txt", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
					{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{del(1, "1"), add(1, "2")}},
				}},
			},
		},
		{
			name: "git quoted paths",
			in: lines(
				`diff --git "a/t\303\251st\tx" "b/t\303\251st\tx"`,
				"index 1111111..2222222 100644",
				`--- "a/t\303\251st\tx"`,
				`+++ "b/t\303\251st\tx"`,
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []File{{OldPath: "tést\tx", NewPath: "tést\tx", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{del(1, "a"), add(1, "b")}},
			}}},
		},
		{
			name: "git show: commit message before the first header is ignored",
			in: lines(
				"commit 0123456789abcdef0123456789abcdef01234567",
				"Author: A U Thor <a@example.com>",
				"Date:   Mon Jan 1 00:00:00 2024 +0000",
				"",
				"    Fix the thing",
				"",
				"    --- not a header",
				"    @@ -1 +1 @@ not a hunk",
				"",
				"diff --git a/x b/x",
				"--- a/x",
				"+++ b/x",
				"@@ -1 +1 @@",
				"-a",
				"+b",
			),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{del(1, "a"), add(1, "b")}},
			}}},
		},
		{
			name: "format-patch signature after the last hunk",
			in: lines(
				"Subject: [PATCH] x",
				"---",
				" x | 2 +-",
				"",
				"diff --git a/x b/x",
				"--- a/x",
				"+++ b/x",
				"@@ -1 +1 @@",
				"-a",
				"+b",
				"-- ",
				"2.39.0",
			),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{del(1, "a"), add(1, "b")}},
			}}},
		},
		{
			name: "git log -p: the next commit's message after a hunk",
			in: lines(
				"diff --git a/x b/x",
				"--- a/x",
				"+++ b/x",
				"@@ -1 +1 @@",
				"-a",
				"+b",
				"",
				"commit 89abcdef",
				"",
				"    - a list item",
				"    + another",
				"",
				"diff --git a/y b/y",
				"deleted file mode 100644",
			),
			want: []File{
				{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
					{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{del(1, "a"), add(1, "b")}},
				}},
				{OldPath: "y", Status: StatusDeleted, Hunks: []Hunk{}},
			},
		},
		{
			name: "plain diff -u with timestamps, two files",
			in: lines(
				"diff -u old/a.txt new/a.txt",
				"--- old/a.txt\t2024-01-01 10:00:00.000000000 +0000",
				"+++ new/a.txt\t2024-01-02 10:00:00.000000000 +0000",
				"@@ -1,2 +1,2 @@",
				" same",
				"-old",
				"+new",
				"Only in new: extra.txt",
				"--- b.txt\t2024-01-01",
				"+++ b.txt\t2024-01-02",
				"@@ -5,0 +6 @@",
				"+appended",
			),
			want: []File{
				{OldPath: "old/a.txt", NewPath: "new/a.txt", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
					{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []Line{ctx(1, 1, "same"), del(2, "old"), add(2, "new")}},
				}},
				{OldPath: "b.txt", NewPath: "b.txt", Status: StatusModified, Additions: 1, Hunks: []Hunk{
					{OldStart: 5, OldLines: 0, NewStart: 6, NewLines: 1, Lines: []Line{add(6, "appended")}},
				}},
			},
		},
		{
			name: "plain diff -u, file added against /dev/null",
			in: lines(
				"--- /dev/null",
				"+++ b/n.txt",
				"@@ -0,0 +1 @@",
				"+n",
			),
			want: []File{{NewPath: "n.txt", Status: StatusAdded, Additions: 1, Hunks: []Hunk{
				{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1, Lines: []Line{add(1, "n")}},
			}}},
		},
		{
			name: "plain binary note",
			in:   "Binary files old/a.png and new/a.png differ\n",
			want: []File{{OldPath: "old/a.png", NewPath: "new/a.png", Status: StatusBinary, Binary: true, Hunks: []Hunk{}}},
		},
		{
			name: "omitted counts mean 1",
			in: lines(
				"--- a/x",
				"+++ b/x",
				"@@ -7 +7 @@",
				"-a",
				"+b",
			),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 7, OldLines: 1, NewStart: 7, NewLines: 1, Lines: []Line{del(7, "a"), add(7, "b")}},
			}}},
		},
		{
			name: "no newline at end of file, on both sides",
			in: lines(
				"--- a/x",
				"+++ b/x",
				"@@ -1,2 +1,2 @@",
				" a",
				"-b",
				`\ No newline at end of file`,
				"+c",
				`\ No newline at end of file`,
			),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []Line{
					ctx(1, 1, "a"),
					{Kind: KindRemove, Text: "b", Old: 2, NoNewline: true},
					{Kind: KindAdd, Text: "c", New: 2, NoNewline: true},
				}},
			}}},
		},
		{
			name: "CRLF line ends",
			in:   strings.ReplaceAll(lines("diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@ sec", " a", "-b", "+c"), "\n", "\r\n"),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Section: "sec", Lines: []Line{ctx(1, 1, "a"), del(2, "b"), add(2, "c")}},
			}}},
		},
		{
			name: "context line with its space stripped, and no final newline",
			in:   "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-c\n+d",
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Lines: []Line{ctx(1, 1, "a"), ctx(2, 2, ""), del(3, "c"), add(3, "d")}},
			}}},
		},
		{
			name: "bare hunk without file header",
			in:   lines("@@ -3,2 +3,2 @@", " x", "-y", "+z"),
			want: []File{{Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 3, OldLines: 2, NewStart: 3, NewLines: 2, Lines: []Line{ctx(3, 3, "x"), del(4, "y"), add(4, "z")}},
			}}},
		},
		{
			name: "removed lines that look like headers",
			in:   lines("--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", "--- a", "+++ b", " c"),
			want: []File{{OldPath: "x", NewPath: "x", Status: StatusModified, Additions: 1, Deletions: 1, Hunks: []Hunk{
				{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []Line{del(1, "-- a"), add(1, "++ b"), ctx(2, 2, "c")}},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(d.Files, tt.want) {
				got, _ := json.MarshalIndent(d.Files, "", "  ")
				want, _ := json.MarshalIndent(tt.want, "", "  ")
				t.Errorf("files:\n%s\nwant:\n%s", got, want)
			}
			checkStats(t, d)
		})
	}
}

// checkStats fails t unless d.Stats is the sum over d.Files and every hunk
// holds the number of lines its header says.
func checkStats(t testing.TB, d *Diff) {
	t.Helper()
	var want Stats
	want.Files = len(d.Files)
	for _, f := range d.Files {
		want.Additions += f.Additions
		want.Deletions += f.Deletions
		for _, h := range f.Hunks {
			old, new := 0, 0
			for _, l := range h.Lines {
				if l.Kind != KindAdd {
					old++
				}
				if l.Kind != KindRemove {
					new++
				}
			}
			if old != h.OldLines || new != h.NewLines {
				t.Errorf("%s: hunk @@ -%d,%d +%d,%d @@ holds %d old and %d new lines",
					f.Path(), h.OldStart, h.OldLines, h.NewStart, h.NewLines, old, new)
			}
		}
	}
	if d.Stats != want {
		t.Errorf("Stats = %+v, want %+v", d.Stats, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", "unidiff: no file headers or hunks found"},
		{"only text", "just some words\nand more\n", "unidiff: no file headers or hunks found"},
		{
			name: "hunk shorter than its header",
			in: lines(
				"diff --git a/x.go b/x.go",
				"--- a/x.go",
				"+++ b/x.go",
				"@@ -1 +1 @@",
				"-a",
				"+b",
				"@@ -10,3 +10,4 @@ func F()",
				" a",
				"+b",
				" c",
				"diff --git a/y.go b/y.go",
			),
			want: "unidiff: x.go hunk 2 (@@ -10,3 +10,4 @@): header says 3 old lines, found 2",
		},
		{
			name: "hunk short on the new side only",
			in:   lines("--- a/x.go", "+++ b/x.go", "@@ -10,3 +10,4 @@", " a", "+b", " c", "-d"),
			want: "unidiff: x.go hunk 1 (@@ -10,3 +10,4 @@): header says 4 new lines, found 3",
		},
		{
			name: "hunk short before the next plain file header",
			in:   lines("--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", " a", "--- a/y", "+++ b/y", "@@ -1 +1 @@", "-a", "+b"),
			want: "unidiff: x hunk 1 (@@ -1,2 +1,2 @@): header says 2 old lines, found 1",
		},
		{
			name: "hunk longer than its header",
			in:   lines("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b", "+c"),
			want: "unidiff: x hunk 1 (@@ -1 +1 @@): header says 1 new line, found 2",
		},
		{
			name: "hunk header without numbers",
			in:   lines("--- a/x", "+++ b/x", "@@ -a +1 @@", "-a"),
			want: `unidiff: invalid hunk header "@@ -a +1 @@"`,
		},
		{
			name: "hunk header without closing @@",
			in:   lines("--- a/x", "+++ b/x", "@@ -1 +1", "-a"),
			want: `unidiff: invalid hunk header "@@ -1 +1"`,
		},
		{
			name: "hunk header with a huge line number",
			in:   lines("--- a/x", "+++ b/x", "@@ -1 +99999999999999999999 @@", "-a"),
			want: `unidiff: invalid hunk header "@@ -1 +99999999999999999999 @@"`,
		},
		{
			name: "combined diff",
			in:   lines("diff --cc main.go", "index 1,2..3", "@@@ -1,1 -1,1 +1,1 @@@"),
			want: "unidiff: main.go: combined diffs of merges are not supported",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse succeeded with %d files, want error %q", len(d.Files), tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q, want %q", err, tt.want)
			}
		})
	}
}

func TestParseCaps(t *testing.T) {
	var many strings.Builder
	for i := range MaxFiles + 1 {
		fmt.Fprintf(&many, "diff --git a/f%d b/f%d\nold mode 100644\nnew mode 100755\n", i, i)
	}
	if _, err := Parse(many.String()); err == nil || err.Error() != "unidiff: diff has more than 5000 files" {
		t.Errorf("%d files: error = %v", MaxFiles+1, err)
	}

	long := fmt.Sprintf("--- a/x\n+++ b/x\n@@ -1,0 +1,%d @@\n", MaxLines+1) + strings.Repeat("+x\n", MaxLines+1)
	if _, err := Parse(long); err == nil || err.Error() != "unidiff: diff has more than 200000 lines" {
		t.Errorf("%d lines: error = %v", MaxLines+1, err)
	}

	// At the caps exactly, parsing succeeds.
	atCap := fmt.Sprintf("--- a/x\n+++ b/x\n@@ -1,0 +1,%d @@\n", MaxLines) + strings.Repeat("+x\n", MaxLines)
	d, err := Parse(atCap)
	if err != nil {
		t.Fatalf("%d lines: %v", MaxLines, err)
	}
	if d.Stats.Additions != MaxLines {
		t.Errorf("Additions = %d, want %d", d.Stats.Additions, MaxLines)
	}
}

func TestJSON(t *testing.T) {
	d, err := Parse(lines("--- a/x", "+++ b/x", "@@ -1 +1 @@ s", "-a", "+b"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"files":[{"oldPath":"x","newPath":"x","status":"modified","binary":false,"additions":1,"deletions":1,` +
		`"hunks":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"section":"s",` +
		`"lines":[{"kind":"remove","text":"a","old":1},{"kind":"add","text":"b","new":1}]}]}],` +
		`"stats":{"files":1,"additions":1,"deletions":1}}`
	if string(got) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", got, want)
	}
}

func TestSummary(t *testing.T) {
	d, err := Parse(lines(
		"diff --git a/main.go b/main.go",
		"--- a/main.go",
		"+++ b/main.go",
		"@@ -1,2 +1,3 @@",
		" a",
		"-b",
		"+c",
		"+d",
		"diff --git a/new.go b/new.go",
		"new file mode 100644",
		"--- /dev/null",
		"+++ b/new.go",
		"@@ -0,0 +1 @@",
		"+x",
		"diff --git a/gone.go b/gone.go",
		"deleted file mode 100644",
		"--- a/gone.go",
		"+++ /dev/null",
		"@@ -1 +0,0 @@",
		"-x",
		"diff --git a/old.go b/renamed.go",
		"similarity index 100%",
		"rename from old.go",
		"rename to renamed.go",
		"diff --git a/logo.png b/logo.png",
		"Binary files a/logo.png and b/logo.png differ",
	))
	if err != nil {
		t.Fatal(err)
	}
	full := "5 files changed, +3 −2\n" +
		"M main.go (+2 −1)\n" +
		"A new.go (+1 −0)\n" +
		"D gone.go (+0 −1)\n" +
		"R old.go → renamed.go (+0 −0)\n" +
		"M logo.png (binary)"
	tests := []struct {
		max  int
		want string
	}{
		{0, full},
		{-1, full},
		{len([]rune(full)), full},
		{len([]rune(full)) - 1, strings.TrimSuffix(full, "y)") + "…"},
		{10, "5 files c…"},
		{1, "…"},
	}
	for _, tt := range tests {
		if got := d.Summary(tt.max); got != tt.want {
			t.Errorf("Summary(%d) =\n%s\nwant:\n%s", tt.max, got, tt.want)
		}
	}

	one, err := Parse(lines("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := one.Summary(0), "1 file changed, +1 −1\nM x (+1 −1)"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(lines("diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@ s", " a", "-b", "+c", `\ No newline at end of file`))
	f.Add(lines("--- a\t1", "+++ b\t2", "@@ -1 +1 @@", "-a", "+b"))
	f.Add(lines("@@ -0,0 +1 @@", "+x"))
	f.Fuzz(func(t *testing.T, in string) {
		d, err := Parse(in)
		if err != nil {
			return
		}
		if len(d.Files) == 0 {
			t.Fatal("Parse succeeded without files")
		}
		checkStats(t, d)
		_ = d.Summary(100)
	})
}
