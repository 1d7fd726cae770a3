package canvas

import "math"

// Placement constants (the reference's findOpenCanvasPosition).
const (
	PlacementOriginX = 40.0
	PlacementOriginY = 80.0
	PlacementGap     = 24.0
	// PlacementRowLimit is the right edge of the row scan. Unlike the
	// reference, the "right of the last node" candidate also respects it, so
	// auto-placed nodes wrap into rows instead of marching right forever.
	PlacementRowLimit = 3000.0
	placementMaxRows  = 20
)

// FindOpenPosition picks a free spot for a w×h box among nodes, with a gap
// of PlacementGap to every existing box:
//
//  1. an empty board gives (40,80);
//  2. right of the last node in layout order, if free and inside the row limit;
//  3. a row scan from (40,80), left to right, up to 20 rows;
//  4. otherwise below everything, at x=40.
//
// Docked nodes (the status and context widgets a fresh canvas starts with)
// are HUD furniture, drawn beside the toolbar and not on the board, so they
// are neither the "last node" nor obstacles. (The reference counted them:
// its first node landed right of the context widget's board box, at
// x = 1474, outside a 1400 px window.)
//
// Every probe uses the spatial index, so the cost does not grow with the
// number of nodes on the canvas. A row scan that finds the top rows full is
// remembered in nodes (the caller's working set) until a node inside the
// area it read changes: on a board that grows downwards the scan then runs
// once, not on every row's worth of adds.
func FindOpenPosition(nodes *NodeSet, w, h float64) Point {
	last, ok := nodes.LastWhere(onBoard)
	if !ok {
		return Point{X: PlacementOriginX, Y: PlacementOriginY}
	}
	right := Point{X: last.Position.X + last.Size.Width + PlacementGap, Y: last.Position.Y}
	if right.X+w <= PlacementRowLimit && !blocked(*nodes, Rect{right.X, right.Y, w, h}) {
		return right
	}

	// Row scan: one index query per row gives every node that can block
	// a candidate in that row; jumping past a blocker's right edge never
	// skips a free spot (every x before that edge overlaps the blocker), so
	// the scan finds the leftmost free x whichever blocker it meets first,
	// and the band's nodes need no order (nor to be unique). One buffer
	// serves every row.
	if f := nodes.full; f == nil || f.w != w || f.h != h {
		p, ok := rowScan(*nodes, w, h)
		if ok {
			return p
		}
		nodes.full = &rowsFull{w: w, h: h, area: Rect{
			X: PlacementOriginX - PlacementGap, Y: PlacementOriginY - PlacementGap,
			W: PlacementRowLimit - PlacementOriginX + 2*PlacementGap, H: p.Y - PlacementOriginY + 2*PlacementGap,
		}}
	}
	bottom, _ := nodes.MaxBottom()
	return Point{X: PlacementOriginX, Y: bottom + PlacementGap}
}

// rowsFull is a row scan's finding that no w×h box fits in the top rows,
// with the area whose board nodes decided it: every band it probed,
// inflated by the gap. Only a node inside that area can change the
// finding.
type rowsFull struct {
	w, h float64
	area Rect
}

// unless returns f, or nil when n lies in (or touches) f's area.
func (f *rowsFull) unless(n *Node) *rowsFull {
	if f == nil || f.area.OverlapsWithGap(n.Rect(), 1) {
		return nil
	}
	return f
}

// rowScan looks for the leftmost free x in the top rows, row by row. When
// every row is full, ok is false and p.Y is the bottom of the last band
// probed.
func rowScan(nodes NodeSet, w, h float64) (p Point, ok bool) {
	var buf [64]*Node
	inBand := buf[:0]
	y, bandBottom := PlacementOriginY, PlacementOriginY
	for row := 0; row < placementMaxRows; row++ {
		band := Rect{X: PlacementOriginX, Y: y, W: PlacementRowLimit - PlacementOriginX, H: h}
		inBand = inBand[:0]
		nodes.visitOverlapping(band, PlacementGap, func(n *Node) bool {
			if onBoard(n) {
				inBand = append(inBand, n)
			}
			return true
		})
		x := PlacementOriginX
		for x+w < PlacementRowLimit {
			cand := Rect{x, y, w, h}
			var blocker *Node
			for _, n := range inBand {
				if cand.OverlapsWithGap(n.Rect(), PlacementGap) {
					blocker = n
					break
				}
			}
			if blocker == nil {
				return Point{X: x, Y: y}, true
			}
			x = blocker.Position.X + blocker.Size.Width + PlacementGap
		}
		// Next row: below every node that reaches into this band.
		next := y
		for _, n := range inBand {
			if n.Position.Y <= y+h+PlacementGap && n.Position.Y+n.Size.Height+PlacementGap > y {
				next = math.Max(next, n.Position.Y+n.Size.Height)
			}
		}
		bandBottom = y + h
		y = next + PlacementGap
	}
	return Point{X: PlacementOriginX, Y: bandBottom}, false
}

// onBoard reports whether n is drawn on the board (not docked to the HUD).
func onBoard(n *Node) bool { return n.DockPosition == "" }

// blocked reports whether a board node overlaps r with the placement gap.
func blocked(nodes NodeSet, r Rect) bool {
	found := false
	nodes.visitOverlapping(r, PlacementGap, func(n *Node) bool {
		found = onBoard(n)
		return !found
	})
	return found
}
