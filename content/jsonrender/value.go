package jsonrender

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds helpers over decoded JSON values: nil, bool, float64,
// string, []any and map[string]any, the types encoding/json decodes into
// an any. Everything else in the package works on those types only.

// forbidden are the keys refused anywhere in a spec or a patch path: a
// JavaScript renderer that copied them onto an object would change its
// prototype.
var forbidden = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

// canon returns a deep copy of v made only of decoded JSON types. JSON text
// ([]byte, json.RawMessage) is decoded; Go values of other types go through
// encoding/json, so a *Spec, a struct or a []string is accepted too.
func canon(v any) (any, error) {
	switch t := v.(type) {
	case json.RawMessage:
		return decodeJSON(t)
	case []byte:
		return decodeJSON(t)
	}
	return canonValue(v)
}

func decodeJSON(b []byte) (any, error) {
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("jsonrender: spec is not valid JSON: %w", err)
	}
	return out, nil
}

func canonValue(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, string:
		return t, nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("jsonrender: %v is not a JSON number", t)
		}
		return t, nil
	case int:
		return float64(t), nil
	case int64:
		return float64(t), nil
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return nil, fmt.Errorf("jsonrender: %q is not a JSON number", t)
		}
		return f, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			c, err := canonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			c, err := canonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("jsonrender: %T is not JSON: %w", v, err)
	}
	return decodeJSON(b)
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}

// findForbidden calls visit with the path of every forbidden key in v,
// the key last, in key order, until visit returns false.
func findForbidden(v any, path []string, visit func(path []string) bool) bool {
	if !hasForbidden(v) {
		return true // the common case, without sorting keys
	}
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			if !findForbidden(e, append(path, strconv.Itoa(i)), visit) {
				return false
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(t) {
			p := append(path, k)
			if forbidden[k] {
				if !visit(p) {
					return false
				}
				continue
			}
			if !findForbidden(t[k], p, visit) {
				return false
			}
		}
	}
	return true
}

// hasForbidden reports whether v has a forbidden key at any depth.
func hasForbidden(v any) bool {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if hasForbidden(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range t {
			if forbidden[k] || hasForbidden(e) {
				return true
			}
		}
	}
	return false
}

// jsonEqual reports whether two decoded JSON values are equal.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// encodedLen is len(json.Marshal(v)) for a decoded JSON value, counted
// without encoding: the stream keeps its spec's size up to date with it.
func encodedLen(v any) int {
	switch t := v.(type) {
	case nil:
		return 4
	case bool:
		if t {
			return 4
		}
		return 5
	case float64:
		var buf [32]byte
		return len(appendNumber(buf[:0], t))
	case string:
		return stringLen(t)
	case []any:
		n := 2
		if len(t) > 1 {
			n += len(t) - 1
		}
		for _, e := range t {
			n += encodedLen(e)
		}
		return n
	case map[string]any:
		n := 2
		if len(t) > 1 {
			n += len(t) - 1
		}
		for k, e := range t {
			n += memberLen(k, e)
		}
		return n
	}
	return 0
}

// memberLen is the encoded length of `"k":v` in an object.
func memberLen(k string, v any) int { return stringLen(k) + 1 + encodedLen(v) }

// stringLen is the length of s as encoding/json writes it: quoted, with
// <, > and & escaped as \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 escaped.
func stringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// appendNumber appends f as encoding/json writes a float64: like
// JavaScript, with an exponent only below 1e-6 and from 1e21 on.
func appendNumber(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// "1e-07" → "1e-7", as JavaScript writes it.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// formatNumber is JavaScript's String(f) for a finite number.
func formatNumber(f float64) string {
	if f == 0 {
		return "0" // String(-0) is "0" too
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// compactJSON encodes a decoded JSON value without HTML escaping, for
// values turned into display strings.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// typeOf names a decoded JSON value's type for messages.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
