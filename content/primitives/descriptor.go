package primitives

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Size is a node's width and height in canvas units.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Descriptor tells an agent what a primitive kind is for and what data it
// takes. The list of descriptors is what the schema endpoint publishes.
type Descriptor struct {
	Kind        string         `json:"kind"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	UseWhen     string         `json:"useWhen"`
	DefaultSize Size           `json:"defaultSize"`
	DataShape   string         `json:"dataShape"`
	Example     map[string]any `json:"example"`
}

// descriptors holds everything of a Descriptor but its example, in the
// reference's order; examples live in examples/<kind>.json.
var descriptors = []Descriptor{
	{
		Kind:        "choice-grid",
		Title:       "Choice Grid",
		Description: "Side-by-side options with their tradeoffs, pros, cons and a code sketch, so a decision can be made at a glance.",
		UseWhen:     "You need the user to pick between two to four approaches and want each one's cost and benefit visible next to the others.",
		DefaultSize: Size{980, 720},
		DataShape:   "{ items: [{ title, summary, tradeoff, pros: string[], cons: string[], code? }] }",
	},
	{
		Kind:        "plan-timeline",
		Title:       "Plan Timeline",
		Description: "A delivery plan as ordered milestones with status, the flow between pieces of work, risks with mitigations and key snippets.",
		UseWhen:     "You are proposing or tracking a multi-step plan and the order, progress and risks matter more than the prose.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ milestones: [{ title, detail, status }], flow: [{ from, to, label }], risks: [{ risk, mitigation }], snippets: [{ label, code }] }",
	},
	{
		Kind:        "review-sheet",
		Title:       "Review Sheet",
		Description: "Code review findings ranked by severity with file and line, the files worth reading and an optional highlighted diff.",
		UseWhen:     "You reviewed a change and want the findings scannable by severity instead of buried in a chat message.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ findings: [{ severity, title, file, line, detail }], files: [{ path, why }], diff?: string }",
	},
	{
		Kind:        "pr-writeup",
		Title:       "PR Writeup",
		Description: "A pull request description: what and why, before and after, the files to look at, review focus, tests and rollout.",
		UseWhen:     "You finished a change and want reviewers to understand it quickly and know where to look.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ summary, why, before: string[], after: string[], files: [{ path, why, focus }], reviewFocus: string[], tests: string[], rollout: string[] }",
	},
	{
		Kind:        "system-map",
		Title:       "System Map",
		Description: "Modules of a system drawn as a diagram of boxes and labelled dependencies, with their roles and entry points.",
		UseWhen:     "You need to show how the parts of a codebase or service fit together before going into any one of them.",
		DefaultSize: Size{1040, 720},
		DataShape:   "{ modules: [{ id, title, detail, role }], edges: [{ from, to, label }], entryPoints: string[] }",
	},
	{
		Kind:        "code-walkthrough",
		Title:       "Code Walkthrough",
		Description: "A guided tour of code: a module map, numbered steps with file and snippet, key files and gotchas.",
		UseWhen:     "You are explaining how a feature or request flows through the code to someone new to it.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ summary, modules: [{ id, title, detail, role }], edges: [{ from, to, label }], steps: [{ title, file, detail, code }], keyFiles: [{ path, description }], gotchas: string[] }",
	},
	{
		Kind:        "design-sheet",
		Title:       "Design Sheet",
		Description: "Visual design directions with tone, colour palette swatches and rationale, plus the design tokens they imply.",
		UseWhen:     "You are proposing a look and feel and want the user to compare directions by their actual colours.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ directions: [{ title, tone, palette: string[], rationale }], tokens: [{ name, value }] }",
	},
	{
		Kind:        "component-gallery",
		Title:       "Component Gallery",
		Description: "One UI component's variants and states side by side, each with its intent, an example and a usage note.",
		UseWhen:     "You are specifying or reviewing a component and every state it can be in needs to be agreed.",
		DefaultSize: Size{980, 720},
		DataShape:   "{ component, variants: [{ label, state, intent, example, note }] }",
	},
	{
		Kind:        "interaction-prototype",
		Title:       "Interaction Prototype",
		Description: "A clickable sketch of an interaction: live controls, the screens it moves through, annotations and open questions.",
		UseWhen:     "You want feedback on how something should behave, and tuning a few parameters by hand says more than a description.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ scenario, controls: [{ key, label, value, min?, max?, unit? }], screens: [{ title, detail }], annotations: [{ title, detail }], questions: string[], snippet? }",
	},
	{
		Kind:        "flowchart",
		Title:       "Flowchart",
		Description: "A process drawn as a chart of steps with status and duration, and the failure paths that branch off them.",
		UseWhen:     "You are describing a pipeline, runbook or request lifecycle where the order of steps and what can go wrong matter.",
		DefaultSize: Size{980, 700},
		DataShape:   "{ steps: [{ title, detail, status, duration }], failurePaths?: [{ from, label, detail }] }",
	},
	{
		Kind:        "deck",
		Title:       "Slide Deck",
		Description: "A compact slide deck shown one slide at a time with keyboard and button navigation and speaker notes.",
		UseWhen:     "You are walking someone through a short narrative where one idea per screen beats one long page.",
		DefaultSize: Size{960, 620},
		DataShape:   "{ slides: [{ title, kicker?, body?, bullets?: string[], note? }] }",
	},
	{
		Kind:        "presentation",
		Title:       "HTML Presentation",
		Description: "A fullscreen-ready slide presentation with themes, metrics, a progress bar, slide navigation and speaker notes.",
		UseWhen:     "You are preparing something to present to people, possibly fullscreen, with a theme and headline numbers.",
		DefaultSize: Size{1120, 700},
		DataShape:   `{ subtitle?, theme?: "canvas"|"midnight"|"paper"|"aurora"|{ bg?, panel?, surface?, border?, text?, textSecondary?, textMuted?, accent? }, slides: [{ title, kicker?, body?, bullets?: string[], metrics?: [{ label, value, detail? }], note? }] }`,
	},
	{
		Kind:        "illustration-set",
		Title:       "Illustration Set",
		Description: "A set of simple figures drawn from rectangles, circles, lines, arrows and text, each with a caption.",
		UseWhen:     "A small diagram explains a concept better than words and a full system map would be too much.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ figures: [{ title, caption, shapes: [{ type, x, y, width, height, cx, cy, r, x1, y1, x2, y2, text, color }] }] }",
	},
	{
		Kind:        "explainer",
		Title:       "Feature Explainer",
		Description: "A feature explained in steps with annotated snippets, frequently asked questions and a glossary.",
		UseWhen:     "Someone asked how a feature works and the answer needs structure: steps, examples and the terms involved.",
		DefaultSize: Size{980, 760},
		DataShape:   "{ summary, steps: [{ title, detail }], snippets: [{ label, code, note }], faq: [{ q, a }], glossary: [{ term, definition }] }",
	},
	{
		Kind:        "status-report",
		Title:       "Status Report",
		Description: "A status update with headline metrics coloured by tone and lists of what shipped, what slipped, risks and next steps.",
		UseWhen:     "You are reporting progress on a project or sprint to people who want the state in ten seconds.",
		DefaultSize: Size{980, 720},
		DataShape:   "{ metrics: [{ label, value, tone }], shipped: string[], slipped: string[], risks: string[], next: string[] }",
	},
	{
		Kind:        "incident-report",
		Title:       "Incident Report",
		Description: "An incident summary with severity and status, impact numbers, a timeline, the root cause, logs and follow-up actions.",
		UseWhen:     "You are writing up an outage or bug investigation, during it or as a postmortem.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ severity, status, duration, summary, impact: [{ label, value, tone }], timeline: [{ time, event, detail, tone }], rootCause, logs?: string, actions: [{ done, owner, description, due }] }",
	},
	{
		Kind:        "triage-board",
		Title:       "Triage Board",
		Description: "Items sorted into columns with a rationale each, which the user can move between columns and copy back as JSON.",
		UseWhen:     "You have a pile of issues, ideas or requests and want the user to confirm or change how they are prioritised.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ columns?: string[], items: [{ title, detail, column, rationale }] }",
	},
	{
		Kind:        "config-editor",
		Title:       "Config Editor",
		Description: "Feature flags or settings grouped by area as switches, with their dependencies checked live and the result copyable as JSON.",
		UseWhen:     "You want the user to choose a configuration, and which options depend on which is part of the choice.",
		DefaultSize: Size{980, 720},
		DataShape:   "{ flags: [{ key, label, area, enabled, requires?: string[], description }] }",
	},
	{
		Kind:        "prompt-tuner",
		Title:       "Prompt Tuner",
		Description: "A prompt template with its variables highlighted and rendered against sample inputs that can be switched and copied.",
		UseWhen:     "You are writing or tuning a prompt and want to see what it becomes for several realistic inputs.",
		DefaultSize: Size{1040, 760},
		DataShape:   "{ template: string, samples: [{ name, variables: Record<string,string> }] }",
	},
}

//go:embed examples/*.json
var exampleFiles embed.FS

// Kinds returns the primitive kinds in the reference's order.
func Kinds() []string {
	kinds := make([]string, len(descriptors))
	for i, d := range descriptors {
		kinds[i] = d.Kind
	}
	return kinds
}

// IsKind reports whether kind is one of Kinds.
func IsKind(kind string) bool {
	_, ok := lookup(kind)
	return ok
}

// Descriptors returns a descriptor for every kind, in the order of Kinds.
// Each call returns fresh examples, so a caller may change them.
func Descriptors() []Descriptor {
	out := make([]Descriptor, len(descriptors))
	for i, d := range descriptors {
		d.Example = example(d.Kind)
		out[i] = d
	}
	return out
}

// Lookup returns the descriptor of kind.
func Lookup(kind string) (Descriptor, bool) {
	d, ok := lookup(kind)
	if !ok {
		return Descriptor{}, false
	}
	d.Example = example(kind)
	return d, true
}

func lookup(kind string) (Descriptor, bool) {
	for _, d := range descriptors {
		if d.Kind == kind {
			return d, true
		}
	}
	return Descriptor{}, false
}

// example decodes the embedded example of kind. The files are part of the
// package and checked by its tests, so a broken one is a programming error.
func example(kind string) map[string]any {
	raw, err := exampleFiles.ReadFile("examples/" + kind + ".json")
	if err != nil {
		panic(fmt.Sprintf("primitives: no example for %s: %v", kind, err))
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(fmt.Sprintf("primitives: example for %s: %v", kind, err))
	}
	return m
}

// UnknownKindError is the error Build returns for a kind that is not one of
// Kinds. Its message is the reference's.
type UnknownKindError struct {
	Kind string
}

func (e *UnknownKindError) Error() string {
	return "Unknown HTML primitive: " + e.Kind + "."
}

// Hint lists the known kinds, for a caller that wants to tell the user what
// would have worked.
func (e *UnknownKindError) Hint() string {
	return KnownKinds()
}

// KnownKinds returns "Known HTML primitives: choice-grid, plan-timeline, …."
func KnownKinds() string {
	return "Known HTML primitives: " + strings.Join(Kinds(), ", ") + "."
}
