package codegraph

import (
	"reflect"
	"testing"
)

func TestResolve(t *testing.T) {
	root := "/ws"
	paths := []string{
		"/ws/src/a.ts", "/ws/src/b.ts", "/ws/src/c.tsx", "/ws/src/d.js", "/ws/src/e.mts", "/ws/src/f.cts",
		"/ws/src/lib/index.ts", "/ws/src/ui/index.jsx", "/ws/src/both.ts", "/ws/src/both/index.ts",
		"/ws/src/plain.js", "/ws/src/plain.ts",
		"/ws/pkg/__init__.py", "/ws/pkg/mod.py", "/ws/pkg/sub/__init__.py", "/ws/pkg/sub/leaf.py", "/ws/pkg/sub/near.py",
		"/ws/tools/run.py", "/ws/tools/helper.py",
		"/ws/internal/foo/foo.go", "/ws/internal/foo/bar.go", "/ws/internal/foo/foo_test.go", "/ws/cmd/main.go",
		"/ws/mod/go.mod", "/ws/mod/api/api.go", "/ws/mod/root.go",
		"/ws/rs/src/lib.rs", "/ws/rs/src/net.rs", "/ws/rs/src/net/tcp.rs", "/ws/rs/src/util/mod.rs", "/ws/rs/src/util/fmt.rs",
	}
	r := newResolver(root, paths, map[string]string{"/ws/mod/go.mod": "// m\nmodule example.com/m\n\ngo 1.22\n"})
	tests := []struct {
		name, from string
		lang       language
		imp        Import
		want       []string
	}{
		{"exact", "/ws/src/a.ts", langJS, Import{Spec: "./b.ts"}, []string{"/ws/src/b.ts"}},
		{"suffix .ts", "/ws/src/a.ts", langJS, Import{Spec: "./b"}, []string{"/ws/src/b.ts"}},
		{"suffix .tsx", "/ws/src/a.ts", langJS, Import{Spec: "./c"}, []string{"/ws/src/c.tsx"}},
		{"suffix .js", "/ws/src/a.ts", langJS, Import{Spec: "./d"}, []string{"/ws/src/d.js"}},
		{"index.ts", "/ws/src/a.ts", langJS, Import{Spec: "./lib"}, []string{"/ws/src/lib/index.ts"}},
		{"index.jsx", "/ws/src/a.ts", langJS, Import{Spec: "./ui/"}, []string{"/ws/src/ui/index.jsx"}},
		{"file before index", "/ws/src/a.ts", langJS, Import{Spec: "./both"}, []string{"/ws/src/both.ts"}},
		{".js rewritten to .ts", "/ws/src/a.ts", langJS, Import{Spec: "./b.js"}, []string{"/ws/src/b.ts"}},
		{".js rewritten to .tsx", "/ws/src/a.ts", langJS, Import{Spec: "./c.js"}, []string{"/ws/src/c.tsx"}},
		{".jsx rewritten to .tsx", "/ws/src/a.ts", langJS, Import{Spec: "./c.jsx"}, []string{"/ws/src/c.tsx"}},
		{".mjs rewritten to .mts", "/ws/src/a.ts", langJS, Import{Spec: "./e.mjs"}, []string{"/ws/src/e.mts"}},
		{".cjs rewritten to .cts", "/ws/src/a.ts", langJS, Import{Spec: "./f.cjs"}, []string{"/ws/src/f.cts"}},
		{"an existing .js wins over the rewrite", "/ws/src/a.ts", langJS, Import{Spec: "./plain.js"}, []string{"/ws/src/plain.js"}},
		{"parent dir", "/ws/src/lib/index.ts", langJS, Import{Spec: "../a"}, []string{"/ws/src/a.ts"}},
		{"absolute", "/ws/src/a.ts", langJS, Import{Spec: "/ws/src/b"}, []string{"/ws/src/b.ts"}},
		{"bare with slash from root", "/ws/src/lib/index.ts", langJS, Import{Spec: "src/b"}, []string{"/ws/src/b.ts"}},
		{"scoped package is not a path", "/ws/src/a.ts", langJS, Import{Spec: "@src/b"}, nil},
		{"bare package", "/ws/src/a.ts", langJS, Import{Spec: "react"}, nil},
		{"query dropped", "/ws/src/a.ts", langJS, Import{Spec: "./b?raw"}, []string{"/ws/src/b.ts"}},
		{"missing", "/ws/src/a.ts", langJS, Import{Spec: "./nope"}, nil},

		{"python dotted module", "/ws/tools/run.py", langPython, Import{Spec: "pkg.mod", Kind: KindImport}, []string{"/ws/pkg/mod.py"}},
		{"python package", "/ws/tools/run.py", langPython, Import{Spec: "pkg.sub", Kind: KindImport}, []string{"/ws/pkg/sub/__init__.py"}},
		{"python beside the file", "/ws/tools/run.py", langPython, Import{Spec: "helper", Kind: KindImport}, []string{"/ws/tools/helper.py"}},
		{"python from: name is a module", "/ws/tools/run.py", langPython, Import{Spec: "pkg.sub", Kind: KindFrom, Names: []string{"leaf"}}, []string{"/ws/pkg/sub/leaf.py"}},
		{"python from: name is not a module", "/ws/tools/run.py", langPython, Import{Spec: "pkg.mod", Kind: KindFrom, Names: []string{"func"}}, []string{"/ws/pkg/mod.py"}},
		{"python from . import sibling", "/ws/pkg/sub/leaf.py", langPython, Import{Spec: ".", Kind: KindFrom, Names: []string{"near"}}, []string{"/ws/pkg/sub/near.py"}},
		{"python from . import name", "/ws/pkg/sub/leaf.py", langPython, Import{Spec: ".", Kind: KindFrom, Names: []string{"x"}}, []string{"/ws/pkg/sub/__init__.py"}},
		{"python from .. import module", "/ws/pkg/sub/leaf.py", langPython, Import{Spec: "..", Kind: KindFrom, Names: []string{"mod"}}, []string{"/ws/pkg/mod.py"}},
		{"python from ..mod import name", "/ws/pkg/sub/leaf.py", langPython, Import{Spec: "..mod", Kind: KindFrom, Names: []string{"x"}}, []string{"/ws/pkg/mod.py"}},
		{"python star", "/ws/pkg/sub/leaf.py", langPython, Import{Spec: ".near", Kind: KindFrom, Names: []string{"*"}}, []string{"/ws/pkg/sub/near.py"}},
		{"python stdlib", "/ws/tools/run.py", langPython, Import{Spec: "os.path", Kind: KindImport}, nil},

		{"go dir suffix, tests excluded", "/ws/cmd/main.go", langGo, Import{Spec: "github.com/x/y/internal/foo"}, []string{"/ws/internal/foo/bar.go", "/ws/internal/foo/foo.go"}},
		{"go standard library never matches", "/ws/cmd/main.go", langGo, Import{Spec: "cmd"}, nil},
		{"go own package", "/ws/internal/foo/foo.go", langGo, Import{Spec: "github.com/x/y/internal/foo"}, nil},
		{"go external test imports its package", "/ws/internal/foo/foo_test.go", langGo, Import{Spec: "github.com/x/y/internal/foo"}, []string{"/ws/internal/foo/bar.go", "/ws/internal/foo/foo.go"}},
		{"go.mod module path", "/ws/cmd/main.go", langGo, Import{Spec: "example.com/m/api"}, []string{"/ws/mod/api/api.go"}},
		{"go.mod module root", "/ws/cmd/main.go", langGo, Import{Spec: "example.com/m"}, []string{"/ws/mod/root.go"}},

		{"rust mod from lib.rs", "/ws/rs/src/lib.rs", langRust, Import{Spec: "net", Kind: KindMod}, []string{"/ws/rs/src/net.rs"}},
		{"rust mod.rs", "/ws/rs/src/lib.rs", langRust, Import{Spec: "util", Kind: KindMod}, []string{"/ws/rs/src/util/mod.rs"}},
		{"rust nested mod", "/ws/rs/src/net.rs", langRust, Import{Spec: "tcp", Kind: KindMod}, []string{"/ws/rs/src/net/tcp.rs"}},
		{"rust use crate", "/ws/rs/src/util/fmt.rs", langRust, Import{Spec: "crate::net::tcp::Stream", Kind: KindUse}, []string{"/ws/rs/src/net/tcp.rs"}},
		{"rust use super", "/ws/rs/src/net/tcp.rs", langRust, Import{Spec: "super::Addr", Kind: KindUse}, []string{"/ws/rs/src/net.rs"}},
		{"rust use self", "/ws/rs/src/util/mod.rs", langRust, Import{Spec: "self::fmt", Kind: KindUse}, []string{"/ws/rs/src/util/fmt.rs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.resolve(tt.from, tt.lang, tt.imp); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resolve(%s, %q) = %q, want %q", tt.from, tt.imp.Spec, got, tt.want)
			}
		})
	}
}
