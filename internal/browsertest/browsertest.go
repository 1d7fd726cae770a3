// Package browsertest decides whether a browser test runs here.
package browsertest

import (
	"os"
	"testing"
)

// Require skips t when engine finds no browser, unless
// PMX_REQUIRE_CHROMIUM=1 (set by CI, which installs Debian's chromium): then
// a missing browser fails the test instead of hiding it.
func Require(t testing.TB, engine interface{ Supported() bool }) {
	t.Helper()
	if engine.Supported() {
		return
	}
	if os.Getenv("PMX_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("PMX_REQUIRE_CHROMIUM=1 but no Chromium was found (apt-get install -y chromium)")
	}
	t.Skip("no Chromium installed (apt-get install -y chromium); browser tests skipped")
}
