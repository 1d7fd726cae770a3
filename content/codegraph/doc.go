// Package codegraph finds the imports between the file nodes of a canvas and
// turns them into auto edges and the report of GET /api/canvas/code-graph.
//
// [Imports] parses one file by its extension; [Build] (or an [Analyzer],
// which remembers parses between builds) parses every file node that has
// content, resolves each import against the paths of the file nodes given
// — never against the disk — and proposes one edge per (importer,
// imported) pair of distinct nodes. Everything is a pure function of its
// arguments, and ordered deterministically.
//
// # Parsers
//
// Real parsers replace the reference implementation's regular expressions,
// so that "import" in a string or comment does not count and an import
// written over several lines does:
//
//   - JavaScript and TypeScript (.ts .tsx .js .jsx .mjs .mts .cjs .cts):
//     esbuild's Go API, which gives a complete TS/TSX/JSX parser. The files
//     of a build are the entry points of one esbuild bundle in a virtual
//     namespace; a resolve plugin records each import with its kind and
//     marks it external, and a deliberately failing extra entry point makes
//     esbuild stop after scanning (no linking, no printing). Two equal-length
//     rewrites make up for esbuild being a bundler: it erases type-only
//     imports while parsing, so the "type" of "import type"/"export type …
//     from" is blanked first (undone if that breaks the parse), and it
//     expands import()/require() with a non-literal argument as a glob by
//     listing real directories, so such calls are renamed before it sees
//     them. A load plugin refuses any file of the real file system as a
//     second guard. esbuild stops at a file's first syntax error, so a broken
//     JS/TS file contributes no imports. An esbuild build costs about 1 ms
//     however small, which is why files are batched.
//   - Go: go/parser with parser.ImportsOnly — the standard parser, which
//     stops after the import declarations and keeps those before an error.
//   - Python: tree-sitter (github.com/tree-sitter/go-tree-sitter with the
//     tree-sitter-python grammar, via cgo). It is a full parser that
//     recovers from syntax errors, so the imports outside a broken region
//     survive; the cgo build takes about 10 s once per build cache. It is
//     the slowest parser here per byte (about 1 ms for 200 lines).
//   - Rust: a small lexer (nested comments, raw strings, chars versus
//     lifetimes) under a scan for "mod x;" and crate-local use paths; a best
//     effort, as in the reference.
//
// # Resolution
//
// JS/TS specifiers follow the reference: relative and absolute ones from
// the importing file's directory, bare ones that contain "/" and do not
// start with "@" from the workspace root; then the suffixes "" .ts .tsx .js
// .jsx .mjs .mts /index.ts /index.tsx /index.js /index.jsx .py .go .rs, and
// the rewrites .js→.ts/.tsx, .jsx→.tsx, .mjs→.mts, .cjs→.cts. Python
// modules resolve by Python's rules, Go import paths to the directory a
// go.mod on the board or the longest matching directory suffix names, Rust
// modules by the 2018 module layout. See the resolve methods for details.
package codegraph
