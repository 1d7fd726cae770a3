package messages

import (
	"reflect"
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
		}
	}
}
