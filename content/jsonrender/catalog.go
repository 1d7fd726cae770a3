package jsonrender

import (
	"slices"
	"sort"
	"strings"
)

// Component describes one component of the catalog: what an element's
// "type" may name, the props it takes and what Normalize does to them. It is
// ready for encoding/json, as the schema document's jsonRender.components.
type Component struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Props       []Prop `json:"props"`
	// Aliases are other names Normalize accepts for the type, matched
	// ignoring case, "-", "_" and spaces.
	Aliases []string `json:"aliases,omitempty"`
	// Slots names the slots children render into; a component without
	// slots ignores its children.
	Slots []string `json:"slots,omitempty"`
	// Events are the keys of "on" the component fires.
	Events []string `json:"events,omitempty"`
	// Coercions says, in words, what Normalize does to this component's
	// props beyond the rules every component shares (see the package doc).
	Coercions []string `json:"coercions,omitempty"`
	// Example is a props object that passes validation.
	Example map[string]any `json:"example,omitempty"`
}

// Prop describes one prop of a component.
type Prop struct {
	Name string `json:"name"`
	// Type is the JSON type: string, number, boolean, enum (one of Enum),
	// array (of Items) or string|number.
	Type string `json:"type"`
	// Required props must be present; the others may be missing or null.
	Required    bool     `json:"required"`
	Description string   `json:"description"`
	Enum        []string `json:"enum,omitempty"`
	// Items describes an array's entries: string, string[], object, or an
	// object shape such as "{label: string, value: string}".
	Items string `json:"items,omitempty"`

	kind kind // how validate checks the value
}

// Shape describes the spec document, for the schema document's
// jsonRender.rootShape.
type Shape struct {
	Root     string `json:"root"`
	Elements string `json:"elements"`
	State    string `json:"state"`
}

// RootShape is the shape of a spec: a flat map of elements that name their
// children by key, and the key of the one to render first.
var RootShape = Shape{
	Root:     "string",
	Elements: "record<string, { type, props, children: string[], visible?, on?, repeat?, watch? }>",
	State:    "record<string, unknown> | optional",
}

// Directive describes a "$" key a prop value may use instead of a literal:
// the renderer's expressions and the directives package's directives.
type Directive struct {
	Name string `json:"name"`
	// Kind is "expression" (@json-render/core) or "directive"
	// (@json-render/directives).
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Example     any    `json:"example,omitempty"`
}

// kind is a prop's value check.
type kind uint8

const (
	kString kind = iota
	kNumber
	kBool
	kEnum
	kStrings      // array of strings
	kStringMatrix // array of arrays of strings
	kRecords      // array of objects
	kLabelValues  // array of {label, value}
	kTitleContent // array of {title, content}
	kCarousel     // array of {title?, description?}
	kChecks       // array of {type, message, args?}
	kHighlight    // "max", "min" or a number
)

// typeName and itemsName give a kind's Prop.Type and Prop.Items.
func (k kind) typeName() string {
	switch k {
	case kString:
		return "string"
	case kNumber:
		return "number"
	case kBool:
		return "boolean"
	case kEnum:
		return "enum"
	case kHighlight:
		return "string|number"
	}
	return "array"
}

func (k kind) itemsName() string {
	switch k {
	case kStrings:
		return "string"
	case kStringMatrix:
		return "string[]"
	case kRecords:
		return "object"
	case kLabelValues:
		return "{label: string, value: string}"
	case kTitleContent:
		return "{title: string, content: string}"
	case kCarousel:
		return "{title?: string, description?: string}"
	case kChecks:
		return "{type: string, message: string, args?: object}"
	}
	return ""
}

// Prop constructors, to keep the table below readable. The lower-case
// forms are optional props, the upper-case forms required ones.
func p(name string, k kind, required bool, desc string, enum ...string) Prop {
	return Prop{Name: name, Type: k.typeName(), Required: required, Description: desc,
		Enum: enum, Items: k.itemsName(), kind: k}
}
func optStr(name, desc string) Prop                  { return p(name, kString, false, desc) }
func reqStr(name, desc string) Prop                  { return p(name, kString, true, desc) }
func optNum(name, desc string) Prop                  { return p(name, kNumber, false, desc) }
func reqNum(name, desc string) Prop                  { return p(name, kNumber, true, desc) }
func optBool(name, desc string) Prop                 { return p(name, kBool, false, desc) }
func optEnum(name, desc string, vals ...string) Prop { return p(name, kEnum, false, desc, vals...) }
func reqList(name string, k kind, desc string) Prop  { return p(name, k, true, desc) }

