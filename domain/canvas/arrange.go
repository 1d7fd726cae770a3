package canvas

import (
	"cmp"
	"math"
	"slices"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// ArrangeLayouts are the layouts arrange accepts; the first is the default.
var ArrangeLayouts = messages.ArrangeLayouts

// Arrange geometry. Column and flow stack nodes from the start point with
// ArrangeGap between them. Grid packs "units" (a node, or a group frame
// with its members) into edge-connected components and the components into
// rows, with its own gaps; a group unit's box is its members' bounds with a
// pad of 40 (the frame itself is planned with GroupPad, see PlanArrange).
const (
	ArrangeStartX = 40.0
	ArrangeStartY = 80.0
	ArrangeGap    = 24.0

	gridUnitGapX      = 96.0
	gridUnitGapY      = 72.0
	gridComponentGapX = 220.0
	gridComponentGapY = 180.0
	gridMinRowWidth   = 900.0
	gridMaxRowWidth   = 3200.0
	gridGroupPad      = 40.0
	gridObstacleGap   = 72.0
)

// ArrangeMove is the planned geometry of one node.
type ArrangeMove struct {
	ID       string `json:"id"`
	Position Point  `json:"position"`
	// Size is set only for group frames the grid layout re-frames around
	// their moved members (GroupPad and title bar, as a fit frame).
	Size *Size `json:"size,omitempty"`
}

// ArrangePlan is what an arrange would do; nothing is changed until the
// caller applies it.
type ArrangePlan struct {
	Layout string `json:"layout"`
	// Arranged counts the nodes the arrange positions: the movable nodes and
	// the group members that move with their group.
	Arranged int `json:"arranged"`
	// Moves lists, in layout order, every node whose position or size
	// changes. Members of a moved group are listed with their translated
	// position, so the caller applies the moves as they are, without
	// translating group children, and then re-fits "fit" group frames.
	Moves []ArrangeMove `json:"moves"`
}

// ArrangeLocked reports whether arrange must leave n where it is: the node
// is pinned (its own flag; context pins do not lock), docked, or carries
// data.arrangeLocked = true.
func ArrangeLocked(n *Node) bool {
	return n.Pinned || n.DockPosition != "" || n.Data["arrangeLocked"] == true
}

// PlanArrange plans an arrange of the board in layout ("" means grid). It
// does not modify s. An unknown layout is a 400.
//
// Two reference quirks are not copied:
//
//   - Arranged counts group members that move with their group in every
//     layout. The reference counted them for grid but not for column and
//     flow, although there too the members move with their frame (its quirk
//     30); one meaning for all layouts keeps "Auto-arranged N nodes"
//     comparable.
//   - Grid plans a group's frame as the fit frame around its moved members
//     (GroupPad 56 and the title bar), for fit and manual frames alike. The
//     reference planned it with the grid's pad of 40, so fit frames were
//     re-fitted to pad 56 afterwards while manual frames kept pad 40 (its
//     quirk 11). Packing still uses the pad-40 boxes, so positions match the
//     reference; a fit frame's planned geometry is what re-fitting gives,
//     and the obstacle pass checks the frame the group will really have.
func PlanArrange(s *State, layout string) (ArrangePlan, *messages.Error) {
	switch layout {
	case "", "grid":
		return planGrid(s), nil
	case "column", "flow":
		return planSequence(s, layout), nil
	}
	return ArrangePlan{}, messages.BadRequest(`Invalid layout: "%s". Use: grid, column, flow`, layout)
}

// lockedGroupIDs returns the ids of every group that is locked or lists a
// locked child, together with the ids of the children they list: arrange
// leaves such a group and its members alone.
func lockedGroupIDs(s *State) map[string]bool {
	out := map[string]bool{}
	s.Nodes.Each(func(n *Node) bool {
		if n.Type != "group" {
			return true
		}
		children := n.Children()
		locked := ArrangeLocked(n)
		for _, id := range children {
			if c, ok := s.Nodes.Get(id); ok && ArrangeLocked(c) {
				locked = true
			}
		}
		if locked {
			out[n.ID] = true
			for _, id := range children {
				out[id] = true
			}
		}
		return true
	})
	return out
}

// plannedMove is one node's planned geometry before it is compared with the
// current one.
type plannedMove struct {
	node *Node
	pos  Point
	size *Size
}

func (p plannedMove) rect() Rect {
	r := Rect{X: p.pos.X, Y: p.pos.Y, W: p.node.Size.Width, H: p.node.Size.Height}
	if p.size != nil {
		r.W, r.H = p.size.Width, p.size.Height
	}
	return r
}

// movesOf keeps the planned moves that change something, in layout order.
func movesOf(planned []plannedMove) []ArrangeMove {
	slices.SortFunc(planned, func(a, b plannedMove) int { return cmp.Compare(a.node.Ord, b.node.Ord) })
	moves := []ArrangeMove{}
	for _, p := range planned {
		resized := p.size != nil && *p.size != p.node.Size
		if p.pos == p.node.Position && !resized {
			continue
		}
		moves = append(moves, ArrangeMove{ID: p.node.ID, Position: p.pos, Size: p.size})
	}
	return moves
}

// planSequence is the column and flow layouts: every movable top-level node
// in layout order, from (40,80), each below (column) or right of (flow) the
// previous one with a 24 gap. Grouped nodes, locked nodes, and groups that
// are locked or hold a locked child (with their children) stay put. A group
// carries the children it lists along by its own move. Nothing avoids the
// nodes that stay put.
func planSequence(s *State, layout string) ArrangePlan {
	excluded := lockedGroupIDs(s)
	var movable []*Node
	s.Nodes.Each(func(n *Node) bool {
		if n.ParentGroup() != "" || ArrangeLocked(n) {
			excluded[n.ID] = true
		}
		if !excluded[n.ID] {
			movable = append(movable, n)
		}
		return true
	})
	placed := make(map[string]bool, len(movable))
	for _, n := range movable {
		placed[n.ID] = true
	}

	pos := map[string]Point{}
	carried := map[string]bool{}
	x, y := ArrangeStartX, ArrangeStartY
	for _, n := range movable {
		target := Point{X: x, Y: y}
		if n.Type == "group" {
			dx, dy := target.X-n.Position.X, target.Y-n.Position.Y
			for _, id := range n.Children() {
				c, ok := s.Nodes.Get(id)
				if !ok || c.Type == "group" || placed[id] {
					continue
				}
				carried[id] = true
				cur, moved := pos[id]
				if !moved {
					cur = c.Position
				}
				pos[id] = Point{X: cur.X + dx, Y: cur.Y + dy}
			}
		}
		pos[n.ID] = target
		if layout == "column" {
			y += n.Size.Height + ArrangeGap
		} else {
			x += n.Size.Width + ArrangeGap
		}
	}

	planned := make([]plannedMove, 0, len(pos))
	for id, p := range pos {
		n, _ := s.Nodes.Get(id)
		planned = append(planned, plannedMove{node: n, pos: p})
	}
	return ArrangePlan{Layout: layout, Arranged: len(movable) + len(carried), Moves: movesOf(planned)}
}

// planGrid is the grid layout. Locked nodes, and groups that are locked or
// hold a locked child (with their children), stay put and act as obstacles
// unless docked; everything else is packed by gridLayout and then, if it
// would land on an obstacle, shifted down below it.
func planGrid(s *State) ArrangePlan {
	excluded := lockedGroupIDs(s)
	var movable []*Node
	s.Nodes.Each(func(n *Node) bool {
		if ArrangeLocked(n) {
			excluded[n.ID] = true
		}
		if !excluded[n.ID] {
			movable = append(movable, n)
		}
		return true
	})
	planned := gridLayout(movable, s.Edges.All())
	shiftBelowObstacles(s, planned, excluded)
	return ArrangePlan{Layout: "grid", Arranged: len(movable), Moves: movesOf(planned)}
}

// shiftBelowObstacles moves every planned box down, as one block, until
// none overlaps a node that stays put: each round, if some planned box
// overlaps an undocked excluded node, everything shifts so the topmost
// planned box starts 72 below the lowest such blocker. It gives up after
// one round per obstacle (plus one).
func shiftBelowObstacles(s *State, planned []plannedMove, excluded map[string]bool) {
	obstacles := 0
	for id := range excluded {
		if n, ok := s.Nodes.Get(id); ok && n.DockPosition == "" {
			obstacles++
		}
	}
	if len(planned) == 0 || obstacles == 0 {
		return
	}
	for attempt := 0; attempt <= obstacles; attempt++ {
		minY, blockerBottom, blocked := math.Inf(1), math.Inf(-1), false
		for _, p := range planned {
			r := p.rect()
			minY = math.Min(minY, r.Y)
			for _, o := range s.Nodes.Overlapping(r, 0) {
				if excluded[o.ID] && o.DockPosition == "" && o.ID != p.node.ID {
					blocked = true
					blockerBottom = math.Max(blockerBottom, o.Position.Y+o.Size.Height)
				}
			}
		}
		if !blocked {
			return
		}
		dy := blockerBottom + gridObstacleGap - minY
		if dy <= 0 {
			return
		}
		for i := range planned {
			planned[i].pos.Y += dy
		}
	}
}

// arrangeUnit is what the grid packs: one node, or a group frame with its
// members (whose box is the members' bounds with pad 40).
type arrangeUnit struct {
	members []*Node
	group   *Node // set for a group with members
	origin  Point
	size    Size
}

func (u *arrangeUnit) before(o *arrangeUnit) int {
	if c := cmp.Compare(u.origin.Y, o.origin.Y); c != 0 {
		return c
	}
	return cmp.Compare(u.origin.X, o.origin.X)
}

func byTopLeft(a, b *Node) int {
	if c := cmp.Compare(a.Position.Y, b.Position.Y); c != 0 {
		return c
	}
	return cmp.Compare(a.Position.X, b.Position.X)
}

// frameAround is the group frame around rects with pad on every side and
// the group title bar on top.
func frameAround(rects []Rect, pad float64) (Point, Size) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, r := range rects {
		minX, minY = math.Min(minX, r.X), math.Min(minY, r.Y)
		maxX, maxY = math.Max(maxX, r.Right()), math.Max(maxY, r.Bottom())
	}
	return Point{X: minX - pad, Y: minY - pad - GroupTitlebar},
		Size{Width: maxX - minX + 2*pad, Height: maxY - minY + 2*pad + GroupTitlebar}
}

