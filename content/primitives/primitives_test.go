package primitives

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGolden renders each kind's descriptor example and compares it with
// testdata/golden/<kind>.html; go test -update rewrites them.
func TestGolden(t *testing.T) {
	for _, d := range Descriptors() {
		t.Run(d.Kind, func(t *testing.T) {
			res, err := Build(d.Kind, "", d.Example)
			if err != nil {
				t.Fatalf("Build(%s, example): %v", d.Kind, err)
			}
			golden := filepath.Join("testdata", "golden", d.Kind+".html")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(res.HTML), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if res.HTML != string(want) {
				t.Errorf("Build(%s) differs from %s; run go test -update and review the diff", d.Kind, golden)
			}
		})
	}
}

func TestDescriptors(t *testing.T) {
	want := []struct {
		kind, title string
		w, h        int
		shape       string
	}{
		{"choice-grid", "Choice Grid", 980, 720, "{ items: [{ title, summary, tradeoff, pros: string[], cons: string[], code? }] }"},
		{"plan-timeline", "Plan Timeline", 1040, 760, "{ milestones: [{ title, detail, status }], flow: [{ from, to, label }], risks: [{ risk, mitigation }], snippets: [{ label, code }] }"},
		{"review-sheet", "Review Sheet", 1040, 760, "{ findings: [{ severity, title, file, line, detail }], files: [{ path, why }], diff?: string }"},
		{"pr-writeup", "PR Writeup", 1040, 760, "{ summary, why, before: string[], after: string[], files: [{ path, why, focus }], reviewFocus: string[], tests: string[], rollout: string[] }"},
		{"system-map", "System Map", 1040, 720, "{ modules: [{ id, title, detail, role }], edges: [{ from, to, label }], entryPoints: string[] }"},
		{"code-walkthrough", "Code Walkthrough", 1040, 760, "{ summary, modules: [{ id, title, detail, role }], edges: [{ from, to, label }], steps: [{ title, file, detail, code }], keyFiles: [{ path, description }], gotchas: string[] }"},
		{"design-sheet", "Design Sheet", 1040, 760, "{ directions: [{ title, tone, palette: string[], rationale }], tokens: [{ name, value }] }"},
		{"component-gallery", "Component Gallery", 980, 720, "{ component, variants: [{ label, state, intent, example, note }] }"},
		{"interaction-prototype", "Interaction Prototype", 1040, 760, "{ scenario, controls: [{ key, label, value, min?, max?, unit? }], screens: [{ title, detail }], annotations: [{ title, detail }], questions: string[], snippet? }"},
		{"flowchart", "Flowchart", 980, 700, "{ steps: [{ title, detail, status, duration }], failurePaths?: [{ from, label, detail }] }"},
		{"deck", "Slide Deck", 960, 620, "{ slides: [{ title, kicker?, body?, bullets?: string[], note? }] }"},
		{"presentation", "HTML Presentation", 1120, 700, `{ subtitle?, theme?: "canvas"|"midnight"|"paper"|"aurora"|{ bg?, panel?, surface?, border?, text?, textSecondary?, textMuted?, accent? }, slides: [{ title, kicker?, body?, bullets?: string[], metrics?: [{ label, value, detail? }], note? }] }`},
		{"illustration-set", "Illustration Set", 1040, 760, "{ figures: [{ title, caption, shapes: [{ type, x, y, width, height, cx, cy, r, x1, y1, x2, y2, text, color }] }] }"},
		{"explainer", "Feature Explainer", 980, 760, "{ summary, steps: [{ title, detail }], snippets: [{ label, code, note }], faq: [{ q, a }], glossary: [{ term, definition }] }"},
		{"status-report", "Status Report", 980, 720, "{ metrics: [{ label, value, tone }], shipped: string[], slipped: string[], risks: string[], next: string[] }"},
		{"incident-report", "Incident Report", 1040, 760, "{ severity, status, duration, summary, impact: [{ label, value, tone }], timeline: [{ time, event, detail, tone }], rootCause, logs?: string, actions: [{ done, owner, description, due }] }"},
		{"triage-board", "Triage Board", 1040, 760, "{ columns?: string[], items: [{ title, detail, column, rationale }] }"},
		{"config-editor", "Config Editor", 980, 720, "{ flags: [{ key, label, area, enabled, requires?: string[], description }] }"},
		{"prompt-tuner", "Prompt Tuner", 1040, 760, "{ template: string, samples: [{ name, variables: Record<string,string> }] }"},
	}
	ds := Descriptors()
	if len(ds) != len(want) {
		t.Fatalf("Descriptors() has %d kinds, want %d", len(ds), len(want))
	}
	kinds := Kinds()
	for i, w := range want {
		d := ds[i]
		if d.Kind != w.kind || kinds[i] != w.kind {
			t.Errorf("kind %d = %q (Kinds: %q), want %q", i, d.Kind, kinds[i], w.kind)
		}
		if d.Title != w.title || d.DefaultSize != (Size{w.w, w.h}) || d.DataShape != w.shape {
			t.Errorf("%s = %q %v %q, want %q %dx%d %q", w.kind, d.Title, d.DefaultSize, d.DataShape, w.title, w.w, w.h, w.shape)
		}
		if d.Description == "" || d.UseWhen == "" || len(d.Example) == 0 {
			t.Errorf("%s: description, useWhen and example must all be set", w.kind)
		}
		if !IsKind(w.kind) {
			t.Errorf("IsKind(%q) = false", w.kind)
		}
		if l, ok := Lookup(w.kind); !ok || !reflect.DeepEqual(l, d) {
			t.Errorf("Lookup(%q) = %v, %v; want the descriptor", w.kind, l, ok)
		}
	}
	if !strings.HasPrefix(ds[0].Description, "Side-by-side options") {
		t.Errorf("choice-grid description %q must start with the reference's %q", ds[0].Description, "Side-by-side options")
	}
	if IsKind("Choice-Grid") || IsKind("") {
		t.Error("IsKind must match kinds exactly")
	}
}

