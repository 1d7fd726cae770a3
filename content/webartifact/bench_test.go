package webartifact

import (
	"context"
	"testing"
)

// BenchmarkBuildDefault is a cold default artifact: a fresh workspace each
// iteration, so the project is written, React bundled and minified and the
// page written from nothing. The target is at most 2 s per build.
func BenchmarkBuildDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		root := b.TempDir()
		b.StartTimer()
		if _, err := Build(context.Background(), Options{Root: root, Title: "Bench", AppTsx: counterApp}); err != nil {
			b.Fatal(err)
		}
	}
}
