package diagram

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// decode is what JSON decoding gives for a request body's elements field.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNormalizeElementsErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    any
		field string
		want  string
	}{
		{"missing", nil, "elements", "elements is required"},
		{"number", 3.0, "elements", "elements must be an array of Excalidraw element objects or that array as a JSON string (got number)"},
		{"object", map[string]any{"type": "rectangle"}, "elements", "(got object)"},
		{"boolean", true, "elements", "(got boolean)"},
		{"empty string", "", "elements", "elements must not be empty"},
		{"blank string", "  \n\t", "elements", "elements must not be empty"},
		{"empty array", []any{}, "elements", "elements must not be empty"},
		{"empty JSON array", "[]", "elements", "elements must not be empty"},
		{"invalid JSON", `[{"type":"rectangle"`, "elements", "elements is not valid JSON"},
		{"trailing data", `[] []`, "elements", "elements is not valid JSON"},
		{"JSON object", `{"type":"rectangle"}`, "elements", "elements must be a JSON array of element objects (got object)"},
		{"JSON string", `"[]"`, "elements", "(got string)"},
		{"JSON null", `null`, "elements", "(got null)"},
		{"entry not object", []any{map[string]any{"type": "text"}, map[string]any{}, 1.0, "x"}, "elements[2]", "elements[2] must be an object (got number)"},
		{"entry null", `[{"type":"rectangle"},null]`, "elements[1]", "elements[1] must be an object (got null)"},
		{"entry array", `[[1,2]]`, "elements[0]", "elements[0] must be an object (got array)"},
		{"nil map from Go", []map[string]any{nil}, "elements[0]", "elements[0] must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeElements(tt.in)
			if err == nil {
				t.Fatalf("no error, got %v", got)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *InputError", err)
			}
			if ie.Field != tt.field {
				t.Errorf("field = %q, want %q", ie.Field, tt.field)
			}
			if !strings.HasPrefix(err.Error(), tt.field+" ") {
				t.Errorf("error %q does not start with the field %q", err, tt.field)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestNormalizeElementsDefault(t *testing.T) {
	tests := []struct {
		name string
		in   any
		keep int // elements kept before the default
	}{
		{"camera only", `[{"type":"cameraUpdate","x":0,"y":0,"width":800,"height":600}]`, 1},
		{"delete only", `[{"type":"delete","ids":"a,b"}]`, 1},
		{"unknown type", `[{"type":"sticker","x":1}]`, 1},
		{"no type", `[{"id":"a"},{}]`, 2},
		{"type not a string", []any{map[string]any{"type": 7.0}}, 1},
		{"only deleted", `[{"type":"rectangle","isDeleted":true}]`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if s, ok := in.(string); ok {
				in = decode(t, s)
			}
			got, err := NormalizeElements(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.keep+1 {
				t.Fatalf("got %d elements, want %d: %v", len(got), tt.keep+1, got)
			}
			if !reflect.DeepEqual(got[tt.keep], DefaultElement()) {
				t.Errorf("last element = %v, want the default rectangle", got[tt.keep])
			}
		})
	}
	d := DefaultElement()
	if d["id"] != "pmx-start" || d["type"] != "rectangle" || d["label"].(map[string]any)["text"] != "PMX Canvas" {
		t.Errorf("default element = %v", d)
	}
	// Each call returns a fresh copy.
	d["label"].(map[string]any)["text"] = "changed"
	if DefaultElement()["label"].(map[string]any)["text"] != "PMX Canvas" {
		t.Error("DefaultElement shares its label map")
	}
}

func TestNormalizeElementsKeepsInput(t *testing.T) {
	const in = `[
		{"type":"cameraUpdate","x":0,"y":0,"width":800,"height":600},
		{"type":"rectangle","id":"r","x":10,"y":20,"width":100,"height":50,"customData":{"k":1},"strokeColor":"#f00"},
		{"type":"restoreCheckpoint","id":"pmx-n"},
		{"type":"delete","ids":"old"},
		{"type":"text","id":"t","x":0,"y":0,"text":"free","containerId":null}
	]`
	want := decode(t, in)
	for _, form := range []struct {
		name string
		v    any
	}{{"array", decode(t, in)}, {"JSON string", in}} {
		t.Run(form.name, func(t *testing.T) {
			got, err := NormalizeElements(form.v)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got)
			if !reflect.DeepEqual(decode(t, string(b)), want) {
				t.Errorf("got %s\nwant the input unchanged", b)
			}
		})
	}
}

func TestNormalizeElementsRestoreIsRenderable(t *testing.T) {
	got, err := NormalizeElements(`[{"type":"restoreCheckpoint","id":"pmx-a"},{"type":"cameraUpdate","x":0,"y":0,"width":400,"height":300}]`)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Errorf("a restore got extra elements: %v", got)
	}
}

func TestNormalizeElementsLabels(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			"string label becomes an object",
			`[{"type":"rectangle","id":"r","label":"Start"}]`,
			`[{"type":"rectangle","id":"r","label":{"text":"Start"}}]`,
		},
		{
			"label object kept",
			`[{"type":"ellipse","id":"e","label":{"text":"A","fontSize":28,"textAlign":"left"}}]`,
			`[{"type":"ellipse","id":"e","label":{"text":"A","fontSize":28,"textAlign":"left"}}]`,
		},
		{
			"bound text after its container",
			`[{"type":"rectangle","id":"r","boundElements":[{"type":"text","id":"t"},{"type":"arrow","id":"a"}]},
			  {"type":"text","id":"t","text":"Hello","fontSize":24,"containerId":"r"}]`,
			`[{"type":"rectangle","id":"r","boundElements":[{"type":"arrow","id":"a"}],"label":{"text":"Hello","fontSize":24}}]`,
		},
		{
			"bound text before its container, originalText preferred",
			`[{"type":"text","id":"t","text":"Hel\nlo","originalText":"Hello","containerId":"d"},
			  {"type":"diamond","id":"d","boundElements":[{"type":"text","id":"t"}]}]`,
			`[{"type":"diamond","id":"d","label":{"text":"Hello"}}]`,
		},
		{
			"arrow label from bound text",
			`[{"type":"arrow","id":"a","x":0,"y":0,"points":[[0,0],[100,0]]},{"type":"text","id":"t","text":"calls","containerId":"a"}]`,
			`[{"type":"arrow","id":"a","x":0,"y":0,"points":[[0,0],[100,0]],"label":{"text":"calls"}}]`,
		},
		{
			"explicit label wins over bound text",
			`[{"type":"rectangle","id":"r","label":"Mine"},{"type":"text","id":"t","text":"Theirs","containerId":"r"}]`,
			`[{"type":"rectangle","id":"r","label":{"text":"Mine"}}]`,
		},
		{
			"first bound text wins",
			`[{"type":"rectangle","id":"r"},{"type":"text","text":"one","containerId":"r"},{"type":"text","text":"two","containerId":"r"}]`,
			`[{"type":"rectangle","id":"r","label":{"text":"one"}}]`,
		},
		{
			"label object without text is filled, other fields kept",
			`[{"type":"rectangle","id":"r","label":{"fontSize":30}},{"type":"text","text":"x","containerId":"r"}]`,
			`[{"type":"rectangle","id":"r","label":{"text":"x","fontSize":30}}]`,
		},
		{
			"dangling containerId dropped, text kept",
			`[{"type":"text","id":"t","x":0,"y":0,"text":"alone","containerId":"nope"}]`,
			`[{"type":"text","id":"t","x":0,"y":0,"text":"alone"}]`,
		},
		{
			"text is not a container",
			`[{"type":"text","id":"a","text":"A"},{"type":"text","id":"b","text":"B","containerId":"a"}]`,
			`[{"type":"text","id":"a","text":"A"},{"type":"text","id":"b","text":"B"}]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := decode(t, tt.in)
			before, _ := json.Marshal(input)
			got, err := NormalizeElements(input)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got)
			if !reflect.DeepEqual(decode(t, string(b)), decode(t, tt.want)) {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			after, _ := json.Marshal(input)
			if string(before) != string(after) {
				t.Errorf("the input was modified:\n%s\n%s", before, after)
			}
		})
	}
}

func TestNormalizeElementsGoMaps(t *testing.T) {
	got, err := NormalizeElements([]map[string]any{{"type": "ellipse", "x": 1, "y": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0]["type"] != "ellipse" {
		t.Errorf("got %v", got)
	}
}