// gridUnits builds the units: first the groups, top to bottom then left to
// right (a group with movable members becomes one unit with them, a
// memberless group a unit of its own frame), then every other node in the
// same order. A member is a non-group node whose parentGroup is a movable
// group.
func gridUnits(movable []*Node) ([]*arrangeUnit, map[string]int) {
	byID := make(map[string]*Node, len(movable))
	for _, n := range movable {
		byID[n.ID] = n
	}
	children := map[string][]*Node{}
	var groups []*Node
	for _, n := range movable {
		if n.Type == "group" {
			groups = append(groups, n)
			continue
		}
		if p, ok := byID[n.ParentGroup()]; ok && p.Type == "group" {
			children[p.ID] = append(children[p.ID], n)
		}
	}
	slices.SortStableFunc(groups, byTopLeft)

	var units []*arrangeUnit
	unitOf := map[string]int{}
	for _, g := range groups {
		members := children[g.ID]
		u := &arrangeUnit{members: []*Node{g}, origin: g.Position, size: g.Size}
		if len(members) > 0 {
			rects := make([]Rect, len(members))
			for i, m := range members {
				rects[i] = m.Rect()
			}
			u = &arrangeUnit{members: members, group: g}
			u.origin, u.size = frameAround(rects, gridGroupPad)
		}
		unitOf[g.ID] = len(units)
		for _, m := range members {
			unitOf[m.ID] = len(units)
		}
		units = append(units, u)
	}
	var rest []*Node
	for _, n := range movable {
		if _, done := unitOf[n.ID]; !done {
			rest = append(rest, n)
		}
	}
	slices.SortStableFunc(rest, byTopLeft)
	for _, n := range rest {
		unitOf[n.ID] = len(units)
		units = append(units, &arrangeUnit{members: []*Node{n}, origin: n.Position, size: n.Size})
	}
	return units, unitOf
}

