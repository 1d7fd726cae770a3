package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

var boolType = reflect.TypeOf(true)

// JSONKind names the JSON type of a decoded value (null, boolean, number,
// string, array, object) for error messages.
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number:
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

// typeWord names a Go field type the way a JSON client thinks of it.
func typeWord(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && strings.HasPrefix(t.Name(), "Opt[") {
		if f, ok := t.FieldByName("Value"); ok {
			return typeWord(f.Type) + " or null"
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32, reflect.Uint:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}

// DecodeInput decodes raw into the operation's typed input. Unknown keys are
// ignored (clients of the reference send extras); a value of the wrong type is
// a 400 that names the field; a body that is not a JSON object is a 400 too.
func (op *Op) DecodeInput(raw json.RawMessage) (any, *Error) {
	in := op.NewInput()
	if err := op.DecodeOnto(raw, in); err != nil {
		return nil, err
	}
	if err := op.checkDeclared(in); err != nil {
		return nil, err
	}
	return in, nil
}

// DecodeOnto decodes raw over in (a pointer to the operation's input
// type) with DecodeInput's error texts, but without its required check:
// the Go package lays the wire keys a caller passes as extras under the
// typed fields it then sets, and the whole input is decoded again, checks
// included, when it runs.
func (op *Op) DecodeOnto(raw json.RawMessage, in any) *Error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] != '{' {
		return InvalidJSON("invalid input for %s: the body must be a JSON object", op.Name)
	}
	if err := json.Unmarshal(raw, in); err != nil {
		return decodeError(op.Name, err)
	}
	return nil
}

func decodeError(opName string, err error) *Error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		field := jsonPath(typeErr.Field)
		if field == "" {
			field = "(body)"
		}
		want := "a " + typeErr.Type.String()
		if typeErr.Type != nil {
			want = typeWord(typeErr.Type)
		}
		return InvalidInput("invalid input for %s: field %q must be %s, got %s",
			opName, field, want, typeErr.Value).With("field", field)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return InvalidJSON("invalid input for %s: malformed JSON at byte %d: %v", opName, syntaxErr.Offset, syntaxErr)
	}
	return InvalidInput("invalid input for %s: %v", opName, err)
}

// jsonPath drops the names of embedded Go structs (capitalised segments)
// from a decoder field path, leaving the JSON path a client sent.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ".")
}

// QueryValue converts one query-string value to JSON for the field of the
// same name: numbers and booleans are parsed (a bad one is a 400 naming the
// field), arrays and objects may be passed as JSON text, strings stay
// strings. Keys the input does not declare are passed through as strings.
func (op *Op) QueryValue(key, value string) (json.RawMessage, *Error) {
	f, ok := op.Field(key)
	if !ok {
		return mustJSON(value), nil
	}
	base := f.Type
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if base.Kind() == reflect.Struct && strings.HasPrefix(base.Name(), "Opt[") {
		if value == "null" {
			return json.RawMessage("null"), nil
		}
		f, _ := base.FieldByName("Value")
		base = f.Type
	}
	switch base.Kind() {
	case reflect.Bool:
		switch strings.ToLower(value) {
		case "true", "1", "":
			return json.RawMessage("true"), nil
		case "false", "0":
			return json.RawMessage("false"), nil
		}
		return nil, queryTypeError(op.Name, key, base)
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Uint64:
		n, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, queryTypeError(op.Name, key, base)
		}
		return mustJSON(n), nil
	case reflect.String:
		return mustJSON(value), nil
	}
	// any, slices, maps: accept JSON text, else the plain string.
	if json.Valid([]byte(value)) {
		trimmed := strings.TrimSpace(value)
		if strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, "{") {
			return json.RawMessage(trimmed), nil
		}
	}
	return mustJSON(value), nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with strings and finite numbers
	}
	return b
}

// queryTypeError is the error for a query value that does not parse as its
// field's type: the text the JSON decoder gives for a string there, so a
// field refuses the same bad value with the same words on every surface.
func queryTypeError(op, key string, t reflect.Type) *Error {
	return InvalidInput("invalid input for %s: field %q must be %s, got string", op, key, typeWord(t)).With("field", key)
}
