package pmxcanvas

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// MCPOptions configure an MCP stdio server.
type MCPOptions struct {
	// Workspace whose canvas to serve (default: the current directory).
	Workspace string
	// Port of the workspace's canvas server: an existing daemon there is
	// used; otherwise one is started on it (falling back to the next free
	// ports) so the browser can watch. 0 means: the server the workspace's
	// record (.pmx-canvas/server.json) names, else DefaultPort.
	Port int
	// URL of a daemon to use first (PMX_CANVAS_URL).
	URL string
	// Token for a daemon that requires one.
	Token string
	// Canvas is the default canvas for tools and resources (PMX_CANVAS_ID).
	Canvas string
	// Compact serves the 21-tool surface.
	Compact bool
	// NoHTTP hosts the actors without an HTTP server (tests).
	NoHTTP bool
	In     io.Reader
	Out    io.Writer
	Logger *slog.Logger
}

// ServeMCP serves MCP on In/Out until In closes or ctx ends. With a
// same-workspace daemon reachable (URL, then 127.0.0.1 and localhost on
// Port) it forwards every call to it over HTTP; otherwise it hosts the
// canvas itself, serving HTTP too so humans and other clients share it.
// Nothing but JSON-RPC is written to Out.
func ServeMCP(ctx context.Context, o MCPOptions) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	ws := o.Workspace
	if ws == "" {
		ws = "."
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return err
	}
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		return err
	}
	var inv messages.Invoker
	var streamer messages.Streamer
	client, tried := findDaemon(ctx, o, ws)
	var srv *Server
	if client == nil {
		srv, err = startForMCP(o, ws)
		if errors.Is(err, persistence.ErrLocked) {
			// Another process holds the store: most likely a server of
			// this workspace that was starting a moment ago. Look again.
			if client, tried = findDaemon(ctx, o, ws); client == nil {
				return &MCPStoreLockedError{Err: err, Tried: tried}
			}
		} else if err != nil {
			return err
		}
	}
	if client != nil {
		o.Logger.Info("MCP forwards to the canvas daemon", "url", client.Base)
		inv, streamer = client, client
	} else {
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Close(cctx)
		}()
		inv, streamer = srv.Invoker(), srv.Streamer()
	}
	canvas := o.Canvas
	if canvas == "" {
		canvas = messages.DefaultCanvas
	}
	s := mcpapi.NewServer(mcpapi.Options{
		Caller:   &mcpapi.Caller{Registry: reg, Invoker: inv, DefaultCanvas: canvas},
		Compact:  o.Compact,
		Streamer: streamer,
		Version:  messages.Version,
		Logger:   o.Logger,
	})
	err = s.ServeStdio(ctx, o.In, o.Out)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// MCPStoreLockedError is ServeMCP's failure when another process holds the
// workspace's store and no server of the workspace answered at any address
// tried (errors.Is(err, ErrStoreLocked) holds).
type MCPStoreLockedError struct {
	Err   error
	Tried []string // what was looked at, and why it did not do
}

func (e *MCPStoreLockedError) Error() string {
	return e.Err.Error() + "; no pmx-canvas server of this workspace answered (tried: " + strings.Join(e.Tried, "; ") + ")"
}

func (e *MCPStoreLockedError) Unwrap() error { return e.Err }

// findDaemon returns a client for a running same-workspace server, or nil,
// and what it tried (for the error when the store turns out to be locked).
// The rule is the CLI's (remote.Locate): the explicit URL, the explicit
// port, the workspace's server record, then the default port; every
// address must answer /health for this workspace.
func findDaemon(ctx context.Context, o MCPOptions, ws string) (*remote.Client, []string) {
	var tried []string
	probe := func(base, from string) *remote.Client {
		h, err := remote.ProbeToken(ctx, base, o.Token, 400*time.Millisecond)
		if err != nil {
			tried = append(tried, base+" ("+from+"): nothing answered")
			return nil
		}
		if h.Workspace == "" || sameDir(h.Workspace, ws) {
			return &remote.Client{Base: base, Token: o.Token}
		}
		tried = append(tried, base+" ("+from+"): serves another workspace, "+h.Workspace)
		o.Logger.Info("the server on this port serves another workspace; not using it", "url", base, "workspace", h.Workspace)
		return nil
	}
	if o.URL != "" {
		if c := probe(strings.TrimSuffix(o.URL, "/"), "PMX_CANVAS_URL"); c != nil {
			return c, tried
		}
	}
	if !o.NoHTTP && o.Port != 0 {
		for _, base := range []string{"http://127.0.0.1:" + strconv.Itoa(o.Port), "http://localhost:" + strconv.Itoa(o.Port)} {
			if c := probe(base, "the port"); c != nil {
				return c, tried
			}
		}
	}
	if r, note := remote.CheckRecord(ctx, ws, o.Token); r != nil {
		return &remote.Client{Base: strings.TrimSuffix(r.URL, "/"), Token: o.Token}, tried
	} else if note != "" {
		tried = append(tried, note)
	}
	if !o.NoHTTP && o.Port == 0 {
		if c := probe("http://127.0.0.1:"+strconv.Itoa(DefaultPort), "the default port"); c != nil {
			return c, tried
		}
	}
	return nil, tried
}

// startForMCP hosts the canvas in this process: HTTP on Port, or the next
// free port among Port+1..Port+8, or any port.
func startForMCP(o MCPOptions, ws string) (*Server, error) {
	opts := Options{Workspace: ws, SeedDockedWidgets: true, Logger: o.Logger, NoHTTP: o.NoHTTP, Token: o.Token}
	if o.NoHTTP {
		return Start(opts)
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	ports := []int{o.Port}
	for p := o.Port + 1; p <= o.Port+8; p++ {
		ports = append(ports, p)
	}
	ports = append(ports, 0)
	var lastErr error
	for _, p := range ports {
		opts.Port = p
		srv, err := Start(opts)
		if err == nil {
			if p != o.Port {
				o.Logger.Warn(fmt.Sprintf("preferred port %d was in use; started this canvas on %s instead. To share one canvas, run the daemon from this workspace or set PMX_CANVAS_URL / PMX_CANVAS_PORT to point at it.", o.Port, srv.URL()))
			}
			return srv, nil
		}
		lastErr = err
		if !strings.Contains(err.Error(), "listen on") {
			return nil, err // not a port problem (the store is locked, ...)
		}
	}
	return nil, lastErr
}

func sameDir(a, b string) bool {
	ra, err := filepath.EvalSymlinks(a)
	if err != nil {
		ra = filepath.Clean(a)
	}
	rb, err := filepath.EvalSymlinks(b)
	if err != nil {
		rb = filepath.Clean(b)
	}
	return ra == rb
}
