package actors

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/content/files"
	"github.com/pmxcanvas/pmx-canvas/content/watch"
	"github.com/pmxcanvas/pmx-canvas/content/workspace"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// contentKit is the process's access to workspace content: the confined
// workspace root and the one file watcher every canvas shares.
type contentKit struct {
	root    *workspace.Root
	watcher *watch.Watcher
}

// startContent opens the workspace and its watcher. The watcher's notices
// go to the Content actor of each canvas that watches the file.
func (s *System) startContent() error {
	dir := s.cfg.Workspace
	if dir == "" {
		// <workspace>/.pmx-canvas/<db>: the store lives in the workspace.
		dir = filepath.Dir(filepath.Dir(s.cfg.Store.Path()))
	}
	root, err := workspace.Open(dir)
	if err != nil {
		return err
	}
	w, err := watch.New(s.cfg.WatchDebounce, s.fileChanged, s.cfg.Logger)
	if err != nil {
		_ = root.Close()
		return err
	}
	s.content = &contentKit{root: root, watcher: w}
	return nil
}

func (k *contentKit) close() {
	if k != nil {
		_ = k.watcher.Close()
		_ = k.root.Close()
	}
}

// fileChanged routes a watcher notice to the canvases watching the file.
func (s *System) fileChanged(path string, canvases []string) {
	for _, id := range canvases {
		ref, ok := s.canvases.Load(id)
		if !ok {
			continue
		}
		if pid := ref.(*canvasRef).contentPID.Load(); pid != nil {
			s.as.Root.Send(pid, &fileChanged{path: path})
		}
	}
}

// readFileNode reads a file node's file, mapping failures to the errors a
// caller sees: a path outside the workspace is a 400 naming it.
func (k *contentKit) readFile(p string) (*canvas.FileSnapshot, error) {
	s, err := files.Read(k.root, p)
	if err != nil {
		return nil, err
	}
	return &canvas.FileSnapshot{
		Path: s.Abs, Content: s.Content, LineCount: s.LineCount, SHA256: s.SHA256, Language: s.Language,
		MimeType: s.MimeType, Size: s.Size, ModTime: s.ModTime, Truncated: s.Truncated, Binary: s.Binary,
		Table: tableValue(s.Table),
	}, nil
}

func tableValue(t *files.Table) any {
	if t == nil {
		return nil
	}
	return toGeneric(t)
}

// pathError turns a refused workspace path into the 400 a caller sees.
func pathError(what string, err error) *messages.Error {
	var pe *workspace.PathError
	if errors.As(err, &pe) {
		return messages.BadRequest("%s: %s.", what, pe.Error()).With("field", "path")
	}
	if errors.Is(err, files.ErrNotFile) {
		return messages.BadRequest("%s: %v.", what, err).With("field", "path")
	}
	return messages.BadRequest("%s: %v", what, err)
}

// fileNodeChange is a file node's watched path before and after a commit
// ("" when the node, or its path, is absent on that side); sha is the
// content digest the node shows after it.
type fileNodeChange struct {
	id, before, after, sha string
}

// fileNodesChanged tells the Content actor what a commit did to file
// nodes, so it watches what the board shows and nothing else.
type fileNodesChanged struct {
	changes []fileNodeChange
	fetches []string
}

// pageFetched is a batch-created webpage node's fetch outcome.
type pageFetched struct {
	id    string
	fetch *canvas.WebpageFetch
}

// fileChanged is a watcher notice for one file.
type fileChanged struct{ path string }

// recomputeGraph is the Content actor's debounced code-graph tick.
type recomputeGraph struct{ gen uint64 }

// fileChangesOf lists the file nodes a change touched.
func fileChangesOf(ch *canvas.Change) []fileNodeChange {
	var out []fileNodeChange
	for _, rc := range ch.Nodes {
		var c fileNodeChange
		c.id = rc.ID
		if rc.Before != nil && rc.Before.Type == "file" {
			c.before, _ = rc.Before.Data["path"].(string)
		}
		if rc.After != nil && rc.After.Type == "file" {
			c.after, _ = rc.After.Data["path"].(string)
			c.sha, _ = rc.After.Data["sha256"].(string)
		}
		if c.before != "" || c.after != "" {
			out = append(out, c)
		}
	}
	return out
}

// contentActor keeps one canvas's file nodes in step with the workspace:
// it watches the files they show, re-reads a file when it changes and
// writes the new content to its nodes (no undo entry; a gone file marks
// them missing), and recomputes the code graph between file nodes after
// such changes, debounced. Its state is derived — the watched paths come
// from the published view — so a restart rebuilds it from there.
type contentActor struct {
	ref *canvasRef
	// nodes maps a watched absolute path to the ids of the nodes showing it.
	nodes map[string]map[string]bool
	// disk is the digest of each watched file as last read ("" when it
	// was missing), so a commit that shows what is on disk costs no read.
	disk map[string]string
	// graphGen numbers code-graph requests; only the latest tick runs.
	graphGen uint64
}

