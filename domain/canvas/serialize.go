package canvas

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"sort"
	"strconv"
	"sync"
)

// RawNode is the stored node shape, as SSE canvas-layout-update frames carry it.
type RawNode struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Position     Point          `json:"position"`
	Size         Size           `json:"size"`
	ZIndex       int            `json:"zIndex"`
	Collapsed    bool           `json:"collapsed"`
	Pinned       bool           `json:"pinned"`
	DockPosition *string        `json:"dockPosition"`
	Data         map[string]any `json:"data"`
}

// WireNode is the serialized node of HTTP reads and node responses: the raw
// fields plus the derived kind, title, content, path, url, surfaceUrl and
// provenance.
type WireNode struct {
	RawNode
	Kind       string  `json:"kind"`
	Title      *string `json:"title"`
	Content    *string `json:"content"`
	Path       *string `json:"path"`
	URL        *string `json:"url"`
	SurfaceURL *string `json:"surfaceUrl"`
	Provenance any     `json:"provenance"`
}

// ReadOptions shape how nodes are rendered for readers.
type ReadOptions struct {
	// IncludeBlobs returns large mcp-app payloads in full instead of the
	// sidecar summary.
	IncludeBlobs bool
}

// Raw renders n as stored, with the context-pin read state applied.
func Raw(n *Node, contextPinned bool) RawNode {
	r := RawNode{
		ID: n.ID, Type: n.Type, Position: n.Position, Size: n.Size, ZIndex: n.ZIndex,
		Collapsed: n.Collapsed, Pinned: n.Pinned || contextPinned, Data: n.Data,
	}
	if n.DockPosition != "" {
		d := n.DockPosition
		r.DockPosition = &d
	}
	if r.Data == nil {
		r.Data = map[string]any{}
	}
	return r
}

