package canvas

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonnum"
	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
)

// Character budgets of agent-context summaries. Webpages get more room
// because their text is the point of the node; the spatial context uses the
// smaller pair so a whole board fits in one read.
const (
	AgentContextBudget          = 700
	AgentContextWebpageBudget   = 1600
	SpatialContextBudget        = 320
	SpatialContextWebpageBudget = 640
)

// contextBudget returns the budget for n: webpageMax for webpages, else
// defaultMax.
func contextBudget(n *Node, defaultMax, webpageMax int) int {
	if n.Type == "webpage" {
		return webpageMax
	}
	return defaultMax
}

// AgentBudget is the pinned-context budget for n: 1600 characters for a
// webpage, 700 for everything else.
func AgentBudget(n *Node) int {
	return contextBudget(n, AgentContextBudget, AgentContextWebpageBudget)
}

// Fields is a JSON object that keeps its keys in insertion order, so
// derived objects (metadata, type counts) read in the reference's order
// instead of Go's sorted map order; Field is one key. Both are the shared
// internal/jsonobj types.
type (
	Fields = jsonobj.Object
	Field  = jsonobj.KV
)

// jsonText is JSON.stringify(v), or "" when v cannot be encoded. Plain Go
// maps encode with sorted keys (the reference kept insertion order, which a
// decoded map no longer has).
func jsonText(v any) string {
	out, err := jsonobj.Marshal(v)
	if err != nil {
		return ""
	}
	return string(out)
}

// isJSSpace reports whether r matches JavaScript's \s, which normalisation
// and trimming are defined by. It differs from unicode.IsSpace on U+0085
// (not JS space) and U+FEFF (JS space).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func isInlineSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\f' || r == '\v' }

// normalizeContextText tidies text for an agent: CRLF and CR become LF,
// every whitespace run that holds a newline becomes a single newline (so
// blank lines go too), runs of spaces and tabs become one space, and the
// ends are trimmed.
func normalizeContextText(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	rs := []rune(text)
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(rs); {
		if !isJSSpace(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j, newline := i, false
		for j < len(rs) && isJSSpace(rs[j]) {
			newline = newline || rs[j] == '\n'
			j++
		}
		if newline {
			b.WriteByte('\n')
		} else {
			writeCollapsed(&b, rs[i:j])
		}
		i = j
	}
	return strings.TrimFunc(b.String(), isJSSpace)
}

// writeCollapsed writes a newline-free whitespace run with each stretch of
// spaces and tabs reduced to one space; other spaces (NBSP and the like)
// are kept.
func writeCollapsed(b *strings.Builder, run []rune) {
	for k := 0; k < len(run); {
		if !isInlineSpace(run[k]) {
			b.WriteRune(run[k])
			k++
			continue
		}
		for k < len(run) && isInlineSpace(run[k]) {
			k++
		}
		b.WriteByte(' ')
	}
}

// truncateContextText normalises text and cuts it to at most max
// characters, ending a cut text with "…". Lengths count characters (runes);
// the reference counted UTF-16 units, which differs only for characters
// outside the Basic Multilingual Plane.
func truncateContextText(text string, max int) string {
	if max <= 0 {
		return ""
	}
	s := normalizeContextText(text)
	rs := []rune(s)
	if len(rs) <= max {
		return s
	}
	if max == 1 {
		return string(rs[:1])
	}
	return strings.TrimRightFunc(string(rs[:max-1]), isJSSpace) + "…"
}

func runeLen(s string) int { return len([]rune(s)) }

// truthy is JavaScript truthiness for decoded JSON values.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	}
	if f, ok := jsonnum.Float(v); ok {
		return f != 0 && !math.IsNaN(f)
	}
	return true
}

// jsString is String(v) for the scalar values summaries print; objects are
// written as JSON.
func jsString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	}
	if f, ok := jsonnum.Float(v); ok {
		return jsNumber(f)
	}
	return jsonText(v)
}

func str(data map[string]any, key string) string {
	s, _ := data[key].(string)
	return s
}

func strList(v any) []string {
	list, ok := v.([]any)
	if !ok {
		if ss, isStrings := v.([]string); isStrings {
			return ss
		}
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, isString := e.(string); isString {
			out = append(out, s)
		}
	}
	return out
}