func newContentActor(ref *canvasRef) *contentActor {
	return &contentActor{ref: ref, nodes: map[string]map[string]bool{}, disk: map[string]string{}}
}

func (a *contentActor) kit() *contentKit { return a.ref.sys.content }
func (a *contentActor) log() *slog.Logger {
	return a.ref.sys.cfg.Logger.With("canvas", a.ref.id, "actor", "content")
}

func (a *contentActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.rebuild(ctx)
	case *actor.Restarting, *actor.Stopping:
		a.kit().watcher.UnwatchOwner(a.ref.id)
		a.nodes, a.disk = map[string]map[string]bool{}, map[string]string{}
	case *fileNodesChanged:
		a.apply(ctx, m)
	case *fileChanged:
		a.sync(ctx, m.path, nil)
	case *pageFetched:
		a.write(ctx, "webpage.apply", &webpageApplyInput{ID: m.id, Fetch: m.fetch})
	case *recomputeGraph:
		if m.gen == a.graphGen {
			a.recompute(ctx)
		}
	case *invokeResult:
		if m.err != nil && m.err.Code != messages.CodeNotFound {
			a.log().Warn("content write failed", "err", m.err.Message)
		}
	}
}

// rebuild watches every file node of the published view (a canvas load,
// a restart) and checks each file against what its nodes show.
func (a *contentActor) rebuild(ctx actor.Context) {
	a.kit().watcher.UnwatchOwner(a.ref.id)
	a.nodes, a.disk = map[string]map[string]bool{}, map[string]string{}
	shas := map[string]map[string]string{}
	a.ref.view.Load().Nodes.Each(func(n *canvas.Node) bool {
		if p, ok := n.Data["path"].(string); ok && n.Type == "file" && p != "" {
			a.watch(p, n.ID)
			if shas[p] == nil {
				shas[p] = map[string]string{}
			}
			shas[p][n.ID], _ = n.Data["sha256"].(string)
		}
		return true
	})
	for p, nodes := range shas {
		a.sync(ctx, p, nodes)
	}
	a.scheduleGraph(ctx)
}

func (a *contentActor) watch(p, id string) {
	if a.nodes[p] == nil {
		a.nodes[p] = map[string]bool{}
		if err := a.kit().watcher.Watch(p, a.ref.id); err != nil {
			a.log().Debug("file not watched", "path", p, "err", err)
		}
	}
	a.nodes[p][id] = true
}

func (a *contentActor) unwatch(p, id string) {
	if ids := a.nodes[p]; ids[id] {
		delete(ids, id)
		if len(ids) == 0 {
			delete(a.nodes, p)
			delete(a.disk, p)
			a.kit().watcher.Unwatch(p, a.ref.id)
		}
	}
}

// apply follows a commit's file-node changes. A node whose content digest
// does not match its file (an undo brought back old content, a restore)
// is synced from disk.
func (a *contentActor) apply(ctx actor.Context, m *fileNodesChanged) {
	a.fetchPages(ctx, m.fetches)
	for _, c := range m.changes {
		if c.before != "" && c.before != c.after {
			a.unwatch(c.before, c.id)
		}
		if c.after != "" {
			a.watch(c.after, c.id)
			if sha, known := a.disk[c.after]; !known || sha != c.sha {
				a.sync(ctx, c.after, map[string]string{c.id: c.sha})
			}
		}
	}
	if len(m.changes) > 0 {
		a.scheduleGraph(ctx)
	}
}

// fetchPages fetches batch-created webpage nodes off the mailbox: each
// fetch runs on its own goroutine and reports back as pageFetched.
func (a *contentActor) fetchPages(ctx actor.Context, ids []string) {
	view := a.ref.view.Load()
	self, root, sys := ctx.Self(), ctx.ActorSystem().Root, a.ref.sys
	for _, id := range ids {
		n, ok := view.Nodes.Get(id)
		if !ok {
			continue
		}
		u, _ := n.Data["url"].(string)
		go func() {
			fctx, cancel := context.WithTimeout(context.Background(), sys.cfg.DefaultTimeout)
			defer cancel()
			fetch, _ := sys.fetchPage(fctx, u)
			root.Send(self, &pageFetched{id: id, fetch: fetch})
		}()
	}
}

