package primitives

import (
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The view types below are what each kind's template renders. The decode
// functions build them from the data, reading it loosely (see decoder).

// decoders maps each kind to the function that reads its data.
var decoders = map[string]func(o object, meta deckMeta) any{
	"choice-grid":           decodeChoiceGrid,
	"plan-timeline":         decodePlanTimeline,
	"review-sheet":          decodeReviewSheet,
	"pr-writeup":            decodePRWriteup,
	"system-map":            decodeSystemMap,
	"code-walkthrough":      decodeCodeWalkthrough,
	"design-sheet":          decodeDesignSheet,
	"component-gallery":     decodeComponentGallery,
	"interaction-prototype": decodeInteractionPrototype,
	"flowchart":             decodeFlowchart,
	"deck":                  decodeDeck,
	"presentation":          decodeDeck,
	"illustration-set":      decodeIllustrationSet,
	"explainer":             decodeExplainer,
	"status-report":         decodeStatusReport,
	"incident-report":       decodeIncidentReport,
	"triage-board":          decodeTriageBoard,
	"config-editor":         decodeConfigEditor,
	"prompt-tuner":          decodePromptTuner,
}

// Shared parts.

type titled struct{ Title, Detail string }

type snippet struct{ Label, Code, Note string }

type fileNote struct{ Path, Why, Focus string }

type metric struct{ Label, Value, Detail, Tone string }

type link struct{ From, To, Label string }

func decodeTitled(objs []object) []titled {
	out := make([]titled, 0, len(objs))
	for _, o := range objs {
		out = append(out, titled{o.text("title"), o.text("detail")})
	}
	return out
}

func decodeSnippets(objs []object) []snippet {
	out := make([]snippet, 0, len(objs))
	for _, o := range objs {
		out = append(out, snippet{o.text("label"), o.rawText("code"), o.text("note")})
	}
	return out
}

func decodeMetrics(objs []object) []metric {
	out := make([]metric, 0, len(objs))
	for _, o := range objs {
		out = append(out, metric{o.text("label"), o.text("value"), o.text("detail"), tone(o.text("tone"))})
	}
	return out
}

func decodeLinks(objs []object) []link {
	out := make([]link, 0, len(objs))
	for _, o := range objs {
		out = append(out, link{o.text("from"), o.text("to"), o.text("label")})
	}
	return out
}

// letter names the i-th option: A, B, … Z, then 27, 28, ….
func letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}

// choice-grid

type choiceView struct{ Items []choiceItem }

type choiceItem struct {
	Letter, Title, Summary, Tradeoff string
	Pros, Cons                       []string
	Code                             string
}

func decodeChoiceGrid(o object, _ deckMeta) any {
	var v choiceView
	for i, it := range o.list("items") {
		v.Items = append(v.Items, choiceItem{
			Letter: letter(i), Title: it.text("title"), Summary: it.text("summary"), Tradeoff: it.text("tradeoff"),
			Pros: it.texts("pros"), Cons: it.texts("cons"), Code: it.rawText("code"),
		})
	}
	return v
}

// plan-timeline

type planView struct {
	Milestones  []milestone
	Done, Total int
	Percent     int
	Flow        []link
	Risks       []riskNote
	Snippets    []snippet
}

type milestone struct {
	N                           int
	Title, Detail, Status, Tone string
}

type riskNote struct{ Risk, Mitigation string }

func decodePlanTimeline(o object, _ deckMeta) any {
	var v planView
	for i, m := range o.list("milestones") {
		ms := milestone{N: i + 1, Title: m.text("title"), Detail: m.text("detail"), Status: m.text("status")}
		ms.Tone = tone(ms.Status)
		if ms.Tone == "ok" {
			v.Done++
		}
		v.Milestones = append(v.Milestones, ms)
	}
	v.Total = len(v.Milestones)
	if v.Total > 0 {
		v.Percent = v.Done * 100 / v.Total
	}
	v.Flow = decodeLinks(o.list("flow"))
	for _, r := range o.list("risks") {
		v.Risks = append(v.Risks, riskNote{r.text("risk"), r.text("mitigation")})
	}
	v.Snippets = decodeSnippets(o.list("snippets"))
	return v
}

// review-sheet

type reviewView struct {
	Counts   []severityCount
	Findings []finding
	Files    []fileNote
	Diff     []codeLine
}

