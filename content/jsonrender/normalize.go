package jsonrender

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxElements is the most elements a spec may have.
const MaxElements = 2000

// ErrMissingRoot is returned by Normalize for a spec that has neither a
// root nor elements and is not a bare component. Its text is the
// reference's.
var ErrMissingRoot = errors.New("Missing root and elements in spec. Pass a complete {root, elements} document, or a single bare component object with a type field.")

// Spec is a normalised json-render spec, ready for encoding/json.
type Spec struct {
	Root     string              `json:"root"`
	Elements map[string]*Element `json:"elements"`
	State    map[string]any      `json:"state,omitempty"`
}

// Element is one element of a Spec. Visible is true, a condition object or
// an array of conditions; On maps an event to an action binding
// {action, params?} or a list of them.
type Element struct {
	Type     string         `json:"type"`
	Props    map[string]any `json:"props"`
	Children []string       `json:"children"`
	Visible  any            `json:"visible"`
	On       map[string]any `json:"on"`
	Repeat   map[string]any `json:"repeat,omitempty"`
	Watch    map[string]any `json:"watch,omitempty"`
}

// Summary is what the validate operation reports about a spec besides the
// spec itself.
type Summary struct {
	Root         string   `json:"root"`
	ElementCount int      `json:"elementCount"`
	StateKeys    []string `json:"stateKeys"`
}

// Summary returns the spec's root, its number of elements and its sorted
// state keys.
func (s *Spec) Summary() Summary {
	return Summary{Root: s.Root, ElementCount: len(s.Elements), StateKeys: sortedKeys(s.State)}
}

// Title is the title a node shows for the spec: given (trimmed) if not
// empty, else the root element's title or text prop, else its type, else
// "json-render".
func (s *Spec) Title(given string) string {
	if t := strings.TrimSpace(given); t != "" {
		return t
	}
	if root := s.Elements[s.Root]; root != nil {
		for _, k := range []string{"title", "text"} {
			if t, ok := root.Props[k].(string); ok && strings.TrimSpace(t) != "" {
				return strings.TrimSpace(t)
			}
		}
		if root.Type != "" {
			return root.Type
		}
	}
	return "json-render"
}

// Normalize turns a json-render spec into its normal form and validates
// it. spec is a decoded JSON value (map[string]any), JSON text ([]byte or
// json.RawMessage) or any Go value encoding/json encodes as an object, such
// as a *Spec; it is not changed. The rules are in the package doc. A spec
// that fails validation gives a *SpecError listing every problem found.
func Normalize(spec any) (*Spec, error) {
	doc, err := canon(spec)
	if err != nil {
		return nil, err
	}
	var c collector
	findForbidden(doc, nil, func(path []string) bool {
		c.add(dotPath(path), fmt.Sprintf("key %q is not allowed", path[len(path)-1]))
		return true
	})
	if c.total() > 0 {
		return nil, c.err()
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, ErrMissingRoot
	}
	if m["root"] == nil && m["elements"] == nil {
		if _, bare := m["type"].(string); bare {
			m = map[string]any{"root": "root", "elements": map[string]any{"root": m}}
		}
	}
	if m["root"] == nil || m["elements"] == nil {
		return nil, ErrMissingRoot
	}

	out := &Spec{}
	root, ok := m["root"].(string)
	switch {
	case !ok:
		c.add("root", "expected string, got "+typeOf(m["root"]))
	case root == "":
		c.add("root", "must name an element")
	}
	out.Root = root
	elements, ok := m["elements"].(map[string]any)
	if !ok {
		c.add("elements", "expected object, got "+typeOf(m["elements"]))
		return nil, c.err()
	}
	if len(elements) > MaxElements {
		c.add("elements", fmt.Sprintf("%d elements exceed the limit of %d", len(elements), MaxElements))
		return nil, c.err()
	}
	if _, found := elements[root]; root != "" && !found {
		c.add("root", fmt.Sprintf("element %q does not exist", root))
	}
	if st := m["state"]; st != nil {
		if sm, ok := st.(map[string]any); ok {
			out.State = sm
		} else {
			c.add("state", "expected object, got "+typeOf(st))
		}
	}

	keys := sortedKeys(elements)
	out.Elements = make(map[string]*Element, len(elements))
	for _, key := range keys {
		if key == "" {
			c.add("elements", "an element key is empty")
			continue
		}
		if el := normalizeElement(key, elements[key], &c); el != nil {
			out.Elements[key] = el
		}
	}
	for _, key := range keys {
		el := out.Elements[key]
		if el == nil {
			continue
		}
		for i, child := range el.Children {
			if _, ok := elements[child]; !ok {
				c.add(elemPath(key, "children", strconv.Itoa(i)), fmt.Sprintf("element %q does not exist", child))
			}
		}
	}
	findCycles(keys, out.Elements, &c)
	if c.total() > 0 {
		return nil, c.err()
	}
	return out, nil
}

