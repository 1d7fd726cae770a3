package graphspec

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// UnmarshalJSON decodes an Input like the default decoder does, with two
// differences: data that is not an array, or rows that are not objects,
// fail with messages naming them (ErrNoData, "Graph data[3] is not an
// object (got number)."), and the order of the first row's keys is
// recorded so that key inference follows the source as the reference does.
// A null or absent data leaves Data nil.
func (in *Input) UnmarshalJSON(b []byte) error {
	type plain Input // drops the methods, so decoding does not recurse
	aux := struct {
		*plain
		Data json.RawMessage `json:"data"`
	}{plain: (*plain)(in)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	if aux.Data == nil {
		return nil
	}
	rows, order, err := decodeRows(aux.Data)
	if err != nil {
		return err
	}
	in.Data, in.order = rows, order
	return nil
}

// decodeRows decodes a data array, returning the rows and the first row's
// keys in source order.
func decodeRows(raw json.RawMessage) ([]map[string]any, []string, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil, nil
	}
	if len(raw) == 0 || raw[0] != '[' {
		return nil, nil, ErrNoData
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, nil, err
	}
	if len(items) > MaxRows {
		return nil, nil, fmt.Errorf("Graph data has %d rows; the limit is %d.", len(items), MaxRows)
	}
	rows := make([]map[string]any, len(items))
	for i, item := range items {
		if len(item) == 0 || item[0] != '{' {
			return nil, nil, fmt.Errorf("Graph data[%d] is not an object (got %s).", i, jsonKind(item))
		}
		if err := json.Unmarshal(item, &rows[i]); err != nil {
			return nil, nil, fmt.Errorf("Graph data[%d]: %w", i, err)
		}
	}
	if len(items) == 0 {
		return rows, nil, nil
	}
	order, err := objectKeys(items[0])
	if err != nil {
		return nil, nil, fmt.Errorf("Graph data[0]: %w", err)
	}
	return rows, order, nil
}

// objectKeys returns a JSON object's keys in source order, once each.
func objectKeys(obj json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, err
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys, nil
}

func jsonKind(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// UnmarshalJSON accepts "max", "min" or any other string (Build checks
// it), a number, or null (no accent); the result is always Set.
func (h *Highlight) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v.(type) {
	case nil, string, float64:
	default:
		return fmt.Errorf("Invalid highlight (%s). %s", describe(v), highlightUsage)
	}
	*h = Highlight{Set: true, Value: v}
	return nil
}

// MarshalJSON writes the value; an unset Highlight writes null, so fields
// holding one should be tagged omitzero, as Input's is.
func (h Highlight) MarshalJSON() ([]byte, error) {
	return json.Marshal(h.Value)
}
