package canvas

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// LayoutDiff is what changed between a snapshot and the current canvas
// (snapshot.diff). Nodes and edges are matched by id; edge properties and
// annotations are not compared, as in the reference.
type LayoutDiff struct {
	SnapshotName string `json:"snapshotName"`
	// AddedNodes are in the current canvas only, in its layout order.
	AddedNodes []DiffNode `json:"addedNodes"`
	// RemovedNodes are in the snapshot only, in its order.
	RemovedNodes []DiffNode `json:"removedNodes"`
	// ModifiedNodes are in both and changed, in the current layout order.
	ModifiedNodes []DiffModifiedNode `json:"modifiedNodes"`
	AddedEdges    []DiffEdge         `json:"addedEdges"`
	RemovedEdges  []DiffEdge         `json:"removedEdges"`
}

// DiffNode names a node in a diff. Title is data.title when it is a string,
// else nil (JSON null).
type DiffNode struct {
	ID    string  `json:"id"`
	Type  string  `json:"type"`
	Title *string `json:"title"`
}

// DiffModifiedNode is a node that changed, with its current type and title
// and one line per change (see DiffLayouts for their order and wording).
type DiffModifiedNode struct {
	DiffNode
	Changes []string `json:"changes"`
}

// DiffEdge names an edge in a diff.
type DiffEdge struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

// MarshalJSON writes empty lists as [], as the reference does.
func (d LayoutDiff) MarshalJSON() ([]byte, error) {
	type plain LayoutDiff
	d.AddedNodes = emptyIfNil(d.AddedNodes)
	d.RemovedNodes = emptyIfNil(d.RemovedNodes)
	d.ModifiedNodes = emptyIfNil(d.ModifiedNodes)
	d.AddedEdges = emptyIfNil(d.AddedEdges)
	d.RemovedEdges = emptyIfNil(d.RemovedEdges)
	return json.Marshal(plain(d))
}

func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Empty reports whether the diff finds no difference.
func (d LayoutDiff) Empty() bool {
	return len(d.AddedNodes)+len(d.RemovedNodes)+len(d.ModifiedNodes)+len(d.AddedEdges)+len(d.RemovedEdges) == 0
}

// DiffLayouts compares a snapshot with the current canvas. A node in both
// is modified when any of these changed; its changes are listed in this
// order, numbers printed as JavaScript prints them:
//
//	moved (x1,y1) → (x2,y2)
//	resized W1xH1 → W2xH2
//	collapsed | expanded
//	title: "<old>" → "<new>"
//	content changed (+N chars) | (-N chars)   (N in UTF-16 units, as JS counts)
//	data changed                               (any other data key)
//
// Unlike the reference, which compares JSON.stringify output, data is
// compared by value: key order and Go representation ([]string vs []any, int
// vs float64) do not count as changes.
func DiffLayouts(snapshotName string, snapshot, current *State) LayoutDiff {
	d := LayoutDiff{
		SnapshotName:  snapshotName,
		AddedNodes:    []DiffNode{},
		RemovedNodes:  []DiffNode{},
		ModifiedNodes: []DiffModifiedNode{},
		AddedEdges:    []DiffEdge{},
		RemovedEdges:  []DiffEdge{},
	}
	current.Nodes.Each(func(cur *Node) bool {
		old, ok := snapshot.Nodes.Get(cur.ID)
		if !ok {
			d.AddedNodes = append(d.AddedNodes, diffNode(cur))
			return true
		}
		if changes := nodeChanges(old, cur); len(changes) > 0 {
			d.ModifiedNodes = append(d.ModifiedNodes, DiffModifiedNode{DiffNode: diffNode(cur), Changes: changes})
		}
		return true
	})
	snapshot.Nodes.Each(func(old *Node) bool {
		if _, ok := current.Nodes.Get(old.ID); !ok {
			d.RemovedNodes = append(d.RemovedNodes, diffNode(old))
		}
		return true
	})
	current.Edges.Each(func(e *Edge) bool {
		if _, ok := snapshot.Edges.Get(e.ID); !ok {
			d.AddedEdges = append(d.AddedEdges, diffEdge(e))
		}
		return true
	})
	snapshot.Edges.Each(func(e *Edge) bool {
		if _, ok := current.Edges.Get(e.ID); !ok {
			d.RemovedEdges = append(d.RemovedEdges, diffEdge(e))
		}
		return true
	})
	return d
}

func diffNode(n *Node) DiffNode {
	d := DiffNode{ID: n.ID, Type: n.Type}
	if t, ok := n.Data["title"].(string); ok {
		d.Title = &t
	}
	return d
}

func diffEdge(e *Edge) DiffEdge {
	return DiffEdge{ID: e.ID, From: e.From, To: e.To, Type: e.Type}
}

