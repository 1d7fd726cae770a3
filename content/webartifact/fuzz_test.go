package webartifact

import (
	"regexp"
	"strings"
	"testing"
)

// The seed corpora are in testdata/fuzz/FuzzSlug and testdata/fuzz/FuzzDepName.

var slugShape = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// FuzzSlug checks that every slug is a safe single path element: a-z, 0-9
// and single inner dashes, at most MaxSlug bytes, and stable.
func FuzzSlug(f *testing.F) {
	f.Fuzz(func(t *testing.T, title string) {
		s := Slug(title)
		if len(s) > MaxSlug || !slugShape.MatchString(s) {
			t.Fatalf("Slug(%q) = %q", title, s)
		}
		if Slug(s) != s {
			t.Fatalf("Slug(Slug(%q)) = %q, not %q", title, Slug(s), s)
		}
	})
}

// FuzzDepName checks that an accepted dep can never be read by npm as a
// flag, a path, a URL or a git or file spec, nor split into two arguments.
func FuzzDepName(f *testing.F) {
	f.Fuzz(func(t *testing.T, dep string) {
		if ValidateDep(dep) != nil {
			return
		}
		if strings.HasPrefix(dep, "-") || strings.HasPrefix(dep, ".") ||
			strings.ContainsAny(dep, ":\\ \t\n\r\x00;&$`'\"") {
			t.Fatalf("accepted %q", dep)
		}
		if strings.Count(dep, "/") > 1 || (strings.Contains(dep, "/") && !strings.HasPrefix(dep, "@")) {
			t.Fatalf("accepted path-like %q", dep)
		}
	})
}
