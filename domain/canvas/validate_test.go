package canvas

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestValidate(t *testing.T) {
	status := nd(t, "status-main", "status", 40, 80, 300, 120, `{"phase":"idle"}`)
	status.DockPosition = "left"
	st := board{
		nodes: []*Node{
			status,
			nd(t, "a", "markdown", 100, 100, 200, 100, `{"title":"A"}`), // under the docked widget only
			nd(t, "g1", "group", 500, 0, 400, 300, `{"title":"G1","children":["c1","c2","c4"]}`),
			nd(t, "c1", "markdown", 550, 50, 100, 100, `{"title":"C1","parentGroup":"g1"}`), // inside
			nd(t, "c2", "markdown", 850, 50, 100, 100, `{"title":"C2","parentGroup":"g1"}`), // half out
			nd(t, "c3", "markdown", 2000, 2000, 50, 50, `{"parentGroup":"g1"}`),             // far outside
			nd(t, "c4", "markdown", 700, 180, 100, 100, `{"title":"C4"}`),                   // listed only
			nd(t, "x", "markdown", 600, 200, 150, 50, `{}`),                                 // non-member on the frame, over c4
			nd(t, "t1", "markdown", 3000, 0, 100, 100, `{}`),
			nd(t, "t2", "webpage", 3100, 0, 100, 100, `{"pageTitle":"Touching"}`), // touches t1 only
		},
		edges: []*Edge{
			{ID: "e1", From: "a", To: "c1", Type: "flow"},
			{ID: "e2", From: "a", To: "ghost", Type: "flow"},
			{ID: "e3", From: "ghost2", To: "a", Type: "relation"},
		},
	}.state(t)
	want := `{"ok":false,` +
		`"collisions":[{"aId":"g1","aTitle":"G1","bId":"x","bTitle":null},{"aId":"c4","aTitle":"C4","bId":"x","bTitle":null}],` +
		`"containments":[{"groupId":"g1","groupTitle":"G1","childId":"c1","childTitle":"C1"},{"groupId":"g1","groupTitle":"G1","childId":"c4","childTitle":"C4"}],` +
		`"containmentViolations":[{"groupId":"g1","groupTitle":"G1","childId":"c2","childTitle":"C2"},{"groupId":"g1","groupTitle":"G1","childId":"c3","childTitle":null}],` +
		`"missingEdgeEndpoints":[{"edgeId":"e2","from":"a","to":"ghost"},{"edgeId":"e3","from":"ghost2","to":"a"}],` +
		`"summary":{"nodes":10,"edges":3,"collisions":2,"containments":2,"containmentViolations":2,"missingEdgeEndpoints":2}}`
	if got := jsonOf(t, Validate(st)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestValidateGroupPairs(t *testing.T) {
	tests := []struct {
		name  string
		nodes func() []*Node
		want  string
	}{
		{"clean canvas", func() []*Node {
			return []*Node{nd(t, "a", "markdown", 0, 0, 10, 10, `{}`), nd(t, "b", "markdown", 10, 0, 10, 10, `{}`)}
		}, `{"ok":true,"collisions":[],"containments":[],"containmentViolations":[],"missingEdgeEndpoints":[],"summary":{"nodes":2,"edges":0,"collisions":0,"containments":0,"containmentViolations":0,"missingEdgeEndpoints":0}}`},
		{"member both listed and pointing is one pair; edges of the frame count as inside", func() []*Node {
			return []*Node{
				nd(t, "g", "group", 0, 0, 100, 100, `{"children":["c"]}`),
				nd(t, "c", "markdown", 0, 0, 100, 100, `{"parentGroup":"g"}`),
			}
		}, `{"ok":true,"collisions":[],"containments":[{"groupId":"g","groupTitle":null,"childId":"c","childTitle":null}],"containmentViolations":[],"missingEdgeEndpoints":[],"summary":{"nodes":2,"edges":0,"collisions":0,"containments":1,"containmentViolations":0,"missingEdgeEndpoints":0}}`},
		{"member listed before its group is still classified once, group first", func() []*Node {
			return []*Node{
				nd(t, "c", "markdown", 10, 10, 10, 10, `{"parentGroup":"g"}`),
				nd(t, "g", "group", 0, 0, 100, 100, `{"children":[]}`),
			}
		}, `{"ok":true,"collisions":[],"containments":[{"groupId":"g","groupTitle":null,"childId":"c","childTitle":null}],"containmentViolations":[],"missingEdgeEndpoints":[],"summary":{"nodes":2,"edges":0,"collisions":0,"containments":1,"containmentViolations":0,"missingEdgeEndpoints":0}}`},
		{"groups listing each other: the earlier one is the group", func() []*Node {
			return []*Node{
				nd(t, "g1", "group", 0, 0, 100, 100, `{"children":["g2"]}`),
				nd(t, "g2", "group", 50, 50, 100, 100, `{"children":["g1"]}`),
			}
		}, `{"ok":false,"collisions":[],"containments":[],"containmentViolations":[{"groupId":"g1","groupTitle":null,"childId":"g2","childTitle":null}],"missingEdgeEndpoints":[],"summary":{"nodes":2,"edges":0,"collisions":0,"containments":0,"containmentViolations":1,"missingEdgeEndpoints":0}}`},
		{"docked members and docked groups are ignored", func() []*Node {
			dockedChild := nd(t, "dc", "markdown", 500, 500, 10, 10, `{"parentGroup":"g"}`)
			dockedChild.DockPosition = "right"
			dockedGroup := nd(t, "dg", "group", 0, 0, 50, 50, `{"children":["far"]}`)
			dockedGroup.DockPosition = "left"
			return []*Node{
				nd(t, "g", "group", 0, 0, 100, 100, `{"children":["dc"]}`),
				dockedChild, dockedGroup,
				nd(t, "far", "markdown", 900, 900, 10, 10, `{"parentGroup":"dg"}`),
			}
		}, `{"ok":true,"collisions":[],"containments":[],"containmentViolations":[],"missingEdgeEndpoints":[],"summary":{"nodes":4,"edges":0,"collisions":0,"containments":0,"containmentViolations":0,"missingEdgeEndpoints":0}}`},
		{"a parentGroup naming a non-group is no membership", func() []*Node {
			return []*Node{
				nd(t, "m", "markdown", 0, 0, 100, 100, `{}`),
				nd(t, "c", "markdown", 10, 10, 10, 10, `{"parentGroup":"m"}`),
			}
		}, `{"ok":false,"collisions":[{"aId":"m","aTitle":null,"bId":"c","bTitle":null}],"containments":[],"containmentViolations":[],"missingEdgeEndpoints":[],"summary":{"nodes":2,"edges":0,"collisions":1,"containments":0,"containmentViolations":0,"missingEdgeEndpoints":0}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonOf(t, Validate(board{nodes: tt.nodes()}.state(t))); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// The indexed collision scan must report exactly the all-pairs collisions,
// in the same order.
func TestValidateCollisionsMatchAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for round := 0; round < 20; round++ {
		var nodes []*Node
		for i := 0; i < 200; i++ {
			n := nd(t, fmt.Sprintf("n%d", i), "markdown", float64(rng.IntN(5000)), float64(rng.IntN(5000)),
				float64(1+rng.IntN(400)), float64(1+rng.IntN(300)), `{}`)
			if rng.IntN(10) == 0 {
				n.DockPosition = "left"
			}
			nodes = append(nodes, n)
		}
		st := board{nodes: nodes}.state(t)
		all := st.Nodes.All()
		var want []Collision
		for i, a := range all {
			for _, b := range all[i+1:] {
				if a.DockPosition == "" && b.DockPosition == "" && overlapsStrictly(a.Rect(), b.Rect()) {
					want = append(want, Collision{AID: a.ID, BID: b.ID})
				}
			}
		}
		got := Validate(st).Collisions
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: collisions differ\n got  %v\n want %v", round, got, want)
		}
	}
}

func BenchmarkValidate10k(b *testing.B) {
	st := canvasWith(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Validate(st)
	}
}
