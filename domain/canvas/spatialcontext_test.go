package canvas

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestGapDistance(t *testing.T) {
	tests := []struct {
		a, b Rect
		want float64
	}{
		{Rect{0, 0, 100, 100}, Rect{50, 50, 100, 100}, 0},   // overlap
		{Rect{0, 0, 100, 100}, Rect{100, 0, 10, 10}, 0},     // touching
		{Rect{0, 0, 100, 100}, Rect{150, 20, 10, 10}, 50},   // side by side
		{Rect{0, 0, 100, 100}, Rect{130, 140, 10, 10}, 50},  // diagonal 30/40
		{Rect{130, 140, 10, 10}, Rect{0, 0, 100, 100}, 50},  // symmetric
		{Rect{0, 0, 100, 100}, Rect{0, 300, 100, 100}, 200}, // exactly the cluster gap
	}
	for _, tt := range tests {
		if got := gapDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("gapDistance(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClusters(t *testing.T) {
	st := board{nodes: []*Node{
		// Discovered first but lower on the board: numbered cluster-0,
		// sorted after cluster-1.
		nd(t, "c", "markdown", 1000, 1000, 100, 100, `{}`),
		nd(t, "a", "markdown", 0, 0, 101, 101, `{"title":"A"}`),
		nd(t, "b", "markdown", 250, 0, 101, 101, `{"title":"B"}`), // 149 from a
		nd(t, "d", "file", 1300, 1000, 100, 100, `{"title":"D"}`), // exactly 200 from c
		nd(t, "lonely", "markdown", 3000, 0, 100, 100, `{"title":"L"}`),
		nd(t, "x", "status", 0, 3000, 10, 10, `{}`),
		nd(t, "y", "status", 20, 3000, 10, 10, `{}`),
		nd(t, "p1", "markdown", 0, 5000, 10, 10, `{}`),
		nd(t, "p2", "markdown", 20, 5000, 10, 10, `{"title":"Lead"}`),
		nd(t, "p3", "file", 40, 5000, 10, 10, `{}`),
		nd(t, "p4", "markdown", 60, 5000, 10, 10, `{"title":"Other"}`),
		nd(t, "e", "markdown", 1601, 1000, 100, 100, `{}`), // 201 from d: alone
	}}.state(t)
	got := SpatialContext(st).Clusters
	want := `[` +
		`{"id":"cluster-1","nodeIds":["a","b"],"label":"A, B","centroid":{"x":176,"y":51},"bounds":{"x":0,"y":0,"width":351,"height":101}},` +
		`{"id":"cluster-0","nodeIds":["c","d"],"label":"D","centroid":{"x":1200,"y":1050},"bounds":{"x":1000,"y":1000,"width":400,"height":100}},` +
		`{"id":"cluster-2","nodeIds":["x","y"],"label":"2 status","centroid":{"x":15,"y":3005},"bounds":{"x":0,"y":3000,"width":30,"height":10}},` +
		`{"id":"cluster-3","nodeIds":["p1","p2","p3","p4"],"label":"Lead + 3 markdown, file","centroid":{"x":35,"y":5005},"bounds":{"x":0,"y":5000,"width":70,"height":10}}` +
		`]`
	if js := jsonOf(t, got); js != want {
		t.Errorf("clusters\n got  %s\n want %s", js, want)
	}
}

func TestClusterLabel(t *testing.T) {
	mk := func(typ, title string) *Node {
		n := &Node{Type: typ, Data: map[string]any{}}
		if title != "" {
			n.Data["title"] = title
		}
		return n
	}
	tests := []struct {
		members []*Node
		want    string
	}{
		{[]*Node{mk("markdown", "A"), mk("file", ""), mk("file", "C")}, "A, C"},
		{[]*Node{mk("markdown", ""), mk("file", "")}, "markdown, file"},
		{[]*Node{mk("file", ""), mk("markdown", ""), mk("file", ""), mk("file", "")}, "3 file, markdown"},
		{[]*Node{mk("file", ""), mk("file", "F"), mk("file", ""), mk("image", "I")}, "F + 3 file, image"},
	}
	for _, tt := range tests {
		if got := clusterLabel(tt.members); got != tt.want {
			t.Errorf("clusterLabel = %q, want %q", got, tt.want)
		}
	}
}

func TestReadingOrder(t *testing.T) {
	long := strings.Repeat("word ", 200)
	st := board{nodes: []*Node{
		nd(t, "r1-right", "markdown", 500, 150, 100, 50, `{"title":"Right","content":"`+long+`"}`),
		nd(t, "r1-left", "markdown", 100, 120, 100, 50, `{"title":""}`),
		nd(t, "r0", "webpage", 900, 10, 100, 50, `{"url":"https://e.com/","content":"`+long+`"}`),
		nd(t, "r1-left-twin", "markdown", 100, 199, 50, 50, `{}`),
		nd(t, "neg", "markdown", 0, -1, 10, 10, `{}`),
	}}.state(t)
	got := SpatialContext(st).NodesInReadingOrder
	var ids []string
	for i, r := range got {
		ids = append(ids, r.ID)
		if r.ReadingOrder != i {
			t.Errorf("%s readingOrder = %d, want %d", r.ID, r.ReadingOrder, i)
		}
	}
	// y=-1 is row -1; ties in a row keep layout order.
	if want := "neg,r0,r1-left,r1-left-twin,r1-right"; strings.Join(ids, ",") != want {
		t.Errorf("order = %s, want %s", strings.Join(ids, ","), want)
	}
	if c := got[4].Content; c == nil || len([]rune(*c)) != 320 {
		t.Errorf("markdown content should be cut to 320 characters: %v", c)
	}
	if c := got[1].Content; c == nil || len([]rune(*c)) != 640 {
		t.Errorf("webpage content should be cut to 640 characters: %v", c)
	}
	if got[2].Title == nil || *got[2].Title != "" || got[3].Title != nil || got[3].Content != nil {
		t.Errorf("title/content: %s", jsonOf(t, got[2:4]))
	}
	if got[2].ClusterID == nil || *got[2].ClusterID != "cluster-0" || got[0].ClusterID == nil || got[1].ClusterID != nil {
		t.Errorf("cluster ids: %s", jsonOf(t, got))
	}
}

func TestPinnedNeighborhoods(t *testing.T) {
	st := board{
		nodes: []*Node{
			nd(t, "P", "markdown", 0, 0, 100, 100, `{"title":"P"}`),
			nd(t, "Q", "markdown", 150, 0, 100, 100, `{}`),
			nd(t, "n1", "markdown", 0, 150, 100, 100, `{"title":"one"}`),
			nd(t, "n2", "file", 300, 300, 100, 100, `{}`),
			nd(t, "n3", "markdown", 0, 600, 100, 100, `{}`), // exactly 600 from P
			nd(t, "n4", "markdown", 0, 601, 100, 100, `{}`), // 601: too far
		},
		pins: []string{"Q", "P"},
	}.state(t)
	want := `[` +
		`{"pinnedNodeId":"P","pinnedNodeTitle":"P","neighbors":[{"id":"n1","type":"markdown","title":"one","distance":150},{"id":"n2","type":"file","title":null,"distance":424},{"id":"n3","type":"markdown","title":null,"distance":600}]},` +
		`{"pinnedNodeId":"Q","pinnedNodeTitle":null,"neighbors":[{"id":"n1","type":"markdown","title":"one","distance":212},{"id":"n2","type":"file","title":null,"distance":335}]}` +
		`]`
	if got := jsonOf(t, SpatialContext(st).PinnedNeighborhoods); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// At most five neighbours, nearest first; equal distances keep layout order.
	nodes := []*Node{nd(t, "pin", "markdown", 1000, 1000, 100, 100, `{}`)}
	for i := 7; i >= 1; i-- {
		nodes = append(nodes, nd(t, fmt.Sprintf("n%d", i), "markdown", 1000+float64(i)*50, 1000, 100, 100, `{}`))
	}
	nodes = append(nodes, nd(t, "n1-twin", "markdown", 1000-50, 1000, 100, 100, `{}`))
	hood := SpatialContext(board{nodes: nodes, pins: []string{"pin"}}.state(t)).PinnedNeighborhoods[0]
	var ids []string
	for _, n := range hood.Neighbors {
		ids = append(ids, n.ID)
	}
	if want := "n1,n1-twin,n2,n3,n4"; strings.Join(ids, ",") != want {
		t.Errorf("neighbours = %s, want %s", strings.Join(ids, ","), want)
	}
}

func TestSpatialContextEmptyShapes(t *testing.T) {
	want := `{"totalNodes":0,"clusters":[],"nodesInReadingOrder":[],"pinnedNeighborhoods":[],"annotations":[]}`
	if got := jsonOf(t, SpatialContext(board{}.state(t))); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// bruteClusters is the reference's all-pairs single linkage, returning the
// member lists of clusters with two or more nodes in discovery order.
func bruteClusters(nodes []*Node) [][]string {
	uf := newUnionFind(len(nodes))
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if gapDistance(nodes[i].Rect(), nodes[j].Rect()) <= ClusterGap {
				uf.union(i, j)
			}
		}
	}
	var out [][]string
	at := map[int]int{}
	for i, n := range nodes {
		r := uf.find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], n.ID)
	}
	return slices.DeleteFunc(out, func(m []string) bool { return len(m) < 2 })
}

// The indexed clustering must find exactly the all-pairs clusters.
func TestClustersMatchAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 20; round++ {
		var nodes []*Node
		for i := 0; i < 150; i++ {
			x, y := float64(rng.IntN(6000)-1000), float64(rng.IntN(6000)-1000)
			w, h := float64(rng.IntN(400)), float64(rng.IntN(300))
			nodes = append(nodes, nd(t, fmt.Sprintf("n%d", i), "markdown", x, y, w, h, `{}`))
		}
		st := board{nodes: nodes}.state(t)
		want := bruteClusters(st.Nodes.All())
		got := detectClusters(st.Nodes, st.Nodes.All())
		// Index the clusters by their discovery number.
		byNum := make([][]string, len(got))
		for _, c := range got {
			var k int
			fmt.Sscanf(c.ID, "cluster-%d", &k)
			byNum[k] = c.NodeIDs
		}
		if fmt.Sprint(byNum) != fmt.Sprint(want) {
			t.Fatalf("round %d: clusters differ\n got  %v\n want %v", round, byNum, want)
		}
	}
}

func BenchmarkSpatialContext10k(b *testing.B) {
	st := canvasWith(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SpatialContext(st)
	}
}
