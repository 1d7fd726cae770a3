package boardsvg

import (
	"math"
	"unicode/utf8"
)

type point struct{ x, y float64 }

// edges draws each edge whose ends are on the board: a straight line
// between the points where the centre-to-centre line leaves each box, bent
// into a curve when several edges join the same two nodes (so each stays
// visible with its label), and a loop for an edge from a node to itself.
func (w *writer) edges(edges []Edge, rects map[string]Rect) {
	type pair struct{ a, b string }
	key := func(e Edge) pair {
		if e.From < e.To {
			return pair{e.From, e.To}
		}
		return pair{e.To, e.From}
	}
	count := map[pair]int{}
	for _, e := range edges {
		if _, ok := rects[e.From]; !ok {
			continue
		}
		if _, ok := rects[e.To]; !ok {
			continue
		}
		count[key(e)]++
	}
	seen := map[pair]int{}
	for _, e := range edges {
		from, ok1 := rects[e.From]
		to, ok2 := rects[e.To]
		if !ok1 || !ok2 {
			continue
		}
		k := key(e)
		i := seen[k]
		seen[k]++
		c, arrow := w.edgeColor(e.Kind)
		var d string
		var mid point
		if e.From == e.To {
			d, mid = loop(from, i)
		} else {
			// The offset is measured on the pair's own direction, so two
			// edges a→b and b→a bend apart rather than onto each other.
			a, b := rects[k.a], rects[k.b]
			ca, cb := center(a), center(b)
			nx, ny := normal(ca, cb)
			p1, p2 := exit(from, center(to)), exit(to, center(from))
			// A short edge bends less, so its curve stays a curve.
			spread := math.Min(36, math.Hypot(p2.x-p1.x, p2.y-p1.y)/3)
			offset := (float64(i) - float64(count[k]-1)/2) * spread
			if offset == 0 {
				d = "M" + num(p1.x) + " " + num(p1.y) + "L" + num(p2.x) + " " + num(p2.y)
				mid = point{(p1.x + p2.x) / 2, (p1.y + p2.y) / 2}
			} else {
				m := point{(p1.x + p2.x) / 2, (p1.y + p2.y) / 2}
				ctrl := point{m.x + nx*offset*2, m.y + ny*offset*2}
				d = "M" + num(p1.x) + " " + num(p1.y) + "Q" + num(ctrl.x) + " " + num(ctrl.y) + " " + num(p2.x) + " " + num(p2.y)
				mid = point{m.x + nx*offset, m.y + ny*offset}
			}
		}
		w.s(`<g class="edge-group" data-id="`).t(e.ID).s(`" data-kind="`).t(e.Kind).s(`">`)
		w.s(`<path class="edge" d="`).s(d).s(`" stroke="`).s(c).s(`"`)
		if dash := dashOf(e); dash != "" {
			w.s(` stroke-dasharray="`).s(dash).s(`"`)
		}
		if arrow {
			w.s(` marker-end="url(#arrow-`).s(e.Kind).s(`)"`)
		}
		w.s("/>")
		if label := oneLine(e.Label); label != "" {
			label = truncate(label, maxLabel)
			lw := float64(utf8.RuneCountInString(label))*6.4 + 16
			w.s(`<rect class="label-bg" x="`).n(mid.x - lw/2).s(`" y="`).n(mid.y - 9).s(`" width="`).n(lw).s(`" height="18" rx="4"/>`)
			w.s(`<text class="label" x="`).n(mid.x).s(`" y="`).n(mid.y + 4).s(`" text-anchor="middle">`).t(label).s("</text>")
		}
		w.s("</g>\n")
	}
}

// dashOf is the edge's dash pattern: its style, else dashed for
// references (reference §6.1).
func dashOf(e Edge) string {
	switch e.Style {
	case "dashed":
		return "8 4"
	case "dotted":
		return "3 3"
	case "solid":
		return ""
	}
	if e.Kind == "references" {
		return "8 4"
	}
	return ""
}

func center(r Rect) point { return point{r.X + r.W/2, r.Y + r.H/2} }

// normal is the unit vector left of the direction a→b (0,-1 when they
// coincide).
func normal(a, b point) (float64, float64) {
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Hypot(dx, dy)
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return 0, -1
	}
	return -dy / l, dx / l
}

// exit is where the line from r's centre towards p leaves r.
func exit(r Rect, p point) point {
	c := center(r)
	dx, dy := p.x-c.x, p.y-c.y
	if dx == 0 && dy == 0 {
		return c
	}
	hw, hh := r.W/2, r.H/2
	t := math.Inf(1)
	if dx != 0 {
		t = math.Min(t, hw/math.Abs(dx))
	}
	if dy != 0 {
		t = math.Min(t, hh/math.Abs(dy))
	}
	if t > 1 || math.IsNaN(t) { // p lies inside r
		t = 1
	}
	return point{c.x + dx*t, c.y + dy*t}
}

// loop is an edge from a node to itself: a curve out of the top edge and
// back, larger for each further loop on the node.
func loop(r Rect, i int) (string, point) {
	c := center(r)
	up := 40 + float64(i)*18
	half := math.Min(24+float64(i)*6, r.W/2)
	ax, bx := c.x-half, c.x+half
	top := r.Y
	d := "M" + num(ax) + " " + num(top) + "C" + num(ax) + " " + num(top-up) + " " + num(bx) + " " + num(top-up) + " " + num(bx) + " " + num(top)
	return d, point{c.x, top - up*0.75}
}
