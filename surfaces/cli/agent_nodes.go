package cli

// node add / list / get / update / remove / schema (reference cli.md §7.2).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
)

func newNodeCommand(s *ioStreams) *cobra.Command {
	return newGroup("node", "Add, list, read, update and remove nodes",
		examples(
			`pmx-canvas node add --type markdown --title "Design Doc" --content "# Overview"`,
			`pmx-canvas node list --type markdown --ids`,
			`pmx-canvas node get node-abc123 --summary`,
			`pmx-canvas node update node-abc123 --x -100 --y 40`,
			`pmx-canvas node remove node-abc123`,
		),
		newNodeAddCommand(s), newNodeListCommand(s), newNodeGetCommand(s),
		newNodeUpdateCommand(s), newNodeRemoveCommand(s), newNodeSchemaCommand(),
	)
}

// addGeometryFlags registers --x/-x, --y/-y, --width and --height.
func addGeometryFlags(cmd *cobra.Command, withHeight bool) {
	addNumber(cmd, "x", "x", "x position (negative values work: --x -100)", "Use a finite number, e.g. --x 500", false, false)
	addNumber(cmd, "y", "y", "y position", "Use a finite number, e.g. --y 300", false, false)
	addPositive(cmd, "width", "width in pixels (> 0)", "Use a positive number, e.g. --width 840")
	if withHeight {
		addPositive(cmd, "height", "height in pixels (> 0)", "Use a positive number, e.g. --height 620")
	}
}

// setGeometry copies the geometry flags into the input.
func setGeometry(in map[string]any, cmd *cobra.Command) {
	for _, k := range []string{"x", "y", "width", "height"} {
		if cmd.Flags().Lookup(k) != nil {
			setNum(in, k, cmd, k)
		}
	}
}

// traceFlags are the trace node's fields: flag name → input key.
var traceFlags = [][2]string{
	{"tool-name", "toolName"}, {"category", "category"}, {"status", "status"},
	{"duration", "duration"}, {"result-summary", "resultSummary"}, {"error", "error"},
}

func addTraceFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("tool-name", "", "trace: tool name (also --toolName)")
	f.String("category", "", "trace: category")
	f.String("status", "", "trace: status")
	f.String("duration", "", "trace: duration")
	f.String("result-summary", "", "trace: result summary (also --resultSummary)")
	f.String("error", "", "trace: error")
}

func setTrace(in map[string]any, cmd *cobra.Command) {
	for _, t := range traceFlags {
		setStr(in, t[1], cmd, t[0])
	}
}

// addGraphFlags registers the chart flags (graph add, node add --type
// graph, node update on graph nodes, validate spec --type graph).
func addGraphFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("graph-type", "", "chart kind: line (default), bar, pie, area, scatter, radar, stacked-bar, composed, sparkline, dot-plot, bullet, slopegraph")
	f.String("data-file", "", "file holding the data: a JSON array of objects")
	f.String("data-json", "", "the data inline: a JSON array of objects")
	f.String("data", "", "alias of --data-json")
	for _, k := range []string{"x-key", "y-key", "z-key", "name-key", "value-key", "axis-key", "bar-key", "line-key"} {
		f.String(k, "", "row key: "+strings.TrimSuffix(k, "-key"))
	}
	f.String("metrics", "", "radar series keys: CSV or a JSON array")
	f.String("series", "", "stacked-bar segment keys: CSV or a JSON array")
	f.String("aggregate", "", "combine repeated x values: sum, count or avg")
	f.String("color", "", "colour of a single series")
	f.String("bar-color", "", "composed charts: bar colour")
	f.String("line-color", "", "composed charts: line colour")
	f.String("show-legend", "", "true or false")
	f.String("show-labels", "", "true or false")
	addPositive(cmd, "chart-height", "chart content height", "Use a positive number, e.g. --chart-height 300")
	addPositive(cmd, "node-height", "node frame height (also --nodeHeight)", "Use a positive number, e.g. --node-height 520")
}

