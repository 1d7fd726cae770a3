package messages

import (
	"encoding/json"
	"reflect"
	"testing"
)

// sample fills v with a non-zero value of its type (one element per slice
// and map), so a round trip exercises every field.
func sample(v reflect.Value) {
	switch {
	case v.Type() == rawType:
		v.Set(reflect.ValueOf(json.RawMessage(`{"a":1}`)))
		return
	case v.Kind() == reflect.Struct && v.Type().Name() != "" && len(v.Type().Name()) > 4 && v.Type().Name()[:4] == "Opt[":
		v.FieldByName("Set").SetBool(true)
		sample(v.FieldByName("Value"))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		sample(v.Elem())
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		sample(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		sample(e)
		m.SetMapIndex(reflect.ValueOf("k"), e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf("v"))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			// json:"-" fields are the server's own (never on the wire).
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
				sample(v.Field(i))
			}
		}
	}
}

// Every operation's input survives EncodeInput then DecodeInput: empty,
// with every field set, and with each field set alone (so unset fields are
// left out rather than sent as null or zero).
func TestEncodeInputRoundTripsEveryOperation(t *testing.T) {
	roundTrip := func(op *Op, in any, what string) {
		t.Helper()
		raw, err := EncodeInput(in)
		if err != nil {
			t.Fatalf("%s %s: encode: %v", op.Name, what, err)
		}
		back := op.NewInput()
		if derr := op.DecodeOnto(raw, back); derr != nil {
			t.Fatalf("%s %s: decode %s: %v", op.Name, what, raw, derr)
		}
		if !reflect.DeepEqual(back, in) {
			t.Errorf("%s %s: %s decodes to %+v, want %+v", op.Name, what, raw, back, in)
		}
	}
	for _, op := range Catalog {
		roundTrip(op, op.NewInput(), "empty")
		full := op.NewInput()
		sample(reflect.ValueOf(full).Elem())
		roundTrip(op, full, "full")
		for _, f := range op.Fields() {
			one := op.NewInput()
			sample(reflect.ValueOf(one).Elem().FieldByIndex(f.index))
			roundTrip(op, one, "only "+f.Name)
		}
	}
}

func TestEncodeInputLeavesUnsetOptAndRawOut(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{&NodeUpdateInput{ID: "n"}, `{"id":"n"}`},
		{&NodeUpdateInput{ID: "n", DockPosition: Opt[string]{Set: true, Null: true}}, `{"id":"n","dockPosition":null}`},
		{&AxPolicyInput{}, `{}`},
		{&PinSetInput{NodeIDs: []string{}}, `{"nodeIds":[]}`},
		{(*NodeAddInput)(nil), `{}`},
		{nil, `{}`},
	} {
		got, err := EncodeInput(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("EncodeInput(%T) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}
