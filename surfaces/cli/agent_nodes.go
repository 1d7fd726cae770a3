package cli

// node add / list / get / update / remove / schema (reference cli.md §7.2).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
)

func init() {
	handCommands = append(handCommands, func(agents *cobra.Command, s *ioStreams) {
		under(agents, "node", newNodeListCommand(s))
	})
	setUX(map[string]*commandUX{
		"node.add": {
			short: "Add a node to the canvas",
			long: `Add a node. --type defaults to markdown; the server knows markdown, status,
context, ledger, trace, file, image, webpage, html, diff, mermaid and group
nodes, and routes json-render, graph and html-primitive (or html with
--primitive) to their own operations. node add --help --type T prints T's
create schema (--json: as JSON).

Content goes to --content (webpage: --url; image: --path; html: --html or
--content), or is read whole from stdin with --stdin. The node is placed at
(--x, --y) when both are given, else auto-placed. --data (or --data-json,
--data-file) is extra node data, a JSON object; groups take --child-ids,
--child-layout and --color.

Flags of another type are refused (--graph-type on a markdown node).
--type web-artifact runs web-artifact build (its flags: --app-file, ...);
mcp-app nodes are created by their app commands.`,
			example: []string{
				`pmx-canvas node add --type markdown --title "Design Doc" --content "# Overview"`,
				`pmx-canvas node add --type status --title "Build" --content "passing"`,
				`pmx-canvas node add --type file --content "src/index.ts"`,
				`pmx-canvas node add --type webpage --url "https://example.com/docs"`,
				`pmx-canvas node add --type markdown --title "Note" --x -100 --y 200`,
				`pmx-canvas node add --type html --title "Panel" --html "<h1>Hi</h1>" --summary "Greeting"`,
				`pmx-canvas node add --type group --title "Frame" --color "#f00" --data '{"k":1}'`,
				`cat design.md | pmx-canvas node add --type markdown --title "Design" --stdin`,
			},
			flags: withGeometry(map[string]flagUX{
				"type":            {def: "markdown"},
				"strictSize":      {also: []string{"scroll-overflow"}},
				"presentation":    {word: true},
				"slideTitles":     {each: true},
				"embeddedNodeIds": {each: true},
				"data":            {also: []string{"data-json"}},
			}),
			extra: func(cmd *cobra.Command) {
				cmd.Flags().Bool("stdin", false, "read the content (webpage: url, html: html) from stdin, untrimmed")
				addSpecFlags(cmd)
				addGraphFlags(cmd)
				addWebArtifactFlags(cmd)
				typedHelp(cmd)
			},
			prepare: prepareNodeAdd,
			run: func(c *opCall) error {
				if c.op == "webartifact.build" {
					return runWebArtifact(c)
				}
				return c.sendAndPrint()
			},
		},
		"node.get": {
			short: "Get a node by ID",
			example: []string{
				"pmx-canvas node get node-abc123",
				"pmx-canvas node get node-abc123 --summary",
				"pmx-canvas node get node-abc123 --field title --field data.content --fields size,position",
			},
			args: []argUX{{name: "node-id"}},
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.Bool("summary", false, "print a summary")
				f.Bool("compact", false, "alias of --summary")
				f.StringArray("field", nil, "print only this field (a top-level key, a data key, or a dotted path); repeatable")
				f.String("fields", "", "comma-separated fields to print")
			},
			print:         printNodeGet,
			completeNodes: true,
		},
		"node.update": {
			short: "Update a node by ID",
			example: []string{
				`pmx-canvas node update <node-id> --title "New Title"`,
				`pmx-canvas node update <node-id> --content "Updated content"`,
				`pmx-canvas node update <node-id> --title "Moved" --x -500 --y 300`,
				`pmx-canvas node update <node-id> --width 840 --height 620`,
				`pmx-canvas node update <node-id> --pinned true --dock-position left`,
				`pmx-canvas node update <node-id> --lock-arrange`,
			},
			hint: `pmx-canvas node update <node-id> --title "New Title"`,
			args: []argUX{{name: "node-id"}},
			flags: withGeometry(map[string]flagUX{
				"pinned":       {word: true},
				"dockPosition": {usage: `left, right, or none/null/"" to undock`},
				"data":         {also: []string{"data-json"}},
			}),
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.Bool("stdin", false, "read the new content from stdin")
				f.Bool("lock-arrange", false, "keep the node in place when arranging")
				f.Bool("unlock-arrange", false, "let arrange move the node again")
				completeValues(cmd, "dock-position", "left", "right", "none")
				addSpecFlags(cmd)
				addGraphFlags(cmd)
			},
			prepare:       prepareNodeUpdate,
			completeNodes: true,
		},
		"node.remove": {
			short:         "Remove a node from the canvas",
			example:       []string{"pmx-canvas node remove node-abc123"},
			args:          []argUX{{name: "node-id"}},
			completeNodes: true,
		},
	})
}

