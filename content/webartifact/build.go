package webartifact

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// Build writes the project for o under o.Root, installs o.Deps with npm
// when there are any, bundles src/main.tsx with esbuild (React from the
// embedded builds) and writes one self-contained HTML file, JavaScript and
// CSS inlined and images as data URLs, to the output path.
//
// A bundle that fails to compile is a *BuildError; every other error names
// what failed (a field, a path, npm).
func Build(ctx context.Context, o Options) (*Result, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	started := now()
	if strings.TrimSpace(o.Title) == "" || strings.TrimSpace(o.AppTsx) == "" {
		return nil, errors.New("Missing required fields: title, appTsx.")
	}
	if o.Root == "" || !filepath.IsAbs(o.Root) {
		return nil, fmt.Errorf("workspace root %q is not an absolute path", o.Root)
	}
	root := filepath.Clean(o.Root)
	for _, d := range o.Deps {
		if err := ValidateDep(d); err != nil {
			return nil, err
		}
	}
	slug := Slug(o.Title)
	projectPath, outputPath := o.ProjectPath, o.OutputPath
	if projectPath == "" {
		projectPath = fmt.Sprintf(DefaultProjectDir, slug)
	}
	if outputPath == "" {
		outputPath = fmt.Sprintf(DefaultOutputPath, slug)
	}
	projectDir, err := within(root, projectPath, "projectPath")
	if err != nil {
		return nil, err
	}
	output, err := within(root, outputPath, "outputPath")
	if err != nil {
		return nil, err
	}
	if output == root || projectDir == root {
		return nil, fmt.Errorf("projectPath and outputPath must name paths below the workspace root")
	}
	files, err := projectFiles(o, slug)
	if err != nil {
		return nil, err
	}

	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if err := writeProject(projectDir, files); err != nil {
		return nil, err
	}
	var logs []string
	if len(o.Deps) > 0 {
		out, err := installDeps(ctx, projectDir, o.Deps)
		if s := strings.TrimSpace(out); s != "" {
			logs = append(logs, s)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("web artifact build: %w", err)
	}

	js, css, warnings, err := bundle(projectDir)
	logs = append(logs, warnings...)
	if err != nil {
		return nil, err
	}
	page := inline(files["index.html"], o.Title, js, css)
	if err := writeFileAtomic(output, []byte(page)); err != nil {
		return nil, fmt.Errorf("write outputPath: %w", err)
	}

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	count := len(names)
	if len(names) > MaxSourceFiles {
		names = names[:MaxSourceFiles]
	}
	completed := now()
	return &Result{
		Path:            workspaceRel(root, output),
		ProjectPath:     workspaceRel(root, projectDir),
		Bytes:           len(page),
		StartedAt:       started,
		CompletedAt:     completed,
		DurationMs:      completed.Sub(started).Milliseconds(),
		Logs:            logs,
		SourceFiles:     names,
		SourceFileCount: count,
		SourcePreview:   preview(o.AppTsx, MaxSourcePreview),
		Deps:            append([]string(nil), o.Deps...),
	}, nil
}

// projectFiles is every file Build writes, by project-relative path:
// o.Files, then the named sources and defaults over them, and a
// package.json (so npm installs into this project, not an ancestor) when
// none is given.
func projectFiles(o Options, slug string) (map[string]string, error) {
	files := make(map[string]string, len(o.Files)+5)
	for name, body := range o.Files {
		clean, err := projectFile(name)
		if err != nil {
			return nil, err
		}
		files[clean] = body
	}
	files["src/App.tsx"] = o.AppTsx
	if o.IndexCSS != "" {
		files["src/index.css"] = o.IndexCSS
	}
	if o.MainTsx != "" {
		files["src/main.tsx"] = o.MainTsx
	} else {
		_, css := files["src/index.css"]
		files["src/main.tsx"] = defaultMainTsx(css)
	}
	if o.IndexHTML != "" {
		files["index.html"] = o.IndexHTML
	} else if _, ok := files["index.html"]; !ok {
		files["index.html"] = defaultIndexHTML
	}
	if _, ok := files["package.json"]; !ok {
		files["package.json"] = fmt.Sprintf("{\n  \"name\": %q,\n  \"private\": true,\n  \"version\": \"0.0.0\"\n}\n", slug)
	}
	return files, nil
}

// writeProject writes files into dir, creating directories as needed.
// Files already there (node_modules from an earlier build) stay.
func writeProject(dir string, files map[string]string) error {
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("write project file %s: %w", name, err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return fmt.Errorf("write project file %s: %w", name, err)
		}
	}
	return nil
}

// bundle runs esbuild on dir/src/main.tsx and returns the JavaScript, the
// CSS and esbuild's warnings.
func bundle(dir string) (js, css string, warnings []string, err error) {
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(dir, "src", "main.tsx")},
		AbsWorkingDir:     dir,
		Outdir:            filepath.Join(dir, "dist"),
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		JSX:               api.JSXAutomatic,
		JSXImportSource:   "react",
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		NodePaths:         []string{filepath.Join(dir, "node_modules")},
		Loader: map[string]api.Loader{
			".tsx": api.LoaderTSX, ".ts": api.LoaderTS, ".jsx": api.LoaderJSX, ".js": api.LoaderJS,
			".css": api.LoaderCSS, ".json": api.LoaderJSON,
			".svg": api.LoaderDataURL, ".png": api.LoaderDataURL, ".jpg": api.LoaderDataURL,
			".jpeg": api.LoaderDataURL, ".gif": api.LoaderDataURL, ".webp": api.LoaderDataURL,
			".woff": api.LoaderDataURL, ".woff2": api.LoaderDataURL,
		},
		Plugins:  []api.Plugin{vendorPlugin()},
		LogLevel: api.LogLevelSilent,
		Charset:  api.CharsetUTF8,
	})
	for _, w := range res.Warnings {
		warnings = append(warnings, "warning: "+formatMessage(w))
	}
	if len(res.Errors) > 0 {
		e := &BuildError{}
		for _, m := range res.Errors {
			e.Messages = append(e.Messages, formatMessage(m))
		}
		return "", "", warnings, e
	}
	for _, f := range res.OutputFiles {
		switch filepath.Ext(f.Path) {
		case ".js":
			js += string(f.Contents)
		case ".css":
			css += string(f.Contents)
		}
	}
	return js, css, warnings, nil
}

// writeFileAtomic writes data to p through a temporary file in the same
// directory, so a reader never sees half an artifact.
func writeFileAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// preview is the first n runes of s.
func preview(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
