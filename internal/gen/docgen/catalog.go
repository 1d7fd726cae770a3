package docgen

import (
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/gen/opsgen"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// httpRoutes is the route index of docs/http-api.md: every route the
// catalog serves, linked to its section and to its fields.
func httpRoutes() (string, error) {
	var rows [][]string
	for _, op := range messages.Catalog {
		name := code(op.Name)
		if len(op.Fields()) > 0 {
			name = fmt.Sprintf("[%s](#%s)", name, slug(op.Name))
		}
		for _, r := range op.HTTP {
			route := fmt.Sprintf("[`%s %s`](#%s)", r.Method, r.Path, slug(r.Method+" "+r.Path))
			rows = append(rows, []string{route, name, kindWord(op), op.Summary})
		}
	}
	return table([]string{"route", "operation", "kind", "summary"}, rows), nil
}

func kindWord(op *messages.Op) string {
	switch {
	case op.Parks:
		return "read (may wait)"
	case op.IsWrite():
		return "write"
	}
	return "read"
}

// httpFields is one table per operation of the input fields its input
// type declares: JSON type, whether required, allowed values, meaning.
func httpFields() (string, error) {
	var b strings.Builder
	for _, op := range messages.Catalog {
		fields := op.Fields()
		if len(fields) == 0 {
			continue
		}
		var routes, params []string
		for _, r := range op.HTTP {
			routes = append(routes, code(r.Method+" "+r.Path))
			for _, seg := range strings.Split(r.Path, "/") {
				if strings.HasPrefix(seg, ":") {
					params = append(params, seg[1:])
				}
			}
		}
		fmt.Fprintf(&b, "### %s\n\n%s — %s\n\n", code(op.Name), strings.Join(routes, ", "), op.Summary)
		var rows [][]string
		for _, f := range fields {
			name := code(f.Name)
			for _, p := range params {
				if p == f.Name {
					name += " (path)"
				}
			}
			req := ""
			if f.Required {
				req = "yes"
			}
			rows = append(rows, []string{name, typeOf(f.Schema()), req, values(f), f.Doc})
		}
		b.WriteString(table([]string{"field", "type", "required", "values", "meaning"}, rows))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// interactionPayloads is one table per AX interaction type: the payload
// fields, derived from the input of the operation the type runs.
func interactionPayloads() (string, error) {
	kinds := map[messages.PayloadKind]string{messages.PayloadString: "string", messages.PayloadText: "non-blank string",
		messages.PayloadEnum: "string", messages.PayloadStringArray: "array of string", messages.PayloadRecord: "object"}
	var b strings.Builder
	for _, typ := range messages.InteractionTypes {
		fields, _ := messages.InteractionPayload(typ)
		fmt.Fprintf(&b, "#### %s payload\n\n", code(typ))
		if len(fields) == 0 {
			b.WriteString("No fields.\n\n")
			continue
		}
		var rows [][]string
		for _, f := range fields {
			req, typeName := "", kinds[f.Kind]
			if f.Required {
				req = "yes"
			}
			if f.Nullable {
				typeName += " or null"
			}
			vals := ""
			if len(f.Enum) > 0 {
				vals = code(strings.Join(f.Enum, " | "))
			}
			rows = append(rows, []string{code(f.Name), typeName, req, vals, f.Doc})
		}
		b.WriteString(table([]string{"field", "type", "required", "values", "meaning"}, rows))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// typeOf names a schema's JSON type: "string", "array of string",
// "number or null", "any".
func typeOf(s *messages.Schema) string {
	switch {
	case len(s.AnyOf) > 0:
		alts := make([]string, len(s.AnyOf))
		for i, a := range s.AnyOf {
			alts[i] = typeOf(a)
		}
		return strings.Join(alts, " or ")
	case s.Type == "array" && s.Items != nil && s.Items.Type != "":
		return "array of " + typeOf(s.Items)
	case s.Type == "":
		return "any"
	}
	return s.Type
}

// values is a field's allowed values: its enum, or its bounds.
func values(f messages.Field) string {
	var v string
	num := func(p *float64) string { return fmt.Sprintf("%g", *p) }
	switch {
	case len(f.Enum) > 0:
		v = codes(f.Enum)
	case f.Min != nil && f.Max != nil:
		v = num(f.Min) + " to " + num(f.Max)
	case f.Min != nil:
		v = "≥ " + num(f.Min)
	case f.Max != nil:
		v = "≤ " + num(f.Max)
	}
	if f.Default != nil {
		v = strings.TrimPrefix(v+"; default "+code(string(f.Default)), "; ")
	}
	return v
}

// goMethods is the generated method table of docs/go-package.md.
func goMethods() (string, error) {
	var rows [][]string
	for _, m := range opsgen.Methods() {
		in, out := "", m.Output
		if m.Input != "" {
			in = code("*" + m.Input)
		}
		if m.Pointer {
			out = "*" + out
		}
		rows = append(rows, []string{code(m.Name), code(m.Op.Name), in, code(out)})
	}
	return table([]string{"method", "operation", "input", "returns"}, rows), nil
}
