package canvas

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Spatial-context constants: nodes closer than ClusterGap (edge to edge)
// cluster together; nodes whose tops fall in the same ReadingRowHeight band
// read as one row; clusters sort in bands of ClusterRowHeight; a pinned
// node's neighbourhood is up to NeighborLimit nodes within NeighborRadius
// (centre to centre).
const (
	ClusterGap       = 200.0
	ReadingRowHeight = 100.0
	ClusterRowHeight = 200.0
	NeighborRadius   = 600.0
	NeighborLimit    = 5
)

// SpatialContextResult is GET /api/canvas/spatial-context: how the board is
// laid out, in terms an agent can use.
type SpatialContextResult struct {
	TotalNodes          int                  `json:"totalNodes"`
	Clusters            []Cluster            `json:"clusters"`
	NodesInReadingOrder []ReadingNode        `json:"nodesInReadingOrder"`
	PinnedNeighborhoods []PinnedNeighborhood `json:"pinnedNeighborhoods"`
	Annotations         []AnnotationContext  `json:"annotations"`
}

// Cluster is a group of two or more nodes that sit close together.
type Cluster struct {
	ID       string   `json:"id"`
	NodeIDs  []string `json:"nodeIds"`
	Label    string   `json:"label"`
	Centroid Point    `json:"centroid"`
	Bounds   Bounds   `json:"bounds"`
}

// ReadingNode is one node in reading order (rows top to bottom, left to
// right within a row).
type ReadingNode struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Title        *string `json:"title"`
	Content      *string `json:"content"`
	ClusterID    *string `json:"clusterId"`
	ReadingOrder int     `json:"readingOrder"`
}

// PinnedNeighborhood is a context-pinned node and the unpinned nodes
// nearest to it: the context a human implies by placing things near a pin.
type PinnedNeighborhood struct {
	PinnedNodeID    string     `json:"pinnedNodeId"`
	PinnedNodeTitle *string    `json:"pinnedNodeTitle"`
	Neighbors       []Neighbor `json:"neighbors"`
}

// Neighbor is a node near a pinned node; Distance is the centre-to-centre
// distance, rounded.
type Neighbor struct {
	ID       string  `json:"id"`
	Type     string  `json:"type"`
	Title    *string `json:"title"`
	Distance float64 `json:"distance"`
}

// SpatialContext analyses the whole board (docked widgets included):
// proximity clusters, reading order, pinned neighbourhoods and annotation
// targets.
func SpatialContext(s *State) SpatialContextResult {
	nodes := s.Nodes.All()
	clusters := detectClusters(s.Nodes, nodes)
	clusterOf := make(map[string]string, len(nodes))
	for _, c := range clusters {
		for _, id := range c.NodeIDs {
			clusterOf[id] = c.ID
		}
	}
	return SpatialContextResult{
		TotalNodes:          len(nodes),
		Clusters:            clusters,
		NodesInReadingOrder: readingOrder(nodes, clusterOf),
		PinnedNeighborhoods: pinnedNeighborhoods(s, nodes),
		Annotations:         annotationContexts(s),
	}
}

// gapDistance is the edge-to-edge distance between two boxes (0 when they
// touch or overlap).
func gapDistance(a, b Rect) float64 {
	gx := math.Max(0, math.Max(a.X, b.X)-math.Min(a.Right(), b.Right()))
	gy := math.Max(0, math.Max(a.Y, b.Y)-math.Min(a.Bottom(), b.Bottom()))
	return math.Hypot(gx, gy)
}

func centerDistance(a, b Rect) float64 {
	return math.Hypot(a.X+a.W/2-(b.X+b.W/2), a.Y+a.H/2-(b.Y+b.H/2))
}

// jsRound is Math.round: halves round towards +Inf.
func jsRound(f float64) float64 { return math.Floor(f + 0.5) }

// unionFind is a disjoint-set forest over node indexes.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u unionFind) union(a, b int) {
	if ra, rb := u.find(a), u.find(b); ra != rb {
		u[ra] = rb
	}
}

// detectClusters links every pair of nodes whose gap distance is at most
// ClusterGap (single linkage) and returns the groups of two or more.
//
// The reference compared all pairs, O(n²). Here each node asks the spatial
// index for the nodes within a box inflated by just over ClusterGap (every
// node within the gap distance is inside it) and checks the true distance,
// so the cost follows the number of near neighbours.
//
// Clusters are numbered cluster-0, cluster-1, … in the order their first
// member appears in layout order, then sorted by 200px bands of their
// centroid's y and by centroid x, as the reference does, so ids need not
// appear in order.
func detectClusters(set NodeSet, nodes []*Node) []Cluster {
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.ID] = i
	}
	uf := newUnionFind(len(nodes))
	for i, n := range nodes {
		r := n.Rect()
		for _, m := range set.Overlapping(r, ClusterGap+1) {
			j, ok := index[m.ID]
			if !ok || j <= i {
				continue
			}
			if gapDistance(r, m.Rect()) <= ClusterGap {
				uf.union(i, j)
			}
		}
	}
	var groups [][]*Node
	groupOf := map[int]int{}
	for i, n := range nodes {
		root := uf.find(i)
		g, ok := groupOf[root]
		if !ok {
			g = len(groups)
			groupOf[root] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], n)
	}
	clusters := []Cluster{}
	for _, members := range groups {
		if len(members) < 2 {
			continue
		}
		clusters = append(clusters, newCluster("cluster-"+strconv.Itoa(len(clusters)), members))
	}
	slices.SortStableFunc(clusters, func(a, b Cluster) int {
		ra, rb := math.Floor(a.Centroid.Y/ClusterRowHeight), math.Floor(b.Centroid.Y/ClusterRowHeight)
		if c := cmp.Compare(ra, rb); c != 0 {
			return c
		}
		return cmp.Compare(a.Centroid.X, b.Centroid.X)
	})
	return clusters
}