// nodeChanges lists how cur differs from old, in DiffLayouts' order.
func nodeChanges(old, cur *Node) []string {
	if old == cur {
		return nil // states share unchanged nodes
	}
	var changes []string
	if old.Position != cur.Position {
		changes = append(changes, "moved ("+jsNumber(old.Position.X)+","+jsNumber(old.Position.Y)+") → ("+
			jsNumber(cur.Position.X)+","+jsNumber(cur.Position.Y)+")")
	}
	if old.Size != cur.Size {
		changes = append(changes, "resized "+jsNumber(old.Size.Width)+"x"+jsNumber(old.Size.Height)+" → "+
			jsNumber(cur.Size.Width)+"x"+jsNumber(cur.Size.Height))
	}
	if old.Collapsed != cur.Collapsed {
		if cur.Collapsed {
			changes = append(changes, "collapsed")
		} else {
			changes = append(changes, "expanded")
		}
	}
	if a, b := diffText(old.Data["title"]), diffText(cur.Data["title"]); a != b {
		changes = append(changes, `title: "`+a+`" → "`+b+`"`)
	}
	if a, b := diffText(old.Data["content"]), diffText(cur.Data["content"]); a != b {
		delta := utf16Len(b) - utf16Len(a)
		sign := ""
		if delta >= 0 {
			sign = "+"
		}
		changes = append(changes, "content changed ("+sign+strconv.Itoa(delta)+" chars)")
	}
	if !sameDataExcept(old.Data, cur.Data, "title", "content") {
		changes = append(changes, "data changed")
	}
	return changes
}

// diffText is a title or content as the diff shows it: the string, "" when
// absent, or the JSON of a value of another type.
func diffText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// utf16Len is the length JavaScript gives s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// jsNumber formats v as JavaScript's Number.prototype.toString does:
// shortest round-trip digits, no ".0" on integers, exponent form below 1e-6
// and from 1e21.
func jsNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		return "0" // also -0
	}
	if a := math.Abs(v); a < 1e-6 || a >= 1e21 {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
		return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// sameDataExcept reports whether a and b hold the same JSON value under
// every key but the skipped ones.
func sameDataExcept(a, b map[string]any, skip ...string) bool {
	n := 0
	for k, va := range a {
		if contains(skip, k) {
			continue
		}
		vb, ok := b[k]
		if !ok || !sameJSONValue(va, vb) {
			return false
		}
		n++
	}
	for k := range b {
		if !contains(skip, k) {
			n--
		}
	}
	return n == 0
}

// sameJSONValue reports whether a and b encode to the same JSON value,
// ignoring object key order and how Go holds it (a []string equals the []any
// of the same strings, an int the float64 of the same number).
func sameJSONValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return isJSONNull(b)
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			if (x == nil) != (y == nil) || len(x) != len(y) {
				return false
			}
			for k, vx := range x {
				vy, found := y[k]
				if !found || !sameJSONValue(vx, vy) {
					return false
				}
			}
			return true
		}
	case []any:
		if y, ok := b.([]any); ok {
			if (x == nil) != (y == nil) || len(x) != len(y) {
				return false
			}
			for i := range x {
				if !sameJSONValue(x[i], y[i]) {
					return false
				}
			}
			return true
		}
	}
	if fa, ok := jsonnum.Float(a); ok {
		fb, isNum := jsonnum.Float(b)
		return isNum && fa == fb
	}
	// Other Go types: compare what they encode to.
	na, errA := normalizeJSON(a)
	nb, errB := normalizeJSON(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	if reflect.DeepEqual(na, a) && reflect.DeepEqual(nb, b) {
		return false // already plain JSON values of different kinds
	}
	return sameJSONValue(na, nb)
}

func isJSONNull(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// normalizeJSON round-trips v through JSON into plain values.
func normalizeJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// FormatDiff renders d as the reference's text: a header, a blank line,
// then either a no-difference line or one section per non-empty list, each
// followed by a blank line, and a summary. A node is named by its title,
// or by its id when it has none (the reference prints an empty title as is).
func FormatDiff(d LayoutDiff) string {
	var b strings.Builder
	b.WriteString(`Diff: current canvas vs snapshot "` + d.SnapshotName + "\"\n\n")
	if d.Empty() {
		b.WriteString("No differences — canvas matches the snapshot exactly.")
		return b.String()
	}
	nodeName := func(n DiffNode) string {
		if n.Title != nil && *n.Title != "" {
			return *n.Title
		}
		return n.ID
	}
	section := func(title string, count int, lines func()) {
		if count == 0 {
			return
		}
		b.WriteString(title + " (" + strconv.Itoa(count) + "):\n")
		lines()
		b.WriteString("\n")
	}
	section("Added nodes", len(d.AddedNodes), func() {
		for _, n := range d.AddedNodes {
			b.WriteString("  + [" + n.Type + "] " + nodeName(n) + "\n")
		}
	})
	section("Removed nodes", len(d.RemovedNodes), func() {
		for _, n := range d.RemovedNodes {
			b.WriteString("  - [" + n.Type + "] " + nodeName(n) + "\n")
		}
	})
	section("Modified nodes", len(d.ModifiedNodes), func() {
		for _, n := range d.ModifiedNodes {
			b.WriteString("  ~ [" + n.Type + "] " + nodeName(n.DiffNode) + "\n")
			for _, c := range n.Changes {
				b.WriteString("      " + c + "\n")
			}
		}
	})
	section("Added edges", len(d.AddedEdges), func() {
		for _, e := range d.AddedEdges {
			b.WriteString("  + " + e.Type + ": " + e.From + " → " + e.To + "\n")
		}
	})
	section("Removed edges", len(d.RemovedEdges), func() {
		for _, e := range d.RemovedEdges {
			b.WriteString("  - " + e.Type + ": " + e.From + " → " + e.To + "\n")
		}
	})
	b.WriteString("Summary: +" + strconv.Itoa(len(d.AddedNodes)) + " -" + strconv.Itoa(len(d.RemovedNodes)) +
		" ~" + strconv.Itoa(len(d.ModifiedNodes)) + " nodes, +" + strconv.Itoa(len(d.AddedEdges)) +
		" -" + strconv.Itoa(len(d.RemovedEdges)) + " edges")
	return b.String()
}
