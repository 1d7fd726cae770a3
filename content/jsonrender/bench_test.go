package jsonrender

import (
	"fmt"
	"testing"
)

// spec200 is a decoded spec of 200 elements of the common kinds: a root
// Stack over cards of text, tables, form fields, charts and tabs.
func spec200() map[string]any {
	elements := map[string]any{}
	var children []any
	for i := range 199 {
		key := fmt.Sprintf("e%03d", i)
		children = append(children, key)
		var el map[string]any
		switch i % 6 {
		case 0:
			el = map[string]any{"type": "Text", "props": map[string]any{"content": fmt.Sprint("line ", i), "variant": "muted"}}
		case 1:
			el = map[string]any{"type": "Card", "props": map[string]any{"title": i, "description": nil, "maxWidth": "full"}}
		case 2:
			var rows []any
			for r := range 10 {
				rows = append(rows, []any{fmt.Sprint("row ", r), float64(r * i), r%2 == 0})
			}
			el = map[string]any{"type": "Table", "props": map[string]any{"columns": []any{"Name", "Value", "Even"}, "rows": rows}}
		case 3:
			el = map[string]any{"type": "Input", "props": map[string]any{"label": "Email", "value": map[string]any{"$bindState": "/form/" + key},
				"checks": []any{map[string]any{"type": "required", "message": "Required"}}}}
		case 4:
			var data []any
			for d := range 20 {
				data = append(data, map[string]any{"day": fmt.Sprint("d", d), "value": float64(d)})
			}
			el = map[string]any{"type": "bar", "props": map[string]any{"data": data, "xKey": "day", "yKey": "value", "highlight": "max"}}
		case 5:
			el = map[string]any{"type": "Tabs", "props": map[string]any{"tabs": []any{"One", "Two", map[string]any{"title": "Three", "id": 3}}}}
		}
		elements[key] = el
	}
	elements["root"] = map[string]any{"type": "Stack", "props": map[string]any{"gap": "md"}, "children": children}
	return map[string]any{"root": "root", "elements": elements, "state": map[string]any{"form": map[string]any{}}}
}

// BenchmarkNormalize200Elements normalises and validates a 200-element
// spec, copying it first as Normalize always does.
func BenchmarkNormalize200Elements(b *testing.B) {
	spec := spec200()
	if s, err := Normalize(spec); err != nil || len(s.Elements) != 200 {
		b.Fatalf("Normalize: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Normalize(spec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStream1000Patches streams a 500-element UI in 1,000 patches
// over ten calls, half the patches as JSONL, and reports the time per patch.
func BenchmarkStream1000Patches(b *testing.B) {
	ps := buildPatches(1000)
	var calls [][]any
	for i := 0; i < len(ps); i += 70 {
		calls = append(calls, ps[i:min(i+70, len(ps))])
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var s Stream
		total := 0
		for _, c := range calls {
			applied, _, err := s.Apply(c)
			if err != nil {
				b.Fatal(err)
			}
			total += applied
		}
		if total != 1000 {
			b.Fatalf("applied %d patches", total)
		}
		n++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*1000), "ns/patch")
}