func newCluster(id string, members []*Node) Cluster {
	box := members[0].Rect()
	minX, minY, maxR, maxB := box.X, box.Y, box.Right(), box.Bottom()
	ids := make([]string, len(members))
	for i, m := range members {
		r := m.Rect()
		minX, minY = math.Min(minX, r.X), math.Min(minY, r.Y)
		maxR, maxB = math.Max(maxR, r.Right()), math.Max(maxB, r.Bottom())
		ids[i] = m.ID
	}
	return Cluster{
		ID: id, NodeIDs: ids, Label: clusterLabel(members),
		Centroid: Point{X: jsRound((minX + maxR) / 2), Y: jsRound((minY + maxB) / 2)},
		Bounds:   Bounds{X: minX, Y: minY, Width: maxR - minX, Height: maxB - minY},
	}
}

// clusterLabel names a cluster: the titles of a small titled cluster
// ("A, B"), else type counts in order of first appearance ("2 markdown,
// file"), prefixed by the first title when any member has one.
func clusterLabel(members []*Node) string {
	first := ""
	var titles []string
	for _, m := range members {
		if t := str(m.Data, "title"); t != "" {
			if first == "" {
				first = t
			}
			titles = append(titles, t)
		}
	}
	if first != "" && len(members) <= 3 {
		return strings.Join(titles[:min(3, len(titles))], ", ")
	}
	counts := map[string]int{}
	var types []string
	for _, m := range members {
		if _, seen := counts[m.Type]; !seen {
			types = append(types, m.Type)
		}
		counts[m.Type]++
	}
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = t
		if counts[t] > 1 {
			parts[i] = strconv.Itoa(counts[t]) + " " + t
		}
	}
	label := strings.Join(parts, ", ")
	if first != "" {
		return first + " + " + label
	}
	return label
}

// readingOrder sorts nodes by 100px rows of their top edge, then by x (ties
// keep layout order), and summarises each with the spatial budgets.
func readingOrder(nodes []*Node, clusterOf map[string]string) []ReadingNode {
	sorted := slices.Clone(nodes)
	slices.SortStableFunc(sorted, func(a, b *Node) int {
		ra, rb := math.Floor(a.Position.Y/ReadingRowHeight), math.Floor(b.Position.Y/ReadingRowHeight)
		if c := cmp.Compare(ra, rb); c != 0 {
			return c
		}
		return cmp.Compare(a.Position.X, b.Position.X)
	})
	out := make([]ReadingNode, len(sorted))
	for i, n := range sorted {
		budget := contextBudget(n, SpatialContextBudget, SpatialContextWebpageBudget)
		out[i] = ReadingNode{
			ID: n.ID, Type: n.Type, Title: titleOrNil(n),
			Content:      nonEmpty(SummarizeNodeForAgentContext(n, budget)),
			ReadingOrder: i,
		}
		if c, ok := clusterOf[n.ID]; ok {
			out[i].ClusterID = &c
		}
	}
	return out
}

// pinnedNeighborhoods lists, for each context-pinned node in layout order,
// the nearest unpinned nodes within NeighborRadius. Candidates come from
// the spatial index: a node whose centre is within the radius lies inside
// the pin's box inflated by it.
func pinnedNeighborhoods(s *State, nodes []*Node) []PinnedNeighborhood {
	out := []PinnedNeighborhood{}
	if len(s.Pins) == 0 {
		return out
	}
	pins := pinSet(s.Pins)
	type near struct {
		n    *Node
		dist float64
	}
	for _, p := range nodes {
		if !pins[p.ID] {
			continue
		}
		pr := p.Rect()
		var cands []near
		for _, m := range s.Nodes.Overlapping(pr, NeighborRadius+1) {
			if pins[m.ID] {
				continue
			}
			if d := centerDistance(pr, m.Rect()); d <= NeighborRadius {
				cands = append(cands, near{m, d})
			}
		}
		slices.SortStableFunc(cands, func(a, b near) int { return cmp.Compare(a.dist, b.dist) })
		hood := PinnedNeighborhood{PinnedNodeID: p.ID, PinnedNodeTitle: titleOrNil(p), Neighbors: []Neighbor{}}
		for _, c := range cands[:min(NeighborLimit, len(cands))] {
			hood.Neighbors = append(hood.Neighbors, Neighbor{
				ID: c.n.ID, Type: c.n.Type, Title: titleOrNil(c.n), Distance: jsRound(c.dist),
			})
		}
		out = append(out, hood)
	}
	return out
}
