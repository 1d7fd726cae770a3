package httpapi

import (
	"strings"
	"testing"
)

func TestClientLabelIsBoundedPrintableText(t *testing.T) {
	for in, want := range map[string]string{
		"workbench:ab12":        "workbench:ab12",
		"tab\n\x00one\x7f":      "tabone",
		"":                      "",
		strings.Repeat("é", 40): strings.Repeat("é", 32), // 64 bytes, never half a rune
	} {
		if got := clientLabel(in); got != want {
			t.Errorf("clientLabel(%q) = %q, want %q", in, got, want)
		}
	}
}
