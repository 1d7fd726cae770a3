package framedocs

import (
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	s := New()
	id, err := s.Put("<p>x</p>", "allow-forms allow-scripts allow-forms")
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := s.Get(id); !ok || d.HTML != "<p>x</p>" || d.Sandbox != "allow-forms allow-scripts" {
		t.Errorf("Get = %+v %v", d, ok)
	}
	if d, _ := s.Get(mustPut(t, s, "<p>y</p>", "")); d.Sandbox != "allow-scripts" {
		t.Errorf("default sandbox %q", d.Sandbox)
	}
	for _, tc := range []struct {
		html, sandbox string
		want          error
	}{
		{"  ", "", ErrEmpty},
		{strings.Repeat("x", MaxBytes+1), "", ErrTooLarge},
		{"<p>", "allow-same-origin", ErrBadTokens},
	} {
		if _, err := s.Put(tc.html, tc.sandbox); err != tc.want {
			t.Errorf("Put(%d bytes, %q) = %v, want %v", len(tc.html), tc.sandbox, err, tc.want)
		}
	}
	for i := 0; i < MaxDocs+5; i++ {
		mustPut(t, s, "<p>n</p>", "")
	}
	if _, ok := s.Get(id); ok || len(s.docs) != MaxDocs {
		t.Errorf("the store kept %d documents and the oldest: %v", len(s.docs), ok)
	}
}

func mustPut(t *testing.T, s *Store, html, sb string) string {
	t.Helper()
	id, err := s.Put(html, sb)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
