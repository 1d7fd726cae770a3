package primitives

import (
	"html/template"
	"math"
	"sort"
	"strconv"
	"strings"
)

// diagram is a laid-out SVG drawing of boxes and the paths between them.
// Every number in it is computed here, so the template writes no data
// into a path or a coordinate.
type diagram struct {
	Width, Height int
	Boxes         []box
	Edges         []edge
}

// box is one rectangle of a diagram with a title line and a second line.
type box struct {
	X, Y, W, H int
	TX, TY, SY int // where the title and the second line start
	Title, Sub string
	Class      string
}

// edge is one path of a diagram with an optional label on a backing rect.
type edge struct {
	D      string
	Label  string
	LX, LY int // the label's centre and baseline
	RX, RY int // its backing rect's corner
	LW     int // and width
	Class  string
}

// placeLabel centres the edge's label on (cx, cy).
func (e *edge) placeLabel(cx, cy int) {
	e.LX, e.LY, e.RX, e.RY = cx, cy+4, cx-e.LW/2, cy-9
}

// clip shortens s to at most n runes, ending it with "…" when cut, since
// SVG text does not wrap.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

func labelWidth(s string) int {
	return int(float64(len([]rune(s)))*6.4) + 14
}

func path(format string, nums ...int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] == '#' && n < len(nums) {
			b.WriteString(strconv.Itoa(nums[n]))
			n++
			continue
		}
		b.WriteByte(format[i])
	}
	return b.String()
}

// Map geometry.
const (
	mapPad, mapW, mapH, mapColGap, mapRowGap = 20, 176, 60, 72, 20
)

