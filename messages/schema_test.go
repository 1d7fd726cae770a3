package messages

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// opAt is the operation behind a node type's endpoint (its POST route).
func opAt(t *testing.T, endpoint string) *Op {
	t.Helper()
	for _, op := range Catalog {
		for _, r := range op.HTTP {
			if r.Method == "POST" && r.Path == endpoint {
				return op
			}
		}
	}
	t.Fatalf("no operation at POST %s", endpoint)
	return nil
}

// Every create field the schema advertises is a property its endpoint's
// operation reads (data.<key> a key of its data), so the schema cannot
// promise a field the decoder drops; every example decodes.
func TestSchemaFieldsAreInputs(t *testing.T) {
	seen := map[string]bool{}
	for _, nt := range SchemaNodeTypes {
		if seen[nt.Type] {
			t.Errorf("node type %s listed twice", nt.Type)
		}
		seen[nt.Type] = true
		op := opAt(t, nt.Endpoint)
		for _, f := range nt.Fields {
			name, _, _ := strings.Cut(f.Name, ".")
			if _, ok := op.Field(name); !ok {
				t.Errorf("%s: field %s is not an input of %s", nt.Type, f.Name, op.Name)
			}
			if f.Type == "" || f.Description == "" {
				t.Errorf("%s: field %s lacks a type or description", nt.Type, f.Name)
			}
		}
		if !json.Valid(nt.Example) {
			t.Errorf("%s: example is not JSON", nt.Type)
			continue
		}
		if _, err := op.DecodeInput(nt.Example); err != nil {
			t.Errorf("%s: example does not decode for %s: %v", nt.Type, op.Name, err)
		}
		if _, ok := SchemaNodeRouting.Tool(nt.Type); !ok {
			t.Errorf("%s has no nodeTypeRouting entry", nt.Type)
		}
	}
	// Every type node.add creates is described.
	for _, typ := range NodeTypes {
		if !seen[typ] {
			t.Errorf("node type %s (node.add) has no create schema", typ)
		}
	}
	if len(SchemaNodeRouting) != len(SchemaNodeTypes) {
		t.Errorf("routing has %d entries for %d node types", len(SchemaNodeRouting), len(SchemaNodeTypes))
	}
}

// The routing object keeps its order through JSON.
func TestSchemaRoutingRoundTrip(t *testing.T) {
	b, err := json.Marshal(SchemaNodeRouting)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"markdown":"canvas_add_node","status":`) {
		t.Fatalf("routing JSON: %s", b)
	}
	var back SchemaRouting
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, SchemaNodeRouting) {
		t.Fatalf("round trip: %v", back)
	}
}
