package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// A declared default is the value the operation uses: for every read
// operation, a call without the field answers what a call with the
// declared default answers (writes are covered by their handler tests; a
// second write is not the same state).
func TestDeclaredDefaultsAreTheOperations(t *testing.T) {
	srv := startServer(t)
	// Give the reads something to read: a snapshot, steering, an event.
	for _, c := range []struct{ op, in string }{
		{"snapshot.save", `{"name":"one"}`},
		{"ax.steer", `{"message":"keep going"}`},
		{"ax.event.record", `{"kind":"note","summary":"hello"}`},
	} {
		if _, err := srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: c.op, Input: json.RawMessage(c.in)}); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
	}
	body := func(op string, input map[string]any) []byte {
		raw, _ := json.Marshal(input)
		reply, err := srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: op, Input: raw})
		if err != nil {
			t.Fatalf("%s %s: %v", op, raw, err)
		}
		b, _ := json.Marshal(reply.Body)
		return b
	}
	checked := 0
	for _, op := range messages.Catalog {
		if op.IsWrite() || skipped[op.Name] || needsInput(op) {
			continue
		}
		for _, f := range op.Fields() {
			if f.Default == nil {
				continue
			}
			var def any
			_ = json.Unmarshal(f.Default, &def)
			without, with := body(op.Name, map[string]any{}), body(op.Name, map[string]any{f.Name: def})
			if !bytes.Equal(stripTimes(without), stripTimes(with)) {
				t.Errorf("%s: without %s:\n%s\nwith %s=%s:\n%s", op.Name, f.Name, without, f.Name, f.Default, with)
			}
			checked++
		}
	}
	if checked < 4 {
		t.Fatalf("only %d defaults checked", checked)
	}
	t.Logf("%d declared defaults of read operations checked", checked)
}

// needsInput reports whether the operation has a required field (a call
// with only the defaulted field would be refused).
func needsInput(op *messages.Op) bool {
	for _, f := range op.Fields() {
		if f.Required {
			return true
		}
	}
	return false
}

// stripTimes drops generatedAt stamps (two reads a moment apart differ there).
func stripTimes(b []byte) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			delete(t, "generatedAt")
			delete(t, "timestamp")
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
		}
		return x
	}
	out, _ := json.Marshal(walk(v))
	return out
}
