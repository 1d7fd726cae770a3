package mcpapi

import (
	"fmt"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// opFields advertises an operation's input as a tool's fields: every
// property of the input type (messages.Field) except those tagged
// mcp:"-", with the schema, doc and required flag the type declares. The
// operation decodes and validates the arguments (Check ByOp), so a tool
// says and refuses exactly what HTTP, the CLI and the Go package do.
//
// Adjustments are UX only: a tool that shows a subset (only) or a
// different required set (required).
func opFields(opName string, adjust ...fieldAdjust) []Field {
	op, ok := messages.Lookup(opName)
	if !ok {
		panic("mcp: opFields: unknown operation " + opName)
	}
	return fieldsOf(op, adjust...)
}

// fieldsOf is opFields for an operation in hand.
func fieldsOf(op *messages.Op, adjust ...fieldAdjust) []Field {
	opName := op.Name
	var out []Field
	for _, mf := range op.Fields() {
		if mf.OmittedFrom("mcp") {
			continue
		}
		s := schemaObj(mf.Schema())
		out = append(out, Field{Name: mf.Name, Schema: s, Loose: s, Required: mf.Required, Check: ByOp})
	}
	for _, a := range adjust {
		out = a(opName, out)
	}
	return out
}

type fieldAdjust func(op string, fields []Field) []Field

// only keeps the named fields, in this order.
func only(names ...string) fieldAdjust {
	return func(op string, fields []Field) []Field {
		var out []Field
		for _, n := range names {
			out = append(out, mustField(op, fields, n))
		}
		return out
	}
}

// except drops the named fields (each must exist).
func except(names ...string) fieldAdjust {
	return func(op string, fields []Field) []Field {
		drop := map[string]bool{}
		for _, n := range names {
			mustField(op, fields, n)
			drop[n] = true
		}
		var out []Field
		for _, f := range fields {
			if !drop[f.Name] {
				out = append(out, f)
			}
		}
		return out
	}
}

// required sets the tool's required fields: the schema's required list
// only (what the reference advertises). The operation decides what is
// missing, so a call the operation accepts is accepted on every surface.
func required(names ...string) fieldAdjust {
	return func(op string, fields []Field) []Field {
		want := map[string]bool{}
		for _, n := range names {
			mustField(op, fields, n)
			want[n] = true
		}
		for i := range fields {
			fields[i].Required = want[fields[i].Name]
		}
		return fields
	}
}

func mustField(op string, fields []Field, name string) Field {
	for _, f := range fields {
		if f.Name == name {
			return f
		}
	}
	panic(fmt.Sprintf("mcp: %s has no MCP field %q", op, name))
}

// schemaObj renders a messages.Schema as an ordered schema object.
func schemaObj(s *messages.Schema) Obj {
	o := Obj{}
	if len(s.AnyOf) > 0 {
		alts := make([]Obj, len(s.AnyOf))
		for i, a := range s.AnyOf {
			alts[i] = schemaObj(a)
		}
		o = append(o, KV{"anyOf", alts})
	}
	if s.Type != "" {
		o = append(o, KV{"type", s.Type})
	}
	if len(s.Enum) > 0 {
		o = append(o, KV{"enum", s.Enum})
	}
	if s.Items != nil {
		o = append(o, KV{"items", schemaObj(s.Items)})
	}
	if s.Properties != nil {
		props := Obj{}
		for i, n := range s.Properties.Names {
			props = append(props, KV{n, schemaObj(s.Properties.Schemas[i])})
		}
		o = append(o, KV{"properties", props})
	}
	if len(s.Required) > 0 {
		o = append(o, KV{"required", s.Required})
	}
	if s.AdditionalProperties != nil {
		o = append(o, KV{"additionalProperties", schemaObj(s.AdditionalProperties)})
	}
	if s.Minimum != nil {
		o = append(o, KV{"minimum", *s.Minimum})
	}
	if s.Maximum != nil {
		o = append(o, KV{"maximum", *s.Maximum})
	}
	if len(s.Default) > 0 {
		o = append(o, KV{"default", s.Default})
	}
	if s.Description != "" {
		o = append(o, KV{"description", s.Description})
	}
	return o
}