type severityCount struct {
	Label string
	Count int
	Tone  string
}

type finding struct {
	Severity, Tone, Title, Location, Detail string
	rank                                    int
}

// codeLine is one line of a diff or log, with the class that colours it.
type codeLine struct{ Class, Text string }

// severityRank orders findings from the most to the least urgent.
func severityRank(s string) int {
	switch normalizeWord(s) {
	case "critical", "crit", "blocker", "blocking", "sev0", "sev1", "p0", "urgent":
		return 0
	case "high", "major", "error", "p1", "sev2":
		return 1
	case "medium", "med", "moderate", "warning", "warn", "p2", "sev3":
		return 2
	case "low", "minor", "p3", "sev4":
		return 3
	case "nit", "info", "note", "suggestion", "praise":
		return 4
	}
	return 5
}

func decodeReviewSheet(o object, _ deckMeta) any {
	var v reviewView
	for _, f := range o.list("findings") {
		fd := finding{Severity: f.text("severity"), Title: f.text("title"), Detail: f.text("detail")}
		if fd.Severity == "" {
			fd.Severity = "note"
		}
		fd.Tone, fd.rank = tone(fd.Severity), severityRank(fd.Severity)
		fd.Location = f.text("file")
		if line := f.text("line"); line != "" && fd.Location != "" {
			fd.Location += ":" + line
		}
		v.Findings = append(v.Findings, fd)
	}
	sort.SliceStable(v.Findings, func(i, j int) bool { return v.Findings[i].rank < v.Findings[j].rank })
	for _, f := range v.Findings {
		label := strings.ToLower(f.Severity)
		if n := len(v.Counts); n > 0 && v.Counts[n-1].Label == label {
			v.Counts[n-1].Count++
			continue
		}
		v.Counts = append(v.Counts, severityCount{label, 1, f.Tone})
	}
	for _, f := range o.list("files") {
		v.Files = append(v.Files, fileNote{Path: f.text("path"), Why: f.text("why")})
	}
	v.Diff = diffLines(o.rawText("diff"))
	return v
}

// diffLines splits a unified diff and classes each line by its marker.
func diffLines(diff string) []codeLine {
	if diff == "" {
		return nil
	}
	var out []codeLine
	for _, line := range strings.Split(diff, "\n") {
		class := "ctx"
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"), strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "index "):
			class = "meta"
		case strings.HasPrefix(line, "@@"):
			class = "hunk"
		case strings.HasPrefix(line, "+"):
			class = "add"
		case strings.HasPrefix(line, "-"):
			class = "del"
		}
		out = append(out, codeLine{class, strings.TrimRight(line, "\r")})
	}
	return out
}

// pr-writeup

type prView struct {
	Summary, Why                string
	Before, After               []string
	Files                       []fileNote
	ReviewFocus, Tests, Rollout []string
}

func decodePRWriteup(o object, _ deckMeta) any {
	v := prView{Summary: o.text("summary"), Why: o.text("why"), Before: o.texts("before"), After: o.texts("after")}
	for _, f := range o.list("files") {
		v.Files = append(v.Files, fileNote{f.text("path"), f.text("why"), f.text("focus")})
	}
	v.ReviewFocus, v.Tests, v.Rollout = o.texts("reviewFocus"), o.texts("tests"), o.texts("rollout")
	return v
}

// system-map and code-walkthrough

type module struct {
	ID, Title, Detail, Role string
	RoleClass               string
}

type mapView struct {
	Diagram     diagram
	Modules     []module
	Links       []link
	EntryPoints []string
}

func decodeModules(o object) ([]module, []link) {
	var mods []module
	roles := map[string]int{}
	for i, m := range o.list("modules") {
		md := module{ID: m.text("id"), Title: m.text("title"), Detail: m.text("detail"), Role: m.text("role")}
		if md.ID == "" {
			md.ID = md.Title
		}
		if md.ID == "" {
			md.ID = "module-" + strconv.Itoa(i+1)
		}
		if md.Title == "" {
			md.Title = md.ID
		}
		key := strings.ToLower(md.Role)
		if _, ok := roles[key]; !ok {
			roles[key] = len(roles)
		}
		md.RoleClass = "role-" + strconv.Itoa(roles[key]%5)
		mods = append(mods, md)
	}
	return mods, decodeLinks(o.list("edges"))
}

