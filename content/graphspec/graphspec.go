// Package graphspec turns a graph payload — rows of data plus a chart type
// and options — into the json-render spec that a graph node stores and the
// browser draws, and into the graphConfig the node keeps so that the chart
// can be rebuilt when it is patched.
//
// The spec has the reference's shape exactly, because the browser renderer
// and the json-render validator read it:
//
//	{root:"card", elements:{
//	  card:  {type:"Card", props:{title, maxWidth:"full", centered:false}, children:["chart"], visible:true, on:{}},
//	  chart: {type:<component>, props:{data, <keys>, <options>}, children:[], visible:true, on:{}}}}
//
// Where the reference was lenient to the point of drawing the wrong chart,
// Build reports an error instead: an unknown graph type, rows that are not
// objects, keys that no row has and values that are not numbers where the
// chart plots numbers all fail with a message naming what is wrong.
//
// Error messages are sentences (capitalised, ending in a full stop), unlike
// ordinary Go errors, because they are part of the wire contract and reach
// agents verbatim.
package graphspec

import (
	"errors"
	"fmt"
	"strings"
)

// Caps on what Build accepts, so that one request cannot make the canvas
// store and ship an unbounded chart to every browser.
const (
	MaxRows   = 10_000 // rows in data
	MaxSeries = 32     // radar metrics or stacked-bar series
)

// Types lists the canonical graph types in the order the schema advertises
// them. Do not modify it.
var Types = []string{
	"line", "bar", "pie", "area", "scatter", "radar",
	"stacked-bar", "composed", "sparkline", "dot-plot", "bullet", "slopegraph",
}

// components maps each canonical type to its json-render component.
var components = map[string]string{
	"line":        "LineChart",
	"bar":         "BarChart",
	"pie":         "PieChart",
	"area":        "AreaChart",
	"scatter":     "ScatterChart",
	"radar":       "RadarChart",
	"stacked-bar": "StackedBarChart",
	"composed":    "ComposedChart",
	"sparkline":   "Sparkline",
	"dot-plot":    "DotPlot",
	"bullet":      "BulletChart",
	"slopegraph":  "Slopegraph",
}

// aliases maps normalised spellings (lower case, no '-', '_' or spaces) to
// canonical types; it is the reference's alias table.
var aliases = map[string]string{
	"line": "line", "linechart": "line", "chart": "line", "graph": "line",
	"bar": "bar", "barchart": "bar",
	"pie": "pie", "piechart": "pie",
	"area": "area", "areachart": "area",
	"scatter": "scatter", "scatterchart": "scatter", "scatterplot": "scatter",
	"radar": "radar", "radarchart": "radar",
	"stackedbar": "stacked-bar", "stackedbarchart": "stacked-bar", "stack": "stacked-bar",
	"composed": "composed", "composedchart": "composed", "combo": "composed", "combochart": "composed",
	"sparkline": "sparkline", "spark": "sparkline",
	"dotplot": "dot-plot", "dot": "dot-plot", "cleveland": "dot-plot",
	"bullet": "bullet", "bulletchart": "bullet",
	"slopegraph": "slopegraph", "slope": "slopegraph",
}

// ErrNoData is returned when the input has no data array. Create routes
// that must answer "Missing required field: data." can test for it with
// errors.Is.
var ErrNoData = errors.New("Graph validation requires a data array.")

// Resolve maps a graph type or one of its aliases ("stack", "combo",
// "Dot Plot", "BarChart", …) to the canonical type and its json-render
// component. Case, '-', '_' and spaces are ignored; an empty name is "line".
// Unlike the reference, which drew a line chart for anything it did not
// know, an unknown name is an error that lists the valid types.
func Resolve(graphType string) (typ, component string, err error) {
	norm := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '\t':
			return -1
		}
		return r
	}, strings.ToLower(graphType))
	if norm == "" {
		norm = "line"
	}
	typ, ok := aliases[norm]
	if !ok {
		return "", "", fmt.Errorf("Unknown graph type %q. Use one of: %s.", graphType, strings.Join(Types, ", "))
	}
	return typ, components[typ], nil
}