// Props several components share.
var (
	classNameProp  = optStr("className", "Extra CSS classes for the container.")
	checksProp     = p("checks", kChecks, false, "Validation checks, e.g. [{type: \"required\", message: \"Required\"}].")
	validateOnProp = optEnum("validateOn", "When checks run.", "change", "blur", "submit")
	chartData      = reqList("data", kRecords, "Rows of the chart, one object per point.")
	chartHeight    = optNum("height", "Chart height in pixels.")
	chartTitle     = optStr("title", "Caption above the chart.")
	chartColor     = optStr("color", "Colour of the series (a CSS colour).")
	aggregateProp  = optEnum("aggregate", "Combine rows that share an x value.", "sum", "count", "avg")
	showLegendProp = optBool("showLegend", "Show the legend.")
)

// Coercion texts several components share.
const (
	nameCoercion    = "name defaults to the element key (characters other than letters, digits, - and _ become _)"
	contentCoercion = "content becomes text when text is missing"
	labelValueWords = "entries that are strings become {label, value} with both set to the string; object entries take label from label, title, name, text or value and value from value, id, key or label"
)

func labelValueCoercion(prop string) string { return prop + ": " + labelValueWords }

// catalog is the component catalog, sorted by name. Its names, props,
// enums, aliases and slots are the reference's (domain.md §2.13); the
// descriptions, examples and events follow @json-render/shadcn, whose
// definitions the reference extends (see the package doc).
var catalog = []Component{
	{Name: "Accordion", Description: "Collapsible sections, one per item; type single (default) opens one at a time.",
		Props: []Prop{
			reqList("items", kTitleContent, "Sections as [{title, content}]."),
			optEnum("type", "single opens one section at a time, multiple any number.", "single", "multiple"),
		},
		Example: map[string]any{"items": []any{
			map[string]any{"title": "What is it?", "content": "A spatial canvas."},
			map[string]any{"title": "Who is it for?", "content": "Agents and the people they work with."},
		}}},
	{Name: "Alert", Description: "Banner with a title, an optional message and a tone.",
		Props: []Prop{
			reqStr("title", "Headline of the alert."),
			optStr("message", "Body text under the title."),
			optEnum("type", "Tone of the alert.", "info", "success", "warning", "error"),
		},
		Example: map[string]any{"title": "Saved", "message": "Your changes are live.", "type": "success"}},
	{Name: "AreaChart", Description: "Area chart of one series over x.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for the x axis."),
			reqStr("yKey", "Row key for the y value."),
			aggregateProp, chartColor, chartHeight, chartTitle,
		},
		Example: chartExample("xKey", "day", "yKey", "value")},
	{Name: "Avatar", Description: "User avatar; shows the initials of name when there is no src.",
		Props: []Prop{
			reqStr("name", "Person's name, also the source of the initials."),
			optStr("src", "Image URL."),
			optEnum("size", "Avatar size.", "sm", "md", "lg"),
		},
		Example: map[string]any{"name": "Ada Lovelace", "size": "md"}},
	{Name: "Badge", Description: "Small status label.",
		Props: []Prop{
			reqStr("text", "Label text."),
			optEnum("variant", "Colour of the badge.", "default", "secondary", "destructive", "outline", "success", "info", "warning", "error", "danger"),
		},
		Coercions: []string{"content or label becomes text when text is missing; label is always removed"},
		Example:   map[string]any{"text": "Active", "variant": "success"}},
	{Name: "BarChart", Description: "Bar chart of one series over categories; one bar can be accented.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for the category."),
			reqStr("yKey", "Row key for the bar value."),
			aggregateProp, chartColor,
			optEnum("colorBy", "How bars are coloured; series accents one bar.", "series", "category", "value", "none"),
			chartHeight,
			p("highlight", kHighlight, false, "With colorBy series, the accented bar: max, min or a 0-based index.", "max", "min"),
			chartTitle,
		},
		Aliases: []string{"Bar"},
		Example: chartExample("xKey", "day", "yKey", "value")},
	{Name: "BulletChart", Description: "Bullet chart: each row's measure against its target and qualitative bands.",
		Props: []Prop{
			chartData,
			reqStr("valueKey", "Row key for the measure."),
			optStr("labelKey", "Row key for the row label."),
			optStr("targetKey", "Row key for the target value."),
			optStr("rangesKey", "Row key for a number[] of band thresholds."),
			chartColor, chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"label": "Revenue", "value": 270, "target": 250},
			map[string]any{"label": "Profit", "value": 22, "target": 26},
		}, "valueKey": "value", "labelKey": "label", "targetKey": "target"}},
	{Name: "Button", Description: "Clickable button; bind on.press to act.",
		Props: []Prop{
			reqStr("label", "Button text."),
			optBool("disabled", "Grey the button out and ignore presses."),
			optEnum("variant", "Visual weight of the button.", "primary", "secondary", "destructive", "danger", "outline", "ghost", "success"),
		},
		Events:    []string{"press"},
		Coercions: []string{"variant: default becomes primary, outline becomes secondary, destructive becomes danger"},
		Example:   map[string]any{"label": "Submit", "variant": "primary"}},
	{Name: "ButtonGroup", Description: "Segmented buttons of which one is selected; bind selected with $bindState.",
		Props: []Prop{
			reqList("buttons", kLabelValues, "Buttons as [{label, value}]."),
			optStr("selected", "Value of the selected button."),
		},
		Events:    []string{"change"},
		Coercions: []string{labelValueCoercion("buttons")},
		Example: map[string]any{"buttons": []any{
			map[string]any{"label": "Day", "value": "day"},
			map[string]any{"label": "Week", "value": "week"},
		}, "selected": "day"}},
	{Name: "Card", Description: "Container for a section with an optional title and description; its children render inside.",
		Props: []Prop{
			optStr("title", "Card heading."),
			optStr("description", "Line under the title."),
			optEnum("maxWidth", "Widest the card grows.", "sm", "md", "lg", "full"),
			optBool("centered", "Center the card horizontally."),
			classNameProp,
		},
		Aliases: []string{"NativePanel", "Panel", "Section"},
		Slots:   []string{"default"},
		Example: map[string]any{"title": "Overview", "description": "This week at a glance"}},
	{Name: "Carousel", Description: "Horizontally scrolling row of cards.",
		Props: []Prop{
			reqList("items", kCarousel, "Cards as [{title?, description?}]."),
		},
		Example: map[string]any{"items": []any{
			map[string]any{"title": "Step 1", "description": "Plan"},
			map[string]any{"title": "Step 2", "description": "Build"},
		}}},
	{Name: "Checkbox", Description: "Checkbox; bind checked with $bindState.",
		Props: []Prop{
			reqStr("label", "Text beside the box."),
			reqStr("name", "Form field name."),
			optBool("checked", "Whether the box is ticked."),
			checksProp, validateOnProp,
		},
		Events:    []string{"change"},
		Coercions: []string{nameCoercion},
		Example:   map[string]any{"label": "I agree", "name": "agree"}},
	{Name: "Collapsible", Description: "Section whose trigger shows or hides its children.",
		Props: []Prop{
			reqStr("title", "Trigger text."),
			optBool("defaultOpen", "Start open."),
		},
		Slots:   []string{"default"},
		Example: map[string]any{"title": "Advanced settings", "defaultOpen": false}},
	{Name: "ComposedChart", Description: "Bars and a line over the same x axis.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for the x axis."),
			reqStr("barKey", "Row key for the bar series."),
			reqStr("lineKey", "Row key for the line series."),
			optStr("barColor", "Bar colour."),
			optStr("lineColor", "Line colour."),
			showLegendProp, chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"label": "Mon", "value": 3, "rate": 0.5},
			map[string]any{"label": "Tue", "value": 5, "rate": 0.7},
		}, "xKey": "label", "barKey": "value", "lineKey": "rate"}},
	{Name: "Dialog", Description: "Modal dialog shown while the boolean at openPath in state is true; toggle it with setState. Its children render inside.",
		Props: []Prop{
			reqStr("title", "Dialog heading."),
			reqStr("openPath", "State path (JSON Pointer) of the boolean that opens the dialog."),
			optStr("description", "Line under the title."),
		},
		Slots:   []string{"default"},
		Example: map[string]any{"title": "Delete item?", "openPath": "/ui/confirmOpen"}},
	{Name: "DotPlot", Description: "Dot plot: one dot per row along a value axis.",
		Props: []Prop{
			chartData,
			reqStr("labelKey", "Row key for the row label."),
			reqStr("valueKey", "Row key for the value."),
			chartColor,
			optEnum("sort", "Row order.", "asc", "desc", "none"),
			chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"label": "Go", "value": 42},
			map[string]any{"label": "Rust", "value": 37},
		}, "labelKey": "label", "valueKey": "value"}},
	{Name: "Drawer", Description: "Bottom sheet shown while the boolean at openPath in state is true; toggle it with setState. Its children render inside.",
		Props: []Prop{
			reqStr("title", "Drawer heading."),
			reqStr("openPath", "State path (JSON Pointer) of the boolean that opens the drawer."),
			optStr("description", "Line under the title."),
		},
		Slots:   []string{"default"},
		Example: map[string]any{"title": "Filters", "openPath": "/ui/filtersOpen"}},
	{Name: "DropdownMenu", Description: "Button that opens a menu of items; bind value with $bindState.",
		Props: []Prop{
			reqStr("label", "Trigger text."),
			reqList("items", kLabelValues, "Menu items as [{label, value}]."),
			optStr("value", "Value of the selected item."),
		},
		Events:    []string{"select"},
		Coercions: []string{labelValueCoercion("items")},
		Example: map[string]any{"label": "Sort", "items": []any{
			map[string]any{"label": "Newest", "value": "new"},
			map[string]any{"label": "Oldest", "value": "old"},
		}}},
	{Name: "Grid", Description: "Grid of its children in a number of columns (1-6).",
		Props: []Prop{
			optNum("columns", "Number of columns."),
			optEnum("gap", "Space between cells.", "sm", "md", "lg", "xl"),
			classNameProp,
		},
		Slots:   []string{"default"},
		Example: map[string]any{"columns": 3, "gap": "md"}},
	{Name: "Heading", Description: "Heading text, h1 to h4.",
		Props: []Prop{
			reqStr("text", "Heading text."),
			optEnum("level", "Heading level.", "h1", "h2", "h3", "h4"),
		},
		Aliases:   []string{"Header", "Title"},
		Coercions: []string{contentCoercion},
		Example:   map[string]any{"text": "Quarterly report", "level": "h2"}},
	{Name: "Image", Description: "Image from src, or a placeholder without one.",
		Props: []Prop{
			reqStr("alt", "Text alternative."),
			optStr("src", "Image URL."),
			optNum("width", "Width in pixels."),
			optNum("height", "Height in pixels."),
		},
		Example: map[string]any{"alt": "Architecture diagram", "src": "https://example.com/diagram.png"}},
	{Name: "Input", Description: "Single-line text field; bind value with $bindState and validate with checks.",
		Props: []Prop{
			reqStr("label", "Field label."),
			reqStr("name", "Form field name."),
			optEnum("type", "Input type.", "text", "email", "password", "number"),
			optStr("placeholder", "Hint shown while empty."),
			optStr("value", "Current value."),
			checksProp, validateOnProp,
		},
		Aliases:   []string{"FormField"},
		Events:    []string{"submit", "focus", "blur"},
		Coercions: []string{nameCoercion},
		Example:   map[string]any{"label": "Email", "name": "email", "type": "email", "placeholder": "you@example.com"}},
	{Name: "LineChart", Description: "Line chart of one series over x.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for the x axis."),
			reqStr("yKey", "Row key for the y value."),
			aggregateProp, chartColor, chartHeight, chartTitle,
		},
		Aliases: []string{"Chart", "Line", "Graph"},
		Example: chartExample("xKey", "day", "yKey", "value")},
	{Name: "Link", Description: "Hyperlink; bind on.press to act instead of navigating.",
		Props: []Prop{
			reqStr("href", "Target URL."),
			reqStr("label", "Link text."),
		},
		Events:  []string{"press"},
		Example: map[string]any{"href": "https://example.com/docs", "label": "Read the docs"}},
	{Name: "Pagination", Description: "Page navigation; bind page with $bindState.",
		Props: []Prop{
			reqNum("totalPages", "Number of pages."),
			optNum("page", "Current page, from 1."),
		},
		Events:  []string{"change"},
		Example: map[string]any{"totalPages": 5, "page": 1}},
	{Name: "PieChart", Description: "Pie chart: one slice per row.",
		Props: []Prop{
			chartData,
			reqStr("nameKey", "Row key for the slice name."),
			reqStr("valueKey", "Row key for the slice value."),
			optBool("showLabels", "Label the slices."),
			showLegendProp, chartHeight, chartTitle,
		},
		Aliases: []string{"Pie"},
		Example: map[string]any{"data": []any{
			map[string]any{"name": "Go", "value": 60},
			map[string]any{"name": "TypeScript", "value": 40},
		}, "nameKey": "name", "valueKey": "value"}},
	{Name: "Popover", Description: "Button labelled trigger that opens content on click.",
		Props: []Prop{
			reqStr("trigger", "Button text."),
			reqStr("content", "Text shown in the popover."),
		},
		Example: map[string]any{"trigger": "Details", "content": "Built on 2024-05-01."}},
	{Name: "Progress", Description: "Progress bar: value out of max (100).",
		Props: []Prop{
			reqNum("value", "Progress so far."),
			optNum("max", "Value of a full bar; 100 when missing."),
			optStr("label", "Text beside the bar."),
		},
		Example: map[string]any{"value": 65, "max": 100, "label": "Upload"}},
	{Name: "RadarChart", Description: "Radar chart: one polygon per metric over the axis categories.",
		Props: []Prop{
			chartData,
			reqStr("axisKey", "Row key for the axis category."),
			reqList("metrics", kStrings, "Row keys drawn as polygons."),
			showLegendProp, chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"axis": "Speed", "a": 4, "b": 3},
			map[string]any{"axis": "Safety", "a": 3, "b": 5},
		}, "axisKey": "axis", "metrics": []any{"a", "b"}}},
	{Name: "Radio", Description: "Group of radio buttons; bind value with $bindState.",
		Props: []Prop{
			reqStr("label", "Group label."),
			reqStr("name", "Form field name."),
			reqList("options", kStrings, "Choices."),
			optStr("value", "Selected choice."),
			checksProp, validateOnProp,
		},
		Events:    []string{"change"},
		Coercions: []string{nameCoercion, "options: taken from items when missing; object options become their label"},
		Example:   map[string]any{"label": "Plan", "name": "plan", "options": []any{"Free", "Pro"}}},
	{Name: "ScatterChart", Description: "Scatter plot of x against y, optionally sized by z.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for x."),
			reqStr("yKey", "Row key for y."),
			optStr("zKey", "Row key for the dot size."),
			chartColor, chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"x": 1, "y": 2},
			map[string]any{"x": 2, "y": 3},
		}, "xKey": "x", "yKey": "y"}},
	{Name: "Select", Description: "Dropdown of choices; bind value with $bindState.",
		Props: []Prop{
			reqStr("label", "Field label."),
			reqStr("name", "Form field name."),
			reqList("options", kStrings, "Choices."),
			optStr("placeholder", "Hint shown while nothing is chosen."),
			optStr("value", "Selected choice."),
			checksProp, validateOnProp,
		},
		Events:    []string{"change"},
		Coercions: []string{nameCoercion, "options: taken from items when missing; object options become their label"},
		Example:   map[string]any{"label": "Region", "name": "region", "options": []any{"EU", "US"}}},
	{Name: "Separator", Description: "Divider line.",
		Props: []Prop{
			optEnum("orientation", "Direction of the line.", "horizontal", "vertical"),
		},
		Example: map[string]any{"orientation": "horizontal"}},
	{Name: "Skeleton", Description: "Loading placeholder block.",
		Props: []Prop{
			optStr("width", "CSS width."),
			optStr("height", "CSS height."),
			optBool("rounded", "Round the corners fully."),
		},
		Example: map[string]any{"width": "100%", "height": "1.5rem"}},
	{Name: "Slider", Description: "Range slider; bind value with $bindState.",
		Props: []Prop{
			optStr("label", "Slider label."),
			optNum("min", "Lowest value."),
			optNum("max", "Highest value."),
			optNum("step", "Step between values."),
			optNum("value", "Current value."),
		},
		Events:  []string{"change"},
		Example: map[string]any{"label": "Volume", "min": 0, "max": 10, "step": 1, "value": 5}},
	{Name: "Slopegraph", Description: "Slopegraph: one line per row from a before value to an after value.",
		Props: []Prop{
			chartData,
			reqStr("labelKey", "Row key for the row label."),
			reqStr("beforeKey", "Row key for the left-hand value."),
			reqStr("afterKey", "Row key for the right-hand value."),
			optStr("beforeLabel", "Left column header."),
			optStr("afterLabel", "Right column header."),
			chartColor,
			optBool("colorByDirection", "Accent rising lines and mute falling ones."),
			chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"label": "A", "before": 3, "after": 5},
			map[string]any{"label": "B", "before": 4, "after": 2},
		}, "labelKey": "label", "beforeKey": "before", "afterKey": "after"}},
	{Name: "Sparkline", Description: "Small word-sized line chart of one series.",
		Props: []Prop{
			chartData,
			reqStr("valueKey", "Row key for the value."),
			chartColor,
			optBool("fill", "Shade the area under the line."),
			optBool("showEndDot", "Mark the last point."),
			optBool("showMinMax", "Mark the lowest and highest points."),
			optBool("showValue", "Print the last value."),
			chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"value": 3}, map[string]any{"value": 5}, map[string]any{"value": 4},
		}, "valueKey": "value"}},
	{Name: "Spinner", Description: "Loading spinner with an optional label.",
		Props: []Prop{
			optStr("label", "Text beside the spinner."),
			optEnum("size", "Spinner size.", "sm", "md", "lg"),
		},
		Example: map[string]any{"label": "Loading", "size": "md"}},
	{Name: "Stack", Description: "Flex container that lays its children out in a column or a row.",
		Props: []Prop{
			optEnum("direction", "Row (horizontal) or column (vertical).", "horizontal", "vertical"),
			optEnum("gap", "Space between children.", "none", "sm", "md", "lg", "xl"),
			optEnum("align", "Cross-axis alignment.", "start", "center", "end", "stretch"),
			optEnum("justify", "Main-axis distribution.", "start", "center", "end", "between", "around"),
			classNameProp,
		},
		Aliases: []string{"Container"},
		Slots:   []string{"default"},
		Example: map[string]any{"direction": "vertical", "gap": "md"}},
	{Name: "StackedBarChart", Description: "Bars of stacked segments, one segment per series key.",
		Props: []Prop{
			chartData,
			reqStr("xKey", "Row key for the category."),
			reqList("series", kStrings, "Row keys stacked in each bar."),
			aggregateProp, showLegendProp, chartHeight, chartTitle,
		},
		Example: map[string]any{"data": []any{
			map[string]any{"label": "Q1", "a": 3, "b": 2},
			map[string]any{"label": "Q2", "a": 4, "b": 1},
		}, "xKey": "label", "series": []any{"a", "b"}}},
	{Name: "Switch", Description: "On/off switch; bind checked with $bindState.",
		Props: []Prop{
			reqStr("label", "Text beside the switch."),
			reqStr("name", "Form field name."),
			optBool("checked", "Whether the switch is on."),
			checksProp, validateOnProp,
		},
		Events:    []string{"change"},
		Coercions: []string{nameCoercion},
		Example:   map[string]any{"label": "Notifications", "name": "notify", "checked": true}},
	{Name: "Table", Description: "Table of header labels and rows of cell strings.",
		Props: []Prop{
			reqList("columns", kStrings, "Header labels."),
			reqList("rows", kStringMatrix, "Rows, each an array of cell strings in column order."),
			optStr("caption", "Caption under the table."),
		},
		Coercions: []string{
			"columns: numbers and booleans become strings; object columns become their label, title, header, name or key",
			"rows: cells become strings (null becomes \"\"); an object row is read by column key",
		},
		Example: map[string]any{"columns": []any{"Name", "Role"}, "rows": []any{
			[]any{"Alice", "Admin"}, []any{"Bob", "User"},
		}}},
	{Name: "Tabs", Description: "Tab strip; bind value with $bindState and show content by its state. Its children render below.",
		Props: []Prop{
			reqList("tabs", kLabelValues, "Tabs as [{label, value}]."),
			optStr("defaultValue", "Value of the tab open at first."),
			optStr("value", "Value of the open tab."),
		},
		Slots:     []string{"default"},
		Events:    []string{"change"},
		Coercions: []string{labelValueCoercion("tabs")},
		Example: map[string]any{"tabs": []any{
			map[string]any{"label": "Overview", "value": "overview"},
			map[string]any{"label": "Details", "value": "details"},
		}, "defaultValue": "overview"}},
	{Name: "Text", Description: "Paragraph of text.",
		Props: []Prop{
			reqStr("text", "The text."),
			optEnum("variant", "Text style.", "body", "caption", "muted", "lead", "code"),
		},
		Aliases:   []string{"Paragraph", "Label"},
		Coercions: []string{contentCoercion},
		Example:   map[string]any{"text": "Everything is on track."}},
	{Name: "Textarea", Description: "Multi-line text field; bind value with $bindState and validate with checks.",
		Props: []Prop{
			reqStr("label", "Field label."),
			reqStr("name", "Form field name."),
			optStr("placeholder", "Hint shown while empty."),
			optNum("rows", "Visible lines."),
			optStr("value", "Current value."),
			checksProp, validateOnProp,
		},
		Coercions: []string{nameCoercion},
		Example:   map[string]any{"label": "Notes", "name": "notes", "rows": 4}},
	{Name: "Toggle", Description: "Button that stays pressed; bind pressed with $bindState.",
		Props: []Prop{
			reqStr("label", "Button text."),
			optBool("pressed", "Whether it is pressed."),
			optEnum("variant", "Visual style.", "default", "outline"),
		},
		Events:  []string{"change"},
		Example: map[string]any{"label": "Bold", "pressed": false}},
	{Name: "ToggleGroup", Description: "Group of toggle buttons; type single (default) or multiple; bind value with $bindState.",
		Props: []Prop{
			reqList("items", kLabelValues, "Buttons as [{label, value}]."),
			optEnum("type", "single allows one pressed button, multiple any number.", "single", "multiple"),
			optStr("value", "Value of the pressed button."),
		},
		Events:    []string{"change"},
		Coercions: []string{labelValueCoercion("items")},
		Example: map[string]any{"items": []any{
			map[string]any{"label": "Left", "value": "left"},
			map[string]any{"label": "Right", "value": "right"},
		}, "type": "single"}},
	{Name: "Tooltip", Description: "Text that shows content on hover.",
		Props: []Prop{
			reqStr("content", "Text of the tooltip."),
			reqStr("text", "Text that carries the tooltip."),
		},
		Example: map[string]any{"content": "Service level objective", "text": "SLO"}},
}