// formControls get a name from their element key when they have none.
var formControls = map[string]bool{"Input": true, "Textarea": true, "Select": true, "Checkbox": true, "Radio": true, "Switch": true}

// stringProps are coerced to strings in every component.
var stringProps = []string{"title", "text", "message", "label", "name", "content", "description", "placeholder"}

// buttonVariants maps shadcn's Button variants onto the renderer's.
var buttonVariants = map[string]string{"default": "primary", "outline": "secondary", "destructive": "danger"}

// normalizeElement normalises and validates one element, adding what is
// wrong to c. It returns nil for an element too broken to keep checking.
func normalizeElement(key string, v any, c *collector) *Element {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(elemPath(key), "expected object, got "+typeOf(v))
		return nil
	}
	el := &Element{}
	raw, ok := m["type"].(string)
	switch {
	case m["type"] == nil:
		c.add(elemPath(key, "type"), "required string")
	case !ok:
		c.add(elemPath(key, "type"), "expected string, got "+typeOf(m["type"]))
	default:
		name, found := resolveType(raw)
		if !found {
			c.add(elemPath(key, "type"), fmt.Sprintf("unknown component %q", raw)+didYouMean(componentSuggestions(raw)))
		}
		el.Type = name
	}

	props := map[string]any{}
	switch p := m["props"].(type) {
	case nil:
	case map[string]any:
		props = stripNulls(p).(map[string]any)
	default:
		c.add(elemPath(key, "props"), "expected object, got "+typeOf(p))
	}
	for _, k := range sortedKeys(props) {
		checkDirectives(props[k], []string{"elements", key, "props", k}, c)
	}
	if el.Type != "" {
		coerceProps(el.Type, key, props)
	}
	el.Props = props

	el.Children = []string{}
	if list, ok := m["children"].([]any); ok {
		for _, ch := range list {
			if s, ok := ch.(string); ok {
				el.Children = append(el.Children, s)
			}
		}
	}
	switch vis := m["visible"].(type) {
	case nil:
		el.Visible = true
	case bool, map[string]any, []any:
		el.Visible = vis
	default:
		c.add(elemPath(key, "visible"), "expected boolean or condition, got "+typeOf(vis))
	}
	el.On = objectField(m, key, "on", c)
	if el.On == nil {
		el.On = map[string]any{}
	}
	el.Repeat = objectField(m, key, "repeat", c)
	el.Watch = objectField(m, key, "watch", c)

	if comp := byName[el.Type]; comp != nil {
		validateProps(comp, key, props, c)
	}
	return el
}

// objectField returns m[field] if it is an object, nil if it is missing,
// and adds an issue otherwise.
func objectField(m map[string]any, key, field string, c *collector) map[string]any {
	switch v := m[field].(type) {
	case nil:
		return nil
	case map[string]any:
		return v
	default:
		c.add(elemPath(key, field), "expected object, got "+typeOf(v))
		return nil
	}
}

// stripNulls removes null members from objects, at any depth. Nulls in
// arrays stay: removing them would move the entries after them.
func stripNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = stripNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = stripNulls(e)
		}
	}
	return v
}

// dynamic reports whether v is an expression or directive: an object with
// at least one known "$" key. Its value is the renderer's to work out, so
// it is neither coerced nor type-checked.
func dynamic(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if isDynamic[k] {
			return true
		}
	}
	return false
}

