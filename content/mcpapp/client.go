package mcpapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

const (
	// ClientName is the name the host introduces itself with in initialize.
	ClientName = "pmx-canvas-app-host"
	// ClientVersion is the version it gives with ClientName.
	ClientVersion = "1.0.0"
	// UIExtension is the MCP Apps extension's capability key.
	UIExtension = "io.modelcontextprotocol/ui"
	// AppMIMEType is the MIME type of MCP App HTML resources.
	AppMIMEType = "text/html;profile=mcp-app"

	// DefaultTimeout bounds each request when Options.Timeout is zero.
	DefaultTimeout = 30 * time.Second
	// DefaultStderrLimit is how much of a stdio server's stderr is kept
	// when Options.StderrLimit is zero.
	DefaultStderrLimit = 16 << 10
)

// ErrClosed is Err's value once Close was called on a live client.
var ErrClosed = errors.New("app server session closed")

// Options tune a Client.
type Options struct {
	// Timeout bounds every request to the app server, the initialize
	// handshake included; DefaultTimeout when zero.
	Timeout time.Duration
	// StderrLimit is how many bytes of a stdio server's latest stderr output
	// are kept for Err's message; DefaultStderrLimit when zero.
	StderrLimit int
	// Stderr, when set, also receives a stdio server's stderr as it comes.
	// It must not block: the server stalls while it does.
	Stderr io.Writer
	// Logger receives what the MCP transport logs (for example a failed
	// session DELETE on Close); slog.Default() when nil.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.StderrLimit <= 0 {
		o.StderrLimit = DefaultStderrLimit
	}
	return o
}

// Client is a live connection to one MCP App server. Its methods are safe
// for concurrent use.
type Client struct {
	mc      *client.Client
	tr      transport.Interface
	timeout time.Duration
	nextID  atomic.Int64

	// life ends, with the reason as its cause, when the connection is lost
	// or closed; every request in flight is cancelled with it.
	life     context.Context
	endLife  context.CancelCauseFunc
	done     chan struct{}
	failOnce sync.Once
	errMu    sync.Mutex
	err      error

	closeOnce sync.Once

	// stdio only.
	cmd        *exec.Cmd
	pid        int
	stdout     *os.File
	stderr     *tailBuffer
	stderrPipe *os.File
	stderrDone chan struct{}
	exited     chan struct{}
}

// Dial validates t, starts or connects to the server and performs the
// initialize handshake as ClientName, advertising the MCP Apps extension
// (capabilities.extensions["io.modelcontextprotocol/ui"] = {mimeTypes:
// ["text/html;profile=mcp-app"]}). The protocol is pinned to the newest
// revision that still uses the initialize handshake, which is what MCP App
// servers in the wild speak. A stdio server runs in its own process group
// with t.Env added to our environment; ctx bounds only the dial, not the
// server's life.
func Dial(ctx context.Context, t Transport, o Options) (*Client, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	c := &Client{timeout: o.Timeout, done: make(chan struct{})}
	c.life, c.endLife = context.WithCancelCause(context.Background())

	switch t.Type {
	case "stdio":
		tr, err := c.startStdio(t, o)
		if err != nil {
			c.endLife(err)
			return nil, err
		}
		c.tr = tr
	case "http":
		tr, err := transport.NewStreamableHTTP(t.URL,
			transport.WithHTTPHeaders(t.Headers), transport.WithHTTPLogger(o.Logger))
		if err != nil {
			c.endLife(err)
			return nil, fmt.Errorf("connect to the app server at %s: %w", t.URL, err)
		}
		c.tr = tr
	}

	c.mc = client.NewClient(c.tr,
		client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION),
		client.WithClientCapabilities(mcp.ClientCapabilities{
			Extensions: map[string]any{UIExtension: map[string]any{"mimeTypes": []string{AppMIMEType}}},
		}),
	)
	if err := c.mc.Start(c.life); err != nil {
		c.Close()
		return nil, fmt.Errorf("start the MCP client: %w", err)
	}

	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: ClientName, Version: ClientVersion}
	parent := ctx
	ictx, cancel := c.requestContext(ctx)
	_, err := c.mc.Initialize(ictx, req)
	if err != nil {
		// No liveness ping here: before the handshake an HTTP transport
		// may refuse to send one, which would read as "connection lost".
		err = c.requestError(parent, ictx, "initialize", nil, err, false)
		cancel()
		c.Close()
		return nil, err
	}
	cancel()
	return c, nil
}

