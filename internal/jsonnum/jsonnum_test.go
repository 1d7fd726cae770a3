package jsonnum

import (
	"encoding/json"
	"testing"
)

func TestFloat(t *testing.T) {
	cases := []struct {
		in   any
		want float64
		ok   bool
	}{
		{1.5, 1.5, true}, {float32(2), 2, true}, {3, 3, true}, {int8(-4), -4, true}, {int64(5), 5, true},
		{uint8(6), 6, true}, {uint64(7), 7, true}, {json.Number("8.25"), 8.25, true},
		{json.Number("x"), 0, false}, {"9", 0, false}, {true, 0, false}, {nil, 0, false}, {[]any{1}, 0, false},
	}
	for _, c := range cases {
		if got, ok := Float(c.in); got != c.want || ok != c.ok {
			t.Errorf("Float(%#v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
