package httpapi

import (
	"os"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// docs/http-api.md documents every route the catalog serves and every error
// code the catalogue defines.
func TestHTTPDocsCoverCatalog(t *testing.T) {
	raw, err := os.ReadFile("../../docs/http-api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			if heading := "### `" + r.Method + " " + r.Path + "`"; !strings.Contains(doc, heading) {
				t.Errorf("docs/http-api.md has no section %s (op %s)", heading, op.Name)
			}
		}
	}
	for _, spec := range messages.ErrorCatalog {
		if !strings.Contains(doc, "| `"+string(spec.Code)+"` |") {
			t.Errorf("docs/http-api.md does not list error code %s", spec.Code)
		}
	}
}
