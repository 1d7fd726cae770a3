package actors

import (
	"path/filepath"

	"github.com/pmxcanvas/pmx-canvas/content/codegraph"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// codeGraphOf builds the import graph between a view's file nodes, reusing
// the canvas's parse cache (only changed files are parsed again).
func codeGraphOf(ref *canvasRef, s *canvas.State) codegraph.Graph {
	var files []codegraph.File
	s.Nodes.Each(func(n *canvas.Node) bool {
		p, _ := n.Data["path"].(string)
		if n.Type != "file" || p == "" {
			return true
		}
		content, _ := n.Data["fileContent"].(string)
		if n.Data["binary"] == true {
			content = ""
		}
		title, _ := n.Data["title"].(string)
		files = append(files, codegraph.File{NodeID: n.ID, Path: filepath.ToSlash(p), Title: title, Content: content})
		return true
	})
	return ref.graph.Build(filepath.ToSlash(ref.sys.content.root.Dir()), files)
}

// autoEdges are the graph's edges as the canvas stores them.
func autoEdges(g codegraph.Graph) []canvas.AutoEdge {
	out := make([]canvas.AutoEdge, len(g.Edges))
	for i, e := range g.Edges {
		out[i] = canvas.AutoEdge{ID: e.ID, From: e.From, To: e.To}
	}
	return out
}

func init() {
	readHandlers["codegraph.get"] = func(s *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		g := codeGraphOf(ref, s)
		r := g.Report
		out := &messages.CodeGraph{TotalFileNodes: r.TotalFileNodes, Nodes: []messages.CodeGraphNode{},
			CentralFiles: []messages.CodeGraphFile{}, IsolatedFiles: []messages.CodeGraphFile{}, Errors: g.Errors}
		// Edges on the board, not the ones the graph would draw: they are
		// what a reader sees (the two agree once a recompute has run).
		s.Edges.Each(func(e *canvas.Edge) bool {
			if len(e.ID) > len(canvas.CodeGraphEdgePrefix) && e.ID[:len(canvas.CodeGraphEdgePrefix)] == canvas.CodeGraphEdgePrefix {
				out.TotalAutoEdges++
			}
			return true
		})
		for _, n := range r.Nodes {
			out.Nodes = append(out.Nodes, messages.CodeGraphNode{ID: n.ID, Path: n.Path, Title: n.Title,
				Imports: n.Imports, ImportedBy: n.ImportedBy, OutDegree: n.OutDegree, InDegree: n.InDegree})
		}
		for _, f := range r.CentralFiles {
			out.CentralFiles = append(out.CentralFiles, messages.CodeGraphFile{ID: f.ID, Path: f.Path, Title: f.Title, InDegree: f.InDegree})
		}
		for _, f := range r.IsolatedFiles {
			out.IsolatedFiles = append(out.IsolatedFiles, messages.CodeGraphFile{ID: f.ID, Path: f.Path, Title: f.Title})
		}
		return out, nil
	}
}
