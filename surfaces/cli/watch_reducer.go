package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The semantic watch reducer (the reference's SemanticWatchReducer,
// cli.md §8): it turns the event stream's full-layout frames and pin
// changes into a few meaningful deltas — nodes added, pins changed, edges
// connected, things removed, groups formed, and moves that changed a
// node's spatial meaning (cluster or pinned neighbourhood). Unlike the
// reference it reports node additions ("add"), and says "children".
//
// The spatial rules mirror GET /api/canvas/spatial-context: single-linkage
// clusters of nodes whose edge-to-edge gap is at most 200 px, and for each
// context pin up to 5 unpinned nodes whose centres lie within 600 px.

// Watch event kinds, in the order one layout frame emits them.
var watchKinds = []string{"add", "context-pin", "connect", "remove", "group", "move-end"}

const (
	watchClusterGap     = 200.0
	watchNeighborRadius = 600.0
	watchNeighborLimit  = 5
)

type watchNode struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Position struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	} `json:"position"`
	Size struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"size"`
	Data map[string]any `json:"data"`
}

type watchEdge struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

type watchLayout struct {
	Nodes []*watchNode `json:"nodes"`
	Edges []*watchEdge `json:"edges"`
}

// watchEvent is one semantic delta.
type watchEvent interface {
	kind() string
	compact() string
}

type watchMeta struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

func (m watchMeta) kind() string { return m.Type }

type watchNodeSummary struct {
	ID       string  `json:"id"`
	Title    *string `json:"title"`
	NodeType string  `json:"nodeType"`
}

type watchEdgeSummary struct {
	ID        string  `json:"id"`
	EdgeType  string  `json:"edgeType"`
	FromID    string  `json:"fromId"`
	ToID      string  `json:"toId"`
	FromTitle *string `json:"fromTitle"`
	ToTitle   *string `json:"toTitle"`
}

type watchAddEvent struct {
	watchMeta
	Nodes []watchNodeSummary `json:"nodes"`
}

type watchPinEvent struct {
	watchMeta
	Added   []watchNodeSummary `json:"added"`
	Removed []watchNodeSummary `json:"removed"`
}

type watchConnectEvent struct {
	watchMeta
	Edges []watchEdgeSummary `json:"edges"`
}

type watchRemoveEvent struct {
	watchMeta
	Nodes []watchNodeSummary `json:"nodes"`
	Edges []watchEdgeSummary `json:"edges"`
}

type watchGroupCreated struct {
	ID         string  `json:"id"`
	Title      *string `json:"title"`
	ChildCount int     `json:"childCount"`
}

type watchGroupUpdated struct {
	ID              string   `json:"id"`
	Title           *string  `json:"title"`
	AddedChildIDs   []string `json:"addedChildIds"`
	RemovedChildIDs []string `json:"removedChildIds"`
	ChildCount      int      `json:"childCount"`
}

type watchGroupEvent struct {
	watchMeta
	Created []watchGroupCreated `json:"created"`
	Updated []watchGroupUpdated `json:"updated"`
}

type watchMovedNode struct {
	watchNodeSummary
	Reasons []string `json:"reasons"`
}

type watchMoveEvent struct {
	watchMeta
	Nodes []watchMovedNode `json:"nodes"`
}

// ---- compact (human) lines ----

func watchCount(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func watchLabel(title *string, id string) string {
	if title != nil {
		return *title
	}
	return id
}

func watchTitleList(nodes []watchNodeSummary) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = fmt.Sprintf("%q", watchLabel(n.Title, n.ID))
	}
	return strings.Join(parts, ", ")
}

func (e *watchAddEvent) compact() string {
	return fmt.Sprintf("add %s: %s", watchCount(len(e.Nodes), "node", "nodes"), watchTitleList(e.Nodes))
}

func (e *watchPinEvent) compact() string {
	var parts []string
	if len(e.Added) > 0 {
		parts = append(parts, fmt.Sprintf("+%d: %s", len(e.Added), watchTitleList(e.Added)))
	}
	if len(e.Removed) > 0 {
		parts = append(parts, "removed: "+watchTitleList(e.Removed))
	}
	return strings.TrimSpace("context-pin " + strings.Join(parts, " | "))
}

func (e *watchConnectEvent) compact() string {
	parts := make([]string, len(e.Edges))
	for i, ed := range e.Edges {
		parts[i] = fmt.Sprintf("%q -> %q (%s)", watchLabel(ed.FromTitle, ed.FromID), watchLabel(ed.ToTitle, ed.ToID), ed.EdgeType)
	}
	return fmt.Sprintf("connect %s: %s", watchCount(len(e.Edges), "edge", "edges"), strings.Join(parts, ", "))
}

func (e *watchRemoveEvent) compact() string {
	var parts []string
	if len(e.Nodes) > 0 {
		parts = append(parts, watchCount(len(e.Nodes), "node", "nodes")+": "+watchTitleList(e.Nodes))
	}
	if len(e.Edges) > 0 {
		parts = append(parts, watchCount(len(e.Edges), "edge", "edges"))
	}
	return strings.TrimSpace("remove " + strings.Join(parts, " | "))
}

func (e *watchGroupEvent) compact() string {
	var parts []string
	if len(e.Created) > 0 {
		c := make([]string, len(e.Created))
		for i, g := range e.Created {
			c[i] = fmt.Sprintf("%q (%s)", watchLabel(g.Title, g.ID), watchCount(g.ChildCount, "child", "children"))
		}
		parts = append(parts, "created: "+strings.Join(c, ", "))
	}
	if len(e.Updated) > 0 {
		u := make([]string, len(e.Updated))
		for i, g := range e.Updated {
			u[i] = fmt.Sprintf("%q +%d -%d children", watchLabel(g.Title, g.ID), len(g.AddedChildIDs), len(g.RemovedChildIDs))
		}
		parts = append(parts, "updated: "+strings.Join(u, ", "))
	}
	return strings.TrimSpace("group " + strings.Join(parts, " | "))
}

func (e *watchMoveEvent) compact() string {
	parts := make([]string, len(e.Nodes))
	for i, n := range e.Nodes {
		parts[i] = fmt.Sprintf("%q %s", watchLabel(n.Title, n.ID), strings.Join(n.Reasons, "; "))
	}
	return "move-end: " + strings.Join(parts, ", ")
}

// ---- the reducer ----

// watchReducer holds the last layout and pins and turns each frame into
// semantic events.
type watchReducer struct {
	layout  *watchLayout
	pins    map[string]bool
	spatial *watchSpatial
}

func newWatchReducer() *watchReducer { return &watchReducer{pins: map[string]bool{}} }

// baseline takes a frame of a fresh connection's opening burst as the
// starting point, without events.
func (r *watchReducer) baseline(event string, data json.RawMessage) {
	switch event {
	case "canvas-layout-update":
		if l, _ := watchDecodeLayout(data); l != nil {
			r.layout = l
			r.spatial = watchAnalyse(l, r.pins)
		}
	case "context-pins-changed":
		r.pins = watchDecodePins(data)
		if r.layout != nil {
			r.spatial = watchAnalyse(r.layout, r.pins)
		}
	}
}

// handle returns the events one frame makes.
func (r *watchReducer) handle(event string, data json.RawMessage) []watchEvent {
	switch event {
	case "context-pins-changed":
		return r.pinsChanged(data)
	case "canvas-layout-update":
		return r.layoutChanged(data)
	}
	return nil
}

func watchMetaOf(kind string, data json.RawMessage) watchMeta {
	var m struct {
		Timestamp any `json:"timestamp"`
		SessionID any `json:"sessionId"`
	}
	_ = json.Unmarshal(data, &m)
	meta := watchMeta{Type: kind}
	meta.Timestamp, _ = m.Timestamp.(string)
	meta.SessionID, _ = m.SessionID.(string)
	return meta
}

func watchDecodePins(data json.RawMessage) map[string]bool {
	var p struct {
		NodeIDs []any `json:"nodeIds"`
	}
	_ = json.Unmarshal(data, &p)
	out := map[string]bool{}
	for _, id := range p.NodeIDs {
		if s, ok := id.(string); ok {
			out[s] = true
		}
	}
	return out
}

func watchDecodeLayout(data json.RawMessage) (*watchLayout, error) {
	var f struct {
		Layout *watchLayout `json:"layout"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return f.Layout, nil
}

