package messages

import "time"

// Inputs of the workspace-content operations (file, image and webpage
// nodes, the code graph, workspace files, markdown rendering).

// NodeRefreshInput is the input of node.refresh
// (POST /api/canvas/node/:id/refresh).
type NodeRefreshInput struct {
	ID  string  `json:"id" doc:"The webpage (or file, or image) node to refresh." pmx:"required"`
	URL *string `json:"url" doc:"New URL to store before fetching (webpage nodes)."`
}

// WorkspacePathInput names a workspace file (absolute, or relative to the
// workspace).
type WorkspacePathInput struct {
	Path string `json:"path" doc:"Workspace file, absolute or relative to the workspace." pmx:"required"`
}

// FileSaveInput is the input of file.save (POST /api/file/save).
type FileSaveInput struct {
	Path    string  `json:"path" doc:"Workspace text file to write (created if absent; its directory must exist)." pmx:"required"`
	Content *string `json:"content" doc:"The new text; CRLF and CR line ends become LF." pmx:"required"`
}

// ArtifactInput is the input of artifact.get (GET /artifact?path=).
type ArtifactInput struct {
	Path       string  `json:"path" doc:"Workspace file to open as a page: html as it is, markdown rendered, images raw, other text escaped." pmx:"required"`
	AxToken    *string `json:"axToken" cli:"-" doc:"Bridge nonce for an AX-enabled html artifact (with axNodeId)."`
	AxNodeID   *string `json:"axNodeId" cli:"-" doc:"The node whose AX bridge the page gets."`
	FrameToken *string `json:"frameToken" cli:"-" doc:"Nonce of the height reporter injected into html pages."`
}

// ImageGetInput is the input of image.get (GET /api/canvas/image/:id).
type ImageGetInput struct {
	ID string `json:"id" doc:"Image node whose workspace file to serve." pmx:"required"`
}

// MarkdownRenderInput is the input of markdown.render (POST /api/render).
type MarkdownRenderInput struct {
	Markdown *string `json:"markdown" doc:"Markdown (GitHub flavoured) to render as sanitised HTML." pmx:"required"`
}

// OpenExternalInput is the input of open-external
// (POST /api/canvas/open-external).
type OpenExternalInput struct {
	NodeID string  `json:"nodeId" doc:"Node whose surface to open in the system browser." pmx:"required"`
	URL    *string `json:"url" doc:"The node's own /api/canvas/surface/<id> path (only theme is kept)."`
}

// SurfaceGetInput is the input of surface.get (GET /api/canvas/surface/:id).
type SurfaceGetInput struct {
	ID           string  `json:"id" doc:"Node to open as a site." pmx:"required"`
	Theme        *string `json:"theme" doc:"light or high-contrast; anything else is dark."`
	Present      *string `json:"present" doc:"1 opens an html surface in presentation mode."`
	Display      *string `json:"display" doc:"expanded is passed to the json-render viewer."`
	ThemeToken   *string `json:"themeToken" cli:"-" doc:"The parent frame's nonce for theme messages."`
	PresentToken *string `json:"presentToken" cli:"-" doc:"The parent frame's nonce for presentation messages."`
	AxToken      *string `json:"axToken" cli:"-" doc:"The parent frame's nonce for the AX bridge (injected only for AX-enabled nodes)."`
	FrameToken   *string `json:"frameToken" cli:"-" doc:"The parent frame's nonce for the content-height reporter."`
}

// FrameDocumentInput is the input of frame-document.create
// (POST /api/canvas/frame-documents).
type FrameDocumentInput struct {
	HTML    *string `json:"html" doc:"The document (at most 5 MiB)." pmx:"required"`
	Sandbox *string `json:"sandbox" doc:"Space-separated sandbox tokens (allow-same-origin is never allowed)." default:"\"allow-scripts\""`
}

// FrameDocumentGetInput is the input of frame-document.get.
type FrameDocumentGetInput struct {
	ID string `json:"id" doc:"The id frame-document.create returned." pmx:"required"`
}