// gridComponents groups units linked by edges (either direction) into
// connected components. Each component's units are sorted top-left first
// and the components by their first unit; ties keep discovery order.
func gridComponents(units []*arrangeUnit, unitOf map[string]int, edges []*Edge) [][]*arrangeUnit {
	adj := make([][]int, len(units))
	linked := map[[2]int]bool{}
	link := func(a, b int) {
		if !linked[[2]int{a, b}] {
			linked[[2]int{a, b}] = true
			adj[a] = append(adj[a], b)
		}
	}
	for _, e := range edges {
		f, okF := unitOf[e.From]
		t, okT := unitOf[e.To]
		if !okF || !okT || f == t {
			continue
		}
		link(f, t)
		link(t, f)
	}
	seen := make([]bool, len(units))
	var comps [][]*arrangeUnit
	for i := range units {
		if seen[i] {
			continue
		}
		seen[i] = true
		stack := []int{i}
		var comp []*arrangeUnit
		for len(stack) > 0 {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, units[cur])
			for _, nb := range adj[cur] {
				if !seen[nb] {
					seen[nb] = true
					stack = append(stack, nb)
				}
			}
		}
		slices.SortStableFunc(comp, (*arrangeUnit).before)
		comps = append(comps, comp)
	}
	slices.SortStableFunc(comps, func(a, b []*arrangeUnit) int { return a[0].before(b[0]) })
	return comps
}