// geometryUX are the reference's geometry flags: --x/-x, --y/-y (finite),
// --width, --height (> 0); --node-height is --height's alias.
var geometryUX = map[string]flagUX{
	"x":      {short: "x", eg: "500"},
	"y":      {short: "y", eg: "300"},
	"width":  {positive: true, eg: "840"},
	"height": {positive: true, eg: "620", also: []string{"node-height"}},
}

// withGeometry adds the geometry flags to a command's flag UX.
func withGeometry(m map[string]flagUX) map[string]flagUX {
	for k, v := range geometryUX {
		m[k] = v
	}
	return m
}

// addGeometryFlags registers the geometry flags on a command that has no
// fields for them (html primitive add).
func addGeometryFlags(cmd *cobra.Command, withHeight bool) {
	for _, name := range []string{"x", "y", "width", "height"} {
		if name == "height" && !withHeight {
			continue
		}
		fx := geometryUX[name]
		addNumber(cmd, name, fx.short, name, fx.badHint(name), fx.positive, false)
	}
}

// addString registers a string flag unless the command already has one of
// that name (a field's flag).
func addString(cmd *cobra.Command, name, usage string) {
	if cmd.Flags().Lookup(name) == nil {
		cmd.Flags().String(name, "", usage)
	}
}

// chartFlags are the chart flags of the reference (graph add, node add
// --type graph, node update on graph nodes, validate spec --type graph)
// besides the data and height flags, which are fields on node add/update.
var chartFlags = []string{"graph-type", "x-key", "y-key", "z-key", "name-key", "value-key", "axis-key", "bar-key", "line-key",
	"metrics", "series", "aggregate", "color", "bar-color", "line-color", "show-legend", "show-labels", "chart-height"}

// addGraphFlags registers the chart flags that are not the command's fields.
func addGraphFlags(cmd *cobra.Command) {
	usage := map[string]string{
		"graph-type": "chart kind: line (default), bar, pie, area, scatter, radar, stacked-bar, composed, sparkline, dot-plot, bullet, slopegraph",
		"metrics":    "radar series keys: CSV or a JSON array", "series": "stacked-bar segment keys: CSV or a JSON array",
		"aggregate": "combine repeated x values: sum, count or avg", "color": "colour of a single series",
		"bar-color": "composed charts: bar colour", "line-color": "composed charts: line colour",
		"show-legend": "true or false", "show-labels": "true or false",
	}
	for _, k := range chartFlags {
		if k == "chart-height" {
			if cmd.Flags().Lookup(k) == nil {
				addNumber(cmd, k, "", "chart content height", "Use a positive number, e.g. --chart-height 300", true, false)
			}
			continue
		}
		u := usage[k]
		if u == "" {
			u = "row key: " + strings.TrimSuffix(k, "-key")
		}
		addString(cmd, k, u)
	}
	addString(cmd, "data-file", "file holding the data (a JSON value)")
	addString(cmd, "data-json", "the data inline")
	addString(cmd, "data", "alias of --data-json")
	if cmd.Flags().Lookup("node-height") == nil {
		addNumber(cmd, "node-height", "", "node frame height (also --nodeHeight)", "Use a positive number, e.g. --node-height 520", true, false)
	}
}

