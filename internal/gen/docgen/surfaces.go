package docgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// property is the part of a tool property's JSON Schema the tables show.
type property struct {
	Type        any        `json:"type"`
	Enum        []any      `json:"enum"`
	Items       *property  `json:"items"`
	AnyOf       []property `json:"anyOf"`
	Minimum     *float64   `json:"minimum"`
	Maximum     *float64   `json:"maximum"`
	Default     any        `json:"default"`
	Description string     `json:"description"`
}

func (p *property) typeWord() string {
	switch t := p.Type.(type) {
	case string:
		if t == "array" && p.Items != nil && p.Items.Type != nil {
			return "array of " + p.Items.typeWord()
		}
		return t
	case []any:
		words := make([]string, len(t))
		for i, w := range t {
			words[i] = fmt.Sprint(w)
		}
		return strings.Join(words, " or ")
	}
	if len(p.AnyOf) > 0 {
		alts := make([]string, len(p.AnyOf))
		for i := range p.AnyOf {
			alts[i] = p.AnyOf[i].typeWord()
		}
		return strings.Join(alts, " or ")
	}
	return "any"
}

func (p *property) values() string {
	enum := p.Enum
	if len(enum) == 0 && p.Items != nil {
		enum = p.Items.Enum
	}
	for _, a := range p.AnyOf {
		if len(enum) == 0 {
			enum = a.Enum
		}
	}
	var parts []string
	if len(enum) > 0 {
		list := make([]string, len(enum))
		for i, e := range enum {
			list[i] = fmt.Sprint(e)
		}
		parts = append(parts, codes(list))
	}
	if p.Minimum != nil {
		parts = append(parts, fmt.Sprintf("≥ %g", *p.Minimum))
	}
	if p.Maximum != nil {
		parts = append(parts, fmt.Sprintf("≤ %g", *p.Maximum))
	}
	if p.Default != nil {
		d, _ := json.Marshal(p.Default)
		parts = append(parts, "default "+code(string(d)))
	}
	return strings.Join(parts, "; ")
}

// toolSchema reads a tool's advertised input schema, keeping the
// properties in their advertised order.
func toolSchema(t *mcpapi.Tool) (names []string, props map[string]*property, required map[string]bool, err error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(mcpapi.InputSchema(t), &s); err != nil {
		return nil, nil, nil, err
	}
	required = map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	props = map[string]*property{}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, nil, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, nil, err
		}
		name := tok.(string)
		p := new(property)
		if err := dec.Decode(p); err != nil {
			return nil, nil, nil, err
		}
		names = append(names, name)
		props[name] = p
	}
	return names, props, required, nil
}

// mcpTools is the tool reference of docs/mcp.md: an index, then each
// tool's description and property table as tools/list advertises it
// (the canvas selector every tool takes is left to the prose).
func mcpTools() (string, error) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		return "", err
	}
	tools := reg.Tools(false)
	var index [][]string
	var b strings.Builder
	for _, t := range tools {
		runs := code(t.Op)
		if len(t.Actions) > 0 {
			runs = fmt.Sprintf("composite, %d actions", len(t.Actions))
		} else if t.Op == "" {
			runs = ""
		}
		compact := ""
		if t.Compact {
			compact = "yes"
		}
		index = append(index, []string{fmt.Sprintf("[%s](#%s)", code(t.Name), slug(t.Name)), runs, compact})

		fmt.Fprintf(&b, "### %s\n\n", code(t.Name))
		if d := strings.TrimSpace(t.Description); d != "" {
			b.WriteString(d + "\n\n")
		}
		if t.Op != "" && len(t.Actions) == 0 {
			fmt.Fprintf(&b, "Runs %s.\n\n", code(t.Op))
		}
		if len(t.Actions) > 0 {
			var acts []string
			for _, a := range t.Actions {
				sel := a.Name
				if a.Kind != "" {
					sel = a.Kind + "/" + a.Name
				}
				acts = append(acts, fmt.Sprintf("%s → %s", code(sel), code(a.Tool)))
			}
			b.WriteString("Actions: " + strings.Join(acts, ", ") + ".\n\n")
		}
		names, props, required, err := toolSchema(t)
		if err != nil {
			return "", fmt.Errorf("tool %s: %w", t.Name, err)
		}
		var rows [][]string
		for _, n := range names {
			if n == mcpapi.CanvasArg && !ownsField(t, n) {
				continue
			}
			p, req := props[n], ""
			if required[n] {
				req = "yes"
			}
			rows = append(rows, []string{code(n), p.typeWord(), req, p.values(), p.Description})
		}
		if len(rows) > 0 {
			b.WriteString(table([]string{"property", "type", "required", "values", "description"}, rows))
			b.WriteString("\n")
		}
	}
	return table([]string{"tool", "runs", "compact"}, index) + "\n" + b.String(), nil
}

func ownsField(t *mcpapi.Tool, name string) bool {
	for _, f := range t.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// cliRegion is the command reference of docs/cli.md, rendered by the CLI
// from its cobra tree (so it follows the commands as they change), between
// the CLI's own markers.
func cliRegion() Region {
	return Region{File: "docs/cli.md", Begin: cli.DocBegin, End: cli.DocEnd, Render: func() (string, error) {
		return cli.ReferenceDoc(), nil
	}}
}
