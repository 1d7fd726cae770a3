package cli

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated part of docs/cli.md")

const docPath = "../../docs/cli.md"

// TestCLIReferenceDocIsUpToDate keeps the command reference in docs/cli.md
// equal to the command tree; run with -update after changing a command.
func TestCLIReferenceDocIsUpToDate(t *testing.T) {
	raw, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, DocBegin), strings.Index(doc, DocEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s lacks the markers %q ... %q", docPath, DocBegin, DocEnd)
	}
	want := doc[:begin+len(DocBegin)] + "\n\n" + ReferenceDoc() + "\n" + doc[end:]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(docPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("the command reference in %s is out of date; run: go test ./surfaces/cli -run TestCLIReferenceDoc -update", docPath)
}

// TestReferenceDocCoversTheTree checks the generated reference has a
// section, usage and example for the commands it documents.
func TestReferenceDocCoversTheTree(t *testing.T) {
	doc := ReferenceDoc()
	for _, want := range []string{
		"### pmx-canvas node add\n", "| `-x`, `--x` | number |", "### pmx-canvas ax host report\n",
		"| `--canvas` |  |  | The host can show the canvas. |", "### pmx-canvas webview start\n",
		"pmx-canvas batch --json '[", "### pmx-canvas completion bash\n",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the reference lacks %q", want)
		}
	}
	if strings.Contains(doc, "| `--server-url` |") {
		t.Error("client flags are documented per command; they belong in the preface")
	}
}
