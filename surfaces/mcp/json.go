package mcpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Obj is a JSON object that keeps its key order (schemas, and results
// whose key order is part of the reference's output); KV is one key. Both
// are the shared internal/jsonobj types.
type (
	Obj = jsonobj.Object
	KV  = jsonobj.KV
)

// Compact renders v as one-line JSON (the reference's JSON.stringify(x)).
func Compact(v any) (string, error) {
	if raw, ok := v.(json.RawMessage); ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	b, err := jsonobj.Marshal(v)
	return string(b), err
}

// Pretty renders v as 2-space indented JSON (JSON.stringify(x, null, 2)).
func Pretty(v any) (string, error) {
	var raw []byte
	if r, ok := v.(json.RawMessage); ok {
		raw = r
	} else {
		b, err := jsonobj.Marshal(v)
		if err != nil {
			return "", err
		}
		raw = b
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// PrettyBody is the default Format: the reply body, pretty.
func PrettyBody(r *Reply) (string, error) { return Pretty(r.Body) }

// CompactBody formats the reply body as one-line JSON.
func CompactBody(r *Reply) (string, error) { return Compact(r.Body) }

// validate checks args against the tool's fields: strict fields must match
// their schema, dropped fields that do not match are removed, unknown keys
// are stripped. It returns the reference's input-validation message.
func validate(t *Tool, args Args) (Args, error) {
	out := Args{}
	var issues []string
	for _, f := range t.Fields {
		v, present := args[f.Name]
		if f.Check == ByOp {
			if present {
				out[f.Name] = v
			}
			continue
		}
		if !present {
			if f.Required {
				issues = append(issues, fmt.Sprintf("%s: required", f.Name))
			}
			continue
		}
		if f.Check == Accept {
			out[f.Name] = v
			continue
		}
		if msg := nonFinite(f.Schema, v); msg != "" {
			// JSON has no NaN or Infinity; a client that spells one as a
			// string meant a number and gets an error, never a silent
			// default (not even where zod's .catch would drop it).
			issues = append(issues, fmt.Sprintf("%s: %s", f.Name, msg))
			continue
		}
		if msg := checkSchema(f.Schema, v); msg != "" {
			if f.Check == Drop {
				continue
			}
			issues = append(issues, fmt.Sprintf("%s: %s", f.Name, msg))
			continue
		}
		out[f.Name] = v
	}
	if len(issues) > 0 && onlyOpIssues(t) {
		return nil, &ToolError{Text: strings.Join(issues, "; ")}
	}
	if len(issues) > 0 {
		return nil, &ToolError{Text: fmt.Sprintf("MCP error -32602: Input validation error: Invalid arguments for tool %s: %s",
			t.Name, strings.Join(issues, "; "))}
	}
	return out, nil
}

// checkSchema validates v against the subset of JSON Schema the tools use
// (type, enum, items, properties, anyOf, minimum, maximum, minLength); it
// returns "" or what is wrong.
func checkSchema(s Obj, v any) string {
	if alts, ok := s.Get("anyOf"); ok {
		for _, alt := range alts.([]Obj) {
			if checkSchema(alt, v) == "" {
				return ""
			}
		}
		return "does not match any allowed form"
	}
	if typ, ok := s.Get("type"); ok {
		if msg := checkType(typ.(string), v); msg != "" {
			return msg
		}
	}
	if enum, ok := s.Get("enum"); ok {
		found := false
		var names []string
		for _, e := range enum.([]string) {
			names = append(names, fmt.Sprintf("%q", e))
			if str, isStr := v.(string); isStr && str == e {
				found = true
			}
		}
		if !found {
			return "expected one of " + strings.Join(names, "|")
		}
	}
	if n, ok := v.(float64); ok {
		if min, ok := s.Get("minimum"); ok && n < toFloat(min) {
			return fmt.Sprintf("must be >= %v", min)
		}
		if max, ok := s.Get("maximum"); ok && n > toFloat(max) {
			return fmt.Sprintf("must be <= %v", max)
		}
	}
	if str, ok := v.(string); ok {
		if min, ok := s.Get("minLength"); ok && float64(len([]rune(str))) < toFloat(min) {
			return fmt.Sprintf("must have at least %v characters", min)
		}
	}
	if items, ok := s.Get("items"); ok {
		for i, e := range v.([]any) {
			if msg := checkSchema(items.(Obj), e); msg != "" {
				return fmt.Sprintf("[%d]: %s", i, msg)
			}
		}
	}
	if props, ok := s.Get("properties"); ok {
		m := v.(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, kv := range props.(Obj) {
			if pv, present := m[kv.K]; present {
				if msg := checkSchema(kv.V.(Obj), pv); msg != "" {
					return kv.K + ": " + msg
				}
			}
		}
	}
	return ""
}

func checkType(typ string, v any) string {
	ok := false
	switch typ {
	case "string":
		_, ok = v.(string)
	case "number":
		_, ok = v.(float64)
	case "integer":
		n, isNum := v.(float64)
		ok = isNum && n == math.Trunc(n)
	case "boolean":
		_, ok = v.(bool)
	case "array":
		_, ok = v.([]any)
	case "object":
		_, ok = v.(map[string]any)
	case "null":
		ok = v == nil
	default:
		ok = true
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("expected %s, received %s", typ, messages.JSONKind(v))
}

// finiteNumbers refuses, as validate does, a string spelling NaN or
// ±Infinity for one of t's number fields; the error names the tool called.
func finiteNumbers(called string, t *Tool, args Args) error {
	var issues []string
	for _, f := range t.Fields {
		if f.Check == ByOp {
			continue // the operation's decoder refuses it
		}
		if v, ok := args[f.Name]; ok {
			if msg := nonFinite(f.Schema, v); msg != "" {
				issues = append(issues, fmt.Sprintf("%s: %s", f.Name, msg))
			}
		}
	}
	if len(issues) > 0 {
		return &ToolError{Text: fmt.Sprintf("MCP error -32602: Input validation error: Invalid arguments for tool %s: %s",
			called, strings.Join(issues, "; "))}
	}
	return nil
}

// nonFinite reports a string spelling NaN or ±Infinity given for a number
// field ("" otherwise).
func nonFinite(s Obj, v any) string {
	str, ok := v.(string)
	if !ok {
		return ""
	}
	typ, _ := s.Get("type")
	if typ != "number" && typ != "integer" {
		return ""
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
	if (err == nil || errors.Is(err, strconv.ErrRange)) && (math.IsNaN(n) || math.IsInf(n, 0)) {
		return fmt.Sprintf("expected a finite number, received %q", str)
	}
	return ""
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case float64:
		return n
	}
	return 0
}

// onlyOpIssues reports whether a tool's fields are all checked as the
// operation checks them (opFields), so its issues carry the operation's
// texts rather than the reference's zod wording.
func onlyOpIssues(t *Tool) bool {
	for _, f := range t.Fields {
		if f.Check != ByOp {
			return false
		}
	}
	return true
}
