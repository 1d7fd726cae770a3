package mcpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Options configure the MCP server.
type Options struct {
	Caller *Caller
	// Compact serves the 21-tool surface (--tools=compact).
	Compact bool
	// Streamer feeds resource notifications (the default canvas's event
	// stream); nil sends none.
	Streamer messages.Streamer
	Version  string
	Logger   *slog.Logger
	// Workers is how many tool calls run at once (parked awaits hold one
	// each). 0 means 100, mcp-go's maximum.
	Workers int
}

// Server is the MCP server: mcp-go's protocol handling with our tools,
// resources, prompt and resource subscriptions.
type Server struct {
	opts Options
	mcp  *server.MCPServer

	mu            sync.Mutex
	subscriptions map[string]bool // URIs the client subscribed to
}

// schemaURI is the JSON Schema dialect of tool input schemas.
const schemaURI = "http://json-schema.org/draft-07/schema#"

// NewServer builds the server from the registry, resources and prompt.
func NewServer(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opts: opts, subscriptions: map[string]bool{}}
	hooks := &server.Hooks{}
	hooks.AddAfterSubscribe(func(_ context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s.mu.Lock()
		s.subscriptions[req.Params.URI] = true
		s.mu.Unlock()
	})
	// Clients on protocol 2026-07-28 subscribe through subscriptions/listen.
	hooks.AddBeforeAny(func(_ context.Context, _ any, _ mcp.MCPMethod, message any) {
		if req, ok := message.(*mcp.SubscriptionsListenRequest); ok {
			s.mu.Lock()
			for _, uri := range req.Params.Notifications.ResourceSubscriptions {
				s.subscriptions[uri] = true
			}
			s.mu.Unlock()
		}
	})
	hooks.AddAfterUnsubscribe(func(_ context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		s.mu.Lock()
		delete(s.subscriptions, req.Params.URI)
		s.mu.Unlock()
	})
	s.mcp = server.NewMCPServer("pmx-canvas", opts.Version,
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(true, false),
		server.WithPromptCapabilities(false),
		server.WithHooks(hooks),
		server.WithRecovery(),
		server.WithToolFilter(inRegistrationOrder),
	)
	for _, t := range opts.Caller.Registry.Tools(opts.Compact) {
		schema := InputSchema(t)
		if opts.Compact {
			schema = CompactSchema(t)
		}
		tool := mcp.NewToolWithRawSchema(t.Name, t.Description, schema)
		if t.UIResource != "" {
			tool.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": t.UIResource}}}
		}
		s.mcp.AddTool(tool, s.toolHandler(t))
	}
	for _, r := range AllResources() {
		s.mcp.AddResource(mcp.NewResource(r.URI, r.Name, mcp.WithResourceDescription(r.Description), mcp.WithMIMEType(r.MimeType)),
			s.resourceHandler(r))
	}
	for _, p := range Prompts() {
		s.mcp.AddPrompt(mcp.NewPrompt(p.Name, mcp.WithPromptDescription(p.Description)), s.promptHandler(p))
	}
	return s
}

// inRegistrationOrder lists tools in the reference's registration order
// (mcp-go sorts them by name).
func inRegistrationOrder(_ context.Context, tools []mcp.Tool) []mcp.Tool {
	rank := make(map[string]int, len(ToolOrder))
	for i, n := range ToolOrder {
		rank[n] = i + 1
	}
	at := func(name string) int {
		if r, ok := rank[name]; ok {
			return r
		}
		return len(ToolOrder) + 1 // bound tools follow the frozen ones
	}
	out := append([]mcp.Tool(nil), tools...)
	sort.SliceStable(out, func(i, j int) bool { return at(out[i].Name) < at(out[j].Name) })
	return out
}

// MCP returns the underlying mcp-go server (in-process clients in tests).
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// CompactSchema is the schema the compact surface advertises: the same
// fields, types, enums and required fields, with descriptions kept only on
// the discriminators (action, kind). The compact surface exists to spend
// less of an agent's context; field meanings are in the full surface and
// the tool descriptions.
func CompactSchema(t *Tool) json.RawMessage {
	discs := map[string]bool{}
	for _, d := range t.Discriminators {
		discs[d.Name] = true
	}
	short := *t
	short.Fields = make([]Field, len(t.Fields))
	for i, f := range t.Fields {
		if !discs[f.Name] {
			f.Schema = withoutDescriptions(f.Schema)
		}
		short.Fields[i] = f
	}
	return InputSchema(&short)
}

func withoutDescriptions(o Obj) Obj {
	out := make(Obj, 0, len(o))
	for _, kv := range o {
		if kv.K == "description" {
			continue
		}
		switch v := kv.V.(type) {
		case Obj:
			if kv.K == "properties" { // keys here are field names, not keywords
				props := make(Obj, len(v))
				for i, p := range v {
					if ps, ok := p.V.(Obj); ok {
						p.V = withoutDescriptions(ps)
					}
					props[i] = p
				}
				kv.V = props
				break
			}
			kv.V = withoutDescriptions(v)
		case []Obj:
			alts := make([]Obj, len(v))
			for i, a := range v {
				alts[i] = withoutDescriptions(a)
			}
			kv.V = alts
		}
		out = append(out, kv)
	}
	return out
}

