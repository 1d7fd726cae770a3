package messages

import (
	"bytes"
	"encoding/json"
)

// SchemaDocument is the reply of schema.describe (GET /api/canvas/schema,
// canvas://schema, canvas_describe_schema): what this server creates and
// how. The node types are declared here, next to the inputs their fields
// name (a test keeps every field a real input property); the json-render
// catalog and the HTML primitives come from the validators' own catalogs
// (content/jsonrender, content/primitives), so the schema and validation
// cannot disagree.
type SchemaDocument struct {
	OK        bool             `json:"ok"`
	Source    string           `json:"source"` // always "running-server"
	Version   string           `json:"version"`
	NodeTypes []SchemaNodeType `json:"nodeTypes"`
	// JSONRender is {rootShape, components[48], directives[]} as
	// content/jsonrender declares them.
	JSONRender json.RawMessage `json:"jsonRender"`
	Graph      SchemaGraph     `json:"graph"`
	// HTMLPrimitives are the 19 primitive descriptors
	// ({kind,title,description,useWhen,defaultSize,dataShape,example}).
	HTMLPrimitives json.RawMessage `json:"htmlPrimitives"`
	MCP            SchemaMCP       `json:"mcp"`
}

// SchemaNodeType is the create schema of one node type.
type SchemaNodeType struct {
	Type        string          `json:"type"`
	Kind        string          `json:"kind"`
	Description string          `json:"description"`
	Endpoint    string          `json:"endpoint"`
	MCPTool     string          `json:"mcpTool"`
	Fields      []SchemaField   `json:"fields"`
	Example     json.RawMessage `json:"example"`
	Notes       []string        `json:"notes,omitempty"`
}

// SchemaField is one create field of a node type. A dotted name
// (data.warning) is a key inside the named input property.
type SchemaField struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Description string   `json:"description"`
	Aliases     []string `json:"aliases,omitempty"`
}

// SchemaGraph lists the chart kinds graph.add draws.
type SchemaGraph struct {
	GraphTypes []string `json:"graphTypes"`
}

// SchemaMCP says which MCP tools create content: the create tools, the
// resources and, per node type, the tool that makes it.
type SchemaMCP struct {
	Tools           []string      `json:"tools"`
	Resources       []string      `json:"resources"`
	NodeTypeRouting SchemaRouting `json:"nodeTypeRouting"`
}

// SchemaRoute is one node type's creating tool.
type SchemaRoute struct{ Type, Tool string }

// SchemaRouting is nodeTypeRouting: a JSON object in declaration order.
type SchemaRouting []SchemaRoute

// MarshalJSON writes the routes as one object, keeping their order.
func (r SchemaRouting) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, route := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(route.Type)
		v, _ := json.Marshal(route.Tool)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object back in its order.
func (r *SchemaRouting) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	*r = (*r)[:0]
	for dec.More() {
		var k, v string
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ = t.(string)
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*r = append(*r, SchemaRoute{Type: k, Tool: v})
	}
	_, err := dec.Token() // }
	return err
}

// Tool returns the tool that creates node type typ.
func (r SchemaRouting) Tool(typ string) (string, bool) {
	for _, route := range r {
		if route.Type == typ {
			return route.Tool, true
		}
	}
	return "", false
}

// Field returns the named create field (or the one it is an alias of).
func (nt SchemaNodeType) Field(name string) (SchemaField, bool) {
	for _, f := range nt.Fields {
		if f.Name == name {
			return f, true
		}
	}
	for _, f := range nt.Fields {
		for _, a := range f.Aliases {
			if a == name {
				return f, true
			}
		}
	}
	return SchemaField{}, false
}
