package persistence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
)

// Key layout (one key per record; store only what changed):
//
//	meta/schema                      layout version
//	canvas/<cid>/meta                revision, viewport, theme, pins, ordinals
//	canvas/<cid>/node/<nodeId>       one node
//	canvas/<cid>/edge/<edgeId>       one edge
//	canvas/<cid>/ann/<annotationId>  one annotation
//	canvas/<cid>/idem/<key>          a remembered idempotent reply (expires)
//	canvas/<cid>/eventseq            event-number reservation (hi-lo)
//	canvas/<cid>/snapmeta/<id>       snapshot metadata (loaded with the canvas)
//	canvas/<cid>/snap/<id>           snapshot content (loaded on restore/diff)
func canvasPrefix(cid string) string { return "canvas/" + cid + "/" }

// MetaKey is the key of a canvas's meta record.
func MetaKey(cid string) string { return canvasPrefix(cid) + "meta" }

// NodeKey is the key of a node record.
func NodeKey(cid, id string) string { return canvasPrefix(cid) + "node/" + id }

// EdgeKey is the key of an edge record.
func EdgeKey(cid, id string) string { return canvasPrefix(cid) + "edge/" + id }

// AnnotationKey is the key of an annotation record.
func AnnotationKey(cid, id string) string { return canvasPrefix(cid) + "ann/" + id }

// IdempotencyKey is the key of a remembered idempotent reply.
func IdempotencyKey(cid, key string) string { return canvasPrefix(cid) + "idem/" + key }

// EventSeqKey is the key of the event-number reservation.
func EventSeqKey(cid string) string { return canvasPrefix(cid) + "eventseq" }

// SnapshotMetaKey is the key of a snapshot's metadata.
func SnapshotMetaKey(cid, id string) string { return canvasPrefix(cid) + "snapmeta/" + id }

// SnapshotContentKey is the key of a snapshot's saved layout.
func SnapshotContentKey(cid, id string) string { return canvasPrefix(cid) + "snap/" + id }

type metaRecord struct {
	Revision  uint64          `json:"revision"`
	Viewport  canvas.Viewport `json:"viewport"`
	Theme     string          `json:"theme"`
	Pins      []string        `json:"pins"`
	NextOrd   uint64          `json:"nextOrd"`
	Populated bool            `json:"populated"`
}

type nodeRecord struct {
	canvas.RawNode
	Ord uint64 `json:"ord"`
}

type edgeRecord struct {
	canvas.WireEdge
	Ord uint64 `json:"ord"`
}

type annotationRecord struct {
	canvas.WireAnnotation
	Ord uint64 `json:"ord"`
}

type snapshotMetaRecord struct {
	canvas.SnapshotMeta
	Ord uint64 `json:"ord"`
}

type snapshotContentRecord struct {
	Nodes       []nodeRecord       `json:"nodes"`
	Edges       []edgeRecord       `json:"edges"`
	Annotations []annotationRecord `json:"annotations"`
	Pins        []string           `json:"pins"`
	Viewport    canvas.Viewport    `json:"viewport"`
	AX          json.RawMessage    `json:"ax,omitempty"`
}

// recordBuffers hold a record while it is encoded: the store keeps a
// string, so encoding into a reused buffer makes one copy, not two.
var recordBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func encode(v any) string {
	buf := recordBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		panic(fmt.Sprintf("persistence: encode %T: %v", v, err)) // records are plain JSON values
	}
	out := string(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
	if buf.Cap() <= 1<<20 {
		recordBuffers.Put(buf)
	}
	return out
}

// ChangeOps returns the writes that make the store match next after change:
// RecordOps and the canvas's meta record.
func ChangeOps(cid string, change *canvas.Change, next *canvas.State) []Op {
	return append(RecordOps(cid, change), MetaOp(cid, next))
}

// RecordOps returns the writes of change's records (nodes, edges,
// annotations, snapshots), without the meta record: the Journal writes one
// meta record per commit, from the newest state in it, however many steps
// the commit holds.
func RecordOps(cid string, change *canvas.Change) []Op {
	ops := make([]Op, 0, len(change.Nodes)+len(change.Edges)+len(change.Annotations)+2)
	for _, c := range change.Nodes {
		if c.After == nil {
			ops = append(ops, Delete(NodeKey(cid, c.ID)))
			continue
		}
		ops = append(ops, Set(NodeKey(cid, c.ID), encode(nodeRecord{canvas.Raw(c.After, false), c.After.Ord})))
	}
	for _, c := range change.Edges {
		if c.After == nil {
			ops = append(ops, Delete(EdgeKey(cid, c.ID)))
			continue
		}
		ops = append(ops, Set(EdgeKey(cid, c.ID), encode(edgeRecord{canvas.WireOfEdge(c.After), c.After.Ord})))
	}
	for _, c := range change.Annotations {
		if c.After == nil {
			ops = append(ops, Delete(AnnotationKey(cid, c.ID)))
			continue
		}
		ops = append(ops, Set(AnnotationKey(cid, c.ID), encode(annotationRecord{canvas.WireOfAnnotation(c.After), c.After.Ord})))
	}
	for _, c := range change.Snapshots {
		if c.After == nil {
			ops = append(ops, Delete(SnapshotMetaKey(cid, c.ID)), Delete(SnapshotContentKey(cid, c.ID)))
			continue
		}
		ops = append(ops, Set(SnapshotMetaKey(cid, c.ID), encode(snapshotMetaRecord{c.After.Meta(), c.After.Ord})))
		if c.After.Content != nil {
			ops = append(ops, SetBlob(SnapshotContentKey(cid, c.ID), []byte(encode(contentRecord(c.After.Content)))))
		}
	}
	return ops
}