// ChartOptions are the chart fields graph.add takes besides its data
// (content/graphspec reads them; which apply depends on the chart).
type ChartOptions struct {
	XKey             *string  `json:"xKey" doc:"Row key for the x axis or category."`
	YKey             *string  `json:"yKey" doc:"Row key for the y value (composed charts fall back to barKey)."`
	ZKey             *string  `json:"zKey" doc:"Scatter only: row key for the bubble size."`
	NameKey          *string  `json:"nameKey" doc:"Pie only: row key for slice names."`
	ValueKey         *string  `json:"valueKey" doc:"Value key for pie slices, sparklines, dot plots and the bullet measure."`
	AxisKey          *string  `json:"axisKey" doc:"Radar only: the category key."`
	Metrics          []string `json:"metrics" doc:"Radar only: series keys drawn as polygons (default: the numeric non-axis columns)."`
	Series           []string `json:"series" doc:"Stacked bars only: segment keys (default: the numeric non-x columns)."`
	BarKey           *string  `json:"barKey" doc:"Composed only: the bar series key."`
	LineKey          *string  `json:"lineKey" doc:"Composed only: the line series key."`
	Aggregate        *string  `json:"aggregate" doc:"Combine repeated x values (line, bar, area, stacked bars)." enum:"aggregates"`
	Color            *string  `json:"color" doc:"Colour of a single series (line, bar, area, scatter)."`
	ColorBy          *string  `json:"colorBy" doc:"Bar charts: how bars are coloured; default series (one accented bar)." enum:"colorBys"`
	Highlight        any      `json:"highlight" schema:"barHighlight" doc:"Bar charts coloured by series: the accented bar — max (default), min, a 0-based index, or null for none."`
	BarColor         *string  `json:"barColor" doc:"Composed only: bar colour."`
	LineColor        *string  `json:"lineColor" doc:"Composed only: line colour."`
	LabelKey         *string  `json:"labelKey" doc:"Row label key for dot plots, bullets and slopegraphs."`
	TargetKey        *string  `json:"targetKey" doc:"Bullet only: per-row target value key."`
	RangesKey        *string  `json:"rangesKey" doc:"Bullet only: key of a number[] of qualitative band thresholds."`
	BeforeKey        *string  `json:"beforeKey" doc:"Slopegraph: left-column value key."`
	AfterKey         *string  `json:"afterKey" doc:"Slopegraph: right-column value key."`
	BeforeLabel      *string  `json:"beforeLabel" doc:"Slopegraph: left column header."`
	AfterLabel       *string  `json:"afterLabel" doc:"Slopegraph: right column header."`
	Sort             *string  `json:"sort" doc:"Dot-plot row order; default desc." enum:"sortOrders"`
	Fill             *bool    `json:"fill" doc:"Sparkline: shade the area under the line."`
	ShowEndDot       *bool    `json:"showEndDot" doc:"Sparkline: dot on the last point." default:"true"`
	ShowMinMax       *bool    `json:"showMinMax" doc:"Sparkline: mark the minimum and maximum."`
	ShowValue        *bool    `json:"showValue" doc:"Sparkline: print the last value inline."`
	ColorByDirection *bool    `json:"colorByDirection" doc:"Slopegraph: accent rising lines and mute falling ones." default:"false"`
	ShowLegend       *bool    `json:"showLegend" doc:"Show the legend (pie, radar, stacked bars, composed)."`
	ShowLabels       *bool    `json:"showLabels" doc:"Pie only: label the slices." default:"true"`
}

