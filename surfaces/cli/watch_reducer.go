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

type wireNode struct {
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

type wireEdge struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

type wireLayout struct {
	Nodes []*wireNode `json:"nodes"`
	Edges []*wireEdge `json:"edges"`
}

// watchEvent is one semantic delta.
type watchEvent interface {
	kind() string
	compact() string
}

type eventMeta struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

func (m eventMeta) kind() string { return m.Type }

type nodeSummary struct {
	ID       string  `json:"id"`
	Title    *string `json:"title"`
	NodeType string  `json:"nodeType"`
}

type edgeSummary struct {
	ID        string  `json:"id"`
	EdgeType  string  `json:"edgeType"`
	FromID    string  `json:"fromId"`
	ToID      string  `json:"toId"`
	FromTitle *string `json:"fromTitle"`
	ToTitle   *string `json:"toTitle"`
}

type addEvent struct {
	eventMeta
	Nodes []nodeSummary `json:"nodes"`
}

type contextPinEvent struct {
	eventMeta
	Added   []nodeSummary `json:"added"`
	Removed []nodeSummary `json:"removed"`
}

type connectEvent struct {
	eventMeta
	Edges []edgeSummary `json:"edges"`
}

type removeEvent struct {
	eventMeta
	Nodes []nodeSummary `json:"nodes"`
	Edges []edgeSummary `json:"edges"`
}

type groupCreated struct {
	ID         string  `json:"id"`
	Title      *string `json:"title"`
	ChildCount int     `json:"childCount"`
}

type groupUpdated struct {
	ID              string   `json:"id"`
	Title           *string  `json:"title"`
	AddedChildIDs   []string `json:"addedChildIds"`
	RemovedChildIDs []string `json:"removedChildIds"`
	ChildCount      int      `json:"childCount"`
}

type groupEvent struct {
	eventMeta
	Created []groupCreated `json:"created"`
	Updated []groupUpdated `json:"updated"`
}

type movedNode struct {
	nodeSummary
	Reasons []string `json:"reasons"`
}

type moveEndEvent struct {
	eventMeta
	Nodes []movedNode `json:"nodes"`
}

// ---- compact (human) lines ----

func count(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func labelOf(title *string, id string) string {
	if title != nil {
		return *title
	}
	return id
}

func titleList(nodes []nodeSummary) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = fmt.Sprintf("%q", labelOf(n.Title, n.ID))
	}
	return strings.Join(parts, ", ")
}

func (e *addEvent) compact() string {
	return fmt.Sprintf("add %s: %s", count(len(e.Nodes), "node", "nodes"), titleList(e.Nodes))
}

func (e *contextPinEvent) compact() string {
	var parts []string
	if len(e.Added) > 0 {
		parts = append(parts, fmt.Sprintf("+%d: %s", len(e.Added), titleList(e.Added)))
	}
	if len(e.Removed) > 0 {
		parts = append(parts, "removed: "+titleList(e.Removed))
	}
	return strings.TrimSpace("context-pin " + strings.Join(parts, " | "))
}

func (e *connectEvent) compact() string {
	parts := make([]string, len(e.Edges))
	for i, ed := range e.Edges {
		parts[i] = fmt.Sprintf("%q -> %q (%s)", labelOf(ed.FromTitle, ed.FromID), labelOf(ed.ToTitle, ed.ToID), ed.EdgeType)
	}
	return fmt.Sprintf("connect %s: %s", count(len(e.Edges), "edge", "edges"), strings.Join(parts, ", "))
}

func (e *removeEvent) compact() string {
	var parts []string
	if len(e.Nodes) > 0 {
		parts = append(parts, count(len(e.Nodes), "node", "nodes")+": "+titleList(e.Nodes))
	}
	if len(e.Edges) > 0 {
		parts = append(parts, count(len(e.Edges), "edge", "edges"))
	}
	return strings.TrimSpace("remove " + strings.Join(parts, " | "))
}

func (e *groupEvent) compact() string {
	var parts []string
	if len(e.Created) > 0 {
		c := make([]string, len(e.Created))
		for i, g := range e.Created {
			c[i] = fmt.Sprintf("%q (%s)", labelOf(g.Title, g.ID), count(g.ChildCount, "child", "children"))
		}
		parts = append(parts, "created: "+strings.Join(c, ", "))
	}
	if len(e.Updated) > 0 {
		u := make([]string, len(e.Updated))
		for i, g := range e.Updated {
			u[i] = fmt.Sprintf("%q +%d -%d children", labelOf(g.Title, g.ID), len(g.AddedChildIDs), len(g.RemovedChildIDs))
		}
		parts = append(parts, "updated: "+strings.Join(u, ", "))
	}
	return strings.TrimSpace("group " + strings.Join(parts, " | "))
}

