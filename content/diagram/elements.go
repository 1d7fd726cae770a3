package diagram

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// The hosted Excalidraw MCP App the preset opens.
const (
	// DefaultServerURL is the Streamable HTTP endpoint of the hosted
	// Excalidraw MCP server.
	DefaultServerURL = "https://mcp.excalidraw.com/mcp"
	// ServerName is the serverName recorded on the canvas node.
	ServerName = "Excalidraw"
	// ToolName is the tool whose UI resource is the Excalidraw app.
	ToolName = "create_view"
)

// DefaultElementID is the id of the rectangle used when the elements have
// nothing renderable.
const DefaultElementID = "pmx-start"

// InputError is a problem with the caller's input (an HTTP caller answers
// 400). Field is the input it is about: "elements", "elements[3]" or
// "serverURL"; the message starts with it.
type InputError struct {
	Field string
	Msg   string
}

func (e *InputError) Error() string { return e.Msg }

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Msg: field + " " + fmt.Sprintf(format, args...)}
}

const elementsShape = "an array of Excalidraw element objects or that array as a JSON string"

// drawable are the element types Excalidraw draws.
var drawable = map[string]bool{
	"rectangle": true, "ellipse": true, "diamond": true, "arrow": true, "line": true,
	"text": true, "freedraw": true, "image": true, "frame": true,
}

// containers are the types a text element can be bound to.
var containers = map[string]bool{"rectangle": true, "ellipse": true, "diamond": true, "arrow": true}

// DefaultElement returns a fresh copy of the rectangle used when the
// elements have nothing renderable.
func DefaultElement() map[string]any {
	return map[string]any{
		"type":            "rectangle",
		"id":              DefaultElementID,
		"x":               100.0,
		"y":               100.0,
		"width":           240.0,
		"height":          120.0,
		"strokeColor":     "#1e1e1e",
		"backgroundColor": "#a5d8ff",
		"fillStyle":       "solid",
		"roundness":       map[string]any{"type": 3.0},
		"label":           map[string]any{"text": "PMX Canvas", "fontSize": 20.0},
	}
}

// NormalizeElements validates and normalises the elements field (see the
// package doc for the rules). v is what JSON decoding gave: a string
// holding a JSON array, or a []any of objects; a []map[string]any from a
// Go caller is accepted too. The result is never empty.
func NormalizeElements(v any) ([]map[string]any, error) {
	var items []any
	switch t := v.(type) {
	case nil:
		return nil, inputErr("elements", "is required: %s", elementsShape)
	case string:
		s := strings.TrimSpace(t)
		if s == "" {
			return nil, inputErr("elements", "must not be empty: %s", elementsShape)
		}
		var decoded any
		if err := json.Unmarshal([]byte(s), &decoded); err != nil {
			return nil, inputErr("elements", "is not valid JSON: %v", err)
		}
		arr, ok := decoded.([]any)
		if !ok {
			return nil, inputErr("elements", "must be a JSON array of element objects (got %s)", kind(decoded))
		}
		items = arr
	case []any:
		items = t
	case []map[string]any:
		items = make([]any, len(t))
		for i, m := range t {
			if m == nil {
				items[i] = nil
			} else {
				items[i] = m
			}
		}
	default:
		return nil, inputErr("elements", "must be %s (got %s)", elementsShape, kind(v))
	}
	if len(items) == 0 {
		return nil, inputErr("elements", "must not be empty: %s", elementsShape)
	}

	out := make([]map[string]any, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok || m == nil {
			return nil, inputErr(fmt.Sprintf("elements[%d]", i), "must be an object (got %s)", kind(it))
		}
		c := make(map[string]any, len(m))
		for k, val := range m {
			c[k] = val
		}
		if s, ok := c["label"].(string); ok {
			c["label"] = map[string]any{"text": s}
		}
		out = append(out, c)
	}

	out = mergeBoundText(out)

	if !hasRenderable(out) {
		out = append(out, DefaultElement())
	}
	return out, nil
}

// mergeBoundText turns text elements bound to a container in els into that
// container's label and drops them.
func mergeBoundText(els []map[string]any) []map[string]any {
	byID := map[string]map[string]any{}
	for _, e := range els {
		id, _ := e["id"].(string)
		if id == "" || !containers[typeOf(e)] {
			continue
		}
		if _, dup := byID[id]; !dup {
			byID[id] = e
		}
	}
	labelled := map[string]bool{} // containers that got (or had) a label
	for id, c := range byID {
		if labelText(c) != "" {
			labelled[id] = true
		}
	}
	out := els[:0:0]
	for _, e := range els {
		cid, hasCID := e["containerId"].(string)
		if typeOf(e) != "text" || !hasCID && e["containerId"] == nil {
			out = append(out, e)
			continue
		}
		c := byID[cid]
		if c == nil {
			// Bound to nothing in this array: keep it as free text.
			delete(e, "containerId")
			out = append(out, e)
			continue
		}
		if !labelled[cid] {
			label := map[string]any{"text": boundText(e)}
			if fs, ok := jsonnum.Float(e["fontSize"]); ok && fs > 0 {
				label["fontSize"] = e["fontSize"]
			}
			if old, ok := c["label"].(map[string]any); ok {
				for k, v := range old {
					if _, set := label[k]; !set {
						label[k] = v
					}
				}
			}
			c["label"] = label
			labelled[cid] = true
		}
		if tid, _ := e["id"].(string); tid != "" {
			unbind(c, tid)
		}
	}
	return out
}

// boundText is the text of a bound text element: originalText (unwrapped)
// when it has one, else text.
func boundText(e map[string]any) string {
	if s, ok := e["originalText"].(string); ok && s != "" {
		return s
	}
	s, _ := e["text"].(string)
	return s
}

// unbind removes the boundElements entry for text id from container c.
func unbind(c map[string]any, id string) {
	list, ok := c["boundElements"].([]any)
	if !ok {
		return
	}
	kept := make([]any, 0, len(list))
	for _, b := range list {
		if m, ok := b.(map[string]any); ok && m["id"] == id {
			continue
		}
		kept = append(kept, b)
	}
	if len(kept) == 0 {
		delete(c, "boundElements")
	} else {
		c["boundElements"] = kept
	}
}

func labelText(e map[string]any) string {
	switch l := e["label"].(type) {
	case string:
		return l
	case map[string]any:
		s, _ := l["text"].(string)
		return s
	}
	return ""
}

// hasRenderable reports whether els draws anything.
func hasRenderable(els []map[string]any) bool {
	for _, e := range els {
		t := typeOf(e)
		if t == "restoreCheckpoint" || drawable[t] && !deleted(e) {
			return true
		}
	}
	return false
}

func typeOf(e map[string]any) string {
	s, _ := e["type"].(string)
	return s
}

func deleted(e map[string]any) bool {
	b, _ := e["isDeleted"].(bool)
	return b
}

// kind names v's JSON kind for error messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, float32, int, int64, int32, uint, uint64, uint32, json.Number:
		return "number"
	case []any, []map[string]any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
