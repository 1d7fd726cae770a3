package cli

// web-artifact build (and node add --type web-artifact): webartifact.build
// with the sources read from files, inline flags or stdin, and progress
// lines on stderr while the server builds.

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

const webArtifactHint = `Use: pmx-canvas web-artifact build --title "Dashboard" --app-file ./App.tsx`

// webArtifactSources are the source fields with their file flag and
// inline flag (the inline flag is the field's own on web-artifact build).
var webArtifactSources = []struct{ field, file, inline string }{
	{"appTsx", "app-file", "app-tsx"},
	{"indexCss", "index-css-file", "index-css"},
	{"mainTsx", "main-file", "main-tsx"},
	{"indexHtml", "index-html-file", "index-html"},
}

// webArtifactFlags are the web-artifact flags node add takes for --type
// web-artifact (web-artifact build has them as its fields' flags).
var webArtifactFlags = []string{"app-file", "app-tsx", "index-css-file", "index-css", "main-file", "main-tsx",
	"index-html-file", "index-html", "project-path", "output-path", "init-script-path", "bundle-script-path",
	"deps", "no-open-in-canvas", "include-logs", "verbose", "timeout-ms"}

// webArtifactPlainFlags are node add's string flags that are fields of
// webartifact.build as they are.
var webArtifactPlainFlags = map[string]string{"project-path": "projectPath", "output-path": "outputPath",
	"init-script-path": "initScriptPath", "bundle-script-path": "bundleScriptPath"}

// addWebArtifactFlags registers the web-artifact flags on node add.
func addWebArtifactFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	for _, n := range webArtifactFlags {
		switch n {
		case "deps":
			f.String(n, "", "web-artifact: npm dependencies, CSV or a JSON array")
		case "no-open-in-canvas":
			f.Bool(n, false, "web-artifact: build without opening a node")
		case "include-logs":
			f.Bool(n, false, "web-artifact: include the build logs")
		case "verbose":
			f.Bool(n, false, "alias of --include-logs")
		case "timeout-ms":
			addNumber(cmd, n, "", "web-artifact: build timeout", "Use a positive number, e.g. --timeout-ms 600000", true, false)
		default:
			f.String(n, "", "web-artifact: "+n)
		}
	}
}

// addWebArtifactSourceFlags registers the flags web-artifact build has
// besides its fields' flags.
func addWebArtifactSourceFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	for _, s := range webArtifactSources {
		f.String(s.file, "", "file holding "+map[string]string{"appTsx": "src/App.tsx", "indexCss": "src/index.css",
			"mainTsx": "src/main.tsx", "indexHtml": "index.html"}[s.field]+" (wins over --"+s.inline+")")
	}
	f.Bool("stdin", false, "read App.tsx from stdin")
	f.Bool("no-open-in-canvas", false, "build without opening a node")
}

func init() {
	setUX(map[string]*commandUX{
		"webartifact.build": {
			short: "Build a bundled HTML web artifact and optionally open it on the canvas",
			long: `Bundle App.tsx (and optional index.css, main.tsx, index.html and npm deps)
into one self-contained HTML file inside the workspace, with esbuild in the
server (React 19 is built in; --deps are installed with npm --ignore-scripts),
and show it as a web-artifact node unless --no-open-in-canvas. Rebuilding to
the same output path updates that node. A build error prints esbuild's
messages (file:line:col) and exits 1.`,
			example: []string{
				`pmx-canvas web-artifact build --title "Dashboard" --app-file ./App.tsx`,
				`pmx-canvas web-artifact build --title "Dashboard" --app-file ./App.tsx --deps recharts,zod --include-logs`,
				`cat App.tsx | pmx-canvas web-artifact build --title "Counter" --stdin --no-open-in-canvas`,
			},
			hint: webArtifactHint,
			flags: map[string]flagUX{
				"title":       {required: true},
				"includeLogs": {also: []string{"verbose"}},
				"timeoutMs":   {positive: true, eg: "600000"},
			},
			extra:   addWebArtifactSourceFlags,
			prepare: func(c *opCall) error { return webArtifactInput(c, false) },
			run:     runWebArtifact,
		},
	})
}

// prepareWebArtifactFromNodeAdd turns node add --type web-artifact into
// webartifact.build.
func prepareWebArtifactFromNodeAdd(c *opCall) error {
	in := map[string]any{}
	if t, ok := c.in["title"]; ok {
		in["title"] = t
	}
	c.in, c.op = in, "webartifact.build"
	return webArtifactInput(c, true)
}

// webArtifactInput reads the sources into c.in (a file flag wins over its
// inline flag; --stdin gives App.tsx) and, on node add, the flags that are
// fields on web-artifact build.
func webArtifactInput(c *opCall, nodeAdd bool) error {
	f := c.cmd.Flags()
	if s, _ := c.in["title"].(string); strings.TrimSpace(s) == "" {
		return die(webArtifactHint, "Missing required flag: --title")
	}
	for _, s := range webArtifactSources {
		if fl := f.Lookup(s.inline); nodeAdd && fl != nil && fl.Changed {
			c.in[s.field] = fl.Value.String()
		}
		if p, _ := f.GetString(s.file); p != "" {
			b, err := os.ReadFile(p)
			if err != nil {
				return die(webArtifactHint, "Cannot read --%s %s: %v", s.file, p, err)
			}
			c.in[s.field] = string(b)
		}
	}
	if c.flag("stdin") {
		text, err := readAll(c.s.In)
		if err != nil {
			return die(webArtifactHint, "Cannot read stdin: %v", err)
		}
		c.in["appTsx"] = text
	}
	if _, ok := c.in["appTsx"]; !ok {
		return die(webArtifactHint, "web-artifact build requires --app-file, --app-tsx or --stdin.")
	}
	if c.flag("no-open-in-canvas") {
		c.in["openInCanvas"] = false
	}
	if !nodeAdd {
		return nil
	}
	for flag, field := range webArtifactPlainFlags {
		if v, _ := f.GetString(flag); v != "" {
			c.in[field] = v
		}
	}
	if v, _ := f.GetString("deps"); strings.TrimSpace(v) != "" {
		deps, err := listValue("deps", v, webArtifactHint)
		if err != nil {
			return err
		}
		c.in["deps"] = deps
	}
	if c.flag("include-logs") || c.flag("verbose") {
		c.in["includeLogs"] = true
	}
	if fl := f.Lookup("timeout-ms"); fl != nil && fl.Changed {
		c.in["timeoutMs"] = fl.Value.(*numValue).v
	}
	return nil
}

// webArtifactTick is how often a running build says it is still running.
var webArtifactTick = 10 * time.Second

// runWebArtifact sends the build, saying on stderr that it runs (and every
// webArtifactTick that it still does), then prints the reply.
func runWebArtifact(c *opCall) error {
	title, _ := c.in["title"].(string)
	fmt.Fprintf(c.s.Err, "[web-artifact] building %q with esbuild...\n", title)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		start := time.Now()
		t := time.NewTicker(webArtifactTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fmt.Fprintf(c.s.Err, "[web-artifact] still building... %ds elapsed\n", int(time.Since(start).Seconds()))
			}
		}
	}()
	body, err := c.send()
	close(done)
	<-stopped
	if err != nil {
		return err
	}
	return c.show(body)
}
