package diagram

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzNormalizeElements feeds JSON-array strings (and their decoded form)
// to NormalizeElements and BuildOpen: they never panic, a success is never
// empty, a failure is an *InputError, and the arguments BuildOpen sends
// are a JSON array that normalises to itself.
func FuzzNormalizeElements(f *testing.F) {
	for _, s := range []string{
		``, `[]`, `{}`, `null`, `[null]`, `[1]`, `"x"`, `[{}]`,
		`[{"type":"rectangle","x":0,"y":0,"width":100,"height":50,"label":"A"}]`,
		`[{"type":"rectangle","id":"r"},{"type":"text","text":"t","containerId":"r","fontSize":20}]`,
		`[{"type":"text","text":"t","containerId":"r"},{"type":"rectangle","id":"r","boundElements":[{"type":"text","id":"t"}]}]`,
		`[{"type":"arrow","x":0,"y":0,"points":[[0,0],[1e308,-1e308]]}]`,
		`[{"type":"line","points":[[1],[null,2],"x"]}]`,
		`[{"type":"cameraUpdate","x":0,"y":0,"width":800,"height":600},{"type":"ellipse"}]`,
		`[{"type":"restoreCheckpoint","id":"pmx-a"}]`,
		`[{"type":"delete","ids":"a"}]`,
		`[{"type":"text","text":"a\nbb\nccc","fontSize":-3}]`,
		`[{"type":"rectangle","x":1e308,"width":1e308}]`,
		`[{"type":"rectangle","id":"r","label":{"fontSize":"big"}},{"type":"text","id":"t","containerId":"r"}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var decoded any
		forms := []any{s}
		if json.Unmarshal([]byte(s), &decoded) == nil {
			forms = append(forms, decoded)
		}
		for _, v := range forms {
			els, err := NormalizeElements(v)
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("error %T %v is not an *InputError", err, err)
				}
				continue
			}
			if len(els) == 0 {
				t.Fatal("empty success")
			}
			in, err := BuildOpen(v, "")
			if err != nil {
				t.Fatalf("BuildOpen failed after NormalizeElements succeeded: %v", err)
			}
			arg := in.ToolArguments["elements"].(string)
			again, err := NormalizeElements(arg)
			if err != nil {
				t.Fatalf("sent elements %q do not normalise: %v", arg, err)
			}
			var sentEls []map[string]any
			if err := json.Unmarshal([]byte(arg), &sentEls); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again, sentEls) {
				t.Fatalf("normalising the sent elements changed them:\n%v\n%v", sentEls, again)
			}
			cam := Camera(els)
			w, h := cam["width"].(float64), cam["height"].(float64)
			if !(w > 0) || w*3 != h*4 {
				t.Fatalf("camera %v is not a positive 4:3 size", cam)
			}
		}
	})
}
