package jsonrender

import (
	"encoding/json"
	"slices"
	"testing"
)

// decode decodes JSON text written by a test.
func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	return v
}

// patchDoc applies patches (JSON text of an array) to a document one at a
// time, as a stream does, and returns the result, or the first error.
func patchDoc(t *testing.T, docText, patches string) (string, error) {
	t.Helper()
	d := &doc{root: decode(t, docText).(map[string]any)}
	d.size = encodedLen(d.root)
	for _, raw := range decode(t, patches).([]any) {
		p, err := parsePatch(raw, true)
		if err != nil {
			return "", err
		}
		if p.bad {
			return "", errBadPatch
		}
		mark, size := len(d.undo), d.size
		before := mustJSON(t, d.root)
		if err := d.apply(p); err != nil {
			d.rollback(mark, size)
			if after := mustJSON(t, d.root); after != before || d.size != len(before) {
				t.Fatalf("a failed %s changed the document: %s → %s (size %d)", p.desc(), before, after, d.size)
			}
			return "", err
		}
		if enc := mustJSON(t, d.root); d.size != len(enc) {
			t.Fatalf("after %s the size is %d, the encoding %d bytes: %s", p.desc(), d.size, len(enc), enc)
		}
	}
	return mustJSON(t, d.root), nil
}

type patchErr string

func (e patchErr) Error() string { return string(e) }

const errBadPatch = patchErr("bad patch")

