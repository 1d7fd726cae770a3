package codegraph

import (
	"fmt"
	"go/parser"
	"go/token"
	"strconv"
)

// goImports returns the import paths of a Go source file. The standard
// parser stops after the import declarations (parser.ImportsOnly), so a
// syntax error later in the file goes unnoticed; one inside the imports
// keeps the imports parsed before it.
func goImports(name, content string) ([]Import, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, content, parser.ImportsOnly|parser.SkipObjectResolution)
	var set importSet
	if f != nil {
		for _, spec := range f.Imports {
			if spec.Path == nil {
				continue
			}
			p, uerr := strconv.Unquote(spec.Path.Value)
			if uerr != nil || p == "" {
				continue
			}
			set.add(Import{Spec: p, Kind: KindImport})
		}
	}
	if err != nil {
		return set.list, fmt.Errorf("codegraph: parse go imports: %w", err)
	}
	return set.list, nil
}