// sync reads path and writes its content to the nodes showing it whose
// digest differs (only means: the nodes' digests are unknown — a watcher
// notice — so every node showing it is checked against the view).
func (a *contentActor) sync(ctx actor.Context, path string, only map[string]string) {
	ids := a.nodes[path]
	if len(ids) == 0 {
		return
	}
	snap, err := a.kit().readFile(path)
	missing := err != nil && (files.IsNotExist(err) || workspace.IsOutside(err))
	if err != nil && !missing {
		a.log().Warn("file node not refreshed", "path", path, "err", err)
		return
	}
	a.disk[path] = ""
	if snap != nil {
		a.disk[path] = snap.SHA256
	}
	view := a.ref.view.Load()
	var syncs []canvas.FileSync
	for id := range ids {
		n, ok := view.Nodes.Get(id)
		if !ok {
			continue
		}
		shown, _ := n.Data["sha256"].(string)
		if sha, listed := only[id]; listed {
			shown = sha
		}
		wasMissing := n.Data["missing"] == true
		switch {
		case missing && !wasMissing:
			syncs = append(syncs, canvas.FileSync{NodeID: id, Path: path, Missing: time.Now()})
		case !missing && (wasMissing || shown != snap.SHA256 || n.Data["updatedAt"] == nil):
			syncs = append(syncs, canvas.FileSync{NodeID: id, Path: path, File: snap})
		}
	}
	if len(syncs) == 0 {
		return
	}
	a.write(ctx, "file.sync", &fileSyncInput{Syncs: syncs})
	a.scheduleGraph(ctx)
}

// write sends an internal write to the Layout actor; its reply comes back
// here as an invokeResult.
func (a *contentActor) write(ctx actor.Context, name string, args any) {
	writeFrom(ctx, a.ref, "watcher", name, args)
}

// writeFrom sends an internal Layout write (internalOps) from an actor;
// the reply comes back to that actor as an invokeResult, so no actor waits
// on the Layout.
func writeFrom(ctx actor.Context, ref *canvasRef, source, name string, args any) {
	pid := ref.layoutPID.Load()
	if pid == nil {
		return
	}
	env := &messages.Envelope{Canvas: ref.id, Op: name, Source: source, Args: args,
		Deadline: time.Now().Add(ref.sys.cfg.DefaultTimeout)}
	ctx.Request(pid, &invokeRequest{env: env, op: internalOps[name]})
}

// graphDebounce is the reference's code-graph recompute delay.
const graphDebounce = 300 * time.Millisecond

func (a *contentActor) scheduleGraph(ctx actor.Context) {
	a.graphGen++
	gen, self, root := a.graphGen, ctx.Self(), ctx.ActorSystem().Root
	time.AfterFunc(graphDebounce, func() { root.Send(self, &recomputeGraph{gen: gen}) })
}

// recompute builds the code graph from the published view and, when its
// edges differ from the canvas's auto edges, writes the difference.
func (a *contentActor) recompute(ctx actor.Context) {
	view := a.ref.view.Load()
	want := autoEdges(codeGraphOf(a.ref, view))
	have := map[string]bool{}
	view.Edges.Each(func(e *canvas.Edge) bool {
		if strings.HasPrefix(e.ID, canvas.CodeGraphEdgePrefix) {
			have[e.ID+"\x00"+e.From+"\x00"+e.To] = true
		}
		return true
	})
	same := len(have) == len(want)
	for _, e := range want {
		same = same && have[e.ID+"\x00"+e.From+"\x00"+e.To]
	}
	if !same {
		a.write(ctx, "codegraph.apply", &codeGraphInput{Edges: want})
	}
}

// Internal writes: Layout operations only the Content actor sends. They
// are not in the catalog (no surface reaches them) and record no history.
type fileSyncInput struct{ Syncs []canvas.FileSync }
type codeGraphInput struct{ Edges []canvas.AutoEdge }

var internalOps = map[string]*messages.Op{
	"file.sync":       {Name: "file.sync", Owner: messages.OwnerLayout, Kind: messages.Write},
	"codegraph.apply": {Name: "codegraph.apply", Owner: messages.OwnerLayout, Kind: messages.Write},
}

func init() {
	writeHandlers["file.sync"] = func(c *call) (any, *messages.Error) {
		n := canvas.SyncFiles(c.tx, c.env.Args.(*fileSyncInput).Syncs)
		return map[string]any{"ok": true, "synced": n}, nil
	}
	writeHandlers["codegraph.apply"] = func(c *call) (any, *messages.Error) {
		added, removed := canvas.ApplyCodeGraph(c.tx, c.env.Args.(*codeGraphInput).Edges)
		return map[string]any{"ok": true, "added": added, "removed": removed}, nil
	}
}

// fileExists reports whether p names an existing file in the workspace.
func (k *contentKit) fileExists(p string) bool {
	rel, err := k.root.Resolve(p)
	if err != nil {
		return false
	}
	fi, err := k.root.Stat(rel)
	return err == nil && fi.Mode().IsRegular()
}