// addSpecFlags registers the json-render spec flags.
func addSpecFlags(cmd *cobra.Command) {
	addString(cmd, "spec-file", "json-render: file holding the spec")
	addString(cmd, "spec-json", "json-render: the spec inline")
}

// strayFlag names a flag given that belongs to another node type (no
// field takes it), with that type.
func strayFlag(cmd *cobra.Command) (flag, typ string) {
	for _, t := range []struct {
		typ   string
		flags []string
	}{{"graph", chartFlags}, {"json-render", []string{"spec-file", "spec-json"}}, {"web-artifact", webArtifactFlags}} {
		for _, n := range t.flags {
			if f := cmd.Flags().Lookup(n); f != nil && f.Changed && f.Annotations[fieldAnnotation] == nil {
				return n, t.typ
			}
		}
	}
	return "", ""
}

// prepareNodeAdd applies the reference's routing by type: types this build
// cannot make fail, an image's --path is its content, an html node's
// --content is its html, --stdin fills the type's main field.
func prepareNodeAdd(c *opCall) error {
	if c.flag("json") {
		return die("Use: pmx-canvas node add --help --type webpage --json", "--json applies only to node add --help --type T.")
	}
	typ, _ := c.in["type"].(string)
	switch {
	case typ == "graph":
		return prepareGraphFromNodeAdd(c)
	case typ == "json-render":
		return prepareJSONRenderFromNodeAdd(c)
	case typ == "web-artifact":
		return prepareWebArtifactFromNodeAdd(c)
	case typ == "mcp-app":
		return die(`Use: pmx-canvas web-artifact build --title "Dashboard" --app-file ./App.tsx, or pmx-canvas external-app add --kind excalidraw --title "Diagram"`,
			"mcp-app nodes require tool-backed app metadata and cannot be created with generic node add.")
	}
	if flag, owner := strayFlag(c.cmd); flag != "" {
		return die(fmt.Sprintf("Drop --%s, or use --type %s.", flag, owner),
			"--%s applies only to --type %s", flag, owner)
	}
	switch {
	case typ == "image" && c.in["content"] == nil && c.in["path"] != nil:
		c.in["content"] = c.in["path"]
		delete(c.in, "path")
	case typ == "html" && c.in["html"] == nil && c.in["content"] != nil:
		c.in["html"] = c.in["content"]
		delete(c.in, "content")
	}
	if err := dataFile(c); err != nil {
		return err
	}
	main := map[string]string{"webpage": "url", "html": "html"}[typ]
	if main == "" {
		main = "content"
	}
	return stdinInto(c, main)
}

// dataFile reads --data-file (JSON) into the data field.
func dataFile(c *opCall) error {
	path := str(c.cmd, "data-file")
	if path == nil {
		return nil
	}
	text, err := readFile("data-file", *path, c.b.hint())
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return die(c.b.hint(), "Invalid --data-file JSON: %v", err)
	}
	// Sent as written: objects keep their key order (a chart's default
	// keys come from the first row's order).
	c.in["data"] = json.RawMessage(text)
	return nil
}

// stdinInto reads stdin whole, untrimmed, into a field when --stdin is given.
func stdinInto(c *opCall, field string) error {
	if !c.flag("stdin") {
		return nil
	}
	text, err := readAll(c.s.In)
	if err != nil {
		return err
	}
	c.in[field] = text
	return nil
}

// ---- node list ----

func newNodeListCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("list", "List all nodes on the canvas",
		examples(
			"pmx-canvas node list",
			"pmx-canvas node list --type markdown",
			"pmx-canvas node list --type mcp-app",
			"pmx-canvas node list --ids",
			"pmx-canvas node list --summary",
		),
		func(cmd *cobra.Command, _ []string) error {
			var st struct {
				Nodes []json.RawMessage `json:"nodes"`
			}
			if err := call(cmd, "layout.get", nil, &st); err != nil {
				return err
			}
			typ := str(cmd, "type")
			nodes := make([]json.RawMessage, 0, len(st.Nodes))
			ids := []string{}
			for _, raw := range st.Nodes {
				var n struct{ ID, Type, Kind string }
				_ = json.Unmarshal(raw, &n)
				if typ != nil && n.Type != *typ && n.Kind != *typ {
					continue
				}
				nodes = append(nodes, raw)
				ids = append(ids, n.ID)
			}
			if flagBool(cmd, "ids") {
				return output(s.Out, ids)
			}
			if flagBool(cmd, "summary") || flagBool(cmd, "compact") || (typ != nil && *typ == "mcp-app") {
				out := make([]ordered, 0, len(nodes))
				for _, raw := range nodes {
					out = append(out, summarizeNode(raw))
				}
				return output(s.Out, out)
			}
			return output(s.Out, nodes)
		})
	f := cmd.Flags()
	f.String("type", "", "only nodes of this type or kind")
	f.Bool("ids", false, "print only the ids")
	f.Bool("summary", false, "print node summaries")
	f.Bool("compact", false, "alias of --summary")
	return cmd
}

// hiddenDataKeys are the bulky data keys node summaries leave out.
var hiddenDataKeys = map[string]bool{"content": true, "fileContent": true, "html": true, "rendered": true, "spec": true, "toolResult": true}