func chartExample(xKey, x, yKey, y string) map[string]any {
	return map[string]any{"data": []any{
		map[string]any{x: "Mon", y: 3},
		map[string]any{x: "Tue", y: 5},
	}, xKey: x, yKey: y}
}

// directives are the known "$" keys, expressions first.
var directives = []Directive{
	{Name: "$state", Kind: "expression", Description: "The state value at a JSON Pointer.",
		Example: map[string]any{"$state": "/user/name"}},
	{Name: "$item", Kind: "expression", Description: "Inside a repeat, a field of the current item (\"\" for the whole item).",
		Example: map[string]any{"$item": "title"}},
	{Name: "$index", Kind: "expression", Description: "Inside a repeat, the index of the current item.",
		Example: map[string]any{"$index": true}},
	{Name: "$bindState", Kind: "expression", Description: "Two-way binding of a form value to a state path.",
		Example: map[string]any{"$bindState": "/form/email"}},
	{Name: "$bindItem", Kind: "expression", Description: "Inside a repeat, two-way binding to a field of the current item.",
		Example: map[string]any{"$bindItem": "done"}},
	{Name: "$cond", Kind: "expression", Description: "One of two values ($then, $else) by a condition."},
	{Name: "$computed", Kind: "expression", Description: "The result of a function the renderer registers, called with args.",
		Example: map[string]any{"$computed": "fullName", "args": map[string]any{"first": map[string]any{"$state": "/first"}}}},
	{Name: "$template", Kind: "expression", Description: "A string with ${/path} state references filled in.",
		Example: map[string]any{"$template": "Hello, ${/user/name}!"}},
	{Name: "$format", Kind: "directive", Description: "Locale-aware formatting of value as date, currency, number or percent.",
		Example: map[string]any{"$format": "currency", "value": map[string]any{"$state": "/total"}, "currency": "USD"}},
	{Name: "$math", Kind: "directive", Description: "Arithmetic on a and b: add, subtract, multiply, divide, mod, min, max, round, floor, ceil, abs.",
		Example: map[string]any{"$math": "multiply", "a": map[string]any{"$state": "/price"}, "b": 3}},
	{Name: "$concat", Kind: "directive", Description: "The values of a list joined into one string.",
		Example: map[string]any{"$concat": []any{map[string]any{"$state": "/first"}, " ", map[string]any{"$state": "/last"}}}},
	{Name: "$count", Kind: "directive", Description: "Length of an array or string.",
		Example: map[string]any{"$count": map[string]any{"$state": "/items"}}},
	{Name: "$truncate", Kind: "directive", Description: "Text cut to length characters (100) plus suffix (\"...\").",
		Example: map[string]any{"$truncate": map[string]any{"$state": "/body"}, "length": 80}},
	{Name: "$pluralize", Kind: "directive", Description: "A count with the one, other or zero form of a word.",
		Example: map[string]any{"$pluralize": map[string]any{"$count": map[string]any{"$state": "/items"}}, "one": "item", "other": "items"}},
	{Name: "$join", Kind: "directive", Description: "The entries of an array joined by separator (\", \").",
		Example: map[string]any{"$join": map[string]any{"$state": "/tags"}, "separator": " | "}},
}

