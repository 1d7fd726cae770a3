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
			Read: readPassThrough("schema.describe")},
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
		boardResource(),
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

// schemaRoutingLine ends the canvas://schema description (reference §8.1):
// which tool creates each node type.
func schemaRoutingLine() string {
	parts := make([]string, 0, len(messages.SchemaNodeRouting))
	for _, r := range messages.SchemaNodeRouting {
		parts = append(parts, fmt.Sprintf("%s: %s", r.Type, r.Tool))
	}
	return "Routing: " + strings.Join(parts, ", ")
}
