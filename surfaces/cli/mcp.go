package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

type mcpOptions struct {
	port      int
	workspace string
	tools     string
	logLevel  string
}

func newMCPCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve MCP on stdio (the agent's way in)",
		Long: `Serve the Model Context Protocol on stdin/stdout: the canvas tools, resources
and prompt. With a pmx-canvas server already running for this workspace
(PMX_CANVAS_URL, --port / PMX_CANVAS_PORT, else the server the workspace's
record .pmx-canvas/server.json names, else port 4313) every call goes to it;
otherwise this process hosts the canvas and serves HTTP on the port as well,
so the browser and other agents share it. stdout carries only JSON-RPC; logs
go to stderr.`,
		Example: `  pmx-canvas mcp
  pmx-canvas mcp --tools=compact
  PMX_CANVAS_URL=http://127.0.0.1:4313 pmx-canvas mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd, o, stdin, stdout, stderr) },
	}
	f := cmd.Flags()
	f.IntVar(&o.port, "port", 0, "port of the workspace's canvas server (env PMX_CANVAS_PORT; default 4313)")
	f.StringVar(&o.workspace, "workspace", "", "workspace directory (default: current directory)")
	f.StringVar(&o.tools, "tools", "", "tool surface: full (default) or compact (env PMX_CANVAS_MCP_TOOLS)")
	f.StringVar(&o.logLevel, "log-level", "warn", "log level for stderr: debug, info, warn, error")
	return cmd
}

func runMCP(cmd *cobra.Command, o *mcpOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	// 0 when not given: the workspace's recorded server, else 4313.
	port, _, err := explicitPort(cmd, o.port)
	if err != nil {
		return err
	}
	tools := o.tools
	if tools == "" {
		tools = os.Getenv("PMX_CANVAS_MCP_TOOLS")
	}
	if tools != "" && tools != "full" && tools != "compact" {
		return fmt.Errorf("--tools must be full or compact, not %q", tools)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = pmxcanvas.ServeMCP(ctx, pmxcanvas.MCPOptions{
		Workspace: o.workspace, Port: port, URL: os.Getenv("PMX_CANVAS_URL"), Token: os.Getenv("PMX_CANVAS_TOKEN"),
		Canvas: os.Getenv("PMX_CANVAS_ID"), Compact: tools == "compact",
		In: stdin, Out: stdout,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	})
	var locked *pmxcanvas.MCPStoreLockedError
	if errors.As(err, &locked) {
		return die("If that process is a pmx-canvas server, point at it: PMX_CANVAS_URL=http://127.0.0.1:<its port> pmx-canvas mcp; otherwise stop it, or use another --workspace.",
			"Cannot serve MCP: %v", locked)
	}
	return err
}
