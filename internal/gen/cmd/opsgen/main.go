// Command opsgen writes pmxcanvas/zz_generated_ops.go from the catalog. It
// runs from `go generate ./pmxcanvas` (in that directory); it imports only
// messages, so it builds even while the generated file is stale.
package main

import (
	"fmt"
	"os"

	"github.com/pmxcanvas/pmx-canvas/internal/gen/opsgen"
)

func main() {
	src, err := opsgen.Source()
	if err == nil {
		err = os.WriteFile(opsgen.File, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
