package pmxcanvas

import (
	"bytes"
	"os"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/internal/gen/opsgen"
)

// zz_generated_ops.go is what the catalog generates now: a new or changed
// operation cannot reach the repository without its Go method.
func TestGeneratedOpsAreFresh(t *testing.T) {
	want, err := opsgen.Source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(opsgen.File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run: go generate ./pmxcanvas", opsgen.File)
	}
}
