package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/content/files"
	"github.com/pmxcanvas/pmx-canvas/content/webpage"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Refreshing file, image and webpage nodes. The I/O (reading a file,
// fetching a page) runs in the caller's goroutine; the result is written
// through the Layout as an internal write.

// webpageApplyInput is the internal webpage.apply write: a fetch outcome
// for one node, described (an undo step) when a caller asked for it.
type webpageApplyInput struct {
	ID        string
	Fetch     *canvas.WebpageFetch
	Described bool
}

// refreshFileInput is the internal node.reload write: a file node's
// re-read file (nil: missing) or an image node's re-checked file.
type refreshFileInput struct {
	ID    string
	File  *canvas.FileSnapshot
	Image *canvas.ImageInfo
}

func init() {
	internalOps["webpage.apply"] = &messages.Op{Name: "webpage.apply", Owner: messages.OwnerLayout, Kind: messages.Write}
	internalOps["node.reload"] = &messages.Op{Name: "node.reload", Owner: messages.OwnerLayout, Kind: messages.Write}
	writeHandlers["webpage.apply"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*webpageApplyInput)
		n, err := canvas.ApplyWebpage(c.tx, in.ID, in.Fetch, in.Described)
		if err != nil {
			return nil, err
		}
		return c.nodeResult(n), nil
	}
	writeHandlers["node.reload"] = func(c *call) (any, *messages.Error) {
		in := c.env.Args.(*refreshFileInput)
		var n *canvas.Node
		var err *messages.Error
		if in.Image != nil {
			if n, err = canvas.RefreshImage(c.tx, in.ID, in.Image); err != nil {
				return nil, err
			}
			return c.nodeResult(n), nil
		}
		// A file refresh is what the watcher writes, for one node.
		sync := canvas.FileSync{NodeID: in.ID, File: in.File, Missing: c.tx.Env().Now()}
		if old, ok := c.tx.Node(in.ID); ok {
			sync.Path, _ = old.Data["path"].(string)
		}
		if canvas.SyncFiles(c.tx, []canvas.FileSync{sync}) == 0 {
			return nil, canvas.NodeNotFound(in.ID)
		}
		n, _ = c.tx.Node(in.ID)
		return c.nodeResult(n), nil
	}
}

// fetcher builds the webpage fetcher for this server's bind: a loopback
// server may fetch anything (developers preview localhost); one bound
// beyond loopback refuses private addresses unless FetchAllow names them.
func (s *System) fetcher() (*webpage.Fetcher, error) {
	s.fetchOnce.Do(func() {
		opt := s.cfg.Fetch
		opt.Policy.AllowPrivate = opt.Policy.AllowPrivate || s.cfg.Loopback
		if opt.Resolver == nil && os.Getenv("PMX_CANVAS_OFFLINE") == "1" {
			opt.Resolver = offlineResolver{}
		}
		s.fetch, s.fetchErr = webpage.NewFetcher(opt)
	})
	return s.fetch, s.fetchErr
}

// offlineResolver resolves only localhost: with PMX_CANVAS_OFFLINE=1
// (the test suite, air-gapped machines) webpage nodes reach loopback and
// IP-literal addresses and never look a name up.
type offlineResolver struct{}

func (offlineResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, fmt.Errorf("offline (PMX_CANVAS_OFFLINE=1): %s is not looked up", host)
}

// fetchPage fetches u and returns the outcome as node data values, and
// the fetch error (nil on success).
func (s *System) fetchPage(ctx context.Context, u string) (*canvas.WebpageFetch, *webpage.FetchError) {
	out := &canvas.WebpageFetch{URL: u, FetchedAt: time.Now()}
	f, err := s.fetcher()
	if err != nil {
		out.Err = err.Error()
		return out, &webpage.FetchError{Kind: webpage.KindNetwork, URL: u, Msg: err.Error()}
	}
	snap, err := f.Fetch(ctx, u)
	if err != nil {
		var fe *webpage.FetchError
		if !errors.As(err, &fe) {
			fe = &webpage.FetchError{Kind: webpage.KindNetwork, URL: u, Msg: err.Error()}
		}
		out.Err, out.StatusCode, out.ContentType = fe.Msg, fe.StatusCode, fe.ContentType
		return out, fe
	}
	*out = canvas.WebpageFetch{URL: snap.URL, FetchedAt: snap.FetchedAt, StatusCode: snap.StatusCode,
		ContentType: snap.ContentType, PageTitle: snap.PageTitle, Description: snap.Description, Image: snap.ImageURL,
		Content: snap.Content, Excerpt: snap.Excerpt, FrameBlocked: snap.FrameBlocked,
		FrameBlockedReason: snap.FrameBlockedReason, Truncated: snap.Truncated}
	return out, nil
}

