package webartifact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// counterApp is an App with text to find and a useState click counter.
const counterApp = `import { useState } from 'react';

export default function App() {
  const [n, setN] = useState(0);
  return (
    <main>
      <h1 id="title">Hello from the artifact</h1>
      <button id="inc" onClick={() => setN(n + 1)}>clicked {n} times</button>
    </main>
  );
}
`

// external matches tags that would load something from outside the file.
var external = regexp.MustCompile(`(?i)<script[^>]*\bsrc=|<link[^>]*\bhref=`)

func build(t *testing.T, o Options) (*Result, string) {
	t.Helper()
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	res, err := Build(context.Background(), o)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(o.Root, filepath.FromSlash(res.Path)))
	if err != nil {
		t.Fatalf("read output: %v", err)
	}
	if res.Bytes != len(page) {
		t.Errorf("Bytes = %d, file has %d", res.Bytes, len(page))
	}
	if m := external.FindString(string(page)); m != "" {
		t.Errorf("output loads an external resource: %q", m)
	}
	return res, string(page)
}

func TestBuildDefault(t *testing.T) {
	root := t.TempDir()
	res, page := build(t, Options{Root: root, Title: "Counter Demo!", AppTsx: counterApp})
	if res.Path != ".pmx-canvas/artifacts/counter-demo.html" {
		t.Errorf("Path = %q", res.Path)
	}
	if res.ProjectPath != ".pmx-canvas/artifacts/.web-artifacts/counter-demo" {
		t.Errorf("ProjectPath = %q", res.ProjectPath)
	}
	for _, want := range []string{"Hello from the artifact", "<div id=\"root\"></div>", "<title>Counter Demo!</title>", "<script>"} {
		if !strings.Contains(page, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(page, "process.env") {
		t.Error("output still refers to process.env")
	}
	for _, f := range []string{"src/App.tsx", "src/main.tsx", "index.html", "package.json"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(res.ProjectPath), f)); err != nil {
			t.Errorf("project file: %v", err)
		}
	}
	if res.SourcePreview != counterApp || res.SourceFileCount != 4 || len(res.SourceFiles) != 4 {
		t.Errorf("preview/files = %q %d %q", res.SourcePreview, res.SourceFileCount, res.SourceFiles)
	}
	if res.CompletedAt.Before(res.StartedAt) || res.DurationMs < 0 {
		t.Errorf("times %v %v %d", res.StartedAt, res.CompletedAt, res.DurationMs)
	}
}

func TestBuildSources(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want []string
	}{
		{
			name: "index.css inlined",
			o:    Options{AppTsx: counterApp, IndexCSS: "body { font-family: ArtifactFont, serif; }\n"},
			want: []string{"<style>", "ArtifactFont"},
		},
		{
			name: "css imported by App",
			o: Options{
				AppTsx: "import './app.css';\nexport default function App() { return <p className=\"x\">styled</p>; }\n",
				Files:  map[string]string{"src/app.css": ".x { color: tomato; }"},
			},
			want: []string{"<style>", "tomato", "styled"},
		},
		{
			name: "extra module, json and svg",
			o: Options{
				AppTsx: "import { greet } from './lib/greet';\nimport data from './data.json';\nimport logo from './logo.svg';\n" +
					"export default function App() { return <img alt={greet(data.who)} src={logo} />; }\n",
				Files: map[string]string{
					"src/lib/greet.ts": "export function greet(who: string): string { return `greetings, ${who}`; }\n",
					"src/data.json":    `{"who": "extra-module-world"}`,
					"src/logo.svg":     `<svg xmlns="http://www.w3.org/2000/svg"/>`,
				},
			},
			want: []string{"greetings, ", "extra-module-world", "data:image/svg+xml"},
		},
		{
			name: "own main.tsx and index.html",
			o: Options{
				AppTsx:    "export default function App() { return <p>own main</p>; }\n",
				MainTsx:   "import { createRoot } from 'react-dom/client';\nimport App from './App';\ncreateRoot(document.getElementById('app')!).render(<App />);\n",
				IndexHTML: "<!doctype html><html><head><title>Mine</title></head><body><div id=\"app\"></div><script type=\"module\" src=\"/src/main.tsx\"></script></body></html>",
			},
			want: []string{"<title>Mine</title>", `<div id="app"></div>`, "own main"},
		},
		{
			name: "script-closing text escaped",
			o:    Options{AppTsx: "export default function App() { return <p>{'</script><b>x'}</p>; }\n"},
			want: []string{`<\/script><b>x`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Title = tt.name
			_, page := build(t, tt.o)
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if n := strings.Count(strings.ToLower(page), "</script"); n != 1 {
				t.Errorf("output has %d </script, want 1", n)
			}
		})
	}
}

