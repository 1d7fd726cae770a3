// Command webbuild bundles the viewer (web/viewer) into web/viewer/dist:
// the json-render/graph script, the mermaid script and the stylesheet.
// `make web` runs it from the module root after npm ci; the output is
// committed, so building the server needs neither node nor npm.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pmxcanvas/pmx-canvas/web/viewer/build"
)

func main() {
	dir := flag.String("dir", filepath.Join("web", "viewer"), "the viewer directory (package.json, src/, node_modules/)")
	out := flag.String("out", "", "output directory (default: <dir>/dist)")
	flag.Parse()
	if *out == "" {
		*out = filepath.Join(*dir, "dist")
	}
	if err := build.Build(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "webbuild:", err)
		os.Exit(1)
	}
	for _, name := range build.Files {
		if st, err := os.Stat(filepath.Join(*out, name)); err == nil {
			fmt.Printf("%-28s %9d bytes\n", name, st.Size())
		}
	}
}
