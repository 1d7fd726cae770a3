// Package cli is the pmx-canvas command line, built with cobra: the server
// (serve, and the reference's bare form "pmx-canvas --no-open --port=N").
// Agent commands derived from the operation catalog join it later.
package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Execute runs the command line and returns the process exit code.
func Execute(args []string, stdout, stderr io.Writer) int {
	root := NewRoot(stdout, stderr)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintf(stderr, "pmx-canvas: %v\n", err)
		return 1
	}
	return 0
}

// NewRoot builds the command tree. The root command with no subcommand runs
// the server in the foreground, as the reference does.
func NewRoot(stdout, stderr io.Writer) *cobra.Command {
	serveFlags := &serveOptions{}
	root := &cobra.Command{
		Use:   "pmx-canvas",
		Short: "A spatial canvas server that humans and coding agents share",
		Long: `pmx-canvas serves an infinite canvas of markdown, files, web pages, HTML surfaces
and status panels that agents lay out over HTTP/SSE (and MCP, CLI) while a human
watches and steers in the browser.

Running "pmx-canvas" with no command starts the server in the foreground,
like "pmx-canvas serve".`,
		Version:       messages.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, serveFlags, stderr)
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("{{.Version}}\n")
	addServeFlags(root, serveFlags)
	root.AddCommand(newServeCommand(stderr))
	return root
}

func envOr(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
