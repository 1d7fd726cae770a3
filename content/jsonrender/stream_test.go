package jsonrender

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// buildPatches returns n patches that build a list of n-2 Text elements:
// the root, the list, then each item, alternating between an element
// with its child link in one JSONL string and an object patch.
func buildPatches(n int) []any {
	ps := []any{
		map[string]any{"op": "replace", "path": "/root", "value": "list"},
		map[string]any{"op": "add", "path": "/elements/list", "value": map[string]any{"type": "Stack", "props": map[string]any{"gap": "sm"}, "children": []any{}}},
	}
	count := len(ps)
	for i := 0; count < n; i++ {
		key := fmt.Sprintf("item-%d", i)
		if count+2 > n {
			ps = append(ps, map[string]any{"op": "test", "path": "/root", "value": "list"})
			break
		}
		count += 2
		if i%2 == 0 {
			// Two patches in one JSONL string: the element, then its link.
			ps = append(ps, fmt.Sprintf("{\"op\":\"add\",\"path\":\"/elements/%s\",\"value\":{\"type\":\"Text\",\"props\":{\"content\":%d}}}\n"+
				"{\"op\":\"add\",\"path\":\"/elements/list/children/-\",\"value\":%q}\n", key, i, key))
			continue
		}
		ps = append(ps, map[string]any{"op": "add", "path": "/elements/list/children/-", "value": key},
			map[string]any{"op": "add", "path": "/elements/" + key, "value": map[string]any{"type": "Text", "props": map[string]any{"text": key}}})
	}
	return ps
}

// countPatches counts patches the way Apply does.
func countPatches(ps []any) int {
	n := 0
	for _, p := range ps {
		if s, ok := p.(string); ok {
			n += strings.Count(strings.TrimSpace(s), "\n") + 1
			continue
		}
		n++
	}
	return n
}

// TestStream1000Patches streams a UI in 1,000 patches, in calls of about
// 100, and checks the counts, the version, the size and the final spec.
func TestStream1000Patches(t *testing.T) {
	ps := buildPatches(1000)
	if n := countPatches(ps); n != 1000 {
		t.Fatalf("built %d patches, want 1000", n)
	}
	var s Stream
	if s.Status() != StatusOpen || s.SpecVersion() != 0 || mustJSON(t, s.Document()) != `{"elements":{},"root":""}` {
		t.Fatalf("zero stream: %s %d %s", s.Status(), s.SpecVersion(), mustJSON(t, s.Document()))
	}
	total, calls := 0, 0
	for len(ps) > 0 {
		n := min(len(ps), 70)
		applied, skipped, err := s.Apply(ps[:n])
		if err != nil {
			t.Fatalf("call %d: %v", calls, err)
		}
		if want := countPatches(ps[:n]); applied != want || skipped != 0 {
			t.Fatalf("call %d applied %d and skipped %d, want %d and 0", calls, applied, skipped, want)
		}
		total += applied
		calls++
		ps = ps[n:]
		if enc := mustJSON(t, s.Document()); s.Size() != len(enc) {
			t.Fatalf("after call %d the size is %d, the encoding %d bytes", calls, s.Size(), len(enc))
		}
	}
	if total != 1000 || s.SpecVersion() != calls || s.ElementCount() != 1+(1000-2)/2 {
		t.Fatalf("applied %d in %d calls, version %d, %d elements", total, calls, s.SpecVersion(), s.ElementCount())
	}
	spec, err := s.Close()
	if err != nil {
		t.Fatalf("Close: %v", err)
	}
	if s.Status() != StatusClosed || len(spec.Elements) != 500 || len(spec.Elements["list"].Children) != 499 {
		t.Fatalf("closed %s with %d elements, %d children", s.Status(), len(spec.Elements), len(spec.Elements["list"].Children))
	}
	if got := spec.Elements["item-0"].Props["text"]; got != "0" {
		t.Fatalf("item-0 text %v, want the coerced content \"0\"", got)
	}

	// One call may carry the whole stream.
	var one Stream
	if applied, skipped, err := one.Apply(buildPatches(1000)); err != nil || applied != 1000 || skipped != 0 {
		t.Fatalf("one call of 1000: %d, %d, %v", applied, skipped, err)
	}
	if mustJSON(t, one.Document()) != mustJSON(t, s.Document()) || one.SpecVersion() != 1 {
		t.Fatal("one call built a different spec")
	}
}

