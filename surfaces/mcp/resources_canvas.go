package mcpapi

// The 14 fixed resources, the per-skill resources and the prompt
// pmx-current-context (reference mcp.md §8, ax.md §4.5). Each read runs
// catalog read operations through the call's Invoker (so local and remote
// agree) and reshapes the replies to the reference's payloads: pretty JSON,
// except canvas://history (plain text) and the skill documents (markdown).

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/content/jsonrender"
	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/skills"
)

// Each resource is notified after the change classes its content depends
// on — not, as in the reference, the layout resources after every AX
// change (a subscriber is told only about URIs an event touched).
var (
	layoutClasses = []string{ClassNodes, ClassPins} // context pins show as pinned nodes
	allClasses    = []string{ClassNodes, ClassPins, ClassAX, ClassAXTimeline}
)

func init() {
	defineResources(
		&Resource{URI: "canvas://schema", Name: "schema", MimeType: "application/json",
			Description: "Create schemas of the running server: the node types with their fields, aliases and examples, " +
				"the structured-content catalogs, and which MCP tool creates each node type. " + schemaRoutingLine(),
			Read: readSchema},
		&Resource{URI: "canvas://pinned-context", Name: "pinned-context", MimeType: "application/json",
			Description: "The nodes the human pinned as context for the agent: their text, the edges between them and the unpinned nodes nearby.",
			Read:        readPinnedContext, Classes: layoutClasses},
		&Resource{URI: "canvas://ax", Name: "ax-state", MimeType: "application/json",
			Description: "AX state: focus, work items, approval gates, review annotations, elicitations, mode requests and policy.",
			Read:        readAxState, Classes: []string{ClassAX}},
		&Resource{URI: "canvas://ax-context", Name: "ax-context", MimeType: "application/json",
			Description: "The agent context in one object (consumer mcp): board size, undelivered steering and open activity, " +
				"pinned and focused nodes, AX records, policy, recent timeline and host capability.",
			Read: readAxContext, Classes: allClasses},
		&Resource{URI: "canvas://ax-timeline", Name: "ax-timeline", MimeType: "application/json",
			Description: "Recent AX timeline, newest first: agent events, evidence, steering messages and a summary with counts.",
			Read:        readAxTimeline, Classes: []string{ClassAXTimeline}},
		&Resource{URI: "canvas://ax-work", Name: "ax-work", MimeType: "application/json",
			Description: "Work items, approval gates, review annotations, elicitations, mode requests and the policy.",
			Read:        readAxWork, Classes: []string{ClassAX}},
		// Notified on ax as well as ax-timeline: its pendingActivity is
		// built from AX state (the reference only notified timeline
		// changes, ax.md §13 quirk 7).
		&Resource{URI: "canvas://ax-pending-steering", Name: "ax-pending-steering", MimeType: "application/json",
			Description: "Everything not yet delivered, for every consumer: undelivered steering (oldest first) and open work items and pending gates.",
			Read:        readAxPendingSteering, Classes: []string{ClassAX, ClassAXTimeline}},
		&Resource{URI: "canvas://ax-delivery", Name: "ax-delivery", MimeType: "application/json",
			Description: "Recent steering messages, newest first, each with its delivered flag.",
			Read:        readAxDelivery, Classes: []string{ClassAXTimeline}},
		&Resource{URI: "canvas://layout", Name: "canvas-layout", MimeType: "application/json",
			Description: "The whole board: viewport, theme, every node with its data, edges and annotation summaries.",
			Read:        readLayout, Classes: layoutClasses},
		&Resource{URI: "canvas://summary", Name: "canvas-summary", MimeType: "application/json",
			Description: "Board summary: node, edge and annotation counts, nodes per kind, pinned titles and the viewport.",
			Read:        readPassThrough("summary.get"), Classes: layoutClasses},
		&Resource{URI: "canvas://spatial-context", Name: "spatial-context", MimeType: "application/json",
			Description: "How the board is laid out: clusters of nearby nodes, nodes in reading order, neighbourhoods of pinned nodes and annotations.",
			Read:        readPassThrough("spatial.get"), Classes: layoutClasses},
		&Resource{URI: "canvas://history", Name: "history", MimeType: "text/plain",
			Description: "The undo log as text: every recorded change, the current position and whether undo or redo is possible.",
			Read:        readHistory, Classes: layoutClasses},
		&Resource{URI: "canvas://code-graph", Name: "code-graph", MimeType: "application/json",
			Description: "File nodes as a dependency graph: imports, importers, central and isolated files.",
			Read:        readCodeGraph, Classes: []string{ClassNodes}},
		&Resource{URI: "canvas://skills", Name: "bundled-skills", MimeType: "application/json",
			Description: "The skill documents bundled with this server; read one at canvas://skills/<name>.",
			Read:        readSkillsIndex},
	)
	definePrompts(&Prompt{
		Name:        "pmx-current-context",
		Description: "The current PMX Canvas context for this agent: pinned and focused nodes, open work, pending gates, undelivered steering, policy and recent timeline.",
		Text: func(c *Call) (string, error) {
			ctx, err := axContextJSON(c)
			if err != nil {
				return "", err
			}
			return "Current PMX Canvas context:\n\n" + ctx, nil
		},
	})
}

