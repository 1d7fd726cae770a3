package actors

import (
	"encoding/json"
	"sync"

	"github.com/pmxcanvas/pmx-canvas/content/jsonrender"
	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// schemaDocument is schema.describe's reply, built once: the node types
// declared in messages and the catalogs the validators use (jsonrender,
// graphspec through messages.GraphTypes, primitives). It is shared and
// never changed after it is built.
var schemaDocument = sync.OnceValue(func() *messages.SchemaDocument {
	jr, err := json.Marshal(struct {
		RootShape  jsonrender.Shape       `json:"rootShape"`
		Components []jsonrender.Component `json:"components"`
		Directives []jsonrender.Directive `json:"directives"`
	}{jsonrender.RootShape, jsonrender.Catalog(), jsonrender.Directives()})
	if err != nil {
		panic("schema: json-render catalog: " + err.Error())
	}
	prims, err := json.Marshal(primitives.Descriptors())
	if err != nil {
		panic("schema: html primitives: " + err.Error())
	}
	return &messages.SchemaDocument{
		OK:             true,
		Source:         "running-server",
		Version:        messages.ContractVersion,
		NodeTypes:      messages.SchemaNodeTypes,
		JSONRender:     jr,
		Graph:          messages.SchemaGraph{GraphTypes: messages.GraphTypes},
		HTMLPrimitives: prims,
		MCP: messages.SchemaMCP{
			Tools:           messages.SchemaTools,
			Resources:       messages.SchemaResources,
			NodeTypeRouting: messages.SchemaNodeRouting,
		},
	}
})

func init() {
	readHandlers["schema.describe"] = func(*canvas.State, *messages.Envelope, *canvasRef) (any, *messages.Error) {
		return schemaDocument(), nil
	}
}