// fetchError is the caller's error for a failed refresh: 502 with the
// cause (403 when the policy refused the address).
func fetchError(id string, fe *webpage.FetchError) *messages.Error {
	code := messages.CodeFetchFailed
	if fe.Kind == webpage.KindBlocked {
		code = messages.CodeFetchBlocked
	}
	return messages.Make(code, "%s", fe.Msg).With("id", id)
}

// normalizeWebpageURL applies the reference's URL rules; the error names
// the field.
func normalizeWebpageURL(raw, field string) (string, *messages.Error) {
	u, err := webpage.NormalizeURL(raw)
	if err != nil {
		return "", messages.BadRequest("%s", err.Error()).With("field", field)
	}
	return u, nil
}

// nodeRefresh re-reads a file node's file, re-validates an image node's
// file or re-fetches a webpage node's page.
func nodeRefresh(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.NodeRefreshInput)
	return s.refresh(ctx, ref, env, in.ID, in.URL)
}

func (s *System) refresh(ctx context.Context, ref *canvasRef, env *messages.Envelope, id string, newURL *string) (any, *messages.Error) {
	n, ok := ref.view.Load().Nodes.Get(id)
	if !ok {
		return nil, canvas.NodeNotFound(id)
	}
	if newURL != nil && n.Type != "webpage" {
		return nil, messages.BadRequest("Field \"url\" only applies to webpage nodes; node %q is a %s node.", id, n.Type).With("field", "url")
	}
	var reply *messages.Reply
	var werr *messages.Error
	switch n.Type {
	case "webpage":
		u, _ := n.Data["url"].(string)
		if newURL != nil {
			var err *messages.Error
			if u, err = normalizeWebpageURL(*newURL, "url"); err != nil {
				return nil, err
			}
		}
		if u == "" {
			return nil, messages.BadRequest("Webpage node %q has no url to fetch.", id)
		}
		fetch, fe := s.fetchPage(ctx, u)
		reply, werr = s.write(ctx, ref, "webpage.apply", env, &webpageApplyInput{ID: id, Fetch: fetch, Described: true})
		if werr == nil && fe != nil {
			return nil, fetchError(id, fe)
		}
	case "file":
		p, _ := n.Data["path"].(string)
		if p == "" {
			return nil, messages.BadRequest("File node %q shows inline text, not a workspace file; there is nothing to re-read.", id)
		}
		snap, err := s.content.readFile(p)
		in := &refreshFileInput{ID: id, File: snap}
		switch {
		case err == nil, files.IsNotExist(err):
		default:
			return nil, pathError("Cannot refresh file node", err)
		}
		reply, werr = s.write(ctx, ref, "node.reload", env, in)
	case "image":
		p, _ := n.Data["path"].(string)
		if p == "" {
			return nil, messages.BadRequest("Image node %q is not file-based (its src is a URL or data URI); there is nothing to re-read.", id)
		}
		info, err := s.content.image(p)
		if err != nil {
			if strings.Contains(err.Message, "does not exist") {
				return nil, messages.NotFound("%s", err.Message)
			}
			return nil, err
		}
		reply, werr = s.write(ctx, ref, "node.reload", env, &refreshFileInput{ID: id, Image: info})
	default:
		return nil, messages.BadRequest("Node %q is a %s node; only file, image and webpage nodes refresh.", id, n.Type)
	}
	if werr != nil {
		return nil, werr
	}
	out := &messages.RefreshResult{OK: true, ID: id, Revision: reply.Revision}
	if node := nodeOf(reply); node != nil {
		out.Node = node
	}
	return &messages.Reply{Body: out, Revision: reply.Revision}, nil
}

// nodeOf decodes the node of a node reply, or nil.
func nodeOf(r *messages.Reply) *messages.Node {
	b, err := json.Marshal(r.Body)
	if err != nil {
		return nil
	}
	var nr messages.NodeResult
	if json.Unmarshal(b, &nr) != nil || nr.Node.ID == "" {
		return nil
	}
	return &nr.Node
}

// contentHook wraps a Layout write that also fetches: node.add of a
// webpage fetches the page after the node exists (the caller gets the
// fetched node), node.update with refresh:true refreshes instead of
// patching.
type contentHook func(ctx context.Context, s *System, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error)

var contentHooks = map[string]contentHook{
	"node.add":    addThenFetch,
	"node.update": updateOrRefresh,
}

