package graphspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// decode reads an Input from JSON the way the routes do.
func decode(t testing.TB, s string) Input {
	t.Helper()
	var in Input
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return in
}

// chartProps returns the chart element's props without the data.
func chartProps(t testing.TB, r *Result) map[string]any {
	t.Helper()
	chart := r.Spec["elements"].(map[string]any)["chart"].(map[string]any)
	props := map[string]any{}
	for k, v := range chart["props"].(map[string]any) {
		if k != "data" {
			props[k] = v
		}
	}
	return props
}

func ptr[T any](v T) *T { return &v }

// TestGolden builds the example input of every type and compares the
// whole result with testdata/golden/<type>.json.
func TestGolden(t *testing.T) {
	for _, typ := range Types {
		t.Run(typ, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "examples", typ+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in := decode(t, string(src))
			if got, _, err := Resolve(in.GraphType); err != nil || got != typ {
				t.Fatalf("example graphType %q resolves to %q, %v; want %q", in.GraphType, got, err, typ)
			}
			r, err := Build(in)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", typ+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("result differs from %s (run go test -update to accept):\n%s", path, got)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		in, typ, component string
	}{
		{"", "line", "LineChart"},
		{"line", "line", "LineChart"},
		{"chart", "line", "LineChart"},
		{"graph", "line", "LineChart"},
		{"LineChart", "line", "LineChart"},
		{"bar", "bar", "BarChart"},
		{"Bar Chart", "bar", "BarChart"},
		{"pie", "pie", "PieChart"},
		{"area", "area", "AreaChart"},
		{"scatter", "scatter", "ScatterChart"},
		{"scatter-plot", "scatter", "ScatterChart"},
		{"radar", "radar", "RadarChart"},
		{"stacked-bar", "stacked-bar", "StackedBarChart"},
		{"stack", "stacked-bar", "StackedBarChart"},
		{"Stacked_Bar_Chart", "stacked-bar", "StackedBarChart"},
		{"composed", "composed", "ComposedChart"},
		{"combo", "composed", "ComposedChart"},
		{"combo chart", "composed", "ComposedChart"},
		{"sparkline", "sparkline", "Sparkline"},
		{"spark", "sparkline", "Sparkline"},
		{"dot-plot", "dot-plot", "DotPlot"},
		{"dot", "dot-plot", "DotPlot"},
		{"cleveland", "dot-plot", "DotPlot"},
		{"bullet", "bullet", "BulletChart"},
		{"BulletChart", "bullet", "BulletChart"},
		{"slopegraph", "slopegraph", "Slopegraph"},
		{"slope", "slopegraph", "Slopegraph"},
	}
	for _, tt := range tests {
		typ, comp, err := Resolve(tt.in)
		if err != nil || typ != tt.typ || comp != tt.component {
			t.Errorf("Resolve(%q) = %q, %q, %v; want %q, %q", tt.in, typ, comp, err, tt.typ, tt.component)
		}
	}
	for _, typ := range Types {
		if got, _, err := Resolve(typ); got != typ || err != nil {
			t.Errorf("Resolve(%q) = %q, %v; a canonical type must resolve to itself", typ, got, err)
		}
	}
	if len(Types) != 12 {
		t.Errorf("len(Types) = %d, want 12", len(Types))
	}
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want map[string]any // chart props without data
	}{
		{
			name: "line keys follow the source order",
			in:   decode(t, `{"data":[{"day":"Mon","b":2,"a":1}]}`),
			want: map[string]any{"xKey": "day", "yKey": "b"},
		},
		{
			name: "Go-built rows: a label column, then numeric columns",
			in:   Input{Data: []map[string]any{{"b": 2, "day": "Mon", "a": 1, "note": "x"}}},
			want: map[string]any{"xKey": "day", "yKey": "a"},
		},
		{
			name: "explicit keys win",
			in:   decode(t, `{"data":[{"day":"Mon","b":2,"a":1}],"xKey":"b","yKey":"a"}`),
			want: map[string]any{"xKey": "b", "yKey": "a"},
		},
		{
			name: "empty data falls back to literal keys",
			in:   Input{GraphType: "area", Data: []map[string]any{}},
			want: map[string]any{"xKey": "label", "yKey": "value"},
		},
		{
			name: "bar colours by series and accents the maximum",
			in:   decode(t, `{"graphType":"bar","data":[{"team":"QA","n":1}],"color":"red","aggregate":"avg"}`),
			want: map[string]any{"xKey": "team", "yKey": "n", "colorBy": "series", "highlight": "max", "color": "red", "aggregate": "avg"},
		},
		{
			name: "pie keys and legend and labels on",
			in:   decode(t, `{"graphType":"pie","data":[{"name":"a","value":1}]}`),
			want: map[string]any{"nameKey": "name", "valueKey": "value", "showLegend": true, "showLabels": true},
		},
		{
			name: "pie legend and labels off",
			in:   decode(t, `{"graphType":"pie","data":[{"k":"a","v":1}],"nameKey":"k","valueKey":"v","showLegend":false,"showLabels":false}`),
			want: map[string]any{"nameKey": "k", "valueKey": "v", "showLegend": false, "showLabels": false},
		},
		{
			name: "scatter x and y",
			in:   decode(t, `{"graphType":"scatter","data":[{"x":1,"y":2}]}`),
			want: map[string]any{"xKey": "x", "yKey": "y"},
		},
		{
			name: "radar axis from xKey, metrics the numeric columns",
			in:   decode(t, `{"graphType":"radar","data":[{"skill":"Go","note":"n","bob":3,"amy":4}],"xKey":"skill"}`),
			want: map[string]any{"axisKey": "skill", "metrics": []any{"bob", "amy"}},
		},
		{
			name: "radar axis default",
			in:   decode(t, `{"graphType":"radar","data":[{"axis":"Go","bob":3}],"showLegend":false}`),
			want: map[string]any{"axisKey": "axis", "metrics": []any{"bob"}, "showLegend": false},
		},
		{
			name: "stacked bar series the numeric columns after label",
			in:   decode(t, `{"graphType":"stacked-bar","data":[{"label":"Q1","b":1,"a":2,"owner":"x"}]}`),
			want: map[string]any{"xKey": "label", "series": []any{"b", "a"}},
		},
		{
			name: "stacked bar series leave out a numeric category",
			in:   decode(t, `{"graphType":"stacked-bar","data":[{"year":2024,"b":1,"a":2}],"xKey":"year"}`),
			want: map[string]any{"xKey": "year", "series": []any{"b", "a"}},
		},
		{
			name: "stacked bar given series",
			in:   decode(t, `{"graphType":"stacked-bar","data":[{"q":"Q1","b":1,"a":2}],"xKey":"q","series":["a"],"aggregate":"sum"}`),
			want: map[string]any{"xKey": "q", "series": []any{"a"}, "aggregate": "sum"},
		},
		{
			name: "composed bar from yKey, line the next column",
			in:   decode(t, `{"graphType":"composed","data":[{"label":"Jan","orders":5,"conv":0.1}],"yKey":"orders"}`),
			want: map[string]any{"xKey": "label", "barKey": "orders", "lineKey": "conv"},
		},
		{
			name: "composed literal defaults",
			in:   decode(t, `{"graphType":"composed","data":[{"label":"Jan","value":5,"rate":0.1}]}`),
			want: map[string]any{"xKey": "label", "barKey": "value", "lineKey": "rate"},
		},
		{
			name: "sparkline value from yKey",
			in:   decode(t, `{"graphType":"sparkline","data":[{"t":1,"v":2}],"yKey":"v","showEndDot":false}`),
			want: map[string]any{"valueKey": "v", "showEndDot": false},
		},
		{
			name: "dot plot label and value defaults",
			in:   decode(t, `{"graphType":"dot-plot","data":[{"label":"a","value":2}]}`),
			want: map[string]any{"labelKey": "label", "valueKey": "value"},
		},
		{
			name: "bullet value falls back to actual",
			in:   decode(t, `{"graphType":"bullet","data":[{"label":"a","actual":2}]}`),
			want: map[string]any{"valueKey": "actual"},
		},
		{
			name: "bullet prefers value, label from xKey",
			in:   decode(t, `{"graphType":"bullet","data":[{"k":"a","actual":2,"value":3}],"xKey":"k"}`),
			want: map[string]any{"labelKey": "k", "valueKey": "value"},
		},
		{
			name: "slopegraph defaults",
			in:   decode(t, `{"graphType":"slopegraph","data":[{"label":"a","before":1,"after":2}]}`),
			want: map[string]any{"labelKey": "label", "beforeKey": "before", "afterKey": "after"},
		},
		{
			name: "height is a chart prop",
			in:   decode(t, `{"data":[{"x":"a","y":1}],"height":320}`),
			want: map[string]any{"xKey": "x", "yKey": "y", "height": 320.0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(tt.in)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if got := chartProps(t, r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("props = %v\nwant    %v", got, tt.want)
			}
		})
	}
}

