package jsonrender

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The seed corpora are in testdata/fuzz/<FuzzName>.

// FuzzNormalize checks that Normalize fails only with its own errors, and
// that what it returns is valid (every child and the root exist, every
// type is a component, the defaults are set) and normalises to itself.
func FuzzNormalize(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := Normalize(data)
		if err != nil {
			var se *SpecError
			switch {
			case errors.Is(err, ErrMissingRoot):
			case errors.As(err, &se):
				if len(se.Issues) == 0 || !strings.HasPrefix(err.Error(), "Invalid json-render spec: ") {
					t.Fatalf("SpecError %q with %d issues", err, len(se.Issues))
				}
			case strings.HasPrefix(err.Error(), "jsonrender: spec is not valid JSON: "):
			default:
				t.Fatalf("Normalize(%q): unexpected error %v", data, err)
			}
			return
		}
		if _, ok := spec.Elements[spec.Root]; !ok {
			t.Fatalf("root %q is not an element", spec.Root)
		}
		for key, el := range spec.Elements {
			if byName[el.Type] == nil || el.Props == nil || el.Children == nil || el.Visible == nil || el.On == nil {
				t.Fatalf("element %q is not normal: %+v", key, el)
			}
			for _, c := range el.Children {
				if spec.Elements[c] == nil {
					t.Fatalf("element %q has the missing child %q", key, c)
				}
			}
		}
		out, err := json.Marshal(spec)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := Normalize(out)
		if err != nil {
			t.Fatalf("Normalize(%s) failed on its own output: %v", out, err)
		}
		if !reflect.DeepEqual(again, spec) {
			t.Fatalf("not idempotent:\n once  %s\n twice %s", out, mustJSON(t, again))
		}
	})
}

// fuzzLimits are small, so the fuzzer reaches them.
var fuzzLimits = Limits{MaxPatches: 64, MaxBytes: 4096, MaxElements: 20}

// FuzzStreamApply feeds data to a stream as a JSONL string and, when it is
// a JSON array, as patch objects too. A call must either apply, counting
// every patch as applied or skipped and keeping the size exact, or be
// refused for a limit or a forbidden key, changing nothing. Close must
// either fail or give a spec that normalises to itself.
func FuzzStreamApply(f *testing.F) {
	start := map[string]any{"root": "card", "elements": map[string]any{
		"card": map[string]any{"type": "Card", "props": map[string]any{"title": "t"}, "children": []any{"list"}},
		"list": map[string]any{"type": "Stack", "children": []any{}},
	}, "state": map[string]any{"items": []any{1.0, "two", nil}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ResumeStream(start, 3, fuzzLimits)
		if err != nil {
			t.Fatal(err)
		}
		patches := []any{string(data)}
		want := 0
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) != "" {
				want++
			}
		}
		var list []any
		if json.Unmarshal(data, &list) == nil {
			patches = append(patches, list...)
			want += len(list)
		}
		before := mustJSON(t, s.Document())
		applied, skipped, err := s.Apply(patches)
		after := mustJSON(t, s.Document())
		if err != nil {
			if !errors.Is(err, ErrLimit) && !errors.Is(err, ErrForbiddenKey) {
				t.Fatalf("Apply: unexpected error %v", err)
			}
			if after != before || s.SpecVersion() != 3 || s.Size() != len(before) || applied+skipped != 0 {
				t.Fatalf("a refused call changed the stream: %s → %s", before, after)
			}
			return
		}
		if applied+skipped != want || s.SpecVersion() != 4 {
			t.Fatalf("applied %d + skipped %d of %d patches, version %d", applied, skipped, want, s.SpecVersion())
		}
		if s.Size() != len(after) || s.Size() > fuzzLimits.MaxBytes || s.ElementCount() > fuzzLimits.MaxElements {
			t.Fatalf("size %d for %d bytes, %d elements", s.Size(), len(after), s.ElementCount())
		}
		findForbidden(s.Document(), nil, func(path []string) bool {
			t.Fatalf("a forbidden key got in at %v: %s", path, after)
			return false
		})
		spec, err := s.Close()
		if err != nil {
			if s.Status() != StatusOpen {
				t.Fatal("a failed Close closed the stream")
			}
			return
		}
		again, err := Normalize(spec)
		if err != nil || !reflect.DeepEqual(again, spec) {
			t.Fatalf("closed spec does not normalise to itself: %v", err)
		}
	})
}
