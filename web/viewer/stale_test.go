package viewer_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/web/viewer/build"
)

// TestDistIsFresh rebuilds the bundles from src/ and node_modules into a
// temporary directory and compares them with the committed dist/, which is
// what the server embeds. It needs node_modules (npm ci) and node; without
// them it is skipped, unless PMX_REQUIRE_WEB=1 (CI sets it after npm ci).
func TestDistIsFresh(t *testing.T) {
	if _, err := os.Stat("node_modules"); err != nil {
		requireWeb(t, "web/viewer/node_modules is missing (npm ci --prefix web/viewer)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		requireWeb(t, "node is not installed")
	}
	out := t.TempDir()
	if err := build.Build(".", out); err != nil {
		t.Fatal(err)
	}
	for _, name := range build.Files {
		fresh, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join("dist", name))
		if err != nil {
			t.Errorf("dist/%s: %v: run make web", name, err)
			continue
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("dist/%s is stale (%d bytes committed, %d built): run make web", name, len(committed), len(fresh))
		}
	}
}

func requireWeb(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("PMX_REQUIRE_WEB") == "1" {
		t.Fatalf("PMX_REQUIRE_WEB=1 but %s", why)
	}
	t.Skip(why + "; staleness check skipped")
}
