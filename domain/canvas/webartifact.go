package canvas

import (
	"net/url"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// WebArtifactNode is what webartifact.build shows on the board: a built
// artifact's output file and its sources (the reference's node data).
type WebArtifactNode struct {
	Title           string
	Path            string // the output HTML, absolute
	ProjectPath     string // the project directory, absolute
	Bytes           int
	SourceFiles     []string
	SourceFileCount int
	SourcePreview   string
	Deps            []string
}

// webArtifactSize is the frame of a new web-artifact node.
var webArtifactSize = Size{Width: 960, Height: 720}

// maxArtifactContent bounds the source context a web-artifact node's
// content carries for agents (the reference's 1200 characters).
const maxArtifactContent = 1200

// ArtifactURL is the page that opens a workspace file as a site.
func ArtifactURL(path string) string { return "/artifact?path=" + url.QueryEscape(path) }

// PlaceWebArtifact shows a built artifact: the web-artifact node already
// showing the same output path is updated in place (a rebuild), else a
// new node (id artifact-…, 960×720) is auto-placed. created says which.
func PlaceWebArtifact(tx *Tx, a WebArtifactNode) (n *Node, created bool, err *messages.Error) {
	data := map[string]any{
		"title": a.Title, "content": artifactContent(a), "url": ArtifactURL(a.Path), "path": a.Path,
		"artifactBytes": a.Bytes, "projectPath": a.ProjectPath, "sourceFiles": toAnyList(a.SourceFiles),
		"sourceFileCount": a.SourceFileCount, "sourcePreview": a.SourcePreview, "trustedDomain": true,
		"sourceServer": "pmx-canvas", "hostMode": "hosted", "viewerType": "web-artifact",
	}
	if len(a.Deps) > 0 {
		data["deps"] = toAnyList(a.Deps)
	}
	for _, old := range tx.State().Nodes.All() {
		if old.Type == "mcp-app" && Kind(old) == "web-artifact" && dataString(old, "path") == a.Path {
			n = old.Clone()
			for k, v := range data {
				n.Data[k] = v
			}
			if len(a.Deps) == 0 {
				delete(n.Data, "deps")
			}
			tx.PutNode(n)
			tx.Describe("updateNode", `Rebuilt web artifact "`+titleOrID(n)+`"`)
			tx.EmitLayout()
			return n, false, nil
		}
	}
	n = &Node{Type: "mcp-app", Size: webArtifactSize, ZIndex: 1, Data: data}
	n.Position = FindOpenPosition(&tx.State().Nodes, webArtifactSize.Width, webArtifactSize.Height)
	n.ID = tx.NewNodeID("artifact")
	tx.PutNode(n)
	tx.Describe("addNode", `Added web artifact "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, true, nil
}

// artifactContent is the source context of a web-artifact node: its
// title, files, deps and the start of App.tsx, at most 1200 characters.
func artifactContent(a WebArtifactNode) string {
	var b strings.Builder
	b.WriteString("Web artifact: " + a.Title)
	if len(a.SourceFiles) > 0 {
		b.WriteString("\nSource files: " + strings.Join(a.SourceFiles, ", "))
	}
	if len(a.Deps) > 0 {
		b.WriteString("\nDeps: " + strings.Join(a.Deps, ", "))
	}
	if a.SourcePreview != "" {
		b.WriteString("\nApp source preview:\n" + a.SourcePreview)
	}
	s := b.String()
	if r := []rune(s); len(r) > maxArtifactContent {
		s = string(r[:maxArtifactContent])
	}
	return s
}
