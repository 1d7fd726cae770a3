package mcpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
)

// Shared result shapes of the canvas tools (reference mcp.md §4): the
// compact node, the full agent node, the created-node payload, and the
// helpers that read replies in key order.

// decodeOrdered parses JSON keeping object key order: objects become Obj,
// arrays []any, numbers json.Number (so they re-encode exactly).
func cvDecode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return cvReadValue(dec)
}

func cvReadValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	switch d {
	case '{':
		o := Obj{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := cvReadValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, KV{k.(string), v})
		}
		_, err = dec.Token()
		return o, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := cvReadValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err = dec.Token()
		return arr, err
	}
	return nil, fmt.Errorf("mcp: unexpected JSON delimiter %v", d)
}

// replyObj decodes a reply body that must be an object.
func cvReplyObj(r *Reply) (Obj, error) {
	v, err := cvDecode(r.Body)
	if err != nil {
		return nil, err
	}
	o, ok := v.(Obj)
	if !ok {
		return nil, fmt.Errorf("mcp: reply is not a JSON object")
	}
	return o, nil
}

// toOrdered renders any Go value as ordered JSON values.
func cvToOrdered(v any) (any, error) {
	raw, err := jsonobj.Marshal(v)
	if err != nil {
		return nil, err
	}
	return cvDecode(raw)
}

// objAt returns o[key] as an object (nil when absent or not an object).
func cvObjAt(o Obj, key string) Obj {
	v, _ := o.Get(key)
	m, _ := v.(Obj)
	return m
}

// strAt returns o[key] as a string.
func cvStrAt(o Obj, key string) (string, bool) {
	v, _ := o.Get(key)
	s, ok := v.(string)
	return s, ok
}

// pick returns the keys of o in the given order; absent keys are null.
func cvPick(o Obj, keys ...string) Obj {
	out := make(Obj, 0, len(keys))
	for _, k := range keys {
		v, _ := o.Get(k)
		out = append(out, KV{k, v})
	}
	return out
}

// pickPresent returns the keys of o in the given order, skipping absent ones.
func cvPickPresent(o Obj, keys ...string) Obj {
	out := Obj{}
	for _, k := range keys {
		if v, ok := o.Get(k); ok {
			out = append(out, KV{k, v})
		}
	}
	return out
}

// cvCompactNodeKeys are the compact node's keys, in order (§4).
var cvCompactNodeKeys = []string{"id", "type", "kind", "title", "content", "position", "size", "pinned", "collapsed",
	"dockPosition", "provenance"}

// compactNode is the 11-key compact node of a serialized node.
func cvCompactNode(node Obj) Obj { return cvPick(node, cvCompactNodeKeys...) }

// agentNode is the full agent node: the serialized node with a hosted
// external app's shell HTML replaced by {omitted, resourceUri, bytes,
// sha256}, so an agent does not re-read the app's markup.
func cvAgentNode(node Obj) Obj {
	data := cvObjAt(node, "data")
	if typ, _ := cvStrAt(node, "type"); typ != "mcp-app" || data == nil {
		return node
	}
	mode, _ := cvStrAt(data, "mode")
	html, _ := cvStrAt(data, "html")
	uri, _ := cvStrAt(data, "resourceUri")
	if mode != "ext-app" || html == "" || uri == "" {
		return node
	}
	sum := sha256.Sum256([]byte(html))
	return node.With("data", data.With("html", Obj{
		{"omitted", "external-mcp-app-html"}, {"resourceUri", uri}, {"bytes", len(html)},
		{"sha256", hex.EncodeToString(sum[:])},
	}))
}

// wantsFull reports whether a call asked for the full payload.
func cvWantsFull(a Args) bool { return a["full"] == true || a["verbose"] == true }

// createdNodeText renders a node create/update reply ({ok, node, ...node,
// nodeId, ...}) as the created-node payload: compact {ok, node:<compact>,
// id, nodeId}, or full {ok, node:<agent node>, ...<agent node>, nodeId,
// ...the reply's other keys}. A full payload of an mcp-app node is re-read
// with its blobs, as agents get the whole node.
func cvCreatedNodeText(c *Call, r *Reply, full bool) (string, error) {
	body, err := cvReplyObj(r)
	if err != nil {
		return "", err
	}
	node := cvObjAt(body, "node")
	id, _ := node.Get("id")
	if !full {
		return Pretty(Obj{{"ok", true}, {"node", cvCompactNode(node)}, {"id", id}, {"nodeId", id}})
	}
	if typ, _ := cvStrAt(node, "type"); typ == "mcp-app" {
		if fresh, err := c.Invoke("node.get", Args{"id": id, "includeBlobs": true}); err == nil {
			if n, err := cvReplyObj(fresh); err == nil {
				node = n
			}
		}
	}
	node = cvAgentNode(node)
	out := Obj{{"ok", true}, {"node", node}}
	seen := map[string]bool{"ok": true, "node": true, "nodeId": true}
	for _, kv := range node {
		out = append(out, kv)
		seen[kv.K] = true
	}
	out = append(out, KV{"nodeId", id})
	for _, kv := range body {
		if !seen[kv.K] {
			out = append(out, kv)
		}
	}
	return Pretty(out)
}

// textResult wraps a rendering as a result.
func cvText(text string, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return &Result{Text: text}, nil
}

// copyArgs returns a shallow copy of a, so a Build never changes the
// caller's arguments.
func cvCopyArgs(a Args) Args {
	out := make(Args, len(a))
	for k, v := range a {
		out[k] = v
	}
	return out
}

// cvReorder puts keys first, in that order, and keeps the rest after them
// (our additions such as revision; maps render their keys sorted).
func cvReorder(o Obj, keys ...string) Obj {
	return append(cvPickPresent(o, keys...), cvWithout(o, keys...)...)
}

// cvBodyInOrder formats the reply body as is, with the reference's keys
// first in the reference's order; compact or pretty.
func cvBodyInOrder(compact bool, keys ...string) func(*Reply) (string, error) {
	return func(r *Reply) (string, error) {
		body, err := cvReplyObj(r)
		if err != nil {
			return "", err
		}
		if compact {
			return Compact(cvReorder(body, keys...))
		}
		return Pretty(cvReorder(body, keys...))
	}
}
