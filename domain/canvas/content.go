package canvas

import (
	"errors"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/content/htmlmeta"
	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/content/unidiff"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Workspace content of file, image and webpage nodes. The core does no
// I/O: the actors read files and fetch pages and hand the results here as
// plain values, and these functions put them into node data with the
// reference's field names.

// FileSnapshot is a workspace file as read for a file node.
type FileSnapshot struct {
	Path      string // absolute
	Content   string
	LineCount int
	SHA256    string
	Language  string
	MimeType  string
	Size      int64
	ModTime   time.Time
	Truncated bool
	Binary    bool
	// Table is a CSV/TSV file's parsed rows (a JSON-ready value), or nil.
	Table any
}

// ISOTime is the reference's timestamp format (JavaScript toISOString).
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// FilePath decides whether a file node's input names a file, the
// reference's "auto" mode: content that is empty or has a line break is
// inline text; otherwise it is a path when data.path is set, the path
// exists, no title was given, or it looks like a path (/, ./, ../ or a
// slash inside). exists is asked only when the answer depends on it.
func FilePath(in *messages.NodeAddInput, exists func(string) bool) (path string, isPath bool) {
	if p, ok := in.Data["path"].(string); ok && strings.TrimSpace(p) != "" {
		return p, true
	}
	if in.Content == nil {
		return "", false
	}
	raw := *in.Content
	c := strings.TrimSpace(raw)
	if c == "" || strings.ContainsAny(c, "\r\n") {
		return "", false
	}
	looksLikePath := strings.HasPrefix(c, "/") || strings.HasPrefix(c, "./") || strings.HasPrefix(c, "../") || strings.Contains(c, "/")
	if in.Title == nil || *in.Title == "" || looksLikePath || exists(c) {
		return c, true
	}
	return "", false
}

// ApplyFile puts a file's snapshot into a file node's data: fileContent,
// lineCount, sha256, language, updatedAt (the file's mtime), and the
// flags for cut, binary and tabular files. A file that is back clears
// the missing mark.
func ApplyFile(data map[string]any, s *FileSnapshot) {
	data["path"] = s.Path
	data["fileContent"] = s.Content
	data["lineCount"] = s.LineCount
	data["sha256"] = s.SHA256
	data["size"] = s.Size
	data["updatedAt"] = ISOTime(s.ModTime)
	setOrDelete(data, "language", s.Language, s.Language != "")
	setOrDelete(data, "mimeType", s.MimeType, s.MimeType != "")
	setOrDelete(data, "truncated", true, s.Truncated)
	setOrDelete(data, "binary", true, s.Binary)
	setOrDelete(data, "table", s.Table, s.Table != nil)
	if s.MimeType == "application/pdf" {
		data["fileUrl"] = "/api/canvas/file-bytes?path=" + url.QueryEscape(s.Path)
	} else {
		delete(data, "fileUrl")
	}
	delete(data, "missing")
	delete(data, "missingSince")
	applyProvenance("file", data)
}

// MarkFileMissing marks a file node whose file is gone: the node and its
// last content stay, flagged, until the file comes back.
func MarkFileMissing(data map[string]any, path string, at time.Time) {
	data["path"] = path
	if data["missing"] != true {
		data["missing"] = true
		data["missingSince"] = ISOTime(at)
	}
	applyProvenance("file", data)
}

func setOrDelete(data map[string]any, key string, v any, set bool) {
	if set {
		data[key] = v
	} else {
		delete(data, key)
	}
}

// ImageInfo is a validated workspace image file.
type ImageInfo struct {
	Path     string // absolute
	MimeType string
	Width    int
	Height   int
	Bytes    int64
}

// ApplyImageFile puts a validated image file into an image node's data.
func ApplyImageFile(data map[string]any, info *ImageInfo, title *string) {
	data["src"] = info.Path
	data["path"] = info.Path
	data["mimeType"] = info.MimeType
	data["bytes"] = info.Bytes
	setOrDelete(data, "width", info.Width, info.Width > 0)
	setOrDelete(data, "height", info.Height, info.Height > 0)
	if title != nil && *title != "" {
		data["title"] = *title
	} else {
		data["title"] = filepath.Base(info.Path)
	}
	applyProvenance("image", data)
}

// ApplyImageSource puts a data URL or http(s) URL into an image node's
// data (the server does not fetch it).
func ApplyImageSource(data map[string]any, src string, mime string, title *string) {
	data["src"] = src
	delete(data, "path")
	setOrDelete(data, "mimeType", mime, mime != "")
	switch {
	case title != nil && *title != "":
		data["title"] = *title
	case strings.HasPrefix(src, "data:"):
		data["title"] = "Image"
	default:
		name := "Image"
		if u, err := url.Parse(src); err == nil {
			if seg := u.Path[strings.LastIndex(u.Path, "/")+1:]; seg != "" {
				name = seg
			}
		}
		data["title"] = name
	}
	applyProvenance("image", data)
}

// applyProvenance infers data.provenance from a node's data, the
// reference's table (domain.md §2.16) for workspace and web content.
func applyProvenance(typ string, data map[string]any) {
	str := func(k string) string { s, _ := data[k].(string); return s }
	var p map[string]any
	switch {
	case (typ == "file" || typ == "markdown") && str("path") != "":
		strategy := "file-watch"
		if typ == "markdown" {
			strategy = "file-read-write"
		}
		p = map[string]any{"sourceKind": "workspace-file", "sourceUri": fileURL(str("path")), "refreshStrategy": strategy,
			"snapshotContent": true, "details": map[string]any{"path": str("path"), "nodeType": typ}}
		if at := str("updatedAt"); at != "" {
			p["syncedAt"] = at
		} else if at := str("savedAt"); at != "" {
			p["syncedAt"] = at
		}
	case typ == "image" && str("path") != "":
		p = map[string]any{"sourceKind": "workspace-file", "sourceUri": fileURL(str("path")), "refreshStrategy": "image-reload",
			"snapshotContent": true, "details": map[string]any{"path": str("path"), "nodeType": "image"}}
	case typ == "image" && (strings.HasPrefix(str("src"), "http://") || strings.HasPrefix(str("src"), "https://")):
		p = map[string]any{"sourceKind": "image-url", "sourceUri": str("src"), "refreshStrategy": "image-reload",
			"snapshotContent": true, "details": map[string]any{"url": str("src"), "nodeType": "image"}}
	case typ == "webpage" && str("url") != "":
		details := map[string]any{"url": str("url"), "nodeType": "webpage"}
		if t := str("pageTitle"); t != "" {
			details["pageTitle"] = t
		}
		p = map[string]any{"sourceKind": "webpage-url", "sourceUri": str("url"), "refreshStrategy": "webpage-refresh",
			"snapshotContent": true, "details": details}
		if at := str("fetchedAt"); at != "" {
			p["syncedAt"] = at
		}
	default:
		return
	}
	data["provenance"] = p
}

// fileURL is the file:// URL of an absolute path.
func fileURL(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// FileSync is one file node's new content (or its file's absence) found
// by the workspace watcher.
type FileSync struct {
	NodeID  string
	Path    string
	File    *FileSnapshot // nil: the file is missing
	Missing time.Time
}

// SyncFiles applies watcher findings to file nodes without recording a
// history entry (a file changing on disk is not an undoable step), and
// emits one layout frame when anything changed. Nodes that are gone or no
// longer show that path are skipped.
func SyncFiles(tx *Tx, syncs []FileSync) int {
	changed := 0
	for _, s := range syncs {
		n, ok := tx.Node(s.NodeID)
		if !ok || n.Type != "file" {
			continue
		}
		if p, _ := n.Data["path"].(string); p != s.Path {
			continue
		}
		c := n.Clone()
		if s.File != nil {
			ApplyFile(c.Data, s.File)
		} else {
			MarkFileMissing(c.Data, s.Path, s.Missing)
		}
		tx.PutNode(c)
		changed++
	}
	if changed > 0 {
		tx.EmitLayout()
	}
	return changed
}

// CodeGraphEdgePrefix marks the edges the code graph owns.
const CodeGraphEdgePrefix = "codegraph-"

// AutoEdge is one import edge the code graph wants.
type AutoEdge struct{ ID, From, To string }

// ApplyCodeGraph makes the canvas's auto edges (ids with
// CodeGraphEdgePrefix) exactly want: missing ones are added as the
// reference's dashed depends-on "imports" edges, stale ones removed — also
// those whose endpoints are gone. No history entry; one layout frame when
// anything changed. It returns how many edges were added and removed.
func ApplyCodeGraph(tx *Tx, want []AutoEdge) (added, removed int) {
	wanted := make(map[string]AutoEdge, len(want))
	for _, e := range want {
		_, fromOK := tx.Node(e.From)
		_, toOK := tx.Node(e.To)
		if fromOK && toOK && e.From != e.To {
			wanted[e.ID] = e
		}
	}
	var stale []string
	tx.State().Edges.Each(func(e *Edge) bool {
		if !strings.HasPrefix(e.ID, CodeGraphEdgePrefix) {
			return true
		}
		if w, ok := wanted[e.ID]; ok && w.From == e.From && w.To == e.To {
			delete(wanted, e.ID)
			return true
		}
		stale = append(stale, e.ID)
		return true
	})
	for _, id := range stale {
		tx.DeleteEdge(id)
		removed++
	}
	for _, e := range want {
		if _, ok := wanted[e.ID]; !ok {
			continue
		}
		delete(wanted, e.ID)
		tx.PutEdge(&Edge{ID: e.ID, From: e.From, To: e.To, Type: "depends-on", Label: "imports", Style: "dashed"})
		added++
	}
	if added+removed > 0 {
		tx.EmitLayout()
	}
	return added, removed
}

// applyResolved puts what the actor resolved into a new node's data.
func applyResolved(typ string, data map[string]any, in *messages.NodeAddInput, opts *AddOptions, now time.Time) *messages.Error {
	switch typ {
	case "file":
		switch {
		case opts.File != nil:
			ApplyFile(data, opts.File)
		case opts.FilePath != "":
			MarkFileMissing(data, opts.FilePath, now)
		default:
			// Inline text: the reference shows it as the file's content
			// when it also has a title.
			if in.Content != nil && *in.Content != "" && in.Title != nil && *in.Title != "" {
				data["fileContent"] = *in.Content
				data["lineCount"] = strings.Count(*in.Content, "\n") + 1
			}
			return nil
		}
		delete(data, "content") // the path, now data.path
		if in.Title == nil || *in.Title == "" {
			data["title"] = filepath.Base(data["path"].(string))
		}
	case "mermaid":
		// The source is stored as given; the viewer parses and draws it
		// (mermaid's own parser, in the browser) and shows its errors.
		src := ""
		if in.Content != nil {
			src = *in.Content
		}
		if strings.TrimSpace(src) == "" {
			return messages.BadRequest("Mermaid nodes require the diagram source as content.").With("field", "content")
		}
		data["content"] = src
		data["viewerType"] = "mermaid"
		if t, _ := data["title"].(string); t == "" {
			data["title"] = "Diagram"
		}
	case "diff":
		text := ""
		if in.Content != nil {
			text = *in.Content
		}
		if strings.TrimSpace(text) == "" {
			return messages.BadRequest("Diff nodes require a unified diff: pass it as content (or gitDiff to diff workspace paths).").With("field", "content")
		}
		return applyDiff(data, text, "content")
	case "html":
		explicit := ""
		if in.AgentSummary != nil {
			explicit = *in.AgentSummary
		} else if a, ok := in.Data["agentSummary"].(string); ok {
			explicit = a
		}
		applyHTMLSidecar(data, explicit)
	case "webpage":
		if opts.WebpageURL != "" {
			data["url"] = opts.WebpageURL
			if data["titleSource"] == "page" {
				data["title"] = opts.WebpageURL
			}
		}
		applyProvenance("webpage", data)
	case "image":
		switch {
		case opts.Image != nil:
			ApplyImageFile(data, opts.Image, in.Title)
			delete(data, "content")
		case opts.ImageSrc != "":
			ApplyImageSource(data, opts.ImageSrc, opts.ImageMime, in.Title)
			delete(data, "content")
		default:
			if _, ok := data["src"]; !ok {
				data["src"] = ""
			}
			if _, ok := data["title"]; !ok {
				data["title"] = "Image"
			}
		}
	}
	return nil
}

// WebpageFetch is the outcome of fetching a webpage node's URL.
type WebpageFetch struct {
	URL       string // final URL (after redirects), or the URL tried
	FetchedAt time.Time
	// Err is the failure; empty on success.
	Err                           string
	StatusCode                    int
	ContentType                   string
	PageTitle, Description, Image *string
	Content, Excerpt              string
	FrameBlocked                  bool
	FrameBlockedReason            *string
	Truncated                     bool
}

// ApplyWebpage stores a fetch outcome in a webpage node's data, the
// reference's success and failure fields. described records a history
// entry (a refresh the caller asked for); the fetch that follows a
// node's creation does not, so one undo removes the node.
func ApplyWebpage(tx *Tx, id string, f *WebpageFetch, described bool) (*Node, *messages.Error) {
	old, ok := tx.Node(id)
	if !ok || old.Type != "webpage" {
		return nil, messages.NotFound("Webpage node %q not found.", id)
	}
	n := old.Clone()
	d := n.Data
	d["url"] = f.URL
	d["fetchedAt"] = ISOTime(f.FetchedAt)
	if f.Err != "" {
		d["status"] = "error"
		d["error"] = f.Err
		setOrDelete(d, "statusCode", f.StatusCode, f.StatusCode != 0)
		setOrDelete(d, "contentType", f.ContentType, f.ContentType != "")
	} else {
		delete(d, "error")
		d["status"] = "ready"
		d["statusCode"] = f.StatusCode
		d["contentType"] = f.ContentType
		d["pageTitle"] = strOrNil(f.PageTitle)
		d["description"] = strOrNil(f.Description)
		d["imageUrl"] = strOrNil(f.Image)
		d["content"] = f.Content
		d["excerpt"] = f.Excerpt
		d["frameBlocked"] = f.FrameBlocked
		d["frameBlockedReason"] = strOrNil(f.FrameBlockedReason)
		setOrDelete(d, "truncated", true, f.Truncated)
		title, _ := d["title"].(string)
		if d["titleSource"] != "user" || title == "" {
			d["titleSource"] = "page"
			if f.PageTitle != nil && *f.PageTitle != "" {
				d["title"] = *f.PageTitle
			} else {
				d["title"] = f.URL
			}
		}
	}
	applyProvenance("webpage", d)
	tx.PutNode(n)
	if described {
		tx.Describe("refreshWebpage", `Refreshed webpage "`+titleOrID(n)+`"`)
	}
	tx.EmitLayout()
	return n, nil
}

func strOrNil(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// RefreshImage stores an image node's re-validated file.
func RefreshImage(tx *Tx, id string, info *ImageInfo) (*Node, *messages.Error) {
	old, ok := tx.Node(id)
	if !ok || old.Type != "image" {
		return nil, NodeNotFound(id)
	}
	n := old.Clone()
	title, _ := n.Data["title"].(string)
	ApplyImageFile(n.Data, info, &title)
	tx.PutNode(n)
	tx.EmitLayout()
	return n, nil
}

// Diff nodes: a unified diff parsed into files, hunks and lines.

// maxDiffSummary bounds a diff node's summary.
const maxDiffSummary = 600

// applyDiff parses text (a unified diff) into a diff node's data:
// content is the diff as given, diff the parsed files and stats, summary
// the agent-readable overview. A diff that does not parse is a 400
// naming the field it came from.
func applyDiff(data map[string]any, text, field string) *messages.Error {
	d, err := unidiff.Parse(text)
	if err != nil {
		return messages.BadRequest("Invalid diff node: %s.", err.Error()).With("field", field)
	}
	data["content"] = text
	data["diff"] = map[string]any{"files": d.Files, "stats": d.Stats}
	data["summary"] = d.Summary(maxDiffSummary)
	if t, _ := data["title"].(string); t == "" {
		data["title"] = diffTitle(d)
	}
	return nil
}

func diffTitle(d *unidiff.Diff) string {
	if len(d.Files) == 1 {
		return "Diff: " + d.Files[0].Path()
	}
	return "Diff: " + strconv.Itoa(len(d.Files)) + " files"
}

// diffTitleOf is the title a diff node's current diff generated, or "".
func diffTitleOf(n *Node) string {
	d, err := unidiff.Parse(dataString(n, "content"))
	if err != nil {
		return ""
	}
	return diffTitle(d)
}

// GraphNode is a chart node to create: the title, the json-render spec
// content/graphspec built and the graphConfig it keeps for rebuilds.
type GraphNode struct {
	Title       string
	Spec        map[string]any
	GraphConfig map[string]any
	X, Y, W, H  *float64
	StrictSize  bool
}

// ViewerURL is where a json-render or graph node's viewer document lives.
func ViewerURL(id string) string { return "/api/canvas/json-render/view?nodeId=" + url.QueryEscape(id) }

// AddGraphNode creates a graph node (760×520 unless sized; placed unless
// both x and y are given) with the reference's data.
func AddGraphNode(tx *Tx, g GraphNode) (*Node, *messages.Error) {
	size := DefaultSizes["graph"]
	if g.W != nil {
		size.Width = *g.W
	}
	if g.H != nil {
		size.Height = *g.H
	}
	if size.Width <= 0 || size.Height <= 0 {
		return nil, messages.BadRequest(msgBadSize)
	}
	n := &Node{Type: "graph", Size: size, ZIndex: 1}
	if g.X != nil && g.Y != nil {
		n.Position = Point{X: *g.X, Y: *g.Y}
	} else {
		n.Position = FindOpenPosition(&tx.State().Nodes, size.Width, size.Height)
	}
	n.ID = tx.NewNodeID("graph")
	n.Data = map[string]any{"title": g.Title, "spec": g.Spec, "url": ViewerURL(n.ID), "trustedDomain": true,
		"sourceServer": "pmx-canvas", "hostMode": "hosted", "viewerType": "graph", "graphConfig": g.GraphConfig}
	if g.StrictSize {
		n.Data["strictSize"] = true
	}
	tx.PutNode(n)
	tx.Describe("addNode", `Added graph node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, nil
}

// HTML nodes: the semantic sidecar (content/htmlmeta) — the text agents and
// search read instead of the markup, and what the surface embeds.

// applyHTMLSidecar recomputes an html node's contentSummary,
// embeddedNodeIds, embeddedUrls and agentSummary from its data. explicit
// is an agent summary the caller set in this very call (it wins); a
// summary stored earlier does not stick when the html changes.
func applyHTMLSidecar(data map[string]any, explicit string) {
	str := func(k string) string { s, _ := data[k].(string); return s }
	strs := func(k string) []string {
		var out []string
		switch v := data[k].(type) {
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		case []string:
			out = v
		}
		return out
	}
	src := str("html")
	if src == "" {
		src = str("content")
	}
	sc := htmlmeta.Derive(htmlmeta.Input{
		HTML: src, Summary: str("summary"), Description: str("description"), AgentSummary: explicit,
		Primitive: str("htmlPrimitive"), ExplicitNodeIDs: strs("embeddedNodeIds"), ExplicitURLs: strs("embeddedUrls"),
		EmbeddedNodeID: str("embeddedNodeId"), EmbeddedGraphID: str("embeddedGraphId"), SourceNodeID: str("sourceNodeId"),
	})
	data["contentSummary"] = sc.ContentSummary
	data["embeddedNodeIds"] = toAnyList(sc.EmbeddedNodeIDs)
	data["embeddedUrls"] = toAnyList(sc.EmbeddedURLs)
	data["agentSummary"] = sc.AgentSummary
}

// HTML primitives (content/primitives): a kind and its data become an
// html node holding the generated, self-contained document.

// addPrimitiveNode creates the html node of an HTML primitive.
func addPrimitiveNode(tx *Tx, in *messages.NodeAddInput, kind string) (*Node, *messages.Error) {
	title := ""
	if in.Title != nil {
		title = *in.Title
	}
	res, err := primitives.Build(kind, title, in.Data)
	if err != nil {
		var uk *primitives.UnknownKindError
		if errors.As(err, &uk) {
			return nil, messages.BadRequest("%s %s", err.Error(), primitives.KnownKinds()).With("field", "kind")
		}
		return nil, messages.BadRequest("%s", err.Error()).With("field", "data")
	}
	data := map[string]any{"html": res.HTML, "htmlPrimitive": res.Kind, "primitiveData": res.PrimitiveData,
		"description": res.Summary, "title": res.Title}
	if s, ok := in.Data["summary"].(string); ok {
		data["summary"] = s
	}
	explicit, _ := in.Data["agentSummary"].(string)
	if explicit == "" {
		explicit = res.Summary
	}
	if res.Presentation {
		data["presentation"] = true
		data["slideCount"] = res.SlideCount
		data["slideTitles"] = toAnyList(res.SlideTitles)
		if len(res.SpeakerNotes) > 0 {
			data["speakerNotes"] = toAnyList(res.SpeakerNotes)
		}
		if res.PresentationTheme != nil {
			data["presentationTheme"] = res.PresentationTheme
		}
	}
	if in.StrictSize != nil && *in.StrictSize {
		data["strictSize"] = true
	}
	applyHTMLSidecar(data, "")
	data["agentSummary"] = explicit
	size := Size{Width: float64(res.DefaultSize.Width), Height: float64(res.DefaultSize.Height)}
	w, h := in.WH()
	if w != nil {
		size.Width = *w
	}
	if h != nil {
		size.Height = *h
	}
	if size.Width <= 0 || size.Height <= 0 {
		return nil, messages.BadRequest(msgBadSize)
	}
	n := &Node{Type: "html", Size: size, ZIndex: 1, Data: data}
	if x, y := in.XY(); x != nil && y != nil {
		n.Position = Point{X: *x, Y: *y}
	} else {
		n.Position = FindOpenPosition(&tx.State().Nodes, size.Width, size.Height)
	}
	n.ID = tx.NewNodeID("node")
	tx.PutNode(n)
	tx.Describe("addNode", `Added html node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, nil
}

// PrimitiveOf names the primitive a node.add input asks for ("" for none).
func PrimitiveOf(in *messages.NodeAddInput) string {
	typ := strings.TrimSpace(in.Type)
	if typ != "html-primitive" && typ != "html" {
		return ""
	}
	for _, p := range []*string{in.Kind, in.Primitive} {
		if p != nil && *p != "" {
			return *p
		}
	}
	if typ == "html-primitive" {
		return " " // asked for, without a kind
	}
	return ""
}

// PrimitiveExtra is the reply's primitive object for a primitive node.
func PrimitiveExtra(n *Node) map[string]any {
	html, _ := n.Data["html"].(string)
	kind, _ := n.Data["htmlPrimitive"].(string)
	title, _ := n.Data["title"].(string)
	d, _ := primitives.Lookup(kind)
	return map[string]any{"kind": kind, "title": title, "htmlBytes": len(html),
		"defaultSize": map[string]any{"width": d.DefaultSize.Width, "height": d.DefaultSize.Height}}
}

// JSONRenderNode is a json-render node to create or whose spec to replace.
type JSONRenderNode struct {
	Title      string
	Spec       any // normalised spec, or a stream's document
	X, Y, W, H *float64
	StrictSize bool
	// Stream state, for nodes built by jsonrender.stream.
	SpecVersion  int
	StreamStatus string
}

// AddJSONRenderNode creates a json-render node (840×620 unless sized).
func AddJSONRenderNode(tx *Tx, j JSONRenderNode) (*Node, *messages.Error) {
	size := DefaultSizes["json-render"]
	if j.W != nil {
		size.Width = *j.W
	}
	if j.H != nil {
		size.Height = *j.H
	}
	if size.Width <= 0 || size.Height <= 0 {
		return nil, messages.BadRequest(msgBadSize)
	}
	n := &Node{Type: "json-render", Size: size, ZIndex: 1}
	if j.X != nil && j.Y != nil {
		n.Position = Point{X: *j.X, Y: *j.Y}
	} else {
		n.Position = FindOpenPosition(&tx.State().Nodes, size.Width, size.Height)
	}
	n.ID = tx.NewNodeID("ui")
	n.Data = map[string]any{"title": j.Title, "spec": j.Spec, "url": ViewerURL(n.ID), "trustedDomain": true,
		"sourceServer": "pmx-canvas", "hostMode": "hosted", "viewerType": "json-render"}
	if j.StrictSize {
		n.Data["strictSize"] = true
	}
	if j.StreamStatus != "" {
		n.Data["specVersion"], n.Data["streamStatus"] = j.SpecVersion, j.StreamStatus
	}
	tx.PutNode(n)
	tx.Describe("addNode", `Added json-render node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, nil
}

// SetJSONRenderSpec replaces a json-render node's spec (and stream state).
func SetJSONRenderSpec(tx *Tx, id string, j JSONRenderNode) (*Node, *messages.Error) {
	old, ok := tx.Node(id)
	if !ok || old.Type != "json-render" {
		return nil, messages.BadRequest("Node %q not found.", id).With("field", "nodeId")
	}
	n := old.Clone()
	n.Data["spec"] = j.Spec
	if j.StreamStatus != "" {
		n.Data["specVersion"], n.Data["streamStatus"] = j.SpecVersion, j.StreamStatus
	}
	tx.PutNode(n)
	tx.Describe("updateNode", `Streamed json-render node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, nil
}

// SetSpec replaces a json-render or graph node's spec (and a graph's
// graphConfig when given), within the PATCH's transaction.
func SetSpec(tx *Tx, id string, spec any, graphConfig map[string]any) (*Node, *messages.Error) {
	old, ok := tx.Node(id)
	if !ok {
		return nil, NodeNotFound(id)
	}
	n := old.Clone()
	n.Data["spec"] = spec
	if graphConfig != nil {
		n.Data["graphConfig"] = graphConfig
	}
	tx.PutNode(n)
	return n, nil
}
