package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The schema commands read one document, schema.describe
// (GET /api/canvas/schema), and print the part asked for: node schema (the
// operation's own command), json-render (the component catalog) and html
// primitive schema (the primitives). Filtering is UX, so it lives here;
// the document is the server's.

func init() {
	setUX(map[string]*commandUX{
		"schema.describe": {
			short: "Describe server-supported node create schemas and canonical examples",
			example: []string{
				"pmx-canvas node schema",
				"pmx-canvas node schema --type webpage",
				"pmx-canvas node schema --type json-render --component Table",
				"pmx-canvas node schema --type webpage --field url",
				"pmx-canvas node schema --summary",
			},
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.String("type", "", "one node type")
				f.Bool("summary", false, "compact summaries")
				f.String("field", "", "one field of the type")
				f.String("component", "", "one json-render component (with --type json-render)")
			},
			prepare: func(c *opCall) error {
				if c.given("component") && (!c.given("type") || *str(c.cmd, "type") != "json-render") {
					return die("Use: pmx-canvas node schema --type json-render --component Table",
						"--component is allowed only with --type json-render.")
				}
				return nil
			},
			print: printNodeSchema,
		},
	})
	handCommands = append(handCommands, func(agents *cobra.Command, _ *ioStreams) {
		under(agents, "", newJSONRenderCommand())
	})
}

// schemaView is the schema document as the commands read it: the parts
// they filter decoded, each entry kept as written (key order is the
// server's).
type schemaView struct {
	raw        json.RawMessage
	doc        messages.SchemaDocument
	nodeTypes  []json.RawMessage
	rootShape  json.RawMessage
	components []json.RawMessage
	compInfo   []componentInfo
	primitives []json.RawMessage
	primInfo   []primitiveInfo
}

type componentInfo struct {
	Name    string          `json:"name"`
	Aliases []string        `json:"aliases"`
	Props   []propInfo      `json:"props"`
	Example json.RawMessage `json:"example"`
	Desc    string          `json:"description"`
}

type propInfo struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

type primitiveInfo struct {
	Kind        string          `json:"kind"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	UseWhen     string          `json:"useWhen"`
	DefaultSize json.RawMessage `json:"defaultSize"`
	DataShape   string          `json:"dataShape"`
}

func parseSchema(body json.RawMessage) (*schemaView, error) {
	v := &schemaView{raw: body}
	var parts struct {
		NodeTypes  []json.RawMessage `json:"nodeTypes"`
		JSONRender struct {
			RootShape  json.RawMessage   `json:"rootShape"`
			Components []json.RawMessage `json:"components"`
		} `json:"jsonRender"`
		HTMLPrimitives []json.RawMessage `json:"htmlPrimitives"`
	}
	if err := json.Unmarshal(body, &v.doc); err != nil {
		return nil, fmt.Errorf("schema.describe: unexpected reply: %w", err)
	}
	if err := json.Unmarshal(body, &parts); err != nil {
		return nil, fmt.Errorf("schema.describe: unexpected reply: %w", err)
	}
	v.nodeTypes, v.rootShape, v.components, v.primitives = parts.NodeTypes, parts.JSONRender.RootShape, parts.JSONRender.Components, parts.HTMLPrimitives
	v.compInfo = make([]componentInfo, len(v.components))
	for i, raw := range v.components {
		if err := json.Unmarshal(raw, &v.compInfo[i]); err != nil {
			return nil, fmt.Errorf("schema.describe: component %d: %w", i, err)
		}
	}
	v.primInfo = make([]primitiveInfo, len(v.primitives))
	for i, raw := range v.primitives {
		if err := json.Unmarshal(raw, &v.primInfo[i]); err != nil {
			return nil, fmt.Errorf("schema.describe: primitive %d: %w", i, err)
		}
	}
	return v, nil
}

// fetchSchema runs schema.describe for a hand-written command.
func fetchSchema(cmd *cobra.Command) (*schemaView, error) {
	body, err := invokeOK(cmd, "schema.describe", nil)
	if err != nil {
		return nil, err
	}
	return parseSchema(body)
}

// nodeType finds a node type's entry, or dies listing the types.
func (v *schemaView) nodeType(typ string) (messages.SchemaNodeType, json.RawMessage, error) {
	for i, nt := range v.doc.NodeTypes {
		if nt.Type == typ {
			return nt, v.nodeTypes[i], nil
		}
	}
	names := make([]string, len(v.doc.NodeTypes))
	for i, nt := range v.doc.NodeTypes {
		names[i] = nt.Type
	}
	return messages.SchemaNodeType{}, nil, die("Available types: "+strings.Join(names, ", "), "Unknown node type: %q.", typ)
}

// component finds a json-render component by name or alias (any case), or
// dies naming the nearest.
func (v *schemaView) component(name string) (int, error) {
	for i, c := range v.compInfo {
		if strings.EqualFold(c.Name, name) {
			return i, nil
		}
	}
	for i, c := range v.compInfo {
		for _, a := range c.Aliases {
			if strings.EqualFold(a, name) {
				return i, nil
			}
		}
	}
	names := make([]string, len(v.compInfo))
	for i, c := range v.compInfo {
		names[i] = c.Name
	}
	return -1, die("Available components: "+strings.Join(names, ", "), "Unknown json-render component: %q.", name)
}

// componentSummary is {type, description, requiredProps, optionalProps}.
func componentSummary(c componentInfo) ordered {
	req, opt := []string{}, []string{}
	for _, p := range c.Props {
		if p.Required {
			req = append(req, p.Name)
		} else {
			opt = append(opt, p.Name)
		}
	}
	return ordered{{"type", c.Name}, {"description", c.Desc}, {"requiredProps", req}, {"optionalProps", opt}}
}

// componentProp is {component, prop} for one prop, or dies listing them.
func (v *schemaView) componentProp(i int, prop string) (ordered, error) {
	var props []json.RawMessage
	var holder struct {
		Props []json.RawMessage `json:"props"`
	}
	if err := json.Unmarshal(v.components[i], &holder); err != nil {
		return nil, err
	}
	props = holder.Props
	names := make([]string, len(v.compInfo[i].Props))
	for j, p := range v.compInfo[i].Props {
		names[j] = p.Name
		if p.Name == prop {
			return ordered{{"component", v.compInfo[i].Name}, {"prop", props[j]}}, nil
		}
	}
	return nil, die("Available props: "+strings.Join(names, ", "), "Unknown prop %q of %s.", prop, v.compInfo[i].Name)
}

// nodeTypeSummary is {type,kind,endpoint,description,requiredFields,optionalFields,exampleKeys}.
func nodeTypeSummary(nt messages.SchemaNodeType) ordered {
	req, opt := []string{}, []string{}
	for _, f := range nt.Fields {
		if f.Required {
			req = append(req, f.Name)
		} else {
			opt = append(opt, f.Name)
		}
	}
	return ordered{{"type", nt.Type}, {"kind", nt.Kind}, {"endpoint", nt.Endpoint}, {"description", nt.Description},
		{"requiredFields", req}, {"optionalFields", opt}, {"exampleKeys", objectKeys(nt.Example)}}
}

// objectKeys lists a JSON object's keys in order.
func objectKeys(raw json.RawMessage) []string {
	keys := []string{}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return keys
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return keys
}

func primitiveSummary(p primitiveInfo) ordered {
	return ordered{{"kind", p.Kind}, {"title", p.Title}, {"description", p.Description}, {"useWhen", p.UseWhen},
		{"defaultSize", p.DefaultSize}, {"dataShape", p.DataShape}}
}

// printNodeSchema prints node schema's answer: the whole document, its
// summary, one type, one of its fields, or one json-render component.
func printNodeSchema(c *opCall, body json.RawMessage) error {
	v, err := parseSchema(body)
	if err != nil {
		return err
	}
	summary := flagBool(c.cmd, "summary")
	typ := str(c.cmd, "type")
	if typ == nil {
		if summary {
			return c.show(v.summary())
		}
		return c.show(body)
	}
	nt, raw, err := v.nodeType(*typ)
	if err != nil {
		return err
	}
	if name := str(c.cmd, "component"); name != nil {
		i, err := v.component(*name)
		if err != nil {
			return err
		}
		if f := str(c.cmd, "field"); f != nil {
			prop, err := v.componentProp(i, *f)
			if err != nil {
				return err
			}
			return c.show(prop)
		}
		if summary {
			return c.show(componentSummary(v.compInfo[i]))
		}
		return c.show(v.components[i])
	}
	if f := str(c.cmd, "field"); f != nil {
		field, ok := nt.Field(*f)
		if !ok {
			names := make([]string, len(nt.Fields))
			for i, fd := range nt.Fields {
				names[i] = fd.Name
			}
			return die("Available fields: "+strings.Join(names, ", "), "Unknown field %q of node type %s.", *f, nt.Type)
		}
		return c.show(ordered{{"type", nt.Type}, {"field", field}})
	}
	if summary {
		return c.show(nodeTypeSummary(nt))
	}
	return c.show(raw)
}

// summary is node schema --summary.
func (v *schemaView) summary() ordered {
	types := make([]ordered, len(v.doc.NodeTypes))
	for i, nt := range v.doc.NodeTypes {
		types[i] = nodeTypeSummary(nt)
	}
	prims := make([]ordered, len(v.primInfo))
	for i, p := range v.primInfo {
		prims[i] = primitiveSummary(p)
	}
	return ordered{{"source", v.doc.Source}, {"version", v.doc.Version}, {"nodeTypes", types},
		{"jsonRender", ordered{{"componentCount", len(v.components)}, {"rootShape", v.rootShape}}},
		{"graph", v.doc.Graph}, {"htmlPrimitives", prims}, {"mcp", v.doc.MCP}}
}

// ---- json-render ----

func newJSONRenderCommand() *cobra.Command {
	cmd := leaf("json-render", "Describe json-render components, props and examples",
		examples(
			"pmx-canvas json-render --schema",
			"pmx-canvas json-render --summary",
			"pmx-canvas json-render --component Table",
			"pmx-canvas json-render --component Table --field columns",
			"pmx-canvas json-render --examples",
		), runJSONRender)
	f := cmd.Flags()
	f.Bool("schema", false, "the component catalog (the default)")
	f.Bool("summary", false, "compact summaries: required and optional props")
	f.String("component", "", "one component (name or alias)")
	f.String("field", "", "one prop of the component")
	f.Bool("example", false, "the component's example")
	f.Bool("examples", false, "every component's example")
	return cmd
}

func runJSONRender(cmd *cobra.Command, _ []string) error {
	example := flagBool(cmd, "example") || flagBool(cmd, "examples")
	if example && given(cmd, "field") {
		return die("Use --field with --component, or --example without --field.", "--field cannot be combined with --example.")
	}
	if given(cmd, "field") && !given(cmd, "component") {
		return die("Use: pmx-canvas json-render --component Table --field columns", "--field needs --component.")
	}
	v, err := fetchSchema(cmd)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if name := str(cmd, "component"); name != nil {
		i, err := v.component(*name)
		if err != nil {
			return err
		}
		switch {
		case given(cmd, "field"):
			prop, err := v.componentProp(i, *str(cmd, "field"))
			if err != nil {
				return err
			}
			return output(out, prop)
		case example:
			return output(out, ordered{{"component", v.compInfo[i].Name}, {"example", v.compInfo[i].Example}})
		case flagBool(cmd, "summary"):
			return output(out, componentSummary(v.compInfo[i]))
		}
		return output(out, v.components[i])
	}
	switch {
	case example:
		examples := ordered{}
		for _, c := range v.compInfo {
			if len(c.Example) > 0 {
				examples = append(examples, jsonobj.KV{K: c.Name, V: c.Example})
			}
		}
		return output(out, ordered{{"rootShape", v.rootShape}, {"examples", examples}})
	case flagBool(cmd, "summary"):
		list := make([]ordered, len(v.compInfo))
		for i, c := range v.compInfo {
			list[i] = componentSummary(c)
		}
		return output(out, ordered{{"rootShape", v.rootShape}, {"componentCount", len(list)}, {"components", list}})
	}
	var doc struct {
		JSONRender json.RawMessage `json:"jsonRender"`
	}
	if err := json.Unmarshal(v.raw, &doc); err != nil {
		return err
	}
	return output(out, doc.JSONRender)
}

// ---- html primitive schema ----

func newPrimitiveSchemaCommand() *cobra.Command {
	cmd := leaf("schema", "List HTML primitives and their data shapes",
		examples("pmx-canvas html primitive schema", "pmx-canvas html primitive schema --kind flowchart --summary"),
		func(cmd *cobra.Command, _ []string) error {
			v, err := fetchSchema(cmd)
			if err != nil {
				return err
			}
			summary, out := flagBool(cmd, "summary"), cmd.OutOrStdout()
			if kind := str(cmd, "kind"); kind != nil {
				for i, p := range v.primInfo {
					if p.Kind == *kind {
						if summary {
							return output(out, primitiveSummary(p))
						}
						return output(out, v.primitives[i])
					}
				}
				kinds := make([]string, len(v.primInfo))
				for i, p := range v.primInfo {
					kinds[i] = p.Kind
				}
				sort.Strings(kinds)
				return die("Available kinds: "+strings.Join(kinds, ", "), "Unknown HTML primitive: %q.", *kind)
			}
			if summary {
				list := make([]ordered, len(v.primInfo))
				for i, p := range v.primInfo {
					list[i] = primitiveSummary(p)
				}
				return output(out, ordered{{"primitives", list}})
			}
			return output(out, ordered{{"primitives", v.primitives}})
		})
	cmd.Flags().String("kind", "", "one primitive")
	cmd.Flags().Bool("summary", false, "compact summaries (no example)")
	return cmd
}

// ---- node add --help --type T ----

// typedHelp makes node add --help --type T print T's create schema from
// the server (as text, or the raw entry with --json); without --type, or
// when no server answers, the command's own help. --component and --field
// narrow a json-render or field view as node schema does.
func typedHelp(cmd *cobra.Command) {
	cmd.Flags().Bool("json", false, "with --help --type: print the type's create schema as JSON")
	cmd.SetHelpFunc(typedHelpFor)
}

func typedHelpFor(c *cobra.Command, args []string) {
	// The help the command would have without this func: its parent's.
	plain := c.Parent().HelpFunc()
	typ := c.Flags().Lookup("type")
	if typ == nil || !typ.Changed {
		plain(c, args)
		return
	}
	v, err := fetchSchema(c)
	if err != nil {
		plain(c, args)
		return
	}
	nt, raw, err := v.nodeType(typ.Value.String())
	if err != nil {
		plain(c, args)
		return
	}
	out := c.OutOrStdout()
	if flagBool(c, "json") {
		_ = output(out, raw)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pmx-canvas node add --type %s — %s\nEndpoint: %s\nFlags:\n", nt.Type, nt.Description, nt.Endpoint)
	for _, f := range nt.Fields {
		req := ""
		if f.Required {
			req = " [required]"
		}
		fmt.Fprintf(&b, "  --%s%s %s  %s", messages.Kebab(f.Name), req, f.Type, f.Description)
		if len(f.Aliases) > 0 {
			var as []string
			for _, a := range f.Aliases {
				if messages.Kebab(a) != messages.Kebab(f.Name) {
					as = append(as, "--"+messages.Kebab(a))
				}
			}
			if len(as) > 0 {
				fmt.Fprintf(&b, " (aliases: %s)", strings.Join(as, ", "))
			}
		}
		b.WriteByte('\n')
	}
	if len(nt.Notes) > 0 {
		b.WriteString("Notes:\n")
		for _, n := range nt.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	ex, _ := marshalIndent(nt.Example)
	fmt.Fprintf(&b, "Canonical example:\n%s\n", ex)
	_, _ = fmt.Fprint(out, b.String())
}