func isList(v any) (int, bool) {
	switch t := v.(type) {
	case []any:
		return len(t), true
	case []string:
		return len(t), true
	}
	return 0, false
}

// SummarizeNodeForAgentContext is the readable text of n for an agent,
// normalised and cut to max characters (see AgentBudget for the budgets the
// reference uses). Each type says what matters about it: markdown its
// rendered text or source, a webpage its fetch header and page text, a file
// its path and contents, an html node its agent summary, apps their
// identity; anything else falls back to the JSON of its data.
func SummarizeNodeForAgentContext(n *Node, max int) string {
	d := n.Data
	switch n.Type {
	case "markdown":
		return truncateContextText(firstTruthy(d, "rendered", "content"), max)
	case "mcp-app":
		return summarizeMcpApp(n, max)
	case "webpage":
		return summarizeWebpage(d, max)
	case "json-render", "graph":
		if cfg := d["graphConfig"]; truthy(cfg) {
			return truncateContextText("Graph: "+jsonText(cfg), max)
		}
		spec, ok := d["spec"]
		if !ok || spec == nil {
			spec = map[string]any{}
		}
		return stringifyContextValue(spec, max)
	case "html":
		return summarizeHTML(d, max)
	case "prompt", "response":
		return truncateContextText(firstTruthy(d, "text", "content"), max)
	case "file":
		return summarizeFile(d, max)
	case "diff":
		return truncateContextText(str(d, "summary")+"\n\n"+str(d, "content"), max)
	}
	return stringifyContextValue(d, max)
}

// firstTruthy returns the first non-empty string among data[keys] (the
// reference's a || b).
func firstTruthy(data map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := str(data, k); s != "" {
			return s
		}
	}
	return ""
}

func stringifyContextValue(v any, max int) string {
	if s, ok := v.(string); ok {
		return truncateContextText(s, max)
	}
	if v == nil {
		return ""
	}
	return truncateContextText(jsonText(v), max)
}

// summarizeWebpage puts URL, title, description, fetch status and error on
// header lines, then fills what is left of the budget with the page text.
func summarizeWebpage(d map[string]any, max int) string {
	var parts []string
	if u := str(d, "url"); u != "" {
		parts = append(parts, "URL: "+u)
	}
	if t := str(d, "pageTitle"); t != "" {
		parts = append(parts, "Title: "+t)
	}
	if desc := str(d, "description"); desc != "" {
		parts = append(parts, "Description: "+desc)
	}
	status := str(d, "status")
	code, hasCode := jsonnum.Float(d["statusCode"])
	if status != "" || hasCode {
		line := "Fetch: "
		if status != "" {
			line += status
		} else {
			line += "unknown"
		}
		if hasCode {
			line += " (" + jsNumber(code) + ")"
		}
		parts = append(parts, line)
	}
	if e := str(d, "error"); e != "" {
		parts = append(parts, "Error: "+e)
	}
	content, ok := d["content"].(string)
	if !ok {
		content = str(d, "excerpt")
	}
	header := strings.Join(parts, "\n")
	remaining := max - runeLen(header)
	if header != "" {
		remaining -= 2
	}
	body := ""
	if remaining > 0 {
		body = truncateContextText(content, remaining)
	}
	switch {
	case header != "" && body != "":
		return header + "\n\n" + body
	case header != "":
		return truncateContextText(header, max)
	}
	return truncateContextText(content, max)
}

func summarizeMcpApp(n *Node, max int) string {
	d := n.Data
	if Kind(n) == "web-artifact" {
		return summarizeWebArtifact(d, max)
	}
	if cfg := d["chartConfig"]; truthy(cfg) {
		c, _ := cfg.(map[string]any)
		title := str(c, "title")
		if title == "" {
			title = "Untitled chart"
		}
		typ := str(c, "type")
		if typ == "" {
			typ = "unknown"
		}
		var labels []string
		if list, ok := c["labels"].([]any); ok {
			for _, l := range list {
				labels = append(labels, jsString(l))
			}
		}
		return truncateContextText("Chart: "+title+" ("+typ+"). Labels: "+strings.Join(labels, ", "), max)
	}
	var parts []string
	if t := str(d, "title"); t != "" {
		parts = append(parts, "App: "+t)
	}
	if j := joinPresent(" / ", str(d, "mode"), str(d, "hostMode")); j != "" {
		parts = append(parts, "Mode: "+j)
	}
	if j := joinPresent(" / ", str(d, "serverName"), str(d, "toolName")); j != "" {
		parts = append(parts, "Source: "+j)
	}
	for _, kv := range [][2]string{{"resourceUri", "Resource: "}, {"path", "Path: "}, {"url", "URL: "}, {"sessionStatus", "Session: "}} {
		if v := str(d, kv[0]); v != "" {
			parts = append(parts, kv[1]+v)
		}
	}
	if in := summarizeToolInput(d["toolInput"]); in != "" {
		parts = append(parts, in)
	}
	if len(parts) == 0 {
		return "MCP App node"
	}
	return truncateContextText(strings.Join(parts, "\n"), max)
}