func watchTitle(n *watchNode) *string {
	if n == nil {
		return nil
	}
	if s, ok := n.Data["title"].(string); ok {
		if t := strings.TrimSpace(s); t != "" {
			return &t
		}
	}
	return nil
}

func watchSummarize(n *watchNode, id string) watchNodeSummary {
	if n == nil {
		return watchNodeSummary{ID: id, NodeType: "markdown"}
	}
	return watchNodeSummary{ID: n.ID, Title: watchTitle(n), NodeType: n.Type}
}

func watchSummarizeEdge(e *watchEdge, nodes map[string]*watchNode) watchEdgeSummary {
	return watchEdgeSummary{ID: e.ID, EdgeType: e.Type, FromID: e.From, ToID: e.To,
		FromTitle: watchTitle(nodes[e.From]), ToTitle: watchTitle(nodes[e.To])}
}

func watchNodeMap(l *watchLayout) map[string]*watchNode {
	m := make(map[string]*watchNode, len(l.Nodes))
	for _, n := range l.Nodes {
		if n != nil {
			m[n.ID] = n
		}
	}
	return m
}

func watchEdgeMap(l *watchLayout) map[string]*watchEdge {
	m := make(map[string]*watchEdge, len(l.Edges))
	for _, e := range l.Edges {
		if e != nil {
			m[e.ID] = e
		}
	}
	return m
}

