package diagram

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sent decodes the elements string of an open input.
func sent(t *testing.T, in OpenInput) []map[string]any {
	t.Helper()
	s, ok := in.ToolArguments["elements"].(string)
	if !ok || len(in.ToolArguments) != 1 {
		t.Fatalf("tool arguments = %#v, want only an elements string", in.ToolArguments)
	}
	var els []map[string]any
	if err := json.Unmarshal([]byte(s), &els); err != nil {
		t.Fatalf("elements %q: %v", s, err)
	}
	return els
}

func TestBuildOpen(t *testing.T) {
	in, err := BuildOpen(`[{"type":"rectangle","id":"r","x":0,"y":0,"width":240,"height":140,"label":"A <b>"}]`, "")
	if err != nil {
		t.Fatal(err)
	}
	if in.ServerURL != "https://mcp.excalidraw.com/mcp" || in.ServerName != "Excalidraw" || in.ToolName != "create_view" {
		t.Errorf("open input = %+v", in)
	}
	if s := in.ToolArguments["elements"].(string); !strings.Contains(s, `"A <b>"`) || strings.HasSuffix(s, "\n") {
		t.Errorf("elements string %q: HTML escaped or trailing newline", s)
	}
	want := []map[string]any{
		cam(-80, -80, 400, 300),
		{"type": "rectangle", "id": "r", "x": 0.0, "y": 0.0, "width": 240.0, "height": 140.0, "label": map[string]any{"text": "A <b>"}},
	}
	if got := sent(t, in); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %v\nwant %v", got, want)
	}
}

func TestBuildOpenElements(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want []map[string]any
	}{
		{"default rectangle framed", `[{"type":"delete","ids":"x"}]`, []map[string]any{
			cam(20, 10, 400, 300), {"type": "delete", "ids": "x"}, DefaultElement(),
		}},
		{"existing camera kept", []any{map[string]any{"type": "cameraUpdate", "x": 5.0, "y": 5.0, "width": 1600.0, "height": 1200.0}, map[string]any{"type": "ellipse", "x": 0.0, "y": 0.0}},
			[]map[string]any{cam(5, 5, 1600, 1200), {"type": "ellipse", "x": 0.0, "y": 0.0}}},
		{"restore reopened", `[{"type":"restoreCheckpoint","id":"pmx-n"},{"type":"cameraUpdate","x":0,"y":0,"width":800,"height":600}]`,
			[]map[string]any{{"type": "restoreCheckpoint", "id": "pmx-n"}, cam(0, 0, 800, 600)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := BuildOpen(tt.in, "")
			if err != nil {
				t.Fatal(err)
			}
			got := sent(t, in)
			want, _ := json.Marshal(tt.want)
			var w []map[string]any
			json.Unmarshal(want, &w)
			if !reflect.DeepEqual(got, w) {
				t.Errorf("sent %v\nwant %v", got, w)
			}
		})
	}
}

func TestBuildOpenServerURL(t *testing.T) {
	tests := []struct {
		url, want string
		bad       bool
	}{
		{"", DefaultServerURL, false},
		{"   ", DefaultServerURL, false},
		{"http://localhost:3000/mcp", "http://localhost:3000/mcp", false},
		{" https://example.com/mcp ", "https://example.com/mcp", false},
		{"ftp://example.com/mcp", "", true},
		{"example.com/mcp", "", true},
		{"https://", "", true},
		{"file:///etc/passwd", "", true},
		{"javascript:alert(1)", "", true},
		{"http://[::1", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			in, err := BuildOpen(`[{"type":"text","text":"x"}]`, tt.url)
			if tt.bad {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Field != "serverURL" || !strings.HasPrefix(err.Error(), "serverURL ") {
					t.Fatalf("err = %v, want an InputError naming serverURL", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if in.ServerURL != tt.want {
				t.Errorf("ServerURL = %q, want %q", in.ServerURL, tt.want)
			}
		})
	}
}

func TestBuildOpenErrors(t *testing.T) {
	for _, v := range []any{nil, "", "[]", "{", `{"a":1}`, []any{"x"}, 1.0} {
		_, err := BuildOpen(v, "")
		var ie *InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(ie.Field, "elements") {
			t.Errorf("BuildOpen(%#v) err = %v, want an elements InputError", v, err)
		}
	}
	// The elements error comes first, even with a bad URL too.
	if _, err := BuildOpen("", "ftp://x"); err == nil || !strings.HasPrefix(err.Error(), "elements") {
		t.Errorf("err = %v, want the elements error first", err)
	}
	// Go callers can pass what JSON cannot hold.
	_, err := BuildOpen([]map[string]any{{"type": "rectangle", "customData": make(chan int)}}, "")
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "elements" {
		t.Errorf("err = %v, want an elements InputError", err)
	}
}
