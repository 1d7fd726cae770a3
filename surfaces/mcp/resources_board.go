package mcpapi

import (
	_ "embed"
)

// BoardURI is the board MCP App: canvas_show declares it, so MCP hosts
// that render MCP Apps show the board inline in the chat.
const BoardURI = "ui://pmx-canvas/board"

// boardHTML is the app: plain HTML and inline script, nothing loaded from
// outside (its CSP allows no network: it reaches the board through the
// host's tools/call only).
//
//go:embed board.html
var boardHTML string

// boardResource is the board app's resource (listed after the canvas://
// resources, resources_canvas.go).
func boardResource() *Resource {
	return &Resource{URI: BoardURI, Name: "board-app", MimeType: "text/html;profile=mcp-app",
		Description: "The board as an MCP App: a compact live view of canvas_show (nodes, edges, context pins, pending approvals), " +
			"with pin and approve buttons when the host lets apps call tools.",
		Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []string{}, "resourceDomains": []string{}},
			"prefersBorder": true}},
		Read: func(*Call) (string, error) { return boardHTML, nil }}
}
