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
