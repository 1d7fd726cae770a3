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
	"slices"
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

	// Adjust narrows the operation's fields for this tool (only, except,
	// required): UX, set with define.
	Adjust []fieldAdjust

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

// NewRegistry builds the registry from the catalog: a tool for every MCP
// binding of an operation (messages.Op.MCP), with this package's UX for
// it (define), and the composites (messages.MCPComposites) with the
// actions their bindings name, in tools/list order (ListOrder).
func NewRegistry() (*Registry, error) {
	r := &Registry{byName: map[string]*Tool{}}
	for _, op := range messages.Catalog {
		for i := range op.MCP {
			b := &op.MCP[i]
			if _, dup := r.byName[b.Tool]; dup {
				return nil, fmt.Errorf("mcp: %s binds tool %s, which is already bound", op.Name, b.Tool)
			}
			r.byName[b.Tool] = boundTool(op, b)
		}
	}
	for i := range messages.MCPComposites {
		c := &messages.MCPComposites[i]
		if _, dup := r.byName[c.Tool]; dup {
			return nil, fmt.Errorf("mcp: composite %s is also bound to an operation", c.Tool)
		}
		r.byName[c.Tool] = compositeTool(c)
	}
	for name := range definitions {
		if _, ok := r.byName[name]; !ok {
			return nil, fmt.Errorf("mcp: UX defined for %s, which no operation binds", name)
		}
	}
	for _, name := range ListOrder() {
		t, ok := r.byName[name]
		if !ok {
			return nil, fmt.Errorf("mcp: frozen tool %s is not bound", name)
		}
		r.tools = append(r.tools, t)
	}
	if len(r.tools) != len(r.byName) {
		return nil, fmt.Errorf("mcp: %d tools are built but %d are listed (a composite missing from ToolOrder?)", len(r.byName), len(r.tools))
	}
	if err := r.bindActions(); err != nil {
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

// boundTool is the tool a binding declares: the binding's name and
// description, the operation's fields (less what the UX adjusts) and the
// UX's argument building and result text.
func boundTool(op *messages.Op, b *messages.MCPBinding) *Tool {
	t := &Tool{Name: b.Tool, Description: b.Description, Op: op.Name, UIResource: b.UIResource}
	ux := definitions[b.Tool]
	if ux == nil {
		ux = &Tool{}
	}
	t.Build, t.Format, t.Run, t.Fields = ux.Build, ux.Format, ux.Run, ux.Fields
	if t.Fields == nil {
		t.Fields = fieldsOf(op, ux.Adjust...)
	}
	return t
}

// compositeTool is a composite with its selectors; bindActions adds its
// actions.
func compositeTool(c *messages.MCPComposite) *Tool {
	t := &Tool{Name: c.Tool, Description: c.Description}
	for _, s := range c.Selectors {
		t.Discriminators = append(t.Discriminators, Discriminator{Name: s.Name,
			Values: append([]string(nil), s.Values...), Description: s.Description})
	}
	return t
}

// bindTool builds the tool a binding names, outside any registry (a tool
// that runs another tool's definition: canvas_snapshot's actions).
func bindTool(name string) *Tool {
	for _, op := range messages.Catalog {
		for i := range op.MCP {
			if op.MCP[i].Tool == name {
				return boundTool(op, &op.MCP[i])
			}
		}
	}
	panic("mcp: no operation binds tool " + name)
}

// bindActions makes every binding with a Composite an action of it, in
// the order of the composite's frozen selector values (kind, then action,
// for two selectors); an action bound after the reference is appended to
// the first selector, in catalog order.
func (r *Registry) bindActions() error {
	type bound struct {
		b    *messages.MCPBinding
		rank int
	}
	byComposite := map[string][]bound{}
	for _, op := range messages.Catalog {
		for i := range op.MCP {
			b := &op.MCP[i]
			if b.Composite == "" {
				continue
			}
			c, ok := r.byName[b.Composite]
			if !ok || len(c.Discriminators) == 0 {
				return fmt.Errorf("mcp: %s joins %s, which is not a composite", b.Tool, b.Composite)
			}
			if (b.Kind != "") != (len(c.Discriminators) == 2) {
				return fmt.Errorf("mcp: %s joins %s with the wrong selectors", b.Tool, b.Composite)
			}
			d := &c.Discriminators[0]
			ai := slices.Index(d.Values, b.Action)
			if ai < 0 {
				if b.Kind != "" {
					return fmt.Errorf("mcp: %s: %s has no action %q", b.Tool, c.Name, b.Action)
				}
				d.Values = append(d.Values, b.Action)
				d.Description = "Operation to perform: " + strings.Join(d.Values, " | ") + "."
				ai = len(d.Values) - 1
			}
			rank := ai
			if b.Kind != "" {
				ki := slices.Index(c.Discriminators[1].Values, b.Kind)
				if ki < 0 {
					return fmt.Errorf("mcp: %s: %s has no kind %q", b.Tool, c.Name, b.Kind)
				}
				rank = ki*len(d.Values) + ai
			}
			for _, o := range byComposite[c.Name] {
				if o.rank == rank {
					return fmt.Errorf("mcp: %s and %s are both %s %s %s", o.b.Tool, b.Tool, c.Name, b.Kind, b.Action)
				}
			}
			byComposite[c.Name] = append(byComposite[c.Name], bound{b, rank})
		}
	}
	for _, t := range r.tools {
		if len(t.Discriminators) == 0 {
			continue
		}
		acts := byComposite[t.Name]
		want := len(t.Discriminators[0].Values)
		if len(t.Discriminators) == 2 {
			want *= len(t.Discriminators[1].Values)
		}
		if len(acts) != want {
			return fmt.Errorf("mcp: composite %s has %d of its %d actions bound", t.Name, len(acts), want)
		}
		slices.SortStableFunc(acts, func(a, b bound) int { return a.rank - b.rank })
		for _, a := range acts {
			t.Actions = append(t.Actions, Action{Kind: a.b.Kind, Name: a.b.Action, Tool: a.b.Tool, Rename: a.b.Rename})
		}
	}
	return nil
}

// definitions is this package's UX per tool, by tool name: a field
// adjustment, the argument building and the result text. The tool's name,
// description, operation and fields come from the catalog.
var definitions = map[string]*Tool{}

// define registers tools' UX (called from init functions).
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
		case u.count > 1 && f.Check == ByOp:
			// Shared by several actions: each action's operation applies
			// its own default, so the composite advertises none.
			f.Schema = withoutKey(f.Schema, "default")
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
// (their descriptions and defaults aside).
func sameShape(a, b Obj) bool {
	strip := func(o Obj) string {
		s, _ := Compact(withoutKey(withoutKey(o, "description"), "default"))
		return s
	}
	return strip(a) == strip(b)
}

// withoutKey returns o without the key k.
func withoutKey(o Obj, k string) Obj {
	out := make(Obj, 0, len(o))
	for _, kv := range o {
		if kv.K != k {
			out = append(out, kv)
		}
	}
	return out
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
