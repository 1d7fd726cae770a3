// Package web holds the browser workbench: the page a human (and the
// automation webview) opens at /workbench. It is plain HTML, CSS and an ES
// module with no build step, embedded in the binary.
//
// This is the board view: nodes, groups, edges and annotations drawn from
// the canvas's event stream, live, with pan and zoom. The reference's full
// workbench (editing, context menus, palette, minimap, AX panels) is not
// here yet; see docs/CHANGELOG.md "Not yet available".
package web

import (
	"embed"
	"io/fs"
)

//go:embed workbench
var files embed.FS

// Workbench is the workbench's files: index.html, app.js, app.css.
var Workbench, _ = fs.Sub(files, "workbench")
