// Package build bundles the viewer's browser code: esbuild (through its Go
// API) for the two scripts and the Tailwind CSS 4 command line (run with
// node from the viewer's node_modules) for the stylesheet. The command
// internal/gen/cmd/webbuild writes the result to web/viewer/dist, which is
// committed so that `go build` alone needs neither node nor npm; the
// viewer's staleness test rebuilds into a temporary directory and compares.
//
// The output is deterministic: the same sources and node_modules give the
// same bytes.
package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Files are the build outputs, by name in the output directory: the
// viewer script, the mermaid viewer script, the stylesheet, and the license
// notices esbuild collects from the bundled packages (kept beside the
// scripts instead of inlined into every document).
var Files = []string{
	"viewer.js",
	"viewer.js.LEGAL.txt",
	"viewer-mermaid.js",
	"viewer-mermaid.js.LEGAL.txt",
	"viewer.css",
}

// entries maps each script's output name (without .js) to its source.
var entries = []api.EntryPoint{
	{InputPath: "src/viewer.tsx", OutputPath: "viewer"},
	{InputPath: "src/mermaid.ts", OutputPath: "viewer-mermaid"},
}

// ErrNoModules reports that dir has no node_modules: run npm ci first.
var ErrNoModules = errors.New("web/viewer/node_modules is missing (run: npm ci --prefix web/viewer)")

// Build bundles the viewer whose package.json is in dir (web/viewer) and
// writes Files into out, creating it if needed.
func Build(dir, out string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return ErrNoModules
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	files, err := Scripts(dir)
	if err != nil {
		return err
	}
	css, err := Stylesheet(dir)
	if err != nil {
		return err
	}
	files["viewer.css"] = css
	for name, data := range files {
		if err := CheckInline(name, data); err != nil {
			return err
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// CheckInline reports whether a built file can be inlined into a document
// as it is: a script must not contain "</script" (which would end its
// element) nor "<!--" together with "<script" (which would make the HTML
// parser skip the real end tag), and a stylesheet must not contain
// "</style". esbuild already escapes "</script" in strings; this keeps
// anything else from slipping through.
func CheckInline(name string, data []byte) error {
	lower := bytes.ToLower(data)
	switch {
	case strings.HasSuffix(name, ".js"):
		if bytes.Contains(lower, []byte("</script")) {
			return fmt.Errorf("%s contains </script and cannot be inlined", name)
		}
		if bytes.Contains(lower, []byte("<!--")) && bytes.Contains(lower, []byte("<script")) {
			return fmt.Errorf("%s contains both <!-- and <script and cannot be inlined", name)
		}
	case strings.HasSuffix(name, ".css"):
		if bytes.Contains(lower, []byte("</style")) {
			return fmt.Errorf("%s contains </style and cannot be inlined", name)
		}
	}
	return nil
}

// Scripts bundles the two entry points of dir and returns the output files
// by name: minified ES2020 IIFEs with React in production mode, every
// import inlined (mermaid's lazily loaded diagram modules too), so a
// document needs nothing from the network.
func Scripts(dir string) (map[string][]byte, error) {
	result := api.Build(api.BuildOptions{
		AbsWorkingDir:       dir,
		EntryPointsAdvanced: entries,
		Outdir:              filepath.Join(dir, "dist"),
		Bundle:              true,
		Write:               false,
		Format:              api.FormatIIFE,
		Platform:            api.PlatformBrowser,
		Target:              api.ES2020,
		MinifyWhitespace:    true,
		MinifyIdentifiers:   true,
		MinifySyntax:        true,
		JSX:                 api.JSXAutomatic,
		LegalComments:       api.LegalCommentsExternal,
		Define:              map[string]string{"process.env.NODE_ENV": `"production"`},
		LogLevel:            api.LogLevelSilent,
		Plugins:             []api.Plugin{zodEnglishOnly(dir)},
	})
	if len(result.Errors) > 0 {
		msgs := api.FormatMessages(result.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild: %s", strings.Join(msgs, ""))
	}
	files := make(map[string][]byte, len(result.OutputFiles))
	for _, f := range result.OutputFiles {
		files[filepath.Base(f.Path)] = f.Contents
	}
	for _, name := range Files {
		if _, ok := files[name]; !ok && name != "viewer.css" {
			return nil, fmt.Errorf("esbuild wrote no %s", name)
		}
	}
	return files, nil
}

// Stylesheet runs the Tailwind CSS command line from dir's node_modules on
// src/viewer.css and returns the minified stylesheet.
func Stylesheet(dir string) ([]byte, error) {
	cli, err := tailwindCLI(dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "pmx-viewer-css-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	outFile := filepath.Join(tmp, "viewer.css")
	cmd := exec.Command("node", cli, "--input", "src/viewer.css", "--output", outFile, "--minify")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tailwindcss: %v\n%s", err, stderr.Bytes())
	}
	return os.ReadFile(outFile)
}

// tailwindCLI finds the script of @tailwindcss/cli's tailwindcss command.
func tailwindCLI(dir string) (string, error) {
	pkgDir := filepath.Join(dir, "node_modules", "@tailwindcss", "cli")
	raw, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("@tailwindcss/cli is not installed: %w", err)
	}
	var pkg struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return "", fmt.Errorf("@tailwindcss/cli package.json: %w", err)
	}
	bin := pkg.Bin["tailwindcss"]
	if bin == "" {
		return "", errors.New("@tailwindcss/cli has no tailwindcss command")
	}
	return filepath.Join(pkgDir, bin), nil
}

// zodEnglishOnly resolves zod's own import of its locale table to
// src/zod-locales.ts, which has English only (see that file).
func zodEnglishOnly(dir string) api.Plugin {
	stub := filepath.Join(dir, "src", "zod-locales.ts")
	return api.Plugin{
		Name: "zod-english-only",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `^\.\./locales/index\.js$`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				if !strings.Contains(filepath.ToSlash(args.Importer), "/node_modules/zod/") {
					return api.OnResolveResult{}, nil
				}
				return api.OnResolveResult{Path: stub}, nil
			})
		},
	}
}
