package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Workspace-content commands: the byte-serving operations write what the
// server sends to --output ("-" for stdout) and print a JSON receipt.

func init() {
	blob := func(example ...string) *commandUX {
		return &commandUX{
			example: example,
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("output", "-", `file to write the bytes to ("-": stdout)`)
			},
			run: runBlob,
		}
	}
	setUX(map[string]*commandUX{
		"file.bytes":         blob("pmx-canvas file bytes docs/spec.pdf --output ./spec.pdf"),
		"image.get":          blob("pmx-canvas image get node-abc --output ./shot.png"),
		"artifact.get":       blob("pmx-canvas artifact notes/plan.md --output ./plan.html"),
		"surface.get":        blob("pmx-canvas surface node-abc --theme light --output ./surface.html"),
		"jsonrender.view":    blob("pmx-canvas viewer graph-abc --output ./chart.html"),
		"frame-document.get": blob("pmx-canvas frame-document get 3f2a… --output ./frame.html"),
		"node.refresh":       {example: []string{"pmx-canvas node refresh node-abc", "pmx-canvas node refresh node-abc --url https://example.com/docs"}},
		"file.save":          {example: []string{`pmx-canvas file save notes/plan.md --content "# Plan"`}},
	})
}

// runBlob sends the operation and writes the bytes of its reply.
func runBlob(c *opCall) error {
	out, _ := c.cmd.Flags().GetString("output")
	words := commandWords(c.cmd)
	if out == "" {
		out = "-"
	}
	reply, err := invokeReply(c.cmd, c.op, c.in)
	if err != nil {
		return err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		return fmt.Errorf("%s: the server answered JSON, not file bytes", words)
	}
	if out == "-" {
		_, err := c.s.Out.Write(blob.Data)
		return err
	}
	if err := os.WriteFile(out, blob.Data, 0o644); err != nil {
		return die("Pick a path in a directory you can write", "Cannot write %s: %v", out, err)
	}
	return c.show(ordered{{"ok", true}, {"output", out}, {"bytes", len(blob.Data)}, {"mimeType", blob.ContentType}})
}

func init() {
	setUX(map[string]*commandUX{
		"graph.add": {
			short: "Add a chart node (same as node add --type graph)",
			flags: map[string]flagUX{"data": {also: []string{"data-json"}}},
			example: []string{
				`pmx-canvas graph add --graph-type bar --title Tickets --data '[{"team":"Docs","n":5}]' --x-key team --y-key n`,
				"pmx-canvas graph add --graph-type line --data-file ./metrics.json --x-key label --y-key value",
			},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("data-file", "", "file holding the rows (a JSON array)")
				cmd.Flags().Bool("stdin", false, "read the rows (a JSON array) from stdin")
			},
			prepare: prepareGraphAdd,
		},
	})
}

// jsonValue reads one JSON value a command takes: from fileFlag, else the
// first inline flag given, else stdin (when --stdin is set and stdin is
// not nil); ok is false
// when none was. The text is sent as written, so objects keep their key
// order (a chart's default keys come from the first row's order).
func jsonValue(cmd *cobra.Command, stdin io.Reader, hint, fileFlag string, inline ...string) (v json.RawMessage, ok bool, err error) {
	f := cmd.Flags()
	text, from := "", ""
	switch {
	case fileFlag != "" && f.Changed(fileFlag):
		p, _ := f.GetString(fileFlag)
		if text, err = readFile(fileFlag, p, hint); err != nil {
			return nil, false, err
		}
		from = "--" + fileFlag
	default:
		for _, name := range inline {
			if f.Changed(name) {
				text, _ = f.GetString(name)
				from = "--" + name
				break
			}
		}
		if from == "" && stdin != nil && flagBool(cmd, "stdin") {
			b, rerr := io.ReadAll(stdin)
			if rerr != nil {
				return nil, false, die(hint, "Cannot read stdin: %v", rerr)
			}
			text, from = string(b), "stdin"
		}
	}
	if from == "" {
		return nil, false, nil
	}
	if !json.Valid([]byte(text)) {
		var probe any
		return nil, false, die(hint, "Invalid %s JSON: %v", from, json.Unmarshal([]byte(text), &probe))
	}
	return json.RawMessage(text), true, nil
}

// prepareGraphAdd reads the rows from --data-file, --data or --stdin.
func prepareGraphAdd(c *opCall) error {
	rows, ok, err := jsonValue(c.cmd, c.s.In, c.b.hint(), "data-file", "data", "data-json")
	if ok {
		c.in["data"] = rows
	}
	return err
}

// graphFlagFields maps node add's chart flags to graph.add fields.
var graphFlagFields = map[string]string{
	"graph-type": "graphType", "x-key": "xKey", "y-key": "yKey", "z-key": "zKey", "name-key": "nameKey", "value-key": "valueKey",
	"axis-key": "axisKey", "bar-key": "barKey", "line-key": "lineKey", "aggregate": "aggregate", "color": "color",
	"bar-color": "barColor", "line-color": "lineColor",
}

