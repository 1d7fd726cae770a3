package docgen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every generated region of docs/ is what its source renders now.
func TestGeneratedDocsAreFresh(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("a generated region of %s is stale; run: go generate ./pmxcanvas", path)
		}
	}
}

// Applying a region keeps the prose around it and replaces only what is
// between its markers, however stale.
func TestApplyReplacesOnlyTheRegion(t *testing.T) {
	r := region("x.md", "t", func() (string, error) { return "new\n\n", nil })
	doc := []byte("intro\n" + r.Begin + "\nold\nstuff\n" + r.End + "\noutro\n")
	got, err := Apply(doc, r)
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n" + r.Begin + "\n\nnew\n\n" + r.End + "\noutro\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if again, _ := Apply(got, r); !bytes.Equal(again, got) {
		t.Fatal("applying twice changed the doc")
	}
	if _, err := Apply([]byte("no markers"), r); err == nil || !strings.Contains(err.Error(), "lacks the marker") {
		t.Fatalf("missing markers: %v", err)
	}
}

func TestSlugMatchesGitHubAnchors(t *testing.T) {
	for in, want := range map[string]string{
		"GET /api/canvas/node/:id": "get-apicanvasnodeid",
		"ax.host-capability.get":   "axhost-capabilityget",
		"canvas_add_node":          "canvas_add_node",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
