package messages

// contentOps are the workspace-content operations: refreshing file, image
// and webpage nodes, the code graph between file nodes, and the
// workspace's files. Those owned by OwnerWorkspace run in the caller's
// goroutine — file and network I/O never holds an actor's mailbox — and
// write, when they do, through the Layout.
var contentOps = []*Op{
	{
		Name: "node.refresh", Owner: OwnerWorkspace, Kind: Write,
		Summary:  "Re-read a file node's file, re-check an image node's file, or re-fetch a webpage node's page (optionally at a new URL).",
		NewInput: input[NodeRefreshInput](),
		CLI:      &CLIBinding{Path: "node refresh", Args: []string{"id"}},
		HTTP:     []Route{{"POST", "/api/canvas/node/:id/refresh"}},
	},
	{
		Name: "codegraph.get", Owner: OwnerLayout, Kind: Read, GoMethod: "CodeGraph",
		Summary:  "The import graph between file nodes: imports, importers, degrees, central and isolated files.",
		NewInput: input[EmptyInput](),
		CLI:      &CLIBinding{Path: "code-graph"},
		HTTP:     []Route{{"GET", "/api/canvas/code-graph"}},
		MCP: &MCPBinding{Tool: "canvas_code_graph",
			Description: "The import graph between the canvas's file nodes (TS/JS, Go, Python, Rust): per file its imports and importers, in/out degree, the most imported (central) files and the isolated ones. The same document as canvas://code-graph."},
	},
	{
		Name: "file.get", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Read a workspace text file (path, title, content, updatedAt).",
		NewInput: input[WorkspacePathInput](),
		CLI:      &CLIBinding{Path: "file get", Args: []string{"path"}},
		HTTP:     []Route{{"GET", "/api/file"}},
		MCP: &MCPBinding{Tool: "canvas_read_file",
			Description: "Read a workspace text file: {path, title, content, updatedAt, sha256}. Paths are absolute or relative to the workspace and never leave it."},
	},
	{
		Name: "file.save", Owner: OwnerWorkspace, Kind: Write,
		Summary:  "Write a workspace text file atomically (the browser's edit and save); file nodes showing it update.",
		NewInput: input[FileSaveInput](),
		CLI:      &CLIBinding{Path: "file save", Args: []string{"path"}},
		HTTP:     []Route{{"POST", "/api/file/save"}},
		MCP: &MCPBinding{Tool: "canvas_save_file",
			Description: "Write a workspace text file atomically (created if absent; its directory must exist). File nodes showing it update through the file watcher."},
	},
	{
		Name: "file.bytes", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Serve a workspace file's bytes with its content type (the browser's PDF viewer).",
		NewInput: input[WorkspacePathInput](),
		CLI:      &CLIBinding{Path: "file bytes", Args: []string{"path"}},
		HTTP:     []Route{{"GET", "/api/canvas/file-bytes"}},
		MCP: &MCPBinding{Tool: "canvas_file_bytes",
			Description: "A workspace file's bytes: images as image content, text as text, other files base64 with their content type."},
	},
	{
		Name: "image.get", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Serve an image node's workspace file with its content type.",
		NewInput: input[ImageGetInput](),
		CLI:      &CLIBinding{Path: "image get", Args: []string{"id"}},
		HTTP:     []Route{{"GET", "/api/canvas/image/:id"}},
		MCP: &MCPBinding{Tool: "canvas_get_image",
			Description: "An image node's workspace file, as image content."},
	},
	{
		Name: "artifact.get", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Open a workspace file as a page: html as it is, markdown rendered, images raw, other text escaped.",
		NewInput: input[ArtifactInput](),
		CLI:      &CLIBinding{Path: "artifact", Args: []string{"path"}},
		HTTP:     []Route{{"GET", "/artifact"}},
		MCP: &MCPBinding{Tool: "canvas_open_artifact",
			Description: "A workspace file rendered as the page the browser's \"open as site\" shows: html as it is, markdown rendered, other text escaped."},
	},
	{
		Name: "markdown.render", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Render markdown (GitHub flavoured) as sanitised HTML.",
		NewInput: input[MarkdownRenderInput](),
		CLI:      &CLIBinding{Path: "render"},
		HTTP:     []Route{{"POST", "/api/render"}},
		MCP: &MCPBinding{Tool: "canvas_render_markdown",
			Description: "Render GitHub-flavoured markdown to sanitised HTML, as the workbench shows it."},
	},
	{
		Name: "open-external", Owner: OwnerWorkspace, Kind: Write,
		Summary:  "Open a node's surface in the system browser (only on a loopback-bound server).",
		NewInput: input[OpenExternalInput](),
		CLI:      &CLIBinding{Path: "open-external", Args: []string{"nodeId"}},
		HTTP:     []Route{{"POST", "/api/canvas/open-external"}},
		MCP: &MCPBinding{Tool: "canvas_open_external",
			Description: "Open a node's surface in the system browser of the machine the server runs on (loopback-bound servers only)."},
	},
	{
		Name: "surface.get", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Open a node as a site: an html node's surface document (sandboxed, with the theme, presentation, AX and height bridges), or a redirect to the viewer, page or app that shows it.",
		NewInput: input[SurfaceGetInput](),
		CLI:      &CLIBinding{Path: "surface", Args: []string{"id"}},
		HTTP:     []Route{{"GET", "/api/canvas/surface/:id"}, {"HEAD", "/api/canvas/surface/:id"}},
	},
	{
		Name: "frame-document.create", Owner: OwnerWorkspace, Kind: Write,
		Summary:  "Store an HTML document for a sandboxed frame; it is served at the returned url with the given sandbox.",
		NewInput: input[FrameDocumentInput](),
		CLI:      &CLIBinding{Path: "frame-document create"},
		HTTP:     []Route{{"POST", "/api/canvas/frame-documents"}},
	},
	{
		Name: "frame-document.get", Owner: OwnerWorkspace, Kind: Read,
		Summary:  "Serve a stored frame document with its sandbox policy.",
		NewInput: input[FrameDocumentGetInput](),
		CLI:      &CLIBinding{Path: "frame-document get", Args: []string{"id"}},
		HTTP:     []Route{{"GET", "/api/canvas/frame-documents/:id"}},
	},
}
