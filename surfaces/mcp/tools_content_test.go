package mcpapi_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// Arguments are validated before the availability check, as the SDK
// validates before a handler runs.
func TestLaterToolsValidateTheirArguments(t *testing.T) {
	h := newHarness(t)
	cases := []struct{ tool, args, want string }{
		{"canvas_render", `{"action":"draw"}`, `action: expected one of "describe-schema"|"validate"|"add-json-render"|"stream-json-render"|"add-graph"`},
		{"canvas_app", `{}`, "action: required"},
	}
	for _, c := range cases {
		h.fails(c.tool, c.args, "MCP error -32602: Input validation error: Invalid arguments for tool "+c.tool+": "+c.want)
	}
	// spec.validate's type is checked by the operation, with the message
	// every surface gives.
	h.fails("canvas_validate_spec", `{"type":"yaml"}`, `Validation type must be "json-render", "graph", or "html-primitive".`)
	h.fails("canvas_render", `{"action":"validate","type":"yaml"}`, `Validation type must be "json-render", "graph", or "html-primitive".`)
	// A dropped field of the wrong type is removed, not refused.
	h.fails("canvas_add_json_render_node", `{"spec":{},"x":"left"}`, `invalid input for jsonrender.add: field "x" must be a number, got string`)
}

// The advertised fields of the later tools and the webview tools, in the reference's notation
// (mcp.md Appendix A): name, "?" when optional, type, "~" when a wrong-typed
// value is dropped.
var laterSchemas = map[string]string{
	"canvas_add_json_render_node":    `title?: string; spec: any; x?: number; y?: number; width?: number; height?: number; strictSize?: boolean`,
	"canvas_stream_json_render_node": `nodeId?: string; title?: string; patches?: (string | record<string,any>)[]; done?: boolean; x?: number; y?: number; width?: number; nodeHeight?: number; strictSize?: boolean`,
	"canvas_add_graph_node":          `title?: string; graphType: string; data: record<string,any>[]; xKey?: string; yKey?: string; zKey?: string; nameKey?: string; valueKey?: string; axisKey?: string; metrics?: string[]; series?: string[]; barKey?: string; lineKey?: string; aggregate?: enum(sum|count|avg); color?: string; colorBy?: enum(series|category|value|none); highlight?: number | enum(max|min) | null; barColor?: string; lineColor?: string; labelKey?: string; targetKey?: string; rangesKey?: string; beforeKey?: string; afterKey?: string; beforeLabel?: string; afterLabel?: string; sort?: enum(asc|desc|none); fill?: boolean; showEndDot?: boolean; showMinMax?: boolean; showValue?: boolean; colorByDirection?: boolean; height?: number; showLegend?: boolean; showLabels?: boolean; x?: number; y?: number; width?: number; nodeHeight?: number; heightPx?: number; strictSize?: boolean`,
	"canvas_describe_schema":         ``,
	// spec.validate's own fields: checked by the operation (no "~"), and
	// data is any (graph rows, or an html-primitive's object), as HTTP
	// takes it.
	"canvas_validate_spec":        `type: enum(json-render|graph|html-primitive); spec?: {root: string, elements: record<string,any>, state?: record<string,any>} | {type: string, props?: record<string,any>, children?: string[]}; kind?: string; primitive?: string; primitiveData?: record<string,any>; data?: any; title?: string; graphType?: string; xKey?: string; yKey?: string; zKey?: string; nameKey?: string; valueKey?: string; axisKey?: string; metrics?: string[]; series?: string[]; barKey?: string; lineKey?: string; aggregate?: enum(sum|count|avg); color?: string; colorBy?: enum(series|category|value|none); highlight?: number | enum(max|min) | null; barColor?: string; lineColor?: string; labelKey?: string; targetKey?: string; rangesKey?: string; beforeKey?: string; afterKey?: string; beforeLabel?: string; afterLabel?: string; sort?: enum(asc|desc|none); fill?: boolean; showEndDot?: boolean; showMinMax?: boolean; showValue?: boolean; colorByDirection?: boolean; height?: number`,
	"canvas_webview_status":       ``,
	"canvas_webview_start":        `backend?: enum(chrome|webkit); width?: number; height?: number; chromePath?: string; chromeArgv?: string[]; dataStoreDir?: string`,
	"canvas_webview_stop":         ``,
	"canvas_resize":               `width: number; height: number`,
	"canvas_evaluate":             `expression?: string; script?: string`,
	"canvas_open_mcp_app":         `toolName: string; serverName?: string; toolArguments?: record<string,any>; nodeId?: string; title?: string; x?: number; y?: number; width?: number; height?: number; timeoutMs?: number; transport: {type: "stdio", command: string, args?: string[], cwd?: string, env?: record<string,string>} | {type: "http", url: string, headers?: record<string,string>}`,
	"canvas_add_diagram":          `elements: string | record<string,any>[]; nodeId?: string; title?: string; x?: number; y?: number; width?: number; height?: number; timeoutMs?: number`,
	"canvas_build_web_artifact":   `title: string; appTsx: string; indexCss?: string; mainTsx?: string; indexHtml?: string; files?: record<string,string>; deps?: string[]; projectPath?: string; outputPath?: string; openInCanvas?: boolean; includeLogs?: boolean; initScriptPath?: string; bundleScriptPath?: string; timeoutMs?: number`,
	"canvas_render":               `action: enum(describe-schema|validate|add-json-render|stream-json-render|add-graph); type?: enum(json-render|graph|html-primitive); spec?: any; kind?: string; primitive?: string; primitiveData?: record<string,any>; data?: any; title?: string ~; graphType?: string ~; xKey?: string ~; yKey?: string ~; zKey?: string ~; nameKey?: string ~; valueKey?: string ~; axisKey?: string ~; metrics?: string[] ~; series?: string[] ~; barKey?: string ~; lineKey?: string ~; aggregate?: enum(sum|count|avg) ~; color?: string ~; colorBy?: enum(series|category|value|none) ~; highlight?: number | enum(max|min) | null ~; barColor?: string ~; lineColor?: string ~; labelKey?: string ~; targetKey?: string ~; rangesKey?: string ~; beforeKey?: string ~; afterKey?: string ~; beforeLabel?: string ~; afterLabel?: string ~; sort?: enum(asc|desc|none) ~; fill?: boolean ~; showEndDot?: boolean ~; showMinMax?: boolean ~; showValue?: boolean ~; colorByDirection?: boolean ~; height?: number ~; x?: number ~; y?: number ~; width?: number ~; strictSize?: boolean ~; nodeId?: string ~; patches?: (string | record<string,any>)[]; done?: boolean ~; nodeHeight?: number ~; showLegend?: boolean ~; showLabels?: boolean ~; heightPx?: number ~`,
	"canvas_app":                  `action: enum(open-mcp-app|diagram|build-artifact); toolName?: string; serverName?: string; toolArguments?: record<string,any>; nodeId?: string; title?: string; x?: number; y?: number; width?: number; height?: number; timeoutMs?: number; transport?: {type: "stdio", command: string, args?: string[], cwd?: string, env?: record<string,string>} | {type: "http", url: string, headers?: record<string,string>}; elements?: string | record<string,any>[]; appTsx?: string; indexCss?: string; mainTsx?: string; indexHtml?: string; files?: record<string,string>; deps?: string[]; projectPath?: string; outputPath?: string; openInCanvas?: boolean; includeLogs?: boolean; initScriptPath?: string; bundleScriptPath?: string`,
	"canvas_webview":              `action: enum(status|start|stop|resize|evaluate); backend?: enum(chrome|webkit); width?: number; height?: number; chromePath?: string; chromeArgv?: string[]; dataStoreDir?: string; expression?: string; script?: string`,
	"canvas_add_html_primitive":   `kind: string; title?: string; data?: record<string,any>; x?: number; y?: number; width?: number; height?: number; strictSize?: boolean; full?: boolean; verbose?: boolean`,
	"canvas_refresh_webpage_node": `id: string; url?: string`,
	"canvas_screenshot":           `format?: enum(png|jpeg|webp); quality?: number`,
}

