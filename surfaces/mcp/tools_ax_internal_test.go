package mcpapi

import "testing"

// An await names its default wait only when the call names none; any
// given value goes to the operation, which decodes, bounds and caps it.
func TestBuildAwaitTimeout(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Args
		want any
	}{
		{"omitted", Args{}, awaitDefaultMs},
		{"zero", Args{"timeoutMs": 0.0}, 0.0},
		{"string goes to the operation", Args{"timeoutMs": "500"}, "500"},
		{"plain", Args{"timeoutMs": 1500.0}, 1500.0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := buildAwait(nil, c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := out["timeoutMs"]; got != c.want {
				t.Fatalf("timeoutMs = %v, want %v", got, c.want)
			}
		})
	}
}

func TestAxFormatsKeepTheReferenceKeyOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		format func(*Reply) (string, error)
		reply  Reply
		want   string
		err    string
	}{
		{"ok first, additions last", okKey("workItem"), Reply{Status: 200, Body: []byte(`{"workItem":{"b":1,"a":2},"revision":3,"ok":true}`)},
			`{"ok":true,"workItem":{"b":1,"a":2},"revision":3}`, ""},
		{"error status", okKey("x"), Reply{Status: 409, Body: []byte(`{"ok":false,"error":"held"}`)}, "", "held"},
		{"error without message", okKey("x"), Reply{Status: 503, Body: []byte(`{"ok":false}`)}, "", "HTTP 503"},
		{"missing gate", gateFormat("modeRequest"), Reply{Status: 404, Body: []byte(`{"ok":false,"modeRequest":null,"pending":false}`)},
			`{"ok":false,"modeRequest":null,"pending":false}`, ""},
		{"gate", gateFormat("modeRequest"), Reply{Status: 200, Body: []byte(`{"pending":true,"modeRequest":{"id":"m"},"ok":true}`)},
			`{"ok":true,"modeRequest":{"id":"m"},"pending":true}`, ""},
		{"gate shutdown", gateFormat("modeRequest"), Reply{Status: 503, Body: []byte(`{"ok":false,"error":"shutting down","code":"unavailable"}`)}, "", "shutting down"},
		{"refusal", interactionFormat, Reply{Status: 403, Body: []byte(`{"code":"not-allowed","error":"no","ok":false,"status":403}`)},
			`{"ok":false,"status":403,"code":"not-allowed","error":"no"}`, ""},
		{"accepted", interactionFormat, Reply{Status: 200, Body: []byte(`{"primitive":{"id":"w"},"sourceNodeId":"n","type":"ax.steer","ok":true}`)},
			`{"ok":true,"type":"ax.steer","sourceNodeId":"n","primitive":{"id":"w"}}`, ""},
		{"interaction failure", interactionFormat, Reply{Status: 500, Body: []byte(`{"ok":false,"error":"boom"}`)}, "", "boom"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.format(&c.reply)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("got %q, %v; want error %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
