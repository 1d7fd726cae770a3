package jsonrender

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// referenceCatalog is the reference's catalog table (domain.md §2.13), one
// token per prop in order: "name", "name?" when optional, "[]" for arrays
// and ":a|b" for an enum.
var referenceCatalog = map[string]string{
	"Accordion":       "items[] type?:single|multiple",
	"Alert":           "title message? type?:info|success|warning|error",
	"AreaChart":       "data[] xKey yKey aggregate?:sum|count|avg color? height? title?",
	"Avatar":          "name src? size?:sm|md|lg",
	"Badge":           "text variant?:default|secondary|destructive|outline|success|info|warning|error|danger",
	"BarChart":        "data[] xKey yKey aggregate?:sum|count|avg color? colorBy?:series|category|value|none height? highlight?:max|min title?",
	"BulletChart":     "data[] valueKey labelKey? targetKey? rangesKey? color? height? title?",
	"Button":          "label disabled? variant?:primary|secondary|destructive|danger|outline|ghost|success",
	"ButtonGroup":     "buttons[] selected?",
	"Card":            "title? description? maxWidth?:sm|md|lg|full centered? className?",
	"Carousel":        "items[]",
	"Checkbox":        "label name checked? checks[]? validateOn?:change|blur|submit",
	"Collapsible":     "title defaultOpen?",
	"ComposedChart":   "data[] xKey barKey lineKey barColor? lineColor? showLegend? height? title?",
	"Dialog":          "title openPath description?",
	"DotPlot":         "data[] labelKey valueKey color? sort?:asc|desc|none height? title?",
	"Drawer":          "title openPath description?",
	"DropdownMenu":    "label items[] value?",
	"Grid":            "columns? gap?:sm|md|lg|xl className?",
	"Heading":         "text level?:h1|h2|h3|h4",
	"Image":           "alt src? width? height?",
	"Input":           "label name type?:text|email|password|number placeholder? value? checks[]? validateOn?:change|blur|submit",
	"LineChart":       "data[] xKey yKey aggregate?:sum|count|avg color? height? title?",
	"Link":            "href label",
	"Pagination":      "totalPages page?",
	"PieChart":        "data[] nameKey valueKey showLabels? showLegend? height? title?",
	"Popover":         "trigger content",
	"Progress":        "value max? label?",
	"RadarChart":      "data[] axisKey metrics[] showLegend? height? title?",
	"Radio":           "label name options[] value? checks[]? validateOn?:change|blur|submit",
	"ScatterChart":    "data[] xKey yKey zKey? color? height? title?",
	"Select":          "label name options[] placeholder? value? checks[]? validateOn?:change|blur|submit",
	"Separator":       "orientation?:horizontal|vertical",
	"Skeleton":        "width? height? rounded?",
	"Slider":          "label? min? max? step? value?",
	"Slopegraph":      "data[] labelKey beforeKey afterKey beforeLabel? afterLabel? color? colorByDirection? height? title?",
	"Sparkline":       "data[] valueKey color? fill? showEndDot? showMinMax? showValue? height? title?",
	"Spinner":         "label? size?:sm|md|lg",
	"Stack":           "direction?:horizontal|vertical gap?:none|sm|md|lg|xl align?:start|center|end|stretch justify?:start|center|end|between|around className?",
	"StackedBarChart": "data[] xKey series[] aggregate?:sum|count|avg showLegend? height? title?",
	"Switch":          "label name checked? checks[]? validateOn?:change|blur|submit",
	"Table":           "columns[] rows[] caption?",
	"Tabs":            "tabs[] defaultValue? value?",
	"Text":            "text variant?:body|caption|muted|lead|code",
	"Textarea":        "label name placeholder? rows? value? checks[]? validateOn?:change|blur|submit",
	"Toggle":          "label pressed? variant?:default|outline",
	"ToggleGroup":     "items[] type?:single|multiple value?",
	"Tooltip":         "content text",
}

// TestCatalogMatchesReference checks every component's props, in order,
// against the reference's table.
func TestCatalogMatchesReference(t *testing.T) {
	cat := Catalog()
	if len(cat) != 48 || len(referenceCatalog) != 48 {
		t.Fatalf("catalog has %d components, the reference table %d; want 48", len(cat), len(referenceCatalog))
	}
	for i, c := range cat {
		if i > 0 && cat[i-1].Name >= c.Name {
			t.Errorf("catalog not sorted: %s before %s", cat[i-1].Name, c.Name)
		}
		want, ok := referenceCatalog[c.Name]
		if !ok {
			t.Errorf("%s is not in the reference catalog", c.Name)
			continue
		}
		var got []string
		for _, p := range c.Props {
			tok := p.Name
			if p.Type == "array" {
				tok += "[]"
			}
			if !p.Required {
				tok += "?"
			}
			if len(p.Enum) > 0 {
				tok += ":" + strings.Join(p.Enum, "|")
			}
			got = append(got, tok)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s props:\n got %s\nwant %s", c.Name, g, want)
		}
	}
}