// startStdio spawns the command with pipes we own, so we, not mcp-go, wait
// for the process and learn how it ended, and so a grandchild that keeps a
// pipe open cannot hold up noticing the server's exit.
func (c *Client) startStdio(t Transport, o Options) (transport.Interface, error) {
	cmd := exec.Command(t.Command, t.Args...)
	cmd.Dir = t.Cwd
	cmd.Env = append(os.Environ(), envList(t.Env)...)
	setProcessGroup(cmd)

	var files []*os.File // every pipe end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (transport.Interface, error) {
		for _, f := range files {
			f.Close()
		}
		return nil, fmt.Errorf("start the app server %q: %w", t.Command, err)
	}
	inR, inW, err := pipe()
	if err != nil {
		return fail(err)
	}
	outR, outW, err := pipe()
	if err != nil {
		return fail(err)
	}
	errR, errW, err := pipe()
	if err != nil {
		return fail(err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	inR.Close()
	outW.Close()
	errW.Close()

	c.stderr = newTailBuffer(o.StderrLimit)
	var sink io.Writer = c.stderr
	if o.Stderr != nil {
		sink = io.MultiWriter(c.stderr, o.Stderr)
	}
	c.stderrDone = make(chan struct{})
	go func() {
		_, _ = io.Copy(sink, errR)
		close(c.stderrDone)
	}()
	c.cmd, c.pid, c.stdout, c.stderrPipe = cmd, cmd.Process.Pid, outR, errR
	c.exited = make(chan struct{})
	go c.waitProcess()
	return transport.NewIO(outR, inW, nil), nil
}

// envList renders env as KEY=VALUE entries in key order.
func envList(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// waitProcess reaps the stdio server, kills what is left of its process
// group, and ends the session with how the server ended.
func (c *Client) waitProcess() {
	err := c.cmd.Wait()
	killGroup(c.pid, true)
	// With the group gone the stderr pipe ends; wait briefly for its last
	// lines, which usually say why the server died.
	select {
	case <-c.stderrDone:
	case <-time.After(time.Second):
	}
	c.stderrPipe.Close()
	c.stdout.Close()
	close(c.exited)
	status := "exit status 0"
	if err != nil {
		status = err.Error()
	}
	msg := "app server exited: " + status
	if tail := c.stderr.lastLines(5); tail != "" {
		msg += "; stderr: " + tail
	}
	c.fail(errors.New(msg))
}

// fail ends the session with err unless it has already ended.
func (c *Client) fail(err error) {
	c.failOnce.Do(func() {
		c.errMu.Lock()
		c.err = err
		c.errMu.Unlock()
		c.endLife(err)
		close(c.done)
	})
}

// Done is closed when the session ends: the connection was lost (the stdio
// server exited, or an HTTP request failed and a ping did too) or Close was
// called. Err says which.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is nil while the session lives, and then why it ended, for example
// "app server exited: exit status 3; stderr: <last lines>", or ErrClosed.
func (c *Client) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

// PID is the stdio server's process id (its process group's too), or 0 for
// an HTTP server.
func (c *Client) PID() int { return c.pid }

// Close ends the session: it closes the MCP client and, for stdio, stops the
// server's whole process group (stdin closed, then SIGTERM, then SIGKILL)
// and waits for it. It is idempotent and always returns nil.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.fail(ErrClosed)
		if c.mc != nil {
			_ = c.mc.Close()
		} else if c.tr != nil {
			_ = c.tr.Close()
		}
		if c.cmd == nil {
			return
		}
		for _, step := range []struct {
			signal bool
			kill   bool
			wait   time.Duration
		}{{false, false, 500 * time.Millisecond}, {true, false, 2 * time.Second}, {true, true, 5 * time.Second}} {
			if step.signal {
				killGroup(c.pid, step.kill)
			}
			select {
			case <-c.exited:
				return
			case <-time.After(step.wait):
			}
		}
	})
	return nil
}