// GraphAddInput is the input of graph.add (POST /api/canvas/graph).
type GraphAddInput struct {
	Title     *string          `json:"title" doc:"Card title." default:"\"Graph\""`
	GraphType *string          `json:"graphType" doc:"Chart kind: line (default), bar, pie, area, scatter, radar, stacked-bar (stack), composed (combo), sparkline, dot-plot (dot), bullet, slopegraph (slope)."`
	Type      *string          `json:"type" mcp:"-" doc:"Alias of graphType."`
	Data      []map[string]any `json:"data" doc:"The rows: an array of objects." pmx:"required,handler"`
	ChartOptions
	// Height is the chart's plot height; the frame's is nodeHeight.
	Height     *float64    `json:"height" doc:"Plot height in pixels (not the frame)."`
	NodeHeight *float64    `json:"nodeHeight" doc:"Frame height." default:"520"`
	HeightPx   *float64    `json:"heightPx" cli:"-" doc:"Alias of nodeHeight."`
	X          *float64    `json:"x" doc:"World X; auto-placed unless both x and y are given."`
	Y          *float64    `json:"y" doc:"World Y; auto-placed unless both x and y are given."`
	Width      *float64    `json:"width" doc:"Frame width." default:"760"`
	Position   *PointInput `json:"position" cli:"-" doc:"Object form {x, y}; top-level x/y win."`
	Size       *SizeInput  `json:"size" cli:"-" doc:"Object form {width, height} of the frame."`
	StrictSize *bool       `json:"strictSize" doc:"Keep the given frame size; overflowing content scrolls."`
}

// JSONRenderViewInput is the input of jsonrender.view
// (GET /api/canvas/json-render/view).
type JSONRenderViewInput struct {
	NodeID  string  `json:"nodeId" doc:"The json-render or graph node to show." pmx:"required"`
	Theme   *string `json:"theme" doc:"dark (default), light or high-contrast."`
	Display *string `json:"display" doc:"expanded fills the frame (the focus overlay); default inline."`
}

// JSONRenderAddInput is the input of jsonrender.add
// (POST /api/canvas/json-render).
type JSONRenderAddInput struct {
	Title      *string     `json:"title" doc:"Node title (default: the spec's root title or text)."`
	Spec       any         `json:"spec" doc:"The json-render spec {root, elements, state?}; absent or not an object: the whole body is the spec (a bare component {type, props, children})."`
	X          *float64    `json:"x" doc:"World X; auto-placed unless both x and y are given."`
	Y          *float64    `json:"y" doc:"World Y; auto-placed unless both x and y are given."`
	Width      *float64    `json:"width" doc:"Frame width." default:"840"`
	Height     *float64    `json:"height" doc:"Frame height." default:"620"`
	Position   *PointInput `json:"position" cli:"-" doc:"Object form {x, y}; top-level x/y win."`
	Size       *SizeInput  `json:"size" cli:"-" doc:"Object form {width, height}; top-level width/height win."`
	StrictSize *bool       `json:"strictSize" doc:"Keep the given frame size; overflowing content scrolls."`
}

// JSONRenderStreamInput is the input of jsonrender.stream
// (POST /api/canvas/json-render/stream).
type JSONRenderStreamInput struct {
	NodeID     *string  `json:"nodeId" doc:"The json-render node to append to; absent creates one."`
	Title      *string  `json:"title" doc:"Title of a node this call creates."`
	Patches    []any    `json:"patches" schema:"streamPatches" doc:"JSON Patch operations (objects) or JSONL strings of them, applied to the spec in order; invalid ones are skipped."`
	Done       *bool    `json:"done" doc:"true closes the stream: the spec is validated and stored normalised (a later append reopens it)."`
	X          *float64 `json:"x" doc:"World X of a created node."`
	Y          *float64 `json:"y" doc:"World Y of a created node."`
	Width      *float64 `json:"width" doc:"Frame width of a created node." default:"840"`
	Height     *float64 `json:"height" doc:"Frame height of a created node." default:"620"`
	NodeHeight *float64 `json:"nodeHeight" doc:"Alias of height (the MCP tool's name)."`
	StrictSize *bool    `json:"strictSize" doc:"Keep the given frame size."`
}