// Wire renders n with its derived fields.
func Wire(n *Node, contextPinned bool, opts ReadOptions) WireNode {
	raw := Raw(n, contextPinned)
	if !opts.IncludeBlobs && n.Type == "mcp-app" {
		raw.Data = summarizeBlobs(n.Data)
	}
	w := WireNode{
		RawNode:    raw,
		Kind:       Kind(n),
		Title:      nonEmpty(Title(n)),
		Content:    nonEmpty(ContentText(n)),
		Path:       nonEmpty(dataString(n, "path")),
		URL:        nonEmpty(dataString(n, "url")),
		SurfaceURL: nonEmpty(SurfaceURL(n)),
	}
	if p, ok := n.Data["provenance"].(map[string]any); ok {
		w.Provenance = p
	}
	return w
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func dataString(n *Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

// Kind is the node's type, except mcp-app nodes, which are web-artifact,
// external-app or mcp-app by their data.
func Kind(n *Node) string {
	if n.Type != "mcp-app" {
		return n.Type
	}
	if dataString(n, "viewerType") == "web-artifact" {
		return "web-artifact"
	}
	if dataString(n, "mode") == "ext-app" {
		return "external-app"
	}
	if dataString(n, "hostMode") == "hosted" {
		if _, ok := n.Data["path"].(string); ok {
			return "web-artifact"
		}
	}
	return "mcp-app"
}

// Title is data.title, or a webpage's pageTitle, or "".
func Title(n *Node) string {
	if t := dataString(n, "title"); t != "" {
		return t
	}
	if n.Type == "webpage" {
		return dataString(n, "pageTitle")
	}
	return ""
}

// ContentText is the node's readable content: for html nodes the summaries,
// for others content, fileContent, text, then path/src/url by type.
func ContentText(n *Node) string {
	if n.Type == "html" {
		for _, k := range []string{"agentSummary", "contentSummary"} {
			if s := dataString(n, k); s != "" {
				return s
			}
		}
		if p := dataString(n, "htmlPrimitive"); p != "" {
			if d := dataString(n, "description"); d != "" {
				return p + ": " + d
			}
			return p
		}
		return ""
	}
	for _, k := range []string{"content", "fileContent", "text"} {
		if s := dataString(n, k); s != "" {
			return s
		}
	}
	switch n.Type {
	case "file":
		return dataString(n, "path")
	case "image":
		return dataString(n, "src")
	case "webpage":
		return dataString(n, "url")
	}
	return ""
}

// SurfaceURL is /api/canvas/surface/<id> for nodes that can open as a site.
func SurfaceURL(n *Node) string {
	openable := false
	switch n.Type {
	case "html":
		openable = dataString(n, "html") != "" || dataString(n, "content") != ""
	case "json-render", "graph", "mermaid":
		openable = true
	case "webpage":
		openable = dataString(n, "url") != ""
	case "mcp-app":
		switch Kind(n) {
		case "web-artifact":
			openable = dataString(n, "path") != ""
		case "external-app":
			openable = dataString(n, "html") != ""
		}
		openable = openable || dataString(n, "url") != ""
	}
	if !openable {
		return ""
	}
	return "/api/canvas/surface/" + url.PathEscape(n.ID)
}

// BlobThreshold is the JSON size from which mcp-app payloads are summarised
// in default reads.
const BlobThreshold = 2048

var blobFields = []string{"html", "toolInput", "toolResult", "toolDefinition", "resourceMeta", "appModelContext", "appCheckpoint"}

// summarizeBlobs replaces large mcp-app payloads by
// {stored:"sidecar", path, bytes, jsonBytes, sha256}.
func summarizeBlobs(data map[string]any) map[string]any {
	var out map[string]any
	for _, k := range blobFields {
		v, ok := data[k]
		if !ok || v == nil {
			continue
		}
		js, err := json.Marshal(v)
		if err != nil || len(js) < BlobThreshold {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(data))
			for kk, vv := range data {
				out[kk] = vv
			}
		}
		sum := sha256.Sum256(js)
		hexSum := hex.EncodeToString(sum[:])
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, _ = zw.Write(js)
		_ = zw.Close()
		out[k] = map[string]any{
			"stored": "sidecar", "path": "blobs/" + hexSum, "bytes": gz.Len(),
			"jsonBytes": len(js), "sha256": hexSum,
		}
	}
	if out == nil {
		return data
	}
	return out
}

// WireEdge is an edge on the wire; optional keys are omitted when unset.
type WireEdge struct {
	ID       string `json:"id"`
	From     string `json:"from"`
	To       string `json:"to"`
	Type     string `json:"type"`
	Label    string `json:"label,omitempty"`
	Style    string `json:"style,omitempty"`
	Animated *bool  `json:"animated,omitempty"`
	// JSONCanvas is present only on edges imported from a JSON Canvas
	// document (out of contract; see docs/http-api.md).
	JSONCanvas *JSONCanvasEdgeExtra `json:"jsonCanvas,omitempty"`
}

// WireOfEdge renders e.
func WireOfEdge(e *Edge) WireEdge {
	return WireEdge{ID: e.ID, From: e.From, To: e.To, Type: e.Type, Label: e.Label, Style: e.Style,
		Animated: e.Animated, JSONCanvas: e.JSONCanvas}
}

// WireAnnotation is a stored annotation on the wire.
type WireAnnotation struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	Points    []Point `json:"points"`
	Bounds    Bounds  `json:"bounds"`
	Color     string  `json:"color"`
	Width     float64 `json:"width"`
	Text      string  `json:"text,omitempty"`
	Label     string  `json:"label,omitempty"`
	CreatedAt string  `json:"createdAt"`
}

// Bounds is a rect on the wire.
type Bounds struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// BoundsOf converts a Rect.
func BoundsOf(r Rect) Bounds { return Bounds{X: r.X, Y: r.Y, Width: r.W, Height: r.H} }

// WireOfAnnotation renders a.
func WireOfAnnotation(a *Annotation) WireAnnotation {
	pts := a.Points
	if pts == nil {
		pts = []Point{}
	}
	return WireAnnotation{ID: a.ID, Type: a.Type, Points: pts, Bounds: BoundsOf(a.Bounds), Color: a.Color,
		Width: a.Width, Text: a.Text, Label: a.Label, CreatedAt: a.CreatedAt}
}

// Layout is GET /api/canvas/state: the whole canvas. Nodes are WireNode for
// HTTP reads and RawNode for SSE frames.
type Layout struct {
	Viewport    Viewport         `json:"viewport"`
	Theme       string           `json:"theme"`
	Nodes       any              `json:"nodes"`
	Edges       []WireEdge       `json:"edges"`
	Annotations []WireAnnotation `json:"annotations"`
	Revision    uint64           `json:"revision"`
}

func (s *State) layoutBase() Layout {
	edges := make([]WireEdge, 0, s.Edges.Len())
	s.Edges.Each(func(e *Edge) bool { edges = append(edges, WireOfEdge(e)); return true })
	anns := make([]WireAnnotation, 0, s.Annotations.Len())
	for _, a := range s.Annotations.All() {
		anns = append(anns, WireOfAnnotation(a))
	}
	return Layout{Viewport: s.Viewport, Theme: s.Theme, Edges: edges, Annotations: anns, Revision: s.Revision}
}

