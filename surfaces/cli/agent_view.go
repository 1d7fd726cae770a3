package cli

// Canvas queries and view: open, search, layout, status, arrange, focus,
// fit, validate, spatial, clear, export, import (reference cli.md §7.1,
// §7.4, §7.9).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func init() {
	handCommands = append(handCommands, func(agents *cobra.Command, s *ioStreams) {
		under(agents, "", newOpenCommand(s))
		under(agents, "", newStatusCommand(s))
	})
	setUX(map[string]*commandUX{
		"search": {
			short:   "Search nodes by title or content",
			example: []string{`pmx-canvas search "design doc"`, `pmx-canvas search --query "TODO" --limit 5`},
			hint:    `pmx-canvas search "query"`,
			args:    []argUX{{name: "query", missing: "Missing search query", flag: "query"}},
			flags:   map[string]flagUX{"limit": {positive: true, integer: true, eg: "10"}},
		},
		"layout.get": {
			short:   "Get the full canvas layout (nodes, edges, viewport)",
			example: []string{"pmx-canvas layout", "pmx-canvas layout --summary"},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().Bool("summary", false, "counts, node kinds, pinned titles and the viewport instead")
				cmd.Flags().Bool("compact", false, "alias of --summary")
			},
			prepare: func(c *opCall) error {
				if c.flag("summary") || c.flag("compact") {
					c.op = "summary.get"
				}
				return nil
			},
		},
		"arrange": {
			short:   "Auto-arrange nodes on the canvas",
			example: []string{"pmx-canvas arrange", "pmx-canvas arrange --layout column", "pmx-canvas arrange --layout flow"},
		},
		"node.focus": {
			short:         "Pan the viewport to center on a node",
			example:       []string{"pmx-canvas focus <node-id>", "pmx-canvas focus <node-id> --no-pan"},
			args:          []argUX{{name: "node-id"}},
			completeNodes: true,
		},
		"view.fit": {
			short:   "Fit the viewport to all nodes or to the given ones",
			example: []string{"pmx-canvas fit", "pmx-canvas fit node-a node-b --padding 80", "pmx-canvas fit --width 1920 --height 1080 --max-scale 1.5"},
			args:    []argUX{{name: "node-ids", optional: true}},
			flags: map[string]flagUX{
				"width": {positive: true, eg: "1440"}, "height": {positive: true, eg: "900"},
				"padding": {eg: "60"}, "maxScale": {positive: true, eg: "1"},
			},
		},
		"validate.get": {
			short:   "Validate the current layout for collisions and missing edge endpoints",
			example: []string{"pmx-canvas validate", `pmx-canvas validate || echo "layout has problems (exit $?)"`},
			long: `Check the layout: overlapping nodes, members outside their group frame and
edges whose endpoints are gone. The report is printed either way; the exit code
is 0 when the layout is clean and 2 when it has problems (the reference exited
0 in both cases).`,
			print: printValidate,
		},
		"spatial.get": {
			short:   "Spatial analysis: clusters, reading order, neighborhoods",
			example: []string{"pmx-canvas spatial"},
		},
		"canvas.clear": {
			short:   "Remove all nodes and edges from the canvas",
			long:    "Remove every node, edge, annotation and pin (undoable with pmx-canvas undo).",
			example: []string{"pmx-canvas clear --dry-run", "pmx-canvas clear --yes"},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().Bool("yes", false, "really clear")
				cmd.Flags().Bool("dry-run", false, "say what would be removed")
			},
			run: runClear,
		},
		"canvas.export": {
			short: "Export the canvas as a JSON Canvas 1.0 document, or as an SVG or PNG picture",
			long: `Export the canvas as a JSON Canvas 1.0 document (https://jsoncanvas.org), or
draw it: --format svg draws it on the server (no browser), --format png
rasterises that in Chromium (the server needs chromium installed). --nodes
(comma-separated ids; a group brings its members) or --region x,y,w,h picks
part of the board; --theme draws in another theme. The document is printed,
or written to --output with a summary printed instead.`,
			example: []string{"pmx-canvas export > board.canvas", "pmx-canvas export --output board.canvas",
				"pmx-canvas export --format svg --output board.svg",
				"pmx-canvas export --format png --nodes node-abc,node-def --output part.png",
				"pmx-canvas export --format svg --region 0,0,1600,900 --theme light > region.svg"},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("output", "", "write the document or picture to this file and print a summary")
			},
			run: runExport,
		},
		"canvas.import": {
			short: "Import a JSON Canvas 1.0 document",
			long: `Import a JSON Canvas 1.0 document: text nodes become markdown, file nodes
files, link nodes webpages, groups groups. One undoable step. --replace clears
the canvas first. Progress goes to stderr when it is a terminal.`,
			example: []string{"pmx-canvas import --file board.canvas", "pmx-canvas import --file board.canvas --replace", "cat board.canvas | pmx-canvas import --stdin"},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("file", "", "the document")
				cmd.Flags().Bool("stdin", false, "read the document from stdin")
			},
			run: runImport,
		},
	})
}

