package messages

import "encoding/json"

// Outputs of the workspace-content operations.

// RefreshResult is the reply of node.refresh (and of node.update with
// refresh:true): ok, and the node as it is after the refresh.
type RefreshResult struct {
	OK       bool   `json:"ok"`
	ID       string `json:"id"`
	Node     *Node  `json:"node,omitempty"`
	Revision uint64 `json:"revision"`
}

// CodeGraph is the reply of codegraph.get: the import graph between the
// canvas's file nodes.
type CodeGraph struct {
	TotalFileNodes int             `json:"totalFileNodes"`
	TotalAutoEdges int             `json:"totalAutoEdges"`
	Nodes          []CodeGraphNode `json:"nodes"`
	CentralFiles   []CodeGraphFile `json:"centralFiles"`
	IsolatedFiles  []CodeGraphFile `json:"isolatedFiles"`
	// Errors maps a node id to why its imports could not all be read.
	Errors map[string]string `json:"errors,omitempty"`
}

// CodeGraphNode is one file node in the code graph.
type CodeGraphNode struct {
	ID         string   `json:"id"`
	Path       string   `json:"path"`
	Title      string   `json:"title"`
	Imports    []string `json:"imports"`
	ImportedBy []string `json:"importedBy"`
	OutDegree  int      `json:"outDegree"`
	InDegree   int      `json:"inDegree"`
}

// CodeGraphFile names a central or isolated file.
type CodeGraphFile struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Title    string `json:"title"`
	InDegree int    `json:"inDegree,omitempty"`
}

// FileDoc is the reply of file.get: a workspace text file.
type FileDoc struct {
	Path      string `json:"path"`
	Title     string `json:"title"`
	Content   string `json:"content"`
	UpdatedAt string `json:"updatedAt"`
	SHA256    string `json:"sha256"`
	Truncated bool   `json:"truncated,omitempty"`
}

// FileSaved is the reply of file.save.
type FileSaved struct {
	OK        bool   `json:"ok"`
	Path      string `json:"path"`
	UpdatedAt string `json:"updatedAt"`
	SHA256    string `json:"sha256"`
}

// Rendered is the reply of markdown.render.
type Rendered struct {
	HTML string `json:"html"`
}

// OpenedExternal is the reply of open-external.
type OpenedExternal struct {
	OK     bool   `json:"ok"`
	Opened bool   `json:"opened"`
	URL    string `json:"url"`
}

// Redirect is a reply that sends the client elsewhere (HTTP 302 with
// Location, no-store): a surface that is another route or page.
type Redirect struct {
	Location string `json:"location"`
}

// FrameDocument is the reply of frame-document.create.
type FrameDocument struct {
	OK  bool   `json:"ok"`
	URL string `json:"url"`
}

// StreamResult is the reply of jsonrender.stream.
type StreamResult struct {
	ID           string `json:"id"`
	URL          string `json:"url"`
	OK           bool   `json:"ok"`
	Applied      int    `json:"applied"`
	Skipped      int    `json:"skipped"`
	SpecVersion  int    `json:"specVersion"`
	StreamStatus string `json:"streamStatus"`
	ElementCount int    `json:"elementCount"`
	Revision     uint64 `json:"revision"`
}

// SetRevision records the revision the write produced.
func (r *StreamResult) SetRevision(rev uint64) { r.Revision = rev }

// WebArtifactBuilt is the reply of webartifact.build. Paths are absolute;
// ID is set only when the build created a node, NodeID whenever a node
// shows the artifact (created or updated), else null.
type WebArtifactBuilt struct {
	OK             bool                `json:"ok"`
	Path           string              `json:"path"`
	Bytes          int                 `json:"bytes"`
	ProjectPath    string              `json:"projectPath"`
	OpenedInCanvas bool                `json:"openedInCanvas"`
	StartedAt      string              `json:"startedAt"`
	CompletedAt    string              `json:"completedAt"`
	DurationMs     int64               `json:"durationMs"`
	TimeoutMs      int64               `json:"timeoutMs"`
	ID             string              `json:"id,omitempty"`
	NodeID         *string             `json:"nodeId"`
	URL            string              `json:"url"`
	Metadata       WebArtifactMetadata `json:"metadata"`
	Logs           []string            `json:"logs"`
	Stdout         *string             `json:"stdout,omitempty"`
	Stderr         *string             `json:"stderr,omitempty"`
}

// WebArtifactMetadata describes a built artifact's sources (what its node
// data carries too).
type WebArtifactMetadata struct {
	Title           string   `json:"title"`
	Slug            string   `json:"slug"`
	Builder         string   `json:"builder"`
	SourceFiles     []string `json:"sourceFiles"`
	SourceFileCount int      `json:"sourceFileCount"`
	SourcePreview   string   `json:"sourcePreview"`
	Deps            []string `json:"deps"`
}

// AppOpened is the reply of mcpapp.open and diagram.open. ID is set only
// when the call created the node.
type AppOpened struct {
	OK          bool   `json:"ok"`
	ID          string `json:"id,omitempty"`
	NodeID      string `json:"nodeId"`
	ToolCallID  string `json:"toolCallId"`
	SessionID   string `json:"sessionId"`
	ResourceURI string `json:"resourceUri"`
}

// ExtAppResult is the reply of the ext-app bridge calls: the app server's
// MCP result as it sent it.
type ExtAppResult struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
}