func TestBuildError(t *testing.T) {
	tests := []struct {
		name  string
		o     Options
		wants []string
	}{
		{
			name:  "syntax error in App",
			o:     Options{AppTsx: "export default function App() {\n  const x: number = 1;\n  return <div>{x</div>;\n}\n"},
			wants: []string{"src/App.tsx:3:"},
		},
		{
			name:  "missing module",
			o:     Options{AppTsx: "import x from 'not-installed-anywhere';\nexport default function App() { return <p>{x}</p>; }\n"},
			wants: []string{"src/App.tsx:1:", "not-installed-anywhere"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Root, tt.o.Title = t.TempDir(), tt.name
			_, err := Build(context.Background(), tt.o)
			var be *BuildError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v (%T), want *BuildError", err, err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), tt.o.Root) {
				t.Errorf("error names absolute paths: %q", err)
			}
		})
	}
}

func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"no title", Options{AppTsx: counterApp}, "Missing required fields: title, appTsx."},
		{"blank app", Options{Title: "t", AppTsx: "  \n"}, "Missing required fields"},
		{"file escapes", Options{Title: "t", AppTsx: counterApp, Files: map[string]string{"../x": ""}}, `"../x"`},
		{"file escapes late", Options{Title: "t", AppTsx: counterApp, Files: map[string]string{"src/../../x": ""}}, `"src/../../x"`},
		{"file absolute", Options{Title: "t", AppTsx: counterApp, Files: map[string]string{"/etc/passwd": ""}}, `"/etc/passwd"`},
		{"file backslash", Options{Title: "t", AppTsx: counterApp, Files: map[string]string{`..\x`: ""}}, `..\\x`},
		{"file node_modules", Options{Title: "t", AppTsx: counterApp, Files: map[string]string{"node_modules/react/index.js": ""}}, "node_modules"},
		{"project outside", Options{Title: "t", AppTsx: counterApp, ProjectPath: "../elsewhere"}, "projectPath"},
		{"output outside", Options{Title: "t", AppTsx: counterApp, OutputPath: "/tmp/evil.html"}, "outputPath"},
		{"output is root", Options{Title: "t", AppTsx: counterApp, OutputPath: "."}, "outputPath"},
		{"dep flag", Options{Title: "t", AppTsx: counterApp, Deps: []string{"--global"}}, `"--global"`},
		{"dep url", Options{Title: "t", AppTsx: counterApp, Deps: []string{"https://evil.example/x.tgz"}}, `"https://evil.example/x.tgz"`},
		{"dep path", Options{Title: "t", AppTsx: counterApp, Deps: []string{"../pkg"}}, `"../pkg"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.o.Root = root
			_, err := Build(context.Background(), tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if entries, _ := os.ReadDir(root); len(entries) != 0 {
				t.Errorf("refused build wrote %d entries into the workspace", len(entries))
			}
		})
	}
}

func TestBuildNpmMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Build(context.Background(), Options{Root: t.TempDir(), Title: "t", AppTsx: counterApp, Deps: []string{"left-pad@1.3.0"}})
	if err == nil || !strings.Contains(err.Error(), "npm is required to install deps") || !strings.Contains(err.Error(), "left-pad@1.3.0") {
		t.Fatalf("err = %v", err)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Counter Demo!", "counter-demo"},
		{"  --Hello__World--  ", "hello-world"},
		{"ÄÖÜ straße 42", "stra-e-42"},
		{"", DefaultSlug},
		{"!!!", DefaultSlug},
		{"日本語", DefaultSlug},
		{strings.Repeat("a", 60), strings.Repeat("a", 48)},
		{strings.Repeat("a", 47) + " b", strings.Repeat("a", 47)},
		{"A1-B2", "a1-b2"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidateDep(t *testing.T) {
	ok := []string{"left-pad", "react-router-dom@7", "@tanstack/react-query", "@tanstack/react-query@^5.0.0", "lodash@>=4.17.0", "d3@latest", "three@0.160.1", "a.b_c~d"}
	bad := []string{"", "-g", "--save", "@", "@scope", "@scope/", "/abs", "./local", "../up", "file:x", "git+https://x/y.git", "https://x/y.tgz", "user/repo", "UPPER", ".hidden", "_under", "a b", "a@", "a@1 2", "a@--x" + strings.Repeat("x", 70), "a;rm", strings.Repeat("a", 215)}
	for _, d := range ok {
		if err := ValidateDep(d); err != nil {
			t.Errorf("ValidateDep(%q) = %v", d, err)
		}
	}
	for _, d := range bad {
		if err := ValidateDep(d); err == nil {
			t.Errorf("ValidateDep(%q) accepted", d)
		}
	}
}
