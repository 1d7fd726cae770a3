package cli

// Commands whose server operations arrive with later work: apps (external
// apps, diagrams) and the bundled Copilot extension. Each keeps the reference's flags and help and fails with
// {"error":"<command>: not available yet","hint":...} and exit 1, without
// contacting the server. When an operation lands, give its command a RunE
// that invokes it.

import (
	"fmt"

	"github.com/spf13/cobra"
)

// Later capabilities (what a command waits for).
const (
	laterApps    = "apps (external apps, diagrams)"
	laterCopilot = "the bundled Copilot extension"
)

// laterOf maps the node types node add cannot create yet.
var laterOf = map[string]string{}

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
			newHTMLCommand(),
			newExternalAppCommand(), newDiagramCommand(), newCopilotCommand(),
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

func addExternalAppFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("title", "", `title (default "Excalidraw Diagram")`)
	f.String("node-id", "", "reuse this node (also --nodeId, --id)")
	f.String("id", "", "alias of --node-id")
	f.String("elements-json", "", "Excalidraw elements array JSON")
	f.String("elements", "", "alias of --elements-json")
	f.String("elements-file", "", "file holding the Excalidraw elements")
	f.String("initial-file", "", "alias of --elements-file")
	addGeometryFlags(cmd, true)
	addNumber(cmd, "timeout-ms", "", "app start timeout", "Use a positive number, e.g. --timeout-ms 30000", true, false)
}

func newExternalAppCommand() *cobra.Command {
	add := later("add", "Create a hosted external app node",
		examples(`pmx-canvas external-app add --kind excalidraw --title "Diagram"`), laterApps)
	add.Flags().String("kind", "", "external app kind: excalidraw")
	addExternalAppFlags(add)
	return newGroup("external-app", "Hosted external apps", examples(`pmx-canvas external-app add --kind excalidraw --title "Diagram"`), add)
}

func newDiagramCommand() *cobra.Command {
	add := later("add", "Add an Excalidraw diagram (external-app add --kind excalidraw)",
		examples(`pmx-canvas diagram add --title "Architecture"`, `pmx-canvas external-app add --kind excalidraw --title "Diagram"`), laterApps)
	addExternalAppFlags(add)
	return newGroup("diagram", "Diagrams", examples(`pmx-canvas diagram add --title "Architecture"`), add)
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