// TestPatchRFC6902 runs the examples of RFC 6902 Appendix A that apply to
// decoded documents, and the applier's own edge cases.
func TestPatchRFC6902(t *testing.T) {
	tests := []struct {
		name, doc, patch, want string // want "" means an error
	}{
		{"A.1 add object member", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
		{"A.2 add array element", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
		{"A.3 remove object member", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
		{"A.4 remove array element", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
		{"A.5 replace", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
		{"A.6 move value", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`,
			`{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{"A.7 move array element", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
		{"A.8 test success", `{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
		{"A.9 test failure", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, ``},
		{"A.10 add nested member object", `{"foo":"bar"}`, `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`, `{"child":{"grandchild":{}},"foo":"bar"}`},
		{"A.11 unknown members ignored", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux","xyz":123}]`, `{"baz":"qux","foo":"bar"}`},
		{"A.12 add to missing target", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`, ``},
		{"A.14 escape ordering", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`, `{"/":9,"~1":10}`},
		{"A.15 string is not number", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":"10"}]`, ``},
		{"A.16 add array value", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},

		{"add replaces existing member", `{"a":1}`, `[{"op":"add","path":"/a","value":[1,2]}]`, `{"a":[1,2]}`},
		{"add to empty array", `{"a":[]}`, `[{"op":"add","path":"/a/0","value":"<&>"}]`, `{"a":["<&>"]}`},
		{"add at array end by index", `{"a":[1]}`, `[{"op":"add","path":"/a/1","value":2}]`, `{"a":[1,2]}`},
		{"add past array end", `{"a":[1]}`, `[{"op":"add","path":"/a/2","value":2}]`, ``},
		{"add with leading zero index", `{"a":[1,2]}`, `[{"op":"add","path":"/a/01","value":2}]`, ``},
		{"add with negative index", `{"a":[1,2]}`, `[{"op":"add","path":"/a/-1","value":2}]`, ``},
		{"add into a string", `{"a":"s"}`, `[{"op":"add","path":"/a/b","value":2}]`, ``},
		{"add in nested array", `{"a":[[1],[2]]}`, `[{"op":"add","path":"/a/1/0","value":0}]`, `{"a":[[1],[0,2]]}`},
		{"add whole document", `{"a":1}`, `[{"op":"add","path":"","value":{"b":2}}]`, `{"b":2}`},
		{"replace whole document", `{"a":1}`, `[{"op":"replace","path":"","value":{"c":"é\u2028"}}]`, `{"c":"é\u2028"}`},
		{"replace document with non-object", `{"a":1}`, `[{"op":"replace","path":"","value":[1]}]`, ``},
		{"remove whole document", `{"a":1}`, `[{"op":"remove","path":""}]`, ``},
		{"remove missing member", `{"a":1}`, `[{"op":"remove","path":"/b"}]`, ``},
		{"remove with - index", `{"a":[1]}`, `[{"op":"remove","path":"/a/-"}]`, ``},
		{"remove last array element", `{"a":[1],"b":2}`, `[{"op":"remove","path":"/a/0"}]`, `{"a":[],"b":2}`},
		{"remove only member", `{"a":{"x":1}}`, `[{"op":"remove","path":"/a/x"}]`, `{"a":{}}`},
		{"replace missing member", `{"a":1}`, `[{"op":"replace","path":"/b","value":1}]`, ``},
		{"replace array element", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/1","value":{"k":null}}]`, `{"a":[1,{"k":null}]}`},
		{"replace out of range", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/2","value":3}]`, ``},
		{"move onto itself", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a"}]`, `{"a":{"b":1}}`},
		{"move into own child", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, ``},
		{"move child over parent", `{"a":{"b":[1]}}`, `[{"op":"move","from":"/a/b","path":"/a"}]`, `{"a":[1]}`},
		{"move from missing", `{"a":1}`, `[{"op":"move","from":"/x","path":"/y"}]`, ``},
		{"move to missing parent", `{"a":1}`, `[{"op":"move","from":"/a","path":"/x/y"}]`, ``},
		{"copy", `{"a":{"b":[1]}}`, `[{"op":"copy","from":"/a","path":"/c"},{"op":"add","path":"/c/b/-","value":2}]`, `{"a":{"b":[1]},"c":{"b":[1,2]}}`},
		{"copy from missing", `{"a":1}`, `[{"op":"copy","from":"/x","path":"/y"}]`, ``},
		{"test deep equality", `{"a":{"b":[1,{"c":true}],"d":null}}`, `[{"op":"test","path":"/a","value":{"d":null,"b":[1.0,{"c":true}]}}]`, `{"a":{"b":[1,{"c":true}],"d":null}}`},
		{"test array length differs", `{"a":[1,2]}`, `[{"op":"test","path":"/a","value":[1]}]`, ``},
		{"test missing member", `{"a":{"b":1}}`, `[{"op":"test","path":"/a","value":{"c":1}}]`, ``},
		{"test null", `{"a":null}`, `[{"op":"test","path":"/a","value":null}]`, `{"a":null}`},
		{"unknown op", `{"a":1}`, `[{"op":"merge","path":"/a","value":1}]`, ``},
		{"add without value", `{"a":1}`, `[{"op":"add","path":"/b"}]`, ``},
		{"move without from", `{"a":1}`, `[{"op":"move","path":"/b"}]`, ``},
		{"path without slash", `{"a":1}`, `[{"op":"add","path":"a","value":1}]`, ``},
		{"path with bad escape", `{"a":1}`, `[{"op":"add","path":"/a~2","value":1}]`, ``},
		{"path not a string", `{"a":1}`, `[{"op":"remove","path":1}]`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patchDoc(t, tt.doc, tt.patch)
			switch {
			case tt.want == "" && err == nil:
				t.Fatalf("got %s, want an error", got)
			case tt.want != "" && err != nil:
				t.Fatalf("error %v, want %s", err, tt.want)
			case tt.want != "" && got != canonical(t, tt.want):
				t.Fatalf("got  %s\nwant %s", got, canonical(t, tt.want))
			}
		})
	}
}

// TestPointer runs RFC 6901's examples and the round trip of String.
func TestPointer(t *testing.T) {
	d := &doc{root: decode(t, `{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}`).(map[string]any)}
	for _, tt := range []struct {
		ptr, want string
	}{
		{"/foo", `["bar","baz"]`}, {"/foo/0", `"bar"`}, {"/", `0`}, {"/a~1b", `1`}, {"/c%d", `2`}, {"/e^f", `3`},
		{"/g|h", `4`}, {"/i\\j", `5`}, {"/k\"l", `6`}, {"/ ", `7`}, {"/m~0n", `8`},
	} {
		p, err := parsePointer(tt.ptr)
		if err != nil {
			t.Fatalf("parsePointer(%q): %v", tt.ptr, err)
		}
		v, err := d.get(p)
		if err != nil || mustJSON(t, v) != tt.want {
			t.Errorf("get(%q) = %s, %v; want %s", tt.ptr, mustJSON(t, v), err, tt.want)
		}
		if p.String() != tt.ptr {
			t.Errorf("pointer %q writes back as %q", tt.ptr, p.String())
		}
	}
	if p, err := parsePointer(""); err != nil || len(p) != 0 {
		t.Errorf(`parsePointer("") = %v, %v`, p, err)
	}
	if p, _ := parsePointer("/a/b"); !slices.Equal(p, pointer{"a", "b"}) || !p.hasPrefix(pointer{"a"}) || p.hasPrefix(pointer{"b"}) || (pointer{"a"}).hasPrefix(p) {
		t.Errorf("hasPrefix is wrong for %v", p)
	}
	for _, bad := range []string{"a", "/~", "/a~x", "/~2"} {
		if _, err := parsePointer(bad); err == nil {
			t.Errorf("parsePointer(%q) succeeded", bad)
		}
	}
}

// TestEncodedLen checks the size count against encoding/json on values
// with every kind of escape.
func TestEncodedLen(t *testing.T) {
	for _, v := range []any{
		nil, true, false, 0.0, -1.5, 1e21, 1e-7, 123456789.0, 5e-324, "", "plain", "q\"\\/", "\b\f\n\r\t\x00\x1f",
		"<a href=x>&</a>", "é✓😀", "\u2028\u2029", "bad\xffutf8\xc3", []any{}, []any{1.0, "a", nil},
		map[string]any{}, map[string]any{"k<": []any{map[string]any{"\n": false}}, "b": "x"},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if n := encodedLen(v); n != len(b) {
			t.Errorf("encodedLen(%#v) = %d, encoding/json wrote %d bytes: %s", v, n, len(b), b)
		}
	}
}
