package jsonrender

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGolden normalises each testdata/specs/*.json and compares the result
// (the spec, or {"error": …}) with testdata/golden/<same name>. With
// -update it writes the golden files instead.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "specs", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 10 {
		t.Fatalf("found %d specs under testdata/specs, want at least 10", len(inputs))
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var result any
			spec, err := Normalize(src)
			if err != nil {
				result = map[string]string{"error": err.Error()}
			} else {
				result = spec
				again, err := Normalize(spec)
				if err != nil || !reflect.DeepEqual(again, spec) {
					t.Fatalf("normalising the output again gives %v, %v", again, err)
				}
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(result); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name)
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./content/jsonrender -update to write it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("Normalize(%s) differs from %s:\n%s", in, golden, got.String())
			}
		})
	}
}
