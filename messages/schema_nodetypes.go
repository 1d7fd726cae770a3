package messages

import "encoding/json"

// The create schemas of schema.describe, in the reference's order. Each
// field names a property of its endpoint's operation input
// (TestSchemaFieldsAreInputs), so the schema cannot advertise a field the
// decoder does not read.

// SchemaTools are the MCP tools that create or shape content (mcp.tools);
// a test keeps each one defined and runnable in surfaces/mcp.
var SchemaTools = []string{
	"canvas_add_node", "canvas_add_html_node", "canvas_add_html_primitive", "canvas_add_json_render_node",
	"canvas_stream_json_render_node", "canvas_add_graph_node", "canvas_create_group", "canvas_update_node",
	"canvas_fit_view", "canvas_describe_schema", "canvas_validate_spec", "canvas_build_web_artifact",
}

// SchemaResources are the MCP resources the schema points to.
var SchemaResources = []string{"canvas://schema"}

// htmlTool is how the reference routes html creation: through the composite.
const htmlTool = `canvas_node (action:"add", type:"html")`

// SchemaNodeRouting is mcp.nodeTypeRouting.
var SchemaNodeRouting = SchemaRouting{
	{"markdown", "canvas_add_node"},
	{"status", "canvas_add_node"},
	{"context", "canvas_add_node"},
	{"ledger", "canvas_add_node"},
	{"trace", "canvas_add_node"},
	{"file", "canvas_add_node"},
	{"image", "canvas_add_node"},
	{"webpage", "canvas_add_node"},
	{"html", htmlTool},
	{"html-primitive", `canvas_node (action:"add", type:"html", primitive)`},
	{"mcp-app", "canvas_add_node"},
	{"diff", "canvas_add_node"},
	{"mermaid", "canvas_add_node"},
	{"group", "canvas_create_group"},
	{"json-render", "canvas_add_json_render_node"},
	{"graph", "canvas_add_graph_node"},
	{"web-artifact", "canvas_build_web_artifact"},
}

func sf(name, typ string, required bool, desc string, aliases ...string) SchemaField {
	return SchemaField{Name: name, Type: typ, Required: required, Description: desc, Aliases: aliases}
}

var (
	sfX          = sf("x", "number", false, "World x; the node is placed at (x, y) only when both are given, else auto-placed.")
	sfY          = sf("y", "number", false, "World y.")
	sfWidth      = sf("width", "number", false, "Frame width (default per type).")
	sfHeight     = sf("height", "number", false, "Frame height (default per type).")
	sfStrictSize = sf("strictSize", "boolean", false, "Keep the given width/height and let overflowing content scroll.", "strict-size", "scroll-overflow")
	sfGeometry   = []SchemaField{sfX, sfY, sfWidth, sfHeight, sfStrictSize}
)

func fields(own []SchemaField, more ...[]SchemaField) []SchemaField {
	out := append([]SchemaField(nil), own...)
	for _, m := range more {
		out = append(out, m...)
	}
	return out
}

func nodeType(typ, desc, endpoint, tool string, fs []SchemaField, example string, notes ...string) SchemaNodeType {
	return SchemaNodeType{Type: typ, Kind: "node", Description: desc, Endpoint: endpoint, MCPTool: tool,
		Fields: fs, Example: json.RawMessage(example), Notes: notes}
}

const nodeEndpoint = "/api/canvas/node"