func decodeSystemMap(o object, _ deckMeta) any {
	mods, links := decodeModules(o)
	v := mapView{Modules: mods, EntryPoints: o.texts("entryPoints")}
	v.Diagram, v.Links = layoutMap(mods, links, v.EntryPoints)
	return v
}

type walkView struct {
	Summary  string
	Map      mapView
	Steps    []step
	KeyFiles []fileNote
	Gotchas  []string
}

type step struct {
	N                         int
	Title, File, Detail, Code string
}

func decodeCodeWalkthrough(o object, _ deckMeta) any {
	mods, links := decodeModules(o)
	v := walkView{Summary: o.text("summary"), Map: mapView{Modules: mods}}
	v.Map.Diagram, v.Map.Links = layoutMap(mods, links, nil)
	for i, s := range o.list("steps") {
		v.Steps = append(v.Steps, step{i + 1, s.text("title"), s.text("file"), s.text("detail"), s.rawText("code")})
	}
	for _, f := range o.list("keyFiles") {
		v.KeyFiles = append(v.KeyFiles, fileNote{Path: f.text("path"), Why: f.text("description")})
	}
	v.Gotchas = o.texts("gotchas")
	return v
}

// design-sheet

type designView struct {
	Directions []direction
	Tokens     []designToken
}

type direction struct {
	Title, Tone, Rationale string
	Palette                []swatch
}

// swatch is a colour as written and, when it is a colour the stylesheet
// may use, the same value as CSS.
type swatch struct {
	Value string
	CSS   template.CSS
}

type designToken struct {
	Name, Value string
	CSS         template.CSS
}

func decodeDesignSheet(o object, _ deckMeta) any {
	var v designView
	for _, d := range o.list("directions") {
		dir := direction{Title: d.text("title"), Tone: d.text("tone"), Rationale: d.text("rationale")}
		for _, c := range d.texts("palette") {
			css, _ := safeColor(c)
			dir.Palette = append(dir.Palette, swatch{c, css})
		}
		v.Directions = append(v.Directions, dir)
	}
	for _, t := range o.list("tokens") {
		tk := designToken{Name: t.text("name"), Value: t.text("value")}
		tk.CSS, _ = safeColor(tk.Value)
		v.Tokens = append(v.Tokens, tk)
	}
	return v
}

// component-gallery

type galleryView struct {
	Component string
	Variants  []variant
}

type variant struct {
	Label, State, StateClass, Intent, Example, Note string
}

// componentStates are the states the gallery knows how to draw.
var componentStates = map[string]bool{
	"default": true, "hover": true, "active": true, "focus": true, "selected": true,
	"disabled": true, "error": true, "loading": true, "success": true, "warning": true,
}

func decodeComponentGallery(o object, _ deckMeta) any {
	v := galleryView{Component: o.text("component")}
	for _, it := range o.list("variants") {
		vr := variant{Label: it.text("label"), State: it.text("state"), Intent: it.text("intent"), Example: it.text("example"), Note: it.text("note")}
		vr.StateClass = "state-default"
		if s := normalizeWord(vr.State); componentStates[s] {
			vr.StateClass = "state-" + s
		}
		v.Variants = append(v.Variants, vr)
	}
	return v
}

// interaction-prototype

type protoView struct {
	Scenario    string
	Controls    []control
	Screens     []titled
	Annotations []titled
	Questions   []string
	Snippet     string
}

type control struct {
	N                      int
	Key, Label, Type, Unit string
	Value                  string
	Min, Max, Step         string
	Checked                bool
}

func decodeInteractionPrototype(o object, _ deckMeta) any {
	v := protoView{Scenario: o.text("scenario")}
	for i, c := range o.list("controls") {
		ct := control{N: i, Key: c.text("key"), Label: c.text("label"), Unit: c.text("unit")}
		if ct.Label == "" {
			ct.Label = ct.Key
		}
		min, hasMin := c.number("min")
		max, hasMax := c.number("max")
		switch val := c.m["value"].(type) {
		case bool:
			ct.Type, ct.Checked = "toggle", val
		case float64:
			ct.Type, ct.Value = "number", formatNumber(val)
			if hasMin || hasMax {
				if !hasMin {
					min = minf(0, val)
				}
				if !hasMax {
					max = maxf(val*2, min+100)
				}
				if max < min {
					min, max = max, min
				}
				ct.Type, ct.Min, ct.Max = "range", formatNumber(min), formatNumber(max)
				ct.Step = "1"
				if !isWhole(min) || !isWhole(max) || !isWhole(val) {
					ct.Step = "any"
				}
			}
		case string, nil:
			ct.Type = "text"
			ct.Value = c.text("value")
		default:
			c.d.fail(c.at("value"), "a string, number or boolean")
		}
		v.Controls = append(v.Controls, ct)
	}
	v.Screens = decodeTitled(o.list("screens"))
	v.Annotations = decodeTitled(o.list("annotations"))
	v.Questions = o.texts("questions")
	v.Snippet = o.rawText("snippet")
	return v
}