// graphFlagGiven reports whether any chart flag was given.
func graphFlagGiven(cmd *cobra.Command) bool {
	for _, k := range []string{"graph-type", "data-file", "data-json", "data", "x-key", "y-key", "z-key", "name-key",
		"value-key", "axis-key", "bar-key", "line-key", "metrics", "series", "aggregate", "bar-color", "line-color",
		"show-legend", "show-labels", "chart-height"} {
		if given(cmd, k) {
			return true
		}
	}
	return false
}

// addSpecFlags registers the json-render spec flags.
func addSpecFlags(cmd *cobra.Command) {
	cmd.Flags().String("spec-file", "", "json-render: file holding the spec")
	cmd.Flags().String("spec-json", "", "json-render: the spec inline")
}

// ---- node add ----

func newNodeAddCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("add", "Add a node to the canvas",
		examples(
			`pmx-canvas node add --type markdown --title "Design Doc" --content "# Overview"`,
			`pmx-canvas node add --type status --title "Build" --content "passing"`,
			`pmx-canvas node add --type file --content "src/index.ts"`,
			`pmx-canvas node add --type webpage --url "https://example.com/docs"`,
			`pmx-canvas node add --type markdown --title "Note" --x -100 --y 200`,
			`pmx-canvas node add --type html --title "Panel" --html "<h1>Hi</h1>" --summary "Greeting"`,
			`cat design.md | pmx-canvas node add --type markdown --title "Design" --stdin`,
		),
		func(cmd *cobra.Command, _ []string) error { return runNodeAdd(cmd, s) })
	cmd.Long = `Add a node. --type defaults to markdown; the server knows markdown, status,
context, ledger, trace, file, image, webpage, html and group nodes.

Content goes to --content (webpage: --url; image: --path; html: --html or
--content), or is read whole from stdin with --stdin. The node is placed at
(--x, --y) when both are given, else auto-placed.

json-render, graph, web-artifact and html-primitive nodes are not available in
this build yet; mcp-app nodes are created by their app commands.`
	f := cmd.Flags()
	f.String("type", "markdown", "node type")
	f.String("title", "", "title")
	f.String("content", "", "content (markdown text, status text, file path, ...)")
	f.String("url", "", "webpage: the address to show")
	f.String("path", "", "image: path of the image (when --content is absent)")
	f.String("html", "", "html: the HTML document (or a .html path the server reads)")
	f.String("summary", "", "html: summary for agents and search")
	f.String("agent-summary", "", "html: agent summary (also --agentSummary)")
	f.String("description", "", "html: description")
	f.String("presentation", "", "html: true to mark the node as a presentation")
	f.String("slide-title", "", "html: one slide title")
	f.String("embedded-node-id", "", "html: one embedded node id")
	f.String("primitive", "", "html: build an HTML primitive of this kind (not available yet)")
	f.String("kind", "", "alias of --primitive")
	addGeometryFlags(cmd, true)
	f.Bool("strict-size", false, "keep the given size; overflowing content scrolls")
	f.Bool("scroll-overflow", false, "alias of --strict-size")
	f.Bool("stdin", false, "read the content (webpage: url, html: html) from stdin, untrimmed")
	addTraceFlags(cmd)
	addSpecFlags(cmd)
	addGraphFlags(cmd)
	addWebArtifactFlags(cmd)
	completeValues(cmd, "type", "markdown", "status", "context", "ledger", "trace", "file", "image", "webpage", "html", "group")
	return cmd
}

