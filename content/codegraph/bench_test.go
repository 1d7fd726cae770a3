package codegraph

import (
	"fmt"
	"strings"
	"testing"
)

// benchFiles makes n file nodes, a third each TypeScript, Go and Python, of
// about 200 lines, that import each other and outside packages.
func benchFiles(n int) []File {
	files := make([]File, 0, n)
	for i := 0; i < n; i++ {
		var f File
		switch i % 3 {
		case 0:
			f = File{Path: fmt.Sprintf("/ws/web/src/mod%d/file%d.ts", i%17, i), Content: benchTS(i, n)}
		case 1:
			f = File{Path: fmt.Sprintf("/ws/internal/pkg%d/file%d.go", i%13, i), Content: benchGo(i)}
		default:
			f = File{Path: fmt.Sprintf("/ws/app/sub%d/file%d.py", i%11, i), Content: benchPy(i, n)}
		}
		f.NodeID = fmt.Sprintf("node-%d", i)
		f.Title = f.Path[strings.LastIndexByte(f.Path, '/')+1:]
		files = append(files, f)
	}
	return files
}

func benchTS(i, n int) string {
	var b strings.Builder
	b.WriteString("import { useState } from 'react';\nimport type { Config } from '../config';\n")
	for k := 1; k <= 6; k++ {
		j := (i + 3*k) % n
		j -= j % 3
		fmt.Fprintf(&b, "import { helper%d } from '../mod%d/file%d.js';\n", j, j%17, j)
	}
	for k := 0; k < 16; k++ {
		fmt.Fprintf(&b, `
/** fn%[1]d sums item lengths; "import x from 'y'" in a comment does not count. */
export function fn%[1]d(cfg: Config, items: Array<string>): number {
  const re = /import\s+['"]x['"]/g;
  let total = 0;
  for (const it of items) {
    if (re.test(it)) { total += it.length * 2; }
    else { total -= it.length / 3; }
  }
  const label = `+"`fn%[1]d ${total} ${cfg}`"+`;
  return label.length + total;
}
`, k)
	}
	fmt.Fprintf(&b, "export const helper%d = (x: number): number => x + 1;\n", i)
	b.WriteString("export const lazy = () => import('./lazy');\n")
	return b.String()
}

func benchGo(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package pkg%d\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n", i%13)
	for k := 1; k <= 4; k++ {
		fmt.Fprintf(&b, "\t\"github.com/acme/ws/internal/pkg%d\"\n", (i+k)%13)
	}
	b.WriteString(")\n")
	for k := 0; k < 20; k++ {
		fmt.Fprintf(&b, `
// F%[1]d joins parts; import "os" in a comment does not count.
func F%[1]d(parts []string) string {
	var sb strings.Builder
	for i, p := range parts {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(fmt.Sprint(p))
	}
	return sb.String()
}
`, k)
	}
	return b.String()
}

func benchPy(i, n int) string {
	var b strings.Builder
	b.WriteString("import os\nimport json\nfrom typing import Any\n")
	for k := 1; k <= 4; k++ {
		j := (i + 3*k) % n
		j -= j%3 - 2
		if j >= n {
			j -= 3
		}
		fmt.Fprintf(&b, "from app.sub%d import file%d\n", j%11, j)
	}
	b.WriteString("from . import helpers\n")
	for k := 0; k < 18; k++ {
		fmt.Fprintf(&b, `

def func_%[1]d(items: list[Any]) -> int:
    """Counts items; 'import sys' in a docstring does not count."""
    total = 0
    for it in items:
        if isinstance(it, str):
            total += len(it)
        else:
            total += 1
    return total
`, k)
	}
	return b.String()
}

// BenchmarkBuild500 builds the graph of 500 fresh file nodes, parsing all.
func BenchmarkBuild500(b *testing.B) {
	files := benchFiles(500)
	b.ReportAllocs()
	for b.Loop() {
		Build("/ws", files)
	}
}

// BenchmarkBuild500Warm rebuilds with an Analyzer after one file changed,
// as a recompute after a file edit does.
func BenchmarkBuild500Warm(b *testing.B) {
	files := benchFiles(500)
	var a Analyzer
	a.Build("/ws", files)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		files[0].Content = benchTS(0, 500) + fmt.Sprintf("// edit %d\n", i)
		a.Build("/ws", files)
	}
}

// BenchmarkImportsOneTS is the cost of one TypeScript file on its own,
// through one esbuild build.
func BenchmarkImportsOneTS(b *testing.B) {
	src := benchTS(0, 500)
	for b.Loop() {
		if _, err := Imports("a.ts", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImportsOnePython(b *testing.B) {
	src := benchPy(2, 500)
	for b.Loop() {
		if _, err := Imports("a.py", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImportsOneGo(b *testing.B) {
	src := benchGo(1)
	for b.Loop() {
		if _, err := Imports("a.go", src); err != nil {
			b.Fatal(err)
		}
	}
}