func minf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func isWhole(f float64) bool { return f == float64(int64(f)) }

// flowchart

type flowView struct {
	Chart    diagram
	Steps    []flowStep
	Failures []failurePath
}

type flowStep struct {
	N                                     int
	Title, Detail, Status, Tone, Duration string
}

type failurePath struct {
	From, Label, Detail string
	step                int // index of the step it leaves, or -1
}

func decodeFlowchart(o object, _ deckMeta) any {
	var v flowView
	for i, s := range o.list("steps") {
		st := flowStep{N: i + 1, Title: s.text("title"), Detail: s.text("detail"), Status: s.text("status"), Duration: s.text("duration")}
		if st.Title == "" {
			st.Title = "Step " + strconv.Itoa(i+1)
		}
		st.Tone = tone(st.Status)
		v.Steps = append(v.Steps, st)
	}
	for _, f := range o.list("failurePaths") {
		fp := failurePath{From: f.text("from"), Label: f.text("label"), Detail: f.text("detail"), step: -1}
		for i, st := range v.Steps {
			if strings.EqualFold(st.Title, fp.From) || strconv.Itoa(st.N) == fp.From {
				fp.step = i
				break
			}
		}
		v.Failures = append(v.Failures, fp)
	}
	v.Chart = layoutFlow(v.Steps, v.Failures)
	return v
}

// deck and presentation

type deckView struct {
	Subtitle     string
	Slides       []slide
	Count        int
	FirstPercent int // the progress bar's width on the first slide
}

type slide struct {
	N                         int
	Title, Kicker, Body, Note string
	Bullets                   []string
	Metrics                   []metric
}

func decodeDeck(o object, meta deckMeta) any {
	v := deckView{Subtitle: o.text("subtitle")}
	for i, s := range o.list("slides") {
		sl := slide{N: i + 1, Kicker: s.text("kicker"), Body: s.text("body"), Note: s.text("note"), Bullets: s.texts("bullets")}
		s.text("title")
		if i < len(meta.titles) {
			sl.Title = meta.titles[i]
		}
		if o.d.kind == "presentation" {
			sl.Metrics = decodeMetrics(s.list("metrics"))
		}
		v.Slides = append(v.Slides, sl)
	}
	v.Count = len(v.Slides)
	if v.Count > 0 {
		v.FirstPercent = 100 / v.Count
	}
	return v
}

// illustration-set

type illustrationView struct{ Figures []figure }

type figure struct {
	Title, Caption string
	ViewBox        string
	Shapes         []shape
}

func decodeIllustrationSet(o object, _ deckMeta) any {
	var v illustrationView
	for _, f := range o.list("figures") {
		v.Figures = append(v.Figures, layoutFigure(f))
	}
	return v
}

// explainer

type explainerView struct {
	Summary  string
	Steps    []titled
	Snippets []snippet
	FAQ      []qa
	Glossary []glossaryTerm
}

type qa struct{ Q, A string }

type glossaryTerm struct{ Term, Definition string }

func decodeExplainer(o object, _ deckMeta) any {
	v := explainerView{Summary: o.text("summary"), Steps: decodeTitled(o.list("steps")), Snippets: decodeSnippets(o.list("snippets"))}
	for _, q := range o.list("faq") {
		v.FAQ = append(v.FAQ, qa{q.text("q"), q.text("a")})
	}
	for _, g := range o.list("glossary") {
		v.Glossary = append(v.Glossary, glossaryTerm{g.text("term"), g.text("definition")})
	}
	return v
}

// status-report

type statusView struct {
	Metrics                       []metric
	Shipped, Slipped, Risks, Next []string
}