func runNodeAdd(cmd *cobra.Command, s *ioStreams) error {
	typ := "markdown"
	if t := str(cmd, "type"); t != nil {
		typ = *t
	}
	switch {
	case typ == "json-render", typ == "graph", typ == "web-artifact", typ == "html-primitive":
		return notAvailable("node add --type "+typ, laterOf[typ])
	case typ == "html" && (given(cmd, "primitive") || given(cmd, "kind")):
		return notAvailable("node add --type html --primitive", laterPrimitives)
	case typ == "mcp-app":
		return die(`Use: pmx-canvas web-artifact build --title "Dashboard" --app-file ./App.tsx, or pmx-canvas external-app add --kind excalidraw --title "Diagram"`,
			"mcp-app nodes require tool-backed app metadata and cannot be created with generic node add.")
	}
	in := map[string]any{"type": typ}
	setStr(in, "title", cmd, "title")
	content := str(cmd, "content")
	switch {
	case typ == "webpage" && str(cmd, "url") != nil:
		in["url"] = *str(cmd, "url")
	case typ == "image" && content == nil && str(cmd, "path") != nil:
		in["content"] = *str(cmd, "path")
	case typ == "html" && str(cmd, "html", "content") != nil:
		in["html"] = *str(cmd, "html", "content")
	case content != nil:
		in["content"] = *content
	}
	if typ == "html" {
		setStr(in, "summary", cmd, "summary")
		setStr(in, "agentSummary", cmd, "agent-summary")
		setStr(in, "description", cmd, "description")
		p, err := boolWord(cmd, "presentation")
		if err != nil {
			return err
		}
		if p != nil && *p {
			in["presentation"] = true
		}
		if v := str(cmd, "slide-title"); v != nil {
			in["slideTitles"] = []string{*v}
		}
		if v := str(cmd, "embedded-node-id"); v != nil {
			in["embeddedNodeIds"] = []string{*v}
		}
	}
	setGeometry(in, cmd)
	if flagBool(cmd, "strict-size") || flagBool(cmd, "scroll-overflow") {
		in["strictSize"] = true
	}
	setTrace(in, cmd)
	if flagBool(cmd, "stdin") {
		text, err := readAll(s.In)
		if err != nil {
			return err
		}
		switch typ {
		case "webpage":
			in["url"] = text
		case "html":
			in["html"] = text
		default:
			in["content"] = text
		}
	}
	return runOp(cmd, s, "node.add", in)
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

func newNodeGetCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("get <node-id>", "Get a node by ID",
		examples(
			"pmx-canvas node get node-abc123",
			"pmx-canvas node get node-abc123 --summary",
			"pmx-canvas node get node-abc123 --field title --field data.content --fields size,position",
		),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing node ID", "pmx-canvas node get <node-id>")
			if err != nil {
				return err
			}
			body, err := invokeOK(cmd, "node.get", map[string]any{"id": id})
			if err != nil {
				return err
			}
			fields, _ := cmd.Flags().GetStringArray("field")
			if all := str(cmd, "fields"); all != nil {
				fields = append(fields, csv(*all)...)
			}
			fields = dedupe(fields)
			if len(fields) > 0 {
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
				nodeID := any(id)
				if v, ok := node["id"]; ok {
					nodeID = v
				}
				return output(s.Out, ordered{{"id", nodeID}, {"fields", picked}})
			}
			if flagBool(cmd, "summary") || flagBool(cmd, "compact") {
				return output(s.Out, summarizeNode(body))
			}
			return output(s.Out, body)
		})
	f := cmd.Flags()
	f.Bool("summary", false, "print a summary")
	f.Bool("compact", false, "alias of --summary")
	f.StringArray("field", nil, "print only this field (a top-level key, a data key, or a dotted path); repeatable")
	f.String("fields", "", "comma-separated fields to print")
	cmd.ValidArgsFunction = completeNodeIDs
	return cmd
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

func newNodeUpdateCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("update <node-id>", "Update a node by ID",
		examples(
			`pmx-canvas node update <node-id> --title "New Title"`,
			`pmx-canvas node update <node-id> --content "Updated content"`,
			`pmx-canvas node update <node-id> --title "Moved" --x -500 --y 300`,
			`pmx-canvas node update <node-id> --width 840 --height 620`,
			`pmx-canvas node update <node-id> --pinned true --dock-position left`,
			`pmx-canvas node update <node-id> --lock-arrange`,
		),
		func(cmd *cobra.Command, args []string) error { return runNodeUpdate(cmd, s, args) })
	f := cmd.Flags()
	f.String("title", "", "new title")
	f.String("content", "", "new content")
	f.Bool("stdin", false, "read the new content from stdin")
	addGeometryFlags(cmd, true)
	f.String("pinned", "", "true or false")
	f.String("dock-position", "", `left, right, or none/null/"" to undock`)
	f.Bool("lock-arrange", false, "keep the node in place when arranging")
	f.Bool("unlock-arrange", false, "let arrange move the node again")
	f.Bool("strict-size", false, "keep the size; overflowing content scrolls")
	addTraceFlags(cmd)
	addSpecFlags(cmd)
	addGraphFlags(cmd)
	completeValues(cmd, "pinned", "true", "false")
	completeValues(cmd, "dock-position", "left", "right", "none")
	cmd.ValidArgsFunction = completeNodeIDs
	return cmd
}

