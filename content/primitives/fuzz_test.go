package primitives

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The seed corpus is in testdata/fuzz/FuzzBuild.

const marker = "<pmx-x>"

// FuzzBuild builds a kind chosen by k from arbitrary JSON data with a
// marker appended to every string, and checks that Build never panics,
// fails only with its own errors, and returns a document in which the
// marker is always escaped.
func FuzzBuild(f *testing.F) {
	f.Fuzz(func(t *testing.T, k uint8, raw []byte) {
		var data map[string]any
		if json.Unmarshal(raw, &data) != nil {
			return
		}
		kinds := Kinds()
		kind := kinds[int(k)%len(kinds)]
		marked, _ := markStrings(data, "").(map[string]any)
		res, err := Build(kind, "T"+marker, marked)
		if err != nil {
			var de *DataError
			if !errors.As(err, &de) && !strings.HasPrefix(err.Error(), "Invalid presentation theme") {
				t.Fatalf("Build(%s, %s) failed with a foreign error %T: %v", kind, raw, err, err)
			}
			return
		}
		if !strings.HasPrefix(res.HTML, "<!doctype html>") || !strings.HasSuffix(res.HTML, "</html>\n") {
			t.Fatalf("Build(%s, %s) is not a whole document", kind, raw)
		}
		if i := strings.Index(res.HTML, "<pmx-x"); i >= 0 {
			t.Fatalf("Build(%s, %s) wrote the marker unescaped: %q", kind, raw, res.HTML[max(0, i-80):i+10])
		}
		if res.Presentation && res.SlideCount != len(res.SlideTitles) {
			t.Fatalf("Build(%s, %s): slideCount %d but %d titles", kind, raw, res.SlideCount, len(res.SlideTitles))
		}
	})
}

// markStrings appends the marker to every string and to the keys of
// "variables" objects (which the prompt tuner shows), but not to a theme
// name, which must stay valid to be rendered at all.
func markStrings(v any, key string) any {
	switch v := v.(type) {
	case string:
		if key == "theme" || key == "presentationTheme" {
			return v
		}
		return v + marker
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = markStrings(e, key)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			nk := k
			if key == "variables" {
				nk = k + marker
			}
			out[nk] = markStrings(e, k)
		}
		return out
	}
	return v
}

// BenchmarkBuild renders each kind's example.
func BenchmarkBuild(b *testing.B) {
	for _, d := range Descriptors() {
		b.Run(d.Kind, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Build(d.Kind, "", d.Example); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