// checkDirectives reports every object under v whose keys all start with
// "$" and none is known: a misspelt directive the renderer would show as
// an object. It reports them in key order.
func checkDirectives(v any, path []string, c *collector) {
	if !hasUnknownDirective(v) {
		return // the common case, without sorting keys
	}
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			checkDirectives(e, append(path, strconv.Itoa(i)), c)
		}
	case map[string]any:
		keys := sortedKeys(t)
		if unknownDirective(t) {
			s := directiveSuggestions(keys[0])
			msg := fmt.Sprintf("unknown directive %q", keys[0]) + didYouMean(s)
			if len(s) == 0 {
				msg += " (known: " + strings.Join(knownNames, ", ") + ")"
			}
			c.add(dotPath(path), msg)
			return
		}
		for _, k := range keys {
			checkDirectives(t[k], append(path, k), c)
		}
	}
}

// unknownDirective reports whether m is not empty and all its keys start
// with "$" but none is known.
func unknownDirective(m map[string]any) bool {
	if len(m) == 0 {
		return false
	}
	for k := range m {
		if !strings.HasPrefix(k, "$") || isDynamic[k] {
			return false
		}
	}
	return true
}

// hasUnknownDirective reports whether v holds an unknown directive at any
// depth.
func hasUnknownDirective(v any) bool {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if hasUnknownDirective(e) {
				return true
			}
		}
	case map[string]any:
		if unknownDirective(t) {
			return true
		}
		for _, e := range t {
			if hasUnknownDirective(e) {
				return true
			}
		}
	}
	return false
}

// coerceProps applies the prop coercions of the package doc to the props
// of an element of component typ with key key.
func coerceProps(typ, key string, props map[string]any) {
	for _, k := range stringProps {
		if v, ok := props[k]; ok {
			props[k] = toString(v)
		}
	}
	if _, ok := props["name"]; !ok && formControls[typ] {
		props["name"] = sanitizeName(key)
	}
	switch typ {
	case "Text", "Heading", "Badge":
		if _, ok := props["text"]; !ok {
			if v, ok := props["content"]; ok {
				props["text"] = v
				delete(props, "content")
			}
		}
		if typ == "Badge" {
			if _, ok := props["text"]; !ok {
				if v, ok := props["label"]; ok {
					props["text"] = v
				}
			}
			delete(props, "label")
		}
	case "Select", "Radio":
		if _, ok := props["options"]; !ok {
			if v, ok := props["items"]; ok {
				props["options"] = v
				delete(props, "items")
			}
		}
		if list, ok := props["options"].([]any); ok {
			for i, o := range list {
				list[i] = optionLabel(o)
			}
		}
	case "ToggleGroup", "DropdownMenu":
		props["items"] = labelValues(props["items"])
	case "ButtonGroup":
		props["buttons"] = labelValues(props["buttons"])
	case "Tabs":
		props["tabs"] = labelValues(props["tabs"])
	case "Button":
		if v, ok := props["variant"].(string); ok && buttonVariants[v] != "" {
			props["variant"] = buttonVariants[v]
		}
	case "Table":
		coerceTable(props)
	}
	for k, v := range props {
		if v == nil {
			delete(props, k) // a list coercion of a missing prop
		}
	}
}

// toString coerces a prop value to a string: numbers as JavaScript writes
// them, booleans as true and false, other objects and arrays as compact
// JSON. Strings and dynamic values are kept.
func toString(v any) any {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return formatNumber(t)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return ""
	}
	if dynamic(v) {
		return v
	}
	return compactJSON(v)
}

// sanitizeName turns an element key into a form field name: characters
// other than ASCII letters, digits, "-" and "_" become "_".
func sanitizeName(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// firstString returns the first of m's keys that holds a scalar or a
// dynamic value, as toString gives it.
func firstString(m map[string]any, keys ...string) (any, bool) {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string, float64, bool:
			return toString(v), true
		case map[string]any:
			if dynamic(v) {
				return v, true
			}
		}
	}
	return nil, false
}

