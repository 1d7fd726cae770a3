package ax

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// t0 is the test clock's start: 2026-11-30T06:43:02.309Z.
var t0 = time.Date(2026, 11, 30, 6, 43, 2, 309_000_000, time.UTC)

const ts0 = "2026-11-30T06:43:02.309Z"

// ms36 is t0's milliseconds in base 36, the middle part of ids.
var ms36 = strconv.FormatInt(t0.UnixMilli(), 36)

// testClock is a deterministic Env: a settable clock and a counter for the
// random id tail ("000001", "000002", ...).
type testClock struct {
	now time.Time
	n   int
}

func newTestEnv() (*canvas.Env, *testClock) {
	c := &testClock{now: t0}
	return &canvas.Env{
		Now: func() time.Time { return c.now },
		Rand: func(k int) string {
			c.n++
			s := strings.Repeat("0", k) + strconv.FormatInt(int64(c.n), 36)
			return s[len(s)-k:]
		},
	}, c
}

func testEnv() *canvas.Env {
	env, _ := newTestEnv()
	return env
}

// id is the n-th id the test env makes with prefix at t0.
func id(prefix string, n int) string {
	s := "00000" + strconv.FormatInt(int64(n), 36)
	return prefix + "-" + ms36 + "-" + s[len(s)-6:]
}

// testNode describes one node of a fixture canvas.
type testNode struct {
	id, typ string
	data    map[string]any
}

// canvasOf builds a canvas holding nodes.
func canvasOf(nodes ...testNode) *canvas.State {
	st := canvas.NewState()
	for i, n := range nodes {
		data := n.data
		if data == nil {
			data = map[string]any{}
		}
		st.Nodes = st.Nodes.Put(&canvas.Node{ID: n.id, Type: n.typ, Data: data, Ord: uint64(i + 1),
			Size: canvas.Size{Width: 100, Height: 100}})
	}
	return st
}

// stdNodes is a canvas with one node of several types.
func stdNodes() *canvas.State {
	return canvasOf(
		testNode{id: "N", typ: "markdown", data: map[string]any{"title": "Auth module"}},
		testNode{id: "F", typ: "file"},
		testNode{id: "S", typ: "status"},
	)
}

// decode unmarshals js into a new T, as the surfaces decode inputs.
func decode[T any](t testing.TB, js string) *T {
	t.Helper()
	v := new(T)
	if err := json.Unmarshal([]byte(js), v); err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return v
}

// jsonOf renders v as JSON.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// sp returns a pointer to s.
func sp(s string) *string { return &s }

// deref renders a *string as its value or "<nil>".
func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// wantErr checks a *messages.Error's status and message.
func wantErr(t testing.TB, err *messages.Error, status int, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %d %q, got none", status, msg)
	}
	if err.Status != status || err.Message != msg {
		t.Fatalf("error = %d %q, want %d %q", err.Status, err.Message, status, msg)
	}
}

func noErr(t testing.TB, err *messages.Error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %d %s", err.Status, err.Message)
	}
}

// unchanged fails when v's JSON differs from before (argument mutation).
func unchanged(t testing.TB, before string, v any) {
	t.Helper()
	if after := jsonOf(t, v); after != before {
		t.Fatalf("argument was modified:\nbefore %s\nafter  %s", before, after)
	}
}

func eqStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