// chartFields are graph.add's chart options as schema fields.
var chartFields = []SchemaField{
	sf("xKey", "string", false, "Row key for the x axis or category."),
	sf("yKey", "string", false, "Row key for the y value (composed charts fall back to barKey)."),
	sf("zKey", "string", false, "Scatter: row key for the bubble size."),
	sf("nameKey", "string", false, "Pie: row key for slice names."),
	sf("valueKey", "string", false, "Value key for pie slices, sparklines, dot plots and the bullet measure."),
	sf("axisKey", "string", false, "Radar: the category key."),
	sf("metrics", "string[]", false, "Radar: the series drawn as polygons."),
	sf("series", "string[]", false, "Stacked bars: the segment keys."),
	sf("barKey", "string", false, "Composed: the bar series."),
	sf("lineKey", "string", false, "Composed: the line series."),
	sf("aggregate", `"sum" | "count" | "avg"`, false, "Combine repeated x values."),
	sf("color", "string", false, "Colour of a single series."),
	sf("colorBy", `"series" | "category" | "value" | "none"`, false, "Bar charts: how bars are coloured."),
	sf("highlight", `number | "max" | "min" | null`, false, "Bar charts: the accented bar."),
	sf("labelKey", "string", false, "Row label key for dot plots, bullets and slopegraphs."),
	sf("targetKey", "string", false, "Bullet: per-row target key."),
	sf("rangesKey", "string", false, "Bullet: key of a number[] of band thresholds."),
	sf("beforeKey", "string", false, "Slopegraph: left value key."),
	sf("afterKey", "string", false, "Slopegraph: right value key."),
	sf("showLegend", "boolean", false, "Show a legend where the chart kind has one."),
	sf("showLabels", "boolean", false, "Show direct labels such as pie slice labels."),
	sf("height", "number", false, "Height of the plot itself (not the frame).", "chart-height"),
	sf("nodeHeight", "number", false, "Frame height.", "node-height", "heightPx"),
}