func newOpenCommand(s *ioStreams) *cobra.Command {
	return leaf("open", "Open the current workbench in the browser",
		examples("pmx-canvas open", "pmx-canvas open --port 4400"),
		func(cmd *cobra.Command, _ []string) error {
			base, err := baseURL(cmd)
			if err != nil {
				return err
			}
			if err := checkHealth(cmd, base); err != nil {
				return err
			}
			url := base + "/workbench"
			if err := openBrowser(url); err != nil {
				return die("Open it yourself: "+url, "Failed to open browser for %s: %v", url, err)
			}
			return output(s.Out, ordered{{"ok", true}, {"url", url}})
		})
}

// checkHealth asks the server's /health, failing like the other commands
// when nothing answers.
func checkHealth(cmd *cobra.Command, base string) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/health", nil)
	if err != nil {
		return err
	}
	c, _ := remoteClient(cmd)
	if c != nil && c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f, lerr := locate(cmd)
		if lerr != nil {
			return lerr
		}
		return unreachable(f, "pmx-canvas", err)
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		hint := "Check that " + base + " is a pmx-canvas server, or point at one with --server-url URL."
		if res.StatusCode == http.StatusUnauthorized {
			hint = "That server needs its bearer token: pass --token TOKEN (or set PMX_CANVAS_TOKEN)."
		}
		return die(hint, "Cannot reach pmx-canvas health endpoint at %s: HTTP %d", base, res.StatusCode)
	}
	return nil
}

// openBrowser opens url in the OS browser; an error says why not: opening
// is disabled (PMX_CANVAS_DISABLE_BROWSER_OPEN=1), or the opener is
// missing or failed.
func openBrowser(url string) error {
	if os.Getenv("PMX_CANVAS_DISABLE_BROWSER_OPEN") == "1" {
		return errors.New("browser opening is disabled (PMX_CANVAS_DISABLE_BROWSER_OPEN=1)")
	}
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("cmd", "/c", "start", "", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	out, err := c.CombinedOutput()
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("%s is not installed (no desktop browser opener here)", c.Args[0])
	}
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return fmt.Errorf("%s: %v: %s", c.Args[0], err, truncateLine(msg, 200))
		}
		return fmt.Errorf("%s: %v", c.Args[0], err)
	}
	return nil
}

func truncateLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func newStatusCommand(s *ioStreams) *cobra.Command {
	return leaf("status", "Quick canvas summary", examples("pmx-canvas status"),
		func(cmd *cobra.Command, _ []string) error {
			var st struct {
				Nodes []struct {
					Type string         `json:"type"`
					Kind *string        `json:"kind"`
					Data map[string]any `json:"data"`
				} `json:"nodes"`
				Edges    []json.RawMessage `json:"edges"`
				Viewport json.RawMessage   `json:"viewport"`
			}
			if err := call(cmd, "layout.get", nil, &st); err != nil {
				return err
			}
			var pinned struct {
				Count int `json:"count"`
			}
			if err := call(cmd, "pinned.get", nil, &pinned); err != nil {
				return err
			}
			types := ordered{}
			counts := map[string]int{}
			for _, n := range st.Nodes {
				t := n.Type
				switch {
				case n.Kind != nil:
					t = *n.Kind
				case n.Type == "mcp-app" && n.Data["hostMode"] == "hosted" && isString(n.Data["path"]):
					t = "web-artifact"
				}
				counts[t]++
				types.set(t, counts[t])
			}
			return output(s.Out, ordered{
				{"nodes", len(st.Nodes)}, {"edges", len(st.Edges)}, {"pinned", pinned.Count},
				{"types", types}, {"viewport", st.Viewport},
			})
		})
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// printValidate prints the report; a layout with problems exits 2 after it.
func printValidate(c *opCall, body json.RawMessage) error {
	if err := c.show(body); err != nil {
		return err
	}
	var res struct {
		OK      bool           `json:"ok"`
		Summary map[string]int `json:"summary"`
	}
	_ = json.Unmarshal(body, &res)
	if res.OK {
		return nil
	}
	var parts []string
	for _, k := range []string{"collisions", "containmentViolations", "missingEdgeEndpoints"} {
		if n := res.Summary[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return &cliError{Msg: "validate: the layout has problems: " + strings.Join(parts, ", "),
		Hint: "Fix them (pmx-canvas arrange moves overlapping nodes apart) and validate again.", Code: 2}
}

// runClear is clear: --dry-run counts what would go, --yes clears.
func runClear(c *opCall) error {
	if c.flag("dry-run") {
		var st struct {
			Nodes []json.RawMessage `json:"nodes"`
			Edges []json.RawMessage `json:"edges"`
		}
		if err := call(c.cmd, "layout.get", nil, &st); err != nil {
			return err
		}
		return c.show(ordered{
			{"dry_run", true},
			{"would_remove", ordered{{"nodes", len(st.Nodes)}, {"edges", len(st.Edges)}}},
			{"message", "No changes made. Pass --yes to confirm."},
		})
	}
	if !c.flag("yes") {
		return die("pmx-canvas clear --yes (or preview with --dry-run)", "Destructive operation requires --yes flag")
	}
	return c.sendAndPrint()
}

// printExport prints the document, or writes it to --output and prints a
// summary.
// runExport prints or writes what the export answered: a picture (svg,
// png) as its bytes — to --output with a receipt, else to stdout as the
// file-bytes commands do — and a JSON Canvas as printExport does.
func runExport(c *opCall) error {
	reply, err := invokeReply(c.cmd, c.op, c.in)
	if err != nil {
		return err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		body, err := messages.BodyJSON(reply.Body)
		if err != nil {
			return err
		}
		return printExport(c, body)
	}
	out := str(c.cmd, "output")
	if out == nil || *out == "" || *out == "-" {
		_, err := c.s.Out.Write(blob.Data)
		return err
	}
	if err := os.WriteFile(*out, blob.Data, 0o644); err != nil {
		return die("Pick a path in a directory you can write, e.g. --output ./board.svg", "Unable to write --output: %v", err)
	}
	return c.show(ordered{{"ok", true}, {"output", *out}, {"bytes", len(blob.Data)}, {"mimeType", blob.ContentType}})
}

func printExport(c *opCall, body json.RawMessage) error {
	out := str(c.cmd, "output")
	if out == nil {
		return c.show(body)
	}
	pretty, err := marshalIndent(body)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(pretty, '\n'), 0o644); err != nil {
		return die("Pick a path in a directory you can write, e.g. --output ./canvas.json", "Unable to write --output: %v", err)
	}
	var doc struct {
		Nodes []json.RawMessage `json:"nodes"`
		Edges []json.RawMessage `json:"edges"`
	}
	_ = json.Unmarshal(body, &doc)
	return c.show(ordered{{"ok", true}, {"output", *out}, {"nodes", len(doc.Nodes)}, {"edges", len(doc.Edges)}})
}

// runImport reads the document from --file or stdin and imports it, with
// progress on a terminal.
func runImport(c *opCall) error {
	var raw, source string
	switch {
	case str(c.cmd, "file") != nil:
		path := *str(c.cmd, "file")
		text, err := readFile("file", path, "Use: pmx-canvas import --file ./board.canvas")
		if err != nil {
			return err
		}
		raw, source = text, path
	case c.flag("stdin"):
		text, err := readAll(c.s.In)
		if err != nil {
			return err
		}
		raw, source = text, "stdin"
	default:
		return die("Use: pmx-canvas import --file ./board.canvas", "Import requires --file or --stdin.")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		return die("Use a JSON Canvas document: {\"nodes\":[...],\"edges\":[...]}", "Invalid JSON Canvas document: %v", err)
	}
	for k, v := range c.in {
		doc[k] = v // --replace
	}
	nodes, _ := doc["nodes"].([]any)
	edges, _ := doc["edges"].([]any)
	p := startProgress(c.s.Err, fmt.Sprintf("[import] %d nodes, %d edges from %s", len(nodes), len(edges), source))
	c.in = doc
	body, err := c.send()
	if err != nil {
		p.finish("failed")
		return err
	}
	p.finish("imported")
	return c.show(body)
}
