package messages

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every input field says what it is: its doc is the MCP description, the
// CLI flag help and the docs' meaning column.
func TestEveryInputFieldHasADoc(t *testing.T) {
	for _, op := range Catalog {
		typ := reflect.TypeOf(op.NewInput()).Elem()
		for _, f := range op.Fields() {
			if f.Doc == "" {
				t.Errorf("%s: %s.%s has no doc tag", op.Name, typ.Name(), f.Name)
			}
		}
	}
}

// Enum tags name lists that exist, and numeric bounds are on numbers.
func TestFieldDeclarationsAreWellFormed(t *testing.T) {
	for _, op := range Catalog {
		for _, f := range op.Fields() {
			if (f.Min != nil || f.Max != nil) && f.Schema().Type != "number" {
				t.Errorf("%s.%s: bounds on a %s", op.Name, f.Name, f.Schema().Type)
			}
			if f.HandlerChecks && !f.Required {
				t.Errorf("%s.%s: handler without required", op.Name, f.Name)
			}
			if f.Default != nil {
				checkDefault(t, op.Name, f)
			}
		}
	}
}

// checkDefault: a declared default is a value of the field's type (one of
// its enum, within its bounds), and the doc does not say it a second time.
func checkDefault(t *testing.T, op string, f Field) {
	t.Helper()
	var v any
	_ = json.Unmarshal(f.Default, &v)
	s := f.Schema()
	switch x := v.(type) {
	case float64:
		if s.Type != "number" || (f.Min != nil && x < *f.Min) || (f.Max != nil && x > *f.Max) {
			t.Errorf("%s.%s: default %s does not fit a %s field in [%v, %v]", op, f.Name, f.Default, s.Type, f.Min, f.Max)
		}
	case bool:
		if s.Type != "boolean" {
			t.Errorf("%s.%s: default %s on a %s field", op, f.Name, f.Default, s.Type)
		}
	case string:
		if s.Type != "string" || (len(f.Enum) > 0 && !slices.Contains(f.Enum, x)) {
			t.Errorf("%s.%s: default %s on a %s field (enum %v)", op, f.Name, f.Default, s.Type, f.Enum)
		}
	default:
		t.Errorf("%s.%s: default %s is not a number, boolean or string", op, f.Name, f.Default)
	}
	if strings.Contains(f.Doc, "(default") {
		t.Errorf("%s.%s: the doc repeats the default tag: %q", op, f.Name, f.Doc)
	}
}