func addThenFetch(ctx context.Context, s *System, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	in := env.Args.(*messages.NodeAddInput)
	if strings.TrimSpace(in.Type) == "diff" && in.GitDiff != nil {
		text, gerr := s.gitDiff(ctx, in.GitDiff, in.GitBase)
		if gerr != nil {
			return nil, gerr
		}
		in.Content, in.GitDiff = &text, nil
	}
	reply, err := s.ask(ctx, ref, ref.owner(op.Owner), op, env, before)
	if err != nil || strings.TrimSpace(in.Type) != "webpage" {
		return reply, err
	}
	created, ok := reply.Body.(*canvas.NodeReply)
	if !ok {
		return reply, nil
	}
	u := ""
	if created.Node.URL != nil {
		u = *created.Node.URL
	}
	fetch, fe := s.fetchPage(ctx, u)
	done, werr := s.write(ctx, ref, "webpage.apply", env, &webpageApplyInput{ID: created.Node.ID, Fetch: fetch})
	if werr != nil {
		// The node exists (the create is durable); say the fetch result
		// could not be stored.
		created.Extras = map[string]any{"fetch": map[string]any{"ok": false, "error": werr.Message}, "error": werr.Message}
		return reply, nil
	}
	if nr, ok := done.Body.(*canvas.NodeReply); ok {
		if fe != nil {
			nr.Extras = map[string]any{"fetch": map[string]any{"ok": false, "error": fe.Msg}, "error": fe.Msg}
		} else {
			nr.Extras = map[string]any{"fetch": map[string]any{"ok": true}}
		}
	}
	return done, nil
}

func updateOrRefresh(ctx context.Context, s *System, ref *canvasRef, op *messages.Op, env *messages.Envelope, before map[string]any) (*messages.Reply, error) {
	in := env.Args.(*messages.NodeUpdateInput)
	if in.Refresh != nil && *in.Refresh {
		body, err := s.refresh(ctx, ref, env, in.ID, in.URL)
		if err != nil {
			return nil, err
		}
		return body.(*messages.Reply), nil
	}
	if in.URL != nil {
		if n, ok := ref.view.Load().Nodes.Get(in.ID); ok && n.Type == "webpage" {
			u, err := normalizeWebpageURL(*in.URL, "url")
			if err != nil {
				return nil, err
			}
			in.URL = &u
		}
	}
	return s.ask(ctx, ref, ref.owner(op.Owner), op, env, before)
}

// gitDiff runs git diff in the workspace for a diff node: the working
// tree against base (default HEAD), limited to paths (each confined to
// the workspace) when given. Bounded by a timeout and an output cap.
func (s *System) gitDiff(ctx context.Context, spec any, base *string) (string, *messages.Error) {
	args := []string{"-C", s.content.root.Dir(), "diff", "--no-color", "--no-ext-diff"}
	rev := "HEAD"
	if base != nil && strings.TrimSpace(*base) != "" {
		rev = strings.TrimSpace(*base)
	}
	if strings.HasPrefix(rev, "-") {
		return "", messages.BadRequest("gitBase %q is not a revision.", rev).With("field", "gitBase")
	}
	args = append(args, rev, "--")
	switch v := spec.(type) {
	case bool:
		if !v {
			return "", messages.BadRequest("gitDiff must be true or a list of workspace paths.").With("field", "gitDiff")
		}
	case []any:
		for i, p := range v {
			ps, ok := p.(string)
			if !ok || ps == "" {
				return "", messages.BadRequest("gitDiff[%d] must be a workspace path.", i).With("field", "gitDiff")
			}
			rel, err := s.content.resolve(ps, 400)
			if err != nil {
				return "", err.With("field", "gitDiff")
			}
			args = append(args, rel)
		}
	default:
		return "", messages.BadRequest("gitDiff must be true or a list of workspace paths.").With("field", "gitDiff")
	}
	gctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(gctx, "git", args...)
	var out, errOut limitedBuffer
	out.max, errOut.max = 8<<20, 4096
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", messages.BadRequest("git diff failed: %s", msg).With("field", "gitDiff")
	}
	if out.cut {
		return "", messages.BadRequest("git diff is larger than 8 MiB; narrow it with a list of paths.").With("field", "gitDiff")
	}
	if strings.TrimSpace(out.String()) == "" {
		return "", messages.BadRequest("git diff %s shows no changes.", rev).With("field", "gitDiff")
	}
	return out.String(), nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	strings.Builder
	max int
	cut bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.cut = true
		if room > 0 {
			b.Builder.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Builder.Write(p)
}
