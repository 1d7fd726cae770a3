package primitives

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// DataError reports a field of a primitive's data whose JSON type does not
// fit the kind's data shape.
type DataError struct {
	Kind string // the primitive kind, e.g. "choice-grid"
	Path string // where in the data, e.g. "data.items[2].pros"
	Want string // what it must be, e.g. "an array of strings"
}

func (e *DataError) Error() string {
	return e.Kind + ": " + e.Path + " must be " + e.Want
}

// decoder reads a kind's data loosely: missing fields and null read as
// empty, numbers and booleans are accepted where text is expected, and the
// first field of a type that cannot be read is remembered as the error.
type decoder struct {
	kind string
	err  *DataError
}

func (d *decoder) fail(path, want string) {
	if d.err == nil {
		d.err = &DataError{Kind: d.kind, Path: path, Want: want}
	}
}

// object is one JSON object of the data and its path from the root.
type object struct {
	d    *decoder
	path string
	m    map[string]any
}

func (o object) at(key string) string { return o.path + "." + key }

// scalarText writes out a JSON scalar; ok is false for arrays and objects.
func scalarText(v any) (s string, ok bool) {
	switch v := v.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case float64:
		return formatNumber(v), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

func formatNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return ""
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// text reads a string field, trimmed.
func (o object) text(key string) string {
	s, ok := scalarText(o.m[key])
	if !ok {
		o.d.fail(o.at(key), "a string")
	}
	return strings.TrimSpace(s)
}

// rawText reads a string field without trimming, for code and logs whose
// indentation matters; only trailing blank lines are dropped.
func (o object) rawText(key string) string {
	s, ok := scalarText(o.m[key])
	if !ok {
		o.d.fail(o.at(key), "a string")
	}
	return strings.TrimRight(s, " \t\r\n")
}

// texts reads an array of strings; blank entries are dropped.
func (o object) texts(key string) []string {
	v := o.m[key]
	if v == nil {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		o.d.fail(o.at(key), "an array of strings")
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := scalarText(e)
		if !ok {
			o.d.fail(o.at(key), "an array of strings")
			return nil
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// list reads an array of objects.
func (o object) list(key string) []object {
	v := o.m[key]
	if v == nil {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		o.d.fail(o.at(key), "an array of objects")
		return nil
	}
	out := make([]object, 0, len(arr))
	for i, e := range arr {
		path := o.at(key) + "[" + strconv.Itoa(i) + "]"
		m, ok := e.(map[string]any)
		if !ok {
			o.d.fail(path, "an object")
			continue
		}
		out = append(out, object{d: o.d, path: path, m: m})
	}
	return out
}

// number reads a number, or a string holding one; ok is false when the
// field is missing or null.
func (o object) number(key string) (f float64, ok bool) {
	switch v := o.m[key].(type) {
	case nil:
		return 0, false
	case float64:
		return v, true
	case string:
		if strings.TrimSpace(v) == "" {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, true
		}
	}
	o.d.fail(o.at(key), "a number")
	return 0, false
}

// flag reads a boolean, or the strings "true" and "false".
func (o object) flag(key string) bool {
	switch v := o.m[key].(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off", "":
			return false
		}
	}
	o.d.fail(o.at(key), "a boolean")
	return false
}

// pair is one entry of a string-valued JSON object.
type pair struct {
	Key, Value string
}

// textMap reads an object whose values are strings, sorted by key.
func (o object) textMap(key string) []pair {
	v := o.m[key]
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		o.d.fail(o.at(key), "an object of strings")
		return nil
	}
	out := make([]pair, 0, len(m))
	for k, e := range m {
		s, ok := scalarText(e)
		if !ok {
			o.d.fail(o.at(key), "an object of strings")
			return nil
		}
		out = append(out, pair{k, s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