func contentRecord(c *canvas.SnapshotContent) snapshotContentRecord {
	r := snapshotContentRecord{Pins: c.Pins, Viewport: c.Viewport, AX: c.AX,
		Nodes: make([]nodeRecord, 0, len(c.Nodes)), Edges: make([]edgeRecord, 0, len(c.Edges)),
		Annotations: make([]annotationRecord, 0, len(c.Annotations))}
	if r.Pins == nil {
		r.Pins = []string{}
	}
	for _, n := range c.Nodes {
		r.Nodes = append(r.Nodes, nodeRecord{canvas.Raw(n, false), n.Ord})
	}
	for _, e := range c.Edges {
		r.Edges = append(r.Edges, edgeRecord{canvas.WireOfEdge(e), e.Ord})
	}
	for _, a := range c.Annotations {
		r.Annotations = append(r.Annotations, annotationRecord{canvas.WireOfAnnotation(a), a.Ord})
	}
	return r
}

// LoadSnapshotContent reads the saved layout of a snapshot.
func (s *Store) LoadSnapshotContent(cid, id string) (*canvas.SnapshotContent, error) {
	v, ok, err := s.GetBlob(SnapshotContentKey(cid, id))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("snapshot %q of canvas %q has no stored content", id, cid)
	}
	var r snapshotContentRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("decode snapshot %q: %w", id, err)
	}
	c := &canvas.SnapshotContent{Pins: r.Pins, Viewport: r.Viewport, AX: r.AX}
	for _, n := range r.Nodes {
		c.Nodes = append(c.Nodes, nodeFromRecord(n))
	}
	for _, e := range r.Edges {
		c.Edges = append(c.Edges, edgeFromRecord(e))
	}
	for _, a := range r.Annotations {
		c.Annotations = append(c.Annotations, annotationFromRecord(a))
	}
	return c, nil
}

// MetaOp writes a canvas's meta record from state.
func MetaOp(cid string, s *canvas.State) Op {
	pins := s.Pins
	if pins == nil {
		pins = []string{}
	}
	return Set(MetaKey(cid), encode(metaRecord{
		Revision: s.Revision, Viewport: s.Viewport, Theme: s.Theme, Pins: pins,
		NextOrd: s.NextOrd, Populated: s.Populated,
	}))
}

// StateOps writes a whole state (used when seeding or importing a canvas).
func StateOps(cid string, s *canvas.State) []Op {
	ch := &canvas.Change{}
	for _, n := range s.Nodes.All() {
		ch.Nodes = append(ch.Nodes, canvas.RecordChange[*canvas.Node]{ID: n.ID, After: n})
	}
	for _, e := range s.Edges.All() {
		ch.Edges = append(ch.Edges, canvas.RecordChange[*canvas.Edge]{ID: e.ID, After: e})
	}
	for _, a := range s.Annotations.All() {
		ch.Annotations = append(ch.Annotations, canvas.RecordChange[*canvas.Annotation]{ID: a.ID, After: a})
	}
	return ChangeOps(cid, ch, s)
}