// prepareGraphFromNodeAdd turns node add --type graph into graph.add: the
// title, geometry (--height is the frame's), data and chart flags.
func prepareGraphFromNodeAdd(c *opCall) error {
	in := map[string]any{}
	for _, k := range []string{"title", "x", "y", "width", "strictSize", "position", "size"} {
		if v, ok := c.in[k]; ok {
			in[k] = v
		}
	}
	if h, ok := c.in["height"]; ok {
		in["nodeHeight"] = h
	}
	if d, ok := c.in["data"]; ok {
		in["data"] = d
	}
	c.in = in
	rows, ok, err := jsonValue(c.cmd, c.s.In, c.b.hint(), "data-file", "data", "data-json")
	if err != nil {
		return err
	}
	if ok {
		c.in["data"] = rows
	}
	f := c.cmd.Flags()
	for flag, field := range graphFlagFields {
		if fl := f.Lookup(flag); fl != nil && fl.Changed {
			c.in[field] = fl.Value.String()
		}
	}
	for _, flag := range []string{"metrics", "series"} {
		if fl := f.Lookup(flag); fl != nil && fl.Changed {
			c.in[flag] = csv(fl.Value.String())
		}
	}
	for _, flag := range []string{"show-legend", "show-labels"} {
		if fl := f.Lookup(flag); fl != nil && fl.Changed {
			c.in[map[string]string{"show-legend": "showLegend", "show-labels": "showLabels"}[flag]] = fl.Value.String() == "true"
		}
	}
	if fl := f.Lookup("chart-height"); fl != nil && fl.Changed {
		c.in["height"] = fl.Value.(*numValue).v
	}
	if fl := f.Lookup("node-height"); fl != nil && fl.Changed {
		c.in["nodeHeight"] = fl.Value.(*numValue).v
	}
	c.op = "graph.add"
	return nil
}

// runPrimitiveAdd is html primitive add: node.add with type html-primitive,
// the kind, title, data (--data-json, --data-file or --stdin) and geometry.
func runPrimitiveAdd(cmd *cobra.Command, _ []string) error {
	hint := `Use: pmx-canvas html primitive add --kind choice-grid --data-file ./choices.json`
	f := cmd.Flags()
	kind, _ := f.GetString("kind")
	if kind == "" {
		kind, _ = f.GetString("primitive")
	}
	if kind == "" {
		return die(hint, "Missing required flag: --kind")
	}
	in := map[string]any{"type": "html-primitive", "kind": kind}
	if t, _ := f.GetString("title"); t != "" {
		in["title"] = t
	}
	data, ok, err := jsonValue(cmd, cmd.InOrStdin(), hint, "data-file", "data-json", "data")
	if err != nil {
		return err
	}
	if ok {
		in["data"] = data
	}
	for _, k := range []string{"x", "y", "width", "height"} {
		if fl := f.Lookup(k); fl != nil && fl.Changed {
			in[k] = fl.Value.(*numValue).v
		}
	}
	if flagBool(cmd, "strict-size") {
		in["strictSize"] = true
	}
	body, err := invokeOK(cmd, "node.add", in)
	if err != nil {
		return err
	}
	return output(cmd.OutOrStdout(), json.RawMessage(body))
}

// prepareJSONRenderFromNodeAdd turns node add --type json-render into
// jsonrender.add: the title, geometry and the spec from --spec-json or
// --spec-file.
func prepareJSONRenderFromNodeAdd(c *opCall) error {
	hint := `Use: pmx-canvas node add --type json-render --spec-file ./ui.json`
	in := map[string]any{}
	for _, k := range []string{"title", "x", "y", "width", "height", "strictSize", "position", "size"} {
		if v, ok := c.in[k]; ok {
			in[k] = v
		}
	}
	spec, ok, err := jsonValue(c.cmd, c.s.In, hint, "spec-file", "spec-json")
	if err != nil {
		return err
	}
	if !ok {
		return die(hint, "json-render nodes require --spec-file, --spec-json, or --stdin.")
	}
	in["spec"] = spec
	c.in, c.op = in, "jsonrender.add"
	return nil
}

func init() {
	setUX(map[string]*commandUX{
		"spec.validate": {
			short: "Validate a json-render spec or graph payload without creating a node",
			example: []string{
				"pmx-canvas validate spec --type json-render --spec-file ./dashboard.json",
				"pmx-canvas validate spec --type graph --graph-type bar --data-file ./metrics.json --x-key label --y-key value",
				"pmx-canvas validate spec --type html-primitive --kind flowchart --data-json '{\"steps\":[]}' --summary",
			},
			flags: map[string]flagUX{"data": {also: []string{"data-json"}}},
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.String("spec-file", "", "json-render: file holding the spec")
				f.String("spec-json", "", "json-render: the spec inline")
				f.String("data-file", "", "file holding the data (graph rows or the primitive payload)")
				f.Bool("stdin", false, "read the spec (json-render) or the data from stdin")
				f.Bool("summary", false, "print only {ok, type, summary}")
			},
			prepare: prepareSpecValidate,
			print: func(c *opCall, body json.RawMessage) error {
				if !flagBool(c.cmd, "summary") {
					return c.show(body)
				}
				var r struct {
					OK      bool            `json:"ok"`
					Type    string          `json:"type"`
					Summary json.RawMessage `json:"summary"`
				}
				if err := json.Unmarshal(body, &r); err != nil {
					return err
				}
				return c.show(ordered{{"ok", r.OK}, {"type", r.Type}, {"summary", r.Summary}})
			},
		},
	})
}

// prepareSpecValidate reads the spec or data from files, inline JSON or
// stdin into the fields.
func prepareSpecValidate(c *opCall) error {
	hint := c.b.hint()
	// --stdin feeds the spec of a json-render check, else the data.
	specStdin, dataStdin := c.in["type"] == "json-render", c.in["type"] != "json-render"
	spec, ok, err := jsonValue(c.cmd, stdinIf(c, specStdin), hint, "spec-file", "spec-json")
	if err != nil {
		return err
	}
	if ok {
		c.in["spec"] = spec
	}
	data, ok, err := jsonValue(c.cmd, stdinIf(c, dataStdin), hint, "data-file", "data", "data-json")
	if err != nil {
		return err
	}
	if ok {
		c.in["data"] = data
	}
	return nil
}

// stdinIf is the command's stdin when use, else nil (so --stdin feeds
// one value only).
func stdinIf(c *opCall, use bool) io.Reader {
	if use {
		return c.s.In
	}
	return nil
}
