package codegraph

import (
	"strings"
	"testing"
)

// checkImports holds for every language: specifiers are non-empty, kinds
// are the language's, and no import repeats.
func checkImports(t *testing.T, imps []Import, kinds ...string) {
	t.Helper()
	seen := map[string]bool{}
	for _, imp := range imps {
		if imp.Spec == "" {
			t.Errorf("empty specifier in %v", imps)
		}
		ok := false
		for _, k := range kinds {
			ok = ok || imp.Kind == k
		}
		if !ok {
			t.Errorf("kind %q, want one of %q", imp.Kind, kinds)
		}
		key := imp.Kind + "\x00" + imp.Spec + "\x00" + strings.Join(imp.Names, ",")
		if seen[key] {
			t.Errorf("repeated import %v", imp)
		}
		seen[key] = true
	}
}

func FuzzImportsJS(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		if out, _ := neutralizeGlobs(src); len(out) != len(src) {
			t.Fatalf("neutralizeGlobs changed the length: %d → %d", len(src), len(out))
		}
		if out, _ := blankTypeImports(src); len(out) != len(src) {
			t.Fatalf("blankTypeImports changed the length: %d → %d", len(src), len(out))
		}
		for _, p := range []string{"f.ts", "f.tsx", "f.js"} {
			imps, err := Imports(p, src)
			// The tests run in the package directory, which holds files a
			// glob such as import(`./${x}`) would match: reading one is a bug.
			if err != nil && strings.Contains(err.Error(), "refusing to read") {
				t.Fatalf("Imports(%s) touched the disk: %v", p, err)
			}
			checkImports(t, imps, KindImportStatement, KindRequireCall, KindDynamicImport)
		}
	})
}

func FuzzImportsGo(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		imps, _ := Imports("f.go", src)
		checkImports(t, imps, KindImport)
	})
}

func FuzzImportsPython(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		imps, _ := Imports("f.py", src)
		checkImports(t, imps, KindImport, KindFrom)
		for _, imp := range imps {
			// Leading dots only in a from-import; then dotted identifiers.
			rest := imp.Spec
			if imp.Kind == KindFrom {
				rest = strings.TrimLeft(rest, ".")
			}
			if rest == "" && imp.Kind == KindImport || rest != "" && slicesContainsEmpty(strings.Split(rest, ".")) {
				t.Errorf("malformed module %q (%s)", imp.Spec, imp.Kind)
			}
		}
	})
}

func slicesContainsEmpty(parts []string) bool {
	for _, p := range parts {
		if p == "" {
			return true
		}
	}
	return false
}

func FuzzImportsRust(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		imps, _ := Imports("src/lib.rs", src)
		checkImports(t, imps, KindMod, KindUse)
		for _, imp := range imps {
			first, _, _ := strings.Cut(imp.Spec, "::")
			if imp.Kind == KindUse && first != "crate" && first != "super" && first != "self" {
				t.Errorf("use path %q is not crate-local", imp.Spec)
			}
		}
	})
}
