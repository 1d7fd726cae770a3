package messages

import "fmt"

// Owner names the actor that owns an operation's state and runs its handler.
type Owner string

// Actor owners. AX owners join when the AX layer lands.
const (
	OwnerLayout Owner = "layout"
)

// Kind says whether an operation changes state.
type Kind int

const (
	// Read operations run against the latest published view, outside any
	// actor, and never queue behind writers.
	Read Kind = iota
	// Write operations go through the owning actor's mailbox.
	Write
)

// Route is one HTTP binding of an operation.
type Route struct {
	Method string
	Path   string // Fiber syntax: /api/canvas/node/:id
}

// Op is one catalog entry: an operation with its typed input and bindings.
type Op struct {
	// Name is the reference's operation name, e.g. "node.add".
	Name  string
	Owner Owner
	Kind  Kind
	// Summary is one line for docs and generated help.
	Summary string
	// NewInput returns a pointer to a zero input value.
	NewInput func() any
	// HTTP lists the routes that run the operation, in registration order.
	HTTP []Route
	// Documented marks routes the reference documents as public contract.
	Documented bool
	// DeleteReadsBody makes a DELETE route read its JSON body (the reference
	// does this for DELETE /api/canvas/edge only).
	DeleteReadsBody bool
}

// IsWrite reports whether the operation mutates state.
func (op *Op) IsWrite() bool { return op.Kind == Write }

func input[T any]() func() any { return func() any { return new(T) } }

// Catalog is every operation the server knows, in HTTP registration order
// (order matters where paths overlap, e.g. snapshots/gc before snapshots/:id).
var Catalog = []*Op{
	{
		Name: "layout.get", Owner: OwnerLayout, Kind: Read, Documented: true,
		Summary:  "Read the whole canvas layout: viewport, theme, nodes, edges, annotations.",
		NewInput: input[LayoutGetInput](),
		HTTP:     []Route{{"GET", "/api/canvas/state"}},
	},
	{
		Name: "node.add", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Create a node; auto-placed unless both x and y are given.",
		NewInput: input[NodeAddInput](),
		HTTP:     []Route{{"POST", "/api/canvas/node"}},
	},
	{
		Name: "node.get", Owner: OwnerLayout, Kind: Read,
		Summary:  "Read one node.",
		NewInput: input[NodeGetInput](),
		HTTP:     []Route{{"GET", "/api/canvas/node/:id"}},
	},
	{
		Name: "node.update", Owner: OwnerLayout, Kind: Write,
		Summary:  "Patch a node's geometry, flags, title, content or data.",
		NewInput: input[NodeUpdateInput](),
		HTTP:     []Route{{"PATCH", "/api/canvas/node/:id"}},
	},
	{
		Name: "node.remove", Owner: OwnerLayout, Kind: Write,
		Summary:  "Delete a node with its edges and pins.",
		NewInput: input[NodeRemoveInput](),
		HTTP:     []Route{{"DELETE", "/api/canvas/node/:id"}},
	},
	{
		Name: "edge.add", Owner: OwnerLayout, Kind: Write, Documented: true,
		Summary:  "Connect two nodes, by id or by a unique search match.",
		NewInput: input[EdgeAddInput](),
		HTTP:     []Route{{"POST", "/api/canvas/edge"}},
	},
	{
		Name: "edge.remove", Owner: OwnerLayout, Kind: Write,
		Summary:         "Delete an edge by edge_id (or id).",
		NewInput:        input[EdgeRemoveInput](),
		HTTP:            []Route{{"DELETE", "/api/canvas/edge"}},
		DeleteReadsBody: true,
	},
}

var catalogByName = func() map[string]*Op {
	m := make(map[string]*Op, len(Catalog))
	for _, op := range Catalog {
		if _, dup := m[op.Name]; dup {
			panic(fmt.Sprintf("messages: duplicate operation %q in Catalog", op.Name))
		}
		m[op.Name] = op
	}
	return m
}()

// Lookup returns the catalog entry for an operation name.
func Lookup(name string) (*Op, bool) {
	op, ok := catalogByName[name]
	return op, ok
}
