package canvas

import (
	"cmp"
	"slices"
)

// ValidationResult is the layout check of GET /api/canvas/validate.
type ValidationResult struct {
	// OK is true when there are no collisions, containment violations or
	// dangling edges.
	OK                    bool              `json:"ok"`
	Collisions            []Collision       `json:"collisions"`
	Containments          []Containment     `json:"containments"`
	ContainmentViolations []Containment     `json:"containmentViolations"`
	MissingEdgeEndpoints  []MissingEndpoint `json:"missingEdgeEndpoints"`
	Summary               ValidationSummary `json:"summary"`
}

// Collision is two overlapping nodes that are not a group and its member,
// in layout order. Titles are the serialized titles (null when none).
type Collision struct {
	AID    string  `json:"aId"`
	ATitle *string `json:"aTitle"`
	BID    string  `json:"bId"`
	BTitle *string `json:"bTitle"`
}

// Containment is a group and one of its members.
type Containment struct {
	GroupID    string  `json:"groupId"`
	GroupTitle *string `json:"groupTitle"`
	ChildID    string  `json:"childId"`
	ChildTitle *string `json:"childTitle"`
}

// MissingEndpoint is an edge whose from or to names no node.
type MissingEndpoint struct {
	EdgeID string `json:"edgeId"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// ValidationSummary counts the findings; Nodes and Edges count the whole
// canvas, docked nodes included.
type ValidationSummary struct {
	Nodes                 int `json:"nodes"`
	Edges                 int `json:"edges"`
	Collisions            int `json:"collisions"`
	Containments          int `json:"containments"`
	ContainmentViolations int `json:"containmentViolations"`
	MissingEdgeEndpoints  int `json:"missingEdgeEndpoints"`
}

// overlapsStrictly is the validation overlap test: boxes that only touch
// do not overlap.
func overlapsStrictly(a, b Rect) bool {
	return a.X < b.Right() && a.Right() > b.X && a.Y < b.Bottom() && a.Bottom() > b.Y
}

// fullyContains reports whether child lies inside group, edges included.
func fullyContains(group, child Rect) bool {
	return child.X >= group.X && child.Y >= group.Y && child.Right() <= group.Right() && child.Bottom() <= group.Bottom()
}

// membership answers "is c a member of group g": c names g as its
// parentGroup, or g lists c among its children.
type membership map[string]map[string]bool

func (m membership) isMember(g, c *Node) bool {
	return g.Type == "group" && (c.ParentGroup() == g.ID || m[g.ID][c.ID])
}

// Validate checks the layout of the undocked nodes:
//
//   - every overlapping pair that is not a group and its member is a
//     collision (a group overlapping a non-member included);
//   - every group and member pair is a containment when the member lies
//     fully inside the frame, else a containment violation;
//   - every edge whose endpoint is missing is reported.
//
// The reference only classified group/member pairs that overlap, so a member
// lying completely outside its frame went unreported (its quirk 14). Here
// every group/member pair is classified, so such a member is a containment
// violation. Findings keep the reference's order: pairs by the layout
// position of their earlier node, then of their later node.
//
// Overlapping pairs come from the spatial index, so a large, sparse canvas
// does not cost O(n²).
func Validate(s *State) ValidationResult {
	res := ValidationResult{
		Collisions: []Collision{}, Containments: []Containment{}, ContainmentViolations: []Containment{},
		MissingEdgeEndpoints: []MissingEndpoint{},
	}
	members := membership{}
	byParent := map[string][]*Node{}
	var groups []*Node
	s.Nodes.Each(func(n *Node) bool {
		if n.DockPosition != "" {
			return true
		}
		if n.Type == "group" {
			groups = append(groups, n)
			set := map[string]bool{}
			for _, id := range n.Children() {
				set[id] = true
			}
			members[n.ID] = set
		}
		if p := n.ParentGroup(); p != "" {
			byParent[p] = append(byParent[p], n)
		}
		return true
	})

	s.Nodes.Each(func(a *Node) bool {
		if a.DockPosition != "" {
			return true
		}
		for _, b := range s.Nodes.Overlapping(a.Rect(), 0) {
			if b.Ord <= a.Ord || b.DockPosition != "" || !overlapsStrictly(a.Rect(), b.Rect()) {
				continue
			}
			if members.isMember(a, b) || members.isMember(b, a) {
				continue // classified with the group pairs below
			}
			res.Collisions = append(res.Collisions, Collision{
				AID: a.ID, ATitle: nonEmpty(Title(a)), BID: b.ID, BTitle: nonEmpty(Title(b)),
			})
		}
		return true
	})

	for _, p := range groupPairs(s, groups, byParent, members) {
		c := Containment{
			GroupID: p.group.ID, GroupTitle: nonEmpty(Title(p.group)),
			ChildID: p.child.ID, ChildTitle: nonEmpty(Title(p.child)),
		}
		if fullyContains(p.group.Rect(), p.child.Rect()) {
			res.Containments = append(res.Containments, c)
		} else {
			res.ContainmentViolations = append(res.ContainmentViolations, c)
		}
	}

	s.Edges.Each(func(e *Edge) bool {
		_, fromOK := s.Nodes.Get(e.From)
		_, toOK := s.Nodes.Get(e.To)
		if !fromOK || !toOK {
			res.MissingEdgeEndpoints = append(res.MissingEdgeEndpoints, MissingEndpoint{EdgeID: e.ID, From: e.From, To: e.To})
		}
		return true
	})

	res.Summary = ValidationSummary{
		Nodes: s.Nodes.Len(), Edges: s.Edges.Len(),
		Collisions: len(res.Collisions), Containments: len(res.Containments),
		ContainmentViolations: len(res.ContainmentViolations), MissingEdgeEndpoints: len(res.MissingEdgeEndpoints),
	}
	res.OK = len(res.Collisions) == 0 && len(res.ContainmentViolations) == 0 && len(res.MissingEdgeEndpoints) == 0
	return res
}

type groupPair struct{ group, child, first, second *Node }

// groupPairs returns every undocked group/member pair once, ordered like the
// reference's pair scan. When two nodes are each other's member, the one
// earlier in layout order is taken as the group, as the reference's check
// order does.
func groupPairs(s *State, groups []*Node, byParent map[string][]*Node, members membership) []groupPair {
	seen := map[[2]uint64]bool{}
	var pairs []groupPair
	add := func(x, y *Node) {
		if x.ID == y.ID || x.DockPosition != "" || y.DockPosition != "" {
			return
		}
		first, second := x, y
		if second.Ord < first.Ord {
			first, second = second, first
		}
		key := [2]uint64{first.Ord, second.Ord}
		if seen[key] {
			return
		}
		seen[key] = true
		g, c := first, second
		if !members.isMember(first, second) {
			g, c = second, first
		}
		pairs = append(pairs, groupPair{group: g, child: c, first: first, second: second})
	}
	for _, g := range groups {
		for _, id := range g.Children() {
			if c, ok := s.Nodes.Get(id); ok {
				add(g, c)
			}
		}
		for _, c := range byParent[g.ID] {
			add(g, c)
		}
	}
	slices.SortFunc(pairs, func(a, b groupPair) int {
		if c := cmp.Compare(a.first.Ord, b.first.Ord); c != 0 {
			return c
		}
		return cmp.Compare(a.second.Ord, b.second.Ord)
	})
	return pairs
}