func decodeStatusReport(o object, _ deckMeta) any {
	return statusView{
		Metrics: decodeMetrics(o.list("metrics")),
		Shipped: o.texts("shipped"), Slipped: o.texts("slipped"), Risks: o.texts("risks"), Next: o.texts("next"),
	}
}

// incident-report

type incidentView struct {
	Severity, SeverityTone, Status, StatusTone, Duration string
	Summary, RootCause                                   string
	Impact                                               []metric
	Timeline                                             []incidentEvent
	Logs                                                 []codeLine
	Actions                                              []action
	Done                                                 int
}

type incidentEvent struct{ Time, Event, Detail, Tone string }

type action struct {
	Done                    bool
	Owner, Description, Due string
}

func decodeIncidentReport(o object, _ deckMeta) any {
	v := incidentView{Severity: o.text("severity"), Status: o.text("status"), Duration: o.text("duration"),
		Summary: o.text("summary"), RootCause: o.text("rootCause")}
	v.SeverityTone, v.StatusTone = tone(v.Severity), tone(v.Status)
	v.Impact = decodeMetrics(o.list("impact"))
	for _, e := range o.list("timeline") {
		v.Timeline = append(v.Timeline, incidentEvent{e.text("time"), e.text("event"), e.text("detail"), tone(e.text("tone"))})
	}
	v.Logs = logLines(o.rawText("logs"))
	for _, a := range o.list("actions") {
		ac := action{Done: a.flag("done"), Owner: a.text("owner"), Description: a.text("description"), Due: a.text("due")}
		if ac.Done {
			v.Done++
		}
		v.Actions = append(v.Actions, ac)
	}
	return v
}

var logLevel = regexp.MustCompile(`(?i)\b(error|fatal|panic|crit(?:ical)?|warn(?:ing)?|info|debug)\b`)

// logLines classes each log line by the first level word on it.
func logLines(logs string) []codeLine {
	if logs == "" {
		return nil
	}
	var out []codeLine
	for _, line := range strings.Split(logs, "\n") {
		class := "ctx"
		if m := logLevel.FindString(line); m != "" {
			switch strings.ToLower(m)[:3] {
			case "err", "fat", "pan", "cri":
				class = "del"
			case "war":
				class = "warn"
			}
		}
		out = append(out, codeLine{class, strings.TrimRight(line, "\r")})
	}
	return out
}

// triage-board

type triageView struct{ Columns []triageColumn }

type triageColumn struct {
	N     int
	Name  string
	Items []triageItem
}

type triageItem struct {
	N                        int
	Title, Detail, Rationale string
}

func decodeTriageBoard(o object, _ deckMeta) any {
	var names []string
	index := map[string]int{}
	add := func(name string) {
		key := strings.ToLower(name)
		if _, ok := index[key]; !ok && name != "" {
			index[key] = len(names)
			names = append(names, name)
		}
	}
	for _, c := range o.texts("columns") {
		add(c)
	}
	items := o.list("items")
	cols := make([]string, len(items))
	for i, it := range items {
		cols[i] = it.text("column")
	}
	if len(names) == 0 {
		for _, c := range cols {
			add(c)
		}
	}
	if len(names) == 0 {
		for _, c := range []string{"Now", "Next", "Later"} {
			add(c)
		}
	}
	v := triageView{}
	for i, n := range names {
		v.Columns = append(v.Columns, triageColumn{N: i, Name: n})
	}
	for i, it := range items {
		ti := triageItem{N: i, Title: it.text("title"), Detail: it.text("detail"), Rationale: it.text("rationale")}
		c, ok := index[strings.ToLower(cols[i])]
		if !ok {
			if _, has := index["unsorted"]; !has {
				index["unsorted"] = len(v.Columns)
				v.Columns = append(v.Columns, triageColumn{N: len(v.Columns), Name: "Unsorted"})
			}
			c = index["unsorted"]
		}
		v.Columns[c].Items = append(v.Columns[c].Items, ti)
	}
	return v
}

// config-editor

type configView struct{ Areas []configArea }

type configArea struct {
	Name  string
	Flags []configFlag
}

type configFlag struct {
	N                       int
	Key, Label, Description string
	Enabled                 bool
	Requires                []requirement
	RequiresIndex           string // space-separated flag numbers, for the script
}

type requirement struct {
	Key   string
	Known bool
}

