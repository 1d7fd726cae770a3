// Package httpapi is the HTTP + SSE surface of pmx-canvas (folder
// surfaces/http). Its operation routes are generated from messages.Catalog:
// each route builds an envelope from query, body and path parameters and
// hands it to an Invoker, so HTTP can never drift from MCP or the CLI.
package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Options configure the HTTP surface.
type Options struct {
	Invoker  messages.Invoker
	Streamer messages.Streamer
	// Workspace is reported by /health.
	Workspace string
	Version   string
	// Host is the address the server binds; it joins the loopback names
	// in the Host allow-list.
	Host string
	// Token, when set, is required as a bearer token on every request
	// (at least MinTokenLength characters; see CheckToken).
	Token string
	// AllowOrigins are browser origins besides the server's own that may
	// change state (normalised by NormalizeOrigin).
	AllowOrigins []string
	// BodyLimit caps request bodies (bytes). 0 means 32 MiB.
	BodyLimit int
	// PingInterval is the SSE heartbeat. 0 means 8s (the reference's).
	PingInterval time.Duration
	// StreamWriteTimeout bounds one write of queued frames to an event
	// stream client; a client that does not read for that long is dropped
	// (it resumes with Last-Event-ID). 0 means 10s.
	StreamWriteTimeout time.Duration
	// RequestTimeout bounds one operation. 0 means 30s.
	RequestTimeout time.Duration
	// ReadTimeout bounds reading one request. 0 means 60s. Long-polls wait
	// longer than this: their handler clears the connection's deadline.
	ReadTimeout time.Duration
	Logger      *slog.Logger
}

// DefaultBodyLimit is the request body cap when Options.BodyLimit is 0.
const DefaultBodyLimit = 32 << 20

// Server is the HTTP surface.
type Server struct {
	opts     Options
	app      *fiber.App
	closing  chan struct{}
	closeOne sync.Once
	streams  sync.WaitGroup
	// parked is the parent context of long-polls: Shutdown cancels it, so
	// parked waits answer at once instead of holding the shutdown.
	parked       context.Context
	cancelParked context.CancelFunc
}

// New builds the Fiber app with every route.
func New(opts Options) *Server {
	if opts.BodyLimit <= 0 {
		opts.BodyLimit = DefaultBodyLimit
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = 8 * time.Second
	}
	if opts.StreamWriteTimeout <= 0 {
		opts.StreamWriteTimeout = 10 * time.Second
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 30 * time.Second
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = 60 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	s := &Server{opts: opts, closing: make(chan struct{})}
	s.parked, s.cancelParked = context.WithCancel(context.Background())
	s.app = fiber.New(fiber.Config{
		AppName:               "pmx-canvas",
		DisableStartupMessage: true,
		Immutable:             true,
		BodyLimit:             opts.BodyLimit,
		ReadTimeout:           opts.ReadTimeout,
		IdleTimeout:           120 * time.Second,
		ErrorHandler:          s.errorHandler,
	})
	s.routes()
	return s
}

// App exposes the Fiber app (tests drive it with app.Test).
func (s *Server) App() *fiber.App { return s.app }

// Serve accepts connections on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	err := s.app.Listener(ln)
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Shutdown ends event streams, stops accepting connections and waits for
// in-flight requests, so every write that started gets its reply.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closeOne.Do(func() {
		close(s.closing)
		s.cancelParked()
	})
	return s.app.ShutdownWithContext(ctx)
}

