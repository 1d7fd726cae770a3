package codegraph

import (
	"reflect"
	"strings"
	"testing"
)

func TestImportsGo(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"single", "package a\nimport \"fmt\"\n", []string{"import fmt"}},
		{"block with aliases, dot, blank and comments", `package a

import (
	"errors" // trailing comment
	f "fmt"
	. "strings"
	_ "embed"
	/* "not/an/import" */
	// "nor/this"
	"github.com/x/y/internal/foo"
)

import "os"
`, []string{"import errors", "import fmt", "import strings", "import embed", "import github.com/x/y/internal/foo", "import os"}},
		{"raw string path", "package a\nimport `net/http`\n", []string{"import net/http"}},
		{"strings in code do not count", "package a\nimport \"fmt\"\nvar s = `import \"os\"`\nfunc f() { fmt.Println(\"import \\\"x\\\"\") }\n",
			[]string{"import fmt"}},
		{"repeats collapse", "package a\nimport \"fmt\"\nimport g \"fmt\"\n", []string{"import fmt"}},
		{"no imports", "package a\nfunc f() {}\n", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imps, err := Imports("a.go", tt.src)
			if err != nil {
				t.Fatalf("Imports: %v", err)
			}
			if got := specs(imps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestImportsGoSyntaxError(t *testing.T) {
	src := "package a\nimport (\n\t\"fmt\"\n\t\"os\"\n\t12\n)\n"
	imps, err := Imports("dir/a.go", src)
	if err == nil || !strings.Contains(err.Error(), "dir/a.go:5") {
		t.Fatalf("error = %v, want one naming dir/a.go:5", err)
	}
	if got := specs(imps); !reflect.DeepEqual(got, []string{"import fmt", "import os"}) {
		t.Errorf("imports before the error = %q, want fmt and os", got)
	}
}