// summarizeNode is the reference's summarizeNodeResult: the node's
// identity, a 240-character content preview, geometry and flags, app
// metadata, a graph summary and the names of its other data keys.
func summarizeNode(raw json.RawMessage) ordered {
	node, _ := rawObject(raw)
	data := ordered{}
	if d, ok := node.get("data").(json.RawMessage); ok {
		data, _ = rawObject(d)
	}
	out := ordered{}
	if node.has("ok") {
		out.set("ok", node.get("ok"))
	}
	orNull := func(k string) any {
		if v := node.get(k); v != nil {
			return v
		}
		return nil
	}
	out.set("id", orNull("id"))
	out.set("type", orNull("type"))
	if k, ok := decoded(node.get("kind")).(string); ok {
		out.set("kind", k)
	}
	out.set("title", orNull("title"))
	if c, ok := decoded(node.get("content")).(string); ok {
		out.set("contentPreview", truncateText(c, 240))
	}
	for _, k := range []string{"position", "size", "collapsed", "pinned", "dockPosition", "path", "url", "provenance"} {
		if node.has(k) {
			out.set(k, node.get(k))
		}
	}
	for _, k := range []string{"mode", "viewerType", "serverName", "toolName", "appSessionId", "sessionStatus", "hostMode", "resourceUri"} {
		if v, ok := decoded(data.get(k)).(string); ok {
			out.set(k, v)
		}
	}
	if g, ok := data.get("graphConfig").(json.RawMessage); ok {
		if cfg, err := rawObject(g); err == nil {
			sum := ordered{}
			for _, e := range cfg {
				if e.K == "data" {
					if rows, ok := decoded(e.V).([]any); ok {
						sum.set("dataPoints", len(rows))
						if len(rows) > 0 {
							if first, err := rawObject(mustJSON(rows[0])); err == nil {
								keys := []string{}
								for _, f := range first {
									keys = append(keys, f.K)
								}
								sum.set("dataKeys", keys)
							}
						}
						continue
					}
				}
				sum.set(e.K, e.V)
			}
			out.set("graph", sum)
		}
	}
	var keys []string
	for _, e := range data {
		if !hiddenDataKeys[e.K] {
			keys = append(keys, e.K)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		out.set("dataKeys", keys)
	}
	return out
}

func mustJSON(v any) []byte {
	b, _ := plainJSON(v)
	return b
}

// truncateText collapses whitespace and cuts to max characters with "…".
func truncateText(s string, max int) string {
	norm := strings.Join(strings.Fields(s), " ")
	r := []rune(norm)
	if len(r) <= max {
		return norm
	}
	return strings.TrimRight(string(r[:max-1]), " \t\n") + "…"
}

// ---- node get ----

// printNodeGet prints the node, its summary, or the fields asked for.
func printNodeGet(c *opCall, body json.RawMessage) error {
	fields, _ := c.cmd.Flags().GetStringArray("field")
	if all := str(c.cmd, "fields"); all != nil {
		fields = append(fields, csv(*all)...)
	}
	fields = dedupe(fields)
	if len(fields) == 0 {
		if c.flag("summary") || c.flag("compact") {
			return c.show(summarizeNode(body))
		}
		return c.show(body)
	}
	var node map[string]any
	_ = json.Unmarshal(body, &node)
	picked := ordered{}
	var missing []string
	for _, f := range fields {
		v, ok := nodeField(node, f)
		if !ok {
			missing = append(missing, f)
			continue
		}
		picked.set(f, v)
	}
	if len(missing) > 0 {
		plural := ""
		if len(missing) > 1 {
			plural = "s"
		}
		return die("Available fields: "+strings.Join(nodeFieldNames(node), ", "),
			"Unknown node field%s: %s", plural, strings.Join(missing, ", "))
	}
	nodeID := c.in["id"]
	if v, ok := node["id"]; ok {
		nodeID = v
	}
	return c.show(ordered{{"id", nodeID}, {"fields", picked}})
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// nodeField resolves a requested field the reference's way: a dotted
// path on the node, a top-level key, a key under data, a dotted path under
// data.
func nodeField(node map[string]any, field string) (any, bool) {
	if strings.Contains(field, ".") {
		if v, ok := walkPath(node, strings.Split(field, ".")); ok {
			return v, true
		}
	}
	if v, ok := node[field]; ok {
		return v, true
	}
	data, ok := node["data"].(map[string]any)
	if !ok {
		return nil, false
	}
	if v, ok := data[field]; ok {
		return v, true
	}
	if strings.Contains(field, ".") {
		return walkPath(data, strings.Split(field, "."))
	}
	return nil, false
}

func walkPath(v any, path []string) (any, bool) {
	for _, seg := range path {
		switch t := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = t[seg]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscanf(seg, "%d", &i); err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// nodeFieldNames lists the fields a node offers: its top-level keys, its
// data keys and data.<key>, sorted.
func nodeFieldNames(node map[string]any) []string {
	set := map[string]bool{}
	for k := range node {
		if k != "data" {
			set[k] = true
		}
	}
	if data, ok := node["data"].(map[string]any); ok {
		for k := range data {
			set[k] = true
			set["data."+k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ---- node update ----

const nodeUpdateHint = "Use --title, --content, --x, --y, --width, --height, --strict-size, --pinned, --dock-position, trace fields, --lock-arrange, --unlock-arrange, or --stdin"

// prepareNodeUpdate applies the reference's rules: --spec-file and
// --spec-json give the spec (chart flags are fields), --dock-position none|null|"" undocks,
// --lock-arrange/--unlock-arrange set arrangeLocked, and a patch must
// change something.
func prepareNodeUpdate(c *opCall) error {
	spec, ok, err := jsonValue(c.cmd, nil, c.b.hint(), "spec-file", "spec-json")
	if err != nil {
		return err
	}
	if ok {
		c.in["spec"] = spec
	}
	if err := stdinInto(c, "content"); err != nil {
		return err
	}
	if f := c.cmd.Flags().Lookup("dock-position"); f.Changed {
		switch v := f.Value.String(); v {
		case "left", "right":
		case "none", "null", "":
			c.in["dockPosition"] = nil
		default:
			return die(`Use --dock-position left, right, or none`, "Invalid value for --dock-position: %s", v)
		}
	}
	lock, unlock := c.flag("lock-arrange"), c.flag("unlock-arrange")
	switch {
	case lock && unlock:
		return die("Keep the one you mean: --lock-arrange or --unlock-arrange.", "Use either --lock-arrange or --unlock-arrange, not both.")
	case lock || unlock:
		c.in["arrangeLocked"] = lock
	}
	if err := dataFile(c); err != nil {
		return err
	}
	if len(c.in) == 1 { // the id alone
		return die(nodeUpdateHint, "No updates specified")
	}
	return nil
}
