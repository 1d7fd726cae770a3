// Package browsertest runs browser tests: it decides whether they run here,
// and opens pages in Debian's Chromium with go-rod for tests that drive the
// workbench with real mouse and keyboard input.
package browsertest

import (
	"os"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
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

// Open launches a headless Chromium with a width × height viewport, loads
// url and returns the page; the browser closes when the test ends. The
// caller has checked Require.
func Open(t testing.TB, url string, width, height int) *rod.Page {
	t.Helper()
	bin, ok := launcher.LookPath()
	if p := os.Getenv("PMX_CANVAS_CHROME_PATH"); p != "" {
		bin, ok = p, true
	}
	if !ok {
		t.Fatal("no Chromium found")
	}
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(os.Geteuid() == 0)
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	browser := rod.New().ControlURL(u)
	if err := browser.Connect(); err != nil {
		l.Kill()
		t.Fatalf("connect to chromium: %v", err)
	}
	t.Cleanup(func() {
		_ = browser.Close()
		l.Kill()
		l.Cleanup()
	})
	page, err := browser.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: 1}).Call(page); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(url); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
	if err := page.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	return page
}
