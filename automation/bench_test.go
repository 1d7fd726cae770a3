package automation_test

import (
	"context"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/automation"
)

// Browser costs as an agent sees them, without HTTP: a session start (launch
// Chromium, load a page), an evaluate round trip, a resize, and viewport
// screenshots at 1280×800. make bench records them in docs/benchmarks.md.

func BenchmarkChromiumStart(b *testing.B) {
	c := chromium(b)
	srv := pageServer(b)
	for b.Loop() {
		s, err := c.Start(context.Background(), srv.URL, automation.Options{Width: automation.DefaultWidth, Height: automation.DefaultHeight})
		if err != nil {
			b.Fatal(err)
		}
		_ = s.Close()
	}
}

func BenchmarkChromiumEvaluate(b *testing.B) {
	s := startPage(b, chromium(b), automation.DefaultWidth, automation.DefaultHeight)
	src := automation.ExpressionSource("document.querySelectorAll('.canvas-node').length")
	for b.Loop() {
		if _, _, err := s.Evaluate(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChromiumResize(b *testing.B) {
	s := startPage(b, chromium(b), automation.DefaultWidth, automation.DefaultHeight)
	i := 0
	for b.Loop() {
		i++
		if err := s.Resize(context.Background(), 1000+i%200, 700); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChromiumScreenshot(b *testing.B) {
	q := 70
	for _, tc := range []struct {
		format  string
		quality *int
	}{{"png", nil}, {"jpeg", &q}, {"webp", nil}} {
		b.Run(tc.format, func(b *testing.B) {
			s := startPage(b, chromium(b), automation.DefaultWidth, automation.DefaultHeight)
			var size int
			for b.Loop() {
				img, err := s.Screenshot(context.Background(), tc.format, tc.quality)
				if err != nil {
					b.Fatal(err)
				}
				size = len(img)
			}
			b.ReportMetric(float64(size), "bytes/image")
		})
	}
}
