package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestProgressOnlyOnATerminal(t *testing.T) {
	t.Setenv("PMX_CANVAS_PROGRESS", "")
	var buf bytes.Buffer
	p := newProgress(&buf, "Importing", 3)
	if p != nil {
		t.Fatal("a buffer is not a terminal")
	}
	// A nil *Progress is a no-op.
	p.Add(1)
	p.Notef("x")
	p.Set(2)
	p.Done()
	if buf.Len() != 0 {
		t.Fatalf("wrote %q", buf.String())
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || newProgress(f, "x", 1) != nil {
		t.Fatal("a file is not a terminal")
	}
	t.Setenv("PMX_CANVAS_PROGRESS", "never")
	if progressEnabled(os.Stderr) {
		t.Fatal("never means never")
	}
}

func TestProgressRendering(t *testing.T) {
	t.Setenv("PMX_CANVAS_PROGRESS", "always")
	var buf bytes.Buffer
	p := newProgress(&buf, "Importing", 4)
	p.Add(1) // throttled: within 100ms of the first draw
	p.Notef("node %d", 2)
	p.Set(4) // the last step always draws
	p.Done()
	p.Done()
	out := buf.String()
	if !strings.HasPrefix(out, "\rImporting: 0/4 (0%)") {
		t.Fatalf("first draw %q", out)
	}
	if !strings.Contains(out, "\rImporting: 4/4 (100%) node 2") {
		t.Fatalf("final draw missing: %q", out)
	}
	last := out[strings.LastIndex(out[:len(out)-1], "\r"):]
	if strings.TrimSpace(strings.Trim(last, "\r")) != "" || !strings.HasSuffix(out, "\r") {
		t.Fatalf("Done does not blank the line: %q", last)
	}
	if strings.Count(out, "Importing:") != 2 {
		t.Fatalf("redraws not throttled: %q", out)
	}
	// Unknown total: a plain count.
	buf.Reset()
	q := newProgress(&buf, "Scanning", 0)
	q.Set(12)
	if !strings.Contains(buf.String(), "Scanning: 0") {
		t.Fatalf("%q", buf.String())
	}
}
