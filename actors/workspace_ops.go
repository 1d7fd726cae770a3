package actors

import (
	"context"
	"errors"
	"fmt"
	"html"
	"mime"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/content/files"
	"github.com/pmxcanvas/pmx-canvas/content/images"
	"github.com/pmxcanvas/pmx-canvas/content/markdown"
	"github.com/pmxcanvas/pmx-canvas/content/surface"
	"github.com/pmxcanvas/pmx-canvas/content/workspace"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// workspaceHandler runs an OwnerWorkspace operation in the caller's
// goroutine: it may read and write workspace files or fetch pages, and
// writes canvas state only through the Layout (s.write).
type workspaceHandler func(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error)

// workspaceHandlers hold one handler per OwnerWorkspace operation;
// TestEveryOperationHasAHandler keeps them in step with the catalog.
var workspaceHandlers = map[string]workspaceHandler{
	"file.get":        fileGet,
	"file.save":       fileSave,
	"file.bytes":      fileBytes,
	"image.get":       imageGet,
	"artifact.get":    artifactGet,
	"markdown.render": markdownRender,
	"open-external":   openExternal,
	"node.refresh":    nodeRefresh,
}

// runWorkspace runs an OwnerWorkspace operation.
func (s *System) runWorkspace(ctx context.Context, ref *canvasRef, op *messages.Op, env *messages.Envelope) (*messages.Reply, error) {
	h, ok := workspaceHandlers[op.Name]
	if !ok {
		return nil, messages.Internal("no workspace handler for %s", op.Name)
	}
	body, err := h(ctx, s, ref, env)
	if err != nil {
		return nil, err
	}
	if r, ok := body.(*messages.Reply); ok {
		return r, nil
	}
	return &messages.Reply{Body: body, Revision: ref.view.Load().Revision}, nil
}

// write runs an internal Layout write (see internalOps) for a workspace
// operation and returns its reply.
func (s *System) write(ctx context.Context, ref *canvasRef, name string, parent *messages.Envelope, args any) (*messages.Reply, *messages.Error) {
	env := *parent
	env.Op, env.Args, env.Input = name, args, nil
	env.IdempotencyKey = ""
	reply, err := s.ask(ctx, ref, ref.layoutPID.Load(), internalOps[name], &env, nil)
	if err != nil {
		return nil, messages.AsError(err)
	}
	return reply, nil
}

// resolve confines a request path to the workspace: 400 naming it when it
// leaves (403 when asked, as the image route does).
func (k *contentKit) resolve(p string, status int) (string, *messages.Error) {
	rel, err := k.root.Resolve(p)
	if err == nil {
		return rel, nil
	}
	if workspace.IsOutside(err) {
		e := messages.BadRequest("%s.", err.Error()).With("field", "path")
		if status == 403 {
			e = messages.Make(messages.CodeOutsideWorkspace, "%s.", err.Error()).With("field", "path")
		}
		return "", e
	}
	return "", messages.BadRequest("path %q: %v", p, err).With("field", "path")
}

func fileNotFound(p string) *messages.Error {
	return messages.NotFound("File %q not found in the workspace.", p).With("field", "path")
}

func fileGet(_ context.Context, s *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WorkspacePathInput)
	if _, err := s.content.resolve(in.Path, 400); err != nil {
		return nil, err
	}
	snap, err := files.Read(s.content.root, in.Path)
	switch {
	case files.IsNotExist(err):
		return nil, fileNotFound(in.Path)
	case err != nil:
		return nil, pathError("Cannot read file", err)
	case snap.Binary:
		return nil, messages.BadRequest("File %q is not a text file (%s).", in.Path, snap.MimeType).With("field", "path")
	}
	return &messages.FileDoc{Path: snap.Abs, Title: filepath.Base(snap.Abs), Content: snap.Content,
		UpdatedAt: canvas.ISOTime(snap.ModTime), SHA256: snap.SHA256, Truncated: snap.Truncated}, nil
}

