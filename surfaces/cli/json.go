package cli

import (
	"bytes"
	"encoding/json"
)

// marshalIndent re-indents JSON bytes with 2 spaces, keeping key order.
func marshalIndent(raw json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// plainJSON is json.Marshal without HTML escaping: what the CLI prints is
// read by people and shells, so a hint's "<id>" stays "<id>" instead of
// "\u003cid\u003e". indent, when set, is the per-level indent.
func plainJSON(v any, indent ...string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if len(indent) > 0 {
		enc.SetIndent("", indent[0])
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
