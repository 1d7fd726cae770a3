package graphspec

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
)

// checkOptions checks the options that do not depend on the chart type:
// enumerations, the highlight, the height and key lists.
func (in *Input) checkOptions() error {
	if err := oneOf("aggregate", in.Aggregate, "sum", "count", "avg"); err != nil {
		return err
	}
	if err := oneOf("colorBy", in.ColorBy, "series", "category", "value", "none"); err != nil {
		return err
	}
	if err := oneOf("sort", in.Sort, "asc", "desc", "none"); err != nil {
		return err
	}
	if err := in.Highlight.check(); err != nil {
		return err
	}
	if h := in.Height; h != nil && !(*h > 0 && !math.IsInf(*h, 0)) {
		return fmt.Errorf("Invalid height %v: the chart height must be a positive number of pixels.", *h)
	}
	if err := checkKeyList("metrics", in.Metrics); err != nil {
		return err
	}
	return checkKeyList("series", in.Series)
}

func oneOf(field, v string, allowed ...string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("Invalid %s %q. Use one of: %s.", field, v, strings.Join(allowed, ", "))
}

const highlightUsage = `Use "max", "min", a 0-based bar index or null.`

func (h Highlight) check() error {
	if !h.Set || h.Value == nil {
		return nil
	}
	if s, ok := h.Value.(string); ok {
		if s == "max" || s == "min" {
			return nil
		}
		return fmt.Errorf("Invalid highlight %q. %s", s, highlightUsage)
	}
	f, ok := jsonnum.Float(h.Value)
	if !ok {
		return fmt.Errorf("Invalid highlight (%s). %s", describe(h.Value), highlightUsage)
	}
	if f < 0 || f != math.Trunc(f) || f >= MaxRows {
		return fmt.Errorf("Invalid highlight %v: a bar index is a whole number from 0 to %d.", f, MaxRows-1)
	}
	return nil
}

func checkKeyList(field string, keys []string) error {
	if len(keys) > MaxSeries {
		return fmt.Errorf("Graph %s lists %d keys; the limit is %d.", field, len(keys), MaxSeries)
	}
	for i, k := range keys {
		if strings.TrimSpace(k) == "" {
			return fmt.Errorf("Invalid %s: entry %d is empty.", field, i)
		}
		if slices.Contains(keys[:i], k) {
			return fmt.Errorf("Invalid %s: %q is listed twice.", field, k)
		}
	}
	return nil
}

// config returns the graphConfig a node stores: the title, the raw graph
// type as given (default "line"), the data and each option given — not the
// inferred keys, so that a rebuild with new data infers them afresh.
func (in *Input) config(title string, data any) map[string]any {
	c := map[string]any{
		"title":     title,
		"graphType": firstOf(in.GraphType, in.TypeName, "line"),
		"data":      data,
	}
	str := func(k, v string) {
		if v != "" {
			c[k] = v
		}
	}
	flag := func(k string, v *bool) {
		if v != nil {
			c[k] = *v
		}
	}
	list := func(k string, v []string) {
		if len(v) > 0 {
			l := make([]any, len(v))
			for i, s := range v {
				l[i] = s
			}
			c[k] = l
		}
	}
	str("xKey", in.XKey)
	str("yKey", in.YKey)
	str("zKey", in.ZKey)
	str("nameKey", in.NameKey)
	str("valueKey", in.ValueKey)
	str("axisKey", in.AxisKey)
	list("metrics", in.Metrics)
	list("series", in.Series)
	str("barKey", in.BarKey)
	str("lineKey", in.LineKey)
	str("aggregate", in.Aggregate)
	str("color", in.Color)
	str("colorBy", in.ColorBy)
	if in.Highlight.Set {
		v := in.Highlight.Value
		if f, ok := jsonnum.Float(v); ok {
			v = f
		}
		c["highlight"] = v
	}
	str("barColor", in.BarColor)
	str("lineColor", in.LineColor)
	str("labelKey", in.LabelKey)
	str("targetKey", in.TargetKey)
	str("rangesKey", in.RangesKey)
	str("beforeKey", in.BeforeKey)
	str("afterKey", in.AfterKey)
	str("beforeLabel", in.BeforeLabel)
	str("afterLabel", in.AfterLabel)
	str("sort", in.Sort)
	flag("fill", in.Fill)
	flag("showEndDot", in.ShowEndDot)
	flag("showMinMax", in.ShowMinMax)
	flag("showValue", in.ShowValue)
	flag("colorByDirection", in.ColorByDirection)
	flag("showLegend", in.ShowLegend)
	flag("showLabels", in.ShowLabels)
	if in.Height != nil {
		c["height"] = *in.Height
	}
	return c
}