func fileSave(_ context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.FileSaveInput)
	rel, err := s.content.resolve(in.Path, 400)
	if err != nil {
		return nil, err
	}
	if fi, serr := s.content.root.Stat(filepath.Dir(rel)); serr != nil || !fi.IsDir() {
		return nil, messages.BadRequest("Cannot save %q: its directory does not exist in the workspace.", in.Path).With("field", "path")
	}
	text := strings.ReplaceAll(strings.ReplaceAll(*in.Content, "\r\n", "\n"), "\r", "\n")
	if werr := s.content.root.WriteFileAtomic(rel, []byte(text), 0o644); werr != nil {
		return nil, messages.BadRequest("Cannot save %q: %v", in.Path, werr).With("field", "path")
	}
	snap, rerr := files.Read(s.content.root, rel)
	if rerr != nil {
		return nil, messages.Internal("saved %q but cannot read it back: %v", in.Path, rerr)
	}
	// The watcher sees the write too; telling this canvas now means a
	// read right after the save shows the new content sooner.
	s.fileChanged(snap.Abs, []string{ref.id})
	return &messages.FileSaved{OK: true, Path: snap.Abs, UpdatedAt: canvas.ISOTime(snap.ModTime), SHA256: snap.SHA256}, nil
}

// maxServedFile caps the bytes a file route sends in one reply.
const maxServedFile = 64 << 20

// serveFile reads a resolved workspace file for a byte-serving route.
func (k *contentKit) serveFile(rel, shown string) ([]byte, *messages.Error) {
	fi, err := k.root.Stat(rel)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fileNotFound(shown)
	case err != nil:
		return nil, pathError("Cannot read file", err)
	case !fi.Mode().IsRegular():
		return nil, messages.BadRequest("%q is not a file.", shown).With("field", "path")
	case fi.Size() > maxServedFile:
		return nil, messages.Make(messages.CodeFileTooLarge, "%q is %d bytes; files over %d bytes are not served.", shown, fi.Size(), maxServedFile)
	}
	data, _, err := k.root.ReadFile(rel, maxServedFile)
	if err != nil {
		return nil, pathError("Cannot read file", err)
	}
	return data, nil
}

// contentType names a served file's type: by extension, else sniffed.
func contentType(rel string, data []byte) string {
	if t := mime.TypeByExtension(strings.ToLower(filepath.Ext(rel))); t != "" {
		return t
	}
	if mt, ok := images.Sniff(data); ok {
		return mt
	}
	return "application/octet-stream"
}

// sandboxCSP serves workspace bytes as an opaque origin with no scripts.
const sandboxCSP = "sandbox"

// readServed resolves a request path and reads the file a route serves.
func (k *contentKit) readServed(p string) (rel string, data []byte, err *messages.Error) {
	if rel, err = k.resolve(p, 400); err != nil {
		return "", nil, err
	}
	data, err = k.serveFile(rel, p)
	return rel, data, err
}

func fileBytes(_ context.Context, s *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	rel, data, err := s.content.readServed(env.Args.(*messages.WorkspacePathInput).Path)
	if err != nil {
		return nil, err
	}
	return &messages.Blob{ContentType: contentType(rel, data), Data: data, CSP: sandboxCSP}, nil
}

func imageGet(_ context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	id := env.Args.(*messages.ImageGetInput).ID
	n, ok := ref.view.Load().Nodes.Get(id)
	if !ok || n.Type != "image" {
		return nil, messages.NotFound("Image node %q not found.", id)
	}
	p, _ := n.Data["path"].(string)
	if p == "" {
		return nil, messages.BadRequest("Image node %q is not file-based (its src is a URL or data URI).", id)
	}
	rel, err := s.content.resolve(p, 403)
	if err != nil {
		return nil, err
	}
	info, verr := images.ValidateFile(s.content.root.Abs(rel))
	if verr != nil {
		if errors.Is(verr, os.ErrNotExist) {
			return nil, messages.NotFound("Image file %q not found.", p)
		}
		return nil, messages.BadRequest("%s", verr.Error())
	}
	data, err := s.content.serveFile(rel, p)
	if err != nil {
		return nil, err
	}
	return &messages.Blob{ContentType: info.MimeType, Data: data, CSP: sandboxCSP}, nil
}

// artifactCSP lets an html artifact run its scripts, in an opaque origin
// (never the canvas's).
const artifactCSP = "sandbox allow-scripts"

