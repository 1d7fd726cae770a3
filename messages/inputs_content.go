package messages

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
	Sandbox *string `json:"sandbox" doc:"Space-separated sandbox tokens (default allow-scripts; allow-same-origin is never allowed)."`
}

// FrameDocumentGetInput is the input of frame-document.get.
type FrameDocumentGetInput struct {
	ID string `json:"id" doc:"The id frame-document.create returned." pmx:"required"`
}