// TestStreamSkips checks that malformed and inapplicable patches are
// counted as skipped, change nothing, and do not stop later patches.
func TestStreamSkips(t *testing.T) {
	var s Stream
	applied, skipped, err := s.Apply([]any{
		map[string]any{"op": "replace", "path": "/root", "value": "a"},
		42,                                 // not an object
		nil,                                // not an object
		[]any{map[string]any{"op": "add"}}, // a list is not a patch
		map[string]any{"op": "frobnicate", "path": "/x", "value": 1},                      // unknown op
		map[string]any{"op": "add", "path": "/x"},                                         // no value
		map[string]any{"op": "add", "path": "x", "value": 1},                              // not a pointer
		map[string]any{"op": "remove", "path": "/elements/missing"},                       // no target
		map[string]any{"op": "test", "path": "/root", "value": "b"},                       // failed test
		map[string]any{"op": "move", "from": "/root", "path": "/elements/a/deeper/still"}, // add fails after remove
		map[string]any{"op": "add", "path": "/x", "value": func() {}},                     // not JSON
		"not json\n\n   \n{\"op\":\"add\",\"path\":\"/elements/a\",\"value\":{\"type\":\"Badge\",\"props\":{\"label\":\"hi\"}}}\n[1]",
		map[string]any{"op": "test", "path": "/root", "value": "a"},
	})
	if err != nil || applied != 3 || skipped != 12 {
		t.Fatalf("Apply = %d applied, %d skipped, %v; want 3, 12, nil", applied, skipped, err)
	}
	if got := mustJSON(t, s.Document()); got != `{"elements":{"a":{"props":{"label":"hi"},"type":"Badge"}},"root":"a"}` {
		t.Fatalf("document %s", got)
	}
	if s.Size() != len(mustJSON(t, s.Document())) {
		t.Fatal("size is off after skipped patches")
	}
	// A call of nothing but skipped patches still counts, as in the reference.
	if applied, skipped, err := s.Apply([]any{"garbage"}); err != nil || applied != 0 || skipped != 1 || s.SpecVersion() != 2 {
		t.Fatalf("second call: %d, %d, %v, version %d", applied, skipped, err, s.SpecVersion())
	}
	if applied, skipped, err := s.Apply(nil); err != nil || applied+skipped != 0 || s.SpecVersion() != 3 {
		t.Fatalf("empty call: %d, %d, %v, version %d", applied, skipped, err, s.SpecVersion())
	}
}

// TestStreamRefusesForbiddenKeys checks that a patch naming a prototype
// key refuses its whole call, naming the patch.
func TestStreamRefusesForbiddenKeys(t *testing.T) {
	tests := []struct {
		name  string
		patch any
		want  string
	}{
		{"path", map[string]any{"op": "add", "path": "/elements/__proto__/polluted", "value": true},
			`jsonrender: patch 1: path "/elements/__proto__/polluted" has the forbidden segment "__proto__"; no patch of the call was applied`},
		{"escaped path", map[string]any{"op": "add", "path": "/elements/x/props/constructor", "value": 1},
			`jsonrender: patch 1: path "/elements/x/props/constructor" has the forbidden segment "constructor"; no patch of the call was applied`},
		{"from", map[string]any{"op": "copy", "from": "/prototype", "path": "/x"},
			`jsonrender: patch 1: from "/prototype" has the forbidden segment "prototype"; no patch of the call was applied`},
		{"value", map[string]any{"op": "add", "path": "/elements/x", "value": map[string]any{"type": "Card", "props": map[string]any{"a": []any{map[string]any{"__proto__": 1}}}}},
			`jsonrender: patch 1: value has the forbidden key "__proto__" at /props/a/0/__proto__; no patch of the call was applied`},
		{"JSONL line", "{\"op\":\"add\",\"path\":\"/elements/ok\",\"value\":{}}\n{\"op\":\"add\",\"path\":\"/__proto__\",\"value\":{}}",
			`jsonrender: patch 2: path "/__proto__" has the forbidden segment "__proto__"; no patch of the call was applied`},
		{"even in a bad patch", map[string]any{"op": "nope", "path": "/constructor"},
			`jsonrender: patch 1: path "/constructor" has the forbidden segment "constructor"; no patch of the call was applied`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stream
			before := mustJSON(t, s.Document())
			_, _, err := s.Apply([]any{map[string]any{"op": "replace", "path": "/root", "value": "x"}, tt.patch})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Apply error\n got %v\nwant %s", err, tt.want)
			}
			if !errors.Is(err, ErrForbiddenKey) || errors.Is(err, ErrLimit) {
				t.Fatalf("error %v does not match ErrForbiddenKey alone", err)
			}
			if mustJSON(t, s.Document()) != before || s.SpecVersion() != 0 {
				t.Fatal("a refused call changed the stream")
			}
		})
	}
}