// layoutMap draws modules in layers: a module sits one column right of
// every module that points at it, so dependencies read left to right.
// Edges that close a cycle are drawn as arcs below the boxes. It also
// returns the edges with module titles for the text list beside the map.
func layoutMap(mods []module, links []link, entryPoints []string) (diagram, []link) {
	n := len(mods)
	find := func(ref string) int {
		for i, m := range mods {
			if m.ID == ref {
				return i
			}
		}
		for i, m := range mods {
			if strings.EqualFold(m.Title, ref) || strings.EqualFold(m.ID, ref) {
				return i
			}
		}
		return -1
	}
	type resolved struct{ from, to int }
	var es []resolved
	var esLinks []link
	named := make([]link, 0, len(links))
	for _, l := range links {
		f, t := find(l.From), find(l.To)
		nl := l
		if f >= 0 {
			nl.From = mods[f].Title
		}
		if t >= 0 {
			nl.To = mods[t].Title
		}
		named = append(named, nl)
		if f >= 0 && t >= 0 {
			es = append(es, resolved{f, t})
			esLinks = append(esLinks, l)
		}
	}
	if n == 0 {
		return diagram{}, named
	}
	adj := make([][]int, n)
	for i, e := range es {
		adj[e.from] = append(adj[e.from], i)
	}
	state := make([]int8, n)
	back := make([]bool, len(es))
	var order []int
	var visit func(u int)
	visit = func(u int) {
		state[u] = 1
		for _, ei := range adj[u] {
			switch v := es[ei].to; state[v] {
			case 0:
				visit(v)
			case 1:
				back[ei] = true
			}
		}
		state[u] = 2
		order = append(order, u)
	}
	for u := 0; u < n; u++ {
		if state[u] == 0 {
			visit(u)
		}
	}
	rank := make([]int, n)
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		for _, ei := range adj[u] {
			if v := es[ei].to; !back[ei] && rank[u]+1 > rank[v] {
				rank[v] = rank[u] + 1
			}
		}
	}
	// Pull each module right to just before the nearest module it points
	// at, so an edge spans one column where it can and does not run
	// behind the boxes of the column it would skip.
	for _, u := range order {
		next := -1
		for _, ei := range adj[u] {
			if v := es[ei].to; !back[ei] && (next < 0 || rank[v]-1 < next) {
				next = rank[v] - 1
			}
		}
		if next > rank[u] {
			rank[u] = next
		}
	}
	var cols [][]int
	for u := 0; u < n; u++ {
		for len(cols) <= rank[u] {
			cols = append(cols, nil)
		}
		cols[rank[u]] = append(cols[rank[u]], u)
	}
	// Order each column by the mean row of the modules pointing into it,
	// which uncrosses most edges of small maps.
	row := make([]float64, n)
	for r, c := range cols {
		if r > 0 {
			key := make(map[int]float64, len(c))
			for i, u := range c {
				sum, cnt := 0.0, 0
				for _, e := range es {
					if e.to == u && rank[e.from] < r {
						sum += row[e.from]
						cnt++
					}
				}
				key[u] = float64(i)
				if cnt > 0 {
					key[u] = sum / float64(cnt)
				}
			}
			sort.SliceStable(c, func(i, j int) bool { return key[c[i]] < key[c[j]] })
		}
		for i, u := range c {
			row[u] = float64(i)
		}
	}
	rows := 0
	for _, c := range cols {
		if len(c) > rows {
			rows = len(c)
		}
	}
	entry := map[string]bool{}
	for _, e := range entryPoints {
		entry[strings.ToLower(e)] = true
	}
	// Widen the gap between columns to fit the longest label.
	gap := mapColGap
	for _, l := range esLinks {
		if w := labelWidth(clip(l.Label, 28)) + 24; l.Label != "" && w > gap {
			gap = w
		}
	}
	d := diagram{Boxes: make([]box, n)}
	for r, c := range cols {
		offset := (rows - len(c)) * (mapH + mapRowGap) / 2
		for row, u := range c {
			x, y := mapPad+r*(mapW+gap), mapPad+offset+row*(mapH+mapRowGap)
			m := mods[u]
			class := m.RoleClass
			if entry[strings.ToLower(m.ID)] || entry[strings.ToLower(m.Title)] {
				class += " entry"
			}
			sub := m.Role
			if sub == "" {
				sub = clip(m.Detail, 26)
			}
			d.Boxes[u] = box{X: x, Y: y, W: mapW, H: mapH, TX: x + 12, TY: y + 25, SY: y + 44,
				Title: clip(m.Title, 22), Sub: clip(sub, 26), Class: class}
		}
	}
	d.Width = 2*mapPad + len(cols)*mapW + (len(cols)-1)*gap
	d.Height = 2*mapPad + rows*mapH + (rows-1)*mapRowGap
	hasBack := false
	for i, e := range es {
		a, b := d.Boxes[e.from], d.Boxes[e.to]
		label := clip(esLinks[i].Label, 28)
		ed := edge{Label: label, LW: labelWidth(label)}
		switch {
		case e.from == e.to:
			continue
		case back[i]:
			hasBack = true
			x1, y1, x2, y2 := a.X+a.W/2, a.Y+a.H, b.X+b.W/2+6, b.Y+b.H+4
			depth := max(y1, y2) + 40
			ed.D = path("M# # C# #, # #, # #", x1, y1, x1, depth, x2, depth, x2, y2)
			ed.placeLabel((x1+x2)/2, depth-10)
			ed.Class = "back"
		default:
			x1, y1, x2, y2 := a.X+a.W, a.Y+a.H/2, b.X-6, b.Y+b.H/2
			mx := (x1 + x2) / 2
			ed.D = path("M# # C# #, # #, # #", x1, y1, mx, y1, mx, y2, x2, y2)
			ed.placeLabel(mx, (y1+y2)/2)
		}
		d.Edges = append(d.Edges, ed)
	}
	if hasBack {
		d.Height += 44
	}
	return d, named
}

// Flowchart geometry.
const (
	flowPad, flowW, flowH, flowGap    = 20, 340, 58, 34
	flowFailW, flowFailH, flowFailGap = 232, 52, 64
)

// layoutFlow stacks the steps top to bottom with arrows between them, and
// puts each failure path in a column to the right of the step it leaves.
func layoutFlow(steps []flowStep, failures []failurePath) diagram {
	var d diagram
	if len(steps) == 0 {
		return d
	}
	bottom := 0
	for i, s := range steps {
		x, y := flowPad, flowPad+i*(flowH+flowGap)
		sub := s.Status
		if s.Duration != "" {
			if sub != "" {
				sub += " · "
			}
			sub += s.Duration
		}
		d.Boxes = append(d.Boxes, box{X: x, Y: y, W: flowW, H: flowH, TX: x + 16, TY: y + 24, SY: y + 43,
			Title: clip(strconv.Itoa(s.N)+". "+s.Title, 40), Sub: clip(sub, 44), Class: "step tone-" + s.Tone})
		if i > 0 {
			cx := x + flowW/2
			d.Edges = append(d.Edges, edge{D: path("M# # L# #", cx, y-flowGap, cx, y-6)})
		}
		bottom = y + flowH
	}
	fx := flowPad + flowW + flowFailGap
	failBottom := 0
	drawn := false
	for _, f := range failures {
		if f.step < 0 {
			continue
		}
		drawn = true
		src := d.Boxes[f.step]
		y := max(src.Y+(flowH-flowFailH)/2, failBottom+10)
		d.Boxes = append(d.Boxes, box{X: fx, Y: y, W: flowFailW, H: flowFailH, TX: fx + 14, TY: y + 22, SY: y + 39,
			Title: clip(f.Label, 30), Sub: clip(f.Detail, 34), Class: "fail"})
		x1, y1, x2, y2 := src.X+src.W, src.Y+src.H/2, fx-6, y+flowFailH/2
		mx := (x1 + x2) / 2
		d.Edges = append(d.Edges, edge{D: path("M# # C# #, # #, # #", x1, y1, mx, y1, mx, y2, x2, y2), Class: "fail"})
		failBottom = y + flowFailH
	}
	d.Width = flowPad*2 + flowW
	if drawn {
		d.Width += flowFailGap + flowFailW
	}
	d.Height = max(bottom, failBottom) + flowPad
	return d
}

