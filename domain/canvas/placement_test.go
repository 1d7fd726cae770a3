package canvas

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func setOf(rects ...Rect) NodeSet {
	s := NewNodeSet()
	for i, r := range rects {
		s = s.Put(&Node{ID: string(rune('a' + i)), Type: "markdown", Position: Point{r.X, r.Y},
			Size: Size{r.W, r.H}, Ord: uint64(i + 1), Data: map[string]any{}})
	}
	return s
}

func TestFindOpenPosition(t *testing.T) {
	fullRows := make([]Rect, 20)
	for i := range fullRows {
		fullRows[i] = Rect{40, 80 + float64(i)*144, 2960, 120}
	}
	tests := []struct {
		name  string
		nodes []Rect
		w, h  float64
		want  Point
	}{
		{"empty canvas", nil, 640, 420, Point{40, 80}},
		{"right of the last node", []Rect{{40, 80, 180, 120}, {260, 80, 220, 120}}, 160, 120, Point{504, 80}},
		{"seeded docked widgets", []Rect{{40, 80, 300, 120}, {1130, 80, 320, 400}}, 640, 420, Point{1474, 80}},
		{"20 full-width rows fall back below everything", fullRows, 160, 120, Point{40, 2960}},
		// Unlike the reference, the right-hand candidate respects the row
		// limit: the 4th markdown after the docked widgets wraps into the
		// free slot between them instead of marching right.
		{"row wrap fills the first free slot", []Rect{{40, 80, 300, 120}, {1130, 80, 320, 400}, {1474, 80, 640, 420}, {2138, 80, 640, 420}}, 640, 420, Point{364, 80}},
		{"right of the last node under a full-width row", []Rect{{40, 80, 2900, 100}, {40, 224, 180, 100}}, 160, 120, Point{244, 224}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := setOf(tc.nodes...)
			got := FindOpenPosition(&set, tc.w, tc.h)
			if got != tc.want {
				t.Fatalf("FindOpenPosition = %v, want %v", got, tc.want)
			}
		})
	}
}

// A placed box never overlaps an existing one (with the gap), however the
// canvas was filled.
func TestFindOpenPositionNeverOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := NewNodeSet()
	for i := 0; i < 400; i++ {
		w, h := 100+r.Float64()*600, 80+r.Float64()*400
		var p Point
		if i%3 == 0 { // some explicit positions scattered around
			p = Point{r.Float64()*6000 - 500, r.Float64()*6000 - 500}
		} else {
			p = FindOpenPosition(&s, w, h)
			box := Rect{p.X, p.Y, w, h}
			s.Each(func(n *Node) bool {
				if box.OverlapsWithGap(n.Rect(), PlacementGap) {
					t.Fatalf("placement %d at %v overlaps %s %v", i, p, n.ID, n.Rect())
				}
				return true
			})
		}
		s = s.Put(&Node{ID: string(rune(0x4e00 + i)), Position: p, Size: Size{w, h}, Ord: uint64(i + 1), Data: map[string]any{}})
	}
}

// The spatial index answers exactly what a full scan answers.
func TestOverlappingMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := NewNodeSet()
	for i := 0; i < 500; i++ {
		w, h := r.Float64()*3000, r.Float64()*3000
		if i%50 == 0 {
			w, h = 2e6, 5e5 // oversize nodes go to the scanned list
		}
		s = s.Put(&Node{ID: string(rune(0x4e00 + i)), Position: Point{r.Float64()*20000 - 10000, r.Float64()*20000 - 10000},
			Size: Size{w, h}, Ord: uint64(i + 1), Data: map[string]any{}})
	}
	// Move and delete some to exercise index maintenance.
	for i := 0; i < 100; i++ {
		id := string(rune(0x4e00 + r.IntN(500)))
		if n, ok := s.Get(id); ok {
			if i%2 == 0 {
				s = s.Delete(id)
			} else {
				c := n.Clone()
				c.Position = Point{r.Float64() * 5000, r.Float64() * 5000}
				s = s.Put(c)
			}
		}
	}
	for q := 0; q < 300; q++ {
		probe := Rect{r.Float64()*20000 - 10000, r.Float64()*20000 - 10000, r.Float64() * 4000, r.Float64() * 4000}
		got := s.Overlapping(probe, PlacementGap)
		var want []*Node
		s.Each(func(n *Node) bool {
			if probe.OverlapsWithGap(n.Rect(), PlacementGap) {
				want = append(want, n)
			}
			return true
		})
		if len(got) != len(want) {
			t.Fatalf("query %d: index found %d nodes, scan %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i].ID {
				t.Fatalf("query %d: result %d is %s, scan says %s (order must be layout order)", q, i, got[i].ID, want[i].ID)
			}
		}
	}
	if mb, _ := s.MaxBottom(); mb <= 0 {
		t.Fatalf("MaxBottom = %v", mb)
	}
}

