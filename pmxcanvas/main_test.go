package pmxcanvas

import (
	"os"
	"testing"
)

// TestMain keeps webpage nodes the tests create off the internet: with
// PMX_CANVAS_OFFLINE=1 a fetch reaches only loopback and IP literals.
func TestMain(m *testing.M) {
	if os.Getenv("PMX_CANVAS_OFFLINE") == "" {
		os.Setenv("PMX_CANVAS_OFFLINE", "1")
	}
	os.Exit(m.Run())
}