// LoadCanvas reads a canvas. found is false for a canvas never written.
func (s *Store) LoadCanvas(cid string) (state *canvas.State, found bool, err error) {
	st := canvas.NewState()
	prefix := canvasPrefix(cid)
	var decodeErr error
	scanErr := s.Scan(prefix, func(key, value string) bool {
		rest := key[len(prefix):]
		kind, id, _ := strings.Cut(rest, "/")
		switch kind {
		case "meta":
			var m metaRecord
			if decodeErr = json.Unmarshal([]byte(value), &m); decodeErr == nil {
				found = true
				st.Revision, st.Viewport, st.Theme = m.Revision, m.Viewport, m.Theme
				st.Pins, st.NextOrd, st.Populated = m.Pins, m.NextOrd, m.Populated
			}
		case "node":
			var r nodeRecord
			if decodeErr = json.Unmarshal([]byte(value), &r); decodeErr == nil {
				st.Nodes = st.Nodes.Put(nodeFromRecord(r))
			}
		case "edge":
			var r edgeRecord
			if decodeErr = json.Unmarshal([]byte(value), &r); decodeErr == nil {
				st.Edges = st.Edges.Put(edgeFromRecord(r))
			}
		case "ann":
			var r annotationRecord
			if decodeErr = json.Unmarshal([]byte(value), &r); decodeErr == nil {
				st.Annotations = st.Annotations.Put(annotationFromRecord(r))
			}
		case "snapmeta":
			var r snapshotMetaRecord
			if decodeErr = json.Unmarshal([]byte(value), &r); decodeErr == nil {
				st.Snapshots = st.Snapshots.Put(&canvas.Snapshot{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt,
					NodeCount: r.NodeCount, EdgeCount: r.EdgeCount, Bytes: r.Bytes, Ord: r.Ord})
			}
		}
		if decodeErr != nil {
			decodeErr = fmt.Errorf("decode %s %q: %w", kind, id, decodeErr)
			return false
		}
		return true
	})
	if scanErr != nil {
		return nil, false, scanErr
	}
	if decodeErr != nil {
		return nil, false, decodeErr
	}
	// The next ordinal comes from the records themselves as well as the
	// meta record, so an ordinal is never handed out twice even if the
	// meta record is behind its records (a store written before commits
	// were atomic on disk could be left that way by a crash).
	st.NextOrd = max(st.NextOrd, maxOrd(st)+1)
	if st.Theme == "" {
		st.Theme = canvas.Themes[0]
	}
	if st.Viewport.Scale == 0 {
		st.Viewport.Scale = 1
	}
	return st, found, nil
}

// maxOrd is the highest ordinal any record of st carries.
func maxOrd(st *canvas.State) uint64 {
	m := uint64(0)
	for _, n := range st.Nodes.All() {
		m = max(m, n.Ord)
	}
	for _, e := range st.Edges.All() {
		m = max(m, e.Ord)
	}
	for _, a := range st.Annotations.All() {
		m = max(m, a.Ord)
	}
	for _, sn := range st.Snapshots.NewestFirst() {
		m = max(m, sn.Ord)
	}
	return m
}

func edgeFromRecord(r edgeRecord) *canvas.Edge {
	return &canvas.Edge{ID: r.ID, From: r.From, To: r.To, Type: r.Type, Label: r.Label, Style: r.Style,
		Animated: r.Animated, JSONCanvas: r.JSONCanvas, Ord: r.Ord}
}

func annotationFromRecord(r annotationRecord) *canvas.Annotation {
	b := r.Bounds
	return &canvas.Annotation{ID: r.ID, Type: r.Type, Points: r.Points,
		Bounds: canvas.Rect{X: b.X, Y: b.Y, W: b.Width, H: b.Height}, Color: r.Color, Width: r.Width,
		Text: r.Text, Label: r.Label, CreatedAt: r.CreatedAt, Ord: r.Ord}
}

func nodeFromRecord(r nodeRecord) *canvas.Node {
	n := &canvas.Node{ID: r.ID, Type: r.Type, Position: r.Position, Size: r.Size, ZIndex: r.ZIndex,
		Collapsed: r.Collapsed, Pinned: r.Pinned, Data: r.Data, Ord: r.Ord}
	if r.DockPosition != nil {
		n.DockPosition = *r.DockPosition
	}
	if n.Data == nil {
		n.Data = map[string]any{}
	}
	return n
}

// Canvases lists the ids of every stored canvas.
func (s *Store) Canvases() ([]string, error) {
	var ids []string
	err := s.Scan("canvas/", func(key, _ string) bool {
		rest := strings.TrimPrefix(key, "canvas/")
		if cid, tail, ok := strings.Cut(rest, "/"); ok && tail == "meta" {
			ids = append(ids, cid)
		}
		return true
	})
	return ids, err
}

// ReserveEventSeq returns the first event number a canvas may use in this
// process and durably reserves the next block of size numbers, so event ids
// never repeat across restarts (a client's Last-Event-ID from a previous
// process can never be mistaken for a current one).
func (s *Store) ReserveEventSeq(cid string, size uint64) (uint64, error) {
	start, err := s.EventSeq(cid)
	if err != nil {
		return 0, err
	}
	if err := s.Commit([]Op{EventSeqOp(cid, start+size)}); err != nil {
		return start, err
	}
	return start, nil
}

// EventSeq reads the first event number not yet reserved for a canvas.
func (s *Store) EventSeq(cid string) (uint64, error) {
	v, _, err := s.Get(EventSeqKey(cid))
	if err != nil || v == "" {
		return 0, err
	}
	start, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("event sequence record %q: %w", v, err)
	}
	return start, nil
}

// EventSeqOp reserves every event number below next for a canvas.
func EventSeqOp(cid string, next uint64) Op {
	return Set(EventSeqKey(cid), strconv.FormatUint(next, 10))
}
