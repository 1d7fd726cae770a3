package canvas

import (
	"strconv"
	"strings"
)

// ResolveRefs replaces batch references in v: a string "$name" becomes the id
// of the result assigned to name (or the whole result when it has no string
// id), and "$name.a.b" walks into that result. Only strings naming an
// assigned result are references; anything else, such as "$100" in markdown
// text, stays as written (the reference turned every "$..." into undefined).
func ResolveRefs(v any, refs map[string]any) any {
	switch t := v.(type) {
	case string:
		if !strings.HasPrefix(t, "$") {
			return t
		}
		name, path, _ := strings.Cut(t[1:], ".")
		ref, ok := refs[name]
		if !ok {
			return t
		}
		if path == "" {
			if m, isMap := ref.(map[string]any); isMap {
				if id, hasID := m["id"].(string); hasID {
					return id
				}
			}
			return ref
		}
		return walk(ref, strings.Split(path, "."))
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = ResolveRefs(e, refs)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = ResolveRefs(e, refs)
		}
		return out
	}
	return v
}

// walk follows a dotted path through maps and arrays; nil when missing.
func walk(v any, path []string) any {
	for _, p := range path {
		switch t := v.(type) {
		case map[string]any:
			v = t[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