// WireLayout renders the state for HTTP readers.
func (s *State) WireLayout(opts ReadOptions) Layout {
	l := s.layoutBase()
	pins := pinSet(s.Pins)
	nodes := make([]WireNode, 0, s.Nodes.Len())
	s.Nodes.Each(func(n *Node) bool { nodes = append(nodes, Wire(n, pins[n.ID], opts)); return true })
	l.Nodes = nodes
	return l
}

// RawLayout renders the state as SSE layout frames carry it.
func (s *State) RawLayout() Layout {
	l := s.layoutBase()
	pins := pinSet(s.Pins)
	nodes := make([]RawNode, 0, s.Nodes.Len())
	s.Nodes.Each(func(n *Node) bool { nodes = append(nodes, Raw(n, pins[n.ID])); return true })
	l.Nodes = nodes
	return l
}

func pinSet(pins []string) map[string]bool {
	m := make(map[string]bool, len(pins))
	for _, p := range pins {
		m[p] = true
	}
	return m
}

// NodeReply is the reply of node create and update:
// {ok:true, node:<wire>, ...<wire fields>, nodeId, ...extras, revision}.
// It renders the wire node once and splices it twice.
type NodeReply struct {
	Node     WireNode
	Extras   map[string]any
	Revision uint64
}

// NodeResponse builds the reply for n.
func NodeResponse(n *Node, contextPinned bool, extras map[string]any) *NodeReply {
	return &NodeReply{Node: Wire(n, contextPinned, ReadOptions{}), Extras: extras}
}

// SetRevision records the revision the write produced.
func (r *NodeReply) SetRevision(rev uint64) { r.Revision = rev }

