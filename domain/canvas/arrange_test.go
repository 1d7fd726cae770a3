package canvas

import (
	"fmt"
	"strings"
	"testing"
)

// movesText renders a plan's moves as "id@x,y" (plus " wxh" for a resized
// frame), in plan order.
func movesText(p ArrangePlan) string {
	parts := make([]string, len(p.Moves))
	for i, m := range p.Moves {
		parts[i] = fmt.Sprintf("%s@%g,%g", m.ID, m.Position.X, m.Position.Y)
		if m.Size != nil {
			parts[i] += fmt.Sprintf(" %gx%g", m.Size.Width, m.Size.Height)
		}
	}
	return strings.Join(parts, " ")
}

func plan(t *testing.T, st *State, layout string) ArrangePlan {
	t.Helper()
	p, err := PlanArrange(st, layout)
	if err != nil {
		t.Fatalf("PlanArrange(%q): %v", layout, err)
	}
	return p
}

func TestPlanArrangeInvalidLayout(t *testing.T) {
	_, err := PlanArrange(board{}.state(t), "spiral")
	if err == nil || err.Status != 400 || err.Message != `Invalid layout: "spiral". Use: grid, column, flow` {
		t.Fatalf("err = %+v", err)
	}
}

func TestArrangeLocked(t *testing.T) {
	docked := nd(t, "d", "status", 0, 0, 1, 1, `{}`)
	docked.DockPosition = "left"
	pinned := nd(t, "p", "markdown", 0, 0, 1, 1, `{}`)
	pinned.Pinned = true
	tests := []struct {
		n    *Node
		want bool
	}{
		{nd(t, "n", "markdown", 0, 0, 1, 1, `{}`), false},
		{nd(t, "l", "markdown", 0, 0, 1, 1, `{"arrangeLocked":true}`), true},
		{nd(t, "s", "markdown", 0, 0, 1, 1, `{"arrangeLocked":"yes"}`), false}, // only the boolean locks
		{docked, true},
		{pinned, true},
	}
	for _, tt := range tests {
		if got := ArrangeLocked(tt.n); got != tt.want {
			t.Errorf("ArrangeLocked(%s) = %v, want %v", tt.n.ID, got, tt.want)
		}
	}
}

func TestPlanArrangeColumnAndFlow(t *testing.T) {
	nodes := func() []*Node {
		status := nd(t, "status-main", "status", 40, 80, 300, 120, `{}`)
		status.DockPosition = "left"
		locked := nd(t, "locked", "markdown", 900, 900, 50, 50, `{}`)
		locked.Pinned = true
		return []*Node{
			status,
			nd(t, "file", "file", 700, 700, 360, 200, `{"path":"/p/a.ts"}`),
			nd(t, "md", "markdown", 100, 900, 360, 200, `{"title":"M"}`),
			locked,
			nd(t, "ctx-pinned", "markdown", 5, 5, 100, 50, `{}`),
		}
	}
	// Context pins do not lock: ctx-pinned is arranged.
	st := board{nodes: nodes(), pins: []string{"ctx-pinned"}}.state(t)
	tests := []struct {
		layout, want string
		arranged     int
	}{
		{"column", "file@40,80 md@40,304 ctx-pinned@40,528", 3},
		{"flow", "file@40,80 md@424,80 ctx-pinned@808,80", 3},
	}
	for _, tt := range tests {
		p := plan(t, st, tt.layout)
		if got := movesText(p); got != tt.want || p.Arranged != tt.arranged || p.Layout != tt.layout {
			t.Errorf("%s: moves %q arranged %d layout %q; want %q, %d", tt.layout, got, p.Arranged, p.Layout, tt.want, tt.arranged)
		}
	}
}

func TestPlanArrangeColumnGroups(t *testing.T) {
	lockedChild := nd(t, "lc", "markdown", 3050, 3050, 10, 10, `{"parentGroup":"lg"}`)
	lockedChild.Pinned = true
	st := board{nodes: []*Node{
		nd(t, "g", "group", 500, 500, 400, 300, `{"children":["c1","c2","gone"],"frameMode":"fit"}`),
		nd(t, "c1", "markdown", 550, 550, 100, 100, `{"parentGroup":"g"}`),
		nd(t, "c2", "markdown", 0, 0, 100, 100, `{}`),  // listed but not pointing back: placed itself
		nd(t, "n", "markdown", 40, 528, 100, 50, `{}`), // already where column puts it: no move
		nd(t, "lg", "group", 3000, 3000, 400, 300, `{"children":["lc","lc2"]}`),
		lockedChild,
		nd(t, "lc2", "markdown", 3100, 3100, 10, 10, `{}`),                    // child of a locked group: stays
		nd(t, "stray", "markdown", 7000, 7000, 10, 10, `{"parentGroup":"g"}`), // grouped, not listed: stays
	}}.state(t)
	p := plan(t, st, "column")
	// g moves by (-460,-420) and carries c1; c2 is placed in its own right.
	want := "g@40,80 c1@90,130 c2@40,404"
	if got := movesText(p); got != want {
		t.Errorf("moves = %q, want %q", got, want)
	}
	// g, c2, n placed, plus c1 carried by g (see PlanArrange on quirk 30).
	if p.Arranged != 4 {
		t.Errorf("arranged = %d, want 4", p.Arranged)
	}
}