// invokeFields runs a read and decodes its reply as an object of raw values.
func invokeFields(c *Call, op string, input Args) (map[string]json.RawMessage, error) {
	if input == nil {
		input = Args{}
	}
	r, err := c.Invoke(op, input)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := r.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: unexpected reply: %w", op, err)
	}
	return m, nil
}

// pick builds an ordered object of the given keys (null when absent).
func pick(m map[string]json.RawMessage, keys ...string) Obj {
	out := make(Obj, 0, len(keys))
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			v = json.RawMessage("null")
		}
		out = append(out, KV{k, v})
	}
	return out
}

// readPassThrough serves an operation's reply as is, pretty.
func readPassThrough(op string) func(c *Call) (string, error) {
	return func(c *Call) (string, error) {
		r, err := c.Invoke(op, Args{})
		if err != nil {
			return "", err
		}
		return Pretty(r.Body)
	}
}

func readLayout(c *Call) (string, error) {
	// The layout read as GET /api/canvas/state gives it: large mcp-app
	// payloads stay sidecar references (the reference elided hosted app
	// shells from this resource too). revision is ours: it is what
	// ifRevision writes compare against.
	m, err := invokeFields(c, "layout.get", nil)
	if err != nil {
		return "", err
	}
	return Pretty(pick(m, "viewport", "theme", "nodes", "edges", "annotations", "revision"))
}

func readHistory(c *Call) (string, error) {
	var h struct {
		Text string `json:"text"`
	}
	r, err := c.Invoke("history.get", Args{})
	if err != nil {
		return "", err
	}
	if err := r.Decode(&h); err != nil {
		return "", fmt.Errorf("history.get: unexpected reply: %w", err)
	}
	return h.Text, nil
}

