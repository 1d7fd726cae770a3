package actors

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Hosted MCP Apps. The I/O of an open (connect, call the tool, read its
// ui:// resource) runs in the caller's goroutine; the session it makes is
// one appSessionActor, a child of the canvas's Apps actor, which owns the
// connection's lifecycle: it closes the app server when the node goes or
// the canvas stops, and marks the node sessionStatus:"error" with the
// reason when the server dies. Bridge calls (extapp.*) use the session's
// client from the caller's goroutine, so a slow app never holds a mailbox.

// appHostSource is the source of the Apps actors' writes.
const appHostSource = "app-host"

// Session caps per canvas: live sessions, and closed ones remembered (so a
// call to one says it is closed rather than unknown).
const (
	maxAppSessions    = 24
	maxClosedSessions = 32
)

// appSession is one live app session.
type appSession struct {
	id, nodeID string
	client     *mcpapp.Client
	pid        *actor.PID
}

// appsCore is the canvas's session registry; it lives in the canvas handle
// so handlers in callers' goroutines find a session's client without a
// mailbox. Guarded by mu.
type appsCore struct {
	mu     sync.Mutex
	live   map[string]*appSession
	closed map[string]string // session id → why it closed
	order  []string          // closed ids, oldest first
}

func newAppsCore() *appsCore {
	return &appsCore{live: map[string]*appSession{}, closed: map[string]string{}}
}

func (c *appsCore) get(id string) (*appSession, *messages.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.live[id]; ok {
		return s, nil
	}
	if why, ok := c.closed[id]; ok {
		return nil, messages.BadRequest("MCP app session %q not found: %s.", id, why).With("field", "sessionId")
	}
	return nil, messages.BadRequest("MCP app session %q not found.", id).With("field", "sessionId")
}

func (c *appsCore) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.live)
}

// forNode is the live session serving a node, if any.
func (c *appsCore) forNode(nodeID string) *appSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.live {
		if s.nodeID == nodeID {
			return s
		}
	}
	return nil
}

func (c *appsCore) add(s *appSession) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live[s.id] = s
}

// drop forgets a live session, remembering why it ended.
func (c *appsCore) drop(id, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.live[id]; !ok {
		return
	}
	delete(c.live, id)
	c.closed[id] = why
	c.order = append(c.order, id)
	for len(c.order) > maxClosedSessions {
		delete(c.closed, c.order[0])
		c.order = c.order[1:]
	}
}

// appOpen is what mcpapp.open and diagram.open ask for.
type appOpen struct {
	transport  mcpapp.Transport
	toolName   string
	args       map[string]any
	serverName string
	nodeID     string
	title      string
	x, y, w, h *float64
	timeout    time.Duration
	// result adjusts the tool result as it is stored, given the node id
	// (the diagram preset's checkpoint id): canvas.ExtAppNode.AdjustResult.
	result func(nodeID string, result map[string]any)
}

// Messages of the Apps actor and its sessions.
type (
	// startAppSession registers an opened session: the Apps actor spawns
	// its actor and answers with the *appSession.
	startAppSession struct{ s *appSession }
	// appNodesChanged is a commit's effect on ext-app nodes: sessions of
	// removed nodes close; rehydrate lists nodes to re-open (startup,
	// snapshot restore, undo and redo).
	appNodesChanged struct {
		removed   []string // session ids
		rehydrate []string // node ids
	}
	// appRehydrated is a re-open's outcome.
	appRehydrated struct {
		nodeID string
		s      *appSession
		html   string
		err    error
	}
	// appServerLost is a session's notice that its server died.
	appServerLost struct{}
	// closeAppSession stops a session.
	closeAppSession struct{ why string }
)

// extAppPlaceInput is the internal extapp.place write.
type extAppPlaceInput struct{ Node canvas.ExtAppNode }

// extAppPlaced is its reply.
type extAppPlaced struct {
	ID      string
	Created bool
}

// extAppSessionInput is the internal extapp.session write.
type extAppSessionInput struct{ Change canvas.ExtAppSession }