// merge overwrites in's fields with every field p gives.
func (in *Input) merge(p *Input) {
	str := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	flag := func(dst **bool, v *bool) {
		if v != nil {
			*dst = v
		}
	}
	list := func(dst *[]string, v []string) {
		if len(v) > 0 {
			*dst = v
		}
	}
	if t := firstOf(p.GraphType, p.TypeName); t != "" {
		in.GraphType, in.TypeName = t, ""
	}
	str(&in.Title, strings.TrimSpace(p.Title))
	if p.Data != nil {
		in.Data, in.order = p.Data, p.order
	}
	str(&in.XKey, p.XKey)
	str(&in.YKey, p.YKey)
	str(&in.ZKey, p.ZKey)
	str(&in.NameKey, p.NameKey)
	str(&in.ValueKey, p.ValueKey)
	str(&in.AxisKey, p.AxisKey)
	list(&in.Metrics, p.Metrics)
	list(&in.Series, p.Series)
	str(&in.BarKey, p.BarKey)
	str(&in.LineKey, p.LineKey)
	str(&in.Aggregate, p.Aggregate)
	str(&in.Color, p.Color)
	str(&in.ColorBy, p.ColorBy)
	if p.Highlight.Set {
		in.Highlight = p.Highlight
	}
	str(&in.BarColor, p.BarColor)
	str(&in.LineColor, p.LineColor)
	str(&in.LabelKey, p.LabelKey)
	str(&in.TargetKey, p.TargetKey)
	str(&in.RangesKey, p.RangesKey)
	str(&in.BeforeKey, p.BeforeKey)
	str(&in.AfterKey, p.AfterKey)
	str(&in.BeforeLabel, p.BeforeLabel)
	str(&in.AfterLabel, p.AfterLabel)
	str(&in.Sort, p.Sort)
	flag(&in.Fill, p.Fill)
	flag(&in.ShowEndDot, p.ShowEndDot)
	flag(&in.ShowMinMax, p.ShowMinMax)
	flag(&in.ShowValue, p.ShowValue)
	flag(&in.ColorByDirection, p.ColorByDirection)
	flag(&in.ShowLegend, p.ShowLegend)
	flag(&in.ShowLabels, p.ShowLabels)
	if p.Height != nil {
		in.Height = p.Height
	}
}

// fromConfig decodes a stored graphConfig into an Input. The config may
// come straight from a Result or from storage (decoded JSON); a JSON round
// trip reads both the same way. Without data (when the patch replaces it)
// the stored rows are not re-encoded.
func fromConfig(prev map[string]any, withoutData bool) (Input, error) {
	stored := prev
	if withoutData {
		stored = make(map[string]any, len(prev))
		for k, v := range prev {
			if k != "data" {
				stored[k] = v
			}
		}
	}
	raw, err := json.Marshal(stored)
	if err != nil {
		return Input{}, fmt.Errorf("Stored graphConfig cannot be encoded: %w", err)
	}
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return Input{}, fmt.Errorf("Stored graphConfig is invalid: %w", err)
	}
	// Encoding sorted the stored row's keys; that order is not the source's.
	in.order = nil
	return in, nil
}