func readPinnedContext(c *Call) (string, error) {
	var pinned struct {
		NodeIDs []string        `json:"nodeIds"`
		Count   int             `json:"count"`
		Nodes   json.RawMessage `json:"nodes"`
	}
	r, err := c.Invoke("pinned.get", Args{})
	if err != nil {
		return "", err
	}
	if err := r.Decode(&pinned); err != nil {
		return "", fmt.Errorf("pinned.get: unexpected reply: %w", err)
	}
	isPinned := make(map[string]bool, len(pinned.NodeIDs))
	for _, id := range pinned.NodeIDs {
		isPinned[id] = true
	}

	var layout struct {
		Edges []struct {
			ID    string  `json:"id"`
			From  string  `json:"from"`
			To    string  `json:"to"`
			Type  string  `json:"type"`
			Label *string `json:"label"`
		} `json:"edges"`
	}
	if r, err = c.Invoke("layout.get", Args{}); err != nil {
		return "", err
	}
	if err := r.Decode(&layout); err != nil {
		return "", fmt.Errorf("layout.get: unexpected reply: %w", err)
	}
	edges := make([]Obj, 0)
	for _, e := range layout.Edges {
		if isPinned[e.From] && isPinned[e.To] {
			edges = append(edges, Obj{{"id", e.ID}, {"from", e.From}, {"to", e.To}, {"type", e.Type}, {"label", e.Label}})
		}
	}

	var spatial struct {
		PinnedNeighborhoods []struct {
			PinnedNodeID    string          `json:"pinnedNodeId"`
			PinnedNodeTitle json.RawMessage `json:"pinnedNodeTitle"`
			Neighbors       json.RawMessage `json:"neighbors"`
		} `json:"pinnedNeighborhoods"`
	}
	if r, err = c.Invoke("spatial.get", Args{}); err != nil {
		return "", err
	}
	if err := r.Decode(&spatial); err != nil {
		return "", fmt.Errorf("spatial.get: unexpected reply: %w", err)
	}
	hoods := make([]Obj, 0, len(spatial.PinnedNeighborhoods))
	for _, n := range spatial.PinnedNeighborhoods {
		hoods = append(hoods, Obj{{"pinnedNodeId", n.PinnedNodeID}, {"pinnedNodeTitle", rawOrNull(n.PinnedNodeTitle)},
			{"nearbyNodes", rawOrEmpty(n.Neighbors)}})
	}

	return Pretty(Obj{{"pinnedCount", pinned.Count}, {"nodes", rawOrEmpty(pinned.Nodes)}, {"edges", edges}, {"neighborhoods", hoods}})
}

func rawOrNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

func rawOrEmpty(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || string(v) == "null" {
		return json.RawMessage("[]")
	}
	return v
}

