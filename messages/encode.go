package messages

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// EncodeInput renders an input value (a pointer to an operation's input
// type, or nil) as the JSON its operation decodes: the declared fields
// that are set, and nothing for the others. Plain json.Marshal would not
// round-trip: an unset Opt would become an explicit null (dockPosition
// null undocks) and a nil RawMessage the text null. So DecodeInput of the
// result gives the value back, and a caller in Go runs the decoder and
// handler an HTTP client runs.
func EncodeInput(in any) (json.RawMessage, error) {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer || !v.IsValid() {
		if !v.IsValid() || v.IsNil() {
			return json.RawMessage("{}"), nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return json.Marshal(in) // a map or raw JSON: taken as it is
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, f := range FieldsOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if fv.IsZero() {
			continue // absent decodes to the zero value
		}
		val, err := json.Marshal(fv.Interface())
		if err != nil {
			return nil, err
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(f.Name)
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
