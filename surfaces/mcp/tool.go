// Package mcpapi is the MCP surface of pmx-canvas (folder surfaces/mcp): the
// reference's 83 tools, 14 resources and one prompt, served over stdio with
// mcp-go. Every tool runs catalog operations through a messages.Invoker —
// the local actor system or a remote daemon over HTTP — so a tool is the
// same operation its HTTP route runs, and local and remote agree.
//
// Tools are data (this file's Tool and Field): legacy tools name one
// operation, with an optional Build (tool arguments → operation input) and
// Format (reply → text); composites name their member legacy tools per
// action and borrow their Build and Format, so a composite action answers
// byte for byte what its legacy tool answers. Composite schemas and the
// "Deprecated:" prefixes are derived from the members (reference §5, §3.3).
package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Check says what a wrong-typed argument does (the reference's zod modes).
type Check int

const (
	// Accept passes any JSON value on to the operation (z.unknown()).
	Accept Check = iota
	// Reject refuses the call with an input-validation error (strict field).
	Reject
	// Drop silently treats a wrong-typed value as absent (zod .catch).
	Drop
	// ByOp passes the value on: the operation's decoder and handler
	// validate it, with the text every surface gives (opFields).
	ByOp
)

// Field is one advertised input property of a tool.
type Field struct {
	Name string
	// Schema is the property's JSON Schema (type, enum, items, minimum,
	// description, ...), in the order the keys should be advertised.
	Schema Obj
	// Loose is what a composite advertises when two or more of its actions
	// share the field (the first member's loose operation type). nil means
	// {} with the field's description.
	Loose    Obj
	Required bool
	Check    Check
}

// Args are a tool call's arguments.
type Args map[string]any

// Call is what a Build function may use besides the arguments.
type Call struct {
	Ctx     context.Context
	Invoker messages.Invoker
	// Canvas is the canvas the call targets.
	Canvas string
}

// Tool is one MCP tool.
type Tool struct {
	Name        string
	Description string
	Fields      []Field

	// Op is the catalog operation a legacy tool runs.
	Op string
	// Build turns the validated arguments into the operation input (nil:
	// the arguments as they are). An error becomes an isError result.
	Build func(c *Call, a Args) (Args, error)
	// Format renders the reply as the tool's text (nil: pretty JSON).
	Format func(r *Reply) (string, error)
	// Run replaces the whole Op/Build/Format path for tools that run more
	// than one operation or answer without one.
	Run func(c *Call, a Args) (*Result, error)

	// Composite fields: the discriminators and the member legacy tool of
	// each action.
	Discriminators []Discriminator
	Actions        []Action

	// Compact is set for tools in the --tools=compact surface (CompactTools).
	Compact bool
	// UIResource is the ui:// MCP App the tool declares (_meta.ui), whose
	// results then carry structuredContent for the app.
	UIResource string
}

// Discriminator is a composite's selector field (action, kind).
type Discriminator struct {
	Name        string
	Values      []string
	Description string
}

// Action maps one composite selection to the legacy tool it runs.
type Action struct {
	// Kind is the kind value (canvas_ax_gate); empty for single-selector
	// composites.
	Kind string
	Name string
	// Tool is the legacy tool whose operation, Build and Format run.
	Tool string
	// Rename maps composite field names to the member's (approvalAction →
	// action).
	Rename map[string]string
}

// Reply is an operation's reply as a tool formats it: the HTTP status and
// the body as JSON (the same bytes the HTTP route sends).
type Reply struct {
	Status int
	Body   json.RawMessage
}

// Decode decodes the body into v.
func (r *Reply) Decode(v any) error { return json.Unmarshal(r.Body, v) }

// Map decodes the body as an object.
func (r *Reply) Map() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Result is a tool call's outcome.
type Result struct {
	Text    string
	IsError bool
	// Image, when set, is sent as an image content item before the text
	// (canvas_screenshot).
	Image     []byte
	ImageMime string
}

// ToolError is an error whose text is sent as is (no prefix).
type ToolError struct{ Text string }

func (e *ToolError) Error() string { return e.Text }

// Errorf returns a ToolError.
func Errorf(format string, args ...any) error { return &ToolError{Text: fmt.Sprintf(format, args...)} }

// Registry holds every tool in tools/list order.
type Registry struct {
	tools  []*Tool
	byName map[string]*Tool
}

// Tools returns the tools in tools/list order; compact restricts them to
// the compact surface.
func (r *Registry) Tools(compact bool) []*Tool {
	if !compact {
		return r.tools
	}
	var out []*Tool
	for _, t := range r.tools {
		if t.Compact {
			out = append(out, t)
		}
	}
	return out
}

// Tool returns a tool by name.
func (r *Registry) Tool(name string) (*Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// NewRegistry builds the registry from the tool definitions: legacy tools,
// then composites (with derived schemas), in the reference's order.
func NewRegistry() (*Registry, error) {
	r := &Registry{byName: map[string]*Tool{}}
	for _, name := range ToolOrder {
		t, ok := definitions[name]
		if !ok {
			return nil, fmt.Errorf("mcp: tool %s has no definition", name)
		}
		r.tools = append(r.tools, t)
		r.byName[name] = t
	}
	if len(definitions) > len(ToolOrder) {
		var extra []string
		for name := range definitions {
			if _, ok := r.byName[name]; !ok {
				extra = append(extra, name)
			}
		}
		sort.Strings(extra)
		return nil, fmt.Errorf("mcp: tools defined but not ordered: %v", extra)
	}
	if err := r.addBoundTools(); err != nil {
		return nil, err
	}
	for _, t := range r.tools {
		if len(t.Actions) > 0 {
			if err := r.deriveComposite(t); err != nil {
				return nil, err
			}
		}
	}
	r.deprecate()
	for _, name := range CompactTools {
		t, ok := r.byName[name]
		if !ok {
			return nil, fmt.Errorf("mcp: compact tool %s is not defined", name)
		}
		t.Compact = true
	}
	return r, nil
}

// addBoundTools lists a tool for each catalog operation with an MCP
// binding, after the frozen tools: the operation's fields, its reply body
// as pretty JSON. This is how an operation added after the reference
// reaches MCP without a hand-written tool.
func (r *Registry) addBoundTools() error {
	for _, op := range messages.Catalog {
		b := op.MCP
		if b == nil {
			continue
		}
		if _, taken := r.byName[b.Tool]; taken {
			return fmt.Errorf("mcp: %s binds tool %s, which is already defined", op.Name, b.Tool)
		}
		t := &Tool{Name: b.Tool, Description: b.Description, Fields: fieldsOf(op), Op: op.Name, UIResource: b.UIResource}
		r.tools = append(r.tools, t)
		r.byName[t.Name] = t
		if b.Composite != "" {
			if err := r.joinComposite(b, t); err != nil {
				return fmt.Errorf("mcp: %s: %w", op.Name, err)
			}
		}
	}
	return nil
}

// joinComposite makes a bound tool an action of its composite: the
// action is added to the composite's selector (values and the "Operation
// to perform" description) before the composite derives its fields.
func (r *Registry) joinComposite(b *messages.MCPBinding, t *Tool) error {
	shared, ok := r.byName[b.Composite]
	if !ok || len(shared.Actions) == 0 || len(shared.Discriminators) != 1 {
		return fmt.Errorf("%s is not a single-selector composite", b.Composite)
	}
	// The definition is shared by every registry: this one gets a copy.
	c := new(Tool)
	*c = *shared
	c.Discriminators = append([]Discriminator(nil), shared.Discriminators...)
	r.byName[c.Name] = c
	for i, lt := range r.tools {
		if lt == shared {
			r.tools[i] = c
		}
	}
	d := &c.Discriminators[0]
	for _, v := range d.Values {
		if v == b.Action {
			return fmt.Errorf("%s already has action %q", c.Name, b.Action)
		}
	}
	d.Values = append(append([]string(nil), d.Values...), b.Action)
	d.Description = "Operation to perform: " + strings.Join(d.Values, " | ") + "."
	c.Actions = append(append([]Action(nil), c.Actions...), Action{Name: b.Action, Tool: t.Name})
	return nil
}

// definitions collects tool definitions from this package's files.
var definitions = map[string]*Tool{}

// define registers tool definitions (called from init functions).
func define(tools ...*Tool) {
	for _, t := range tools {
		if _, dup := definitions[t.Name]; dup {
			panic("mcp: tool defined twice: " + t.Name)
		}
		definitions[t.Name] = t
	}
}

// deriveComposite builds a composite's fields from its members (reference
// §5): discriminators first, then every member field, all optional, in
// member order; a field shared by two or more members is published loose.
func (r *Registry) deriveComposite(c *Tool) error {
	type use struct {
		field Field
		count int
		// differs: a member decodes the field with another type or enum,
		// so the composite cannot advertise one of them.
		differs bool
	}
	uses := map[string]*use{}
	var order []string
	discs := map[string]bool{}
	for _, d := range c.Discriminators {
		discs[d.Name] = true
	}
	seenTool := map[string]bool{}
	for _, a := range c.Actions {
		m, ok := r.byName[a.Tool]
		if !ok {
			return fmt.Errorf("mcp: %s action %s names unknown tool %s", c.Name, a.Name, a.Tool)
		}
		if seenTool[m.Name] {
			continue
		}
		seenTool[m.Name] = true
		rename := map[string]string{}
		for from, to := range a.Rename {
			rename[to] = from
		}
		for _, f := range m.Fields {
			name := f.Name
			if pub, ok := rename[name]; ok {
				name = pub
			} else if discs[name] {
				continue
			}
			if u, ok := uses[name]; ok {
				u.count++
				if f.Check == ByOp && !sameShape(u.field.Schema, f.Schema) {
					u.differs = true
				}
				continue
			}
			f.Name = name
			uses[name] = &use{field: f, count: 1}
			order = append(order, name)
		}
	}
	var fields []Field
	for _, d := range c.Discriminators {
		fields = append(fields, Field{Name: d.Name, Required: true, Check: Reject,
			Schema: Obj{{"type", "string"}, {"enum", d.Values}, {"description", d.Description}}})
	}
	for _, name := range order {
		u := uses[name]
		f := u.field
		f.Required = false
		switch {
		case u.differs:
			// The actions decode it differently (canvas_ax_timeline's kind:
			// an event kind or an evidence kind): advertised untyped, each
			// action's operation checks its own.
			f.Schema = Obj{}
			if d, ok := u.field.Schema.Get("description"); ok {
				f.Schema = Obj{{"description", d}}
			}
		case u.count > 1 && f.Check != ByOp:
			f.Check = Accept
			if f.Loose != nil {
				f.Schema = f.Loose
			} else {
				f.Schema = Obj{}
				if d, ok := u.field.Schema.Get("description"); ok {
					f.Schema = Obj{{"description", d}}
				}
			}
		}
		fields = append(fields, f)
	}
	c.Fields = fields
	return nil
}

// sameShape reports whether two field schemas advertise the same value
// (their descriptions aside).
func sameShape(a, b Obj) bool {
	strip := func(o Obj) string {
		out := Obj{}
		for _, kv := range o {
			if kv.K != "description" {
				out = append(out, kv)
			}
		}
		s, _ := Compact(out)
		return s
	}
	return strip(a) == strip(b)
}

// deprecate prefixes each legacy tool reachable through a composite.
func (r *Registry) deprecate() {
	for _, c := range r.tools {
		for _, a := range c.Actions {
			m := r.byName[a.Tool]
			if m == nil || strings.HasPrefix(m.Description, "Deprecated:") {
				continue
			}
			if a.Kind != "" {
				m.Description = fmt.Sprintf("Deprecated: use %s with kind %q action %q. %s", c.Name, a.Kind, a.Name, m.Description)
			} else {
				m.Description = fmt.Sprintf("Deprecated: use %s with action %q. %s", c.Name, a.Name, m.Description)
			}
		}
	}
}
