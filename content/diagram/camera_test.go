package diagram

import (
	"reflect"
	"testing"
)

func rect(x, y, w, h float64) map[string]any {
	return map[string]any{"type": "rectangle", "x": x, "y": y, "width": w, "height": h}
}

func cam(x, y, w, h float64) map[string]any {
	return map[string]any{"type": "cameraUpdate", "x": x, "y": y, "width": w, "height": h}
}

func TestCamera(t *testing.T) {
	tests := []struct {
		name string
		in   []map[string]any
		want map[string]any
	}{
		// Content up to 240×140 plus 80 on each side fits 400×300.
		{"400x300 exactly", []map[string]any{rect(0, 0, 240, 140)}, cam(-80, -80, 400, 300)},
		{"400x300 too narrow", []map[string]any{rect(0, 0, 241, 140)}, cam(-179.5, -155, 600, 450)},
		{"400x300 too short", []map[string]any{rect(0, 0, 240, 141)}, cam(-180, -154.5, 600, 450)},
		{"600x450 exactly", []map[string]any{rect(0, 0, 440, 290)}, cam(-80, -80, 600, 450)},
		{"600x450 too narrow", []map[string]any{rect(0, 0, 441, 290)}, cam(-179.5, -155, 800, 600)},
		// From 444.4 up the padding is 18% of the larger extent.
		{"800x600 exactly (padding 90)", []map[string]any{rect(0, 0, 500, 420)}, cam(-150, -90, 800, 600)},
		{"800x600 too short", []map[string]any{rect(0, 0, 500, 421)}, cam(-350, -239.5, 1200, 900)},
		{"1200x900 exactly (padding 144)", []map[string]any{rect(0, 0, 800, 612)}, cam(-200, -144, 1200, 900)},
		{"1200x900 too short", []map[string]any{rect(0, 0, 800, 613)}, cam(-400, -293.5, 1600, 1200)},
		{"1600x1200 exactly (padding 180)", []map[string]any{rect(0, 0, 1000, 840)}, cam(-300, -180, 1600, 1200)},
		// Bigger than the largest size: the padded box widened to 4:3,
		// rounded up to a multiple of 4 (1360×1201 → 1604×1203).
		{"beyond 1600x1200", []map[string]any{rect(0, 0, 1000, 841)}, cam(-302, -181, 1604, 1203)},
		{"wide content (padding 540)", []map[string]any{rect(0, 0, 3000, 1000)}, cam(-540, -1030, 4080, 3060)},
		{"centred on offset content", []map[string]any{rect(100, 200, 240, 140)}, cam(20, 120, 400, 300)},
		{"union of elements", []map[string]any{rect(0, 0, 100, 50), rect(300, 200, 100, 50)}, cam(-100, -100, 600, 450)},
		{"negative size", []map[string]any{rect(240, 140, -240, -140)}, cam(-80, -80, 400, 300)},
		{"arrow points", []map[string]any{{"type": "arrow", "x": 0.0, "y": 0.0, "width": 5000.0, "points": []any{[]any{0.0, 0.0}, []any{-200.0, 100.0}}}}, cam(-300, -100, 400, 300)},
		{"line points from Go", []map[string]any{{"type": "line", "x": 0, "y": 0, "points": [][]float64{{0, 0}, {240, 140}}}}, cam(-80, -80, 400, 300)},
		{"arrow without points uses its size", []map[string]any{{"type": "arrow", "x": 0.0, "y": 0.0, "width": 240.0, "height": 140.0}}, cam(-80, -80, 400, 300)},
		// "Hello" at fontSize 20: 5 × 12 wide, 25 high.
		{"text size estimated", []map[string]any{{"type": "text", "x": 0.0, "y": 0.0, "text": "Hello"}}, cam(-170, -137.5, 400, 300)},
		{"multi-line text", []map[string]any{{"type": "text", "x": 0.0, "y": 0.0, "text": "ab\nabcd", "fontSize": 10.0}}, cam(-188, -137.5, 400, 300)},
		{"missing x and y are 0", []map[string]any{{"type": "ellipse", "width": 240.0, "height": 140.0}}, cam(-80, -80, 400, 300)},
		{"pseudo, unknown and deleted ignored", []map[string]any{
			rect(0, 0, 240, 140),
			cam(-5000, -5000, 10000, 10000),
			{"type": "sticker", "x": 9000.0, "y": 9000.0},
			{"type": "rectangle", "x": -9000.0, "y": 0.0, "width": 1.0, "height": 1.0, "isDeleted": true},
		}, cam(-80, -80, 400, 300)},
		{"non-finite geometry ignored", []map[string]any{rect(0, 0, 240, 140), rect(1e308, 0, 1e308, 1)}, cam(-80, -80, 400, 300)},
		{"only absurd geometry", []map[string]any{rect(-1e308, 0, 0, 1), rect(1e308, 0, 0, 1)}, cam(-200, -150, 400, 300)},
		{"nothing drawable", nil, cam(-200, -150, 400, 300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Camera(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
			w, h := got["width"].(float64), got["height"].(float64)
			if w*3 != h*4 {
				t.Errorf("%v×%v is not 4:3", w, h)
			}
		})
	}
}

func TestWithCamera(t *testing.T) {
	r := rect(0, 0, 240, 140)
	restore := map[string]any{"type": "restoreCheckpoint", "id": "pmx-a"}
	existing := cam(1, 2, 800, 600)
	tests := []struct {
		name string
		in   []map[string]any
		want []map[string]any
	}{
		{"prepended", []map[string]any{r}, []map[string]any{cam(-80, -80, 400, 300), r}},
		{"existing camera kept", []map[string]any{r, existing}, []map[string]any{r, existing}},
		{"after a leading restore", []map[string]any{restore, r}, []map[string]any{restore, cam(-80, -80, 400, 300), r}},
		{"nothing to fit", []map[string]any{restore}, []map[string]any{restore}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithCamera(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}
