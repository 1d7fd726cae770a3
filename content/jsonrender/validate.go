package jsonrender

import (
	"fmt"
	"strconv"
	"strings"
)

const (
	// maxIssues is how many issues a SpecError keeps; it counts the rest.
	maxIssues = 100
	// shownIssues is how many issues SpecError.Error lists, as the
	// reference does.
	shownIssues = 5
)

// Issue is one problem with a spec: where, as a dotted path such as
// "elements.card.props.title", and what.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// SpecError is a spec that failed validation. Issues are in a fixed
// order: the document's own fields, then each element by key (its type,
// props, children and bindings), then missing children, then cycles.
type SpecError struct {
	Issues  []Issue // the first maxIssues issues
	Omitted int     // issues found beyond those
}

// Error lists the first five issues in the reference's format:
// "Invalid json-render spec: <path>: <msg>; <path>: <msg>; +N more issue(s)".
func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString("Invalid json-render spec: ")
	n := min(len(e.Issues), shownIssues)
	for i, is := range e.Issues[:n] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.Path)
		b.WriteString(": ")
		b.WriteString(is.Message)
	}
	if more := len(e.Issues) + e.Omitted - n; more > 0 {
		fmt.Fprintf(&b, "; +%d more issue(s)", more)
	}
	return b.String()
}

// collector gathers issues for a SpecError.
type collector struct {
	issues  []Issue
	omitted int
}

func (c *collector) add(path, msg string) {
	if len(c.issues) < maxIssues {
		c.issues = append(c.issues, Issue{path, msg})
		return
	}
	c.omitted++
}

func (c *collector) full() bool { return len(c.issues) >= maxIssues }
func (c *collector) total() int { return len(c.issues) + c.omitted }
func (c *collector) err() error { return &SpecError{Issues: c.issues, Omitted: c.omitted} }

// validateProps checks an element's props against its component. Missing
// optional props are fine, dynamic values are not checked, and props the
// component does not name pass through unchecked, as in the reference.
func validateProps(comp *Component, key string, props map[string]any, c *collector) {
	elements := loc{name: "elements", index: -1}
	el := loc{up: &elements, name: key, index: -1}
	ps := loc{up: &el, name: "props", index: -1}
	for _, p := range comp.Props {
		at := loc{up: &ps, name: p.Name, index: -1}
		v, ok := props[p.Name]
		if !ok {
			if p.Required {
				c.add(at.String(), "required "+expected(p))
			}
			continue
		}
		checkValue(p, v, &at, c)
	}
}

// loc is a dotted path built only when an issue needs it: the name (or,
// when index is not -1, the array index) under up.
type loc struct {
	up    *loc
	name  string
	index int
}

func (l *loc) String() string {
	var seg string
	if l.index >= 0 {
		seg = strconv.Itoa(l.index)
	} else {
		seg = l.name
	}
	if l.up == nil {
		return seg
	}
	return l.up.String() + "." + seg
}

// expected names what a prop holds, for messages.
func expected(p Prop) string {
	switch p.kind {
	case kEnum:
		return "one of " + quoteList(p.Enum)
	case kHighlight:
		return `"max", "min" or a number`
	case kStrings:
		return "array of strings"
	case kStringMatrix:
		return "array of arrays of strings"
	case kRecords:
		return "array of objects"
	case kLabelValues:
		return "array of {label, value}"
	case kTitleContent:
		return "array of {title, content}"
	case kCarousel:
		return "array of {title?, description?}"
	case kChecks:
		return "array of {type, message, args?}"
	}
	return p.Type
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// got describes a wrong value: its type, and a short string's text.
func got(v any) string {
	if s, ok := v.(string); ok && len(s) <= 40 {
		return "got " + strconv.Quote(s)
	}
	return "got " + typeOf(v)
}

// checkValue checks one prop value.
func checkValue(p Prop, v any, at *loc, c *collector) {
	if dynamic(v) {
		return
	}
	bad := func() { c.add(at.String(), "expected "+expected(p)+", "+got(v)) }
	switch p.kind {
	case kString:
		if _, ok := v.(string); !ok {
			bad()
		}
	case kNumber:
		if _, ok := v.(float64); !ok {
			bad()
		}
	case kBool:
		if _, ok := v.(bool); !ok {
			bad()
		}
	case kEnum:
		s, ok := v.(string)
		if !ok || !contains(p.Enum, s) {
			bad()
		}
	case kHighlight:
		switch t := v.(type) {
		case float64:
		case string:
			if t != "max" && t != "min" {
				bad()
			}
		default:
			bad()
		}
	default:
		list, ok := v.([]any)
		if !ok {
			bad()
			return
		}
		for i, e := range list {
			checkItem(p.kind, e, &loc{up: at, index: i}, c)
		}
	}
}

// checkItem checks one entry of an array prop of kind k.
func checkItem(k kind, v any, at *loc, c *collector) {
	if dynamic(v) {
		return
	}
	switch k {
	case kStrings:
		if _, ok := v.(string); !ok {
			c.add(at.String(), "expected string, "+got(v))
		}
	case kStringMatrix:
		row, ok := v.([]any)
		if !ok {
			c.add(at.String(), "expected array of strings, "+got(v))
			return
		}
		for j, cell := range row {
			if _, ok := cell.(string); !ok && !dynamic(cell) {
				c.add((&loc{up: at, index: j}).String(), "expected string, "+got(cell))
			}
		}
	case kRecords:
		if _, ok := v.(map[string]any); !ok {
			c.add(at.String(), "expected object, "+got(v))
		}
	case kLabelValues:
		checkFields(v, at, c, "{label, value}", field{"label", true}, field{"value", true})
	case kTitleContent:
		checkFields(v, at, c, "{title, content}", field{"title", true}, field{"content", true})
	case kCarousel:
		checkFields(v, at, c, "{title?, description?}", field{"title", false}, field{"description", false})
	case kChecks:
		m := checkFields(v, at, c, "{type, message, args?}", field{"type", true}, field{"message", true})
		if args, ok := m["args"]; ok {
			if _, ok := args.(map[string]any); !ok {
				c.add(at.String()+".args", "expected object, "+got(args))
			}
		}
	}
}

// field is a string field of an object entry.
type field struct {
	name     string
	required bool
}

// checkFields checks that v is an object whose fields are strings, and
// returns it (nil if it is not an object).
func checkFields(v any, at *loc, c *collector, shape string, fields ...field) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(at.String(), "expected "+shape+", "+got(v))
		return nil
	}
	for _, f := range fields {
		fv, ok := m[f.name]
		switch {
		case !ok:
			if f.required {
				c.add(at.String()+"."+f.name, "required string")
			}
		case dynamic(fv):
		default:
			if _, ok := fv.(string); !ok {
				c.add(at.String()+"."+f.name, "expected string, "+got(fv))
			}
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