// InputSchema is a tool's advertised JSON Schema: its fields in order, plus
// the optional canvas selector every tool takes.
func InputSchema(t *Tool) json.RawMessage {
	props := Obj{}
	var required []string
	for _, f := range t.Fields {
		props = append(props, KV{f.Name, f.Schema})
		if f.Required {
			required = append(required, f.Name)
		}
	}
	if _, own := props.Get(CanvasArg); !own {
		props = append(props, KV{CanvasArg, Obj{{"type", "string"}, {"description", "Canvas id (default: main, or PMX_CANVAS_ID)."}}})
	}
	schema := Obj{{"$schema", schemaURI}, {"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		schema = append(schema, KV{"required", required})
	}
	b, err := jsonobj.Marshal(schema)
	if err != nil {
		panic(err) // the schemas are static data; a failure is a programming error
	}
	return b
}

func (s *Server) toolHandler(t *Tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, _ := req.Params.Arguments.(map[string]any)
		res := s.opts.Caller.Call(ctx, t.Name, args)
		out := &mcp.CallToolResult{IsError: res.IsError}
		if t.UIResource != "" && !res.IsError {
			// The app reads the result as structuredContent.
			var v any
			if json.Unmarshal([]byte(res.Text), &v) == nil {
				out.StructuredContent = v
			}
		}
		if len(res.Image) > 0 {
			out.Content = append(out.Content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(res.Image), res.ImageMime))
		}
		out.Content = append(out.Content, mcp.NewTextContent(res.Text))
		return out, nil
	}
}

func (s *Server) call(ctx context.Context) *Call {
	return &Call{Ctx: ctx, Invoker: s.opts.Caller.Invoker, Canvas: s.opts.Caller.DefaultCanvas}
}

func (s *Server) resourceHandler(r *Resource) server.ResourceHandlerFunc {
	return func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		text, err := r.Read(s.call(ctx))
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.URI, MIMEType: r.MimeType, Text: text, Meta: r.Meta}}, nil
	}
}

func (s *Server) promptHandler(p *Prompt) server.PromptHandlerFunc {
	return func(ctx context.Context, _ mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		text, err := p.Text(s.call(ctx))
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{Description: p.Description,
			Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}}}, nil
	}
}

// ServeStdio serves JSON-RPC on in/out until in closes or ctx ends. Only
// JSON-RPC goes to out; mcp-go's own logging goes to the logger (stderr).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.opts.Streamer != nil {
		go s.notify(ctx)
	}
	workers := s.opts.Workers
	if workers <= 0 {
		workers = 100
	}
	stdio := server.NewStdioServer(s.mcp)
	server.WithWorkerPoolSize(workers)(stdio)
	server.WithQueueSize(10000)(stdio)
	stdio.SetErrorLogger(log.New(slogWriter{s.opts.Logger}, "", 0))
	return stdio.Listen(ctx, in, out)
}

// eventClass maps an event-stream event to the change class it signals
// ("" for none).
func eventClass(name string) string {
	switch name {
	case "connected", "ping", "mcp-app-host-snapshot", "ax-interaction", messages.ChangesEvent: // the layout frame notifies
		return ""
	case "trace-state", "workbench-intent", "canvas-prompt-created", "canvas-prompt-status",
		"canvas-response-start", "canvas-response-delta", "canvas-response-complete":
		return "" // no resource shows them; a node they change comes with its layout frame
	case "context-pins-changed":
		return ClassPins
	case "ax-state-changed":
		return ClassAX
	case "ax-event-created":
		return ClassAXTimeline
	}
	return ClassNodes
}

// notify follows the default canvas's event stream and sends
// notifications/resources/updated for each subscribed resource an event
// touches, once per event. A stream that ends (the subscriber fell behind,
// the canvas reloaded) is resumed from the last event seen.
func (s *Server) notify(ctx context.Context) {
	var last *uint64
	warned := false
	for ctx.Err() == nil {
		sub, err := s.opts.Streamer.Subscribe(ctx, messages.SubscribeRequest{Canvas: s.opts.Caller.DefaultCanvas, LastEventID: last})
		if err != nil {
			if !warned {
				s.opts.Logger.Warn("resource notifications paused: cannot follow the canvas events; retrying", "err", err)
				warned = true
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(notifyRetry):
				continue
			}
		}
		warned = false
		if last == nil {
			head := sub.Head
			last = &head
		}
		for _, ev := range sub.Initial {
			if sub.Resumed && ev.Name != "connected" {
				s.send(ev)
				seq := ev.Seq
				last = &seq
			}
		}
		s.follow(ctx, sub, &last)
		sub.Close()
	}
}

// notifyRetry is the pause before following the event stream again.
const notifyRetry = 200 * time.Millisecond

// follow sends the notifications of sub's events until it ends or ctx does.
func (s *Server) follow(ctx context.Context, sub *messages.Subscription, last **uint64) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.Events:
			if !ok {
				return
			}
			s.send(ev)
			seq := ev.Seq
			*last = &seq
		}
	}
}

// send notifies the subscribed resources one event touches.
func (s *Server) send(ev *messages.StreamEvent) {
	for _, uri := range s.touched(eventClass(ev.Name)) {
		s.mcp.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": uri})
	}
}

// touched lists the subscribed resources a change class touches.
func (s *Server) touched(class string) []string {
	if class == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range Resources() {
		if !s.subscriptions[r.URI] {
			continue
		}
		for _, c := range r.Classes {
			if c == class {
				out = append(out, r.URI)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// slogWriter adapts mcp-go's log.Logger output to slog (stderr).
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn("mcp", "msg", string(p))
	return len(p), nil
}