// SchemaNodeTypes are the create schemas, in the reference's order (the
// app type external-app joins with its operation).
var SchemaNodeTypes = []SchemaNodeType{
	nodeType("markdown", "A markdown note.", nodeEndpoint, "canvas_add_node",
		fields([]SchemaField{sf("title", "string", false, "Node title."), sf("content", "string", false, "Markdown text.")}, sfGeometry),
		`{"type":"markdown","title":"Release plan","content":"# Steps\n\n1. Freeze\n2. Tag\n3. Announce"}`,
		"Default size 640×420."),
	nodeType("status", "A small status panel.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("title", "string", false, "Status label."), sf("content", "string", false, "Status text.")},
		`{"type":"status","title":"CI","content":"green"}`),
	nodeType("context", "A panel for agent context cards; created docked right and collapsed.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("title", "string", false, "Title."), sf("content", "string", false, "Context text.")},
		`{"type":"context","title":"Working context","content":"What the agent should keep in mind."}`),
	nodeType("ledger", "A running log or ledger.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("title", "string", false, "Title."), sf("content", "string", false, "Ledger text.")},
		`{"type":"ledger","title":"Decisions","content":"- Use SSE for live updates"}`,
		"Default size 420×280."),
	nodeType("trace", "One step of an execution trace.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("title", "string", false, "Title."), sf("content", "string", false, "Trace summary."),
			sf("toolName", "string", false, "Tool or operation shown on the trace.", "tool-name"),
			sf("category", "string", false, "mcp, file, subagent or other."),
			sf("status", "string", false, "running, success or failed."),
			sf("duration", "string", false, "Duration badge text."),
			sf("resultSummary", "string", false, "One-line result.", "result-summary"),
			sf("error", "string", false, "Error text of a failed step.")},
		`{"type":"trace","title":"Run tests","toolName":"go test","status":"success","duration":"4.2s"}`),
	nodeType("file", "A workspace file.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("content", "string", true, "The file's path, workspace-relative or absolute."),
			sf("title", "string", false, "Title override.")},
		`{"type":"file","content":"cmd/pmx-canvas/main.go"}`,
		"The file is read (fileContent, lineCount, sha256, language) and watched: edits on disk update the node; a deleted file marks it missing. Paths outside the workspace are refused."),
	nodeType("image", "An image from a path, URL or data URI.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("content", "string", true, "Image path, URL or data URI.", "path"),
			sf("title", "string", false, "Title override."),
			sf("data.warning", "string | { title?: string; detail: string }", false, "A warning shown above the image."),
			sf("data.warnings", "Array<string | { title?: string; detail: string }>", false, "Several warnings."),
			sf("data.validationStatus", `"passed" | "failed" | "invalid"`, false, "The agent's verdict on the image."),
			sf("data.validationMessage", "string", false, "Why validation failed.")},
		`{"type":"image","content":"docs/architecture.png","data":{"validationStatus":"passed"}}`,
		"A workspace image is checked (extension and magic bytes) and measured; URLs and data URIs are stored as given."),
	nodeType("webpage", "A web page kept on the board.", nodeEndpoint, "canvas_add_node",
		fields([]SchemaField{sf("url", "string", true, "HTTP(S) address of the page.", "content"),
			sf("title", "string", false, "Title override (default: the URL).")}, sfGeometry),
		`{"type":"webpage","title":"Project README","url":"https://example.com/readme"}`,
		"url is the field to use; content is accepted as an alias.",
		"The page is fetched on create and on refresh: title, description, the article as markdown, excerpt, status, frame blocking."),
	nodeType("html", "A sandboxed HTML surface (scripts allowed, no access to the host page).", nodeEndpoint, htmlTool,
		fields([]SchemaField{sf("html", "string", false, "HTML document or fragment.", "content", "stdin"),
			sf("summary", "string", false, "Agent-readable summary of the surface."),
			sf("agentSummary", "string", false, "Explicit summary used by search and context; wins over summary.", "agent-summary"),
			sf("description", "string", false, "Short description for search and context."),
			sf("embeddedNodeIds", "string[]", false, "Node ids the surface shows or stands for.", "embedded-node-id", "embedded-node-ids"),
			sf("embeddedUrls", "string[]", false, "URLs the surface shows or stands for.", "embedded-url", "embedded-urls"),
			sf("presentation", "boolean", false, "Marks a full-screen presentation deck."),
			sf("slideTitles", "string[]", false, "Slide titles of a deck.", "slide-title", "slide-titles"),
			sf("axCapabilities", "{ enabled?: boolean; allowed?: string[] }", false, "Let the surface emit AX interactions (narrowed to the html ceiling)."),
			sf("data", "record<string, unknown>", false, "Extra node data."),
			sf("title", "string", false, "Node title.")}, sfGeometry),
		`{"type":"html","title":"Hello","html":"<main><h1>Hello from the canvas</h1></main>"}`,
		"contentSummary, embeddedNodeIds, embeddedUrls and agentSummary are derived from the html (an agentSummary you give wins).",
		"primitive (or kind) with data generates one of the HTML primitives listed in htmlPrimitives."),
	nodeType("html-primitive", "One of the 19 generated HTML primitives (stored as an html node).", nodeEndpoint,
		`canvas_node (action:"add", type:"html", primitive)`,
		fields([]SchemaField{sf("primitive", "string", true, "The primitive kind (see htmlPrimitives).", "kind"),
			sf("title", "string", false, "Node title (default: the primitive's title)."),
			sf("data", "record<string, unknown>", false, "The primitive's payload; its shape is the kind's dataShape.")}, sfGeometry),
		`{"type":"html","primitive":"choice-grid","title":"Pick a database","data":{"items":[{"title":"Postgres","summary":"Relational, proven.","pros":["Mature"],"cons":["A server to run"]},{"title":"SQLite","summary":"Embedded, zero setup.","pros":["No setup"],"cons":["One writer"]}]}}`,
		"Default size per kind (htmlPrimitives[].defaultSize); every string in data is escaped."),
	nodeType("mcp-app", "A hosted app frame.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("title", "string", false, "App title."), sf("content", "string", false, "Inline content.")},
		`{"type":"mcp-app","title":"Embedded app","content":"Placeholder until the app is opened."}`,
		"canvas_add_node creates a plain frame; an app served by an MCP server is opened with canvas_open_mcp_app."),
	nodeType("diff", "A unified diff parsed into files, hunks and lines.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("content", "string", true, "The unified diff (git diff or diff -u output)."),
			sf("title", "string", false, "Title override (default: Diff: <file> or <n> files).")},
		`{"type":"diff","content":"--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old\n+new\n"}`,
		"Over HTTP and the CLI, gitDiff (true or workspace paths) with gitBase makes the diff from git."),
	nodeType("mermaid", "A mermaid diagram, drawn by the viewer.", nodeEndpoint, "canvas_add_node",
		[]SchemaField{sf("content", "string", true, "The mermaid source."), sf("title", "string", false, "Title (default Diagram).")},
		`{"type":"mermaid","content":"flowchart LR\n  A[Plan] --> B[Ship]"}`),
	nodeType("group", "A frame that holds other nodes.", "/api/canvas/group", "canvas_create_group",
		[]SchemaField{sf("title", "string", false, "Group title (default \"Group\")."),
			sf("childIds", "string[]", false, "Member node ids; they must exist and must not be groups."),
			sf("color", "string", false, "Frame accent colour."),
			sf("x", "number", false, "Frame x; with any of x, y, width, height the frame is fixed instead of fitting its members."),
			sf("y", "number", false, "Frame y."),
			sf("width", "number", false, "Frame width."),
			sf("height", "number", false, "Frame height."),
			sf("childLayout", `"grid" | "column" | "flow"`, false, "Pack the members in this layout.")},
		`{"title":"API layer","childIds":["node-a","node-b"],"childLayout":"column"}`,
		"A node belongs to at most one group and groups do not nest."),
	nodeType("json-render", "A json-render UI panel: components from the catalog in jsonRender, with state, bindings and actions.",
		"/api/canvas/json-render", "canvas_add_json_render_node",
		fields([]SchemaField{sf("spec", "{ root: string; elements: Record<string, Element>; state?: object }", true,
			"The spec (jsonRender.rootShape); a single bare component {type, props, children} is accepted too.", "spec-file", "spec-json", "stdin"),
			sf("title", "string", false, "Node title (default: the root element's title).")}, sfGeometry),
		`{"title":"Status","spec":{"root":"card","elements":{"card":{"type":"Card","props":{"title":"Build"},"children":["badge"]},"badge":{"type":"Badge","props":{"text":"passing","variant":"success"},"children":[]}}}}`,
		"The spec is validated and normalised; an unknown component is refused with the nearest known names.",
		"Stream a spec in pieces with POST /api/canvas/json-render/stream (canvas_stream_json_render_node)."),
	nodeType("graph", "A chart drawn from rows of data.", "/api/canvas/graph", "canvas_add_graph_node",
		fields([]SchemaField{sf("graphType", "string", false, "Chart kind: one of graph.graphTypes (default line; aliases stack, combo, dot, slope).", "graph-type", "typeName"),
			sf("data", "Array<Record<string, unknown>>", true, "The rows.", "data-file", "data-json", "stdin"),
			sf("title", "string", false, "Chart title (default Graph).")}, chartFields, []SchemaField{sfX, sfY, sfWidth, sfStrictSize}),
		`{"graphType":"bar","title":"Build minutes","data":[{"day":"Mon","minutes":12},{"day":"Tue","minutes":9}],"xKey":"day","yKey":"minutes"}`,
		"Default size 760×520; height is the plot, nodeHeight the frame.",
		"An unknown graphType is refused, listing the 12 kinds."),
	nodeType("web-artifact", "A React app (App.tsx) bundled by the server into one self-contained HTML file in the workspace.", "/api/canvas/web-artifact", "canvas_build_web_artifact",
		[]SchemaField{sf("title", "string", true, "Artifact title; names the default paths."),
			sf("appTsx", "string", true, "Contents of src/App.tsx (default-exports the App component).", "app-file", "app-tsx", "stdin"),
			sf("indexCss", "string", false, "Contents of src/index.css.", "index-css-file", "index-css"),
			sf("mainTsx", "string", false, "Contents of src/main.tsx.", "main-file", "main-tsx"),
			sf("indexHtml", "string", false, "Contents of index.html.", "index-html-file", "index-html"),
			sf("files", "Record<string, string>", false, "More project files by project-relative path."),
			sf("deps", "string[]", false, "npm packages beyond React, installed with npm --ignore-scripts."),
			sf("projectPath", "string", false, "Project directory inside the workspace.", "project-path"),
			sf("outputPath", "string", false, "Output HTML file inside the workspace.", "output-path"),
			sf("openInCanvas", "boolean", false, "Show the artifact as a node (default true)."),
			sf("includeLogs", "boolean", false, "Add the build output as stdout/stderr.", "include-logs", "verbose"),
			sf("timeoutMs", "number", false, "Build timeout in milliseconds (default 600000).", "timeout-ms")},
		`{"title":"Counter","appTsx":"import { useState } from 'react'\nexport default function App() {\n  const [n, setN] = useState(0)\n  return <button onClick={() => setN(n + 1)}>clicked {n} times</button>\n}\n"}`,
		"Bundled in-process with esbuild (React 19 built in); node type mcp-app, kind web-artifact, 960×720.",
		"A build error is a 400 with esbuild's file:line:col messages; a rebuild to the same outputPath updates that node."),
}