func joinPresent(sep string, vals ...string) string {
	var out []string
	for _, v := range vals {
		if v != "" {
			out = append(out, v)
		}
	}
	return strings.Join(out, sep)
}

// summarizeToolInput describes an app's tool input: a diagram's element
// count, or the input's keys.
func summarizeToolInput(v any) string {
	in, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if n, isList := isList(in["elements"]); isList {
		return "Diagram elements: " + strconv.Itoa(n)
	}
	if len(in) == 0 {
		return ""
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "Input keys: " + strings.Join(keys, ", ")
}

// summarizeWebArtifact is the artifact's source summary followed by the
// facts the summary does not already state.
func summarizeWebArtifact(d map[string]any, max int) string {
	var parts []string
	content := str(d, "content")
	if content != "" {
		parts = append(parts, content)
	} else if t := str(d, "title"); t != "" {
		parts = append(parts, "Web artifact: "+t)
	}
	if files := strList(d["sourceFiles"]); len(files) > 0 && !strings.Contains(content, "Source files:") {
		line := "Source files: " + strings.Join(files, ", ")
		if total, ok := jsonnum.Float(d["sourceFileCount"]); ok && int(total) > len(files) {
			line += ", +" + strconv.Itoa(int(total)-len(files)) + " more"
		}
		parts = append(parts, line)
	}
	if b, ok := jsonnum.Float(d["artifactBytes"]); ok && !strings.Contains(content, "Artifact bytes:") {
		parts = append(parts, "Artifact bytes: "+jsNumber(b))
	}
	if deps := strList(d["deps"]); len(deps) > 0 && !strings.Contains(content, "Dependencies:") {
		parts = append(parts, "Dependencies: "+strings.Join(deps, ", "))
	}
	for _, kv := range [][2]string{{"path", "Path: "}, {"projectPath", "Project: "}, {"url", "URL: "}} {
		if v := str(d, kv[0]); v != "" {
			parts = append(parts, kv[1]+v)
		}
	}
	if len(parts) == 0 {
		return "Web artifact node"
	}
	return truncateContextText(strings.Join(parts, "\n"), max)
}

// summarizeHTML prefers the node's agent summary, then its primitive and
// description, then the JSON of its descriptive fields.
func summarizeHTML(d map[string]any, max int) string {
	if s := str(d, "agentSummary"); s != "" {
		return truncateContextText(s, max)
	}
	if p := str(d, "htmlPrimitive"); p != "" {
		return truncateContextText(joinPresent("\n", "HTML primitive: "+p, str(d, "description")), max)
	}
	var f Fields
	for _, k := range []string{"title", "description", "summary", "contentSummary", "embeddedNodeIds", "embeddedUrls"} {
		if v, ok := d[k]; ok {
			f = append(f, Field{k, v})
		}
	}
	if f == nil {
		f = Fields{}
	}
	out, err := f.MarshalJSON()
	if err != nil {
		return ""
	}
	return truncateContextText(string(out), max)
}

// summarizeFile is "Path: <path>" and a blank line, then the file text cut
// to what is left of the budget.
func summarizeFile(d map[string]any, max int) string {
	path := str(d, "path")
	text, ok := d["fileContent"].(string)
	if !ok {
		text = str(d, "content")
	}
	prefix := ""
	if path != "" {
		prefix = "Path: " + path + "\n\n"
	}
	return strings.TrimFunc(prefix+truncateContextText(text, max-runeLen(prefix)), isJSSpace)
}

// metadataKeys are the data keys an agent-context node repeats as metadata,
// per type.
var metadataKeys = map[string][]string{
	"webpage": {"url", "pageTitle", "description", "imageUrl", "fetchedAt", "status", "statusCode", "contentType"},
	"file":    {"path", "updatedAt", "lineCount"},
	"image":   {"src", "path", "mimeType", "validationStatus", "validationMessage"},
	"html": {"summary", "description", "agentSummary", "contentSummary", "htmlPrimitive", "presentation",
		"slideCount", "slideTitles", "speakerNotes", "embeddedNodeIds", "embeddedUrls"},
	"mcp-app": {"url", "path", "mode", "hostMode", "viewerType", "serverName", "toolName", "resourceUri",
		"sessionStatus", "projectPath", "artifactBytes", "sourceFiles", "sourceFileCount", "deps"},
}

// agentMetadata copies n's metadata keys, leaving out null and empty
// strings (and, for html and mcp-app nodes, empty arrays). It is nil when
// nothing is left.
func agentMetadata(n *Node) Fields {
	keys := metadataKeys[n.Type]
	skipEmptyLists := n.Type == "html" || n.Type == "mcp-app"
	var f Fields
	for _, k := range keys {
		v, ok := n.Data[k]
		if !ok || v == nil || v == "" {
			continue
		}
		if l, list := isList(v); list && l == 0 && skipEmptyLists {
			continue
		}
		f = append(f, Field{k, v})
	}
	return f
}

// AgentNode is a node as agents read it in pinned context: identity,
// title, summarised content, type-specific metadata and, when asked for,
// the position.
type AgentNode struct {
	ID       string  `json:"id"`
	Type     string  `json:"type"`
	Kind     string  `json:"kind"`
	Title    *string `json:"title"`
	Content  *string `json:"content"`
	Metadata Fields  `json:"metadata,omitempty"`
	Position *Point  `json:"position,omitempty"`
}

// AgentContextNode renders n for an agent with the default budgets. Title
// is data.title when it is a string (even empty), else null; content is
// null when the summary is empty. The state is not consulted today; it is
// taken so context-dependent fields can be added without changing callers.
func AgentContextNode(s *State, n *Node, withPosition bool) AgentNode {
	a := AgentNode{
		ID: n.ID, Type: n.Type, Kind: Kind(n),
		Title:    titleOrNil(n),
		Content:  nonEmpty(SummarizeNodeForAgentContext(n, AgentBudget(n))),
		Metadata: agentMetadata(n),
	}
	if withPosition {
		p := n.Position
		a.Position = &p
	}
	return a
}

// PinnedContextResult is GET /api/canvas/pinned-context.
type PinnedContextResult struct {
	Preamble string      `json:"preamble"`
	NodeIDs  []string    `json:"nodeIds"`
	Count    int         `json:"count"`
	Nodes    []AgentNode `json:"nodes"`
}

// PinnedContext renders the context-pinned nodes, in pin order, for an
// agent: each node with its position, and a preamble with one
// "[Context from …]" section per node that has content.
func PinnedContext(s *State) PinnedContextResult {
	res := PinnedContextResult{NodeIDs: []string{}, Nodes: []AgentNode{}}
	var sections []string
	for _, id := range s.Pins {
		n, ok := s.Nodes.Get(id)
		if !ok {
			continue
		}
		res.NodeIDs = append(res.NodeIDs, id)
		res.Nodes = append(res.Nodes, AgentContextNode(s, n, true))
		if sec := preambleSection(n); sec != "" {
			sections = append(sections, sec)
		}
	}
	res.Count = len(res.Nodes)
	if len(sections) > 0 {
		res.Preamble = strings.Join(sections, "\n") + "\n"
	}
	return res
}

// preambleSection is `[Context from "<title or id>" (<type>[/<kind>])]`
// followed by the node's content, or "" when it has none.
func preambleSection(n *Node) string {
	content := SummarizeNodeForAgentContext(n, AgentBudget(n))
	if content == "" {
		return ""
	}
	title := str(n.Data, "title")
	if title == "" {
		title = n.ID
	}
	label := n.Type
	if k := Kind(n); k != n.Type {
		label += "/" + k
	}
	return "[Context from \"" + title + "\" (" + label + ")]\n" + content + "\n"
}
