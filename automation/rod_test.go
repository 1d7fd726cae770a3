package automation_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ysmood/leakless/pkg/shared"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// chromium returns the real engine, or skips the test where no browser is
// installed (CI installs one and sets PMX_REQUIRE_CHROMIUM=1 so it never
// skips there).
func chromium(t testing.TB) *automation.Chromium {
	t.Helper()
	c := &automation.Chromium{}
	browsertest.Require(t, c)
	return c
}

const testPage = `<!doctype html><html><head><title>PMX Canvas</title></head>
<body style="margin:0;background:#123456"><div class="canvas-node">a</div><div class="canvas-node">b</div></body></html>`

func pageServer(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(testPage))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func startPage(t testing.TB, c *automation.Chromium, width, height int) automation.Session {
	t.Helper()
	srv := pageServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := c.Start(ctx, srv.URL, automation.Options{Width: width, Height: height})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestChromiumEvaluate(t *testing.T) {
	s := startPage(t, chromium(t), 1024, 700)
	ctx := context.Background()
	cases := []struct {
		expr    string
		want    string // "" means no value
		wantErr string
	}{
		{expr: "document.title", want: `"PMX Canvas"`},
		{expr: "document.title;", want: `"PMX Canvas"`},
		{expr: "1 // a comment", want: `1`},
		{expr: "Promise.resolve(42)", want: `42`},
		{expr: "null", want: `null`},
		{expr: "undefined"},
		{expr: "NaN"},
		{expr: "10n"},
		{expr: "document.body", want: `{}`},
		{expr: "[1,undefined,()=>1]", want: `[1,null,{}]`},
		{expr: "document.querySelectorAll('.canvas-node').length", want: `2`},
		{expr: "({w: innerWidth, h: innerHeight})", want: `{"h":700,"w":1024}`},
		{expr: automation.ScriptExpression("const a = 1; return a + 2;"), want: `3`},
		{expr: "throw new Error('boom')", wantErr: "Unexpected token 'throw'"},
		{expr: "(void 0).y", wantErr: "Cannot read properties of undefined (reading 'y')"},
		{expr: automation.ScriptExpression("throw new Error('boom')"), wantErr: "boom"},
	}
	for _, tc := range cases {
		t.Run(tc.expr, func(t *testing.T) {
			src := tc.expr
			if !strings.HasPrefix(src, "(async") {
				src = automation.ExpressionSource(src)
			}
			v, defined, err := s.Evaluate(ctx, src)
			if tc.wantErr != "" {
				se, ok := err.(*automation.ScriptError)
				if !ok || se.Message != tc.wantErr {
					t.Fatalf("err = %#v, want automation.ScriptError %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if defined {
					t.Fatalf("value %s, want none", v)
				}
				return
			}
			if !defined || string(v) != tc.want {
				t.Fatalf("value %s (defined %v), want %s", v, defined, tc.want)
			}
		})
	}
}

func TestChromiumResizeAndScreenshot(t *testing.T) {
	s := startPage(t, chromium(t), 800, 600)
	ctx := context.Background()
	shot := func(format string, quality *int) image.Image {
		t.Helper()
		b, err := s.Screenshot(ctx, format, quality)
		if err != nil {
			t.Fatal(err)
		}
		img, kind, err := image.Decode(bytes.NewReader(b))
		if err != nil || kind != format {
			t.Fatalf("decode %s: kind %q err %v", format, kind, err)
		}
		return img
	}
	if b := shot("png", nil).Bounds(); b.Dx() != 800 || b.Dy() != 600 {
		t.Fatalf("start viewport shot %v, want 800x600", b)
	}
	if err := s.Resize(ctx, 1280, 800); err != nil {
		t.Fatal(err)
	}
	q := 70
	if b := shot("jpeg", &q).Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
		t.Fatalf("resized shot %v, want 1280x800", b)
	}
	v, _, err := s.Evaluate(ctx, "innerWidth + 'x' + innerHeight")
	if err != nil || string(v) != `"1280x800"` {
		t.Fatalf("inner size %s, %v", v, err)
	}
	webp, err := s.Screenshot(ctx, "webp", nil)
	if err != nil || !bytes.HasPrefix(webp, []byte("RIFF")) {
		t.Fatalf("webp: %v, % x", err, webp[:min(len(webp), 8)])
	}
}

func TestChromiumMissingBinary(t *testing.T) {
	c := &automation.Chromium{Bin: "/nonexistent/chromium"}
	_, err := c.Start(context.Background(), "about:blank", automation.Options{Width: 100, Height: 100})
	if err == nil {
		t.Fatal("start with a missing binary succeeded")
	}
}

// Where go-rod's leakless guard cannot run its helper (a noexec temp
// directory, here a helper file without the exec bit), the browser still
// starts, without the guard. The guard's path is fixed when the process
// starts, so the check runs in a child test process with its own TMPDIR.
func TestChromiumStartsWithoutTheLeaklessGuard(t *testing.T) {
	c := chromium(t)
	if os.Getenv("PMX_LEAKLESS_BLOCKED") == "1" {
		s := startPage(t, c, 400, 300)
		v, _, err := s.Evaluate(context.Background(), automation.ExpressionSource("document.title"))
		if err != nil || string(v) != `"PMX Canvas"` {
			t.Fatalf("evaluate: %s %v", v, err)
		}
		return
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, fmt.Sprintf("leakless-%s-%s", runtime.GOARCH, shared.Version))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "leakless"), []byte("#!/bin/sh\nexit 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestChromiumStartsWithoutTheLeaklessGuard$", "-test.v")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "PMX_LEAKLESS_BLOCKED=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestChromiumStartsWithoutTheLeaklessGuard") {
		t.Fatalf("child test: %v\n%s", err, out)
	}
}
