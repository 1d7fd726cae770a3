package main

import (
	"slices"
	"testing"
	"time"
)

func TestParseInts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "32", want: []int{32}},
		{in: "1, 8,32", want: []int{1, 8, 32}},
		{in: "0", bad: true},
		{in: "1,x", bad: true},
		{in: "", bad: true},
	} {
		got, err := parseInts("c", tc.in)
		if tc.bad != (err != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("parseInts(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestMedians(t *testing.T) {
	if got := median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median of 3,1,2 = %v", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median of 4,1,3,2 = %v", got)
	}
	in := []time.Duration{5, 1, 9}
	if got := median(in); got != 5 || !slices.Equal(in, []time.Duration{5, 1, 9}) {
		t.Errorf("median of durations = %v (input now %v)", got, in)
	}
}

// Variants interleave binaries outermost, then canvas counts, and labels
// name only what varies.
func TestVariantsAndLabels(t *testing.T) {
	cfg := config{bins: []string{"old/pmx-canvas", "bin/new"}, canvasCounts: []int{1, 32}, repeat: 1}
	var labels []string
	for _, v := range cfg.variants() {
		labels = append(labels, v.label(cfg))
	}
	if want := []string{"pmx-canvas/cv1", "pmx-canvas/cv32", "new/cv1", "new/cv32"}; !slices.Equal(labels, want) {
		t.Fatalf("labels %v, want %v", labels, want)
	}
	one := config{bins: []string{"bin/pmx-canvas"}, canvasCounts: []int{1}, repeat: 1, label: "durable"}
	if one.multi() || one.variants()[0].label(one) != "durable" {
		t.Fatalf("a single variant: multi %v, label %q", one.multi(), one.variants()[0].label(one))
	}
}