// The reference's grid test: a group with one child at (64,84) plus one loose
// node. The grid packs the child's pad-40 box, (24,12) 440×312, first at
// (40,80), so the child moves by (16,68) to (80,152); the loose node's
// component follows at 40+440+220 = 700. The reference then set the frame
// to that pad-40 box, (40,80) 440×312, and re-fitted it with pad 56 to
// (24,64). PlanArrange plans the pad-56 frame directly (quirk 11), so the
// planned frame is already the reference's final (24,64) 472×344 and the
// caller's re-fit of fit frames leaves it unchanged.
func TestPlanArrangeGridGroupExample(t *testing.T) {
	st := board{nodes: []*Node{
		nd(t, "group-a", "group", 40, 40, 600, 360, `{"title":"Group A","children":["child-a"],"frameMode":"fit"}`),
		nd(t, "child-a", "markdown", 64, 84, 360, 200, `{"title":"Child A","parentGroup":"group-a"}`),
		nd(t, "loose-a", "markdown", 500, 500, 360, 200, `{}`),
	}}.state(t)
	p := plan(t, st, "grid")
	if got, want := movesText(p), "group-a@24,64 472x344 child-a@80,152 loose-a@700,80"; got != want {
		t.Errorf("moves = %q, want %q", got, want)
	}
	if p.Arranged != 3 || p.Layout != "grid" {
		t.Errorf("arranged %d layout %q", p.Arranged, p.Layout)
	}
	child := p.Moves[1].Position
	refit := Point{X: child.X - GroupPad, Y: child.Y - GroupPad - GroupTitlebar}
	if refit != p.Moves[0].Position {
		t.Errorf("re-fit frame %v differs from the planned frame %v", refit, p.Moves[0].Position)
	}
	if p2 := plan(t, st, ""); movesText(p2) != movesText(p) {
		t.Errorf("empty layout should be grid: %q", movesText(p2))
	}
}

func TestPlanArrangeGrid(t *testing.T) {
	tests := []struct {
		name     string
		nodes    func() []*Node
		edges    []*Edge
		want     string
		arranged int
	}{
		{"edge-linked units pack together", func() []*Node {
			return []*Node{
				nd(t, "a", "markdown", 0, 0, 100, 100, `{}`),
				nd(t, "b", "markdown", 200, 0, 100, 100, `{}`),
				nd(t, "c", "markdown", 400, 0, 100, 100, `{}`),
				nd(t, "d", "markdown", 0, 300, 100, 100, `{}`),
			}
		}, []*Edge{{ID: "e", From: "c", To: "a", Type: "flow"}, {ID: "dangling", From: "a", To: "ghost", Type: "flow"}},
			"a@40,80 b@556,80 c@236,80 d@876,80", 4},
		{"components wrap past 3200", func() []*Node {
			return []*Node{
				nd(t, "n0", "markdown", 0, 0, 700, 100, `{}`),
				nd(t, "n1", "markdown", 0, 10, 700, 100, `{}`),
				nd(t, "n2", "markdown", 0, 20, 700, 100, `{}`),
				nd(t, "n3", "markdown", 0, 30, 700, 100, `{}`),
			}
		}, nil, "n0@40,80 n1@960,80 n2@1880,80 n3@40,360", 4},
		{"units wrap inside a component past max(900, √area)", func() []*Node {
			return []*Node{
				nd(t, "u0", "markdown", 0, 0, 500, 100, `{}`),
				nd(t, "u1", "markdown", 0, 10, 500, 100, `{}`),
				nd(t, "u2", "markdown", 0, 20, 500, 100, `{}`),
				nd(t, "u3", "markdown", 0, 30, 500, 100, `{}`),
			}
		}, []*Edge{{ID: "e1", From: "u0", To: "u1", Type: "flow"}, {ID: "e2", From: "u2", To: "u1", Type: "flow"},
			{ID: "e3", From: "u3", To: "u2", Type: "flow"}},
			"u0@40,80 u1@40,252 u2@40,424 u3@40,596", 4},
		{"a manual frame is re-framed like a fit frame (quirk 11)", func() []*Node {
			return []*Node{
				nd(t, "g", "group", 0, 0, 1200, 1200, `{"children":["c"],"frameMode":"manual"}`),
				nd(t, "c", "markdown", 100, 200, 360, 200, `{"parentGroup":"g"}`),
			}
		}, nil, "g@24,64 472x344 c@80,152", 2},
		{"a memberless group moves as a plain frame", func() []*Node {
			return []*Node{nd(t, "g", "group", 300, 300, 600, 400, `{"children":[]}`)}
		}, nil, "g@40,80", 1},
		{"a grouped child's edge links its group's unit", func() []*Node {
			return []*Node{
				nd(t, "x", "markdown", 0, 0, 100, 100, `{}`),
				nd(t, "y", "markdown", 0, 10, 100, 100, `{}`),
				nd(t, "g", "group", 0, 500, 300, 300, `{"children":["c"]}`),
				nd(t, "c", "markdown", 100, 600, 100, 100, `{"parentGroup":"g"}`),
			}
		}, []*Edge{{ID: "e", From: "x", To: "c", Type: "relation"}},
			// Units: g (pad-40 box around c: 60,528 180x212), then x, y.
			// g's component {g, x} starts with x (y=0): x at 0, g at 196,
			// width 376; y's component follows at 40+376+220 = 636. c moves
			// by (176,-448); its frame is planned with pad 56.
			"x@40,80 y@636,80 g@220,64 212x244 c@276,152", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan(t, board{nodes: tt.nodes(), edges: tt.edges}.state(t), "grid")
			if got := movesText(p); got != tt.want || p.Arranged != tt.arranged {
				t.Errorf("moves %q arranged %d; want %q, %d", got, p.Arranged, tt.want, tt.arranged)
			}
		})
	}
}