// requestContext bounds a request by the timeout and by the session's life.
func (c *Client) requestContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	stop := context.AfterFunc(c.life, cancel)
	return ctx, func() { stop(); cancel() }
}

// call sends one JSON-RPC request and returns its result as the server sent
// it. A JSON-RPC error from the server is returned as an error naming the
// method; so is a dead or silent server, with Err's text when the session
// has ended.
func (c *Client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	parent := ctx
	rctx, cancel := c.requestContext(ctx)
	defer cancel()
	id := mcp.NewRequestId(fmt.Sprintf("pmx-app-host-%d", c.nextID.Add(1)))
	resp, err := c.tr.SendRequest(rctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: method, Params: params,
	})
	if err != nil {
		return nil, c.requestError(parent, rctx, method, &id, err, true)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %w", method, resp.Error.AsError())
	}
	if len(resp.Result) == 0 || string(resp.Result) == "null" {
		return json.RawMessage(`{}`), nil
	}
	return resp.Result, nil
}

// requestError explains a request that got no answer: the session ended
// (Err's text), the caller gave up, the timeout passed, or the transport
// failed, in which case a ping decides whether the connection is lost.
func (c *Client) requestError(parent, rctx context.Context, method string, id *mcp.RequestId, err error, probe bool) error {
	if c.cmd != nil && c.Err() == nil && rctx.Err() == nil {
		// The pipes failed (stdout ended, or stdin is broken): the server
		// is most likely exiting. Wait a moment for its exit status, which
		// says more than "broken pipe".
		select {
		case <-c.done:
		case <-time.After(2 * time.Second):
			if errors.Is(err, transport.ErrTransportClosed) {
				c.fail(errors.New("app server closed its stdout"))
			}
		}
	}
	if e := c.Err(); e != nil {
		return fmt.Errorf("%s: %w", method, e)
	}
	if perr := parent.Err(); perr != nil {
		c.cancelRequest(id, perr)
		return fmt.Errorf("%s: %w", method, perr)
	}
	if errors.Is(rctx.Err(), context.DeadlineExceeded) {
		c.cancelRequest(id, rctx.Err())
		return fmt.Errorf("%s: the app server did not answer within %v", method, c.timeout)
	}
	if probe && c.cmd == nil && !c.alive() {
		c.fail(fmt.Errorf("app server connection lost: %v", err))
		return fmt.Errorf("%s: %w", method, c.Err())
	}
	return fmt.Errorf("%s: %w", method, err)
}

// alive pings the server; any answer, even an error, means it is there.
func (c *Client) alive() bool {
	ctx, cancel := c.requestContext(context.Background())
	defer cancel()
	if c.timeout > 5*time.Second {
		var cancel2 context.CancelFunc
		ctx, cancel2 = context.WithTimeout(ctx, 5*time.Second)
		defer cancel2()
	}
	id := mcp.NewRequestId(fmt.Sprintf("pmx-app-host-%d", c.nextID.Add(1)))
	_, err := c.tr.SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: string(mcp.MethodPing),
	})
	return err == nil
}

// cancelRequest tells the server, best effort and off the caller's path,
// that we no longer wait for request id.
func (c *Client) cancelRequest(id *mcp.RequestId, reason error) {
	if id == nil || c.Err() != nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = c.tr.SendNotification(ctx, mcp.JSONRPCNotification{
			JSONRPC: mcp.JSONRPC_VERSION,
			Notification: mcp.Notification{
				Method: string(mcp.MethodNotificationCancelled),
				Params: mcp.NotificationParams{AdditionalFields: map[string]any{
					"requestId": *id, "reason": reason.Error(),
				}},
			},
		})
	}()
}
