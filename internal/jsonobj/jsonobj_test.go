package jsonobj

import (
	"encoding/json"
	"testing"
)

func TestObjectKeepsOrderAndDoesNotEscapeHTML(t *testing.T) {
	o := Object{{"z", 1}, {"a<&>", "<b>"}, {"m", Object{{"y", []any{"x"}}, {"b", nil}}}}
	b, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"z":1,"a<&>":"<b>","m":{"y":["x"],"b":null}}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if b, _ := (Object{}).MarshalJSON(); string(b) != "{}" {
		t.Fatalf("empty = %s", b)
	}
	if b, _ := json.Marshal(struct{ O Object }{}); string(b) != `{"O":{}}` {
		t.Fatalf("nil = %s", b)
	}
	if _, err := (Object{{"f", func() {}}}).MarshalJSON(); err == nil {
		t.Fatal("a value that cannot be encoded must fail")
	}
}

func TestObjectGetWithSet(t *testing.T) {
	o := Object{{"a", 1}, {"b", 2}}
	if v, ok := o.Get("b"); !ok || v != 2 {
		t.Fatalf("Get(b) = %v, %v", v, ok)
	}
	if _, ok := o.Get("c"); ok {
		t.Fatal("Get(c) found a missing key")
	}
	w := o.With("a", 9).With("c", 3)
	if b, _ := w.MarshalJSON(); string(b) != `{"a":9,"b":2,"c":3}` {
		t.Fatalf("With = %s", b)
	}
	if b, _ := o.MarshalJSON(); string(b) != `{"a":1,"b":2}` {
		t.Fatalf("With changed its receiver: %s", b)
	}
	o.Set("b", 5)
	o.Set("d", 4)
	if b, _ := o.MarshalJSON(); string(b) != `{"a":1,"b":5,"d":4}` {
		t.Fatalf("Set = %s", b)
	}
}
