// Command pmx-canvas is the canvas server and its command line.
package main

import (
	"os"

	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