// MarshalJSON renders the reply with the reference's key order.
func (r *NodeReply) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if _, err := r.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// nodeScratch holds the wire node while a reply splices it twice, so a
// write's reply allocates no buffers of its own.
var nodeScratch = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteTo renders the reply into w (the HTTP surface passes a pooled
// buffer): the wire node is encoded once into a pooled scratch buffer and
// copied twice.
func (r *NodeReply) WriteTo(w io.Writer) (int64, error) {
	scratch := nodeScratch.Get().(*bytes.Buffer)
	defer func() {
		if scratch.Cap() <= 64<<10 {
			scratch.Reset()
			nodeScratch.Put(scratch)
		}
	}()
	scratch.Reset()
	// json.Marshal's escaping (HTML-safe), as the reply always had.
	if err := json.NewEncoder(scratch).Encode(r.Node); err != nil {
		return 0, err
	}
	node := bytes.TrimSuffix(scratch.Bytes(), []byte{'\n'})
	b, ok := w.(*bytes.Buffer)
	if !ok {
		b = new(bytes.Buffer)
	}
	start := b.Len()
	b.Grow(2*len(node) + 64)
	b.WriteString(`{"ok":true,"node":`)
	b.Write(node)
	b.WriteByte(',')
	b.Write(node[1 : len(node)-1])
	b.WriteString(`,"nodeId":`)
	writeJSONString(b, r.Node.ID)
	if len(r.Extras) > 0 {
		keys := make([]string, 0, len(r.Extras))
		for k := range r.Extras {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			vj, err := json.Marshal(r.Extras[k])
			if err != nil {
				b.Truncate(start)
				return 0, err
			}
			b.WriteByte(',')
			writeJSONString(b, k)
			b.WriteByte(':')
			b.Write(vj)
		}
	}
	if r.Revision > 0 {
		b.WriteString(`,"revision":`)
		b.Write(strconv.AppendUint(b.AvailableBuffer(), r.Revision, 10))
	}
	b.WriteByte('}')
	n := int64(b.Len() - start)
	if !ok {
		return b.WriteTo(w)
	}
	return n, nil
}

// writeJSONString writes s as a JSON string, escaped as json.Marshal does.
func writeJSONString(b *bytes.Buffer, s string) {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	q, _ := json.Marshal(s)
	b.Write(q)
}

// CompactNode is a node as batch results carry it: {ok:true, ...wire node},
// with a file node's fileContent summarised instead of inlined.
func CompactNode(n *Node, contextPinned bool) map[string]any {
	w := Wire(n, contextPinned, ReadOptions{})
	if fc, ok := n.Data["fileContent"].(string); ok && n.Type == "file" {
		data := make(map[string]any, len(w.Data))
		for k, v := range w.Data {
			data[k] = v
		}
		sum := sha256.Sum256([]byte(fc))
		lines, _ := n.Data["lineCount"].(float64)
		data["fileContent"] = map[string]any{"omitted": "file-content", "bytes": len(fc), "lineCount": lines, "sha256": hex.EncodeToString(sum[:])}
		w.Data = data
		if p := dataString(n, "path"); p != "" {
			w.Content = &p
		}
	}
	out := wireMap(w)
	out["ok"] = true
	return out
}

// wireMap flattens a WireNode into a map (for spreading into replies).
func wireMap(w WireNode) map[string]any {
	return map[string]any{
		"id": w.ID, "type": w.Type, "position": w.Position, "size": w.Size, "zIndex": w.ZIndex,
		"collapsed": w.Collapsed, "pinned": w.Pinned, "dockPosition": w.DockPosition, "data": w.Data,
		"kind": w.Kind, "title": w.Title, "content": w.Content, "path": w.Path, "url": w.URL,
		"surfaceUrl": w.SurfaceURL, "provenance": w.Provenance,
	}
}

// wireJSON returns the node's default wire JSON (no context pin applied).
func (n *Node) wireJSON() ([]byte, error) {
	if n.cache == nil {
		return json.Marshal(Wire(n, false, ReadOptions{}))
	}
	var err error
	n.cache.wireOnce.Do(func() { n.cache.wire, err = json.Marshal(Wire(n, false, ReadOptions{})) })
	return n.cache.wire, err
}

// rawJSON returns the node's raw JSON (no context pin applied).
func (n *Node) rawJSON() ([]byte, error) {
	if n.cache == nil {
		return json.Marshal(Raw(n, false))
	}
	var err error
	n.cache.rawOnce.Do(func() { n.cache.raw, err = json.Marshal(Raw(n, false)) })
	return n.cache.raw, err
}

// LayoutJSON renders a layout fast: nodes come from their cached JSON, so a
// read of a large canvas is mostly copying bytes. It implements
// json.Marshaler, and JSONBytes for writers that can skip re-validation.
type LayoutJSON struct {
	state *State
	raw   bool
	opts  ReadOptions
}

// WireLayoutJSON is WireLayout rendered through the node cache.
func (s *State) WireLayoutJSON(opts ReadOptions) LayoutJSON {
	return LayoutJSON{state: s, opts: opts}
}

// RawLayoutJSON is RawLayout rendered through the node cache.
func (s *State) RawLayoutJSON() LayoutJSON { return LayoutJSON{state: s, raw: true} }

// MarshalJSON implements json.Marshaler.
func (l LayoutJSON) MarshalJSON() ([]byte, error) { return l.JSONBytes() }

// JSONBytes renders the layout as compact, valid JSON.
func (l LayoutJSON) JSONBytes() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(400 * (l.state.Nodes.Len() + 4))
	if _, err := l.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteTo streams the layout as compact JSON to w, so a large read needs no
// buffer of its own (io.WriterTo).
func (l LayoutJSON) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	err := l.write(cw)
	return cw.n, err
}

type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (l LayoutJSON) write(w *countingWriter) error {
	s := l.state
	base := s.layoutBase()
	pins := pinSet(s.Pins)
	head, err := json.Marshal(struct {
		Viewport Viewport `json:"viewport"`
		Theme    string   `json:"theme"`
	}{base.Viewport, base.Theme})
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-1])
	w.Write([]byte(`,"nodes":[`))
	first := true
	s.Nodes.Each(func(n *Node) bool {
		var js []byte
		switch {
		case l.opts.IncludeBlobs && n.Type == "mcp-app":
			js, err = json.Marshal(Wire(n, pins[n.ID], l.opts))
		case pins[n.ID] && !n.Pinned && l.raw:
			js, err = json.Marshal(Raw(n, true))
		case pins[n.ID] && !n.Pinned:
			js, err = json.Marshal(Wire(n, true, l.opts))
		case l.raw:
			js, err = n.rawJSON()
		default:
			js, err = n.wireJSON()
		}
		if err != nil {
			return false
		}
		if !first {
			w.Write([]byte{','})
		}
		first = false
		w.Write(js)
		return w.err == nil
	})
	if err != nil {
		return err
	}
	rest, err := json.Marshal(struct {
		Edges       []WireEdge       `json:"edges"`
		Annotations []WireAnnotation `json:"annotations"`
		Revision    uint64           `json:"revision"`
	}{base.Edges, base.Annotations, base.Revision})
	if err != nil {
		return err
	}
	w.Write([]byte(`],`))
	w.Write(rest[1:])
	return w.err
}
