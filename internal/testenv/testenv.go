// Package testenv holds what several test binaries set up the same way.
package testenv

import (
	"os"
	"testing"
)

// Main runs a package's tests offline: with PMX_CANVAS_OFFLINE=1 the
// webpage nodes tests create reach only loopback and IP-literal addresses
// and never look a name up, so no test touches the internet. A value
// already set (make test sets it too) is kept.
func Main(m *testing.M) {
	if os.Getenv("PMX_CANVAS_OFFLINE") == "" {
		os.Setenv("PMX_CANVAS_OFFLINE", "1")
	}
	os.Exit(m.Run())
}
