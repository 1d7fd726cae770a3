package jsonrender

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// el writes a one-element spec {root: "x", elements: {x: {type, props}}}.
func el(typ, props string) string {
	return `{"root":"x","elements":{"x":{"type":` + typ + `,"props":` + props + `}}}`
}

// normal writes the normal form of a one-element spec.
func normal(typ, props string) string {
	return `{"root":"x","elements":{"x":{"type":"` + typ + `","props":` + props + `,"children":[],"visible":true,"on":{}}}}`
}

// canonical re-encodes JSON text so that key order and spacing do not
// matter in comparisons.
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	return mustJSON(t, v)
}

// TestNormalizeRules has a case for every normalisation rule.
func TestNormalizeRules(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Document shape.
		{"bare component is wrapped", `{"type":"Text","props":{"text":"hi"}}`,
			`{"root":"root","elements":{"root":{"type":"Text","props":{"text":"hi"},"children":[],"visible":true,"on":{}}}}`},
		{"bare component keeps children and bindings", `{"type":"Button","props":{"label":"Go"},"on":{"press":{"action":"setState","params":{"statePath":"/a","value":1}}}}`,
			`{"root":"root","elements":{"root":{"type":"Button","props":{"label":"Go"},"children":[],"visible":true,"on":{"press":{"action":"setState","params":{"statePath":"/a","value":1}}}}}}`},
		{"state is kept", `{"root":"x","elements":{"x":{"type":"Text","props":{"text":"a"}}},"state":{"b":1,"a":{"c":null}}}`,
			`{"root":"x","elements":{"x":{"type":"Text","props":{"text":"a"},"children":[],"visible":true,"on":{}}},"state":{"a":{"c":null},"b":1}}`},
		{"null state is dropped", `{"root":"x","elements":{"x":{"type":"Text","props":{"text":"a"}}},"state":null}`, normal("Text", `{"text":"a"}`)},
		{"top-level extras are dropped", `{"root":"x","elements":{"x":{"type":"Text","props":{"text":"a"}}},"title":"t","$schema":"s"}`, normal("Text", `{"text":"a"}`)},

		// Types.
		{"exact type", el(`"Card"`, `{}`), normal("Card", `{}`)},
		{"type ignoring case", el(`"card"`, `{}`), normal("Card", `{}`)},
		{"type ignoring - _ and space", el(`"line-chart"`, `{"data":[],"xKey":"a","yKey":"b"}`), normal("LineChart", `{"data":[],"xKey":"a","yKey":"b"}`)},
		{"type with spaces", el(`"Stacked Bar_Chart"`, `{"data":[],"xKey":"a","series":["b"]}`), normal("StackedBarChart", `{"data":[],"xKey":"a","series":["b"]}`)},
		{"alias Panel", el(`"Panel"`, `{}`), normal("Card", `{}`)},
		{"alias native-panel", el(`"native-panel"`, `{}`), normal("Card", `{}`)},
		{"alias Section", el(`"section"`, `{}`), normal("Card", `{}`)},
		{"alias Container", el(`"Container"`, `{}`), normal("Stack", `{}`)},
		{"alias FormField", el(`"form_field"`, `{"label":"L","name":"n"}`), normal("Input", `{"label":"L","name":"n"}`)},
		{"alias Paragraph", el(`"Paragraph"`, `{"text":"a"}`), normal("Text", `{"text":"a"}`)},
		{"alias Label", el(`"LABEL"`, `{"text":"a"}`), normal("Text", `{"text":"a"}`)},
		{"alias Header", el(`"Header"`, `{"text":"a"}`), normal("Heading", `{"text":"a"}`)},
		{"alias Title", el(`"title"`, `{"text":"a"}`), normal("Heading", `{"text":"a"}`)},
		{"alias Chart", el(`"Chart"`, `{"data":[],"xKey":"a","yKey":"b"}`), normal("LineChart", `{"data":[],"xKey":"a","yKey":"b"}`)},
		{"alias Line", el(`"line"`, `{"data":[],"xKey":"a","yKey":"b"}`), normal("LineChart", `{"data":[],"xKey":"a","yKey":"b"}`)},
		{"alias Graph", el(`"Graph"`, `{"data":[],"xKey":"a","yKey":"b"}`), normal("LineChart", `{"data":[],"xKey":"a","yKey":"b"}`)},
		{"alias Bar", el(`"bar"`, `{"data":[],"xKey":"a","yKey":"b"}`), normal("BarChart", `{"data":[],"xKey":"a","yKey":"b"}`)},
		{"alias Pie", el(`"Pie"`, `{"data":[],"nameKey":"a","valueKey":"b"}`), normal("PieChart", `{"data":[],"nameKey":"a","valueKey":"b"}`)},

		// Props for every component.
		{"missing props become {}", `{"root":"x","elements":{"x":{"type":"Card"}}}`, normal("Card", `{}`)},
		{"null props become {}", `{"root":"x","elements":{"x":{"type":"Card","props":null}}}`, normal("Card", `{}`)},
		{"nulls stripped deeply, kept in arrays", el(`"Card"`, `{"title":null,"x":{"a":null,"b":1},"arr":[null,{"c":null}]}`),
			normal("Card", `{"x":{"b":1},"arr":[null,{}]}`)},
		{"string props coerced", el(`"Card"`, `{"title":3,"description":true,"text":false,"message":-0.5,"label":1.5e-7,"name":1e21,"content":100,"placeholder":12345678901234567890}`),
			normal("Card", `{"title":"3","description":"true","text":"false","message":"-0.5","label":"1.5e-7","name":"1e+21","content":"100","placeholder":"12345678901234567000"}`)},
		{"object and array props become JSON text", el(`"Card"`, `{"title":{"a":"<b>"},"description":[1,"x"]}`),
			normal("Card", `{"title":"{\"a\":\"<b>\"}","description":"[1,\"x\"]"}`)},
		{"dynamic props are not coerced", el(`"Card"`, `{"title":{"$state":"/t"},"description":{"$format":"date","value":"2024-01-01"}}`),
			normal("Card", `{"title":{"$state":"/t"},"description":{"$format":"date","value":"2024-01-01"}}`)},
		{"other props are not coerced", el(`"Link"`, `{"href":"h","label":"l","extra":5}`), normal("Link", `{"href":"h","label":"l","extra":5}`)},

		// Form controls.
		{"Input name from key", `{"root":"email field","elements":{"email field":{"type":"Input","props":{"label":"Email"}}}}`,
			`{"root":"email field","elements":{"email field":{"type":"Input","props":{"label":"Email","name":"email_field"},"children":[],"visible":true,"on":{}}}}`},
		{"Checkbox name from key", el(`"Checkbox"`, `{"label":"a"}`), normal("Checkbox", `{"label":"a","name":"x"}`)},
		{"Switch name from key", `{"root":"ok-1.b","elements":{"ok-1.b":{"type":"Switch","props":{"label":"a"}}}}`,
			`{"root":"ok-1.b","elements":{"ok-1.b":{"type":"Switch","props":{"label":"a","name":"ok-1_b"},"children":[],"visible":true,"on":{}}}}`},
		{"Textarea name from key", el(`"Textarea"`, `{"label":"a"}`), normal("Textarea", `{"label":"a","name":"x"}`)},
		{"given name kept and coerced", el(`"Input"`, `{"label":"a","name":7}`), normal("Input", `{"label":"a","name":"7"}`)},
		{"Button gets no name", el(`"Button"`, `{"label":"a"}`), normal("Button", `{"label":"a"}`)},

		// Text from content.
		{"Text text from content", el(`"Text"`, `{"content":"hi"}`), normal("Text", `{"text":"hi"}`)},
		{"Text numeric content", el(`"Text"`, `{"content":42}`), normal("Text", `{"text":"42"}`)},
		{"Heading text from content", el(`"Heading"`, `{"content":"hi","level":"h2"}`), normal("Heading", `{"text":"hi","level":"h2"}`)},
		{"Text keeps text over content", el(`"Text"`, `{"text":"a","content":"b"}`), normal("Text", `{"text":"a","content":"b"}`)},
		{"Text dynamic content", el(`"Text"`, `{"content":{"$state":"/a"}}`), normal("Text", `{"text":{"$state":"/a"}}`)},

		// Badge.
		{"Badge text from label", el(`"Badge"`, `{"label":"New","variant":"info"}`), normal("Badge", `{"text":"New","variant":"info"}`)},
		{"Badge drops label beside text", el(`"Badge"`, `{"text":"a","label":"b"}`), normal("Badge", `{"text":"a"}`)},
		{"Badge prefers content over label", el(`"Badge"`, `{"content":"c","label":"b"}`), normal("Badge", `{"text":"c"}`)},

		// Select and Radio.
		{"Select options from items", el(`"Select"`, `{"label":"L","name":"n","items":[{"label":"A","value":"a"},"B",3,{"value":"v"},true]}`),
			normal("Select", `{"label":"L","name":"n","options":["A","B","3","v","true"]}`)},
		{"Radio option objects become labels", el(`"Radio"`, `{"label":"L","name":"n","options":[{"title":"T"},{"name":"N"},"S"]}`),
			normal("Radio", `{"label":"L","name":"n","options":["T","N","S"]}`)},
		{"options win over items", el(`"Select"`, `{"label":"L","name":"n","options":["a"],"items":["b"]}`),
			normal("Select", `{"label":"L","name":"n","options":["a"],"items":["b"]}`)},

		// {label, value} lists.
		{"ToggleGroup items", el(`"ToggleGroup"`, `{"items":["a",2,{"title":"T","id":9},{"label":"L"},{"value":"v"}]}`),
			normal("ToggleGroup", `{"items":[{"label":"a","value":"a"},{"label":"2","value":"2"},{"title":"T","id":9,"label":"T","value":"9"},{"label":"L","value":"L"},{"label":"v","value":"v"}]}`)},
		{"ButtonGroup buttons", el(`"ButtonGroup"`, `{"buttons":["Day",{"label":1,"value":2}]}`),
			normal("ButtonGroup", `{"buttons":[{"label":"Day","value":"Day"},{"label":"1","value":"2"}]}`)},
		{"DropdownMenu items", el(`"DropdownMenu"`, `{"label":"M","items":["x"]}`),
			normal("DropdownMenu", `{"label":"M","items":[{"label":"x","value":"x"}]}`)},
		{"Tabs tabs", el(`"Tabs"`, `{"tabs":[{"name":"One","key":"one"},"Two"]}`),
			normal("Tabs", `{"tabs":[{"name":"One","key":"one","label":"One","value":"one"},{"label":"Two","value":"Two"}]}`)},
		{"dynamic list entries kept", el(`"Tabs"`, `{"tabs":[{"$item":"tab"}]}`), normal("Tabs", `{"tabs":[{"$item":"tab"}]}`)},
		{"dynamic list kept", el(`"Tabs"`, `{"tabs":{"$state":"/tabs"}}`), normal("Tabs", `{"tabs":{"$state":"/tabs"}}`)},

		// Button.
		{"Button default → primary", el(`"Button"`, `{"label":"a","variant":"default"}`), normal("Button", `{"label":"a","variant":"primary"}`)},
		{"Button outline → secondary", el(`"Button"`, `{"label":"a","variant":"outline"}`), normal("Button", `{"label":"a","variant":"secondary"}`)},
		{"Button destructive → danger", el(`"Button"`, `{"label":"a","variant":"destructive"}`), normal("Button", `{"label":"a","variant":"danger"}`)},
		{"Button ghost kept", el(`"Button"`, `{"label":"a","variant":"ghost"}`), normal("Button", `{"label":"a","variant":"ghost"}`)},

		// Table.
		{"Table cells become strings", el(`"Table"`, `{"columns":["Name",2],"rows":[["a",1],[true,null],[{"k":1},[2]]]}`),
			normal("Table", `{"columns":["Name","2"],"rows":[["a","1"],["true",""],["{\"k\":1}","[2]"]]}`)},
		{"Table object columns and rows", el(`"Table"`, `{"columns":[{"key":"n","label":"Name"},{"header":"Age"},"City"],"rows":[{"n":"Ann","Age":30},{"City":"Oslo","n":"Bo"}]}`),
			normal("Table", `{"columns":["Name","Age","City"],"rows":[["Ann","30",""],["Bo","","Oslo"]]}`)},
		{"Table dynamic rows kept", el(`"Table"`, `{"columns":["a"],"rows":{"$state":"/rows"}}`), normal("Table", `{"columns":["a"],"rows":{"$state":"/rows"}}`)},

		// Element fields.
		{"visible false kept", `{"root":"x","elements":{"x":{"type":"Card","visible":false}}}`,
			`{"root":"x","elements":{"x":{"type":"Card","props":{},"children":[],"visible":false,"on":{}}}}`},
		{"visible condition kept", `{"root":"x","elements":{"x":{"type":"Card","visible":{"$state":"/show"}}}}`,
			`{"root":"x","elements":{"x":{"type":"Card","props":{},"children":[],"visible":{"$state":"/show"},"on":{}}}}`},
		{"null visible and on get defaults", `{"root":"x","elements":{"x":{"type":"Card","visible":null,"on":null}}}`, normal("Card", `{}`)},
		{"children keep strings only", `{"root":"x","elements":{"x":{"type":"Card","children":["y",3,null,"y"]},"y":{"type":"Separator"}}}`,
			`{"root":"x","elements":{"x":{"type":"Card","props":{},"children":["y","y"],"visible":true,"on":{}},"y":{"type":"Separator","props":{},"children":[],"visible":true,"on":{}}}}`},
		{"children that are not a list become []", `{"root":"x","elements":{"x":{"type":"Card","children":"y"}}}`, normal("Card", `{}`)},
		{"repeat and watch kept, extras dropped", `{"root":"x","elements":{"x":{"type":"Card","repeat":{"statePath":"/items"},"watch":{"/a":{"action":"setState"}},"key":"x","parentKey":null}}}`,
			`{"root":"x","elements":{"x":{"type":"Card","props":{},"children":[],"visible":true,"on":{},"repeat":{"statePath":"/items"},"watch":{"/a":{"action":"setState"}}}}}`},
		{"orphan elements are allowed", `{"root":"x","elements":{"x":{"type":"Card"},"y":{"type":"Card"}}}`,
			`{"root":"x","elements":{"x":{"type":"Card","props":{},"children":[],"visible":true,"on":{}},"y":{"type":"Card","props":{},"children":[],"visible":true,"on":{}}}}`},
		{"dynamic props skip type checks", el(`"Progress"`, `{"value":{"$state":"/p"}}`), normal("Progress", `{"value":{"$state":"/p"}}`)},
		{"unknown props pass", el(`"Progress"`, `{"value":1,"style":{"color":"red"}}`), normal("Progress", `{"value":1,"style":{"color":"red"}}`)},
		{"mixed $ and plain keys are a plain object", el(`"Card"`, `{"meta":{"$x":1,"a":2}}`), normal("Card", `{"meta":{"$x":1,"a":2}}`)},
		{"highlight takes an index", el(`"BarChart"`, `{"data":[{"a":1}],"xKey":"a","yKey":"a","highlight":0}`),
			normal("BarChart", `{"data":[{"a":1}],"xKey":"a","yKey":"a","highlight":0}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := Normalize([]byte(tt.in))
			if err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			if got, want := canonical(t, mustJSON(t, spec)), canonical(t, tt.want); got != want {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
			again, err := Normalize(spec)
			if err != nil {
				t.Fatalf("Normalize of its own output: %v", err)
			}
			if !reflect.DeepEqual(again, spec) {
				t.Fatalf("not idempotent:\n once  %s\n twice %s", mustJSON(t, spec), mustJSON(t, again))
			}
		})
	}
}

// TestNormalizeErrors has a case for every error, with its exact text.
func TestNormalizeErrors(t *testing.T) {
	const missing = "Missing root and elements in spec. Pass a complete {root, elements} document, or a single bare component object with a type field."
	prefix := "Invalid json-render spec: "
	tests := []struct {
		name, in, want string
	}{
		{"empty object", `{}`, missing},
		{"no root", `{"elements":{"x":{"type":"Card"}}}`, missing},
		{"no elements", `{"root":"x"}`, missing},
		{"null root", `{"root":null,"elements":{}}`, missing},
		{"array", `[]`, missing},
		{"string", `"Card"`, missing},
		{"null", `null`, missing},
		{"bare type not a string", `{"type":3}`, missing},

		{"root not a string", `{"root":1,"elements":{}}`, prefix + "root: expected string, got number"},
		{"root empty", `{"root":"","elements":{}}`, prefix + "root: must name an element"},
		{"root missing element", `{"root":"x","elements":{"y":{"type":"Card"}}}`, prefix + `root: element "x" does not exist`},
		{"elements not an object", `{"root":"x","elements":[]}`, prefix + "elements: expected object, got array"},
		{"state not an object", `{"root":"x","elements":{"x":{"type":"Card"}},"state":[1]}`, prefix + "state: expected object, got array"},
		{"empty element key", `{"root":"x","elements":{"x":{"type":"Card"},"":{"type":"Card"}}}`, prefix + "elements: an element key is empty"},
		{"element not an object", `{"root":"x","elements":{"x":"Card"}}`, prefix + `elements.x: expected object, got string`},

		{"type missing", `{"root":"x","elements":{"x":{"props":{}}}}`, prefix + "elements.x.type: required string"},
		{"type not a string", el(`7`, `{}`), prefix + "elements.x.type: expected string, got number"},
		{"unknown type with a near name", `{"root":"card1","elements":{"card1":{"type":"Crad"}}}`,
			prefix + `elements.card1.type: unknown component "Crad" (did you mean Card?)`},
		{"unknown type near a component and an alias", el(`"Tabel"`, `{}`), prefix + `elements.x.type: unknown component "Tabel" (did you mean Table or Text?)`},
		{"unknown type by prefix", el(`"Check"`, `{}`), prefix + `elements.x.type: unknown component "Check" (did you mean Checkbox?)`},
		{"unknown type by abbreviation", el(`"Btn"`, `{}`), prefix + `elements.x.type: unknown component "Btn" (did you mean Button or ButtonGroup?)`},
		{"unknown type, nothing near", el(`"Zzyzx"`, `{}`), prefix + `elements.x.type: unknown component "Zzyzx"`},
		{"three suggestions at most, prefixes before abbreviations", el(`"Car"`, `{}`), prefix + `elements.x.type: unknown component "Car" (did you mean BarChart, Card or Carousel?)`},
		{"props not an object", el(`"Card"`, `[1]`), prefix + "elements.x.props: expected object, got array"},
		{"visible a string", `{"root":"x","elements":{"x":{"type":"Card","visible":"yes"}}}`, prefix + `elements.x.visible: expected boolean or condition, got string`},
		{"on an array", `{"root":"x","elements":{"x":{"type":"Card","on":[]}}}`, prefix + "elements.x.on: expected object, got array"},
		{"repeat a string", `{"root":"x","elements":{"x":{"type":"Card","repeat":"/items"}}}`, prefix + "elements.x.repeat: expected object, got string"},
		{"watch a number", `{"root":"x","elements":{"x":{"type":"Card","watch":1}}}`, prefix + "elements.x.watch: expected object, got number"},

		{"__proto__ in props", el(`"Card"`, `{"__proto__":{"polluted":true}}`), prefix + `elements.x.props.__proto__: key "__proto__" is not allowed`},
		{"constructor as element key", `{"root":"x","elements":{"x":{"type":"Card"},"constructor":{"type":"Card"}}}`,
			prefix + `elements.constructor: key "constructor" is not allowed`},
		{"prototype in state", `{"root":"x","elements":{"x":{"type":"Card"}},"state":{"a":[{"prototype":1}]}}`,
			prefix + `state.a.0.prototype: key "prototype" is not allowed`},
		{"__proto__ in a bare component", `{"type":"Card","__proto__":{}}`, prefix + `__proto__: key "__proto__" is not allowed`},

		{"missing child", `{"root":"x","elements":{"x":{"type":"Card","children":["y","z"]},"y":{"type":"Card"}}}`,
			prefix + `elements.x.children.1: element "z" does not exist`},
		{"self cycle", `{"root":"x","elements":{"x":{"type":"Card","children":["x"]}}}`, prefix + "elements.x.children.0: cycle x → x"},
		{"long cycle", `{"root":"a","elements":{"a":{"type":"Card","children":["b"]},"b":{"type":"Card","children":["c"]},"c":{"type":"Card","children":["a"]}}}`,
			prefix + "elements.c.children.0: cycle a → b → c → a"},
		{"two cycles", `{"root":"a","elements":{"a":{"type":"Card","children":["b","a"]},"b":{"type":"Card","children":["a"]}}}`,
			prefix + "elements.b.children.0: cycle a → b → a; elements.a.children.1: cycle a → a"},

		{"unknown directive with a near name", el(`"Text"`, `{"text":{"$fromat":"date"}}`), prefix + `elements.x.props.text: unknown directive "$fromat" (did you mean $format?)`},
		{"unknown directive by abbreviation", el(`"Text"`, `{"text":{"$fmt":"date"}}`), prefix + `elements.x.props.text: unknown directive "$fmt" (did you mean $format?)`},
		{"unknown directive, nothing near", el(`"Text"`, `{"text":{"$zz":1,"$yy":2}}`),
			prefix + `elements.x.props.text: unknown directive "$yy" (known: $state, $item, $index, $bindState, $bindItem, $cond, $computed, $template, $format, $math, $concat, $count, $truncate, $pluralize, $join)`},
		{"unknown directive nested", el(`"Text"`, `{"text":{"$concat":["a",{"$stat":"/b"}]}}`), prefix + `elements.x.props.text.$concat.1: unknown directive "$stat" (did you mean $state?)`},

		{"required prop missing", el(`"Text"`, `{}`), prefix + "elements.x.props.text: required string"},
		{"required array missing", el(`"Table"`, `{"columns":["a"]}`), prefix + "elements.x.props.rows: required array of arrays of strings"},
		{"required enum-less number missing", el(`"Pagination"`, `{}`), prefix + "elements.x.props.totalPages: required number"},
		{"number wrong", el(`"Progress"`, `{"value":"5"}`), prefix + `elements.x.props.value: expected number, got "5"`},
		{"boolean wrong", el(`"Card"`, `{"centered":"yes"}`), prefix + `elements.x.props.centered: expected boolean, got "yes"`},
		{"string wrong", el(`"Link"`, `{"href":5,"label":"a"}`), prefix + `elements.x.props.href: expected string, got number`},
		{"enum wrong", el(`"Alert"`, `{"title":"t","type":"fatal"}`), prefix + `elements.x.props.type: expected one of "info", "success", "warning", "error", got "fatal"`},
		{"enum not a string", el(`"Heading"`, `{"text":"t","level":1}`), prefix + `elements.x.props.level: expected one of "h1", "h2", "h3", "h4", got number`},
		{"highlight wrong", el(`"BarChart"`, `{"data":[],"xKey":"a","yKey":"b","highlight":"top"}`), prefix + `elements.x.props.highlight: expected "max", "min" or a number, got "top"`},
		{"array wrong", el(`"Table"`, `{"columns":"a","rows":[]}`), prefix + `elements.x.props.columns: expected array of strings, got "a"`},
		{"matrix row wrong", el(`"Table"`, `{"columns":["a"],"rows":["abc"]}`), prefix + `elements.x.props.rows.0: expected array of strings, got "abc"`},
		{"option entry wrong", el(`"Select"`, `{"label":"l","name":"n","options":[{"id":1}]}`), prefix + "elements.x.props.options.0: expected string, got object"},
		{"chart row wrong", el(`"LineChart"`, `{"data":[{"a":1},2],"xKey":"a","yKey":"a"}`), prefix + "elements.x.props.data.1: expected object, got number"},
		{"label-value entry wrong", el(`"Tabs"`, `{"tabs":[[1]]}`), prefix + "elements.x.props.tabs.0: expected {label, value}, got array"},
		{"label-value field missing", el(`"Tabs"`, `{"tabs":[{"id":1}]}`), prefix + "elements.x.props.tabs.0.label: required string"},
		{"accordion field missing", el(`"Accordion"`, `{"items":[{"title":"a"}]}`), prefix + "elements.x.props.items.0.content: required string"},
		{"carousel field wrong", el(`"Carousel"`, `{"items":[{"title":1}]}`), prefix + "elements.x.props.items.0.title: expected string, got number"},
		{"check fields", el(`"Input"`, `{"label":"l","name":"n","checks":[{"type":"required","args":1}]}`),
			prefix + "elements.x.props.checks.0.message: required string; elements.x.props.checks.0.args: expected object, got number"},

		{"issues in order, five shown", `{"root":"q","elements":{"r":{"type":"Card","children":["gone"]},"b":{"type":"Text"},"a":{"type":"Nope"},"c":{"type":"Alert","props":{"type":"x"}},"d":{"type":"Link"}},"state":1}`,
			prefix + `root: element "q" does not exist; state: expected object, got number; elements.a.type: unknown component "Nope"; elements.b.props.text: required string; elements.c.props.title: required string; +4 more issue(s)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := Normalize([]byte(tt.in))
			if err == nil {
				t.Fatalf("Normalize = %s, want error %q", mustJSON(t, spec), tt.want)
			}
			if err.Error() != tt.want {
				t.Fatalf("error\n got %s\nwant %s", err, tt.want)
			}
			var se *SpecError
			if errors.As(err, &se) == (tt.want == missing) {
				t.Fatalf("error %T: a *SpecError for validation, ErrMissingRoot otherwise", err)
			}
			if tt.want == missing && !errors.Is(err, ErrMissingRoot) {
				t.Fatalf("error is not ErrMissingRoot")
			}
		})
	}
}

// TestSpecErrorCaps checks that a SpecError keeps 100 issues, counts the
// rest, and lists five in its message.
func TestSpecErrorCaps(t *testing.T) {
	elements := map[string]any{"root": map[string]any{"type": "Card"}}
	for i := range 150 {
		elements[fmt.Sprintf("t%03d", i)] = map[string]any{"type": "Text"}
	}
	_, err := Normalize(map[string]any{"root": "root", "elements": elements})
	var se *SpecError
	if !errors.As(err, &se) {
		t.Fatalf("Normalize: %v, want a *SpecError", err)
	}
	if len(se.Issues) != 100 || se.Omitted != 50 {
		t.Fatalf("kept %d issues and omitted %d, want 100 and 50", len(se.Issues), se.Omitted)
	}
	if se.Issues[99].Path != "elements.t099.props.text" {
		t.Fatalf("last kept issue %v", se.Issues[99])
	}
	if want := "elements.t004.props.text: required string; +145 more issue(s)"; !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("error %q does not end with %q", err, want)
	}
}

// TestNormalizeLimits checks MaxElements and that the forbidden-key scan
// stops at the issue cap.
func TestNormalizeLimits(t *testing.T) {
	elements := map[string]any{}
	for i := range MaxElements + 1 {
		elements[fmt.Sprint("e", i)] = map[string]any{"type": "Card"}
	}
	_, err := Normalize(map[string]any{"root": "e0", "elements": elements})
	if want := "Invalid json-render spec: elements: 2001 elements exceed the limit of 2000"; err == nil || err.Error() != want {
		t.Fatalf("Normalize = %v, want %q", err, want)
	}
	delete(elements, "e1")
	if _, err := Normalize(map[string]any{"root": "e0", "elements": elements}); err != nil {
		t.Fatalf("Normalize of %d elements: %v", len(elements), err)
	}

	props := map[string]any{}
	for i := range 300 {
		props[fmt.Sprint("p", i)] = map[string]any{"__proto__": 1}
	}
	_, err = Normalize(map[string]any{"type": "Card", "props": props})
	var se *SpecError
	if !errors.As(err, &se) || len(se.Issues) != 100 || se.Omitted != 200 {
		t.Fatalf("Normalize with 300 forbidden keys: %v", err)
	}
}

// TestNormalizeInputs checks the kinds of value Normalize accepts and that
// it leaves its input alone.
func TestNormalizeInputs(t *testing.T) {
	in := map[string]any{"type": "Badge", "props": map[string]any{"label": "New", "x": nil}}
	want := normal("Badge", `{"text":"New"}`)
	want = strings.Replace(want, `"root":"x","elements":{"x"`, `"root":"root","elements":{"root"`, 1)
	for _, v := range []any{
		in,
		[]byte(mustJSON(t, in)),
		json.RawMessage(mustJSON(t, in)),
		struct {
			Type  string         `json:"type"`
			Props map[string]any `json:"props"`
		}{"Badge", map[string]any{"label": "New"}},
		map[string]any{"type": "Badge", "props": map[string]any{"label": json.Number("1"), "text": "New", "n": int64(3), "m": 2}},
	} {
		spec, err := Normalize(v)
		if err != nil {
			t.Fatalf("Normalize(%T): %v", v, err)
		}
		got := canonical(t, mustJSON(t, spec))
		if _, isMap := v.(map[string]any); isMap && strings.Contains(mustJSON(t, v), `"n":3`) {
			if want := canonical(t, `{"root":"root","elements":{"root":{"type":"Badge","props":{"text":"New","n":3,"m":2},"children":[],"visible":true,"on":{}}}}`); got != want {
				t.Fatalf("Normalize(numbers) = %s, want %s", got, want)
			}
			continue
		}
		if got != canonical(t, want) {
			t.Fatalf("Normalize(%T) = %s, want %s", v, got, want)
		}
	}
	if _, ok := in["props"].(map[string]any)["label"]; !ok {
		t.Fatal("Normalize changed its input")
	}
	for _, v := range []any{[]byte(`{"type":`), map[string]any{"type": "Card", "props": map[string]any{"f": func() {}}}} {
		if _, err := Normalize(v); err == nil || !strings.HasPrefix(err.Error(), "jsonrender: ") {
			t.Fatalf("Normalize(%T) = %v, want a jsonrender error", v, err)
		}
	}
}

// TestSummaryAndTitle checks Summary and the reference's title order.
func TestSummaryAndTitle(t *testing.T) {
	spec, err := Normalize([]byte(`{"root":"c","elements":{"c":{"type":"Card","props":{"title":" Deploys "},"children":["t"]},"t":{"type":"Text","props":{"text":"x"}}},"state":{"b":1,"a":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, spec.Summary()); got != `{"root":"c","elementCount":2,"stateKeys":["a","b"]}` {
		t.Fatalf("Summary = %s", got)
	}
	bare, _ := Normalize([]byte(`{"type":"Separator"}`))
	if got := mustJSON(t, bare.Summary()); got != `{"root":"root","elementCount":1,"stateKeys":[]}` {
		t.Fatalf("Summary = %s", got)
	}
	text, _ := Normalize([]byte(`{"type":"Text","props":{"text":"hello"}}`))
	for _, tt := range []struct {
		spec        *Spec
		given, want string
	}{
		{spec, " Mine ", "Mine"},
		{spec, "  ", "Deploys"},
		{text, "", "hello"},
		{bare, "", "Separator"},
		{&Spec{}, "", "json-render"},
	} {
		if got := tt.spec.Title(tt.given); got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.given, got, tt.want)
		}
	}
}

// TestNumberFormatting checks the JavaScript number forms coercion uses.
func TestNumberFormatting(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {-0.0, "0"}, {1, "1"}, {-2.5, "-2.5"}, {0.1, "0.1"}, {1e20, "100000000000000000000"},
		{1e21, "1e+21"}, {1.5e300, "1.5e+300"}, {0.000001, "0.000001"}, {1e-7, "1e-7"}, {-1.25e-10, "-1.25e-10"},
	} {
		if got := formatNumber(tt.f); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// TestDistance checks the edit distance suggestions use.
func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"card", "card", 0}, {"crad", "card", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"grid", "card", 3}, {"ab", "ba", 1}, {"ä", "a", 1},
	} {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
