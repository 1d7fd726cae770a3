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
//  1. an empty canvas gives (40,80);
//  2. right of the last node in layout order, if free and inside the row limit;
//  3. a row scan from (40,80), left to right, up to 20 rows;
//  4. otherwise below everything, at x=40.
//
// Every probe uses the spatial index, so the cost does not grow with the
// number of nodes on the canvas.
func FindOpenPosition(nodes NodeSet, w, h float64) Point {
	last, ok := nodes.Last()
	if !ok {
		return Point{X: PlacementOriginX, Y: PlacementOriginY}
	}
	right := Point{X: last.Position.X + last.Size.Width + PlacementGap, Y: last.Position.Y}
	if right.X+w <= PlacementRowLimit && firstBlocker(nodes, Rect{right.X, right.Y, w, h}) == nil {
		return right
	}

	// Row scan: one index query per row gives every node that can block
	// a candidate in that row; jumping past a blocker's right edge never
	// skips a free spot, so the scan finds the leftmost free x.
	y := PlacementOriginY
	for row := 0; row < placementMaxRows; row++ {
		band := Rect{X: PlacementOriginX, Y: y, W: PlacementRowLimit - PlacementOriginX, H: h}
		inBand := nodes.Overlapping(band, PlacementGap)
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
				return Point{X: x, Y: y}
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
		y = next + PlacementGap
	}
	bottom, _ := nodes.MaxBottom()
	return Point{X: PlacementOriginX, Y: bottom + PlacementGap}
}

// firstBlocker returns the earliest node (layout order) that overlaps r with
// the placement gap.
func firstBlocker(nodes NodeSet, r Rect) *Node {
	hits := nodes.Overlapping(r, PlacementGap)
	if len(hits) == 0 {
		return nil
	}
	return hits[0]
}
