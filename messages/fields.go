package messages

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Field is one input property of an operation, declared once on the
// operation's input type and read by every surface: the MCP input schema,
// the CLI flags, the Go package and the docs all come from it.
//
// Struct tags on an input field:
//
//	json:"name"       the property name (required; "-" hides the field)
//	doc:"…"           one line for schemas, flag help and docs
//	enum:"edgeStyles" the allowed values: a list in Enums (for a string
//	                  slice, the allowed items)
//	pmx:"required"    the decoder refuses a call without it, naming it
//	pmx:"required,handler" required too, but the handler checks it (with
//	                  the reference's own message)
//	min:"1" max:"500" numeric bounds; the decoder refuses a value outside
//	                  them, naming the field
//	type:"string"     the advertised JSON type when the Go type is looser
//	                  (an any field the domain checks itself, to answer
//	                  with the reference's message)
//
// The tags describe; the operation's decoder and handler enforce (one
// validation, one error text per field, whatever the surface). The
// cross-surface tests drive every declared constraint through each
// surface and check it is refused the same way.
type Field struct {
	Name     string
	Doc      string
	Type     reflect.Type
	Enum     []string
	Required bool
	// HandlerChecks says the handler, not the decoder, refuses a call
	// without a required field (its message is the reference's).
	HandlerChecks bool
	Min, Max      *float64
	// JSONType is the advertised type override (type tag), or "".
	JSONType string
	// Default is the value the operation uses when the field is absent
	// (default tag, JSON), or nil.
	Default json.RawMessage

	index []int             // the field's path in the input struct
	tag   reflect.StructTag // its tags, for the surfaces' own (cli, mcp)
}

// OmittedFrom reports whether the field is tagged surface:"-" (mcp:"-",
// cli:"-"): an input that surface does not offer.
func (f Field) OmittedFrom(surface string) bool { return f.tag.Get(surface) == "-" }

// Fields lists the operation's input properties in declaration order
// (embedded structs flattened where they appear).
func (op *Op) Fields() []Field { return FieldsOf(reflect.TypeOf(op.NewInput()).Elem()) }

// Field returns the named input property.
func (op *Op) Field(name string) (Field, bool) {
	for _, f := range op.Fields() {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

var fieldCache sync.Map // reflect.Type -> []Field

// FieldsOf lists the properties of an input struct type.
func FieldsOf(t reflect.Type) []Field {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.([]Field)
	}
	var out []Field
	seen := map[string]bool{}
	var walk func(reflect.Type, []int)
	walk = func(st reflect.Type, at []int) {
		for i := 0; i < st.NumField(); i++ {
			sf := st.Field(i)
			path := append(append([]int(nil), at...), i)
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, path)
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "" || name == "-" || seen[name] {
				continue
			}
			seen[name] = true
			f := fieldOf(st, sf, name)
			f.index = path
			out = append(out, f)
		}
	}
	walk(t, nil)
	fieldCache.Store(t, out)
	return out
}

func fieldOf(owner reflect.Type, sf reflect.StructField, name string) Field {
	f := Field{Name: name, Doc: sf.Tag.Get("doc"), Type: sf.Type, JSONType: sf.Tag.Get("type"), tag: sf.Tag}
	if e := sf.Tag.Get("enum"); e != "" {
		list, ok := Enums[e]
		if !ok {
			panic(fmt.Sprintf("messages: %s.%s names enum %q, which Enums does not have", owner.Name(), sf.Name, e))
		}
		f.Enum = list
	}
	for _, flag := range strings.Split(sf.Tag.Get("pmx"), ",") {
		switch flag {
		case "required":
			f.Required = true
		case "handler":
			f.HandlerChecks = true
		}
	}
	if d := sf.Tag.Get("default"); d != "" {
		if !json.Valid([]byte(d)) {
			panic(fmt.Sprintf("messages: %s.%s: default %q is not JSON", owner.Name(), sf.Name, d))
		}
		f.Default = json.RawMessage(d)
	}
	f.Min = boundTag(owner, sf, "min")
	f.Max = boundTag(owner, sf, "max")
	return f
}

