package canvas

import (
	"cmp"
	"math"
	"slices"

	"github.com/pmxcanvas/pmx-canvas/internal/trie"
)

// The spatial index answers "which nodes overlap this box" without scanning
// every node, so auto-placement stays fast as a canvas grows. It is a
// persistent uniform grid: each cell lists the nodes touching it.
// Nodes that are huge or far out go to a small "oversize" set that every
// query scans, which bounds the cells a single node can occupy.
const (
	cellSize      = 1024.0
	maxCellsPer   = 64
	maxCoordinate = 1e9
)

// grid's cells map a cell key to the nodes touching that cell; oversize
// holds the nodes too big or too far out for cells, by ord. The zero value
// is an empty index.
type grid struct {
	cells    trie.Hash[uint64, []*Node]
	oversize trie.Ordered[Node]
}

func cellKey(cx, cy int64) uint64 {
	return uint64(uint32(int32(cx)))<<32 | uint64(uint32(int32(cy)))
}

// cellRange returns the cells a rect covers, or ok=false when the rect is
// too big or too far out to be gridded.
func cellRange(r Rect) (x0, y0, x1, y1 int64, ok bool) {
	if math.IsNaN(r.X+r.Y+r.W+r.H) || math.Abs(r.X) > maxCoordinate || math.Abs(r.Y) > maxCoordinate ||
		math.Abs(r.Right()) > maxCoordinate || math.Abs(r.Bottom()) > maxCoordinate {
		return 0, 0, 0, 0, false
	}
	x0 = int64(math.Floor(r.X / cellSize))
	y0 = int64(math.Floor(r.Y / cellSize))
	x1 = int64(math.Floor(math.Max(r.X, r.Right()) / cellSize))
	y1 = int64(math.Floor(math.Max(r.Y, r.Bottom()) / cellSize))
	return x0, y0, x1, y1, true
}

func (g grid) insert(n *Node) grid {
	r := n.Rect()
	x0, y0, x1, y1, ok := cellRange(r)
	if !ok || (x1-x0+1)*(y1-y0+1) > maxCellsPer {
		g.oversize = g.oversize.Set(n.Ord, n)
		return g
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			k := cellKey(cx, cy)
			old, _ := g.cells.Get(k)
			next := make([]*Node, len(old), len(old)+1)
			copy(next, old)
			g.cells = g.cells.Set(k, append(next, n))
		}
	}
	return g
}

func (g grid) remove(n *Node) grid {
	r := n.Rect()
	if _, ok := g.oversize.Get(n.Ord); ok {
		g.oversize = g.oversize.Delete(n.Ord)
		return g
	}
	x0, y0, x1, y1, ok := cellRange(r)
	if !ok {
		return g
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			k := cellKey(cx, cy)
			old, found := g.cells.Get(k)
			if !found {
				continue
			}
			next := make([]*Node, 0, len(old))
			for _, o := range old {
				if o.Ord != n.Ord {
					next = append(next, o)
				}
			}
			if len(next) == 0 {
				g.cells = g.cells.Delete(k)
			} else {
				g.cells = g.cells.Set(k, next)
			}
		}
	}
	return g
}

// visit calls fn for each node whose box overlaps r inflated by gap, until
// fn returns false, in no particular order and possibly more than once (a
// node in several cells). ok is false when r is too large to look up cell
// by cell; the caller then scans every node.
func (g grid) visit(r Rect, gap float64, fn func(*Node) bool) (ok bool) {
	probe := Rect{X: r.X - gap, Y: r.Y - gap, W: r.W + 2*gap, H: r.H + 2*gap}
	x0, y0, x1, y1, gridded := cellRange(probe)
	if !gridded || (x1-x0+1)*(y1-y0+1) > 4096 {
		return false
	}
	more := true
	g.oversize.Ascend(func(_ uint64, n *Node) bool {
		if r.OverlapsWithGap(n.Rect(), gap) {
			more = fn(n)
		}
		return more
	})
	for cx := x0; cx <= x1 && more; cx++ {
		for cy := y0; cy <= y1 && more; cy++ {
			cell, _ := g.cells.Get(cellKey(cx, cy))
			for _, n := range cell {
				if r.OverlapsWithGap(n.Rect(), gap) {
					if more = fn(n); !more {
						break
					}
				}
			}
		}
	}
	return true
}

// appendOverlapping appends to dst the nodes whose box overlaps r inflated
// by gap, in layout order, each once. ok is as for visit.
func (g grid) appendOverlapping(dst []*Node, r Rect, gap float64) (nodes []*Node, ok bool) {
	start := len(dst)
	out := dst
	if !g.visit(r, gap, func(n *Node) bool { out = append(out, n); return true }) {
		return dst, false
	}
	found := out[start:]
	slices.SortFunc(found, func(a, b *Node) int { return cmp.Compare(a.Ord, b.Ord) })
	found = slices.CompactFunc(found, func(a, b *Node) bool { return a.Ord == b.Ord })
	return out[:start+len(found)], true
}
