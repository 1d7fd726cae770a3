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

// The GET audit in docs/http-api.md names every GET route of the catalog,
// and marks as state-changing exactly the one the catalog says changes
// state with a lease.
func TestGETAuditCoversEveryGETRoute(t *testing.T) {
	raw, err := os.ReadFile("../../docs/http-api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "### GET routes and side effects")
	end := strings.Index(doc, "### Errors")
	if start < 0 || end < start {
		t.Fatal("docs/http-api.md has no GET audit section before Errors")
	}
	audit := doc[start:end]
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			if r.Method != "GET" {
				continue
			}
			short := strings.TrimPrefix(strings.TrimPrefix(r.Path, "/api/canvas/"), "/api/")
			short = strings.TrimPrefix(short, "workbench/")
			if !strings.Contains(audit, "`"+short+"`") {
				t.Errorf("the GET audit does not list %s (op %s)", r.Path, op.Name)
			}
		}
	}
}