// packComponent places a component's units left to right with 96 gaps,
// wrapping (72 gap) past a row width of max(900, ceil(√Σ area)). It
// returns the offsets of the units and the component's size.
func packComponent(comp []*arrangeUnit) ([]Point, Size) {
	area := 0.0
	for _, u := range comp {
		area += u.size.Width * u.size.Height
	}
	target := math.Max(gridMinRowWidth, math.Ceil(math.Sqrt(area)))
	offsets := make([]Point, len(comp))
	x, y, rowH, maxW := 0.0, 0.0, 0.0, 0.0
	for i, u := range comp {
		if x > 0 && x+u.size.Width > target {
			x, y, rowH = 0, y+rowH+gridUnitGapY, 0
		}
		offsets[i] = Point{X: x, Y: y}
		x += u.size.Width + gridUnitGapX
		rowH = math.Max(rowH, u.size.Height)
		maxW = math.Max(maxW, x-gridUnitGapX)
	}
	return offsets, Size{Width: math.Max(0, maxW), Height: y + rowH}
}

// gridLayout plans the grid: units, components, packing; components are
// placed left to right from (40,80) with 220 gaps, wrapping (180 gap) past
// x = 3200. A group unit's members move by the unit's delta and the frame
// becomes the fit frame around them (GroupPad).
func gridLayout(movable []*Node, edges []*Edge) []plannedMove {
	units, unitOf := gridUnits(movable)
	target := make(map[*arrangeUnit]Point, len(units))
	x, y, rowH := ArrangeStartX, ArrangeStartY, 0.0
	for _, comp := range gridComponents(units, unitOf, edges) {
		offsets, size := packComponent(comp)
		if x > ArrangeStartX && x+size.Width > gridMaxRowWidth {
			x, y, rowH = ArrangeStartX, y+rowH+gridComponentGapY, 0
		}
		for i, u := range comp {
			target[u] = Point{X: x + offsets[i].X, Y: y + offsets[i].Y}
		}
		x += size.Width + gridComponentGapX
		rowH = math.Max(rowH, size.Height)
	}

	var planned, frames []plannedMove
	for _, u := range units {
		t := target[u]
		dx, dy := t.X-u.origin.X, t.Y-u.origin.Y
		rects := make([]Rect, 0, len(u.members))
		for _, m := range u.members {
			p := Point{X: m.Position.X + dx, Y: m.Position.Y + dy}
			planned = append(planned, plannedMove{node: m, pos: p})
			rects = append(rects, Rect{X: p.X, Y: p.Y, W: m.Size.Width, H: m.Size.Height})
		}
		if u.group != nil {
			pos, size := frameAround(rects, GroupPad)
			frames = append(frames, plannedMove{node: u.group, pos: pos, size: &size})
		}
	}
	return append(planned, frames...)
}