// optionLabel turns a Select or Radio option into its label string.
func optionLabel(o any) any {
	switch t := o.(type) {
	case float64, bool:
		return toString(t)
	case map[string]any:
		if dynamic(t) {
			return t
		}
		if s, ok := firstString(t, "label", "title", "name", "text", "value"); ok {
			return s
		}
	}
	return o
}

// labelValues turns the entries of a list prop into {label, value}
// objects. Values it cannot convert are left for validation to report.
func labelValues(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	for i, e := range list {
		switch t := e.(type) {
		case string, float64, bool:
			s := toString(t)
			list[i] = map[string]any{"label": s, "value": s}
		case map[string]any:
			if dynamic(t) {
				continue
			}
			if _, ok := t["label"]; !ok {
				if s, ok := firstString(t, "title", "name", "text", "value"); ok {
					t["label"] = s
				}
			} else {
				t["label"] = toString(t["label"])
			}
			if _, ok := t["value"]; !ok {
				if s, ok := firstString(t, "id", "key", "label"); ok {
					t["value"] = s
				}
			} else {
				t["value"] = toString(t["value"])
			}
		}
	}
	return list
}

// coerceTable turns a Table's columns into strings and its rows into a
// matrix of strings. An object row is read by column: by the column's key
// (an object column's key, accessorKey, accessor, id or name, else its
// label) and then by its label.
func coerceTable(props map[string]any) {
	cols, _ := props["columns"].([]any)
	keys := make([]string, len(cols))
	labels := make([]string, len(cols))
	for i, col := range cols {
		switch t := col.(type) {
		case string:
			keys[i], labels[i] = t, t
		case float64, bool:
			s := toString(t).(string)
			keys[i], labels[i] = s, s
			cols[i] = s
		case map[string]any:
			if dynamic(t) {
				continue
			}
			if s, ok := firstString(t, "label", "title", "header", "name", "key"); ok {
				cols[i] = s
				labels[i], _ = s.(string)
			}
			k, _ := firstString(t, "key", "accessorKey", "accessor", "id", "name")
			if ks, ok := k.(string); ok {
				keys[i] = ks
			} else {
				keys[i] = labels[i]
			}
		}
	}
	rows, ok := props["rows"].([]any)
	if !ok {
		return
	}
	for i, row := range rows {
		switch t := row.(type) {
		case []any:
			for j, cell := range t {
				t[j] = cellString(cell)
			}
		case map[string]any:
			if dynamic(t) || len(cols) == 0 {
				continue
			}
			out := make([]any, len(cols))
			for j := range cols {
				cell, ok := t[keys[j]]
				if !ok {
					cell = t[labels[j]]
				}
				out[j] = cellString(cell)
			}
			rows[i] = out
		}
	}
}

// cellString turns a table cell into a string; null and missing cells
// become "".
func cellString(v any) any {
	if v == nil {
		return ""
	}
	return toString(v)
}

// findCycles reports every cycle among the elements' children, once per
// edge that closes one, at that edge.
func findCycles(keys []string, elements map[string]*Element, c *collector) {
	const (
		white = iota
		grey
		black
	)
	color := make(map[string]int, len(elements))
	var stack []string
	var visit func(key string)
	visit = func(key string) {
		color[key] = grey
		stack = append(stack, key)
		for i, child := range elements[key].Children {
			if elements[child] == nil {
				continue
			}
			switch color[child] {
			case white:
				visit(child)
			case grey:
				start := len(stack) - 1
				for stack[start] != child {
					start--
				}
				loop := append(append([]string{}, stack[start:]...), child)
				c.add(elemPath(key, "children", strconv.Itoa(i)), "cycle "+strings.Join(loop, " → "))
			}
		}
		stack = stack[:len(stack)-1]
		color[key] = black
	}
	for _, key := range keys {
		if elements[key] != nil && color[key] == white {
			visit(key)
		}
	}
}

// sortedKeys returns m's keys in order, never nil.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// dotPath writes a path the way the reference does: segments joined by ".".
func dotPath(path []string) string { return strings.Join(path, ".") }

func elemPath(key string, rest ...string) string {
	return dotPath(append([]string{"elements", key}, rest...))
}