// Lookup tables built once from catalog and directives.
var (
	byName     = map[string]*Component{} // exact name
	byFolded   = map[string]string{}     // folded name or alias → name
	isDynamic  = map[string]bool{}       // known "$" keys
	knownNames []string                  // directive names, for suggestions
	typeNames  []string                  // component names and aliases, for suggestions
)

func init() {
	for i := range catalog {
		c := &catalog[i]
		byName[c.Name] = c
		byFolded[fold(c.Name)] = c.Name
		typeNames = append(typeNames, c.Name)
		for _, a := range c.Aliases {
			byFolded[fold(a)] = c.Name
			typeNames = append(typeNames, a)
		}
	}
	sort.Strings(typeNames)
	for _, d := range directives {
		isDynamic[d.Name] = true
		knownNames = append(knownNames, d.Name)
	}
}

// fold lowercases s and drops "-", "_" and spaces, for matching types.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' || r == ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// resolveType gives the catalog name for an element type: the exact name,
// else the component whose folded name or alias equals the folded type.
func resolveType(t string) (string, bool) {
	if _, ok := byName[t]; ok {
		return t, true
	}
	name, ok := byFolded[fold(t)]
	return name, ok
}

// Catalog returns the component catalog, sorted by name. The result is the
// caller's to change.
func Catalog() []Component {
	out := make([]Component, len(catalog))
	for i, c := range catalog {
		c.Props = slices.Clone(c.Props)
		for j := range c.Props {
			c.Props[j].Enum = slices.Clone(c.Props[j].Enum)
		}
		c.Aliases = slices.Clone(c.Aliases)
		c.Slots = slices.Clone(c.Slots)
		c.Events = slices.Clone(c.Events)
		c.Coercions = slices.Clone(c.Coercions)
		if c.Example != nil {
			c.Example = deepCopy(c.Example).(map[string]any)
		}
		out[i] = c
	}
	return out
}

// Directives returns the "$" keys a prop value may use, expressions first.
// The result is the caller's to change.
func Directives() []Directive {
	out := slices.Clone(directives)
	for i := range out {
		out[i].Example = deepCopy(out[i].Example)
	}
	return out
}