// watchMissing returns the keys of a that b lacks, sorted.
func watchMissing[V any](a, b map[string]V) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func (r *watchReducer) pinsChanged(data json.RawMessage) []watchEvent {
	next := watchDecodePins(data)
	added, removed := watchMissing(next, r.pins), watchMissing(r.pins, next)
	r.pins = next
	if r.layout == nil {
		return nil
	}
	r.spatial = watchAnalyse(r.layout, r.pins)
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	nodes := watchNodeMap(r.layout)
	ev := &watchPinEvent{watchMeta: watchMetaOf("context-pin", data), Added: []watchNodeSummary{}, Removed: []watchNodeSummary{}}
	for _, id := range added {
		ev.Added = append(ev.Added, watchSummarize(nodes[id], id))
	}
	for _, id := range removed {
		ev.Removed = append(ev.Removed, watchSummarize(nodes[id], id))
	}
	return []watchEvent{ev}
}

func (r *watchReducer) layoutChanged(data json.RawMessage) []watchEvent {
	next, err := watchDecodeLayout(data)
	if err != nil || next == nil {
		return nil
	}
	if r.layout == nil {
		r.layout, r.spatial = next, watchAnalyse(next, r.pins)
		return nil
	}
	meta := func(kind string) watchMeta { return watchMetaOf(kind, data) }
	prev, prevSpatial := r.layout, r.spatial
	nextSpatial := watchAnalyse(next, r.pins)
	prevNodes, nextNodes := watchNodeMap(prev), watchNodeMap(next)
	prevEdges, nextEdges := watchEdgeMap(prev), watchEdgeMap(next)
	var events []watchEvent

	// Nodes added (groups are reported as "group created").
	var added []watchNodeSummary
	for _, id := range watchMissing(nextNodes, prevNodes) {
		if n := nextNodes[id]; n.Type != "group" {
			added = append(added, watchSummarize(n, id))
		}
	}
	if len(added) > 0 {
		events = append(events, &watchAddEvent{watchMeta: meta("add"), Nodes: added})
	}

	if ids := watchMissing(nextEdges, prevEdges); len(ids) > 0 {
		ev := &watchConnectEvent{watchMeta: meta("connect")}
		for _, id := range ids {
			ev.Edges = append(ev.Edges, watchSummarizeEdge(nextEdges[id], nextNodes))
		}
		events = append(events, ev)
	}

	goneNodes, goneEdges := watchMissing(prevNodes, nextNodes), watchMissing(prevEdges, nextEdges)
	if len(goneNodes) > 0 || len(goneEdges) > 0 {
		ev := &watchRemoveEvent{watchMeta: meta("remove"), Nodes: []watchNodeSummary{}, Edges: []watchEdgeSummary{}}
		for _, id := range goneNodes {
			ev.Nodes = append(ev.Nodes, watchSummarize(prevNodes[id], id))
		}
		for _, id := range goneEdges {
			ev.Edges = append(ev.Edges, watchSummarizeEdge(prevEdges[id], prevNodes))
		}
		events = append(events, ev)
	}

	if ev := watchGroupChanges(prevNodes, nextNodes, meta("group")); ev != nil {
		events = append(events, ev)
	}
	if ev := watchMoveChanges(prevNodes, nextNodes, prevSpatial, nextSpatial, meta("move-end")); ev != nil {
		events = append(events, ev)
	}
	r.layout, r.spatial = next, nextSpatial
	return events
}

