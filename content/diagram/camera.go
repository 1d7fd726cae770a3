package diagram

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// CameraSizes are the standard 4:3 camera sizes, smallest first.
var CameraSizes = [][2]float64{{400, 300}, {600, 450}, {800, 600}, {1200, 900}, {1600, 1200}}

// MinPadding is the least padding around the content on each side; larger
// content gets PaddingRatio of its larger extent.
const (
	MinPadding   = 80
	PaddingRatio = 0.18
)

// box is a bounding box.
type box struct{ minX, minY, maxX, maxY float64 }

func (b *box) add(x, y float64) {
	b.minX, b.maxX = math.Min(b.minX, x), math.Max(b.maxX, x)
	b.minY, b.maxY = math.Min(b.minY, y), math.Max(b.maxY, y)
}

func (b box) union(o box) box {
	b.add(o.minX, o.minY)
	b.add(o.maxX, o.maxY)
	return b
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// Camera returns the cameraUpdate pseudo element that frames the drawable
// elements: padded by max(MinPadding, PaddingRatio × the larger extent),
// the smallest of CameraSizes that holds that (or a larger 4:3 size when
// none does), centred on the content. See the package doc.
func Camera(elements []map[string]any) map[string]any {
	var all box
	found := false
	for _, e := range elements {
		b, ok := bounds(e)
		if !ok {
			continue
		}
		if !found {
			all, found = b, true
		} else {
			all = all.union(b)
		}
	}
	w, h := all.maxX-all.minX, all.maxY-all.minY
	cx, cy := all.minX+w/2, all.minY+h/2
	pad := math.Max(MinPadding, PaddingRatio*math.Max(w, h))
	cw, ch := cameraSize(w+2*pad, h+2*pad)
	x, y := round2(cx-cw/2), round2(cy-ch/2)
	if !finite(x, y, cw, ch) {
		// Coordinates too large to frame; a camera JSON can hold.
		cw, ch = CameraSizes[0][0], CameraSizes[0][1]
		x, y = -cw/2, -ch/2
	}
	return map[string]any{"type": "cameraUpdate", "x": x, "y": y, "width": cw, "height": ch}
}

// cameraSize is the smallest standard size holding w×h, or w×h widened to
// 4:3 and rounded up when none does.
func cameraSize(w, h float64) (float64, float64) {
	for _, s := range CameraSizes {
		if w <= s[0] && h <= s[1] {
			return s[0], s[1]
		}
	}
	cw := math.Ceil(math.Max(w, h*4/3))
	cw += math.Mod(4-math.Mod(cw, 4), 4) // a multiple of 4 keeps 3/4 of it whole
	return cw, cw * 3 / 4
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// bounds is the box an element draws, if it is drawable with finite
// geometry.
func bounds(e map[string]any) (box, bool) {
	t := typeOf(e)
	if !drawable[t] || deleted(e) {
		return box{}, false
	}
	x, _ := jsonnum.Float(e["x"])
	y, _ := jsonnum.Float(e["y"])
	w, _ := jsonnum.Float(e["width"])
	h, _ := jsonnum.Float(e["height"])
	if t == "text" && w == 0 && h == 0 {
		w, h = textSize(e)
	}
	b := box{x, y, x, y}
	usedPoints := false
	if t == "arrow" || t == "line" || t == "freedraw" {
		for _, p := range points(e["points"]) {
			b.add(x+p[0], y+p[1])
			usedPoints = true
		}
	}
	if !usedPoints {
		b.add(x+w, y+h)
	}
	if !finite(b.minX, b.minY, b.maxX, b.maxY, b.maxX-b.minX, b.maxY-b.minY) {
		return box{}, false
	}
	return b, true
}

// points reads an Excalidraw points list, [[x, y], ...].
func points(v any) [][2]float64 {
	var out [][2]float64
	switch ps := v.(type) {
	case []any:
		for _, p := range ps {
			var pair []any
			switch q := p.(type) {
			case []any:
				pair = q
			case []float64:
				pair = []any{}
				for _, f := range q {
					pair = append(pair, f)
				}
			}
			if len(pair) < 2 {
				continue
			}
			px, ok1 := jsonnum.Float(pair[0])
			py, ok2 := jsonnum.Float(pair[1])
			if ok1 && ok2 {
				out = append(out, [2]float64{px, py})
			}
		}
	case [][]float64:
		for _, p := range ps {
			if len(p) >= 2 {
				out = append(out, [2]float64{p[0], p[1]})
			}
		}
	}
	return out
}

// textSize estimates a text element's size from its text and fontSize.
func textSize(e map[string]any) (float64, float64) {
	fs, ok := jsonnum.Float(e["fontSize"])
	if !ok || fs <= 0 {
		fs = 20
	}
	s, _ := e["text"].(string)
	if s == "" {
		return 0, 0
	}
	lines := strings.Split(s, "\n")
	longest := 0
	for _, l := range lines {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	return float64(longest) * fs * 0.6, float64(len(lines)) * fs * 1.25
}

// WithCamera returns elements with Camera(elements) added when they have no
// cameraUpdate and something drawable: first, or right after a leading
// restoreCheckpoint. The slice is new; the maps are shared.
func WithCamera(elements []map[string]any) []map[string]any {
	out := make([]map[string]any, 0, len(elements)+1)
	drawn := false
	for _, e := range elements {
		if typeOf(e) == "cameraUpdate" {
			return append(out, elements...)
		}
		if _, ok := bounds(e); ok {
			drawn = true
		}
	}
	if !drawn {
		return append(out, elements...)
	}
	at := 0
	if len(elements) > 0 && typeOf(elements[0]) == "restoreCheckpoint" {
		at = 1
	}
	out = append(out, elements[:at]...)
	out = append(out, Camera(elements))
	return append(out, elements[at:]...)
}
