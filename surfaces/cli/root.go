// Package cli is the pmx-canvas command line, built with cobra: the server
// (serve, and the reference's bare form "pmx-canvas --no-open --port=N").
// Agent commands derived from the operation catalog join it later.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Execute runs the command line and returns the process exit code.
func Execute(args []string, stdout, stderr io.Writer) int {
	root := NewRoot(stdout, stderr)
	root.SetArgs(mcpAlias(args))
	if cmd, err := root.ExecuteC(); err != nil {
		return reportError(stderr, err, cmd)
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
	root.AddCommand(newMCPCommand(os.Stdin, stdout, stderr))
	streams := &ioStreams{In: os.Stdin, Out: stdout, Err: stderr}
	for _, add := range commandAdders {
		add(root, streams)
	}
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

// mcpAlias turns the reference's "pmx-canvas --mcp [...]" into
// "pmx-canvas mcp [...]" (its --port, --no-open and such are ignored there
// too; MCP reads the port from the environment).
func mcpAlias(args []string) []string {
	for i, a := range args {
		if a == "--mcp" {
			out := []string{"mcp"}
			for j := 0; j < len(args); j++ {
				b := args[j]
				switch {
				case j == i, b == "--no-open", b == "--demo", strings.HasPrefix(b, "--port="):
				case b == "--port":
					j++ // and its value
				default:
					out = append(out, b)
				}
			}
			return out
		}
	}
	return args
}

// reportError writes a failed command's {error, hint} JSON line to stderr
// and returns its exit code: a command's own code, else 1. cmd is the
// command that failed (nil when unknown): a usage error's hint names its
// help.
func reportError(stderr io.Writer, err error, cmd *cobra.Command) int {
	body := map[string]any{"error": err.Error()}
	code := 1
	var ce *cliError
	var me *messages.Error
	switch {
	case errors.As(err, &ce):
		if ce.Hint != "" {
			body["hint"] = ce.Hint
		}
		if ce.Code != 0 {
			code = ce.Code
		}
	case errors.As(err, &me):
		body["error"] = me.Message
		if me.Code != "" {
			body["code"] = string(me.Code)
		}
		if h, ok := me.Extra["hint"].(string); ok {
			body["hint"] = h
		}
	default:
		// cobra's own errors (unknown flag, missing argument, unknown
		// command): point at the help of the command that was run.
		path := "pmx-canvas"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		body["hint"] = "Run: " + path + " --help"
	}
	b, _ := plainJSON(body)
	fmt.Fprintf(stderr, "%s\n", b)
	return code
}