// notation renders a property schema in the appendix's notation.
func notation(s mcpapi.Obj) string {
	if alts, ok := s.Get("anyOf"); ok {
		var parts []string
		for _, a := range alts.([]mcpapi.Obj) {
			parts = append(parts, notation(a))
		}
		return strings.Join(parts, " | ")
	}
	typ, ok := s.Get("type")
	if !ok {
		return "any"
	}
	switch typ {
	case "string":
		if c, ok := s.Get("const"); ok {
			return fmt.Sprintf("%q", c)
		}
		if e, ok := s.Get("enum"); ok {
			if values := e.([]string); len(values) == 1 {
				return `"` + values[0] + `"` // a one-value enum is a constant
			}
			return "enum(" + strings.Join(e.([]string), "|") + ")"
		}
	case "array":
		items, _ := s.Get("items")
		item := notation(items.(mcpapi.Obj))
		if strings.Contains(item, " | ") {
			return "(" + item + ")[]"
		}
		return item + "[]"
	case "object":
		if props, ok := s.Get("properties"); ok {
			required := map[string]bool{}
			if r, ok := s.Get("required"); ok {
				for _, n := range r.([]string) {
					required[n] = true
				}
			}
			var parts []string
			for _, kv := range props.(mcpapi.Obj) {
				opt := "?"
				if required[kv.K] {
					opt = ""
				}
				parts = append(parts, kv.K+opt+": "+notation(kv.V.(mcpapi.Obj)))
			}
			return "{" + strings.Join(parts, ", ") + "}"
		}
		if ap, ok := s.Get("additionalProperties"); ok {
			return "record<string," + notation(ap.(mcpapi.Obj)) + ">"
		}
	}
	return typ.(string)
}