func (e *moveEndEvent) compact() string {
	parts := make([]string, len(e.Nodes))
	for i, n := range e.Nodes {
		parts[i] = fmt.Sprintf("%q %s", labelOf(n.Title, n.ID), strings.Join(n.Reasons, "; "))
	}
	return "move-end: " + strings.Join(parts, ", ")
}

// ---- the reducer ----

// watchReducer holds the last layout and pins and turns each frame into
// semantic events.
type watchReducer struct {
	layout  *wireLayout
	pins    map[string]bool
	spatial *spatialView
}

func newWatchReducer() *watchReducer { return &watchReducer{pins: map[string]bool{}} }

// baseline takes a frame of a fresh connection's opening burst as the
// starting point, without events.
func (r *watchReducer) baseline(event string, data json.RawMessage) {
	switch event {
	case "canvas-layout-update":
		if l, _ := decodeLayoutFrame(data); l != nil {
			r.layout = l
			r.spatial = analyse(l, r.pins)
		}
	case "context-pins-changed":
		r.pins = decodePins(data)
		if r.layout != nil {
			r.spatial = analyse(r.layout, r.pins)
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

func metaOf(kind string, data json.RawMessage) eventMeta {
	var m struct {
		Timestamp any `json:"timestamp"`
		SessionID any `json:"sessionId"`
	}
	_ = json.Unmarshal(data, &m)
	meta := eventMeta{Type: kind}
	meta.Timestamp, _ = m.Timestamp.(string)
	meta.SessionID, _ = m.SessionID.(string)
	return meta
}

func decodePins(data json.RawMessage) map[string]bool {
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

func decodeLayoutFrame(data json.RawMessage) (*wireLayout, error) {
	var f struct {
		Layout *wireLayout `json:"layout"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return f.Layout, nil
}

func nodeTitle(n *wireNode) *string {
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

func summarize(n *wireNode, id string) nodeSummary {
	if n == nil {
		return nodeSummary{ID: id, NodeType: "markdown"}
	}
	return nodeSummary{ID: n.ID, Title: nodeTitle(n), NodeType: n.Type}
}

func summarizeEdge(e *wireEdge, nodes map[string]*wireNode) edgeSummary {
	return edgeSummary{ID: e.ID, EdgeType: e.Type, FromID: e.From, ToID: e.To,
		FromTitle: nodeTitle(nodes[e.From]), ToTitle: nodeTitle(nodes[e.To])}
}

func nodeMap(l *wireLayout) map[string]*wireNode {
	m := make(map[string]*wireNode, len(l.Nodes))
	for _, n := range l.Nodes {
		if n != nil {
			m[n.ID] = n
		}
	}
	return m
}

func edgeMap(l *wireLayout) map[string]*wireEdge {
	m := make(map[string]*wireEdge, len(l.Edges))
	for _, e := range l.Edges {
		if e != nil {
			m[e.ID] = e
		}
	}
	return m
}

// missingKeys returns the keys of a that b lacks, sorted.
func missingKeys[V any](a, b map[string]V) []string {
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
	next := decodePins(data)
	added, removed := missingKeys(next, r.pins), missingKeys(r.pins, next)
	r.pins = next
	if r.layout == nil {
		return nil
	}
	r.spatial = analyse(r.layout, r.pins)
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	nodes := nodeMap(r.layout)
	ev := &contextPinEvent{eventMeta: metaOf("context-pin", data), Added: []nodeSummary{}, Removed: []nodeSummary{}}
	for _, id := range added {
		ev.Added = append(ev.Added, summarize(nodes[id], id))
	}
	for _, id := range removed {
		ev.Removed = append(ev.Removed, summarize(nodes[id], id))
	}
	return []watchEvent{ev}
}

func (r *watchReducer) layoutChanged(data json.RawMessage) []watchEvent {
	next, err := decodeLayoutFrame(data)
	if err != nil || next == nil {
		return nil
	}
	if r.layout == nil {
		r.layout, r.spatial = next, analyse(next, r.pins)
		return nil
	}
	meta := func(kind string) eventMeta { return metaOf(kind, data) }
	prev, prevSpatial := r.layout, r.spatial
	nextSpatial := analyse(next, r.pins)
	prevNodes, nextNodes := nodeMap(prev), nodeMap(next)
	prevEdges, nextEdges := edgeMap(prev), edgeMap(next)
	var events []watchEvent

	// Nodes added (groups are reported as "group created").
	var added []nodeSummary
	for _, id := range missingKeys(nextNodes, prevNodes) {
		if n := nextNodes[id]; n.Type != "group" {
			added = append(added, summarize(n, id))
		}
	}
	if len(added) > 0 {
		events = append(events, &addEvent{eventMeta: meta("add"), Nodes: added})
	}

	if ids := missingKeys(nextEdges, prevEdges); len(ids) > 0 {
		ev := &connectEvent{eventMeta: meta("connect")}
		for _, id := range ids {
			ev.Edges = append(ev.Edges, summarizeEdge(nextEdges[id], nextNodes))
		}
		events = append(events, ev)
	}

	goneNodes, goneEdges := missingKeys(prevNodes, nextNodes), missingKeys(prevEdges, nextEdges)
	if len(goneNodes) > 0 || len(goneEdges) > 0 {
		ev := &removeEvent{eventMeta: meta("remove"), Nodes: []nodeSummary{}, Edges: []edgeSummary{}}
		for _, id := range goneNodes {
			ev.Nodes = append(ev.Nodes, summarize(prevNodes[id], id))
		}
		for _, id := range goneEdges {
			ev.Edges = append(ev.Edges, summarizeEdge(prevEdges[id], prevNodes))
		}
		events = append(events, ev)
	}

	if ev := groupChanges(prevNodes, nextNodes, meta("group")); ev != nil {
		events = append(events, ev)
	}
	if ev := moveChanges(prevNodes, nextNodes, prevSpatial, nextSpatial, meta("move-end")); ev != nil {
		events = append(events, ev)
	}
	r.layout, r.spatial = next, nextSpatial
	return events
}

func groupChildren(n *wireNode) []string {
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

func without(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func groupChanges(prev, next map[string]*wireNode, meta eventMeta) watchEvent {
	ev := &groupEvent{eventMeta: meta, Created: []groupCreated{}, Updated: []groupUpdated{}}
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
			ev.Created = append(ev.Created, groupCreated{ID: id, Title: nodeTitle(g), ChildCount: len(groupChildren(g))})
			continue
		}
		before, after := groupChildren(old), groupChildren(g)
		if slices.Equal(before, after) {
			continue
		}
		ev.Updated = append(ev.Updated, groupUpdated{ID: id, Title: nodeTitle(g),
			AddedChildIDs: without(after, before), RemovedChildIDs: without(before, after), ChildCount: len(after)})
	}
	if len(ev.Created) == 0 && len(ev.Updated) == 0 {
		return nil
	}
	return ev
}

func moveChanges(prev, next map[string]*wireNode, before, after *spatialView, meta eventMeta) watchEvent {
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
		title := labelOf(nodeTitle(n), pin)
		for _, id := range without(now, old) {
			if isMoved(id) {
				push(id, fmt.Sprintf("entered pinned neighborhood of %q", title))
			}
		}
		for _, id := range without(old, now) {
			if isMoved(id) {
				push(id, fmt.Sprintf("left pinned neighborhood of %q", title))
			}
		}
		if isMoved(pin) {
			push(pin, "pinned neighborhood changed")
		}
	}
	ev := &moveEndEvent{eventMeta: meta}
	for _, id := range moved {
		if len(reasons[id]) == 0 {
			continue
		}
		rs := make([]string, 0, len(reasons[id]))
		for r := range reasons[id] {
			rs = append(rs, r)
		}
		slices.Sort(rs)
		ev.Nodes = append(ev.Nodes, movedNode{nodeSummary: summarize(next[id], id), Reasons: rs})
	}
	if len(ev.Nodes) == 0 {
		return nil
	}
	return ev
}

// ---- spatial analysis ----

// spatialView is what the reducer compares between layouts: each node's
// cluster peers and each pin's neighbours (sorted ids).
type spatialView struct {
	peers map[string][]string
	hoods map[string][]string
}

type rect struct{ x, y, w, h float64 }

func rectOf(n *wireNode) rect {
	return rect{n.Position.X, n.Position.Y, n.Size.Width, n.Size.Height}
}

func gap(a, b rect) float64 {
	gx := math.Max(0, math.Max(a.x, b.x)-math.Min(a.x+a.w, b.x+b.w))
	gy := math.Max(0, math.Max(a.y, b.y)-math.Min(a.y+a.h, b.y+b.h))
	return math.Hypot(gx, gy)
}

func centreDistance(a, b rect) float64 {
	return math.Hypot(a.x+a.w/2-(b.x+b.w/2), a.y+a.h/2-(b.y+b.h/2))
}

func analyse(l *wireLayout, pins map[string]bool) *spatialView {
	v := &spatialView{peers: map[string][]string{}, hoods: map[string][]string{}}
	var nodes []*wireNode
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
		ri := rectOf(nodes[i])
		for _, j := range order[oi+1:] {
			rj := rectOf(nodes[j])
			if rj.x > ri.x+ri.w+watchClusterGap {
				break
			}
			if gap(ri, rj) <= watchClusterGap {
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
		pr := rectOf(p)
		var cands []near
		for _, n := range nodes {
			if pins[n.ID] {
				continue
			}
			if d := centreDistance(pr, rectOf(n)); d <= watchNeighborRadius {
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
