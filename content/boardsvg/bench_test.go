package boardsvg

import (
	"fmt"
	"testing"
)

// bigBoard is n markdown cards in a grid (a paragraph each), in groups of
// ten, with an edge from each card to the next: the shape of a busy board.
func bigBoard(n int) Board {
	b := Board{Theme: "dark"}
	for i := 0; i < n; i++ {
		x, y := float64(i%40)*360, float64(i/40)*260
		b.Nodes = append(b.Nodes, Node{ID: fmt.Sprintf("n%d", i), Kind: "markdown", Title: fmt.Sprintf("Card %d", i),
			X: x, Y: y, W: 320, H: 220, Text: "# Heading\n\nA paragraph of text that wraps over a few lines of the card, as notes do.\n- [ ] a task\n- a bullet"})
		if i > 0 {
			b.Edges = append(b.Edges, Edge{ID: fmt.Sprintf("e%d", i), From: fmt.Sprintf("n%d", i-1), To: fmt.Sprintf("n%d", i), Kind: "flow", Label: "next"})
		}
	}
	for g := 0; g*10 < n; g++ {
		var kids []string
		for i := g * 10; i < min(n, g*10+10); i++ {
			kids = append(kids, fmt.Sprintf("n%d", i))
		}
		b.Nodes = append(b.Nodes, Node{ID: fmt.Sprintf("g%d", g), Kind: "group", Title: "Group", Color: "#3b82f6",
			X: float64((g*10)%40)*360 - 20, Y: float64((g*10)/40)*260 - 40, W: 3600, H: 260, Children: kids})
	}
	return b
}

// BenchmarkRender1000 draws a 1,000-card board (100 groups, 999 edges):
// the server-side cost of GET /api/canvas/export?format=svg without HTTP.
func BenchmarkRender1000(b *testing.B) {
	board := bigBoard(1000)
	view := board.Fit()
	var size int
	for b.Loop() {
		size = len(Render(board, view))
	}
	b.ReportMetric(float64(size), "bytes/doc")
}
