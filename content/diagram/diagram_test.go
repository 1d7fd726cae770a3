package diagram

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNormalizeElements(t *testing.T) {
	cases := []struct {
		name    string
		in      any
		wantErr string
		check   func(t *testing.T, els []map[string]any)
	}{
		{name: "not a list", in: 42, wantErr: "elements must be an array"},
		{name: "empty string", in: "  ", wantErr: "elements is empty"},
		{name: "empty array", in: []any{}, wantErr: "elements is empty"},
		{name: "empty JSON array", in: "[]", wantErr: "elements is empty"},
		{name: "invalid JSON", in: "[{", wantErr: "must be a JSON array"},
		{name: "JSON object, not array", in: `{"type":"rectangle"}`, wantErr: "must be a JSON array"},
		{name: "entry not an object", in: []any{map[string]any{"type": "rectangle"}, "x"}, wantErr: "elements[1] must be an object"},
		{name: "nothing drawable gets the default", in: []any{map[string]any{"type": "cameraUpdate"}},
			check: func(t *testing.T, els []map[string]any) {
				if len(els) != 2 || els[1]["id"] != "pmx-start" || els[1]["label"].(map[string]any)["text"] != "PMX Canvas" {
					t.Errorf("got %v", els)
				}
			}},
		{name: "bound text becomes the label", in: `[{"type":"rectangle","id":"r"},{"type":"text","containerId":"r","text":"Hi","fontSize":20}]`,
			check: func(t *testing.T, els []map[string]any) {
				if len(els) != 1 || els[0]["label"].(map[string]any)["text"] != "Hi" || els[0]["label"].(map[string]any)["fontSize"] != 20.0 {
					t.Errorf("got %v", els)
				}
			}},
		{name: "free text stays", in: `[{"type":"text","text":"Free"},{"type":"text","containerId":"nope","text":"Orphan"}]`,
			check: func(t *testing.T, els []map[string]any) {
				if len(els) != 2 {
					t.Errorf("got %v", els)
				}
			}},
		{name: "unknown fields kept", in: []any{map[string]any{"type": "ellipse", "strokeColor": "#f00"}},
			check: func(t *testing.T, els []map[string]any) {
				if els[0]["strokeColor"] != "#f00" {
					t.Errorf("got %v", els)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			els, err := NormalizeElements(c.in)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, els)
		})
	}
}

func TestCamera(t *testing.T) {
	cases := []struct {
		w, h       float64
		camW, camH float64
	}{
		{100, 50, 400, 300},  // padded 260×210
		{240, 140, 400, 300}, // padded 400×300: the threshold fits
		{241, 100, 600, 450}, // 401 wide: the next size
		{600, 300, 800, 600}, // pad 108: 816 wide → 1200×900? no: 600+216=816 > 800
		{2000, 100, 0, 0},    // beyond the largest: 4:3 of the padded box
	}
	cases[3].camW, cases[3].camH = 1200, 900
	for _, c := range cases {
		cam := Camera([]map[string]any{{"type": "rectangle", "x": 10.0, "y": 20.0, "width": c.w, "height": c.h}})
		w, h := cam["width"].(float64), cam["height"].(float64)
		if c.camW != 0 && (w != c.camW || h != c.camH) {
			t.Errorf("%v×%v: camera %v×%v, want %v×%v", c.w, c.h, w, h, c.camW, c.camH)
		}
		if c.camW == 0 && (w < c.w+2*0.18*c.w || w*3 != h*4) {
			t.Errorf("%v×%v: camera %v×%v is not a padded 4:3 box", c.w, c.h, w, h)
		}
		// Centred on the drawing.
		if cx := cam["x"].(float64) + w/2; cx != 10+c.w/2 {
			t.Errorf("%v×%v: centre x %v", c.w, c.h, cx)
		}
	}
}

func TestWithCameraKeepsAGivenOne(t *testing.T) {
	els := []map[string]any{{"type": "cameraUpdate", "width": 1.0}, {"type": "rectangle"}}
	if got := WithCamera(els); len(got) != 2 {
		t.Errorf("a given camera was replaced: %v", got)
	}
	if got := WithCamera([]map[string]any{{"type": "rectangle", "width": 10.0, "height": 10.0}}); got[0]["type"] != "cameraUpdate" {
		t.Errorf("no camera prepended: %v", got)
	}
}

func TestCheckpointID(t *testing.T) {
	for seed, want := range map[string]string{
		"ext-app-abc":  "pmx-ext-app-abc",
		"a b/c":        "pmx-a-b-c",
		"":             "pmx-diagram",
		"///":          "pmx-diagram",
		"Ünïcode_ok-1": "pmx-n-code_ok-1",
	} {
		if got := CheckpointID(seed); got != want {
			t.Errorf("CheckpointID(%q) = %q, want %q", seed, got, want)
		}
	}
	if got := CheckpointID(strings.Repeat("x", 100)); len(got) != 4+64 {
		t.Errorf("long seed: %d chars", len(got))
	}
}

func TestBuildOpen(t *testing.T) {
	o, err := BuildOpen(`[{"type":"diamond","x":0,"y":0,"width":10,"height":10}]`, "")
	if err != nil || o.ServerURL != DefaultServerURL || o.ToolName != "create_view" || o.ServerName != "Excalidraw" {
		t.Fatalf("%+v %v", o, err)
	}
	var els []map[string]any
	if err := json.Unmarshal([]byte(o.ToolArguments["elements"].(string)), &els); err != nil || els[0]["type"] != "cameraUpdate" || els[1]["type"] != "diamond" {
		t.Errorf("elements %v %v", els, err)
	}
	if o, err := BuildOpen([]any{map[string]any{"type": "line"}}, "http://127.0.0.1:9/mcp"); err != nil || o.ServerURL != "http://127.0.0.1:9/mcp" {
		t.Errorf("custom URL: %+v %v", o, err)
	}
	if _, err := BuildOpen([]any{map[string]any{"type": "line"}}, "ftp://x"); err == nil || !strings.Contains(err.Error(), "serverURL") {
		t.Errorf("bad URL: %v", err)
	}
	if r := RestoreElements("pmx-a", nil); len(r) != 2 || r[0]["type"] != "restoreCheckpoint" || r[0]["id"] != "pmx-a" || r[1]["type"] != "cameraUpdate" {
		t.Errorf("RestoreElements: %v", r)
	}
}

func FuzzNormalizeElements(f *testing.F) {
	for _, s := range []string{`[]`, `[{"type":"rectangle","id":"a"},{"type":"text","containerId":"a","text":"x"}]`, `{`, `[1]`, `"x"`, `[{"type":"arrow","points":[[0,0],[5,"x"]]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, in := range []any{s, func() any { var v any; _ = json.Unmarshal([]byte(s), &v); return v }()} {
			els, err := NormalizeElements(in)
			if err == nil && len(els) == 0 {
				t.Fatalf("no error and no elements for %q", s)
			}
			if err == nil {
				_ = Camera(els)
			}
		}
	})
}