func TestTitleAndConfig(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		title string
		want  map[string]any // graphConfig without data
	}{
		{"defaults", `{"data":[]}`, "Graph", map[string]any{"title": "Graph", "graphType": "line"}},
		{"trimmed title, raw type", `{"title":"  Sales ","graphType":"Stack","data":[],"series":["a"]}`, "Sales",
			map[string]any{"title": "Sales", "graphType": "Stack", "series": []any{"a"}}},
		{"typeName alias", `{"typeName":"pie","data":[]}`, "Graph", map[string]any{"title": "Graph", "graphType": "pie"}},
		{"given options only, not inferred keys", `{"graphType":"bar","data":[{"a":"x","b":1}],"highlight":null,"height":300,"fill":false}`, "Graph",
			map[string]any{"title": "Graph", "graphType": "bar", "highlight": nil, "height": 300.0, "fill": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(decode(t, tt.in))
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if r.Title != tt.title {
				t.Errorf("Title = %q, want %q", r.Title, tt.title)
			}
			card := r.Spec["elements"].(map[string]any)["card"].(map[string]any)["props"].(map[string]any)
			if card["title"] != tt.title {
				t.Errorf("card title = %v, want %q", card["title"], tt.title)
			}
			cfg := map[string]any{}
			for k, v := range r.GraphConfig {
				if k != "data" {
					cfg[k] = v
				}
			}
			if !reflect.DeepEqual(cfg, tt.want) {
				t.Errorf("graphConfig = %v\nwant          %v", cfg, tt.want)
			}
			if !reflect.DeepEqual(r.GraphConfig["data"], chartData(r)) {
				t.Errorf("graphConfig data %v differs from the chart's %v", r.GraphConfig["data"], chartData(r))
			}
		})
	}
}