// MaxBottom, kept incrementally, always equals a full scan.
func TestMaxBottomMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := NewNodeSet()
	ids := []string{}
	for step := 0; step < 3000; step++ {
		switch k := r.IntN(10); {
		case k < 5 || len(ids) == 0:
			id := string(rune(0x4e00 + step))
			ids = append(ids, id)
			s = s.Put(&Node{ID: id, Position: Point{r.Float64() * 5000, r.Float64()*5000 - 2500}, Size: Size{100, r.Float64() * 800},
				Ord: uint64(step + 1), Data: map[string]any{}})
		case k < 8:
			n, _ := s.Get(ids[r.IntN(len(ids))])
			if n != nil {
				c := n.Clone()
				c.Position.Y = r.Float64()*5000 - 2500
				s = s.Put(c)
			}
		default:
			i := r.IntN(len(ids))
			s = s.Delete(ids[i])
			ids = append(ids[:i], ids[i+1:]...)
		}
		got, ok := s.MaxBottom()
		want, found := 0.0, false
		s.Each(func(n *Node) bool {
			if b := n.Rect().Bottom(); !found || b > want {
				want, found = b, true
			}
			return true
		})
		if ok != found || (ok && got != want) {
			t.Fatalf("step %d: MaxBottom = %v %v, scan %v %v", step, got, ok, want, found)
		}
	}
}

// The docked status and context widgets of a fresh canvas are HUD
// furniture: the first nodes start at the board's origin, in view, not
// right of the context widget's board box (x = 1474), and keep filling the
// first row from there.
func TestFindOpenPositionIgnoresDockedWidgets(t *testing.T) {
	s := NewNodeSet()
	s = s.Put(&Node{ID: "status-main", Type: "status", Position: Point{40, 80}, Size: Size{300, 120}, DockPosition: "left", Ord: 1, Data: map[string]any{}})
	s = s.Put(&Node{ID: "context-main", Type: "context", Position: Point{1130, 80}, Size: Size{320, 400}, DockPosition: "right", Ord: 2, Data: map[string]any{}})
	if got := FindOpenPosition(&s, 640, 420); got != (Point{40, 80}) {
		t.Fatalf("first node at %v, want (40,80)", got)
	}
	s = s.Put(&Node{ID: "a", Type: "markdown", Position: Point{40, 80}, Size: Size{640, 420}, Ord: 3, Data: map[string]any{}})
	if got := FindOpenPosition(&s, 640, 420); got != (Point{704, 80}) {
		t.Fatalf("second node at %v, want (704,80)", got)
	}
	// A docked node added last is not the anchor either.
	s = s.Put(&Node{ID: "d", Type: "status", Position: Point{2000, 900}, Size: Size{300, 120}, DockPosition: "left", Ord: 4, Data: map[string]any{}})
	if got := FindOpenPosition(&s, 640, 420); got != (Point{704, 80}) {
		t.Fatalf("after a docked node: %v, want (704,80)", got)
	}
}

// The remembered "top rows full" finding never changes a placement: after
// any mix of adds, moves and deletes (inside and outside the scanned area)
// the set that remembers places every box where a set that never
// remembered would. The finding must also be used, or the test proves
// nothing.
func TestRememberedFullRowsPlaceAsAFreshScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := NewNodeSet()
	used := 0
	next := 1
	put := func(p Point, w, h float64) {
		s = s.Put(&Node{ID: fmt.Sprint("n", next), Position: p, Size: Size{w, h}, Ord: uint64(next), Data: map[string]any{}})
		next++
	}
	sizes := []Size{{360, 200}, {360, 200}, {360, 200}, {640, 420}}
	for step := range 3000 {
		sz := sizes[r.IntN(len(sizes))]
		fresh := s
		fresh.full = nil
		want := FindOpenPosition(&fresh, sz.Width, sz.Height)
		remembered := s.full != nil && s.full.w == sz.Width && s.full.h == sz.Height
		got := FindOpenPosition(&s, sz.Width, sz.Height)
		if got != want {
			t.Fatalf("step %d: placed at %v with the remembered scan, %v with a fresh one", step, got, want)
		}
		if remembered {
			used++
		}
		switch op := r.IntN(20); {
		case op == 0 && s.Len() > 0: // delete a random node (often one in the top rows)
			s = s.Delete(fmt.Sprint("n", 1+r.IntN(next-1)))
		case op == 1 && s.Len() > 0: // move one, into the top rows or away
			if n, ok := s.Get(fmt.Sprint("n", 1+r.IntN(next-1))); ok {
				c := n.Clone()
				c.Position = Point{r.Float64() * 3000, r.Float64() * 3000}
				s = s.Put(c)
			}
		case op == 2: // an explicit position anywhere
			put(Point{r.Float64()*4000 - 500, r.Float64()*8000 - 500}, sz.Width, sz.Height)
		default:
			put(got, sz.Width, sz.Height)
		}
	}
	if used < 500 {
		t.Fatalf("the remembered finding served %d of 3000 placements; the test needs it used", used)
	}
}
