package canvas

import (
	"fmt"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// canvasWith builds a canvas of n auto-placed markdown nodes.
func canvasWith(b *testing.B, n int) *State {
	b.Helper()
	tx := Begin(NewState(), DefaultEnv())
	SeedDockedWidgets(tx)
	for i := 0; i < n; i++ {
		title := fmt.Sprintf("node %d", i)
		content := fmt.Sprintf("notes about topic %d and deploy %d", i%97, i%13)
		if _, err := AddNode(tx, &messages.NodeAddInput{Type: "markdown", Title: &title, Content: &content}, AddOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	st, _, _ := tx.Commit()
	return st
}

// One auto-placed add on a 10,000-node canvas (placement + index upkeep).
func BenchmarkAddNodeOn10k(b *testing.B) {
	base := canvasWith(b, 10000)
	in := &messages.NodeAddInput{Type: "markdown"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tx := Begin(base, DefaultEnv())
		if _, err := AddNode(tx, in, AddOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch10k(b *testing.B) {
	st := canvasWith(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(Search(st, "topic 42 deploy", 0)) == 0 {
			b.Fatal("no hits")
		}
	}
}

func BenchmarkWireLayoutJSON10k(b *testing.B) {
	st := canvasWith(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.WireLayoutJSON(ReadOptions{}).JSONBytes(); err != nil {
			b.Fatal(err)
		}
	}
}