func chartData(r *Result) any {
	return r.Spec["elements"].(map[string]any)["chart"].(map[string]any)["props"].(map[string]any)["data"]
}

func TestErrors(t *testing.T) {
	many := make([]map[string]any, MaxRows+1)
	for i := range many {
		many[i] = map[string]any{"label": "x", "value": 1}
	}
	wide := map[string]any{"label": "x"}
	for i := range MaxSeries + 1 {
		wide[string(rune('a'+i%26))+strings.Repeat("z", i/26)] = i
	}
	keys33 := make([]string, MaxSeries+1)
	for i := range keys33 {
		keys33[i] = "k" + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
	}
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"unknown type", Input{GraphType: "pi", Data: []map[string]any{}},
			`Unknown graph type "pi". Use one of: line, bar, pie, area, scatter, radar, stacked-bar, composed, sparkline, dot-plot, bullet, slopegraph.`},
		{"unknown typeName", Input{TypeName: "donut", Data: []map[string]any{}},
			`Unknown graph type "donut". Use one of: line, bar, pie, area, scatter, radar, stacked-bar, composed, sparkline, dot-plot, bullet, slopegraph.`},
		{"no data", Input{GraphType: "bar"}, "Graph validation requires a data array."},
		{"too many rows", Input{Data: many}, "Graph data has 10001 rows; the limit is 10000."},
		{"nil row", Input{Data: []map[string]any{{"label": "a"}, nil}}, "Graph data[1] is not an object."},
		{"key mismatch", decode(t, `{"graphType":"bar","data":[{"label":"a","value":1}],"xKey":"team","yKey":"n"}`),
			"Graph data key mismatch for BarChart: missing team, n. Available keys: label, value."},
		{"key mismatch, keys from every row", decode(t, `{"graphType":"pie","data":[{"name":"a"},{"share":1}]}`),
			"Graph data key mismatch for PieChart: missing value. Available keys: name, share."},
		{"key mismatch, no keys at all", decode(t, `{"graphType":"slope","data":[{}]}`),
			"Graph data key mismatch for Slopegraph: missing label, before, after. Available keys: (none)."},
		{"composed line key absent", decode(t, `{"graphType":"composed","data":[{"label":"a","value":1}]}`),
			"Graph data key mismatch for ComposedChart: missing rate. Available keys: label, value."},
		{"y not a number", decode(t, `{"data":[{"day":"Mon","n":1},{"day":"Tue","n":"12k"}]}`),
			`Graph data[1].n must be a number (yKey), got string "12k".`},
		{"metric not a number", decode(t, `{"graphType":"radar","data":[{"axis":"a","m":true}],"metrics":["m"]}`),
			"Graph data[0].m must be a number (metrics), got boolean true."},
		{"pie value an object", decode(t, `{"graphType":"pie","data":[{"name":"a","value":{"n":1}}]}`),
			"Graph data[0].value must be a number (valueKey), got an object."},
		{"NaN from Go", Input{GraphType: "sparkline", Data: []map[string]any{{"value": math.NaN()}}},
			"Graph data[0].value must be a finite number (valueKey), got NaN."},
		{"ranges not an array", decode(t, `{"graphType":"bullet","data":[{"value":1,"r":"wide"}],"rangesKey":"r"}`),
			`Graph data[0].r must be an array of numbers (rangesKey), got string "wide".`},
		{"ranges item not a number", decode(t, `{"graphType":"bullet","data":[{"value":1,"r":[1,"x"]}],"rangesKey":"r"}`),
			`Graph data[0].r[1] must be a number (rangesKey), got string "x".`},
		{"target not a number", decode(t, `{"graphType":"bullet","data":[{"value":1,"t":"high"}],"targetKey":"t"}`),
			`Graph data[0].t must be a number (targetKey), got string "high".`},
		{"scatter z not a number", decode(t, `{"graphType":"scatter","data":[{"x":1,"y":2,"z":"big"}],"zKey":"z"}`),
			`Graph data[0].z must be a number (zKey), got string "big".`},
		{"slope after not a number", decode(t, `{"graphType":"slope","data":[{"label":"a","before":1,"after":null},{"label":"b","before":1,"after":"2"}]}`),
			`Graph data[1].after must be a number (afterKey), got string "2".`},
		{"long string cut", decode(t, `{"graphType":"dot","data":[{"label":"a","value":"`+strings.Repeat("é", 30)+`"}]}`),
			`Graph data[0].value must be a number (valueKey), got string "` + strings.Repeat("é", 20) + `…".`},
		{"radar without numeric columns", decode(t, `{"graphType":"radar","data":[{"axis":"a","who":"b"}]}`),
			`RadarChart needs metrics: data[0] has no numeric column besides axisKey "axis". Pass metrics.`},
		{"radar without rows", decode(t, `{"graphType":"radar","data":[]}`),
			"RadarChart needs metrics: there are no rows to infer them from. Pass metrics."},
		{"stacked bar without numeric columns", decode(t, `{"graphType":"stack","data":[{"label":"a"}]}`),
			`StackedBarChart needs series: data[0] has no numeric column besides xKey "label". Pass series.`},
		{"stacked bar too wide", Input{GraphType: "stacked-bar", Data: []map[string]any{wide}},
			"StackedBarChart would draw 33 series (every numeric column of data[0]); the limit is 32. Pass series."},
		{"metrics cap", Input{GraphType: "radar", Data: []map[string]any{}, Metrics: keys33},
			"Graph metrics lists 33 keys; the limit is 32."},
		{"series empty entry", Input{GraphType: "stack", Data: []map[string]any{}, Series: []string{"a", " "}},
			"Invalid series: entry 1 is empty."},
		{"metrics duplicate", Input{GraphType: "radar", Data: []map[string]any{}, Metrics: []string{"a", "b", "a"}},
			`Invalid metrics: "a" is listed twice.`},
		{"aggregate", Input{Data: []map[string]any{}, Aggregate: "median"}, `Invalid aggregate "median". Use one of: sum, count, avg.`},
		{"colorBy", Input{Data: []map[string]any{}, ColorBy: "rainbow"}, `Invalid colorBy "rainbow". Use one of: series, category, value, none.`},
		{"sort", Input{Data: []map[string]any{}, Sort: "random"}, `Invalid sort "random". Use one of: asc, desc, none.`},
		{"highlight word", Input{Data: []map[string]any{}, Highlight: Highlight{true, "top"}},
			`Invalid highlight "top". Use "max", "min", a 0-based bar index or null.`},
		{"highlight fraction", Input{Data: []map[string]any{}, Highlight: Highlight{true, 1.5}},
			"Invalid highlight 1.5: a bar index is a whole number from 0 to 9999."},
		{"highlight negative", Input{Data: []map[string]any{}, Highlight: Highlight{true, -1}},
			"Invalid highlight -1: a bar index is a whole number from 0 to 9999."},
		{"highlight past any chart", Input{Data: []map[string]any{}, Highlight: Highlight{true, MaxRows}},
			"Invalid highlight 10000: a bar index is a whole number from 0 to 9999."},
		{"highlight other type", Input{Data: []map[string]any{}, Highlight: Highlight{true, true}},
			`Invalid highlight (boolean true). Use "max", "min", a 0-based bar index or null.`},
		{"highlight past the last bar", decode(t, `{"graphType":"bar","data":[{"a":"x","b":1},{"a":"y","b":2}],"highlight":2}`),
			"Invalid highlight 2: the chart has 2 bars, indexed 0 to 1."},
		{"height zero", Input{Data: []map[string]any{}, Height: ptr(0.0)},
			"Invalid height 0: the chart height must be a positive number of pixels."},
		{"height negative", Input{Data: []map[string]any{}, Height: ptr(-30.0)},
			"Invalid height -30: the chart height must be a positive number of pixels."},
		{"height infinite", Input{Data: []map[string]any{}, Height: ptr(math.Inf(1))},
			"Invalid height +Inf: the chart height must be a positive number of pixels."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(tt.in)
			if err == nil {
				t.Fatalf("Build succeeded with %v; want error %q", r.Spec, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
		})
	}
	if _, err := Build(Input{}); !errors.Is(err, ErrNoData) {
		t.Errorf("Build(Input{}) error = %v, want ErrNoData", err)
	}
}

