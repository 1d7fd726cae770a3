// Package jsonnum reads a number out of a decoded JSON value: the one
// definition of "is this a number" that the spec, diagram and domain
// readers share. Standard library only, so every layer may use it.
package jsonnum

import "encoding/json"

// Float reports v as a float64 when it is a Go number (what decoding into
// any gives, or what a Go caller passes) or a json.Number; a numeric
// string is not a number.
func Float(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
