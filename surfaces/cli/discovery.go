package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// Finding this workspace's server (remote.Locate has the rule): an
// explicit --server-url / PMX_CANVAS_URL or --port / PMX_CANVAS_PORT first,
// then the server the workspace's record (.pmx-canvas/server.json, written
// by every running server) names once /health confirms it, then the
// default port. The CLI's workspace is the current directory.

// explicitPort is the port a command was given (--port, then
// PMX_CANVAS_PORT, then PMX_WEB_CANVAS_PORT) and where it came from; 0 and
// "" when none was.
func explicitPort(cmd *cobra.Command, flag int) (int, string, error) {
	if f := cmd.Flags().Lookup("port"); f != nil && f.Changed {
		return flag, "--port", nil
	}
	for _, name := range []string{"PMX_CANVAS_PORT", "PMX_WEB_CANVAS_PORT"} {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		p, err := strconv.Atoi(v)
		if err != nil || p <= 0 || p > 65535 {
			return 0, "", &cliError{Msg: fmt.Sprintf("%s %q is not a port number", name, v), Hint: "Set it to the server's port, e.g. " + name + "=4313, or unset it."}
		}
		return p, name, nil
	}
	return 0, "", nil
}

// located caches the lookup of one command run (a command that makes
// several calls checks the record once).
var located struct {
	key   remote.Lookup
	found *remote.Found
}

// locate finds the server a client command targets.
func locate(cmd *cobra.Command) (*remote.Found, error) {
	l := remote.Lookup{DefaultPort: pmxcanvas.DefaultPort, Token: clientToken()}
	switch {
	case client.serverURL != "":
		l.URL, l.URLFrom = client.serverURL, "--server-url"
	case os.Getenv("PMX_CANVAS_URL") != "":
		l.URL, l.URLFrom = os.Getenv("PMX_CANVAS_URL"), "PMX_CANVAS_URL"
	default:
		port, from, err := explicitPort(cmd, client.port)
		if err != nil {
			return nil, err
		}
		l.Port, l.PortFrom = port, from
	}
	if located.found != nil && located.key == l {
		return located.found, nil
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	f := remote.Locate(ctx, l)
	located.key, located.found = l, f
	return f, nil
}

func clientToken() string {
	if client.token != "" {
		return client.token
	}
	return os.Getenv("PMX_CANVAS_TOKEN")
}

// unreachable is the failure of a command whose server did not answer: it
// names the server it tried and why that one, and says how to start one or
// point at a running one. what is "pmx-canvas" or "pmx-canvas event
// stream".
func unreachable(f *remote.Found, what string, cause error) error {
	reason := strings.TrimPrefix(fmt.Sprint(cause), "pmx-canvas server at "+f.Base+": ")
	if i := strings.LastIndex(reason, ": "); i >= 0 && strings.Contains(reason, "dial tcp") {
		reason = reason[i+2:] // "connection refused", not the whole request
	}
	msg := fmt.Sprintf("Cannot connect to %s at %s: %s", what, f.Describe(), reason)
	var hint string
	switch {
	case f.FromRecord():
		hint = fmt.Sprintf("The server recorded for this workspace (pid %d) did not answer; check it with: pmx-canvas serve status --port %d, or restart it: pmx-canvas serve --daemon",
			f.Record.PID, f.Record.Port)
	case f.Explicit() && strings.HasSuffix(strings.ToLower(f.From), "url"):
		hint = "Check that a pmx-canvas server runs at " + f.Base + ", or " + dropWord(f.From) + " to use this workspace's server."
	case f.Explicit():
		port := f.Base[strings.LastIndexByte(f.Base, ':')+1:]
		hint = fmt.Sprintf("Start one on that port: pmx-canvas serve --daemon --port %s (or pmx-canvas serve --port %s in another terminal), or %s to use this workspace's server.", port, port, dropWord(f.From))
	default:
		hint = "Start one for this workspace: pmx-canvas serve --daemon (or pmx-canvas serve in another terminal); or point at a running one with --server-url URL (PMX_CANVAS_URL) or --port N (PMX_CANVAS_PORT)."
	}
	return &cliError{Msg: msg, Hint: hint}
}

// dropWord says how to stop using a flag or variable: "drop --port",
// "unset PMX_CANVAS_PORT".
func dropWord(from string) string {
	if strings.HasPrefix(from, "--") {
		return "drop " + from
	}
	return "unset " + from
}

// serveStartError turns a failed server start into a message that says
// what is in the way and what to run instead; nil when it has nothing
// better to say than the error itself.
func serveStartError(err error, host string, port int, workspace string) error {
	ws := workspace
	if ws == "" {
		ws = "."
	}
	t, terr := newDaemonTarget(ws, host, port, "", "", "")
	var le *pmxcanvas.ListenError
	switch {
	case errors.As(err, &le) && errors.Is(err, syscall.EADDRINUSE):
		addr := net.JoinHostPort(le.Host, strconv.Itoa(le.Port))
		next := strconv.Itoa(le.Port + 1)
		if terr == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if responsive, ours, other := t.health(ctx); responsive && ours {
				return die(fmt.Sprintf("Use it: open %s, or stop it first: pmx-canvas serve stop --port %d (or Ctrl+C where it runs).", t.workbenchURL(), le.Port),
					"Cannot listen on %s: address already in use; this workspace's pmx-canvas server already runs there", addr)
			} else if responsive {
				return die(fmt.Sprintf("Pick another port: pmx-canvas serve --port %s (or PMX_CANVAS_PORT=%s, make run PORT=%s).", next, next, next),
					"Cannot listen on %s: address already in use by the pmx-canvas server of %s", addr, other)
			}
		}
		return die(fmt.Sprintf("Another program holds port %d. Pick another port: pmx-canvas serve --port %s (or PMX_CANVAS_PORT=%s, make run PORT=%s).", le.Port, next, next, next),
			"Cannot listen on %s: address already in use", addr)
	case errors.As(err, &le):
		return die("Check --host and --port: pmx-canvas serve --help", "Cannot listen on %s: %v", net.JoinHostPort(le.Host, strconv.Itoa(le.Port)), le.Err)
	case errors.Is(err, pmxcanvas.ErrStoreLocked):
		hint := "Another pmx-canvas process (a server or pmx-canvas mcp) has this workspace open: stop it, or use another --workspace."
		if terr == nil {
			if r, _ := remote.CheckRecord(context.Background(), t.workspace, ""); r != nil {
				hint = fmt.Sprintf("Its server (pid %d) runs at %s: use it (pmx-canvas open, or --server-url %s), or stop it first: pmx-canvas serve stop --port %d.", r.PID, r.URL, r.URL, r.Port)
			}
		}
		return die(hint, "Cannot start PMX Canvas: %v", err)
	}
	return nil
}
