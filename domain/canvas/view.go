package canvas

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Fit defaults (the reference's view.fit).
const (
	DefaultFitWidth    = 1440.0
	DefaultFitHeight   = 900.0
	DefaultFitPadding  = 60.0
	DefaultFitMaxScale = 1.0
)

// SetViewport merges x, y and scale into the viewport. recordHistory=false
// keeps it off the undo log (the browser's pan and zoom).
func SetViewport(tx *Tx, in *messages.ViewportInput) *messages.Error {
	v := tx.State().Viewport
	if in.X != nil {
		v.X = *in.X
	}
	if in.Y != nil {
		v.Y = *in.Y
	}
	if in.Scale != nil {
		if *in.Scale <= 0 {
			return messages.BadRequest("Viewport scale must be greater than zero.")
		}
		v.Scale = *in.Scale
	}
	applyViewport(tx, v, in.RecordHistory == nil || *in.RecordHistory)
	return nil
}

func applyViewport(tx *Tx, v Viewport, record bool) {
	tx.SetViewport(v)
	if record {
		tx.Describe("viewport", "Updated viewport")
	}
	tx.Emit(Event{Name: EventViewportUpdate, Data: map[string]any{"viewport": v}})
}

// FitResult is view.fit's reply.
type FitResult struct {
	OK        bool     `json:"ok"`
	Viewport  Viewport `json:"viewport"`
	NodeCount int      `json:"nodeCount"`
	Bounds    *Bounds  `json:"bounds"`
}

// Fit sets the viewport so the given nodes (all when none are named) fill a
// width×height screen with padding:
//
//	scale = min(maxScale, width/(bw+2p), height/(bh+2p))
//	viewport = (width/2 − cx·scale, height/2 − cy·scale)
func Fit(tx *Tx, in *messages.FitInput) (FitResult, *messages.Error) {
	w := positiveOr(in.Width, DefaultFitWidth)
	h := positiveOr(in.Height, DefaultFitHeight)
	pad := nonNegativeOr(in.Padding, DefaultFitPadding)
	maxScale := positiveOr(in.MaxScale, DefaultFitMaxScale)
	st := tx.State()
	var targets []*Node
	if len(in.NodeIDs) > 0 {
		var missing []string
		for _, id := range in.NodeIDs {
			if n, ok := st.Nodes.Get(id); ok {
				targets = append(targets, n)
			} else {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return FitResult{}, messages.BadRequest("Cannot fit: unknown node ID(s): %s.", strings.Join(missing, ", "))
		}
	} else {
		targets = st.Nodes.All()
	}
	if len(targets) == 0 {
		return FitResult{OK: true, Viewport: st.Viewport}, nil
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, n := range targets {
		r := n.Rect()
		minX, minY = min(minX, r.X), min(minY, r.Y)
		maxX, maxY = max(maxX, r.Right()), max(maxY, r.Bottom())
	}
	bw, bh := maxX-minX, maxY-minY
	scale := min(maxScale, w/math.Max(1, bw+2*pad), h/math.Max(1, bh+2*pad))
	cx, cy := minX+bw/2, minY+bh/2
	v := Viewport{X: w/2 - cx*scale, Y: h/2 - cy*scale, Scale: scale}
	applyViewport(tx, v, true)
	b := Bounds{X: minX, Y: minY, Width: bw, Height: bh}
	return FitResult{OK: true, Viewport: v, NodeCount: len(targets), Bounds: &b}, nil
}

func positiveOr(p *float64, def float64) float64 {
	if p == nil || *p <= 0 {
		return def
	}
	return *p
}

func nonNegativeOr(p *float64, def float64) float64 {
	if p == nil || *p < 0 {
		return def
	}
	return *p
}

// FocusResult is node.focus's reply.
type FocusResult struct {
	OK      bool   `json:"ok"`
	Focused string `json:"focused"`
	Panned  bool   `json:"panned"`
}

// Focus brings a node to the human's attention. By default it pans so the
// node is centred on a 1440×900 screen at the current scale (the reference
// wrote the node's world position into the viewport translation, which is
// not a screen offset); with noPan the node is raised above every other.
func Focus(tx *Tx, in *messages.FocusInput) (FocusResult, *messages.Error) {
	if in.ID == "" {
		return FocusResult{}, messages.BadRequest("Missing id.")
	}
	n, ok := tx.Node(in.ID)
	if !ok {
		return FocusResult{}, NodeNotFound(in.ID)
	}
	noPan := in.NoPan != nil && *in.NoPan
	tx.Emit(Event{Name: EventFocusNode, Data: map[string]any{"nodeId": n.ID, "noPan": noPan}})
	if noPan {
		top := 0
		tx.State().Nodes.Each(func(o *Node) bool {
			top = max(top, o.ZIndex)
			return true
		})
		c := n.Clone()
		c.ZIndex = top + 1
		tx.PutNode(c)
		tx.Describe("updateNode", `Updated node "`+titleOrID(n)+`"`)
	} else {
		v := tx.State().Viewport
		cx, cy := n.Position.X+n.Size.Width/2, n.Position.Y+n.Size.Height/2
		v.X, v.Y = DefaultFitWidth/2-cx*v.Scale, DefaultFitHeight/2-cy*v.Scale
		applyViewport(tx, v, true)
	}
	tx.EmitLayout()
	return FocusResult{OK: true, Focused: n.ID, Panned: !noPan}, nil
}

// Clear removes every node, edge, annotation and pin and resets the
// viewport. Theme and snapshots stay. One undoable step.
func Clear(tx *Tx) {
	st := tx.State()
	nodes, edges := st.Nodes.Len(), st.Edges.Len()
	for _, e := range st.Edges.All() {
		tx.DeleteEdge(e.ID)
	}
	for _, n := range st.Nodes.All() {
		tx.DeleteNode(n.ID)
	}
	for _, a := range st.Annotations.All() {
		tx.DeleteAnnotation(a.ID)
	}
	if len(st.Pins) > 0 {
		tx.SetPins(nil)
	}
	tx.SetViewport(DefaultViewport)
	tx.Describe("clear", fmt.Sprintf("Cleared canvas (was %d nodes, %d edges)", nodes, edges))
	tx.EmitLayout()
}

// SetTheme changes the theme (not part of undo or snapshots).
func SetTheme(tx *Tx, theme string) *messages.Error {
	if !slices.Contains(Themes, theme) {
		return messages.BadRequest("Invalid theme: %q. Use: dark, light, high-contrast", theme)
	}
	tx.SetTheme(theme)
	tx.Emit(Event{Name: EventThemeChanged, Data: map[string]any{"theme": theme}})
	return nil
}

// UpdateResult is layout.update's reply. Dropped counts entries refused for
// invalid geometry (the reference dropped them without counting).
type UpdateResult struct {
	OK        bool     `json:"ok"`
	Applied   int      `json:"applied"`
	Skipped   int      `json:"skipped"`
	Dropped   int      `json:"dropped"`
	DroppedID []string `json:"droppedIds,omitempty"`
}

// ApplyUpdates applies the browser's bulk geometry update (drag end). A
// moved group takes its members along, except members with their own entry;
// a moved or resized member refits its fit-mode group. Unknown ids and
// entries that change nothing are skipped; a non-positive size or a bad
// dockPosition drops the entry.
func ApplyUpdates(tx *Tx, in *messages.UpdateInput) UpdateResult {
	res := UpdateResult{OK: true}
	explicit := make(map[string]bool, len(in.Updates))
	for _, u := range in.Updates {
		explicit[u.ID] = true
	}
	moved, resized, collapsed, docked := 0, 0, 0, 0
	refit := map[string]bool{}
	for _, u := range in.Updates {
		n, ok := tx.Node(u.ID)
		if !ok {
			res.Skipped++
			continue
		}
		c := n.Clone()
		if u.Position != nil {
			if u.Position.X != nil {
				c.Position.X = *u.Position.X
			}
			if u.Position.Y != nil {
				c.Position.Y = *u.Position.Y
			}
		}
		if u.Size != nil {
			if u.Size.Width != nil {
				c.Size.Width = *u.Size.Width
			}
			if u.Size.Height != nil {
				c.Size.Height = *u.Size.Height
			}
		}
		if u.Collapsed != nil {
			c.Collapsed = *u.Collapsed
		}
		if u.DockPosition.Set {
			switch {
			case u.DockPosition.Null:
				c.DockPosition = ""
			case u.DockPosition.Value == "left" || u.DockPosition.Value == "right":
				c.DockPosition = u.DockPosition.Value
			default:
				res.Dropped++
				res.DroppedID = append(res.DroppedID, u.ID)
				continue
			}
		}
		if c.Size.Width <= 0 || c.Size.Height <= 0 {
			res.Dropped++
			res.DroppedID = append(res.DroppedID, u.ID)
			continue
		}
		if c.Position == n.Position && c.Size == n.Size && c.Collapsed == n.Collapsed && c.DockPosition == n.DockPosition {
			res.Skipped++
			continue
		}
		tx.PutNode(c)
		res.Applied++
		if c.Position != n.Position {
			moved++
		}
		if c.Size != n.Size {
			resized++
		}
		if c.Collapsed != n.Collapsed {
			collapsed++
		}
		if c.DockPosition != n.DockPosition {
			docked++
		}
		if n.Type == "group" && c.Position != n.Position {
			dx, dy := c.Position.X-n.Position.X, c.Position.Y-n.Position.Y
			for _, m := range members(tx, c) {
				if explicit[m.ID] {
					continue
				}
				mc := m.Clone()
				mc.Position = Point{m.Position.X + dx, m.Position.Y + dy}
				tx.PutNode(mc)
			}
		} else if p := n.ParentGroup(); p != "" && (c.Position != n.Position || c.Size != n.Size) {
			refit[p] = true
		}
	}
	for id := range refit {
		if !explicit[id] {
			refitGroup(tx, id)
		}
	}
	if res.Applied > 0 {
		if in.RecordHistory == nil || *in.RecordHistory {
			tx.Describe("batch", fmt.Sprintf("Updated %d node(s) (%d moved, %d resized, %d collapsed, %d docked)",
				res.Applied, moved, resized, collapsed, docked))
		}
		tx.EmitLayout()
	}
	return res
}