func artifactGet(_ context.Context, s *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.ArtifactInput)
	rel, data, err := s.content.readServed(in.Path)
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(filepath.Ext(rel))
	if mt, ok := images.Sniff(data); ok && ext != ".html" && ext != ".htm" {
		return &messages.Blob{ContentType: mt, Data: data, CSP: sandboxCSP}, nil
	}
	title := filepath.Base(rel)
	switch ext {
	case ".html", ".htm":
		page := string(data)
		if in.FrameToken != nil && *in.FrameToken != "" {
			page = injectBeforeBodyEnd(page, surface.HeightReporter(*in.FrameToken))
		}
		return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: []byte(page), CSP: artifactCSP}, nil
	case ".md", ".markdown":
		body, rerr := markdown.Render(string(data))
		if rerr != nil {
			return nil, messages.BadRequest("Cannot render %q: %v", in.Path, rerr)
		}
		return artifactPage(title, body), nil
	}
	return artifactPage(title, "<pre>"+html.EscapeString(string(data))+"</pre>"), nil
}

// artifactPage wraps rendered content in the reference's dark "PMX
// Artifact" page.
func artifactPage(title, body string) *messages.Blob {
	page := `<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width, initial-scale=1">` +
		`<title>` + html.EscapeString(title) + ` · PMX Artifact</title><style>` +
		`body{margin:0;padding:32px;background:#0f1115;color:#e6e6e6;font:15px/1.6 system-ui,sans-serif}` +
		`main{max-width:860px;margin:0 auto}a{color:#7aa2f7}pre,code{font-family:ui-monospace,monospace}` +
		`pre{background:#161922;padding:12px;border-radius:6px;overflow:auto;white-space:pre-wrap}` +
		`table{border-collapse:collapse}td,th{border:1px solid #333;padding:4px 8px}</style></head>` +
		`<body><main>` + body + `</main></body></html>`
	return &messages.Blob{ContentType: "text/html; charset=utf-8", Data: []byte(page), CSP: artifactCSP}
}

func injectBeforeBodyEnd(page, script string) string {
	if i := strings.LastIndex(strings.ToLower(page), "</body>"); i >= 0 {
		return page[:i] + script + page[i:]
	}
	return page + script
}

func markdownRender(_ context.Context, _ *System, _ *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	out, err := markdown.Render(*env.Args.(*messages.MarkdownRenderInput).Markdown)
	if err != nil {
		return nil, messages.BadRequest("Cannot render markdown: %v", err).With("field", "markdown")
	}
	return &messages.Rendered{HTML: out}, nil
}

// openExternal opens a node's surface in the system browser. Only a
// loopback-bound server does: a remote caller must not open windows on
// the server's desktop.
func openExternal(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.OpenExternalInput)
	view := ref.view.Load()
	if _, ok := view.Nodes.Get(in.NodeID); !ok {
		return nil, canvas.NodeNotFound(in.NodeID)
	}
	surface := "/api/canvas/surface/" + url.PathEscape(in.NodeID)
	theme := view.Theme
	if in.URL != nil && *in.URL != "" {
		u, err := url.Parse(*in.URL)
		if err != nil || u.Scheme != "" || u.Host != "" || u.EscapedPath() != surface {
			return nil, messages.BadRequest("url must target the requested node surface.").With("field", "url")
		}
		if t := u.Query().Get("theme"); t != "" {
			theme = t
		}
	}
	switch theme {
	case "light", "high-contrast":
	default:
		theme = "dark"
	}
	target := surface + "?theme=" + theme
	if !s.cfg.Loopback {
		return nil, messages.Make(messages.CodeLoopbackOnly, "open-external is refused: this server is bound beyond loopback, and a remote caller must not open windows on the server's desktop.")
	}
	base := s.cfg.BaseURL
	if base == "" {
		return nil, messages.Unavailable("Server port unavailable.")
	}
	opened := false
	if os.Getenv("PMX_CANVAS_DISABLE_BROWSER_OPEN") != "1" {
		opened = openBrowser(base+target) == nil
	}
	return &messages.OpenedExternal{OK: true, Opened: opened, URL: target}, nil
}

// openBrowser starts the platform's URL opener and does not wait for it.
func openBrowser(u string) error {
	name, args := "xdg-open", []string{u}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", u}
	}
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s: %w", u, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