// Input is a graph payload as the create, validate and update routes
// receive it. Empty strings, nil slices and nil pointers mean "not given";
// Build then applies the reference's defaults.
//
// Decoding an Input from JSON (see UnmarshalJSON) also records the order of
// the first row's keys, which key inference follows as the reference does.
// Because of that method, do not embed Input in another struct that is
// decoded from JSON: the method would be promoted and decode the outer
// struct too.
type Input struct {
	GraphType string `json:"graphType,omitempty"` // chart kind or alias; default "line"
	TypeName  string `json:"typeName,omitempty"`  // alias of GraphType (the validate route's name)
	Title     string `json:"title,omitempty"`     // trimmed; default "Graph"

	// Data holds the rows. nil means absent (an error); an empty slice is
	// a valid, empty chart.
	Data []map[string]any `json:"data"`

	XKey     string   `json:"xKey,omitempty"`
	YKey     string   `json:"yKey,omitempty"`
	ZKey     string   `json:"zKey,omitempty"`     // scatter bubble size
	NameKey  string   `json:"nameKey,omitempty"`  // pie slice names
	ValueKey string   `json:"valueKey,omitempty"` // pie, sparkline, dot plot, bullet
	AxisKey  string   `json:"axisKey,omitempty"`  // radar categories
	Metrics  []string `json:"metrics,omitempty"`  // radar polygons
	Series   []string `json:"series,omitempty"`   // stacked-bar segments
	BarKey   string   `json:"barKey,omitempty"`   // composed
	LineKey  string   `json:"lineKey,omitempty"`  // composed

	Aggregate string    `json:"aggregate,omitempty"` // sum, count or avg (line, bar, area, stacked bars)
	Color     string    `json:"color,omitempty"`
	ColorBy   string    `json:"colorBy,omitempty"` // bar: series (default), category, value or none
	Highlight Highlight `json:"highlight,omitzero"`
	BarColor  string    `json:"barColor,omitempty"`
	LineColor string    `json:"lineColor,omitempty"`

	LabelKey    string `json:"labelKey,omitempty"`  // dot plot, bullet, slopegraph
	TargetKey   string `json:"targetKey,omitempty"` // bullet
	RangesKey   string `json:"rangesKey,omitempty"` // bullet: number[] of band thresholds
	BeforeKey   string `json:"beforeKey,omitempty"` // slopegraph
	AfterKey    string `json:"afterKey,omitempty"`
	BeforeLabel string `json:"beforeLabel,omitempty"`
	AfterLabel  string `json:"afterLabel,omitempty"`
	Sort        string `json:"sort,omitempty"` // dot plot: asc, desc or none

	Fill             *bool `json:"fill,omitempty"` // sparkline
	ShowEndDot       *bool `json:"showEndDot,omitempty"`
	ShowMinMax       *bool `json:"showMinMax,omitempty"`
	ShowValue        *bool `json:"showValue,omitempty"`
	ColorByDirection *bool `json:"colorByDirection,omitempty"` // slopegraph
	ShowLegend       *bool `json:"showLegend,omitempty"`
	ShowLabels       *bool `json:"showLabels,omitempty"` // pie

	// Height is the chart's content height in pixels, not the node frame's.
	// Update callers put a PATCH body's chartHeight here.
	Height *float64 `json:"height,omitempty"`

	// order is the first row's keys in source order, recorded by
	// UnmarshalJSON; Build ignores it unless it matches Data[0].
	order []string
}

// Highlight selects the accented bar of a bar chart coloured by series. It
// needs its own type because "not given" (the default, max) and an explicit
// null (no accent) mean different things.
type Highlight struct {
	Set   bool // the option was given; false means the default applies
	Value any  // "max", "min", a 0-based bar index, or nil for no accent
}

// Summary describes a built chart, as the validate route reports it.
type Summary struct {
	GraphType    string `json:"graphType"` // the component, e.g. "BarChart"
	DataPoints   int    `json:"dataPoints"`
	Root         string `json:"root"`
	ElementCount int    `json:"elementCount"`
}

// Result is a built graph.
//
// Spec and GraphConfig hold JSON-shaped values (map[string]any, []any,
// string, float64, bool) so that code walking them generically, such as a
// json-render validator, reads them as if decoded from JSON. The rows are
// the input's own maps, shared rather than copied; do not modify them.
type Result struct {
	Spec        map[string]any `json:"spec"`        // the normalised json-render spec
	GraphConfig map[string]any `json:"graphConfig"` // what the node stores as data.graphConfig
	Summary     Summary        `json:"summary"`
	Title       string         `json:"title"`
}

// Build resolves the chart type, fills in the reference's defaults, checks
// the data against the chart and returns the spec.
//
// Keys that are not given are inferred as the reference does, many from
// the first row's keys "in order". Go maps keep no order: an Input decoded
// from JSON remembers the source order; for any other Input (built in Go,
// or rebuilt from a stored config) the order is one label-like column
// first, then the numeric columns, then the rest, each group sorted.
// Radar metrics and stacked-bar series, when not given, are the first
// row's numeric columns other than the category key, as the tools
// advertise.
//
// Checks that need rows (keys present, values numeric) run only when data
// is not empty.
func Build(in Input) (*Result, error) {
	typ, component, err := Resolve(firstOf(in.GraphType, in.TypeName))
	if err != nil {
		return nil, err
	}
	if in.Data == nil {
		return nil, ErrNoData
	}
	if n := len(in.Data); n > MaxRows {
		return nil, fmt.Errorf("Graph data has %d rows; the limit is %d.", n, MaxRows)
	}
	for i, row := range in.Data {
		if row == nil {
			return nil, fmt.Errorf("Graph data[%d] is not an object.", i)
		}
	}
	if err := in.checkOptions(); err != nil {
		return nil, err
	}

	b := newBuilder(&in, component)
	if err := b.chart(typ); err != nil {
		return nil, err
	}
	if err := b.checkRows(); err != nil {
		return nil, err
	}
	if in.Height != nil {
		b.props["height"] = *in.Height
	}

	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = "Graph"
	}
	spec := map[string]any{
		"root": "card",
		"elements": map[string]any{
			"card": map[string]any{
				"type":     "Card",
				"props":    map[string]any{"title": title, "maxWidth": "full", "centered": false},
				"children": []any{"chart"},
				"visible":  true,
				"on":       map[string]any{},
			},
			"chart": map[string]any{
				"type":     component,
				"props":    b.props,
				"children": []any{},
				"visible":  true,
				"on":       map[string]any{},
			},
		},
	}
	return &Result{
		Spec:        spec,
		GraphConfig: in.config(title, b.props["data"]),
		Summary:     Summary{GraphType: component, DataPoints: len(in.Data), Root: "card", ElementCount: 2},
		Title:       title,
	}, nil
}

// Update rebuilds a graph from the graphConfig a node stores and a patch:
// every field the patch gives replaces the stored one (patch.Height is the
// PATCH body's chartHeight), and the rest is kept. The reference kept only
// a subset of the stored options and silently lost bar and Tufte styling
// (colorBy, highlight, labelKey, sort, fill, …); Update keeps them all.
// A missing data array in both is ErrNoData.
func Update(prev map[string]any, patch Input) (*Result, error) {
	in, err := fromConfig(prev, patch.Data != nil)
	if err != nil {
		return nil, err
	}
	in.merge(&patch)
	return Build(in)
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
