package graphspec

import (
	"encoding/json"
	"fmt"
	"testing"
)

// FuzzBuild decodes arbitrary JSON as an Input and builds it. Build must
// never panic, and a success must be a spec whose root element exists,
// whose children exist, and which encodes as JSON. The seeds are in
// testdata/fuzz/FuzzBuild.
func FuzzBuild(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var in Input
		if json.Unmarshal(b, &in) != nil {
			return
		}
		r, err := Build(in)
		if err != nil {
			if r != nil {
				t.Fatalf("Build returned a result with error %v", err)
			}
			return
		}
		if err := checkSpec(r.Spec); err != nil {
			t.Fatalf("input %s: %v", b, err)
		}
		if r.Summary.DataPoints != len(in.Data) || r.Summary.ElementCount != 2 {
			t.Fatalf("summary %+v for %d rows", r.Summary, len(in.Data))
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
		// A rebuild from the stored config must not panic either; it may
		// fail, since stored rows lose their key order.
		if r2, err := Update(r.GraphConfig, Input{}); err == nil {
			if err := checkSpec(r2.Spec); err != nil {
				t.Fatalf("rebuilt spec: %v", err)
			}
		}
	})
}

func checkSpec(spec map[string]any) error {
	root, _ := spec["root"].(string)
	elements, _ := spec["elements"].(map[string]any)
	if _, ok := elements[root]; !ok {
		return fmt.Errorf("root %q is not among the elements", root)
	}
	for id, el := range elements {
		e, ok := el.(map[string]any)
		if !ok {
			return fmt.Errorf("element %q is %T", id, el)
		}
		if _, ok := e["type"].(string); !ok {
			return fmt.Errorf("element %q has no type", id)
		}
		children, _ := e["children"].([]any)
		for _, c := range children {
			if _, ok := elements[c.(string)]; !ok {
				return fmt.Errorf("element %q has missing child %v", id, c)
			}
		}
	}
	return nil
}

func BenchmarkBuildBar1000(b *testing.B) {
	rows := make([]map[string]any, 1000)
	for i := range rows {
		rows[i] = map[string]any{"label": fmt.Sprintf("item-%d", i), "value": float64(i % 97)}
	}
	in := Input{GraphType: "bar", Title: "Bars", Data: rows, XKey: "label", YKey: "value"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(in); err != nil {
			b.Fatal(err)
		}
	}
}