func TestHighlight(t *testing.T) {
	rows := `[{"team":"a","n":1},{"team":"b","n":3},{"team":"a","n":2}]`
	tests := []struct {
		name string
		in   string
		want any // the highlight prop; nil when absent
	}{
		{"default max", `{"graphType":"bar","data":` + rows + `}`, "max"},
		{"max", `{"graphType":"bar","data":` + rows + `,"highlight":"max"}`, "max"},
		{"min", `{"graphType":"bar","data":` + rows + `,"highlight":"min"}`, "min"},
		{"index", `{"graphType":"bar","data":` + rows + `,"highlight":2}`, 2.0},
		{"index zero", `{"graphType":"bar","data":` + rows + `,"highlight":0}`, 0.0},
		{"null is no accent", `{"graphType":"bar","data":` + rows + `,"highlight":null}`, nil},
		{"only for series colouring", `{"graphType":"bar","data":` + rows + `,"colorBy":"category","highlight":"min"}`, nil},
		{"aggregated bars are not bounded by rows", `{"graphType":"bar","data":` + rows + `,"aggregate":"sum","highlight":7}`, 7.0},
		{"not a bar chart", `{"graphType":"line","data":` + rows + `,"highlight":"min"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Build(decode(t, tt.in))
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			got, ok := chartProps(t, r)["highlight"]
			if !reflect.DeepEqual(got, tt.want) || ok != (tt.want != nil) {
				t.Errorf("highlight = %v (present %v), want %v", got, ok, tt.want)
			}
		})
	}
}

func TestAggregate(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    any    // the aggregate prop; nil when absent
		wantErr string // when the input must fail
	}{
		{"line sum", `{"data":[{"d":"a","v":1},{"d":"a","v":2}],"aggregate":"sum"}`, "sum", ""},
		{"bar avg", `{"graphType":"bar","data":[{"d":"a","v":1}],"aggregate":"avg"}`, "avg", ""},
		{"area count", `{"graphType":"area","data":[{"d":"a","v":1}],"aggregate":"count"}`, "count", ""},
		{"stacked bar sum", `{"graphType":"stack","data":[{"label":"a","v":1}],"aggregate":"sum"}`, "sum", ""},
		{"count needs no numbers", `{"graphType":"bar","data":[{"d":"a","who":"amy"}],"aggregate":"count"}`, "count", ""},
		{"stacked count needs no numbers", `{"graphType":"stack","data":[{"label":"a","who":"amy"}],"series":["who"],"aggregate":"count"}`, "count", ""},
		{"sum needs numbers", `{"graphType":"bar","data":[{"d":"a","who":"amy"}],"aggregate":"sum"}`, nil,
			`Graph data[0].who must be a number (yKey), got string "amy".`},
		{"avg needs numbers", `{"data":[{"d":"a","v":"1"}],"aggregate":"avg"}`, nil,
			`Graph data[0].v must be a number (yKey), got string "1".`},
		{"pie does not aggregate", `{"graphType":"pie","data":[{"name":"a","value":1}],"aggregate":"sum"}`, nil, ""},
		{"unknown", `{"data":[],"aggregate":"max"}`, nil, `Invalid aggregate "max". Use one of: sum, count, avg.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := decode(t, tt.in)
			r, err := Build(in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			got, ok := chartProps(t, r)["aggregate"]
			if got != tt.want || ok != (tt.want != nil) {
				t.Errorf("aggregate = %v (present %v), want %v", got, ok, tt.want)
			}
			if r.GraphConfig["aggregate"] != in.Aggregate {
				t.Errorf("graphConfig aggregate = %v, want %q kept as given", r.GraphConfig["aggregate"], in.Aggregate)
			}
		})
	}
}