// extAppResultInput is the internal extapp.result write.
type extAppResultInput struct {
	NodeID, SessionID, ToolName string
	Result                      map[string]any
	// Checkpoint, when set, is what an Excalidraw save_checkpoint saved
	// (appCheckpoint) and ToolInput the node's new tool input (restore it).
	Checkpoint map[string]any
	ToolInput  map[string]any
}

func init() {
	for name, h := range map[string]workspaceHandler{
		"mcpapp.open": mcpAppOpen, "diagram.open": diagramOpen, "extapp.call-tool": extAppCallTool,
		"extapp.read-resource": extAppReadResource, "extapp.list-tools": extAppList,
		"extapp.list-resources": extAppList, "extapp.list-resource-templates": extAppList, "extapp.list-prompts": extAppList,
	} {
		workspaceHandlers[name] = h
	}
	for _, name := range []string{"extapp.place", "extapp.session", "extapp.result"} {
		internalOps[name] = &messages.Op{Name: name, Owner: messages.OwnerLayout, Kind: messages.Write}
	}
	writeHandlers["extapp.place"] = func(c *call) (any, *messages.Error) {
		n, created, err := canvas.PlaceExtApp(c.tx, c.env.Args.(*extAppPlaceInput).Node)
		if err != nil {
			return nil, err
		}
		return &extAppPlaced{ID: n.ID, Created: created}, nil
	}
	writeHandlers["extapp.session"] = func(c *call) (any, *messages.Error) {
		return map[string]any{"ok": canvas.SetExtAppSession(c.tx, c.env.Args.(*extAppSessionInput).Change)}, nil
	}
	writeHandlers["extapp.result"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*extAppResultInput)
		ok := canvas.RecordAppResult(c.tx, canvas.AppResult{NodeID: in.NodeID, SessionID: in.SessionID, ToolName: in.ToolName,
			Result: in.Result, Checkpoint: in.Checkpoint, ToolInput: in.ToolInput})
		return map[string]any{"ok": ok}, nil
	}
	writeHandlers["extapp.model-context"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*messages.ExtAppModelContextInput)
		if in.NodeID == nil || *in.NodeID == "" {
			return nil, messages.BadRequest("Missing nodeId.").With("field", "nodeId")
		}
		if _, err := canvas.SetModelContext(c.tx, *in.NodeID, in.Content, in.StructuredContent); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true}, nil
	}
}

func mcpAppOpen(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.MCPAppOpenInput)
	if in.ToolName == nil || strings.TrimSpace(*in.ToolName) == "" || in.Transport == nil {
		field := "toolName"
		if in.ToolName != nil && strings.TrimSpace(*in.ToolName) != "" {
			field = "transport"
		}
		return nil, messages.BadRequest("Missing valid transport or toolName.").With("field", field)
	}
	t := in.Transport
	o := appOpen{transport: mcpapp.Transport{Type: t.Type, Command: t.Command, Args: t.Args, Cwd: t.Cwd, Env: t.Env, URL: t.URL, Headers: t.Headers},
		toolName: *in.ToolName, args: in.ToolArguments, serverName: str(in.ServerName), nodeID: str(in.NodeID),
		title: str(in.Title), x: in.X, y: in.Y, w: in.Width, h: in.Height, timeout: appTimeout(in.TimeoutMs)}
	return s.openApp(ctx, ref, env, o)
}

func appTimeout(ms *float64) time.Duration {
	if ms == nil {
		return mcpapp.DefaultTimeout
	}
	return time.Duration(*ms * float64(time.Millisecond))
}

