package cli

// Commands that arrive with later work: the bundled Copilot extension. It
// keeps the reference's flags and help and fails with {"error":"<command>:
// not available yet","hint":...} and exit 1, without contacting the
// server.

import (
	"fmt"

	"github.com/spf13/cobra"
)

// Later capabilities (what a command waits for).
const (
	laterCopilot = "the bundled Copilot extension"
)

// notAvailable is the failure of a command this build cannot run yet.
func notAvailable(command, capability string) error {
	return &cliError{
		Msg:  command + ": not available yet",
		Hint: fmt.Sprintf("This build of pmx-canvas does not include %s yet; see \"Not available yet\" in docs/cli.md.", capability),
	}
}

// later builds a leaf that fails with notAvailable.
func later(use, short, example, capability string) *cobra.Command {
	cmd := leaf(use, short+" (not available yet)", example, nil)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return notAvailable(commandWords(cmd), capability)
	}
	return cmd
}

func init() {
	handCommands = append(handCommands, func(agents *cobra.Command, _ *ioStreams) {
		for _, c := range []*cobra.Command{
			newHTMLCommand(), newCopilotCommand(),
		} {
			under(agents, "", c)
		}
	})
}

func newHTMLCommand() *cobra.Command {
	add := leaf("add", "Add an HTML primitive node",
		examples(`pmx-canvas html primitive add --kind choice-grid --title "Pick one" --data-file ./choices.json`), nil)
	add.RunE = runPrimitiveAdd
	f := add.Flags()
	f.String("kind", "", "primitive kind (choice-grid, plan-timeline, review-sheet, ...)")
	f.String("primitive", "", "alias of --kind")
	f.String("title", "", "title")
	f.String("data-file", "", "file holding the data object")
	f.String("data-json", "", "the data object inline")
	f.String("data", "", "alias of --data-json")
	f.Bool("stdin", false, "read the data object from stdin")
	addGeometryFlags(add, true)
	f.Bool("strict-size", false, "keep the given size")
	schema := newPrimitiveSchemaCommand()
	primitive := newGroup("primitive", "HTML primitives: generated HTML surfaces from a data object",
		examples("pmx-canvas html primitive schema --summary"), add, schema)
	return newGroup("html", "HTML surfaces", examples("pmx-canvas html primitive add --kind flowchart --data-file ./flow.json"), primitive)
}

func newCopilotCommand() *cobra.Command {
	install := later("install-extension", "Install the pmx-canvas GitHub Copilot CLI extension into this repository",
		examples("pmx-canvas copilot install-extension --dry-run", "pmx-canvas copilot install-extension --target ./.github/extensions/pmx-canvas/extension.mjs --yes"),
		laterCopilot)
	install.Flags().Bool("dry-run", false, "show what would be written")
	install.Flags().String("target", "", "target file (default .github/extensions/pmx-canvas/extension.mjs)")
	install.Flags().Bool("yes", false, "overwrite an existing target")
	return newGroup("copilot", "GitHub Copilot integration", examples("pmx-canvas copilot install-extension --dry-run"), install)
}