func boundTag(owner reflect.Type, sf reflect.StructField, key string) *float64 {
	s := sf.Tag.Get(key)
	if s == "" {
		return nil
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("messages: %s.%s: bad %s tag %q", owner.Name(), sf.Name, key, s))
	}
	return &n
}

// Schema is the JSON Schema of one property, with its keys in a fixed
// order (anyOf, type, enum, items, properties, bounds, description).
type Schema struct {
	AnyOf                []*Schema       `json:"anyOf,omitempty"`
	Type                 string          `json:"type,omitempty"`
	Enum                 []string        `json:"enum,omitempty"`
	Items                *Schema         `json:"items,omitempty"`
	Properties           *Properties     `json:"properties,omitempty"`
	Required             []string        `json:"required,omitempty"`
	AdditionalProperties *Schema         `json:"additionalProperties,omitempty"`
	Minimum              *float64        `json:"minimum,omitempty"`
	Maximum              *float64        `json:"maximum,omitempty"`
	Default              json.RawMessage `json:"default,omitempty"`
	Description          string          `json:"description,omitempty"`
}

// Properties are an object schema's properties in declaration order.
type Properties struct {
	Names   []string
	Schemas []*Schema
}

// MarshalJSON keeps the declaration order.
func (p *Properties) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range p.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, err := json.Marshal(p.Schemas[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Schema is the property's JSON Schema: its Go type, the type override,
// enum, bounds and doc.
func (f Field) Schema() *Schema {
	var s *Schema
	if name := f.tag.Get("schema"); name != "" {
		s = namedSchemas[name]()
	} else if f.JSONType != "" {
		s = &Schema{Type: f.JSONType}
		if f.JSONType == "array" {
			s.Items = &Schema{}
		}
	} else {
		s = schemaOf(f.Type)
	}
	if len(f.Enum) > 0 {
		target := s
		if len(s.AnyOf) > 0 {
			target = s.AnyOf[0]
		}
		if target.Type == "array" && target.Items != nil {
			target = target.Items
		}
		target.Enum = f.Enum
	}
	s.Minimum, s.Maximum = f.Min, f.Max
	s.Default = f.Default
	s.Description = f.Doc
	return s
}

// namedSchemas are schemas a field names with a schema tag, for values
// one Go type cannot say (a number, one of some words, or null).
var namedSchemas = map[string]func() *Schema{
	"streamPatches": func() *Schema {
		return &Schema{Type: "array", Items: &Schema{AnyOf: []*Schema{{Type: "string"}, {Type: "object", AdditionalProperties: &Schema{}}}}}
	},
	// jsonRenderSpec is a json-render document or one bare component (the
	// handler normalises and validates either).
	"jsonRenderSpec": func() *Schema {
		record := &Schema{Type: "object", AdditionalProperties: &Schema{}}
		return &Schema{AnyOf: []*Schema{
			{Type: "object", Properties: &Properties{Names: []string{"root", "elements", "state"},
				Schemas: []*Schema{{Type: "string"}, record, record}}, Required: []string{"root", "elements"}},
			{Type: "object", Properties: &Properties{Names: []string{"type", "props", "children"},
				Schemas: []*Schema{{Type: "string"}, record, {Type: "array", Items: &Schema{Type: "string"}}}}, Required: []string{"type"}},
		}}
	},
	// dataObject is an object of any values, advertised for a field that
	// also takes another shape the handler checks (node.update's data).
	"dataObject": func() *Schema { return &Schema{Type: "object", AdditionalProperties: &Schema{}} },
	// appTransport is mcpapp.open's transport: stdio or Streamable HTTP.
	"appTransport": func() *Schema {
		str := func() *Schema { return &Schema{Type: "string"} }
		strMap := func() *Schema { return &Schema{Type: "object", AdditionalProperties: str()} }
		return &Schema{AnyOf: []*Schema{
			{Type: "object", Properties: &Properties{Names: []string{"type", "command", "args", "cwd", "env"},
				Schemas: []*Schema{{Type: "string", Enum: []string{"stdio"}}, str(), {Type: "array", Items: str()}, str(), strMap()}},
				Required: []string{"type", "command"}},
			{Type: "object", Properties: &Properties{Names: []string{"type", "url", "headers"},
				Schemas: []*Schema{{Type: "string", Enum: []string{"http"}}, str(), strMap()}},
				Required: []string{"type", "url"}},
		}}
	},
	// excalidrawElements is an array of element objects or that array as
	// a JSON string (the diagram preset parses and checks it).
	"excalidrawElements": func() *Schema {
		return &Schema{AnyOf: []*Schema{{Type: "string"}, {Type: "array", Items: &Schema{Type: "object", AdditionalProperties: &Schema{}}}}}
	},
	"barHighlight": func() *Schema {
		return &Schema{AnyOf: []*Schema{{Type: "number"}, {Type: "string", Enum: []string{"max", "min"}}, {Type: "null"}}}
	},
}

var (
	rawType       = reflect.TypeOf(json.RawMessage(nil))
	looseBoolType = reflect.TypeOf(LooseBool(false))
)

func schemaOf(t reflect.Type) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawType || t == looseBoolType {
		if t == looseBoolType {
			return &Schema{Type: "boolean"}
		}
		return &Schema{}
	}
	if t.Kind() == reflect.Struct && strings.HasPrefix(t.Name(), "Opt[") {
		v, _ := t.FieldByName("Value")
		return &Schema{AnyOf: []*Schema{schemaOf(v.Type), {Type: "null"}}}
	}
	switch t.Kind() {
	case reflect.Bool:
		return &Schema{Type: "boolean"}
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return &Schema{Type: "number"}
	case reflect.String:
		return &Schema{Type: "string"}
	case reflect.Slice, reflect.Array:
		return &Schema{Type: "array", Items: schemaOf(t.Elem())}
	case reflect.Map:
		return &Schema{Type: "object", AdditionalProperties: schemaOf(t.Elem())}
	case reflect.Struct:
		props := &Properties{}
		for _, f := range FieldsOf(t) {
			props.Names = append(props.Names, f.Name)
			props.Schemas = append(props.Schemas, f.Schema())
		}
		return &Schema{Type: "object", Properties: props}
	}
	return &Schema{} // interface: any JSON value
}

// missing reports whether a required field is absent from a decoded input:
// a nil pointer, slice, map or interface, or an empty string (an empty path
// segment, an id that names nothing).
func (f Field) missing(in reflect.Value) bool {
	v := in.FieldByIndex(f.index)
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil()
	case reflect.String:
		return v.String() == ""
	}
	return false
}

