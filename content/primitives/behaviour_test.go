package primitives

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
)

// injections are strings that would run script or add markup if a
// document wrote them out unescaped; raw names what must then not appear.
var injections = []struct{ value, raw string }{
	{`<script>alert(1)</script>`, "<script>alert"},
	{`"><img src=x onerror=alert(2)>`, "<img src=x"},
	{`'><svg onload=alert(3)>`, "<svg onload"},
	{`</script><b id=pwn>&amp;`, "<b id=pwn"},
	{`</style><iframe srcdoc=x>`, "<iframe"},
}

// replaceStrings returns v with every string (and, where keys are shown,
// every map key under "variables") replaced by f's value.
func replaceStrings(v any, key string, f func() string) any {
	switch v := v.(type) {
	case string:
		if key == "theme" {
			return v
		}
		return f()
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = replaceStrings(e, key, f)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if key == "variables" {
				k = f()
			}
			out[k] = replaceStrings(e, k, f)
		}
		return out
	}
	return v
}

// TestEscaping puts markup into every string of every kind's example and
// into the title, and checks that none of it reaches the document raw.
func TestEscaping(t *testing.T) {
	for _, d := range Descriptors() {
		for _, inj := range injections {
			n := 0
			next := func() string { n++; return inj.value }
			data := replaceStrings(any(d.Example), "", next).(map[string]any)
			res, err := Build(d.Kind, inj.value, data)
			if err != nil {
				t.Fatalf("Build(%s) with %q: %v", d.Kind, inj.value, err)
			}
			if n == 0 {
				t.Fatalf("%s: example has no strings to inject into", d.Kind)
			}
			if strings.Contains(res.HTML, inj.raw) {
				t.Errorf("%s: %q appears unescaped in the document", d.Kind, inj.raw)
			}
			checkScripts(t, d.Kind, res.HTML)
		}
	}
}

// checkScripts parses every inline script of doc: JSON data with
// encoding/json, code with esbuild. A script that does not parse would
// mean data broke out of its string, or a template broke the code.
func checkScripts(t testing.TB, kind, doc string) (scripts int) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(doc))
	inScript, typ := false, ""
	for {
		switch z.Next() {
		case html.ErrorToken:
			return scripts
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			if string(name) == "script" {
				inScript, typ = true, ""
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					if string(k) == "type" {
						typ = string(v)
					}
				}
			}
		case html.EndTagToken:
			inScript = false
		case html.TextToken:
			if !inScript {
				continue
			}
			body := string(z.Text())
			scripts++
			if typ == "application/json" {
				var v any
				if err := json.Unmarshal([]byte(body), &v); err != nil {
					t.Errorf("%s: embedded JSON does not parse: %v", kind, err)
				}
				if strings.ContainsAny(body, "<>&") {
					t.Errorf("%s: embedded JSON has an unescaped <, > or &", kind)
				}
				continue
			}
			if r := api.Transform(body, api.TransformOptions{Loader: api.LoaderJS}); len(r.Errors) > 0 {
				t.Errorf("%s: inline script does not parse: %s", kind, r.Errors[0].Text)
			}
		}
	}
}