// TestStreamLimits checks each limit, its error text, and that a refused
// call changes nothing, not even the patches before the one that failed.
func TestStreamLimits(t *testing.T) {
	t.Run("patches per call", func(t *testing.T) {
		s := Stream{Limits: Limits{MaxPatches: 3}}
		_, _, err := s.Apply([]any{"{}\n{}", "{}\n\n{}"})
		if want := "jsonrender: the call carries more than 3 patches (MaxPatches); no patch of the call was applied"; err == nil || err.Error() != want {
			t.Fatalf("Apply = %v, want %s", err, want)
		}
		if !errors.Is(err, ErrLimit) || s.SpecVersion() != 0 {
			t.Fatalf("error %v, version %d", err, s.SpecVersion())
		}
		if _, skipped, err := s.Apply([]any{"{}\n{}", "{}"}); err != nil || skipped != 3 {
			t.Fatalf("three patches: %d skipped, %v", skipped, err)
		}
	})
	t.Run("default patches per call", func(t *testing.T) {
		var s Stream
		if _, _, err := s.Apply(make([]any, 1001)); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 1000 patches") {
			t.Fatalf("1001 patches: %v", err)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		s := Stream{Limits: Limits{MaxBytes: 100}}
		small := map[string]any{"op": "add", "path": "/elements/a", "value": "12345"}
		big := map[string]any{"op": "add", "path": "/elements/b", "value": strings.Repeat("x", 80)}
		_, _, err := s.Apply([]any{small, big})
		if want := "jsonrender: patch 1 (add /elements/b) would make the spec 123 bytes, over the limit of 100 (MaxBytes); no patch of the call was applied"; err == nil || err.Error() != want {
			t.Fatalf("Apply = %v\nwant %s", err, want)
		}
		if mustJSON(t, s.Document()) != `{"elements":{},"root":""}` || s.Size() != 25 || s.SpecVersion() != 0 {
			t.Fatalf("refused call left %s (size %d), version %d", mustJSON(t, s.Document()), s.Size(), s.SpecVersion())
		}
		// A replacement that shrinks the spec is fine at the limit.
		if applied, _, err := s.Apply([]any{small}); err != nil || applied != 1 {
			t.Fatalf("small patch: %v", err)
		}
	})
	t.Run("copy is checked before copying", func(t *testing.T) {
		s := Stream{Limits: Limits{MaxBytes: 200}}
		if _, _, err := s.Apply([]any{map[string]any{"op": "add", "path": "/state", "value": strings.Repeat("y", 70)}}); err != nil {
			t.Fatal(err)
		}
		cp := func(to string) any { return map[string]any{"op": "copy", "from": "/state", "path": to} }
		_, _, err := s.Apply([]any{cp("/s2"), cp("/s3")})
		if want := "jsonrender: patch 1 (copy /s3) would make the spec 262 bytes, over the limit of 200 (MaxBytes); no patch of the call was applied"; err == nil || err.Error() != want {
			t.Fatalf("Apply = %v\nwant %s", err, want)
		}
	})
	t.Run("elements", func(t *testing.T) {
		s := Stream{Limits: Limits{MaxElements: 2}}
		add := func(k string) any {
			return map[string]any{"op": "add", "path": "/elements/" + k, "value": map[string]any{"type": "Card"}}
		}
		_, _, err := s.Apply([]any{add("a"), add("b"), add("c")})
		if want := "jsonrender: patch 2 (add /elements/c) would give the spec 3 elements, over the limit of 2 (MaxElements); no patch of the call was applied"; err == nil || err.Error() != want {
			t.Fatalf("Apply = %v\nwant %s", err, want)
		}
		if s.ElementCount() != 0 {
			t.Fatal("refused call kept elements")
		}
		if _, _, err := s.Apply([]any{add("a"), add("b"), map[string]any{"op": "remove", "path": "/elements/a"}, add("c")}); err != nil {
			t.Fatalf("staying within the limit: %v", err)
		}
	})
	t.Run("element limit cannot exceed MaxElements", func(t *testing.T) {
		if got := (Limits{MaxElements: MaxElements + 5}).withDefaults().MaxElements; got != MaxElements {
			t.Fatalf("MaxElements raised to %d", got)
		}
	})
}