// checkDeclared refuses an input that lacks a required field or has a
// number outside its bounds, naming the field.
func (op *Op) checkDeclared(in any) *Error {
	v := reflect.ValueOf(in).Elem()
	// The decoded input's own type: Fields would allocate a fresh input
	// per request only to learn it.
	for _, f := range FieldsOf(v.Type()) {
		if f.Required && !f.HandlerChecks && f.missing(v) {
			return RequiredField(op.Name, f.Name)
		}
		if f.Min == nil && f.Max == nil {
			continue
		}
		n, ok := f.number(v)
		switch {
		case !ok:
		case f.Min != nil && n < *f.Min:
			return InvalidInput("invalid input for %s: field %q must be at least %s, got %s", op.Name, f.Name, plainNumber(*f.Min), plainNumber(n)).With("field", f.Name)
		case f.Max != nil && n > *f.Max:
			return InvalidInput("invalid input for %s: field %q must be at most %s, got %s", op.Name, f.Name, plainNumber(*f.Max), plainNumber(n)).With("field", f.Name)
		}
	}
	return nil
}

// number returns a numeric field's value when it is set.
func (f Field) number(in reflect.Value) (float64, bool) {
	v := in.FieldByIndex(f.index)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	case reflect.Int, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	}
	return 0, false
}

// RequiredField is the error for a required input field that is absent, the
// same text on every surface.
func RequiredField(op, field string) *Error {
	return InvalidInput("invalid input for %s: field %q is required", op, field).With("field", field)
}

// plainNumber formats a bound or a value as written (1800000, not 1.8e+06).
func plainNumber(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }
