package graphspec

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// need is what a chart requires of the values under one of its keys.
type need uint8

const (
	needAny     need = iota // anything; labels and categories
	needNumber              // a finite number
	needNumbers             // an array of finite numbers (bullet ranges)
)

// ref is one key the chart reads from the rows.
type ref struct {
	role string // the option that names the key, e.g. "yKey" or "metrics"
	key  string
	need need
}

// builder collects one chart's props and the keys they reference.
type builder struct {
	in    *Input
	comp  string // json-render component, for messages
	rows  []map[string]any
	order []string // the first row's keys, in inference order
	props map[string]any
	refs  []ref
}

func newBuilder(in *Input, component string) *builder {
	data := make([]any, len(in.Data))
	for i, row := range in.Data {
		data[i] = row
	}
	return &builder{
		in:    in,
		comp:  component,
		rows:  in.Data,
		order: firstRowKeys(in),
		props: map[string]any{"data": data},
	}
}

// chart sets the props of the chart type typ, following the reference's
// per-chart defaults (explicit input always wins).
func (b *builder) chart(typ string) error {
	in := b.in
	switch typ {
	case "line", "area", "bar":
		x := firstOf(in.XKey, b.firstKey(), "label")
		b.key("xKey", x, needAny)
		b.key("yKey", firstOf(in.YKey, b.firstKey(x), "value"), b.valueNeed())
		b.str("aggregate", in.Aggregate)
		b.str("color", in.Color)
		if typ == "bar" {
			return b.barColoring()
		}
	case "pie":
		b.key("nameKey", firstOf(in.NameKey, "name"), needAny)
		b.key("valueKey", firstOf(in.ValueKey, "value"), needNumber)
		b.props["showLegend"] = in.ShowLegend == nil || *in.ShowLegend
		b.props["showLabels"] = in.ShowLabels == nil || *in.ShowLabels
	case "scatter":
		b.key("xKey", firstOf(in.XKey, "x"), needAny)
		b.key("yKey", firstOf(in.YKey, "y"), needNumber)
		b.optional("zKey", in.ZKey, needNumber)
		b.str("color", in.Color)
	case "radar":
		axis := firstOf(in.AxisKey, in.XKey, "axis")
		b.key("axisKey", axis, needAny)
		if err := b.keyList("metrics", in.Metrics, "axisKey", axis, needNumber); err != nil {
			return err
		}
		b.flag("showLegend", in.ShowLegend)
	case "stacked-bar":
		x := firstOf(in.XKey, "label")
		b.key("xKey", x, needAny)
		if err := b.keyList("series", in.Series, "xKey", x, b.valueNeed()); err != nil {
			return err
		}
		b.str("aggregate", in.Aggregate)
		b.flag("showLegend", in.ShowLegend)
	case "composed":
		x := firstOf(in.XKey, "label")
		bar := firstOf(in.BarKey, in.YKey, "value")
		b.key("xKey", x, needAny)
		b.key("barKey", bar, needNumber)
		b.key("lineKey", firstOf(in.LineKey, b.firstKey(x, bar), "rate"), needNumber)
		b.str("barColor", in.BarColor)
		b.str("lineColor", in.LineColor)
		b.flag("showLegend", in.ShowLegend)
	case "sparkline":
		b.key("valueKey", firstOf(in.ValueKey, in.YKey, "value"), needNumber)
		b.str("color", in.Color)
		b.flag("fill", in.Fill)
		b.flag("showEndDot", in.ShowEndDot)
		b.flag("showMinMax", in.ShowMinMax)
		b.flag("showValue", in.ShowValue)
	case "dot-plot":
		b.key("labelKey", firstOf(in.LabelKey, in.XKey, "label"), needAny)
		b.key("valueKey", firstOf(in.ValueKey, in.YKey, "value"), needNumber)
		b.str("color", in.Color)
		b.str("sort", in.Sort)
	case "bullet":
		b.optional("labelKey", firstOf(in.LabelKey, in.XKey), needAny)
		b.key("valueKey", firstOf(in.ValueKey, in.YKey, b.ifPresent("value"), b.ifPresent("actual"), "value"), needNumber)
		b.optional("targetKey", in.TargetKey, needNumber)
		b.optional("rangesKey", in.RangesKey, needNumbers)
		b.str("color", in.Color)
	case "slopegraph":
		b.key("labelKey", firstOf(in.LabelKey, "label"), needAny)
		b.key("beforeKey", firstOf(in.BeforeKey, "before"), needNumber)
		b.key("afterKey", firstOf(in.AfterKey, "after"), needNumber)
		b.str("beforeLabel", in.BeforeLabel)
		b.str("afterLabel", in.AfterLabel)
		b.str("color", in.Color)
		b.flag("colorByDirection", in.ColorByDirection)
	}
	return nil
}

// barColoring sets colorBy (default series) and, for series colouring, the
// accented bar (default max). An explicit null highlight leaves the prop
// out, as the reference's normalisation strips null props.
func (b *builder) barColoring() error {
	colorBy := firstOf(b.in.ColorBy, "series")
	b.props["colorBy"] = colorBy
	if colorBy != "series" {
		return nil
	}
	h := b.in.Highlight
	switch {
	case !h.Set:
		b.props["highlight"] = "max"
	case h.Value == nil:
	default:
		if s, ok := h.Value.(string); ok {
			b.props["highlight"] = s
			return nil
		}
		idx, _ := jsonnum.Float(h.Value) // a whole number ≥ 0, by checkOptions
		// Aggregation merges rows into fewer bars in the browser, so the
		// row count bounds the index only without it.
		if n := len(b.rows); b.in.Aggregate == "" && n > 0 && idx >= float64(n) {
			return fmt.Errorf("Invalid highlight %v: the chart has %d bars, indexed 0 to %d.", idx, n, n-1)
		}
		b.props["highlight"] = idx
	}
	return nil
}

// valueNeed is what the plotted values must be: counting rows needs no
// numbers.
func (b *builder) valueNeed() need {
	if b.in.Aggregate == "count" {
		return needAny
	}
	return needNumber
}

// key sets the prop role to key and records that the rows must hold it.
func (b *builder) key(role, key string, n need) {
	b.props[role] = key
	b.refs = append(b.refs, ref{role: role, key: key, need: n})
}

// optional is key for a key that has no default.
func (b *builder) optional(role, key string, n need) {
	if key != "" {
		b.key(role, key, n)
	}
}

// keyList sets a list prop (radar metrics, stacked-bar series): the given
// keys or, when none are given, the first row's numeric columns other than
// the category key.
func (b *builder) keyList(name string, given []string, catRole, cat string, n need) error {
	keys := given
	if len(keys) == 0 {
		for _, k := range b.order {
			if _, ok := jsonnum.Float(b.rows[0][k]); ok && k != cat {
				keys = append(keys, k)
			}
		}
		switch {
		case len(b.rows) == 0:
			return fmt.Errorf("%s needs %s: there are no rows to infer them from. Pass %s.", b.comp, name, name)
		case len(keys) == 0:
			return fmt.Errorf("%s needs %s: data[0] has no numeric column besides %s %q. Pass %s.", b.comp, name, catRole, cat, name)
		case len(keys) > MaxSeries:
			return fmt.Errorf("%s would draw %d %s (every numeric column of data[0]); the limit is %d. Pass %s.", b.comp, len(keys), name, MaxSeries, name)
		}
	}
	list := make([]any, len(keys))
	for i, k := range keys {
		list[i] = k
		b.refs = append(b.refs, ref{role: name, key: k, need: n})
	}
	b.props[name] = list
	return nil
}

func (b *builder) str(name, v string) {
	if v != "" {
		b.props[name] = v
	}
}

func (b *builder) flag(name string, v *bool) {
	if v != nil {
		b.props[name] = *v
	}
}

// firstKey returns the first of the first row's keys that is not in skip,
// or "" when there is none.
func (b *builder) firstKey(skip ...string) string {
	for _, k := range b.order {
		if !slices.Contains(skip, k) {
			return k
		}
	}
	return ""
}

// ifPresent returns key when some row has it, else "".
func (b *builder) ifPresent(key string) string {
	if b.hasKey(key) {
		return key
	}
	return ""
}

func (b *builder) hasKey(key string) bool {
	for _, row := range b.rows {
		if _, ok := row[key]; ok {
			return true
		}
	}
	return false
}

// checkRows checks, when there are rows, that every referenced key is in
// some row and that values are numbers where the chart plots numbers.
// Missing and null values are gaps, which every chart draws.
func (b *builder) checkRows() error {
	if len(b.rows) == 0 {
		return nil
	}
	var missing []string
	for _, r := range b.refs {
		if !b.hasKey(r.key) && !slices.Contains(missing, r.key) {
			missing = append(missing, r.key)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("Graph data key mismatch for %s: missing %s. Available keys: %s.",
			b.comp, strings.Join(missing, ", "), b.availableKeys())
	}
	for i, row := range b.rows {
		for _, r := range b.refs {
			v := row[r.key]
			if r.need == needAny || v == nil {
				continue
			}
			if path, want, got := checkValue(v, r.need); want != "" {
				return fmt.Errorf("Graph data[%d].%s%s must be %s (%s), got %s.", i, r.key, path, want, r.role, describe(got))
			}
		}
	}
	return nil
}

// checkValue reports how v fails n: the path below v ("" or "[2]"), what
// was wanted there and what was found. want is "" when v satisfies n.
func checkValue(v any, n need) (path, want string, got any) {
	if n == needNumber {
		f, ok := jsonnum.Float(v)
		switch {
		case !ok:
			return "", "a number", v
		case math.IsNaN(f) || math.IsInf(f, 0):
			return "", "a finite number", v
		}
		return "", "", nil
	}
	var items []any
	switch l := v.(type) {
	case []any:
		items = l
	case []float64:
		for _, f := range l {
			items = append(items, f)
		}
	case []int:
		for _, x := range l {
			items = append(items, x)
		}
	default:
		return "", "an array of numbers", v
	}
	for j, item := range items {
		if _, want, got := checkValue(item, needNumber); want != "" {
			return "[" + strconv.Itoa(j) + "]", want, got
		}
	}
	return "", "", nil
}

// availableKeys lists every key of every row, sorted, or "(none)".
func (b *builder) availableKeys() string {
	seen := map[string]bool{}
	var keys []string
	for _, row := range b.rows {
		for k := range row {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return "(none)"
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// firstRowKeys returns the first row's keys in the order inference reads
// them: the source order when UnmarshalJSON recorded one for this row, else
// one label-like (non-numeric) column, then the numeric columns, then the
// other columns, each group sorted — which matches how tables are usually
// laid out, label first.
func firstRowKeys(in *Input) []string {
	if len(in.Data) == 0 {
		return nil
	}
	row := in.Data[0]
	if len(in.order) == len(row) && !slices.ContainsFunc(in.order, func(k string) bool {
		_, ok := row[k]
		return !ok
	}) {
		return in.order
	}
	var labels, nums []string
	for k, v := range row {
		if _, ok := jsonnum.Float(v); ok {
			nums = append(nums, k)
		} else {
			labels = append(labels, k)
		}
	}
	slices.Sort(labels)
	slices.Sort(nums)
	if len(labels) == 0 {
		return nums
	}
	keys := append([]string{labels[0]}, nums...)
	return append(keys, labels[1:]...)
}

// describe names a value's kind for error messages, quoting short strings.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > 40 {
			cut := 40
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			v = v[:cut] + "…"
		}
		return "string " + strconv.Quote(v)
	case bool:
		return "boolean " + strconv.FormatBool(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	if f, ok := jsonnum.Float(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprintf("a Go %T", v)
}