// openApp connects, opens the tool's app, places the node and registers
// the session; a failure after connecting closes the server again.
func (s *System) openApp(ctx context.Context, ref *canvasRef, env *messages.Envelope, o appOpen) (any, *messages.Error) {
	if err := o.transport.Validate(); err != nil {
		return nil, messages.BadRequest("%s", err.Error()).With("field", "transport")
	}
	if err := s.appCommandAllowed(o.transport); err != nil {
		return nil, err
	}
	if o.nodeID != "" {
		if _, err := canvas.ExtAppTarget(ref.view.Load(), o.nodeID); err != nil {
			return nil, err
		}
	}
	core := ref.apps
	if old := core.forNode(o.nodeID); o.nodeID == "" || old == nil {
		if core.count() >= maxAppSessions {
			return nil, messages.Make(messages.CodeAppSessionLimit, "This canvas already has %d live MCP app sessions; remove an app node first.", maxAppSessions)
		}
	}
	client, opened, err := s.dialApp(ctx, o)
	if err != nil {
		return nil, err
	}
	sess := &appSession{id: "app-" + randomHex(8), client: client}
	toolCallID := randomHex(10)
	var result map[string]any
	_ = json.Unmarshal(opened.Result, &result)
	title := o.title
	if title == "" {
		title = opened.Title
	}
	serverName := o.serverName
	if serverName == "" {
		serverName = defaultServerName(o.transport)
	}
	var toolDef, meta any
	_ = json.Unmarshal(opened.Tool, &toolDef)
	if len(opened.ResourceMeta) > 0 {
		_ = json.Unmarshal(opened.ResourceMeta, &meta)
	}
	node := canvas.ExtAppNode{NodeID: o.nodeID, ToolCallID: toolCallID, Title: title, HTML: opened.HTML, ToolInput: nonNilMap(o.args),
		ServerName: serverName, ToolName: o.toolName, SessionID: sess.id, Transport: publicTransport(o.transport),
		ResourceURI: opened.ResourceURI, ToolDef: toolDef, ResourceMeta: meta, ToolResult: result, AdjustResult: o.result, X: o.x, Y: o.y, W: o.w, H: o.h}
	reply, werr := s.write(ctx, ref, "extapp.place", env, &extAppPlaceInput{Node: node})
	if werr != nil {
		_ = client.Close()
		return nil, werr
	}
	placed := reply.Body.(*extAppPlaced)
	if err := s.saveSecrets(ref.id, placed.ID, o.transport); err != nil {
		s.cfg.Logger.Warn("cannot keep an app's transport for re-opening", "canvas", ref.id, "node", placed.ID, "err", err)
	}
	sess.nodeID = placed.ID
	if err := s.startSession(ref, sess); err != nil {
		_ = client.Close()
		return nil, err
	}
	out := &messages.AppOpened{OK: true, NodeID: placed.ID, ToolCallID: toolCallID, SessionID: sess.id, ResourceURI: opened.ResourceURI}
	if placed.Created {
		out.ID = placed.ID
	}
	return &messages.Reply{Body: out, Revision: ref.view.Load().Revision}, nil
}

// dialApp connects to the app server and opens the tool's app.
func (s *System) dialApp(ctx context.Context, o appOpen) (*mcpapp.Client, *mcpapp.Opened, *messages.Error) {
	client, err := mcpapp.Dial(ctx, o.transport, mcpapp.Options{Timeout: o.timeout, Logger: s.cfg.Logger})
	if err != nil {
		return nil, nil, messages.Make(messages.CodeAppFailed, "Cannot start or reach the MCP app server: %v", err).With("field", "transport")
	}
	opened, err := client.Open(ctx, o.toolName, o.args)
	if err != nil {
		_ = client.Close()
		if errors.Is(err, mcpapp.ErrToolNotFound) || errors.Is(err, mcpapp.ErrNoAppResource) {
			return nil, nil, messages.BadRequest("%s", err.Error()).With("field", "toolName")
		}
		return nil, nil, messages.Make(messages.CodeAppFailed, "The MCP app server failed: %v", err)
	}
	return client, opened, nil
}

