// Package web holds the browser workbench: the page a human (and the
// automation webview) opens at /workbench. It is plain HTML, CSS and an ES
// module with no build step, embedded in the binary.
//
// The page follows the canvas's event stream (a full layout after every
// change) and sends the human's edits to the same HTTP routes agents use:
// drag, resize, rename, collapse, close, context pins, theme, the viewport
// (pan, wheel, zoom, fit), double-click to create a note, context menus,
// the command palette and keys, edges from ports, selection and lasso,
// human ink, snapshots, the minimap. Parts of the reference's workbench are
// not here yet (AX panels, the attention field, the expanded overlay); see
// docs/CHANGELOG.md "Not yet available".
package web

import (
	"embed"
	"io/fs"
)

//go:embed workbench
var files embed.FS

// Workbench is the workbench's files: index.html, app.css, favicon.svg
// (served at /favicon.svg and /favicon.ico), and the ES modules app.js
// (state, rendering, gestures), appbridge.js (the MCP Apps host of app
// frames), menu.js, palette.js, annotate.js, snapshots.js, minimap.js,
// markdown.js, geometry.js and icons.js.
var Workbench, _ = fs.Sub(files, "workbench")