func TestColorBy(t *testing.T) {
	tests := []struct {
		colorBy string
		want    map[string]any // colorBy and highlight props
	}{
		{"", map[string]any{"colorBy": "series", "highlight": "max"}},
		{"series", map[string]any{"colorBy": "series", "highlight": "max"}},
		{"category", map[string]any{"colorBy": "category"}},
		{"value", map[string]any{"colorBy": "value"}},
		{"none", map[string]any{"colorBy": "none"}},
	}
	for _, tt := range tests {
		r, err := Build(Input{GraphType: "bar", ColorBy: tt.colorBy, Data: []map[string]any{{"k": "a", "v": 1}}})
		if err != nil {
			t.Fatalf("colorBy %q: %v", tt.colorBy, err)
		}
		props := chartProps(t, r)
		got := map[string]any{}
		for _, k := range []string{"colorBy", "highlight"} {
			if v, ok := props[k]; ok {
				got[k] = v
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("colorBy %q: props %v, want %v", tt.colorBy, got, tt.want)
		}
	}
	// colorBy is a bar option: other charts leave it out of the spec.
	r, err := Build(Input{GraphType: "line", ColorBy: "category", Data: []map[string]any{{"k": "a", "v": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := chartProps(t, r)["colorBy"]; ok {
		t.Errorf("line chart has colorBy %v", v)
	}
}

func TestUpdate(t *testing.T) {
	created, err := Build(decode(t, `{"graphType":"dot","title":"Builds","data":[{"repo":"api","s":9},{"repo":"web","s":4}],
		"xKey":"repo","yKey":"s","sort":"asc","color":"teal","height":200}`))
	if err != nil {
		t.Fatal(err)
	}
	// What storage gives back: the config as decoded JSON.
	raw, err := json.Marshal(created.GraphConfig)
	if err != nil {
		t.Fatal(err)
	}
	var stored map[string]any
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	newRows := decode(t, `{"data":[{"repo":"cli","s":2}]}`).Data

	tests := []struct {
		name      string
		prev      map[string]any
		patch     Input
		component string
		props     map[string]any // chart props without data
		rows      int
	}{
		{"no change", stored, Input{}, "DotPlot",
			map[string]any{"labelKey": "repo", "valueKey": "s", "sort": "asc", "color": "teal", "height": 200.0}, 2},
		{"straight from a Result", created.GraphConfig, Input{}, "DotPlot",
			map[string]any{"labelKey": "repo", "valueKey": "s", "sort": "asc", "color": "teal", "height": 200.0}, 2},
		{"new data keeps the styling", stored, Input{Data: newRows}, "DotPlot",
			map[string]any{"labelKey": "repo", "valueKey": "s", "sort": "asc", "color": "teal", "height": 200.0}, 1},
		{"chartHeight and type", stored, Input{GraphType: "bar", Height: ptr(420.0), Color: "navy"}, "BarChart",
			map[string]any{"xKey": "repo", "yKey": "s", "colorBy": "series", "highlight": "max", "color": "navy", "height": 420.0}, 2},
		{"typeName and keys", stored, Input{TypeName: "sparkline", ValueKey: "s"}, "Sparkline",
			map[string]any{"valueKey": "s", "color": "teal", "height": 200.0}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Update(tt.prev, tt.patch)
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			if r.Summary.GraphType != tt.component || r.Summary.DataPoints != tt.rows {
				t.Errorf("summary = %+v, want %s with %d points", r.Summary, tt.component, tt.rows)
			}
			if got := chartProps(t, r); !reflect.DeepEqual(got, tt.props) {
				t.Errorf("props = %v\nwant    %v", got, tt.props)
			}
			if r.Title != "Builds" {
				t.Errorf("title = %q, want the stored one", r.Title)
			}
		})
	}

	r, err := Update(stored, Input{Title: "Build times", Highlight: Highlight{Set: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Build times" || r.GraphConfig["highlight"] != nil || !hasKey(r.GraphConfig, "highlight") {
		t.Errorf("title %q, config %v: want the new title and highlight null kept", r.Title, r.GraphConfig)
	}
	if _, err := Update(map[string]any{"graphType": "bar"}, Input{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no data anywhere: error %v, want ErrNoData", err)
	}
	if _, err := Update(map[string]any{"graphType": "bar", "data": "rows"}, Input{}); !errors.Is(err, ErrNoData) {
		t.Errorf("stored data not an array: error %v, want ErrNoData", err)
	}
	if _, err := Update(map[string]any{"graphType": "bar", "data": "rows"}, Input{Data: newRows}); err != nil {
		t.Errorf("patch data replaces a broken stored one, yet: %v", err)
	}
	const wantBad = `Stored graphConfig is invalid: Graph data[0] is not an object (got number).`
	if _, err := Update(map[string]any{"data": []any{1}}, Input{}); err == nil || err.Error() != wantBad {
		t.Errorf("error = %v, want %q", err, wantBad)
	}
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func TestUnmarshal(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		rows    int // -1: Data nil
		order   []string
		wantErr string
	}{
		{"source order", `{"data":[{"z":1,"a":2,"m":3,"a":4},{"b":1}]}`, 2, []string{"z", "a", "m"}, ""},
		{"absent data", `{"title":"x"}`, -1, nil, ""},
		{"null data", `{"data":null}`, -1, nil, ""},
		{"empty data", `{"data":[]}`, 0, nil, ""},
		{"data an object", `{"data":{"a":1}}`, 0, nil, "Graph validation requires a data array."},
		{"data a string", `{"data":"a,b"}`, 0, nil, "Graph validation requires a data array."},
		{"row a number", `{"data":[{"a":1},2]}`, 0, nil, "Graph data[1] is not an object (got number)."},
		{"row null", `{"data":[null]}`, 0, nil, "Graph data[0] is not an object (got null)."},
		{"row an array", `{"data":[[1,2]]}`, 0, nil, "Graph data[0] is not an object (got array)."},
		{"highlight an object", `{"data":[],"highlight":{"i":1}}`, 0, nil,
			`Invalid highlight (an object). Use "max", "min", a 0-based bar index or null.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in Input
			err := json.Unmarshal([]byte(tt.in), &in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (tt.rows < 0) != (in.Data == nil) || (tt.rows >= 0 && len(in.Data) != tt.rows) {
				t.Errorf("Data = %v, want %d rows", in.Data, tt.rows)
			}
			if !reflect.DeepEqual(in.order, tt.order) {
				t.Errorf("order = %v, want %v", in.order, tt.order)
			}
		})
	}
}

func TestHighlightJSON(t *testing.T) {
	tests := []struct {
		json string
		want Highlight
	}{
		{`{}`, Highlight{}},
		{`{"highlight":null}`, Highlight{Set: true}},
		{`{"highlight":"min"}`, Highlight{Set: true, Value: "min"}},
		{`{"highlight":3}`, Highlight{Set: true, Value: 3.0}},
	}
	for _, tt := range tests {
		in := decode(t, tt.json)
		if in.Highlight != tt.want {
			t.Errorf("%s: Highlight = %+v, want %+v", tt.json, in.Highlight, tt.want)
		}
		// Encoding must give the same Highlight back: absent stays absent
		// and null stays null.
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if again := decode(t, string(b)); again.Highlight != tt.want {
			t.Errorf("%s: round trip through %s gives %+v", tt.json, b, again.Highlight)
		}
	}
}