// shape is one drawable of an illustration, with its numbers written out.
type shape struct {
	Kind                                  string // rect, circle, line, arrow or text
	X, Y, W, H, CX, CY, R, X1, Y1, X2, Y2 string
	Text, TX, TY                          string
	Style                                 template.CSS // "--c: <colour>" or ""
}

// coordinateLimit keeps coordinates to a range a figure can show.
const coordinateLimit = 10000

func coord(o object, key string, def float64) float64 {
	f, ok := o.number(key)
	if !ok {
		return def
	}
	return math.Max(-coordinateLimit, math.Min(coordinateLimit, f))
}

func fmtCoord(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// layoutFigure reads a figure's shapes and sizes its view box to fit them.
func layoutFigure(f object) figure {
	fig := figure{Title: f.text("title"), Caption: f.text("caption")}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	grow := func(x, y float64) {
		minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
	}
	for _, s := range f.list("shapes") {
		sh := shape{Text: s.text("text")}
		if c, ok := safeColor(s.text("color")); ok {
			sh.Style = template.CSS("--c: " + string(c))
		}
		var tx, ty float64
		switch normalizeWord(s.text("type")) {
		case "circle":
			cx, cy, r := coord(s, "cx", 0), coord(s, "cy", 0), math.Abs(coord(s, "r", 24))
			sh.Kind, sh.CX, sh.CY, sh.R = "circle", fmtCoord(cx), fmtCoord(cy), fmtCoord(r)
			grow(cx-r, cy-r)
			grow(cx+r, cy+r)
			tx, ty = cx, cy
		case "line", "arrow":
			x1, y1, x2, y2 := coord(s, "x1", 0), coord(s, "y1", 0), coord(s, "x2", 0), coord(s, "y2", 0)
			sh.Kind = "line"
			if normalizeWord(s.text("type")) == "arrow" {
				sh.Kind = "arrow"
			}
			sh.X1, sh.Y1, sh.X2, sh.Y2 = fmtCoord(x1), fmtCoord(y1), fmtCoord(x2), fmtCoord(y2)
			grow(x1, y1)
			grow(x2, y2)
			tx, ty = (x1+x2)/2, (y1+y2)/2-8
		case "text":
			x, y := coord(s, "x", 0), coord(s, "y", 0)
			sh.Kind = "text"
			grow(x-float64(len(sh.Text))*3.5, y-12)
			grow(x+float64(len(sh.Text))*3.5, y+4)
			tx, ty = x, y
		default:
			x, y := coord(s, "x", 0), coord(s, "y", 0)
			w, h := math.Abs(coord(s, "width", 80)), math.Abs(coord(s, "height", 48))
			sh.Kind, sh.X, sh.Y, sh.W, sh.H = "rect", fmtCoord(x), fmtCoord(y), fmtCoord(w), fmtCoord(h)
			grow(x, y)
			grow(x+w, y+h)
			tx, ty = x+w/2, y+h/2
		}
		sh.TX, sh.TY = fmtCoord(tx), fmtCoord(ty)
		fig.Shapes = append(fig.Shapes, sh)
	}
	if len(fig.Shapes) == 0 {
		minX, minY, maxX, maxY = 0, 0, 320, 200
	}
	const margin = 12
	fig.ViewBox = fmtCoord(minX-margin) + " " + fmtCoord(minY-margin) + " " +
		fmtCoord(maxX-minX+2*margin) + " " + fmtCoord(maxY-minY+2*margin)
	return fig
}