func decodeConfigEditor(o object, _ deckMeta) any {
	var flags []configFlag
	var areas []string
	byKey := map[string]int{}
	for i, f := range o.list("flags") {
		fl := configFlag{N: i, Key: f.text("key"), Label: f.text("label"), Description: f.text("description"), Enabled: f.flag("enabled")}
		if fl.Label == "" {
			fl.Label = fl.Key
		}
		for _, r := range f.texts("requires") {
			fl.Requires = append(fl.Requires, requirement{Key: r})
		}
		if _, dup := byKey[fl.Key]; !dup && fl.Key != "" {
			byKey[fl.Key] = i
		}
		area := f.text("area")
		if area == "" {
			area = "General"
		}
		areas = append(areas, area)
		flags = append(flags, fl)
	}
	var v configView
	areaIndex := map[string]int{}
	for i, fl := range flags {
		var idx []string
		for j, r := range fl.Requires {
			if n, ok := byKey[r.Key]; ok {
				fl.Requires[j].Known = true
				idx = append(idx, strconv.Itoa(n))
			}
		}
		fl.RequiresIndex = strings.Join(idx, " ")
		a, ok := areaIndex[areas[i]]
		if !ok {
			a = len(v.Areas)
			areaIndex[areas[i]] = a
			v.Areas = append(v.Areas, configArea{Name: areas[i]})
		}
		v.Areas[a].Flags = append(v.Areas[a].Flags, fl)
	}
	return v
}

// prompt-tuner

type tunerView struct {
	Template     []segment
	Placeholders []string
	Samples      []promptSample
	Rendered     []string // each sample's prompt, for Copy prompt
}

// segment is a run of a prompt: plain text, a variable, or a variable the
// sample does not set (Missing).
type segment struct {
	Text    string
	Var     bool
	Missing bool
}

type promptSample struct {
	N       int
	Name    string
	Vars    []pair
	Unused  []string
	Missing []string
	Prompt  []segment
	Chars   int
	Tokens  int
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}`)

func decodePromptTuner(o object, _ deckMeta) any {
	tmpl := o.rawText("template")
	v := tunerView{}
	seen := map[string]bool{}
	locs := placeholder.FindAllStringSubmatchIndex(tmpl, -1)
	last := 0
	for _, l := range locs {
		if l[0] > last {
			v.Template = append(v.Template, segment{Text: tmpl[last:l[0]]})
		}
		v.Template = append(v.Template, segment{Text: tmpl[l[0]:l[1]], Var: true})
		name := tmpl[l[2]:l[3]]
		if !seen[name] {
			seen[name] = true
			v.Placeholders = append(v.Placeholders, name)
		}
		last = l[1]
	}
	if last < len(tmpl) {
		v.Template = append(v.Template, segment{Text: tmpl[last:]})
	}
	for i, s := range o.list("samples") {
		ps := promptSample{N: i, Name: s.text("name"), Vars: s.textMap("variables")}
		if ps.Name == "" {
			ps.Name = "Sample " + strconv.Itoa(i+1)
		}
		vars := map[string]string{}
		for _, p := range ps.Vars {
			vars[p.Key] = p.Value
			if !seen[p.Key] {
				ps.Unused = append(ps.Unused, p.Key)
			}
		}
		var text strings.Builder
		last := 0
		for _, l := range locs {
			if l[0] > last {
				ps.Prompt = appendText(ps.Prompt, tmpl[last:l[0]])
				text.WriteString(tmpl[last:l[0]])
			}
			name := tmpl[l[2]:l[3]]
			if val, ok := vars[name]; ok {
				ps.Prompt = append(ps.Prompt, segment{Text: val, Var: true})
				text.WriteString(val)
			} else {
				ps.Prompt = append(ps.Prompt, segment{Text: tmpl[l[0]:l[1]], Missing: true})
				text.WriteString(tmpl[l[0]:l[1]])
				if !contains(ps.Missing, name) {
					ps.Missing = append(ps.Missing, name)
				}
			}
			last = l[1]
		}
		if last < len(tmpl) {
			ps.Prompt = appendText(ps.Prompt, tmpl[last:])
			text.WriteString(tmpl[last:])
		}
		ps.Chars = len([]rune(text.String()))
		ps.Tokens = (ps.Chars + 3) / 4
		v.Samples = append(v.Samples, ps)
		v.Rendered = append(v.Rendered, text.String())
	}
	return v
}

func appendText(segs []segment, s string) []segment {
	return append(segs, segment{Text: s})
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
