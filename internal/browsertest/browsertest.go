// Package browsertest runs browser tests: it decides whether they run here,
// and opens pages in Debian's Chromium with go-rod for tests that drive the
// workbench with real mouse and keyboard input.
package browsertest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/automation"
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

// Open launches a headless Chromium (the automation engine) with a
// width × height viewport, loads url and returns the page; the browser
// closes when the test ends. The caller has checked Require.
func Open(t testing.TB, url string, width, height int) *rod.Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	page, closeBrowser, err := (&automation.Chromium{}).OpenPage(ctx, url, automation.Options{Width: width, Height: height})
	if err != nil {
		t.Fatalf("open %s in chromium: %v", url, err)
	}
	t.Cleanup(func() { _ = closeBrowser() })
	return page
}

// Problems records what page reports as going wrong from now on: console
// errors, uncaught exceptions and error log entries (a blocked or failed
// load). The returned func reads them so far.
func Problems(t testing.TB, page *rod.Page) func() []string {
	t.Helper()
	for _, enable := range []interface{ Call(proto.Client) error }{proto.RuntimeEnable{}, proto.LogEnable{}} {
		if err := enable.Call(page); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var got []string
	add := func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}
	go page.EachEvent(
		func(e *proto.RuntimeConsoleAPICalled) {
			if e.Type == proto.RuntimeConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, a.Value.String()+a.Description)
				}
				add("console.error: " + strings.Join(parts, " "))
			}
		},
		func(e *proto.RuntimeExceptionThrown) { add("exception: " + e.ExceptionDetails.Text) },
		func(e *proto.LogEntryAdded) {
			if e.Entry.Level == proto.LogLogEntryLevelError {
				add("log: " + e.Entry.Text)
			}
		},
	)()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}