// appCommandAllowed refuses a stdio app server on a server bound beyond
// loopback (a remote caller must not start processes here) unless the
// command is on the allow-list.
func (s *System) appCommandAllowed(t mcpapp.Transport) *messages.Error {
	if t.Type != "stdio" || s.cfg.Loopback {
		return nil
	}
	for _, allowed := range s.cfg.Apps.AllowCommands {
		if allowed == t.Command || filepath.Base(allowed) == t.Command && !strings.ContainsRune(t.Command, filepath.Separator) {
			return nil
		}
	}
	return messages.Make(messages.CodeLoopbackOnly, "stdio MCP app servers are refused: this server is bound beyond loopback, and a remote caller must not start processes on it; start it with --allow-app-command %s to allow that command.", t.Command).With("field", "transport")
}

// startSession hands an opened session to the Apps actor.
func (s *System) startSession(ref *canvasRef, sess *appSession) *messages.Error {
	pid := ref.appsPID.Load()
	if pid == nil {
		return messages.Unavailable("canvas %q is restarting; retry", ref.id)
	}
	if _, err := s.request(ref, pid, &startAppSession{s: sess}, s.cfg.DefaultTimeout); err != nil {
		return messages.AsError(err)
	}
	return nil
}

func defaultServerName(t mcpapp.Transport) string {
	if t.Type == "stdio" {
		return filepath.Base(t.Command)
	}
	if u, err := url.Parse(t.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return t.URL
}

// transportConfig is the transport as node data (re-opened from it).
func transportConfig(t mcpapp.Transport) map[string]any {
	b, _ := json.Marshal(t)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for k, v := range m {
		if v == nil || v == "" {
			delete(m, k)
		}
	}
	return m
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Bridge calls.

func extAppCallTool(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.ExtAppCallToolInput)
	if in.SessionID == nil || *in.SessionID == "" || in.ToolName == nil || *in.ToolName == "" {
		return nil, messages.BadRequest("Missing sessionId or toolName.")
	}
	sess, raw, err := sessionCall(ref, *in.SessionID, func(c *mcpapp.Client) (json.RawMessage, error) {
		return c.CallTool(ctx, *in.ToolName, in.Arguments)
	})
	if err != nil {
		return nil, err
	}
	if in.NodeID != nil && *in.NodeID != "" {
		var result map[string]any
		if json.Unmarshal(raw, &result) == nil {
			rec := &extAppResultInput{NodeID: *in.NodeID, SessionID: sess.id, ToolName: *in.ToolName, Result: result}
			if n, ok := ref.view.Load().Nodes.Get(*in.NodeID); ok {
				rec.Checkpoint, rec.ToolInput = diagramCheckpoint(n, *in.ToolName, in.Arguments)
			}
			if _, werr := s.write(ctx, ref, "extapp.result", env, rec); werr != nil {
				return nil, werr
			}
		}
	}
	return &messages.ExtAppResult{OK: true, Result: raw}, nil
}

func extAppReadResource(ctx context.Context, _ *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.ExtAppReadResourceInput)
	if in.SessionID == nil || *in.SessionID == "" || in.URI == nil || *in.URI == "" {
		return nil, messages.BadRequest("Missing sessionId or uri.")
	}
	return bridgeResult(sessionCall(ref, *in.SessionID, func(c *mcpapp.Client) (json.RawMessage, error) {
		return c.ReadResource(ctx, *in.URI)
	}))
}

func extAppList(ctx context.Context, _ *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.ExtAppSessionInput)
	if in.SessionID == nil || *in.SessionID == "" {
		return nil, messages.BadRequest("Missing sessionId.")
	}
	return bridgeResult(sessionCall(ref, *in.SessionID, func(c *mcpapp.Client) (json.RawMessage, error) {
		switch env.Op {
		case "extapp.list-tools":
			return c.ListTools(ctx)
		case "extapp.list-resources":
			return c.ListResources(ctx)
		case "extapp.list-resource-templates":
			return c.ListResourceTemplates(ctx)
		}
		return c.ListPrompts(ctx)
	}))
}

// sessionCall runs one bridge call on a live session's client, in the
// caller's goroutine; a failed call is the caller's 400 with its text.
func sessionCall(ref *canvasRef, id string, call func(*mcpapp.Client) (json.RawMessage, error)) (*appSession, json.RawMessage, *messages.Error) {
	sess, err := ref.apps.get(id)
	if err != nil {
		return nil, nil, err
	}
	raw, cerr := call(sess.client)
	if cerr != nil {
		return nil, nil, messages.BadRequest("%s", cerr.Error())
	}
	return sess, raw, nil
}

