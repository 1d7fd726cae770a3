package canvas

import (
	"math"
	"regexp"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// AddAnnotation adds human ink: a freehand stroke (2+ points) or a text label
// (1 point and text). Invalid points are dropped; width and color are
// normalised as the reference does.
func AddAnnotation(tx *Tx, in *messages.AnnotationAddInput) (*Annotation, *messages.Error) {
	typ := "freehand"
	if in.Type != nil && *in.Type == "text" {
		typ = "text"
	}
	var pts []Point
	for _, p := range in.Points {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		x, okx := m["x"].(float64)
		y, oky := m["y"].(float64)
		if okx && oky && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			pts = append(pts, Point{x, y})
		}
	}
	text := ""
	if in.Text != nil {
		text = truncateRunes(strings.TrimSpace(*in.Text), 240)
	}
	label := ""
	if in.Label != nil {
		label = truncateRunes(strings.TrimSpace(*in.Label), 160)
	}
	if label == "" {
		label = text
	}
	width, lo, hi := 4.0, 1.0, 24.0
	if typ == "text" {
		width, hi = 24, 96
		if len(pts) < 1 {
			return nil, messages.BadRequest("Text annotation requires a valid point.")
		}
		if text == "" {
			return nil, messages.BadRequest("Text annotation requires text.")
		}
	} else if len(pts) < 2 {
		return nil, messages.BadRequest("Annotation requires at least two valid points.")
	}
	if in.Width != nil {
		width = math.Min(hi, math.Max(lo, *in.Width))
	}
	color := "currentColor"
	if in.Color != nil && hexColor.MatchString(*in.Color) {
		color = *in.Color
	}
	a := &Annotation{Type: typ, Points: pts, Color: color, Width: width, Text: text, Label: label, CreatedAt: tx.env.Timestamp()}
	if typ == "text" {
		p := pts[0]
		a.Bounds = Rect{X: p.X, Y: p.Y - width, W: math.Max(width, float64(len([]rune(text)))*width*0.62), H: width * 1.2}
	} else {
		minX, minY := math.Inf(1), math.Inf(1)
		maxX, maxY := math.Inf(-1), math.Inf(-1)
		for _, p := range pts {
			minX, minY = min(minX, p.X), min(minY, p.Y)
			maxX, maxY = max(maxX, p.X), max(maxY, p.Y)
		}
		a.Bounds = Rect{X: minX, Y: minY, W: maxX - minX, H: maxY - minY}
	}
	if in.ID != nil && strings.TrimSpace(*in.ID) != "" {
		a.ID = truncateRunes(strings.TrimSpace(*in.ID), 120)
		if _, taken := tx.State().Annotations.Get(a.ID); taken {
			return nil, messages.BadRequest("Annotation %q already exists.", a.ID)
		}
	} else {
		a.ID = tx.env.NewID("ann", 6)
	}
	tx.PutAnnotation(a)
	tx.Describe("addAnnotation", "Added annotation "+a.ID)
	tx.EmitLayout()
	return a, nil
}

// RemoveAnnotation deletes an annotation.
func RemoveAnnotation(tx *Tx, id string) *messages.Error {
	if id == "" {
		return messages.BadRequest("Missing id.")
	}
	if _, ok := tx.State().Annotations.Get(id); !ok {
		return messages.NotFound("Annotation %q not found.", id)
	}
	tx.DeleteAnnotation(id)
	tx.Describe("removeAnnotation", "Removed annotation "+id)
	tx.EmitLayout()
	return nil
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
