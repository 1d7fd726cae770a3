package ax

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// Shared normalisation helpers (ax.md §1). They never modify their
// arguments.

// idRandLen is the length of the random tail of AX ids (ax.md §1.2).
const idRandLen = 6

// Id prefixes (ax.md §1.2).
const (
	prefixWork        = "work"
	prefixApproval    = "appr"
	prefixReview      = "rev"
	prefixElicitation = "elic"
	prefixMode        = "mode"
	prefixEvent       = "evt"
	prefixEvidence    = "evd"
	prefixSteering    = "steer"
)

// Gate statuses.
const (
	statusPending  = "pending"
	statusAnswered = "answered"
)

// sourcePtr is the stored form of a source label: the label when it is one
// of Sources, else nil (unknown labels are stored as null).
func sourcePtr(source string) *string {
	if !slices.Contains(Sources, source) {
		return nil
	}
	return &source
}

// optionalString keeps a non-empty string; "" and nil give nil.
func optionalString(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	v := *s
	return &v
}

// optionalAny keeps v when it is a non-empty string.
func optionalAny(v any) *string {
	s, ok := v.(string)
	if !ok || s == "" {
		return nil
	}
	return &s
}

// blank reports whether s is nil or only whitespace.
func blank(s *string) bool { return s == nil || strings.TrimSpace(*s) == "" }

// strPtr returns a pointer to a copy of s.
func strPtr(s string) *string { return &s }

// enumOr returns *s when it is one of values, else fallback.
func enumOr(s *string, values []string, fallback string) string {
	if s != nil && slices.Contains(values, *s) {
		return *s
	}
	return fallback
}

// liveNode reports whether id is a node of nodes (nil is an empty canvas).
func liveNode(nodes *canvas.State, id string) bool {
	if nodes == nil || id == "" {
		return false
	}
	_, ok := nodes.Nodes.Get(id)
	return ok
}

// timelineNodeIDs keeps the string entries of ids, de-duplicated in first
// occurrence order (ax.md §1.4 steps 1, 2, 4): timeline records keep
// dangling ids as recorded.
func timelineNodeIDs(ids []any) []string {
	out := make([]string, 0, len(ids))
	for _, v := range ids {
		s, ok := v.(string)
		if ok && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// boundNodeIDs is timelineNodeIDs plus dropping ids that are not live nodes
// (ax.md §1.4 all steps), for canvas-bound records.
func boundNodeIDs(ids []any, nodes *canvas.State) []string {
	out := make([]string, 0, len(ids))
	for _, v := range ids {
		s, ok := v.(string)
		if ok && liveNode(nodes, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// stringsOnly keeps the string entries of a decoded JSON array (or a
// []string), in order, without de-duplication.
func stringsOnly(v any) ([]string, bool) {
	switch list := v.(type) {
	case []string:
		return slices.Clone(list), true
	case []any:
		out := make([]string, 0, len(list))
		for _, e := range list {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	return nil, false
}

// cloneMap returns a shallow copy of m (nil stays nil).
func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// orEmpty returns s, or an empty (non-nil) slice so JSON renders [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// without returns ids without id (a new slice) and whether id was present.
func without(ids []string, id string) ([]string, bool) {
	i := slices.Index(ids, id)
	if i < 0 {
		return ids, false
	}
	out := make([]string, 0, len(ids)-1)
	for _, s := range ids {
		if s != id {
			out = append(out, s)
		}
	}
	return out, true
}

// insertAt returns ids with id inserted at position i (clamped to the end);
// ids already holding id are returned unchanged.
func insertAt(ids []string, i int, id string) []string {
	if slices.Contains(ids, id) {
		return ids
	}
	if i < 0 || i > len(ids) {
		i = len(ids)
	}
	out := make([]string, 0, len(ids)+1)
	out = append(out, ids[:i]...)
	out = append(out, id)
	return append(out, ids[i:]...)
}

// number converts a decoded JSON value the way JavaScript's Number() does
// for the values a JSON client can send: numbers, numeric strings
// (trimmed; "" is 0), booleans and null. ok is false for anything that
// would be NaN.
func number(v any) (float64, bool) {
	if f, ok := jsonnum.Float(v); ok {
		return f, !math.IsNaN(f)
	}
	switch n := v.(type) {
	case nil:
		return 0, true
	case bool:
		if n {
			return 1, true
		}
		return 0, true
	case string:
		s := strings.TrimSpace(n)
		if s == "" {
			return 0, true
		}
		switch s {
		case "Infinity", "+Infinity":
			return math.Inf(1), true
		case "-Infinity":
			return math.Inf(-1), true
		}
		lower := strings.ToLower(s)
		if strings.Contains(lower, "inf") || strings.Contains(lower, "nan") || strings.Contains(s, "_") {
			return 0, false // Go spellings JavaScript does not accept
		}
		if strings.HasPrefix(lower, "0x") || strings.HasPrefix(lower, "0o") || strings.HasPrefix(lower, "0b") {
			u, err := strconv.ParseUint(s[2:], map[byte]int{'x': 16, 'o': 8, 'b': 2}[lower[1]], 64)
			return float64(u), err == nil
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return 0, false
}