func TestLaterToolSchemasMatchTheReference(t *testing.T) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range laterSchemas {
		tool, ok := reg.Tool(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		composite := len(tool.Actions) > 0
		var got []string
		for _, f := range tool.Fields {
			opt := "?"
			if f.Required {
				opt = ""
			}
			s := f.Name + opt + ": " + notation(f.Schema)
			if f.Check == mcpapi.Drop {
				s += " ~"
			}
			got = append(got, s)
			if f.Check == mcpapi.Accept && notation(f.Schema) != "any" && !composite {
				t.Errorf("%s.%s is typed but unchecked", name, f.Name)
			}
			if d, _ := f.Schema.Get("description"); d == nil || d == "" {
				t.Errorf("%s.%s has no description", name, f.Name)
			}
		}
		gotText := strings.Join(got, "; ")
		if composite {
			// Shared fields of a composite are checked by the operation
			// (the framework publishes them unchecked), so only names, types
			// and required-ness are compared.
			gotText = strings.ReplaceAll(gotText, " ~", "")
			want = strings.ReplaceAll(want, " ~", "")
		}
		if gotText != want {
			t.Errorf("%s fields:\n got %s\nwant %s", name, gotText, want)
		}
	}
}

func TestLaterToolDescriptions(t *testing.T) {
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	prefixes := map[string]string{
		"canvas_add_json_render_node":    `Deprecated: use canvas_render with action "add-json-render". `,
		"canvas_stream_json_render_node": `Deprecated: use canvas_render with action "stream-json-render". `,
		"canvas_add_graph_node":          `Deprecated: use canvas_render with action "add-graph". `,
		"canvas_describe_schema":         `Deprecated: use canvas_render with action "describe-schema". `,
		"canvas_validate_spec":           `Deprecated: use canvas_render with action "validate". `,
		"canvas_webview_status":          `Deprecated: use canvas_webview with action "status". `,
		"canvas_webview_start":           `Deprecated: use canvas_webview with action "start". `,
		"canvas_webview_stop":            `Deprecated: use canvas_webview with action "stop". `,
		"canvas_resize":                  `Deprecated: use canvas_webview with action "resize". `,
		"canvas_evaluate":                `Deprecated: use canvas_webview with action "evaluate". `,
		"canvas_open_mcp_app":            `Deprecated: use canvas_app with action "open-mcp-app". `,
		"canvas_add_diagram":             `Deprecated: use canvas_app with action "diagram". `,
		"canvas_build_web_artifact":      `Deprecated: use canvas_app with action "build-artifact". `,
		"canvas_add_html_primitive":      `Deprecated: use canvas_node with action "add", type:"html", primitive:"<kind>" (and data). `,
		"canvas_refresh_webpage_node":    `Deprecated: use canvas_node with action "update" and refresh:true. `,
	}
	var names []string
	for name := range laterSchemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		tool, _ := reg.Tool(name)
		if strings.Contains(tool.Description, "Not available") {
			t.Errorf("%s runs; its description says otherwise: %q", name, tool.Description)
		}
		want, deprecated := prefixes[name]
		switch {
		case deprecated && !strings.HasPrefix(tool.Description, want):
			t.Errorf("%s description %q lacks prefix %q", name, tool.Description, want)
		case !deprecated && strings.Contains(tool.Description, "Deprecated"):
			t.Errorf("%s must not be deprecated: %q", name, tool.Description)
		}
		if strings.Count(tool.Description, "Deprecated:") > 1 {
			t.Errorf("%s has two deprecation prefixes", name)
		}
	}
	for _, name := range []string{"canvas_render", "canvas_app", "canvas_webview", "canvas_screenshot"} {
		if tool, _ := reg.Tool(name); !tool.Compact {
			t.Errorf("%s should be in the compact surface", name)
		}
	}
}
