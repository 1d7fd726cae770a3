package surface

import (
	"strings"
	"testing"
)

func TestDocument(t *testing.T) {
	for _, tc := range []struct {
		name, author string
		o            Options
		want, not    []string
	}{
		{"fragment", "<p>hi</p>", Options{NodeID: "node-1", Title: "A <b>", Theme: "light"},
			[]string{`<!doctype html><html lang="en" data-theme="light"><head>`, `<title>A &lt;b&gt;</title>`, `<body><p>hi</p></body>`, `id="pmx-surface-theme"`},
			[]string{`"ax":true`}},
		{"full document keeps its title", "<html><head><title>Own</title></head><body>x</body></html>", Options{Title: "Node", Present: true},
			[]string{`<!doctype html><html data-theme="dark" data-present=""><head><meta charset="utf-8">`, "<title>Own</title>"},
			[]string{"<title>Node</title>"}},
		{"html without head", "<html><body>x</body></html>", Options{Title: "T"},
			[]string{`<html data-theme="dark"><head><meta charset="utf-8">`, "<title>T</title></head><body>x"}, nil},
		{"ax bridge needs AX and a token", "<p>", Options{NodeID: "n", AX: true, AXToken: "ax-1<>2", State: map[string]any{"w": "</script><script>alert(1)</script>"}},
			[]string{`"ax":true`, `"axToken":"ax-12"`, `\u003c/script\u003e`}, []string{"</script><script>alert"}},
		{"no ax without a token", "<p>", Options{NodeID: "n", AX: true}, []string{`"ax":false`}, []string{`"ax":true`, `"state"`}},
		{"height reporter", "<p>", Options{FrameToken: "f1"}, []string{`"frameToken":"f1"`, "pmx-frame-height"}, nil},
	} {
		got := string(Document(tc.author, tc.o))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q in\n%s", tc.name, n, got)
			}
		}
	}
}

func TestTokenAndTheme(t *testing.T) {
	if got := Token(`ax-abc<>123"';`, 64); got != "ax-abc123" {
		t.Errorf("Token = %q", got)
	}
	if got := Token(strings.Repeat("a", 100), 64); len(got) != 64 {
		t.Errorf("Token kept %d characters", len(got))
	}
	for in, want := range map[string]string{"light": "light", "high-contrast": "high-contrast", "neon": "dark", "": "dark"} {
		if Theme(in) != want {
			t.Errorf("Theme(%q) = %q", in, Theme(in))
		}
	}
}
