package cli

// Hand-written command groups: html primitives and the Copilot extension.

import (
	_ "embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

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

// copilotExtension is the GitHub Copilot CLI extension copilot
// install-extension writes: tools over this server's HTTP API.
//
//go:embed copilot/extension.mjs
var copilotExtension []byte

// copilotSource names the extension's source in the command's output.
const copilotSource = "pmx-canvas:copilot/extension.mjs"

func newCopilotCommand() *cobra.Command {
	install := leaf("install-extension", "Install the pmx-canvas GitHub Copilot CLI extension into this repository",
		examples("pmx-canvas copilot install-extension --dry-run", "pmx-canvas copilot install-extension --target ./.github/extensions/pmx-canvas/extension.mjs --yes"), nil)
	install.Flags().Bool("dry-run", false, "show what would be written")
	install.Flags().String("target", "", "target file (default .github/extensions/pmx-canvas/extension.mjs)")
	install.Flags().Bool("yes", false, "overwrite an existing target")
	install.RunE = runCopilotInstall
	return newGroup("copilot", "GitHub Copilot integration", examples("pmx-canvas copilot install-extension --dry-run"), install)
}

// runCopilotInstall writes the extension (no server call): to --target,
// else .github/extensions/pmx-canvas/extension.mjs under the working
// directory; an existing file only with --yes.
func runCopilotInstall(cmd *cobra.Command, _ []string) error {
	const hint = "Use: pmx-canvas copilot install-extension [--dry-run] [--target PATH] [--yes]"
	target, _ := cmd.Flags().GetString("target")
	if target == "" {
		target = filepath.Join(".github", "extensions", "pmx-canvas", "extension.mjs")
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return die(hint, "Invalid --target %s: %v", target, err)
	}
	_, statErr := os.Stat(abs)
	exists := statErr == nil
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return die(hint, "Cannot check --target %s: %v", abs, statErr)
	}
	if flagBool(cmd, "dry-run") {
		return output(cmd.OutOrStdout(), ordered{{"ok", true}, {"dryRun", true}, {"sourcePath", copilotSource},
			{"targetPath", abs}, {"targetExists", exists}, {"wrote", false}})
	}
	if exists && !flagBool(cmd, "yes") {
		return die("Pass --yes to overwrite it, or --target PATH to write elsewhere.", "%s already exists", abs)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return die(hint, "Cannot create %s: %v", filepath.Dir(abs), err)
	}
	if err := os.WriteFile(abs, copilotExtension, 0o644); err != nil {
		return die(hint, "Cannot write %s: %v", abs, err)
	}
	return output(cmd.OutOrStdout(), ordered{{"ok", true}, {"dryRun", false}, {"sourcePath", copilotSource},
		{"targetPath", abs}, {"wrote", true}})
}