func (s *Server) routes() {
	s.app.Use(s.recoverPanics)
	s.app.Use(s.guard)
	s.app.All("/health", s.health)
	s.app.Get("/api/workbench/events", s.events)
	s.app.Get("/", s.workbenchPage)
	s.app.Get("/workbench", s.workbenchPage)
	s.app.Get("/workbench/:file", s.workbenchAsset)
	s.app.Get("/workbench/vendor/:file", s.workbenchVendor)
	// The reference's favicon routes: any method, one SVG for both paths
	// (browsers ask for /favicon.ico on every page load).
	s.app.All("/favicon.ico", s.favicon)
	s.app.All("/favicon.svg", s.favicon)
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			s.app.Add(r.Method, r.Path, s.operation(op))
		}
	}
	s.app.Use(func(c *fiber.Ctx) error {
		if op, ok := emptyPathParam(c.Method(), c.Path()); ok {
			// The router does not match an empty segment: the client
			// left out the id. The operation runs without it and refuses
			// it as it refuses a missing id on every surface.
			return s.operation(op)(c)
		}
		if allowed := allowedMethods(c.Path()); len(allowed) > 0 {
			c.Set(fiber.HeaderAllow, strings.Join(allowed, ", "))
			return writeError(c, messages.Make(messages.CodeMethodNotAllowed, "%s is not allowed on %s; use %s",
				c.Method(), c.Path(), strings.Join(allowed, " or ")))
		}
		return writeError(c, messages.Make(messages.CodeRouteNotFound, "Not found: %s %s", c.Method(), c.Path()))
	})
}

// emptyPathParam finds the operation whose route of method matches path
// with a path parameter left empty (POST /api/canvas/ax/approval//resolve).
func emptyPathParam(method, path string) (*messages.Op, bool) {
	segs := strings.Split(path, "/")
	for _, o := range messages.Catalog {
		for _, r := range o.HTTP {
			if r.Method != method {
				continue
			}
			if ok, empty := matchRoute(r.Path, segs); ok && empty {
				return o, true
			}
		}
	}
	return nil, false
}

// matchRoute matches path segments against a route's pattern: ok when
// every literal segment matches, empty when a parameter's segment is "".
func matchRoute(route string, segs []string) (ok, empty bool) {
	pattern := strings.Split(route, "/")
	if len(pattern) != len(segs) {
		return false, false
	}
	for i, p := range pattern {
		switch {
		case strings.HasPrefix(p, ":"):
			empty = empty || segs[i] == ""
		case p != segs[i]:
			return false, false
		}
	}
	return true, empty
}

// allowedMethods lists the methods the catalog serves on path.
func allowedMethods(path string) []string {
	segs := strings.Split(strings.TrimSuffix(path, "/"), "/")
	var out []string
	add := func(m string) {
		for _, have := range out {
			if have == m {
				return
			}
		}
		out = append(out, m)
	}
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			if ok, _ := matchRoute(r.Path, segs); ok {
				add(r.Method)
			}
		}
	}
	return out
}

func (s *Server) health(c *fiber.Ctx) error {
	// pid identifies the process, so a client can check that a server
	// record (.pmx-canvas/server.json) describes the server that answers.
	return writeJSON(c, fiber.StatusOK, map[string]any{"ok": true, "workspace": s.opts.Workspace, "version": s.opts.Version, "pid": os.Getpid()})
}

// operation returns the handler of one catalog operation.
func (s *Server) operation(op *messages.Op) fiber.Handler {
	return func(c *fiber.Ctx) error {
		env, err := s.envelope(c, op)
		if err != nil {
			return writeError(c, err)
		}
		if !isStateChanging(c.Method()) && op.ChangesState(env.Args) {
			// A GET that takes a lease is guarded like a write: an <img>
			// on another site must not hide the human's steering.
			if err := s.sameOrigin(c); err != nil {
				return writeError(c, err)
			}
		}
		timeout := max(s.opts.RequestTimeout, op.Runs)
		parks := op.Parks && parking(env)
		if parks {
			timeout += messages.AxWaitMax
		}
		base := context.Background()
		if parks {
			base = s.parked
		}
		ctx, cancel := context.WithTimeout(base, timeout)
		defer cancel()
		if parks {
			defer watchDisconnect(c, cancel)()
		}
		env.Deadline = time.Now().Add(timeout)
		reply, ierr := s.opts.Invoker.Invoke(ctx, env)
		if ierr != nil {
			return writeError(c, messages.AsError(ierr))
		}
		c.Set("X-PMX-Revision", strconv.FormatUint(reply.Revision, 10))
		if to, ok := reply.Body.(*messages.Redirect); ok {
			c.Set(fiber.HeaderCacheControl, "no-store")
			c.Set(fiber.HeaderLocation, to.Location)
			return c.SendStatus(fiber.StatusFound)
		}
		if blob, ok := reply.Body.(*messages.Blob); ok {
			c.Set(fiber.HeaderContentType, blob.ContentType)
			c.Set(fiber.HeaderCacheControl, "no-store")
			c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
			if blob.CSP != "" {
				c.Set(fiber.HeaderContentSecurityPolicy, blob.CSP)
				c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
			}
			return c.Status(reply.StatusCode()).Send(blob.Data)
		}
		return writeJSON(c, reply.StatusCode(), reply.Body)
	}
}