// TestCatalogEntries checks what the schema document relies on: every
// component and prop is described, arrays say what they hold, enums list
// their values, and each example is a valid, already normal props object.
func TestCatalogEntries(t *testing.T) {
	for _, c := range Catalog() {
		if c.Description == "" || !strings.HasSuffix(c.Description, ".") {
			t.Errorf("%s: description %q", c.Name, c.Description)
		}
		for _, p := range c.Props {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", c.Name, p.Name)
			}
			if (p.Type == "array") != (p.Items != "") {
				t.Errorf("%s.%s: type %s, items %q", c.Name, p.Name, p.Type, p.Items)
			}
			if (p.Type == "enum") != (len(p.Enum) > 0) && p.Type != "string|number" {
				t.Errorf("%s.%s: type %s, enum %v", c.Name, p.Name, p.Type, p.Enum)
			}
		}
		if c.Example == nil {
			t.Errorf("%s has no example", c.Name)
			continue
		}
		in := map[string]any{"type": c.Name, "props": c.Example}
		spec, err := Normalize(in)
		if err != nil {
			t.Errorf("%s example: %v", c.Name, err)
			continue
		}
		if got, want := mustJSON(t, spec.Elements["root"].Props), mustJSON(t, c.Example); got != want && !formControls[c.Name] {
			t.Errorf("%s example is not normal:\n got %s\nwant %s", c.Name, got, want)
		}
	}
}

// TestCatalogSlotsAndAliases checks the reference's slots and aliases.
func TestCatalogSlotsAndAliases(t *testing.T) {
	var slotted []string
	aliases := map[string]string{}
	for _, c := range Catalog() {
		if slices.Equal(c.Slots, []string{"default"}) {
			slotted = append(slotted, c.Name)
		}
		for _, a := range c.Aliases {
			aliases[a] = c.Name
		}
	}
	if want := []string{"Card", "Collapsible", "Dialog", "Drawer", "Grid", "Stack", "Tabs"}; !slices.Equal(slotted, want) {
		t.Errorf("slotted components %v, want %v", slotted, want)
	}
	want := map[string]string{
		"NativePanel": "Card", "Panel": "Card", "Section": "Card", "Container": "Stack",
		"FormField": "Input", "Paragraph": "Text", "Label": "Text", "Header": "Heading",
		"Title": "Heading", "Chart": "LineChart", "Line": "LineChart", "Graph": "LineChart",
		"Bar": "BarChart", "Pie": "PieChart",
	}
	if mustJSON(t, aliases) != mustJSON(t, want) {
		t.Errorf("aliases %v, want %v", aliases, want)
	}
}

// TestCatalogIsACopy checks that changing what Catalog and Directives
// return does not change the package's tables.
func TestCatalogIsACopy(t *testing.T) {
	c := Catalog()
	c[0].Name = "Changed"
	c[0].Props[0].Name = "changed"
	c[0].Example["items"] = nil
	c[1].Props[2].Enum[0] = "changed"
	d := Directives()
	d[0].Example.(map[string]any)["$state"] = "changed"
	again := Catalog()
	if again[0].Name != "Accordion" || again[0].Props[0].Name != "items" || again[0].Example["items"] == nil || again[1].Props[2].Enum[0] != "info" {
		t.Fatalf("Catalog shares its tables: %+v", again[:2])
	}
	if Directives()[0].Example.(map[string]any)["$state"] != "/user/name" {
		t.Fatal("Directives shares its table")
	}
}

// TestDirectives checks the fifteen known "$" keys and that each example
// counts as dynamic.
func TestDirectives(t *testing.T) {
	var names []string
	for _, d := range Directives() {
		names = append(names, d.Name)
		if d.Kind != "expression" && d.Kind != "directive" || d.Description == "" {
			t.Errorf("%s: kind %q, description %q", d.Name, d.Kind, d.Description)
		}
		if d.Example != nil && !dynamic(d.Example) {
			t.Errorf("%s example %v is not dynamic", d.Name, d.Example)
		}
	}
	want := "$state $item $index $bindState $bindItem $cond $computed $template $format $math $concat $count $truncate $pluralize $join"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("directives %s, want %s", got, want)
	}
}

// TestRootShape checks the shape the schema document shows.
func TestRootShape(t *testing.T) {
	if RootShape.Root != "string" || !strings.HasPrefix(RootShape.Elements, "record<string, { type, props, children") ||
		RootShape.State != "record<string, unknown> | optional" {
		t.Errorf("RootShape = %+v", RootShape)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %v: %v", v, err)
	}
	return string(b)
}