func TestPlanArrangeGridLocksAndObstacles(t *testing.T) {
	pinned := func(n *Node) *Node { n.Pinned = true; return n }
	docked := func(n *Node) *Node { n.DockPosition = "left"; return n }
	tests := []struct {
		name     string
		nodes    func() []*Node
		want     string
		arranged int
	}{
		{"docked widgets are not obstacles", func() []*Node {
			return []*Node{
				docked(nd(t, "status-main", "status", 40, 80, 300, 120, `{}`)),
				nd(t, "n", "markdown", 1000, 1000, 100, 100, `{}`),
			}
		}, "n@40,80", 1},
		{"a locked node pushes the plan below it", func() []*Node {
			return []*Node{
				pinned(nd(t, "L", "markdown", 40, 80, 300, 200, `{}`)),
				nd(t, "n", "markdown", 1000, 1000, 100, 100, `{}`),
			}
		}, "n@40,352", 1},
		{"shifting repeats until clear", func() []*Node {
			return []*Node{
				pinned(nd(t, "L1", "markdown", 40, 80, 100, 100, `{}`)),
				nd(t, "n", "markdown", 1000, 1000, 100, 100, `{}`),
				nd(t, "L2", "markdown", 40, 300, 100, 100, `{"arrangeLocked":true}`),
			}
		}, "n@40,472", 1},
		{"a group holding a locked or docked child stays, with all its children", func() []*Node {
			return []*Node{
				nd(t, "g", "group", 2000, 2000, 400, 300, `{"children":["c1","c2"]}`),
				nd(t, "c1", "markdown", 2050, 2050, 100, 100, `{"parentGroup":"g"}`),
				docked(nd(t, "c2", "markdown", 2200, 2050, 100, 100, `{"parentGroup":"g"}`)),
				nd(t, "h", "group", 4000, 4000, 400, 300, `{"children":["d1"],"arrangeLocked":true}`),
				nd(t, "d1", "markdown", 4050, 4050, 100, 100, `{"parentGroup":"h"}`),
				nd(t, "n", "markdown", 1000, 1000, 100, 100, `{}`),
			}
		}, "n@40,80", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan(t, board{nodes: tt.nodes()}.state(t), "grid")
			if got := movesText(p); got != tt.want || p.Arranged != tt.arranged {
				t.Errorf("moves %q arranged %d; want %q, %d", got, p.Arranged, tt.want, tt.arranged)
			}
		})
	}
}

func TestPlanArrangeDoesNotMutate(t *testing.T) {
	st := board{nodes: []*Node{
		nd(t, "g", "group", 40, 40, 600, 360, `{"children":["c"]}`),
		nd(t, "c", "markdown", 64, 84, 360, 200, `{"parentGroup":"g"}`),
	}}.state(t)
	before := jsonOf(t, st.RawLayout())
	for _, layout := range ArrangeLayouts {
		plan(t, st, layout)
	}
	if after := jsonOf(t, st.RawLayout()); after != before {
		t.Errorf("state changed:\n before %s\n after  %s", before, after)
	}
}

func TestArrangePlanJSON(t *testing.T) {
	p := ArrangePlan{Layout: "grid", Arranged: 1, Moves: []ArrangeMove{
		{ID: "g", Position: Point{40, 80}, Size: &Size{440, 312}}, {ID: "n", Position: Point{1, 2}},
	}}
	want := `{"layout":"grid","arranged":1,"moves":[{"id":"g","position":{"x":40,"y":80},"size":{"width":440,"height":312}},{"id":"n","position":{"x":1,"y":2}}]}`
	if got := jsonOf(t, p); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	empty := plan(t, board{}.state(t), "column")
	if got := jsonOf(t, empty); got != `{"layout":"column","arranged":0,"moves":[]}` {
		t.Errorf("empty plan = %s", got)
	}
}

func BenchmarkPlanArrangeGrid10k(b *testing.B) {
	st := canvasWith(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := PlanArrange(st, "grid"); err != nil {
			b.Fatal(err)
		}
	}
}
