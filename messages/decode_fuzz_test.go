package messages

import (
	"encoding/json"
	"testing"
)

// Every operation's decoder takes any bytes: it returns typed input or a 4xx
// error, never a panic.
func FuzzDecodeInput(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"type":"markdown","title":"x","x":1,"y":2}`, `{"position":{"x":"1"}}`, `[1]`, `nul`,
		`{"dockPosition":null,"pinned":1,"animated":0}`, `{"children":["a",{}],"data":{"k":[1,{"n":null}]}}`,
		`{"x":1e400}`, `{"title":"\ud800"}`, `{"edge_id":5}`,
		`{"nodeIds":["a",1],"payload":[],"waitMs":"x","leaseMs":-1}`, `{"tools":{"allowed":"x"},"reactions":{"review":false}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, op := range Catalog {
			in, err := op.DecodeInput(json.RawMessage(raw))
			if err != nil {
				if err.Status < 400 || err.Status >= 500 {
					t.Fatalf("%s: non-4xx decode error %d %s", op.Name, err.Status, err.Message)
				}
				continue
			}
			if in == nil {
				t.Fatalf("%s: nil input without error", op.Name)
			}
		}
	})
}

func FuzzQueryValue(f *testing.F) {
	f.Add("x", "12")
	f.Add("includeBlobs", "maybe")
	f.Add("data", `{"a":1}`)
	f.Add("dockPosition", "null")
	f.Fuzz(func(t *testing.T, key, value string) {
		for _, op := range Catalog {
			raw, err := op.QueryValue(key, value)
			if err != nil {
				if err.Status != 400 {
					t.Fatalf("status %d", err.Status)
				}
				continue
			}
			if !json.Valid(raw) {
				t.Fatalf("%s %s=%q produced invalid JSON %s", op.Name, key, value, raw)
			}
		}
	})
}
