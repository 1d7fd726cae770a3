package codegraph

import (
	"path"
	"strings"
)

// Import kinds reported by [Imports]. The JavaScript kinds are esbuild's own
// names for its import records (the ones its metafile uses).
const (
	KindImportStatement = "import-statement" // JS/TS import or export … from, including import type
	KindRequireCall     = "require-call"     // JS require('…'), TS import x = require('…')
	KindDynamicImport   = "dynamic-import"   // JS import('…') with a constant specifier
	KindImport          = "import"           // Go import, Python import a.b
	KindFrom            = "from"             // Python from a.b import c
	KindMod             = "mod"              // Rust mod x;
	KindUse             = "use"              // Rust use crate::…, super::…, self::…
)

// An Import is one module reference found in a file.
type Import struct {
	// Spec is the specifier as written: './b', 'github.com/x/y', 'a.b',
	// '..pkg' (Python relative), 'x' (Rust mod) or 'crate::a::b' (Rust use).
	Spec string
	// Kind is one of the Kind constants.
	Kind string
	// Names holds the names after "import" in a Python from-import, since
	// each of them may be a submodule ("from . import b" imports b.py).
	// It is nil for every other kind; "*" stands for a star import.
	Names []string
}

// language is the parser family chosen by a file's extension.
type language int

const (
	langNone language = iota
	langJS
	langGo
	langPython
	langRust
)

// languageOf returns the language of p by its extension; langNone for
// files that are not analysed.
func languageOf(p string) language {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".mts", ".cjs", ".cts":
		return langJS
	case ".go":
		return langGo
	case ".py", ".pyi":
		return langPython
	case ".rs":
		return langRust
	}
	return langNone
}

// Imports parses content as the language its path's extension names and
// returns the imports found, in source order, without repeats. A file of
// another extension has no imports and no error.
//
// A syntax error does not discard what was found: the result is the
// imports that could be read together with an error that names the file
// and the place. For JS/TS that is none after a syntax error, where
// esbuild's parser stops, but all of them after an error it reports and
// parses on (a symbol declared twice, a top-level return in a module).
func Imports(path, content string) ([]Import, error) {
	switch languageOf(path) {
	case langJS:
		r := parseJSBatch([]jsSource{{path: path, content: content}})[0]
		return r.imports, r.err
	case langGo:
		return goImports(path, content)
	case langPython:
		return pythonImports(path, content)
	case langRust:
		return rustImports(path, content)
	}
	return nil, nil
}

// importSet collects imports in order and drops repeats.
type importSet struct {
	list []Import
	seen map[string]bool
}

func (s *importSet) add(imp Import) {
	key := imp.Kind + "\x00" + imp.Spec + "\x00" + strings.Join(imp.Names, "\x00")
	if s.seen == nil {
		s.seen = make(map[string]bool)
	}
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.list = append(s.list, imp)
}
