// Package diagram is the Excalidraw preset of hosted MCP Apps: it turns
// the elements an agent gives into the create_view call of the Excalidraw
// MCP app — normalised elements, bound text merged into its container's
// label, a 4:3 camera framing the drawing — and names the checkpoint the
// app saves edits under.
//
// Where the reference's facts are silent: an empty list (or "[]") is an
// error, not the default drawing, since it is almost always a mistake; a
// non-empty list with nothing drawable gets the default rectangle
// "PMX Canvas" (id pmx-start) so the app opens on something.
package diagram

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
)

// The Excalidraw MCP app.
const (
	DefaultServerURL = "https://mcp.excalidraw.com/mcp"
	ServerName       = "Excalidraw"
	ToolName         = "create_view"
)

// drawable are the element types Excalidraw draws.
var drawable = map[string]bool{"rectangle": true, "ellipse": true, "diamond": true, "arrow": true, "line": true,
	"text": true, "freedraw": true, "image": true, "frame": true}

// containers are the types bound text may label.
var containers = map[string]bool{"rectangle": true, "ellipse": true, "diamond": true, "arrow": true}

// NormalizeElements reads the elements field: a JSON array string or an
// array of objects. Bound text (a text element whose containerId names a
// container) becomes the container's label; pseudo elements
// (cameraUpdate, restoreCheckpoint, delete) and unknown fields pass
// through.
func NormalizeElements(v any) ([]map[string]any, error) {
	var list []any
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, fmt.Errorf("elements is empty: pass at least one Excalidraw element")
		}
		if err := json.Unmarshal([]byte(x), &list); err != nil {
			return nil, fmt.Errorf("elements must be a JSON array of Excalidraw element objects: %v", err)
		}
	case []any:
		list = x
	case []map[string]any:
		for _, m := range x {
			list = append(list, m)
		}
	default:
		return nil, fmt.Errorf("elements must be an array of Excalidraw element objects or that array as a JSON string")
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("elements is empty: pass at least one Excalidraw element")
	}
	els := make([]map[string]any, 0, len(list))
	byID := map[string]map[string]any{}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("elements[%d] must be an object", i)
		}
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		els = append(els, c)
		if id, _ := c["id"].(string); id != "" {
			byID[id] = c
		}
	}
	out := els[:0:0]
	renderable := false
	for _, e := range els {
		typ, _ := e["type"].(string)
		if typ == "text" {
			if cid, _ := e["containerId"].(string); cid != "" {
				if box := byID[cid]; box != nil && containers[str(box["type"])] {
					label := map[string]any{"text": e["text"]}
					if fs, ok := e["fontSize"]; ok {
						label["fontSize"] = fs
					}
					box["label"] = label
					continue
				}
			}
		}
		if drawable[typ] {
			renderable = true
		}
		out = append(out, e)
	}
	if !renderable {
		out = append(out, DefaultElement())
	}
	return out, nil
}

// DefaultElement is the drawing shown when the elements draw nothing.
func DefaultElement() map[string]any {
	return map[string]any{"type": "rectangle", "id": "pmx-start", "x": 0.0, "y": 0.0, "width": 320.0, "height": 160.0,
		"label": map[string]any{"text": "PMX Canvas"}}
}

// cameraSizes are Excalidraw's standard 4:3 camera sizes, smallest first.
var cameraSizes = [][2]float64{{400, 300}, {600, 450}, {800, 600}, {1200, 900}, {1600, 1200}}

// Camera is the cameraUpdate pseudo element framing the drawable elements:
// their bounding box padded by max(80, 18% of its larger side), in the
// smallest standard 4:3 size that holds it (beyond the largest, the
// padded box widened to 4:3), centred on the drawing.
func Camera(elements []map[string]any) map[string]any {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, e := range elements {
		if !drawable[str(e["type"])] {
			continue
		}
		x, y := num(e["x"]), num(e["y"])
		w, h := num(e["width"]), num(e["height"])
		if pts, ok := e["points"].([]any); ok {
			for _, p := range pts {
				if xy, ok := p.([]any); ok && len(xy) == 2 {
					px, py := x+num(xy[0]), y+num(xy[1])
					minX, minY, maxX, maxY = math.Min(minX, px), math.Min(minY, py), math.Max(maxX, px), math.Max(maxY, py)
				}
			}
		}
		minX, minY = math.Min(minX, math.Min(x, x+w)), math.Min(minY, math.Min(y, y+h))
		maxX, maxY = math.Max(maxX, math.Max(x, x+w)), math.Max(maxY, math.Max(y, y+h))
	}
	if math.IsInf(minX, 0) {
		minX, minY, maxX, maxY = 0, 0, 0, 0
	}
	w, h := maxX-minX, maxY-minY
	pad := math.Max(80, 0.18*math.Max(w, h))
	pw, ph := w+2*pad, h+2*pad
	cw, ch := 0.0, 0.0
	for _, s := range cameraSizes {
		if s[0] >= pw && s[1] >= ph {
			cw, ch = s[0], s[1]
			break
		}
	}
	if cw == 0 {
		cw, ch = math.Max(pw, ph*4/3), math.Max(ph, pw*3/4)
	}
	cx, cy := minX+w/2, minY+h/2
	return map[string]any{"type": "cameraUpdate", "x": cx - cw/2, "y": cy - ch/2, "width": cw, "height": ch}
}

// WithCamera prepends Camera(elements) unless a cameraUpdate is present.
func WithCamera(elements []map[string]any) []map[string]any {
	for _, e := range elements {
		if str(e["type"]) == "cameraUpdate" {
			return elements
		}
	}
	return append([]map[string]any{Camera(elements)}, elements...)
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// CheckpointID is the checkpoint the app saves a node's edits under:
// pmx-<seed> with the seed reduced to [A-Za-z0-9_-] (at most 64).
func CheckpointID(seed string) string {
	s := strings.Trim(unsafeID.ReplaceAllString(seed, "-"), "-")
	if len(s) > 64 {
		s = s[:64]
	}
	if s == "" {
		s = "diagram"
	}
	return "pmx-" + s
}

// RestoreElements is what a saved checkpoint turns a node's tool input
// into: restore the checkpoint, then frame it.
func RestoreElements(checkpointID string, camera map[string]any) []map[string]any {
	if camera == nil {
		camera = Camera(nil)
	}
	return []map[string]any{{"type": "restoreCheckpoint", "id": checkpointID}, camera}
}

// OpenInput is the create_view call for a diagram.
type OpenInput struct {
	ServerURL, ServerName, ToolName string
	ToolArguments                   map[string]any
}

// BuildOpen normalises elements, adds the camera and builds the call:
// toolArguments {elements: <the array as a JSON string>}.
func BuildOpen(elements any, serverURL string) (OpenInput, error) {
	els, err := NormalizeElements(elements)
	if err != nil {
		return OpenInput{}, err
	}
	if serverURL == "" {
		serverURL = DefaultServerURL
	}
	if u, err := url.Parse(serverURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return OpenInput{}, fmt.Errorf("serverURL %q must be an http or https URL", serverURL)
	}
	b, err := json.Marshal(WithCamera(els))
	if err != nil {
		return OpenInput{}, fmt.Errorf("elements: %v", err)
	}
	return OpenInput{ServerURL: serverURL, ServerName: ServerName, ToolName: ToolName,
		ToolArguments: map[string]any{"elements": string(b)}}, nil
}

func str(v any) string { s, _ := v.(string); return s }

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return 0
}