// SpecValidateInput is the input of spec.validate
// (POST /api/canvas/schema/validate).
type SpecValidateInput struct {
	Type      string  `json:"type" doc:"What to validate: json-render, graph or html-primitive." enum:"specTypes" pmx:"required,handler"`
	Spec      any     `json:"spec" schema:"jsonRenderSpec" doc:"json-render: the spec {root, elements, state?} or one bare component {type, props?, children?} (absent or not an object over HTTP: the whole body)."`
	Kind      *string `json:"kind" doc:"html-primitive: the kind."`
	Primitive *string `json:"primitive" doc:"html-primitive: alias of kind."`
	Title     *string `json:"title" doc:"graph and html-primitive: the title."`
	Data      any     `json:"data" doc:"graph: the rows (an array of objects); html-primitive: the payload (an object)."`
	// PrimitiveData is the MCP tools' name for an html-primitive's data.
	PrimitiveData map[string]any `json:"primitiveData" doc:"html-primitive: the payload, when data is absent (the MCP tools' name)."`
	GraphType     *string        `json:"graphType" doc:"graph: the chart kind." default:"\"line\""`
	TypeName      *string        `json:"typeName" doc:"graph: alias of graphType."`
	ChartOptions
	Height *float64 `json:"height" doc:"graph: plot height."`
}

// SpecValidation is the reply of spec.validate.
type SpecValidation struct {
	OK                  bool           `json:"ok"`
	Type                string         `json:"type"`
	NormalizedSpec      any            `json:"normalizedSpec,omitempty"`
	NormalizedPrimitive map[string]any `json:"normalizedPrimitive,omitempty"`
	Summary             map[string]any `json:"summary"`
}

// WebArtifactBuildInput is the input of webartifact.build
// (POST /api/canvas/web-artifact): an agent's React sources, bundled
// in-process into one self-contained HTML file inside the workspace.
type WebArtifactBuildInput struct {
	Title            *string           `json:"title" doc:"Artifact title; also names the default paths (its slug)." pmx:"required,handler"`
	AppTsx           *string           `json:"appTsx" doc:"Contents of src/App.tsx (default-exports the App component)." pmx:"required,handler"`
	IndexCSS         *string           `json:"indexCss" doc:"Contents of src/index.css (imported by the default main.tsx)."`
	MainTsx          *string           `json:"mainTsx" doc:"Contents of src/main.tsx (default: renders <App/> into #root)."`
	IndexHTML        *string           `json:"indexHtml" doc:"Contents of index.html (default: a page with <div id=\"root\">)."`
	Files            map[string]string `json:"files" cli:"-" doc:"More project files: project-relative path → contents (src/components/Chart.tsx)."`
	Deps             []string          `json:"deps" doc:"npm packages (name[@version]) beyond React, installed with npm --ignore-scripts before bundling."`
	ProjectPath      *string           `json:"projectPath" doc:"Project directory, inside the workspace (default .pmx-canvas/artifacts/.web-artifacts/<slug>)."`
	OutputPath       *string           `json:"outputPath" doc:"Output HTML file, inside the workspace (default .pmx-canvas/artifacts/<slug>.html)."`
	OpenInCanvas     *bool             `json:"openInCanvas" cli:"-" doc:"Show the artifact as a canvas node; a node already showing this output path is updated in place." default:"true"`
	IncludeLogs      *bool             `json:"includeLogs" doc:"Add the build's output as stdout and stderr to the reply."`
	InitScriptPath   *string           `json:"initScriptPath" doc:"Not supported: this server bundles in-process with esbuild and runs no init script; a value is refused."`
	BundleScriptPath *string           `json:"bundleScriptPath" doc:"Not supported: this server bundles in-process with esbuild and runs no bundle script; a value is refused."`
	TimeoutMs        *float64          `json:"timeoutMs" min:"1" max:"1800000" doc:"Build timeout in milliseconds, npm install included (at most 1800000)." default:"600000"`
}

// WebArtifactMaxTimeout is the most a web artifact build's timeoutMs may
// ask for (the default is content/webartifact's, the reference's 600 000 ms).
const WebArtifactMaxTimeout = 30 * time.Minute