// bridgeResult is a bridge call's reply: the server's result as it sent it.
func bridgeResult(_ *appSession, raw json.RawMessage, err *messages.Error) (any, *messages.Error) {
	if err != nil {
		return nil, err
	}
	return &messages.ExtAppResult{OK: true, Result: raw}, nil
}

// appsActor owns a canvas's app sessions: it spawns one appSessionActor
// per session, closes the sessions of removed nodes and re-opens app nodes
// after startup, snapshot restore, undo and redo.
type appsActor struct {
	ref *canvasRef
	// rehydrating are the nodes being re-opened (a commit while one runs
	// does not start another).
	rehydrating map[string]bool
}

func (a *appsActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.rehydrating = map[string]bool{}
		var ids []string
		for _, n := range a.ref.view.Load().Nodes.All() {
			if canvas.IsExtApp(n) {
				ids = append(ids, n.ID)
			}
		}
		a.rehydrate(ctx, ids)
	case *startAppSession:
		a.spawn(ctx, m.s)
		ctx.Respond(m.s)
	case *appNodesChanged:
		a.ref.apps.mu.Lock()
		var stop []*appSession
		for _, id := range m.removed {
			if s, ok := a.ref.apps.live[id]; ok {
				stop = append(stop, s)
			}
		}
		a.ref.apps.mu.Unlock()
		for _, s := range stop {
			ctx.Send(s.pid, &closeAppSession{why: "its node was removed"})
		}
		a.rehydrate(ctx, m.rehydrate)
	case *appRehydrated:
		delete(a.rehydrating, m.nodeID)
		if n, ok := a.ref.view.Load().Nodes.Get(m.nodeID); !ok || !canvas.IsExtApp(n) {
			// The node went while its app was re-opened: nothing shows it.
			if m.s != nil {
				_ = m.s.client.Close()
			}
			return
		}
		change := canvas.ExtAppSession{NodeID: m.nodeID, Status: canvas.SessionReady}
		if m.err != nil {
			change.Status, change.Error = canvas.SessionError, m.err.Error()
		} else {
			a.spawn(ctx, m.s)
			change.SessionID, change.HTML = m.s.id, m.html
		}
		writeFrom(ctx, a.ref, appHostSource, "extapp.session", &extAppSessionInput{Change: change})
	}
}

// spawn starts a session's actor and registers it.
func (a *appsActor) spawn(ctx actor.Context, s *appSession) {
	if old := a.ref.apps.forNode(s.nodeID); old != nil && old.id != s.id {
		ctx.Send(old.pid, &closeAppSession{why: "its node was reopened"})
	}
	s.pid = ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return &appSessionActor{ref: a.ref, s: s} }))
	a.ref.apps.add(s)
}