// TestStreamCloseAndReopen checks that Close validates, that an invalid
// spec keeps the stream open, and that a later call reopens a closed one.
func TestStreamCloseAndReopen(t *testing.T) {
	var s Stream
	if _, err := s.Close(); err == nil || err.Error() != "Invalid json-render spec: root: must name an element" {
		t.Fatalf("closing the empty spec: %v", err)
	}
	s.Apply([]any{`{"op":"replace","path":"/root","value":"c"}` + "\n" +
		`{"op":"add","path":"/elements/c","value":{"type":"Crad","children":["t"]}}`})
	_, err := s.Close()
	if want := `Invalid json-render spec: elements.c.type: unknown component "Crad" (did you mean Card?); elements.c.children.0: element "t" does not exist`; err == nil || err.Error() != want {
		t.Fatalf("Close = %v\nwant %s", err, want)
	}
	if s.Status() != StatusOpen {
		t.Fatal("an invalid spec closed the stream")
	}
	s.Apply([]any{
		map[string]any{"op": "replace", "path": "/elements/c/type", "value": "Card"},
		map[string]any{"op": "add", "path": "/elements/t", "value": map[string]any{"type": "Text", "props": map[string]any{"text": "hi"}}},
	})
	spec, err := s.Close()
	if err != nil || s.Status() != StatusClosed || spec.Summary().ElementCount != 2 {
		t.Fatalf("Close = %v, %v, status %s", spec, err, s.Status())
	}
	if _, err := s.Close(); err != nil || s.Status() != StatusClosed {
		t.Fatalf("closing twice: %v", err)
	}
	if _, _, err := s.Apply(nil); err != nil || s.Status() != StatusOpen || s.SpecVersion() != 3 {
		t.Fatalf("a call after Close: %v, status %s, version %d", err, s.Status(), s.SpecVersion())
	}
}

// TestStreamDoesNotShare checks that the stream copies patch values in
// and documents out.
func TestStreamDoesNotShare(t *testing.T) {
	var s Stream
	value := map[string]any{"type": "Card", "props": map[string]any{"title": "a"}}
	s.Apply([]any{map[string]any{"op": "add", "path": "/elements/x", "value": value}})
	value["props"].(map[string]any)["title"] = "changed"
	doc := s.Document()
	doc["elements"].(map[string]any)["x"].(map[string]any)["type"] = "Changed"
	if got := mustJSON(t, s.Document()); got != `{"elements":{"x":{"props":{"title":"a"},"type":"Card"}},"root":""}` {
		t.Fatalf("stream shares values: %s", got)
	}
}

