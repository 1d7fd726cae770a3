package mcpappfixture_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/content/mcpapp"
	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
)

func TestMain(m *testing.M) {
	mcpappfixture.MaybeRunChild()
	m.Run()
}

// TestCounterHTML keeps the ids and messages a browser test elsewhere relies on.
func TestCounterHTML(t *testing.T) {
	h := mcpappfixture.CounterHTML()
	for _, want := range []string{
		`id="count"`, `id="inc"`, `id="status"`,
		`"ui/initialize"`, `"ui/notifications/initialized"`, `"ui/notifications/tool-input"`,
		`"ui/notifications/tool-result"`, `"tools/call"`, `name: "increment"`, `"ui/update-model-context"`,
		`name: "fixture-counter", version: "1.0.0"`, `protocolVersion: "2025-06-18"`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("counter.html lacks %s", want)
		}
	}
	if strings.Contains(h, "src=") || strings.Contains(h, "href=") {
		t.Error("counter.html loads something from outside")
	}
}

// TestToolsDeclareVisibility checks the tool metadata over both transports.
func TestToolsDeclareVisibility(t *testing.T) {
	for name, tr := range map[string]mcpapp.Transport{
		"stdio": mcpappfixture.StdioTransport(),
		"http":  {Type: "http", URL: mcpappfixture.StartHTTP(t)},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := mcpapp.Dial(ctx, tr, mcpapp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			raw, err := c.ListTools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var list struct {
				Tools []struct {
					Name  string `json:"name"`
					Title string `json:"title"`
					Meta  struct {
						UI struct {
							ResourceURI string   `json:"resourceUri"`
							Visibility  []string `json:"visibility"`
						} `json:"ui"`
						Flat string `json:"ui/resourceUri"`
					} `json:"_meta"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(raw, &list); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, tool := range list.Tools {
				got[tool.Name] = tool.Title + "|" + tool.Meta.UI.ResourceURI + "|" + strings.Join(tool.Meta.UI.Visibility, ",") + "|" + tool.Meta.Flat
			}
			u := mcpappfixture.ResourceURI
			want := map[string]string{
				"show_counter":    "Counter App|" + u + "||" + u,
				"create_view":     "Diagram App|||" + u,
				"plain_tool":      "|||",
				"whoami":          "|||",
				"increment":       "||app|",
				"save_checkpoint": "||app|",
				"read_checkpoint": "||app|",
			}
			if len(got) != len(want) {
				t.Errorf("tools %v", got)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			res, err := c.CallTool(ctx, "show_counter", map[string]any{"start": 5})
			if err != nil || !strings.Contains(string(res), `"text":"Counter ready at 5."`) || !strings.Contains(string(res), `"count":5`) {
				t.Errorf("show_counter{start:5} = %s, %v", res, err)
			}
		})
	}
}