func TestEmbeddedJSON(t *testing.T) {
	res, err := Build("choice-grid", "", map[string]any{"items": []any{map[string]any{"title": "</script><b>&"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\u003c/script\u003e\u003cb\u003e\u0026`, `<h3>&lt;/script&gt;&lt;b&gt;&amp;</h3>`} {
		if !strings.Contains(res.HTML, want) {
			t.Errorf("document lacks %q", want)
		}
	}
}

func TestWrongTypes(t *testing.T) {
	tests := []struct {
		kind string
		data string
		want string
	}{
		{"choice-grid", `{"items":[{},{},{"pros":"fast"}]}`, "choice-grid: data.items[2].pros must be an array of strings"},
		{"choice-grid", `{"items":[{"cons":["a",{"b":1}]}]}`, "choice-grid: data.items[0].cons must be an array of strings"},
		{"choice-grid", `{"items":{"title":"x"}}`, "choice-grid: data.items must be an array of objects"},
		{"choice-grid", `{"items":["x"]}`, "choice-grid: data.items[0] must be an object"},
		{"plan-timeline", `{"milestones":[{"title":{"a":1}}]}`, "plan-timeline: data.milestones[0].title must be a string"},
		{"plan-timeline", `{"risks":"many"}`, "plan-timeline: data.risks must be an array of objects"},
		{"review-sheet", `{"diff":["+a"]}`, "review-sheet: data.diff must be a string"},
		{"pr-writeup", `{"tests":"go test"}`, "pr-writeup: data.tests must be an array of strings"},
		{"system-map", `{"entryPoints":{"main":"x"}}`, "system-map: data.entryPoints must be an array of strings"},
		{"code-walkthrough", `{"steps":[{"code":["x"]}]}`, "code-walkthrough: data.steps[0].code must be a string"},
		{"design-sheet", `{"directions":[{"palette":[{"hex":"#fff"}]}]}`, "design-sheet: data.directions[0].palette must be an array of strings"},
		{"component-gallery", `{"variants":3}`, "component-gallery: data.variants must be an array of objects"},
		{"interaction-prototype", `{"controls":[{"value":[1]}]}`, "interaction-prototype: data.controls[0].value must be a string, number or boolean"},
		{"interaction-prototype", `{"controls":[{"value":1,"min":"low"}]}`, "interaction-prototype: data.controls[0].min must be a number"},
		{"flowchart", `{"failurePaths":{"from":"a"}}`, "flowchart: data.failurePaths must be an array of objects"},
		{"deck", `{"slides":{"title":"x"}}`, "deck: data.slides must be an array of objects"},
		{"deck", `{"slides":["x"]}`, "deck: data.slides[0] must be an object"},
		{"deck", `{"slides":[{"title":"a","bullets":"b"}]}`, "deck: data.slides[0].bullets must be an array of strings"},
		{"presentation", `{"slides":[{"title":"a","metrics":"m"}]}`, "presentation: data.slides[0].metrics must be an array of objects"},
		{"presentation", `{"slides":[{"title":["a"]}]}`, "presentation: data.slides[0].title must be a string"},
		{"illustration-set", `{"figures":[{"shapes":[{"x":"left"}]}]}`, "illustration-set: data.figures[0].shapes[0].x must be a number"},
		{"explainer", `{"faq":[{"q":{}}]}`, "explainer: data.faq[0].q must be a string"},
		{"status-report", `{"shipped":"everything"}`, "status-report: data.shipped must be an array of strings"},
		{"incident-report", `{"actions":[{"done":"maybe"}]}`, "incident-report: data.actions[0].done must be a boolean"},
		{"incident-report", `{"logs":{"line":1}}`, "incident-report: data.logs must be a string"},
		{"triage-board", `{"columns":"Now"}`, "triage-board: data.columns must be an array of strings"},
		{"config-editor", `{"flags":[{"requires":"sse"}]}`, "config-editor: data.flags[0].requires must be an array of strings"},
		{"prompt-tuner", `{"samples":[{"variables":["a"]}]}`, "prompt-tuner: data.samples[0].variables must be an object of strings"},
		{"prompt-tuner", `{"samples":[{"variables":{"a":{"b":1}}}]}`, "prompt-tuner: data.samples[0].variables must be an object of strings"},
		{"prompt-tuner", `{"template":{}}`, "prompt-tuner: data.template must be a string"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.kind] = true
		var data map[string]any
		if err := json.Unmarshal([]byte(tt.data), &data); err != nil {
			t.Fatal(err)
		}
		_, err := Build(tt.kind, "", data)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Build(%s, %s) error = %v, want %q", tt.kind, tt.data, err, tt.want)
			continue
		}
		var de *DataError
		if !errors.As(err, &de) || de.Kind != tt.kind {
			t.Errorf("Build(%s, %s) error %T is not a *DataError of that kind", tt.kind, tt.data, err)
		}
	}
	for _, k := range Kinds() {
		if !covered[k] {
			t.Errorf("no wrong-type case for %s", k)
		}
	}
}

// TestLoose checks what the loose reading accepts: numbers and booleans
// as text, numeric strings as numbers, "true" as a boolean, null as empty.
func TestLoose(t *testing.T) {
	tests := []struct {
		kind, data string
		want       []string
	}{
		{"status-report", `{"metrics":[{"label":"Bugs","value":12,"tone":null}],"shipped":[1,true,null," "]}`,
			[]string{`<span class="tile-value">12</span>`, "<li>1</li>", "<li>true</li>", "tone-neutral"}},
		{"illustration-set", `{"figures":[{"shapes":[{"type":"circle","cx":"10","cy":10,"r":5}]}]}`,
			[]string{`<circle class="shape" cx="10" cy="10" r="5"/>`}},
		{"incident-report", `{"actions":[{"done":"true","description":"Fix"}]}`,
			[]string{`<tr class="is-done">`, "1 of 1 done"}},
		{"review-sheet", `{"findings":[{"severity":"low","title":"B","file":"b.go","line":7},{"severity":"critical","title":"A"}]}`,
			[]string{`b.go:7`, "1 critical", "1 low"}},
	}
	for _, tt := range tests {
		var data map[string]any
		if err := json.Unmarshal([]byte(tt.data), &data); err != nil {
			t.Fatal(err)
		}
		res, err := Build(tt.kind, "", data)
		if err != nil {
			t.Errorf("Build(%s, %s): %v", tt.kind, tt.data, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(res.HTML, w) {
				t.Errorf("Build(%s, %s) lacks %q", tt.kind, tt.data, w)
			}
		}
	}
	// Findings are ranked: the critical one comes before the low one.
	res, _ := Build("review-sheet", "", map[string]any{"findings": []any{
		map[string]any{"severity": "low", "title": "Later"}, map[string]any{"severity": "critical", "title": "First"}}})
	if strings.Index(res.HTML, "First") > strings.Index(res.HTML, "Later") {
		t.Error("review-sheet does not put the critical finding first")
	}
}

func TestPresentationTheme(t *testing.T) {
	const named = `. Use canvas, midnight, paper, aurora, or a custom theme object.`
	tests := []struct {
		name    string
		data    string
		stored  string // JSON of PresentationTheme
		html    []string
		wantErr string
	}{
		{"none", `{}`, `null`, []string{`<html lang="en">`}, ""},
		{"paper", `{"theme":"paper"}`, `"paper"`, []string{`data-presentation-theme="paper"`, `html[data-presentation-theme=paper]`}, ""},
		{"from presentationTheme", `{"presentationTheme":"aurora"}`, `"aurora"`, []string{`data-presentation-theme="aurora"`}, ""},
		{"theme wins", `{"theme":"midnight","presentationTheme":"aurora"}`, `"midnight"`, nil, ""},
		{"null theme", `{"theme":null,"presentationTheme":"canvas"}`, `"canvas"`, nil, ""},
		{"unknown name", `{"theme":"neon"}`, "", nil, `Invalid presentation theme "neon"` + named},
		{"empty name", `{"theme":""}`, "", nil, `Invalid presentation theme ""` + named},
		{"number", `{"theme":5}`, "", nil, `Invalid presentation theme "5"` + named},
		{"array", `{"theme":["paper"]}`, "", nil, `Invalid presentation theme "[\"paper\"]"` + named},
		{"custom", `{"theme":{"base":"midnight","accent":"#ff0066","bg":"rgb(1, 2, 3)","text":"var(--ink)","panel":"hsla(200, 50%, 10%, 0.9)","colorScheme":"light","extra":"dropped"}}`,
			`{"accent":"#ff0066","base":"midnight","bg":"rgb(1, 2, 3)","colorScheme":"light","panel":"hsla(200, 50%, 10%, 0.9)","text":"var(--ink)"}`,
			[]string{`data-presentation-theme="midnight"`, `--bg: rgb(1, 2, 3); --panel: hsla(200, 50%, 10%, 0.9); --text: var(--ink); --accent: #ff0066; color-scheme: light;`}, ""},
		{"custom without base", `{"theme":{"accent":"#abc"}}`, `{"accent":"#abc"}`, []string{`data-presentation-theme="custom"`, `--accent: #abc;`}, ""},
		{"bad colour", `{"theme":{"accent":"red"}}`, "", nil, `Invalid presentation theme color "accent": "red". Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().`},
		{"short hex", `{"theme":{"bg":"#ab"}}`, "", nil, `Invalid presentation theme color "bg": "#ab". Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().`},
		{"css injection", `{"theme":{"textMuted":"#fff; } body { display: none"}}`, "", nil, `Invalid presentation theme color "textMuted": "#fff; } body { display: none". Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().`},
		{"paren injection", `{"theme":{"border":"rgb(1,2,3);x:url(y)"}}`, "", nil, `Invalid presentation theme color "border": "rgb(1,2,3);x:url(y)". Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().`},
		{"non-string colour", `{"theme":{"surface":3}}`, "", nil, `Invalid presentation theme color "surface": 3. Use var(--name), #hex, rgb(), rgba(), hsl() or hsla().`},
		{"bad base", `{"theme":{"base":"neon"}}`, "", nil, `Invalid presentation theme base "neon". Use canvas, midnight, paper, or aurora.`},
		{"bad scheme", `{"theme":{"colorScheme":"sepia"}}`, "", nil, `Invalid presentation theme colorScheme "sepia". Use light or dark.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data map[string]any
			if err := json.Unmarshal([]byte(tt.data), &data); err != nil {
				t.Fatal(err)
			}
			res, err := Build("presentation", "", data)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(res.PresentationTheme)
			if string(got) != tt.stored {
				t.Errorf("PresentationTheme = %s, want %s", got, tt.stored)
			}
			stored, _ := json.Marshal(res.PrimitiveData["presentationTheme"])
			if string(stored) != tt.stored {
				t.Errorf("primitiveData.presentationTheme = %s, want %s", stored, tt.stored)
			}
			for _, w := range tt.html {
				if !strings.Contains(res.HTML, w) {
					t.Errorf("document lacks %q", w)
				}
			}
		})
	}
	// A deck has no theme: its theme field is neither checked nor stored.
	res, err := Build("deck", "", map[string]any{"theme": "neon"})
	if err != nil || res.PresentationTheme != nil || res.PrimitiveData["presentationTheme"] != nil {
		t.Errorf("deck with a theme = %v, %v; want no theme and no error", res, err)
	}
}

func TestDeckEnrichment(t *testing.T) {
	// The reference's stored node for this input (domain.md).
	var data map[string]any
	json.Unmarshal([]byte(`{"theme":"paper","slides":[{"title":"One","note":"say hi"},{"title":"Two"}]}`), &data)
	res, err := Build("presentation", "Briefing", data)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.PrimitiveData)
	want := `{"presentation":true,"presentationTheme":"paper","slideCount":2,"slideTitles":["One","Two"],"slides":[{"note":"say hi","title":"One"},{"title":"Two"}],"speakerNotes":["say hi"],"theme":"paper"}`
	if string(got) != want {
		t.Errorf("primitiveData = %s\nwant %s", got, want)
	}
	desc, _ := Lookup("presentation")
	if res.Summary != desc.Description+" Slides: One, Two." {
		t.Errorf("Summary = %q", res.Summary)
	}
	if !res.Presentation || res.SlideCount != 2 || !reflect.DeepEqual(res.SlideTitles, []string{"One", "Two"}) ||
		!reflect.DeepEqual(res.SpeakerNotes, []string{"say hi"}) || res.PresentationTheme != "paper" {
		t.Errorf("metadata = %v %d %q %q %v", res.Presentation, res.SlideCount, res.SlideTitles, res.SpeakerNotes, res.PresentationTheme)
	}

	tests := []struct {
		name, data string
		titles     []string
		notes      []string
	}{
		{"title, label, name, fallback", `{"slides":[{"title":"A","note":" n1 "},{"label":"B","note":"  "},{"name":"C"},{"title":"  "},{"title":7}]}`,
			[]string{"A", "B", "C", "Slide 4", "7"}, []string{"n1"}},
		{"placeholders when none", `{}`, []string{"Overview", "Next steps"}, []string{"Replace these placeholder slides with your own."}},
		{"placeholders when empty", `{"slides":[]}`, []string{"Overview", "Next steps"}, []string{"Replace these placeholder slides with your own."}},
	}
	for _, tt := range tests {
		for _, kind := range []string{"deck", "presentation"} {
			var data map[string]any
			json.Unmarshal([]byte(tt.data), &data)
			res, err := Build(kind, "", data)
			if err != nil {
				t.Fatalf("%s %s: %v", kind, tt.name, err)
			}
			if !reflect.DeepEqual(res.SlideTitles, tt.titles) || !reflect.DeepEqual(res.SpeakerNotes, tt.notes) || res.SlideCount != len(tt.titles) {
				t.Errorf("%s %s: titles %q notes %q count %d; want %q %q", kind, tt.name, res.SlideTitles, res.SpeakerNotes, res.SlideCount, tt.titles, tt.notes)
			}
			pd := res.PrimitiveData
			if pd["presentation"] != true || pd["slideCount"] != len(tt.titles) || len(pd["slides"].([]any)) != len(tt.titles) {
				t.Errorf("%s %s: primitiveData = %v", kind, tt.name, pd)
			}
			if strings.Count(res.HTML, `data-slide="`) != len(tt.titles) {
				t.Errorf("%s %s: document has %d slides, want %d", kind, tt.name, strings.Count(res.HTML, `data-slide="`), len(tt.titles))
			}
			if !strings.HasSuffix(res.Summary, " Slides: "+strings.Join(tt.titles, ", ")+".") {
				t.Errorf("%s %s: Summary = %q", kind, tt.name, res.Summary)
			}
		}
	}
	// Only the first slide is shown before the script runs.
	if n := strings.Count(res.HTML, `class="slide is-active"`); n != 1 {
		t.Errorf("%d slides are active, want 1", n)
	}
}

// TestScriptsParse checks every example's inline scripts and JSON.
func TestScriptsParse(t *testing.T) {
	for _, d := range Descriptors() {
		res, err := Build(d.Kind, "", d.Example)
		if err != nil {
			t.Fatal(err)
		}
		want := 2 // the data and the copy script
		if d.Kind == "deck" || d.Kind == "presentation" {
			want = 1
		}
		if n := checkScripts(t, d.Kind, res.HTML); n < want {
			t.Errorf("%s: %d scripts checked, want at least %d", d.Kind, n, want)
		}
	}
}

// TestCheckScripts makes sure the script check can fail.
func TestCheckScripts(t *testing.T) {
	for _, doc := range []string{
		`<script>function (</script>`,
		`<script type="application/json">{"a":</script>`,
		`<script type="application/json">{"a":"<b>"}</script>`,
	} {
		rec := &recorder{TB: t}
		checkScripts(rec, "test", doc)
		if !rec.failed {
			t.Errorf("checkScripts(%q) passed", doc)
		}
	}
}

type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