// rehydrate re-opens app nodes from their stored transport and tool, in
// the background: each node reads "rehydrating" until it is ready again
// (a new appSessionId) or in error with the reason.
func (a *appsActor) rehydrate(ctx actor.Context, ids []string) {
	view := a.ref.view.Load()
	self, root := ctx.Self(), ctx.ActorSystem().Root
	for _, id := range ids {
		n, ok := view.Nodes.Get(id)
		if !ok || !canvas.IsExtApp(n) || a.rehydrating[id] {
			continue
		}
		if old := a.ref.apps.forNode(id); old != nil {
			ctx.Send(old.pid, &closeAppSession{why: "its node was re-opened"})
		}
		o, err := reopenSpec(n)
		if err == nil {
			o.transport, err = a.ref.sys.withSecrets(a.ref.id, id, o.transport)
		}
		if err == nil {
			err = a.ref.sys.appCommandAllowedErr(o.transport)
		}
		if err == nil && a.ref.apps.count() >= maxAppSessions {
			err = errors.New("this canvas has too many live MCP app sessions")
		}
		if err != nil {
			writeFrom(ctx, a.ref, appHostSource, "extapp.session", &extAppSessionInput{Change: canvas.ExtAppSession{NodeID: id, Status: canvas.SessionError, Error: err.Error()}})
			continue
		}
		a.rehydrating[id] = true
		writeFrom(ctx, a.ref, appHostSource, "extapp.session", &extAppSessionInput{Change: canvas.ExtAppSession{NodeID: id, Status: canvas.SessionRehydrating}})
		sys := a.ref.sys
		go func() {
			dctx, cancel := context.WithTimeout(context.Background(), o.timeout+5*time.Second)
			defer cancel()
			client, opened, derr := sys.dialApp(dctx, o)
			msg := &appRehydrated{nodeID: id}
			if derr != nil {
				msg.err = errors.New(derr.Message)
			} else {
				msg.s, msg.html = &appSession{id: "app-" + randomHex(8), nodeID: id, client: client}, opened.HTML
			}
			root.Send(self, msg)
		}()
	}
}

func (s *System) appCommandAllowedErr(t mcpapp.Transport) error {
	if e := s.appCommandAllowed(t); e != nil {
		return errors.New(e.Message)
	}
	return nil
}

// reopenSpec is what re-opens a stored app node.
func reopenSpec(n *canvas.Node) (appOpen, error) {
	var o appOpen
	raw, _ := json.Marshal(n.Data["transportConfig"])
	if err := json.Unmarshal(raw, &o.transport); err != nil || o.transport.Type == "" {
		return o, errors.New("the node has no transport to re-open its app with")
	}
	o.toolName, _ = n.Data["toolName"].(string)
	if o.toolName == "" {
		return o, errors.New("the node has no tool to re-open its app with")
	}
	o.args, _ = n.Data["toolInput"].(map[string]any)
	o.timeout = mcpapp.DefaultTimeout
	return o, o.transport.Validate()
}

// appSessionActor is one app session: it closes its server when it stops
// and reports the server's death.
type appSessionActor struct {
	ref *canvasRef
	s   *appSession
}

func (a *appSessionActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		self, root, done := ctx.Self(), ctx.ActorSystem().Root, a.s.client.Done()
		go func() {
			<-done
			root.Send(self, &appServerLost{})
		}()
	case *appServerLost:
		err := a.s.client.Err()
		if errors.Is(err, mcpapp.ErrClosed) {
			return // closed by us
		}
		why := "the app server stopped"
		if err != nil {
			why = err.Error()
		}
		a.ref.apps.drop(a.s.id, why)
		writeFrom(ctx, a.ref, appHostSource, "extapp.session", &extAppSessionInput{Change: canvas.ExtAppSession{
			NodeID: a.s.nodeID, Status: canvas.SessionError, Error: why, OnlySession: a.s.id}})
		ctx.Stop(ctx.Self())
	case *closeAppSession:
		a.ref.apps.drop(a.s.id, m.why)
		ctx.Stop(ctx.Self())
	case *actor.Stopping, *actor.Restarting:
		a.ref.apps.drop(a.s.id, "the canvas stopped")
		_ = a.s.client.Close()
	}
}

// appChangesOf lists what a commit did to ext-app nodes.
func appChangesOf(op string, ch *canvas.Change) *appNodesChanged {
	var out appNodesChanged
	history := ch.Replayed || op == "snapshot.restore"
	for _, rc := range ch.Nodes {
		before, after := canvas.IsExtApp(rc.Before), canvas.IsExtApp(rc.After)
		if before && (!after || history) {
			if id, _ := rc.Before.Data["appSessionId"].(string); id != "" {
				out.removed = append(out.removed, id)
			}
		}
		if after && history {
			out.rehydrate = append(out.rehydrate, rc.ID)
		}
	}
	if len(out.removed) == 0 && len(out.rehydrate) == 0 {
		return nil
	}
	slices.Sort(out.rehydrate)
	return &out
}