func TestDescriptorJSON(t *testing.T) {
	raw, err := json.Marshal(Descriptors()[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for _, k := range []string{"kind", "title", "description", "useWhen", "defaultSize", "dataShape", "example"} {
		if _, ok := m[k]; !ok {
			t.Errorf("descriptor JSON lacks %q (has %v)", k, keys)
		}
	}
	if len(m) != 7 {
		t.Errorf("descriptor JSON has keys %v, want exactly seven", keys)
	}
	if size, _ := m["defaultSize"].(map[string]any); size["width"] != 980.0 || size["height"] != 720.0 {
		t.Errorf("defaultSize = %v, want {width:980, height:720}", m["defaultSize"])
	}
}

// TestDescriptorsFresh checks that a caller changing an example does not
// change what the next caller gets.
func TestDescriptorsFresh(t *testing.T) {
	first := Descriptors()
	first[0].Example["items"] = "changed"
	if _, ok := Descriptors()[0].Example["items"].([]any); !ok {
		t.Fatal("changing a returned example changed the package's example")
	}
}

func TestUnknownKind(t *testing.T) {
	for _, kind := range []string{"nope", "", "Deck", " deck"} {
		_, err := Build(kind, "", nil)
		want := "Unknown HTML primitive: " + kind + "."
		if err == nil || err.Error() != want {
			t.Errorf("Build(%q) error = %v, want %q", kind, err, want)
			continue
		}
		var uk *UnknownKindError
		if !errors.As(err, &uk) || uk.Kind != kind {
			t.Errorf("Build(%q) error %T is not an *UnknownKindError for that kind", kind, err)
			continue
		}
		hint := uk.Hint()
		for _, k := range Kinds() {
			if !strings.Contains(hint, k) {
				t.Errorf("Hint() = %q lacks %q", hint, k)
			}
		}
	}
}

// TestEmptyData builds every kind from no data: missing lists read as
// empty, and the document is still complete.
func TestEmptyData(t *testing.T) {
	for _, kind := range Kinds() {
		for _, data := range []map[string]any{nil, {}} {
			res, err := Build(kind, "", data)
			if err != nil {
				t.Errorf("Build(%s, %v): %v", kind, data, err)
				continue
			}
			checkDocument(t, kind, res.HTML)
			if res.PrimitiveData == nil {
				t.Errorf("Build(%s, %v).PrimitiveData is nil", kind, data)
			}
		}
	}
}

func checkDocument(t *testing.T, kind, doc string) {
	t.Helper()
	for _, want := range []string{"<!doctype html>\n<html lang=\"en\"", "<title>", "</title>", "<style>", "--bg:", "--panel:", "--surface:",
		"--border:", "--text:", "--text-secondary:", "--text-muted:", "--accent:", "[data-theme=light]", "[data-theme=high-contrast]", "</html>"} {
		if !strings.Contains(doc, want) {
			t.Errorf("%s document lacks %q", kind, want)
		}
	}
	if !strings.HasPrefix(doc, "<!doctype html>") {
		t.Errorf("%s document starts %.40q", kind, doc)
	}
	for _, banned := range []string{"<link", "src=\"http", "@import", "ZgotmplZ"} {
		if strings.Contains(doc, banned) {
			t.Errorf("%s document contains %q: it must be self-contained and fully rendered", kind, banned)
		}
	}
}

func TestResultFields(t *testing.T) {
	for _, d := range Descriptors() {
		res, err := Build(d.Kind, "  My board  ", d.Example)
		if err != nil {
			t.Fatalf("Build(%s): %v", d.Kind, err)
		}
		checkDocument(t, d.Kind, res.HTML)
		if res.Kind != d.Kind || res.Title != "My board" || res.DefaultSize != d.DefaultSize {
			t.Errorf("Build(%s) = kind %q title %q size %v", d.Kind, res.Kind, res.Title, res.DefaultSize)
		}
		if !strings.Contains(res.HTML, "<title>My board</title>") {
			t.Errorf("Build(%s) HTML lacks the given title", d.Kind)
		}
		deck := d.Kind == "deck" || d.Kind == "presentation"
		if res.Presentation != deck {
			t.Errorf("Build(%s).Presentation = %v", d.Kind, res.Presentation)
		}
		if !deck && res.Summary != d.Description {
			t.Errorf("Build(%s).Summary = %q, want the description", d.Kind, res.Summary)
		}
		untitled, _ := Build(d.Kind, " ", d.Example)
		if untitled.Title != d.Title {
			t.Errorf("Build(%s, blank title).Title = %q, want %q", d.Kind, untitled.Title, d.Title)
		}
	}
}

// TestCopyButtons pins the reference's buttons: non-deck kinds offer Copy
// JSON, the prompt tuner Copy prompt, decks neither.
func TestCopyButtons(t *testing.T) {
	for _, d := range Descriptors() {
		res, err := Build(d.Kind, "", d.Example)
		if err != nil {
			t.Fatal(err)
		}
		deck := d.Kind == "deck" || d.Kind == "presentation"
		if got := strings.Contains(res.HTML, "Copy JSON"); got == deck {
			t.Errorf("%s: contains Copy JSON = %v", d.Kind, got)
		}
		if got := strings.Contains(res.HTML, "Copy prompt"); got != (d.Kind == "prompt-tuner") {
			t.Errorf("%s: contains Copy prompt = %v", d.Kind, got)
		}
	}
}

func TestInputNotChanged(t *testing.T) {
	for _, d := range Descriptors() {
		before, _ := json.Marshal(d.Example)
		if _, err := Build(d.Kind, "", d.Example); err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(d.Example)
		if string(before) != string(after) {
			t.Errorf("Build(%s) changed its data argument", d.Kind)
		}
	}
}

// Go values that are not JSON's own types are accepted as their JSON.
func TestGoValues(t *testing.T) {
	res, err := Build("status-report", "", map[string]any{
		"shipped": []string{"Alpha"},
		"metrics": []map[string]any{{"label": "Bugs", "value": 3, "tone": "warn"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<li>Alpha</li>", `<span class="tile-value">3</span>`, "tone-warn"} {
		if !strings.Contains(res.HTML, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if _, err := Build("deck", "", map[string]any{"bad": make(chan int)}); err == nil || !strings.Contains(err.Error(), "deck: data is not JSON") {
		t.Errorf("Build with a channel = %v, want a not-JSON error", err)
	}
}