// axStateFields reads the AX state (without the agent context).
func axStateFields(c *Call) (map[string]json.RawMessage, error) {
	m, err := invokeFields(c, "ax.get", Args{"includeContext": false})
	if err != nil {
		return nil, err
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(m["state"], &state); err != nil {
		return nil, fmt.Errorf("ax.get: unexpected state: %w", err)
	}
	return state, nil
}

var axStateKeys = []string{"version", "focus", "workItems", "approvalGates", "reviewAnnotations", "elicitations", "modeRequests", "policy"}

func readAxState(c *Call) (string, error) {
	state, err := axStateFields(c)
	if err != nil {
		return "", err
	}
	return Pretty(Obj{{"state", pick(state, axStateKeys...)}})
}

func readAxWork(c *Call) (string, error) {
	state, err := axStateFields(c)
	if err != nil {
		return "", err
	}
	return Pretty(pick(state, "workItems", "approvalGates", "reviewAnnotations", "elicitations", "modeRequests", "policy"))
}

// axContextJSON is the agent context for consumer mcp, pretty.
func axContextJSON(c *Call) (string, error) {
	r, err := c.Invoke("ax.context.get", Args{"consumer": "mcp"})
	if err != nil {
		return "", err
	}
	return Pretty(r.Body)
}

func readAxContext(c *Call) (string, error) { return axContextJSON(c) }

func readAxTimeline(c *Call) (string, error) {
	m, err := invokeFields(c, "ax.timeline.get", nil)
	if err != nil {
		return "", err
	}
	return Pretty(pick(m, "events", "evidence", "steering", "summary"))
}

func readAxPendingSteering(c *Call) (string, error) {
	// No consumer: every undelivered message and all open activity.
	m, err := invokeFields(c, "ax.delivery.pending", nil)
	if err != nil {
		return "", err
	}
	return Pretty(pick(m, "pending", "pendingActivity"))
}

func readAxDelivery(c *Call) (string, error) {
	m, err := invokeFields(c, "ax.timeline.get", Args{"limit": 50})
	if err != nil {
		return "", err
	}
	return Pretty(pick(m, "steering"))
}

// readCodeGraph is the import graph between file nodes (codegraph.get).
func readCodeGraph(c *Call) (string, error) {
	r, err := c.Invoke("codegraph.get", Args{})
	if err != nil {
		return "", err
	}
	return PrettyBody(r)
}

// ---- skills ----

// skillsFS holds the bundled skills: <name>/SKILL.md per skill.
var skillsFS fs.FS = skills.FS()

// SetSkills replaces the skill documents served as canvas://skills (tests,
// or a build that ships other skills).
func SetSkills(fsys fs.FS) { skillsFS = fsys }

// skill is one bundled skill document.
type skill struct {
	Name        string
	Description string
}

// maxSkillDescription cuts front-matter descriptions (reference §8.1).
const maxSkillDescription = 400

// listSkills returns the skills of skillsFS sorted by name: every directory
// (dot-directories skipped) that holds a SKILL.md.
func listSkills() []skill {
	if skillsFS == nil {
		return nil
	}
	entries, err := fs.ReadDir(skillsFS, ".")
	if err != nil {
		return nil
	}
	var out []skill
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		text, err := fs.ReadFile(skillsFS, path.Join(e.Name(), "SKILL.md"))
		if err != nil {
			continue
		}
		desc := frontMatterDescription(string(text))
		if r := []rune(desc); len(r) > maxSkillDescription {
			desc = string(r[:maxSkillDescription])
		}
		out = append(out, skill{Name: e.Name(), Description: desc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// frontMatterDescription returns the description of a SKILL.md's YAML front
// matter: a plain or quoted single line, or a folded (>) or literal (|)
// block. Empty when there is none.
func frontMatterDescription(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return ""
	}
	body, _, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return ""
	}
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		value, found := strings.CutPrefix(line, "description:")
		if !found {
			continue
		}
		value = strings.TrimSpace(value)
		if value == "" || strings.HasPrefix(value, ">") || strings.HasPrefix(value, "|") {
			literal := strings.HasPrefix(value, "|")
			var parts []string
			for _, next := range lines[i+1:] {
				if strings.TrimSpace(next) != "" && !strings.HasPrefix(next, " ") && !strings.HasPrefix(next, "\t") {
					break
				}
				parts = append(parts, strings.TrimSpace(next))
			}
			sep := " "
			if literal {
				sep = "\n"
			}
			return strings.TrimSpace(strings.Join(parts, sep))
		}
		if len(value) >= 2 && (value[0] == '"' && value[len(value)-1] == '"') {
			var s string
			if json.Unmarshal([]byte(value), &s) == nil {
				return s
			}
		}
		if len(value) >= 2 && value[0] == '\'' && value[len(value)-1] == '\'' {
			return strings.ReplaceAll(value[1:len(value)-1], "''", "'")
		}
		return value
	}
	return ""
}

func readSkillsIndex(*Call) (string, error) {
	list := make([]Obj, 0)
	for _, s := range listSkills() {
		list = append(list, Obj{{"name", s.Name}, {"description", s.Description}, {"uri", "canvas://skills/" + s.Name}})
	}
	return Pretty(Obj{{"count", len(list)}, {"skills", list}})
}

// SkillResources returns one resource per bundled skill,
// canvas://skills/<name> (text/markdown), sorted by name. They come after
// the fixed resources in resources/list and are never notified.
func SkillResources() []*Resource {
	var out []*Resource
	for _, s := range listSkills() {
		name := s.Name
		desc := s.Description
		if desc == "" {
			desc = "Bundled PMX Canvas skill: " + name
		}
		out = append(out, &Resource{
			URI: "canvas://skills/" + name, Name: "skill-" + name, Description: desc, MimeType: "text/markdown",
			Read: func(*Call) (string, error) {
				text, err := fs.ReadFile(skillsFS, path.Join(name, "SKILL.md"))
				if err != nil {
					return "# " + name + "\n\n_Skill file not found on disk._\n", nil
				}
				return string(text), nil
			},
		})
	}
	return out
}

// AllResources is resources/list: the fixed resources, then the skills.
func AllResources() []*Resource {
	return append(append([]*Resource(nil), Resources()...), SkillResources()...)
}

// FindResource returns the resource with uri (fixed or skill).
func FindResource(uri string) (*Resource, bool) {
	for _, r := range AllResources() {
		if r.URI == uri {
			return r, true
		}
	}
	return nil, false
}

// ---- canvas://schema ----

// schemaRouting is mcp.nodeTypeRouting: the tool that creates each node
// type this server supports (html through the composite, as the reference
// routes it).
var schemaRouting = Obj{
	{"markdown", "canvas_add_node"},
	{"status", "canvas_add_node"},
	{"context", "canvas_add_node"},
	{"ledger", "canvas_add_node"},
	{"trace", "canvas_add_node"},
	{"file", "canvas_add_node"},
	{"image", "canvas_add_node"},
	{"webpage", "canvas_add_node"},
	{"html", `canvas_node (action:"add", type:"html")`},
	{"mcp-app", "canvas_add_node"},
	{"group", "canvas_create_group"},
}

// schemaRoutingLine ends the canvas://schema description (reference §8.1).
func schemaRoutingLine() string {
	parts := make([]string, 0, len(schemaRouting))
	for _, kv := range schemaRouting {
		parts = append(parts, fmt.Sprintf("%s: %s", kv.K, kv.V))
	}
	return "Routing: " + strings.Join(parts, ", ")
}

// schemaCreateTools are the reference's schema tool list (mcp.tools); the
// ones not available in this build are left out when the document is read.
var schemaCreateTools = []string{
	"canvas_add_node", "canvas_add_html_node", "canvas_add_html_primitive", "canvas_add_json_render_node",
	"canvas_stream_json_render_node", "canvas_add_graph_node", "canvas_build_web_artifact", "canvas_open_mcp_app",
	"canvas_create_group", "canvas_update_node", "canvas_fit_view", "canvas_describe_schema", "canvas_validate_spec",
}

// sf is one create field of a node type.
func sf(name, typ string, required bool, desc string, aliases ...string) Obj {
	o := Obj{{"name", name}, {"type", typ}, {"required", required}, {"description", desc}}
	if len(aliases) > 0 {
		o = append(o, KV{"aliases", aliases})
	}
	return o
}

var (
	sfX          = sf("x", "number", false, "World x; the node is placed at (x, y) only when both are given, else auto-placed.")
	sfY          = sf("y", "number", false, "World y.")
	sfWidth      = sf("width", "number", false, "Frame width (default per type).")
	sfHeight     = sf("height", "number", false, "Frame height (default per type).")
	sfStrictSize = sf("strictSize", "boolean", false, "Keep the given width/height and let overflowing content scroll.", "strict-size", "scroll-overflow")
)

func nodeTypeEntry(typ, desc, endpoint, tool string, fields []Obj, example Obj, notes ...string) Obj {
	o := Obj{{"type", typ}, {"kind", "node"}, {"description", desc}, {"endpoint", endpoint}, {"mcpTool", tool},
		{"fields", fields}, {"example", example}}
	if len(notes) > 0 {
		o = append(o, KV{"notes", notes})
	}
	return o
}

func schemaNodeTypes() []Obj {
	const ep = "/api/canvas/node"
	return []Obj{
		nodeTypeEntry("markdown", "A markdown note.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "Node title."), sf("content", "string", false, "Markdown text."),
				sfX, sfY, sfWidth, sfHeight, sfStrictSize},
			Obj{{"type", "markdown"}, {"title", "Release plan"}, {"content", "# Steps\n\n1. Freeze\n2. Tag\n3. Announce"}},
			"Default size 640×420."),
		nodeTypeEntry("status", "A small status panel.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "Status label."), sf("content", "string", false, "Status text.")},
			Obj{{"type", "status"}, {"title", "CI"}, {"content", "green"}}),
		nodeTypeEntry("context", "A panel for agent context cards; created docked right and collapsed.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "Title."), sf("content", "string", false, "Context text.")},
			Obj{{"type", "context"}, {"title", "Working context"}, {"content", "What the agent should keep in mind."}}),
		nodeTypeEntry("ledger", "A running log or ledger.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "Title."), sf("content", "string", false, "Ledger text.")},
			Obj{{"type", "ledger"}, {"title", "Decisions"}, {"content", "- Use SSE for live updates"}},
			"Default size 420×280."),
		nodeTypeEntry("trace", "One step of an execution trace.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "Title."), sf("content", "string", false, "Trace summary."),
				sf("toolName", "string", false, "Tool or operation shown on the trace."),
				sf("category", "string", false, "mcp, file, subagent or other."),
				sf("status", "string", false, "running, success or failed."),
				sf("duration", "string", false, "Duration badge text."),
				sf("resultSummary", "string", false, "One-line result."),
				sf("error", "string", false, "Error text of a failed step.")},
			Obj{{"type", "trace"}, {"title", "Run tests"}, {"toolName", "go test"}, {"status", "success"}, {"duration", "4.2s"}}),
		nodeTypeEntry("file", "A workspace file.", ep, "canvas_add_node",
			[]Obj{sf("content", "string", true, "The file's path, workspace-relative or absolute."),
				sf("title", "string", false, "Title override.")},
			Obj{{"type", "file"}, {"content", "cmd/pmx-canvas/main.go"}},
			"The file is read (fileContent, lineCount, sha256, language) and watched: edits on disk update the node; a deleted file marks it missing. Paths outside the workspace are refused."),
		nodeTypeEntry("image", "An image from a path, URL or data URI.", ep, "canvas_add_node",
			[]Obj{sf("content", "string", true, "Image path, URL or data URI.", "path"),
				sf("title", "string", false, "Title override."),
				sf("data.warning", "string | { title?: string; detail: string }", false, "A warning shown above the image."),
				sf("data.warnings", "Array<string | { title?: string; detail: string }>", false, "Several warnings."),
				sf("data.validationStatus", `"passed" | "failed" | "invalid"`, false, "The agent's verdict on the image."),
				sf("data.validationMessage", "string", false, "Why validation failed.")},
			Obj{{"type", "image"}, {"content", "docs/architecture.png"}, {"data", Obj{{"validationStatus", "passed"}}}},
			"A workspace image is checked (extension and magic bytes) and measured; URLs and data URIs are stored as given."),
		nodeTypeEntry("webpage", "A web page kept on the board.", ep, "canvas_add_node",
			[]Obj{sf("url", "string", true, "HTTP(S) address of the page.", "content"),
				sf("title", "string", false, "Title override (default: the URL)."),
				sfX, sfY, sfWidth, sfHeight, sfStrictSize},
			Obj{{"type", "webpage"}, {"title", "Project README"}, {"url", "https://example.com/readme"}},
			"url is the field to use; content is accepted as an alias.",
			"The page is fetched on create and on refresh: title, description, the article as markdown, excerpt, status, frame blocking."),
		nodeTypeEntry("html", "A sandboxed HTML surface (scripts allowed, no access to the host page).", ep,
			`canvas_node (action:"add", type:"html")`,
			[]Obj{sf("html", "string", false, "HTML document or fragment.", "content", "stdin"),
				sf("summary", "string", false, "Agent-readable summary of the surface."),
				sf("agentSummary", "string", false, "Explicit summary used by search and context; wins over summary.", "agent-summary"),
				sf("description", "string", false, "Short description for search and context."),
				sf("embeddedNodeIds", "string[]", false, "Node ids the surface shows or stands for.", "embedded-node-id", "embedded-node-ids"),
				sf("embeddedUrls", "string[]", false, "URLs the surface shows or stands for.", "embedded-url", "embedded-urls"),
				sf("presentation", "boolean", false, "Marks a full-screen presentation deck."),
				sf("slideTitles", "string[]", false, "Slide titles of a deck.", "slide-title", "slide-titles"),
				sf("axCapabilities", "{ enabled?: boolean; allowed?: string[] }", false, "Let the surface emit AX interactions (narrowed to the html ceiling)."),
				sf("data", "record<string, unknown>", false, "Extra node data."),
				sf("title", "string", false, "Node title."),
				sfX, sfY, sfWidth, sfHeight, sfStrictSize},
			Obj{{"type", "html"}, {"title", "Hello"}, {"html", "<main><h1>Hello from the canvas</h1></main>"}},
			"contentSummary, embeddedNodeIds, embeddedUrls and agentSummary are derived from the html (an agentSummary you give wins).",
			"primitive (or kind) with data generates one of the HTML primitives listed in htmlPrimitives."),
		nodeTypeEntry("mcp-app", "A hosted app frame.", ep, "canvas_add_node",
			[]Obj{sf("title", "string", false, "App title."), sf("content", "string", false, "Inline content.")},
			Obj{{"type", "mcp-app"}, {"title", "Embedded app"}, {"content", "Placeholder until the app is opened."}},
			"Opening an external MCP app in a node (canvas_open_mcp_app) arrives with a later release; canvas_add_node creates a plain frame."),
		nodeTypeEntry("diff", "A unified diff parsed into files, hunks and lines.", ep, "canvas_add_node",
			[]Obj{sf("content", "string", true, "The unified diff (git diff or diff -u output)."),
				sf("title", "string", false, "Title override (default: Diff: <file> or <n> files).")},
			Obj{{"type", "diff"}, {"content", "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old\n+new\n"}},
			"Over HTTP and the CLI, gitDiff (true or workspace paths) with gitBase makes the diff from git."),
		nodeTypeEntry("mermaid", "A mermaid diagram, drawn by the viewer.", ep, "canvas_add_node",
			[]Obj{sf("content", "string", true, "The mermaid source."), sf("title", "string", false, "Title (default Diagram).")},
			Obj{{"type", "mermaid"}, {"content", "flowchart LR\n  A[Plan] --> B[Ship]"}}),
		nodeTypeEntry("group", "A frame that holds other nodes.", "/api/canvas/group", "canvas_create_group",
			[]Obj{sf("title", "string", false, "Group title (default \"Group\")."),
				sf("childIds", "string[]", false, "Member node ids; they must exist and must not be groups."),
				sf("color", "string", false, "Frame accent colour."),
				sf("x", "number", false, "Frame x; with any of x, y, width, height the frame is fixed instead of fitting its members."),
				sf("y", "number", false, "Frame y."),
				sf("width", "number", false, "Frame width."),
				sf("height", "number", false, "Frame height."),
				sf("childLayout", `"grid" | "column" | "flow"`, false, "Pack the members in this layout.")},
			Obj{{"title", "API layer"}, {"childIds", []string{"node-a", "node-b"}}, {"childLayout", "column"}},
			"A node belongs to at most one group and groups do not nest."),
	}
}

// schemaDocument is the canvas://schema payload.
func schemaDocument() Obj {
	tools := make([]string, 0, len(schemaCreateTools))
	for _, name := range schemaCreateTools {
		if t, ok := definitions[name]; ok && t.Later != "" {
			continue
		}
		tools = append(tools, name)
	}
	return Obj{
		{"ok", true},
		{"source", "running-server"},
		{"version", messages.ContractVersion},
		{"nodeTypes", schemaNodeTypes()},
		{"jsonRender", Obj{
			{"rootShape", jsonrender.RootShape},
			{"components", jsonrender.Catalog()},
			{"directives", jsonrender.Directives()},
		}},
		{"graph", Obj{{"graphTypes", messages.GraphTypes}}},
		{"htmlPrimitives", primitives.Descriptors()},
		{"mcp", Obj{
			{"tools", tools},
			{"resources", []string{"canvas://schema"}},
			{"nodeTypeRouting", schemaRouting},
		}},
	}
}

func readSchema(*Call) (string, error) { return Pretty(schemaDocument()) }