// TestResumeStream checks going on from a stored spec.
func TestResumeStream(t *testing.T) {
	stored := map[string]any{"root": "a", "elements": map[string]any{"a": map[string]any{"type": "Text", "props": map[string]any{"text": "x"}}}}
	s, err := ResumeStream(stored, 7, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if s.SpecVersion() != 7 || s.Status() != StatusOpen || s.Size() != len(mustJSON(t, stored)) {
		t.Fatalf("resumed at version %d, %s, size %d", s.SpecVersion(), s.Status(), s.Size())
	}
	s.Apply([]any{map[string]any{"op": "replace", "path": "/elements/a/props/text", "value": "y"}})
	if stored["elements"].(map[string]any)["a"].(map[string]any)["props"].(map[string]any)["text"] != "x" {
		t.Fatal("ResumeStream shares the stored spec")
	}
	if s.SpecVersion() != 8 {
		t.Fatalf("version %d", s.SpecVersion())
	}
	raw, _ := json.Marshal(stored)
	if _, err := ResumeStream(json.RawMessage(raw), 0, Limits{}); err != nil {
		t.Fatalf("resuming from JSON text: %v", err)
	}
	for _, tt := range []struct {
		spec   any
		limits Limits
		want   string
		is     error
	}{
		{[]any{1}, Limits{}, "jsonrender: a stream's spec must be an object, not a array", nil},
		{map[string]any{"elements": map[string]any{"x": map[string]any{"constructor": 1}}}, Limits{}, `jsonrender: the spec has the forbidden key "constructor" at /elements/x/constructor`, ErrForbiddenKey},
		{stored, Limits{MaxBytes: 10}, "jsonrender: the spec is 66 bytes, over the limit of 10 (MaxBytes)", ErrLimit},
		{stored, Limits{MaxElements: 1, MaxBytes: 1000}, "", nil},
		{map[string]any{"elements": map[string]any{"a": 1, "b": 2}}, Limits{MaxElements: 1}, "jsonrender: the spec has 2 elements, over the limit of 1 (MaxElements)", ErrLimit},
	} {
		_, err := ResumeStream(tt.spec, 0, tt.limits)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ResumeStream(%v): %v", tt.spec, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want || tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("ResumeStream(%v) = %v, want %s", tt.spec, err, tt.want)
		}
	}
}

// TestStreamConcurrent applies from several goroutines at once (run with
// -race) and checks nothing was lost.
func TestStreamConcurrent(t *testing.T) {
	var s Stream
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				key := fmt.Sprintf("g%d-%d", g, i)
				s.Apply([]any{map[string]any{"op": "add", "path": "/elements/" + key, "value": map[string]any{"type": "Separator"}}})
				_ = s.Document()
				_ = s.Status()
			}
		}()
	}
	wg.Wait()
	if s.ElementCount() != 200 || s.SpecVersion() != 200 || s.Size() != len(mustJSON(t, s.Document())) {
		t.Fatalf("%d elements, version %d", s.ElementCount(), s.SpecVersion())
	}
}

// TestStreamPatchForms checks the forms a patch object may take.
func TestStreamPatchForms(t *testing.T) {
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value,omitempty"`
	}
	var s Stream
	applied, skipped, err := s.Apply([]any{
		json.RawMessage(`{"op":"add","path":"/elements/a","value":{"type":"Separator"}}`),
		[]byte(`{"op":"add","path":"/elements/b","value":{"type":"Separator"}}`),
		op{Op: "replace", Path: "/root", Value: "a"},
		&op{Op: "remove", Path: "/elements/b"},
		json.RawMessage(`{"op":`),
		nil,
	})
	if err != nil || applied != 4 || skipped != 2 {
		t.Fatalf("Apply = %d, %d, %v; want 4, 2, nil", applied, skipped, err)
	}
	if got := mustJSON(t, s.Document()); got != `{"elements":{"a":{"type":"Separator"}},"root":"a"}` {
		t.Fatalf("document %s", got)
	}
	if _, _, err := s.Apply([]any{json.RawMessage(`{"op":"add","path":"/x","value":{"__proto__":{}}}`)}); !errors.Is(err, ErrForbiddenKey) {
		t.Fatalf("forbidden key in JSON text: %v", err)
	}
}