// recoverPanics turns a panic in a handler into a 500 with the error body.
func (s *Server) recoverPanics(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.opts.Logger.Error("http handler panicked", "path", c.Path(), "panic", r)
			err = writeError(c, messages.Internal("Internal server error."))
		}
	}()
	return c.Next()
}

func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusRequestEntityTooLarge:
			return writeError(c, messages.Make(messages.CodeBodyTooLarge, "request body exceeds the %d-byte limit", s.opts.BodyLimit))
		case fiber.StatusNotFound:
			return writeError(c, messages.Make(messages.CodeRouteNotFound, "Not found: %s %s", c.Method(), c.Path()))
		case fiber.StatusMethodNotAllowed:
			return writeError(c, messages.Make(messages.CodeMethodNotAllowed, "%s is not allowed on %s", c.Method(), c.Path()))
		}
		e := messages.BadRequest("%s", fe.Message)
		e.Status = fe.Code
		return writeError(c, e)
	}
	return writeError(c, messages.AsError(err))
}

var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody keeps buffers of huge one-off reads out of the pool.
const maxPooledBody = 64 << 20

// pooledBody streams a pooled buffer; fasthttp closes it once the body is
// written (or the response is discarded), which returns the buffer.
type pooledBody struct {
	*bytes.Reader
	buf  *bytes.Buffer
	once sync.Once
}

func (p *pooledBody) Close() error {
	p.once.Do(func() { releaseBody(p.buf) })
	return nil
}

func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBody {
		buf.Reset()
		bodyBuffers.Put(buf)
	}
}

// writeJSON sends body as compact JSON. HTML characters are not escaped, so
// payloads read the same as the reference's.
func writeJSON(c *fiber.Ctx, status int, body any) error {
	if large, ok := body.(io.WriterTo); ok {
		// A large, already-valid JSON body (a layout): render it into a
		// pooled buffer that fasthttp streams to the socket and hands back
		// to the pool when done (no copy, no garbage per read).
		buf := bodyBuffers.Get().(*bytes.Buffer)
		if _, err := large.WriteTo(buf); err != nil {
			releaseBody(buf)
			return writeError(c, messages.Internal("encode response: %v", err))
		}
		c.Set(fiber.HeaderContentType, "application/json; charset=utf-8")
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Status(status)
		c.Response().SetBodyStream(&pooledBody{Reader: bytes.NewReader(buf.Bytes()), buf: buf}, buf.Len())
		return nil
	}
	// Bytes rendered once for many callers (a gate's waiters) are sent as
	// they are.
	out, err := messages.BodyJSON(body)
	if err != nil {
		return writeError(c, messages.Internal("encode response: %v", err))
	}
	c.Set(fiber.HeaderContentType, "application/json; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).Send(out)
}

func writeError(c *fiber.Ctx, e *messages.Error) error {
	if ms, ok := e.Extra[messages.RetryAfterKey].(int64); ok {
		c.Set(fiber.HeaderRetryAfter, strconv.FormatInt(max(1, (ms+999)/1000), 10))
	}
	// The header tells a remote invoker this body is an error, not a reply
	// whose body happens to say ok:false (a gate read's 404, a refused
	// interaction).
	c.Set(HeaderError, string(e.Code))
	return writeJSON(c, e.Status, e.Body())
}
