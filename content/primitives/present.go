package primitives

import (
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// Theme names a presentation may use; "canvas" follows the board's theme.
var themeNames = []string{"canvas", "midnight", "paper", "aurora"}

// themeColors are the colour keys of a custom theme object and the CSS
// variables they set.
var themeColors = []struct{ key, cssVar string }{
	{"bg", "--bg"},
	{"panel", "--panel"},
	{"surface", "--surface"},
	{"border", "--border"},
	{"text", "--text"},
	{"textSecondary", "--text-secondary"},
	{"textMuted", "--text-muted"},
	{"accent", "--accent"},
}

// colorPattern accepts the colour forms a theme may use. They are few and
// contain no character that could end a CSS declaration, which is what
// makes it safe to write them into a stylesheet.
var colorPattern = regexp.MustCompile(`^(?:var\(--[A-Za-z0-9_-]+\)|#[0-9A-Fa-f]{3,8}|(?i:rgba?|hsla?)\([0-9A-Za-z.,%/+\- ]*\))$`)

// safeColor returns c as CSS when it is one of the accepted colour forms.
func safeColor(c string) (template.CSS, bool) {
	c = strings.TrimSpace(c)
	if len(c) > 64 || !colorPattern.MatchString(c) {
		return "", false
	}
	return template.CSS(c), true
}

func invalidThemeError(v any) error {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	default:
		b, _ := json.Marshal(v)
		s = string(b)
	}
	return fmt.Errorf("Invalid presentation theme %q. Use canvas, midnight, paper, aurora, or a custom theme object.", s)
}

func isThemeName(s string) bool {
	for _, n := range themeNames {
		if s == n {
			return true
		}
	}
	return false
}

// theme is a validated presentation theme, ready for the template.
type theme struct {
	Name string       // the data-presentation-theme attribute; "" for none
	CSS  template.CSS // declarations of a custom theme, or ""
}

// parseTheme validates the data's theme (read from "theme", else
// "presentationTheme"). It returns what to store as presentationTheme (nil
// when there is none) and what to render.
func parseTheme(data map[string]any) (stored any, th theme, err error) {
	v, ok := data["theme"]
	if !ok || v == nil {
		v = data["presentationTheme"]
	}
	switch v := v.(type) {
	case nil:
		return nil, theme{}, nil
	case string:
		if !isThemeName(v) {
			return nil, theme{}, invalidThemeError(v)
		}
		return v, theme{Name: v}, nil
	case map[string]any:
		return parseCustomTheme(v)
	default:
		return nil, theme{}, invalidThemeError(v)
	}
}

// parseCustomTheme checks a theme object and keeps only its known keys.
func parseCustomTheme(m map[string]any) (any, theme, error) {
	out := map[string]any{}
	th := theme{Name: "custom"}
	if b, ok := m["base"]; ok && b != nil {
		s, isString := b.(string)
		if !isString || !isThemeName(s) {
			return nil, theme{}, fmt.Errorf("Invalid presentation theme base %s. Use canvas, midnight, paper, or aurora.", quoteJSON(b))
		}
		out["base"] = s
		th.Name = s
	}
	var css strings.Builder
	for _, c := range themeColors {
		v, ok := m[c.key]
		if !ok || v == nil {
			continue
		}
		s, isString := v.(string)
		color, valid := safeColor(s)
		if !isString || !valid {
			return nil, theme{}, fmt.Errorf("Invalid presentation theme color %q: %s. Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().", c.key, quoteJSON(v))
		}
		out[c.key] = string(color)
		css.WriteString(c.cssVar + ": " + string(color) + "; ")
	}
	if cs, ok := m["colorScheme"]; ok && cs != nil {
		s, _ := cs.(string)
		if s != "light" && s != "dark" {
			return nil, theme{}, fmt.Errorf("Invalid presentation theme colorScheme %s. Use light or dark.", quoteJSON(cs))
		}
		out["colorScheme"] = s
		css.WriteString("color-scheme: " + s + "; ")
	}
	th.CSS = template.CSS(strings.TrimSpace(css.String()))
	return out, th, nil
}

func quoteJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return strconv.Quote(fmt.Sprint(v))
	}
	return string(b)
}

// defaultSlides stand in for a deck given no slides, so the node still
// shows what a deck looks like and how to fill it.
func defaultSlides() []any {
	return []any{
		map[string]any{
			"title":  "Overview",
			"kicker": "Untitled deck",
			"body":   "This deck has no slides yet. Pass data.slides as a list of { title, kicker, body, bullets, note }.",
		},
		map[string]any{
			"title":   "Next steps",
			"bullets": []any{"One idea per slide", "Short bullets, long notes", "Speaker notes go in note"},
			"note":    "Replace these placeholder slides with your own.",
		},
	}
}

// deckMeta is what enrichment adds to deck and presentation data.
type deckMeta struct {
	titles []string
	notes  []string
	stored any // the presentationTheme to store, or nil
	theme  theme
}

// enrichDeck adds the presentation metadata to a deck's data in place:
// slides (placeholders when there are none), presentation, slideCount,
// slideTitles, speakerNotes and, for presentations, presentationTheme.
func enrichDeck(kind string, data map[string]any) (deckMeta, error) {
	var meta deckMeta
	if kind == "presentation" {
		stored, th, err := parseTheme(data)
		if err != nil {
			return meta, err
		}
		meta.stored, meta.theme = stored, th
	}
	slides, _ := data["slides"].([]any)
	if data["slides"] != nil && slides == nil {
		return meta, &DataError{Kind: kind, Path: "data.slides", Want: "an array of objects"}
	}
	if len(slides) == 0 {
		slides = defaultSlides()
	}
	for i, s := range slides {
		m, ok := s.(map[string]any)
		if !ok {
			return meta, &DataError{Kind: kind, Path: "data.slides[" + strconv.Itoa(i) + "]", Want: "an object"}
		}
		title := ""
		for _, key := range []string{"title", "label", "name"} {
			if s, ok := scalarText(m[key]); ok && strings.TrimSpace(s) != "" {
				title = strings.TrimSpace(s)
				break
			}
		}
		if title == "" {
			title = "Slide " + strconv.Itoa(i+1)
		}
		meta.titles = append(meta.titles, title)
		if n, ok := scalarText(m["note"]); ok && strings.TrimSpace(n) != "" {
			meta.notes = append(meta.notes, strings.TrimSpace(n))
		}
	}
	data["slides"] = slides
	data["presentation"] = true
	data["slideCount"] = len(slides)
	data["slideTitles"] = stringsToAny(meta.titles)
	data["speakerNotes"] = stringsToAny(meta.notes)
	if meta.stored != nil {
		data["presentationTheme"] = meta.stored
	} else {
		delete(data, "presentationTheme")
	}
	return meta, nil
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