func watchGroupChildren(n *watchNode) []string {
	if n == nil || n.Type != "group" {
		return nil
	}
	raw, _ := n.Data["children"].([]any)
	var out []string
	for _, v := range raw {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func watchWithout(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func watchGroupChanges(prev, next map[string]*watchNode, meta watchMeta) watchEvent {
	ev := &watchGroupEvent{watchMeta: meta, Created: []watchGroupCreated{}, Updated: []watchGroupUpdated{}}
	ids := make([]string, 0)
	for id, n := range next {
		if n.Type == "group" {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := next[id]
		old, existed := prev[id]
		if !existed || old.Type != "group" {
			ev.Created = append(ev.Created, watchGroupCreated{ID: id, Title: watchTitle(g), ChildCount: len(watchGroupChildren(g))})
			continue
		}
		before, after := watchGroupChildren(old), watchGroupChildren(g)
		if slices.Equal(before, after) {
			continue
		}
		ev.Updated = append(ev.Updated, watchGroupUpdated{ID: id, Title: watchTitle(g),
			AddedChildIDs: watchWithout(after, before), RemovedChildIDs: watchWithout(before, after), ChildCount: len(after)})
	}
	if len(ev.Created) == 0 && len(ev.Updated) == 0 {
		return nil
	}
	return ev
}

func watchMoveChanges(prev, next map[string]*watchNode, before, after *watchSpatial, meta watchMeta) watchEvent {
	var moved []string
	for id, n := range next {
		if p, ok := prev[id]; ok && (p.Position.X != n.Position.X || p.Position.Y != n.Position.Y) {
			moved = append(moved, id)
		}
	}
	if len(moved) == 0 {
		return nil
	}
	slices.Sort(moved)
	isMoved := func(id string) bool { _, ok := slices.BinarySearch(moved, id); return ok }
	reasons := map[string]map[string]bool{}
	push := func(id, reason string) {
		if reasons[id] == nil {
			reasons[id] = map[string]bool{}
		}
		reasons[id][reason] = true
	}
	for _, id := range moved {
		old, now := before.peers[id], after.peers[id]
		if slices.Equal(old, now) {
			continue
		}
		switch {
		case len(old) == 0:
			push(id, "joined cluster")
		case len(now) == 0:
			push(id, "left cluster")
		default:
			push(id, "cluster changed")
		}
	}
	pinIDs := map[string]bool{}
	for id := range before.hoods {
		pinIDs[id] = true
	}
	for id := range after.hoods {
		pinIDs[id] = true
	}
	for pin := range pinIDs {
		old, now := before.hoods[pin], after.hoods[pin]
		if slices.Equal(old, now) {
			continue
		}
		n := next[pin]
		if n == nil {
			n = prev[pin]
		}
		title := watchLabel(watchTitle(n), pin)
		for _, id := range watchWithout(now, old) {
			if isMoved(id) {
				push(id, fmt.Sprintf("entered pinned neighborhood of %q", title))
			}
		}
		for _, id := range watchWithout(old, now) {
			if isMoved(id) {
				push(id, fmt.Sprintf("left pinned neighborhood of %q", title))
			}
		}
		if isMoved(pin) {
			push(pin, "pinned neighborhood changed")
		}
	}
	ev := &watchMoveEvent{watchMeta: meta}
	for _, id := range moved {
		if len(reasons[id]) == 0 {
			continue
		}
		rs := make([]string, 0, len(reasons[id]))
		for r := range reasons[id] {
			rs = append(rs, r)
		}
		slices.Sort(rs)
		ev.Nodes = append(ev.Nodes, watchMovedNode{watchNodeSummary: watchSummarize(next[id], id), Reasons: rs})
	}
	if len(ev.Nodes) == 0 {
		return nil
	}
	return ev
}

// ---- spatial analysis ----

// watchSpatial is what the reducer compares between layouts: each node's
// cluster peers and each pin's neighbours (sorted ids).
type watchSpatial struct {
	peers map[string][]string
	hoods map[string][]string
}

type watchRect struct{ x, y, w, h float64 }

func watchRectOf(n *watchNode) watchRect {
	return watchRect{n.Position.X, n.Position.Y, n.Size.Width, n.Size.Height}
}

func watchGap(a, b watchRect) float64 {
	gx := math.Max(0, math.Max(a.x, b.x)-math.Min(a.x+a.w, b.x+b.w))
	gy := math.Max(0, math.Max(a.y, b.y)-math.Min(a.y+a.h, b.y+b.h))
	return math.Hypot(gx, gy)
}

func watchCentreDistance(a, b watchRect) float64 {
	return math.Hypot(a.x+a.w/2-(b.x+b.w/2), a.y+a.h/2-(b.y+b.h/2))
}

func watchAnalyse(l *watchLayout, pins map[string]bool) *watchSpatial {
	v := &watchSpatial{peers: map[string][]string{}, hoods: map[string][]string{}}
	var nodes []*watchNode
	for _, n := range l.Nodes {
		if n != nil {
			nodes = append(nodes, n)
		}
	}
	// Clusters: union nodes within the gap. A sweep over nodes sorted by
	// left edge only compares pairs whose x ranges come within the gap.
	parent := make([]int, len(nodes))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(nodes[a].Position.X, nodes[b].Position.X) })
	for oi, i := range order {
		ri := watchRectOf(nodes[i])
		for _, j := range order[oi+1:] {
			rj := watchRectOf(nodes[j])
			if rj.x > ri.x+ri.w+watchClusterGap {
				break
			}
			if watchGap(ri, rj) <= watchClusterGap {
				if a, b := find(i), find(j); a != b {
					parent[a] = b
				}
			}
		}
	}
	members := map[int][]string{}
	for i, n := range nodes {
		root := find(i)
		members[root] = append(members[root], n.ID)
	}
	for _, ids := range members {
		if len(ids) < 2 {
			continue
		}
		slices.Sort(ids)
		for _, id := range ids {
			peers := make([]string, 0, len(ids)-1)
			for _, o := range ids {
				if o != id {
					peers = append(peers, o)
				}
			}
			v.peers[id] = peers
		}
	}
	// Pinned neighbourhoods: the nearest unpinned nodes within the radius.
	type near struct {
		id   string
		dist float64
	}
	for _, p := range nodes {
		if !pins[p.ID] {
			continue
		}
		pr := watchRectOf(p)
		var cands []near
		for _, n := range nodes {
			if pins[n.ID] {
				continue
			}
			if d := watchCentreDistance(pr, watchRectOf(n)); d <= watchNeighborRadius {
				cands = append(cands, near{n.ID, d})
			}
		}
		slices.SortStableFunc(cands, func(a, b near) int { return cmp.Compare(a.dist, b.dist) })
		ids := []string{}
		for _, c := range cands[:min(watchNeighborLimit, len(cands))] {
			ids = append(ids, c.id)
		}
		slices.Sort(ids)
		v.hoods[p.ID] = ids
	}
	return v
}
