package canvas

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Group frame geometry (server side).
const (
	GroupPad       = 56.0
	GroupTitlebar  = 32.0
	groupPackGap   = 32.0
	groupRowMin    = 1200.0
	groupRowMax    = 1800.0
	groupGap       = 48.0
	manualChildGap = 24.0
)

// ChildLayouts are the accepted childLayout values.
var ChildLayouts = messages.ChildLayouts

// A node belongs to at most one group: data.parentGroup names it, and the
// group's data.children lists it. Groups do not nest (a group is never a
// member), which keeps moves and refits well defined.

// IsFitFrame reports whether a group's frame follows its members.
func (n *Node) IsFitFrame() bool {
	mode, _ := n.DataString("frameMode")
	return mode != "manual"
}

// members returns a group's member nodes that exist, in children order.
func members(tx *Tx, g *Node) []*Node {
	ids := g.Children()
	out := make([]*Node, 0, len(ids))
	for _, id := range ids {
		if n, ok := tx.Node(id); ok && n.Type != "group" {
			out = append(out, n)
		}
	}
	return out
}

// fitBoundsOf is the fit frame around nodes: pad 56 and a 32px title bar.
func fitBoundsOf(nodes []*Node) (Rect, bool) {
	if len(nodes) == 0 {
		return Rect{}, false
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, n := range nodes {
		r := n.Rect()
		minX, minY = min(minX, r.X), min(minY, r.Y)
		maxX, maxY = max(maxX, r.Right()), max(maxY, r.Bottom())
	}
	return Rect{
		X: minX - GroupPad, Y: minY - GroupPad - GroupTitlebar,
		W: (maxX - minX) + 2*GroupPad, H: (maxY - minY) + 2*GroupPad + GroupTitlebar,
	}, true
}

// fitBounds is fitBoundsOf for ids (missing ids and groups skipped).
func fitBounds(tx *Tx, ids []string) Rect {
	var nodes []*Node
	for _, id := range ids {
		if n, ok := tx.Node(id); ok && n.Type != "group" {
			nodes = append(nodes, n)
		}
	}
	r, _ := fitBoundsOf(nodes)
	return r
}

// refitGroup resizes a fit-mode group around its members (no-op for a
// manual frame or a group without members).
func refitGroup(tx *Tx, groupID string) {
	g, ok := tx.Node(groupID)
	if !ok || g.Type != "group" || !g.IsFitFrame() {
		return
	}
	r, ok := fitBoundsOf(members(tx, g))
	if !ok || r == g.Rect() {
		return
	}
	c := g.Clone()
	c.Position, c.Size = Point{r.X, r.Y}, Size{r.W, r.H}
	tx.PutNode(c)
}

// setMembers writes a group's children list and each member's parentGroup.
func setChildren(tx *Tx, g *Node, ids []string) *Node {
	c := g.Clone()
	c.Data["children"] = toAnyList(ids)
	tx.PutNode(c)
	return c
}

// detach removes id from its current group (refitting that group), so a node
// never ends up listed by two groups.
func detach(tx *Tx, n *Node) {
	parent := n.ParentGroup()
	if parent == "" {
		return
	}
	if g, ok := tx.Node(parent); ok {
		kept := slices.DeleteFunc(slices.Clone(g.Children()), func(id string) bool { return id == n.ID })
		setChildren(tx, g, kept)
		refitGroup(tx, parent)
	}
	c := n.Clone()
	delete(c.Data, "parentGroup")
	tx.PutNode(c)
}

// checkMembers validates candidate member ids: they must exist, not be
// groups, and not be the group itself. wording selects the reference's
// messages ("Missing" for node.add, "missing" for group.create).
func checkMembers(tx *Tx, groupID string, ids []string, prefix string, capital bool) ([]string, *messages.Error) {
	var missing, invalid, out []string
	for _, id := range ids {
		if id == "" {
			return nil, messages.BadRequest("%s: child ids must be non-empty node IDs.", prefix)
		}
		n, ok := tx.Node(id)
		switch {
		case !ok:
			missing = append(missing, id)
		case n.Type == "group" || id == groupID:
			invalid = append(invalid, id)
		case !slices.Contains(out, id):
			out = append(out, id)
		}
	}
	word := "missing"
	if capital {
		word = "Missing"
	}
	if len(missing) > 0 {
		return nil, messages.BadRequest("%s: %s child node ID(s): %s.", prefix, word, strings.Join(missing, ", "))
	}
	if len(invalid) > 0 {
		return nil, messages.BadRequest("%s: Invalid group child ID(s): %s. Groups cannot contain groups or themselves.", prefix, strings.Join(invalid, ", "))
	}
	return out, nil
}

// groupOptions shape how new members are arranged.
type groupOptions struct {
	preservePositions bool
	layout            string
	keepFrame         bool
}

// groupNodes adds members to a group. Members of another group leave it
// first. With preservePositions the members stay put and a fit frame fits
// them; otherwise they are laid out (packed rows for a fit frame, the
// requested layout inside a manual frame).
func groupNodes(tx *Tx, groupID string, ids []string, opts groupOptions) {
	g, _ := tx.Node(groupID)
	for _, id := range ids {
		n, _ := tx.Node(id)
		if n.ParentGroup() != "" && n.ParentGroup() != groupID {
			detach(tx, n)
		}
	}
	g, _ = tx.Node(groupID)
	children := slices.Clone(g.Children())
	for _, id := range ids {
		if !slices.Contains(children, id) {
			children = append(children, id)
		}
		n, _ := tx.Node(id)
		if n.ParentGroup() != groupID {
			c := n.Clone()
			c.Data["parentGroup"] = groupID
			tx.PutNode(c)
		}
	}
	g = setChildren(tx, g, children)
	if opts.preservePositions {
		if !opts.keepFrame {
			refitGroup(tx, groupID)
		}
		return
	}
	layoutMembers(tx, g, opts.layout)
}

// layoutMembers arranges a group's members.
func layoutMembers(tx *Tx, g *Node, layout string) {
	ms := members(tx, g)
	if len(ms) == 0 {
		return
	}
	slices.SortStableFunc(ms, func(a, b *Node) int {
		if c := cmp.Compare(a.Position.Y, b.Position.Y); c != 0 {
			return c
		}
		return cmp.Compare(a.Position.X, b.Position.X)
	})
	move := func(n *Node, p Point) {
		if n.Position != p {
			c := n.Clone()
			c.Position = p
			tx.PutNode(c)
		}
	}
	if !g.IsFitFrame() {
		left := g.Position.X + GroupPad
		top := g.Position.Y + GroupTitlebar + GroupPad
		right := g.Position.X + g.Size.Width - GroupPad
		x, y, rowH := left, top, 0.0
		for _, n := range ms {
			switch layout {
			case "column":
				move(n, Point{left, y})
				y += n.Size.Height + manualChildGap
			case "flow":
				move(n, Point{x, top})
				x += n.Size.Width + manualChildGap
			default: // grid
				if x > left && x+n.Size.Width > right {
					x, y, rowH = left, y+rowH+manualChildGap, 0
				}
				move(n, Point{x, y})
				x += n.Size.Width + manualChildGap
				rowH = max(rowH, n.Size.Height)
			}
		}
		return
	}
	// Fit frame: pack the members in rows from their top-left corner.
	startX, startY := math.Inf(1), math.Inf(1)
	widest, area := 0.0, 0.0
	for _, n := range ms {
		startX, startY = min(startX, n.Position.X), min(startY, n.Position.Y)
		widest = max(widest, n.Size.Width)
		area += n.Size.Width * n.Size.Height
	}
	target := max(widest, min(groupRowMax, max(groupRowMin, math.Ceil(math.Sqrt(area)))))
	x, y, rowH := startX, startY, 0.0
	for _, n := range ms {
		if x > startX && x+n.Size.Width > startX+target {
			x, y, rowH = startX, y+rowH+groupPackGap, 0
		}
		move(n, Point{x, y})
		x += n.Size.Width + groupPackGap
		rowH = max(rowH, n.Size.Height)
	}
	refitGroup(tx, g.ID)
	resolveGroupCollision(tx, g.ID)
}

// resolveGroupCollision moves a fit group (and its members) clear of other
// group frames: right past a blocker whose centre is to its left, else down.
func resolveGroupCollision(tx *Tx, groupID string) {
	for i := 0; i < 100; i++ {
		g, _ := tx.Node(groupID)
		r := g.Rect()
		var blocker *Node
		for _, o := range tx.State().Nodes.Overlapping(r, 0) {
			if o.Type == "group" && o.ID != groupID {
				blocker = o
				break
			}
		}
		if blocker == nil {
			return
		}
		b := blocker.Rect()
		dx, dy := 0.0, 0.0
		if r.X >= b.X+b.W/2 {
			dx = b.Right() + groupGap - r.X
		} else {
			dy = b.Bottom() + groupGap - r.Y
		}
		translateGroup(tx, g, dx, dy)
	}
}

// translateGroup moves a group frame and every member by (dx, dy).
func translateGroup(tx *Tx, g *Node, dx, dy float64) {
	if dx == 0 && dy == 0 {
		return
	}
	c := g.Clone()
	c.Position = Point{g.Position.X + dx, g.Position.Y + dy}
	tx.PutNode(c)
	for _, m := range members(tx, g) {
		mc := m.Clone()
		mc.Position = Point{m.Position.X + dx, m.Position.Y + dy}
		tx.PutNode(mc)
	}
}

// GroupSpec is what creating a group takes, from node.add or group.create.
type GroupSpec struct {
	Title       string
	Color       string
	ChildIDs    []string
	ChildLayout string
	X, Y, W, H  *float64
	Data        map[string]any
}

// CreateGroup creates a group frame and groups its members in one step.
// Without a frame (x, y, width, height) it fits the members and keeps their
// positions; a frame with childLayout lays them out inside it.
func CreateGroup(tx *Tx, spec GroupSpec) (*Node, *messages.Error) {
	if spec.ChildLayout != "" && !slices.Contains(ChildLayouts, spec.ChildLayout) {
		return nil, messages.BadRequest("Invalid childLayout: %q. Use: grid, column, flow", spec.ChildLayout)
	}
	title := spec.Title
	if title == "" {
		title = "Group"
	}
	data := make(map[string]any, len(spec.Data)+4)
	for k, v := range spec.Data {
		data[k] = v
	}
	data["title"] = title
	explicit := spec.X != nil || spec.Y != nil || spec.W != nil || spec.H != nil
	data["frameMode"] = "fit"
	if explicit {
		data["frameMode"] = "manual"
	}
	data["children"] = []any{}
	if spec.Color != "" {
		data["color"] = spec.Color
	}
	g := &Node{Type: "group", ZIndex: 0, Data: data, Size: DefaultSizes["group"]}
	if spec.W != nil {
		g.Size.Width = *spec.W
	}
	if spec.H != nil {
		g.Size.Height = *spec.H
	}
	if g.Size.Width <= 0 || g.Size.Height <= 0 {
		return nil, messages.BadRequest(msgBadSize)
	}
	switch {
	case spec.X != nil && spec.Y != nil:
		g.Position = Point{*spec.X, *spec.Y}
	case len(spec.ChildIDs) > 0 && spec.X == nil && spec.Y == nil:
		r := fitBounds(tx, spec.ChildIDs)
		g.Position, g.Size = Point{r.X, r.Y}, Size{r.W, r.H}
	default:
		g.Position = FindOpenPosition(&tx.State().Nodes, g.Size.Width, g.Size.Height)
	}
	g.ID = tx.NewNodeID("group")
	tx.PutNode(g)
	if len(spec.ChildIDs) > 0 {
		groupNodes(tx, g.ID, spec.ChildIDs, groupOptions{
			preservePositions: spec.ChildLayout == "", layout: spec.ChildLayout, keepFrame: explicit,
		})
		tx.Describe("groupNodes", `Added group node "`+title+`" with `+itoa(len(spec.ChildIDs))+` nodes`)
	} else {
		tx.Describe("addNode", `Added group node "`+title+`"`)
	}
	tx.EmitLayout()
	g, _ = tx.Node(g.ID)
	return g, nil
}

// GroupCreate runs group.create (POST /api/canvas/group).
func GroupCreate(tx *Tx, in *messages.GroupCreateInput) (*Node, *messages.Error) {
	spec := GroupSpec{X: in.X, Y: in.Y, W: in.Width, H: in.Height}
	if in.Title != nil {
		spec.Title = *in.Title
	}
	if in.Color != nil {
		spec.Color = *in.Color
	}
	if in.ChildLayout != nil {
		spec.ChildLayout = *in.ChildLayout
	}
	ids, err := checkMembers(tx, "", in.ChildIDs, "Cannot create group", false)
	if err != nil {
		return nil, err
	}
	spec.ChildIDs = ids
	return CreateGroup(tx, spec)
}

// GroupAdd runs group.add (POST /api/canvas/group/add).
func GroupAdd(tx *Tx, in *messages.GroupAddInput) (*Node, *messages.Error) {
	if in.GroupID == "" || len(in.ChildIDs) == 0 {
		return nil, messages.BadRequest("Missing groupId or childIds.")
	}
	g, ok := tx.Node(in.GroupID)
	if !ok || g.Type != "group" {
		return nil, messages.BadRequest("Group not found or no valid children.")
	}
	layout := ""
	if in.ChildLayout != nil {
		layout = *in.ChildLayout
		if !slices.Contains(ChildLayouts, layout) {
			return nil, messages.BadRequest("Invalid childLayout: %q. Use: grid, column, flow", layout)
		}
	}
	ids, err := checkMembers(tx, g.ID, in.ChildIDs, "Cannot group nodes", false)
	if err != nil {
		return nil, err
	}
	groupNodes(tx, g.ID, ids, groupOptions{preservePositions: layout == "", layout: layout, keepFrame: !g.IsFitFrame()})
	tx.Describe("groupNodes", `Grouped `+itoa(len(ids))+` nodes into "`+groupTitle(g)+`"`)
	tx.EmitLayout()
	g, _ = tx.Node(g.ID)
	return g, nil
}

// Ungroup releases every member of a group; the frame stays.
func Ungroup(tx *Tx, groupID string) *messages.Error {
	if groupID == "" {
		return messages.BadRequest("Missing groupId.")
	}
	g, ok := tx.Node(groupID)
	if !ok || g.Type != "group" || len(g.Children()) == 0 {
		return messages.BadRequest("Group not found or empty.")
	}
	n := 0
	for _, id := range g.Children() {
		if m, found := tx.Node(id); found && m.ParentGroup() == groupID {
			c := m.Clone()
			delete(c.Data, "parentGroup")
			tx.PutNode(c)
			n++
		}
	}
	setChildren(tx, g, nil)
	tx.Describe("ungroupNodes", `Ungrouped `+itoa(n)+` nodes from "`+groupTitle(g)+`"`)
	tx.EmitLayout()
	return nil
}

// replaceChildren sets a group's member list (PATCH children): current
// members leave, the new ones join at their positions.
func replaceChildren(tx *Tx, g *Node, field string, raw any) *messages.Error {
	list, ok := raw.([]any)
	if !ok {
		return messages.BadRequest("Cannot update group: %q must be an array of node IDs.", field)
	}
	ids := make([]string, 0, len(list))
	for _, e := range list {
		s, isString := e.(string)
		if !isString || s == "" {
			return messages.BadRequest("Cannot update group: %q must contain only non-empty node IDs.", field)
		}
		ids = append(ids, s)
	}
	ids, err := checkMembers(tx, g.ID, ids, "Cannot update group", true)
	if err != nil {
		return err
	}
	for _, id := range g.Children() {
		if m, found := tx.Node(id); found && m.ParentGroup() == g.ID && !slices.Contains(ids, id) {
			c := m.Clone()
			delete(c.Data, "parentGroup")
			tx.PutNode(c)
		}
	}
	g, _ = tx.Node(g.ID)
	setChildren(tx, g, nil)
	if len(ids) > 0 {
		groupNodes(tx, g.ID, ids, groupOptions{preservePositions: true, keepFrame: !g.IsFitFrame()})
	}
	return nil
}

func groupTitle(g *Node) string {
	if t, _ := g.DataString("title"); t != "" {
		return t
	}
	return g.ID
}
