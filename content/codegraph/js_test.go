package codegraph

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// specs returns "kind spec" for each import, for compact expectations.
func specs(imps []Import) []string {
	out := []string{}
	for _, i := range imps {
		s := i.Kind + " " + i.Spec
		if i.Names != nil {
			s += " [" + strings.Join(i.Names, ",") + "]"
		}
		out = append(out, s)
	}
	return out
}

func TestImportsJS(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string
	}{
		{"static forms", "a.ts", `
import d from './default';
import * as ns from './namespace';
import { a, b as c } from './named';
import './side-effect';
export * from './star';
export * as nsx from './star-as';
export { x } from './reexport';
`, []string{"import-statement ./default", "import-statement ./namespace", "import-statement ./named",
			"import-statement ./side-effect", "import-statement ./star", "import-statement ./star-as", "import-statement ./reexport"}},
		{"unused value import still counts", "a.ts", `import { unused } from './u';`,
			[]string{"import-statement ./u"}},
		{"type-only imports count", "a.ts", `
import type { T } from './t';
import type * as TT from './tt';
import type D from './td';
import { type U, type V } from './u';
export type { W } from './w';
export type * from './ws';
import type E = require('./te');
export type Local = { a: number };
`, []string{"import-statement ./t", "import-statement ./tt", "import-statement ./td", "import-statement ./u",
			"import-statement ./w", "import-statement ./ws", "require-call ./te"}},
		{"a default import named type", "a.ts", `import type from './typ'; console.log(type);`,
			[]string{"import-statement ./typ"}},
		{"multi-line import list", "a.ts", "import {\n  one,\n  two, // comment\n  three,\n} from\n  './multi';\n",
			[]string{"import-statement ./multi"}},
		{"strings and comments do not count", "a.js", `
const s = "import x from './in-string'";
const t = 'require("./in-single")';
const u = ` + "`import('./in-template')`" + `;
// import y from './in-line-comment'
/* export * from './in-block-comment' */
const re = /import z from '.\/in-regexp'/;
`, []string{}},
		{"require and dynamic import; require.resolve names no dependency", "a.js", `
const a = require('./req');
const b = require.resolve('./res');
async function f() { return import('./dyn'); }
const c = import(` + "`./const-template`" + `);
`, []string{"require-call ./req", "dynamic-import ./dyn", "dynamic-import ./const-template"}},
		{"dynamic import with a template literal is skipped", "a.js", "const n = 'x';\nimport(`./pages/${n}`);\nrequire('./parts/' + n);\nimport('./kept');\n",
			[]string{"dynamic-import ./kept"}},
		{"jsx in a .js file", "a.js", "import React from 'react';\nexport const A = () => <div>don't import './nope'</div>;\n",
			[]string{"import-statement react"}},
		{"tsx", "a.tsx", "import { B } from './b';\nexport function A<T,>(p: T) { return <B v={p as any}>it's</B>; }\n",
			[]string{"import-statement ./b"}},
		{"mts and cts", "a.mts", "import x from './x.mjs';\nexport default x as number;\n",
			[]string{"import-statement ./x.mjs"}},
		{"repeats collapse", "a.js", "import './a';\nimport './a';\nrequire('./a');\n",
			[]string{"import-statement ./a", "require-call ./a"}},
		{"import attributes", "a.js", "import data from './d.json' with { type: 'json' };\n",
			[]string{"import-statement ./d.json"}},
		{"top-level await", "a.mjs", "const m = await import('./tla');\n", []string{"dynamic-import ./tla"}},
		{"commonjs module with a top-level return", "a.cjs", "const x = require('./x.cjs');\nif (!x) return;\nmodule.exports = x;\n", []string{"require-call ./x.cjs"}},
		{"import.meta is not an import", "a.js", "console.log(import.meta.url);\n", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imps, err := Imports(tt.path, tt.src)
			if err != nil {
				t.Fatalf("Imports: %v", err)
			}
			if got := specs(imps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestImportsJSSyntaxError(t *testing.T) {
	tests := []struct {
		name, path, src, wantErr string
		want                     []string
	}{
		{"broken expression", "src/a.ts", "import { a } from './a';\nconst x = ;\n", "src/a.ts:2:11", []string{}},
		{"jsx in .ts", "b.ts", "import './b';\nconst el = <div/>;\n", "b.ts:2:", []string{}},
		{"unterminated string", "c.js", "import './c';\nconst s = 'abc\n", "c.js:2:", []string{}},
		{"declared twice: esbuild parses on", "d.ts", "import './x';\nconst a = 1;\nconst a = 2;\nrequire('./y');\n", "d.ts:3:7",
			[]string{"import-statement ./x", "require-call ./y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imps, err := Imports(tt.path, tt.src)
			if err == nil {
				t.Fatalf("Imports gave %v and no error", imps)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not name %q", err, tt.wantErr)
			}
			if got := specs(imps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("imports %q, want %q", got, tt.want)
			}
		})
	}
}

// A type-only rewrite that breaks the parse is undone: the file keeps its
// value imports. Here the lexer cannot see that "import type {" is inside
// JSX text, so it rewrites it; the original text parses.
func TestImportsTSXRewriteFallback(t *testing.T) {
	src := "import { B } from './b';\nexport const A = () => <p>import type {'{'}x{'}'} from</p>;\nexport type { Q } from './q';\n"
	imps, err := Imports("a.tsx", src)
	if err != nil {
		t.Fatalf("Imports: %v", err)
	}
	got := specs(imps)
	if len(got) == 0 || got[0] != "import-statement ./b" {
		t.Errorf("got %q, want ./b first", got)
	}
}

// Globs are never expanded from the real file system: with a directory
// that a glob would match in the working directory, nothing is found and
// no file is read.
func TestImportsJSNoDiskAccess(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pages", "a.js"), []byte("export default 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, src := range []string{
		"const n = 'a';\nimport(`./pages/${n}`);\n",
		"const n = 'a';\nimport(`../${n}`);\n",
		"const n = 'a.js';\nrequire('./pages/' + n);\n",
		"const n = 'a';\nimport.defer(`./pages/${n}`);\n",
		"const n = 'a';\nimport /* c */ (\n`./pages/${n}`);\n",
		"const n = 'a';\n\\u0072equire('./pages/' + n);\n",
		"const n = 'a';\nimport\u00a0(`./pages/${n}`);\n",
	} {
		imps, err := Imports("x.js", src)
		if err != nil || len(imps) != 0 {
			t.Errorf("Imports(%q) = %v, %v; want nothing", src, imps, err)
		}
	}
}

func TestNeutralizeGlobs(t *testing.T) {
	tests := []struct {
		in, want string
		sure     bool
	}{
		{"import('./a')", "import('./a')", true},
		{"import ( /* x */ \"./a\" , {with:{}})", "import ( /* x */ \"./a\" , {with:{}})", true},
		{"import(`./a`)", "import(`./a`)", true},
		{"import(`./a/${x}`)", "imp0rt(`./a/${x}`)", true},
		{"require('./a' + x)", "r3quire('./a' + x)", true},
		{"require(x)", "r3quire(x)", true},
		{"myrequire(x); imports(x); required(x)", "myrequire(x); imports(x); required(x)", true},
		{"import.meta.url; import.defer(x)", "import.meta.url; imp0rt.defer(x)", true},
		{"import x from './a'", "import x from './a'", true},
		{`r\u0065quire(x)`, `r\u0065quire(x)`, false},
		{`"caf\u00e9"`, `"caf\u00e9"`, true},
		{"import\u00a0(x)", "import\u00a0(x)", false},
		{"importé(x)", "importé(x)", true},
	}
	for _, tt := range tests {
		got, sure := neutralizeGlobs(tt.in)
		if got != tt.want || sure != tt.sure {
			t.Errorf("neutralizeGlobs(%q) = %q, %v; want %q, %v", tt.in, got, sure, tt.want, tt.sure)
		}
	}
}

func TestBlankTypeImports(t *testing.T) {
	tests := []struct{ in, want string }{
		{"import type { A } from './a'", "import      { A } from './a'"},
		{"import type * as A from './a'", "import      * as A from './a'"},
		{"import type A from './a'", "import      A from './a'"},
		{"import type from './a'", "import type from './a'"},
		{"import type from from './a'", "import      from from './a'"},
		{"export type { A } from './a'", "export      { A } from './a'"},
		{"export type { A }", "export type { A }"},
		{"export type A = B", "export type A = B"},
		{"export type * from './a'", "export      * from './a'"},
		{"const s = 'import type { A } from'", "const s = 'import type { A } from'"},
		{"x = a / 2; const r = /import type {/; import type {B} from 'b'", "x = a / 2; const r = /import type {/; import      {B} from 'b'"},
		{"`${`import type {A} from`}`", "`${`import type {A} from`}`"},
		{"obj.import type", "obj.import type"},
	}
	for _, tt := range tests {
		got, changed := blankTypeImports(tt.in)
		if got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("blankTypeImports(%q) = %q, %v; want %q", tt.in, got, changed, tt.want)
		}
	}
}