func runNodeUpdate(cmd *cobra.Command, s *ioStreams, args []string) error {
	id, err := firstArg(args, "Missing node ID", `pmx-canvas node update <node-id> --title "New Title"`)
	if err != nil {
		return err
	}
	if given(cmd, "spec-file") || given(cmd, "spec-json") {
		return notAvailable("node update --spec-json", laterRichContent)
	}
	if graphFlagGiven(cmd) {
		return notAvailable("node update (graph flags)", laterRichContent)
	}
	in := map[string]any{}
	setStr(in, "title", cmd, "title")
	setStr(in, "content", cmd, "content")
	if flagBool(cmd, "stdin") {
		text, err := readAll(s.In)
		if err != nil {
			return err
		}
		in["content"] = text
	}
	if given(cmd, "height") && given(cmd, "node-height") {
		return die("--node-height is an alias of --height: keep one.", "Use either --height/--node-height, not both.")
	}
	setNum(in, "x", cmd, "x")
	setNum(in, "y", cmd, "y")
	setNum(in, "width", cmd, "width")
	setNum(in, "height", cmd, "height")
	setNum(in, "height", cmd, "node-height")
	pinned, err := boolWord(cmd, "pinned")
	if err != nil {
		return err
	}
	if pinned != nil {
		in["pinned"] = *pinned
	}
	if f := cmd.Flags().Lookup("dock-position"); f.Changed {
		switch v := f.Value.String(); v {
		case "left", "right":
			in["dockPosition"] = v
		case "none", "null", "":
			in["dockPosition"] = nil
		default:
			return die(`Use --dock-position left, right, or none`, "Invalid value for --dock-position: %s", v)
		}
	}
	lock, unlock := flagBool(cmd, "lock-arrange"), flagBool(cmd, "unlock-arrange")
	switch {
	case lock && unlock:
		return die("Keep the one you mean: --lock-arrange or --unlock-arrange.", "Use either --lock-arrange or --unlock-arrange, not both.")
	case lock:
		in["arrangeLocked"] = true
	case unlock:
		in["arrangeLocked"] = false
	}
	if flagBool(cmd, "strict-size") {
		in["strictSize"] = true
	}
	setTrace(in, cmd)
	if len(in) == 0 {
		return die(nodeUpdateHint, "No updates specified")
	}
	in["id"] = id
	return runOp(cmd, s, "node.update", in)
}

// ---- node remove ----

func newNodeRemoveCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("remove <node-id>", "Remove a node from the canvas",
		examples("pmx-canvas node remove node-abc123"),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing node ID", "pmx-canvas node remove <node-id>")
			if err != nil {
				return err
			}
			return runOp(cmd, s, "node.remove", map[string]any{"id": id})
		})
	cmd.ValidArgsFunction = completeNodeIDs
	return cmd
}

// ---- node schema ----

func newNodeSchemaCommand() *cobra.Command {
	cmd := leaf("schema", "Describe server-supported node create schemas and canonical examples (not available yet)",
		examples(
			"pmx-canvas node schema",
			"pmx-canvas node schema --type webpage",
			"pmx-canvas node schema --type json-render --component Table",
			"pmx-canvas node schema --type webpage --field url",
			"pmx-canvas node schema --summary",
		),
		func(cmd *cobra.Command, _ []string) error {
			return notAvailable("node schema", laterRichContent)
		})
	f := cmd.Flags()
	f.String("type", "", "one node type")
	f.Bool("summary", false, "compact summaries")
	f.String("field", "", "one field of the type")
	f.String("component", "", "one json-render component (with --type json-render)")
	return cmd
}
