package webartifact

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// selfContainedCSP lets the page run only what it carries inline: any
// request for a script, style, image or anything else fails and is logged.
const selfContainedCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:"

// TestBuildInChromium opens the default counter artifact in Chromium under
// a CSP that forbids every load, and checks that React rendered the App,
// that a click updates its state and that nothing went wrong.
func TestBuildInChromium(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	root := t.TempDir()
	res, _ := build(t, Options{Root: root, Title: "Counter", AppTsx: counterApp, IndexCSS: "h1 { color: rgb(1, 2, 3); }"})
	page, err := os.ReadFile(root + "/" + res.Path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var requested []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		mu.Lock()
		requested = append(requested, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", selfContainedCSP)
		w.Write(page)
	}))
	t.Cleanup(srv.Close)

	p := browsertest.Open(t, "about:blank", 800, 600)
	problems := browsertest.Problems(t, p)
	if err := p.Navigate(srv.URL + "/artifact.html"); err != nil {
		t.Fatal(err)
	}
	p = p.Timeout(20 * time.Second)
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	title, err := p.Element("#title")
	if err != nil {
		t.Fatalf("App did not render: %v", err)
	}
	if text, _ := title.Text(); text != "Hello from the artifact" {
		t.Errorf("#title = %q", text)
	}
	if color, err := p.Eval(`() => getComputedStyle(document.getElementById('title')).color`); err != nil || color.Value.Str() != "rgb(1, 2, 3)" {
		t.Errorf("inlined CSS not applied: %v %v", color, err)
	}
	button, err := p.Element("#inc")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := button.Click("left", 1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.ElementR("#inc", "clicked 2 times"); err != nil {
		text, _ := button.Text()
		t.Errorf("after two clicks the button reads %q", text)
	}
	if got := problems(); len(got) > 0 {
		t.Errorf("problems in the page:\n%s", strings.Join(got, "\n"))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requested) != 1 {
		t.Errorf("page requested %q, want only itself", requested)
	}
}
