// Command docgen rewrites the generated regions of docs/ (see package
// docgen). It runs from `go generate ./pmxcanvas`, after opsgen, since it
// builds the surfaces and so the Go package.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pmxcanvas/pmx-canvas/internal/gen/docgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := docgen.Root()
	if err != nil {
		return err
	}
	files, err := docgen.Files(root)
	if err != nil {
		return err
	}
	for path, doc := range files {
		if err := os.WriteFile(filepath.Join(root, path), doc, 0o644); err != nil {
			return err
		}
	}
	return nil
}
