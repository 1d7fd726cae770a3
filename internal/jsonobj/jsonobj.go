// Package jsonobj is the JSON object that keeps its key order, shared by
// the domain core and the surfaces: the reference builds its outputs as
// JavaScript objects, whose keys keep insertion order, while Go maps encode
// sorted.
package jsonobj

import (
	"bytes"
	"encoding/json"
)

// KV is one key of an Object. It is an alias of a plain struct so literals
// elsewhere may stay unkeyed ({"type", "string"}) without vet's composites
// check, which flags unkeyed literals of named structs from other packages.
type KV = struct {
	K string
	V any
}

// Object is a JSON object whose keys encode in slice order.
type Object []KV

// MarshalJSON writes the keys in order, without HTML escaping (as
// JSON.stringify writes <, > and &).
func (o Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := Marshal(kv.K)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		v, err := Marshal(kv.V)
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Get returns the value of key.
func (o Object) Get(key string) (any, bool) {
	for _, kv := range o {
		if kv.K == key {
			return kv.V, true
		}
	}
	return nil, false
}

// With returns a copy of o with key set (replaced in place or appended);
// o itself is not changed.
func (o Object) With(key string, v any) Object {
	out := append(Object(nil), o...)
	out.Set(key, v)
	return out
}

// Set sets key in o: its value is replaced in place, or the key appended.
func (o *Object) Set(key string, v any) {
	for i := range *o {
		if (*o)[i].K == key {
			(*o)[i].V = v
			return
		}
	}
	*o = append(*o, KV{key, v})
}

// Marshal is json.Marshal without HTML escaping: how JSON.stringify writes
// any value, and how an Object writes its keys and values.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}
