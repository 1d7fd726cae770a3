// Package web holds the browser workbench: the page a human (and the
// automation webview) opens at /workbench. It is plain HTML, CSS and ES
// modules with no build step, embedded in the binary; its components use
// Preact, @preact/signals and htm, vendored as ES modules under
// workbench/vendor (see workbench/vendor/README.md and docs/architecture.md).
//
// The page follows the canvas's event stream (a full layout after every
// change) and sends the human's edits to the same HTTP routes agents use:
// drag, resize, rename, collapse, close, context pins, theme, the viewport
// (pan, wheel, zoom, fit), double-click to create a note, context menus,
// the command palette and keys, edges from ports, selection and lasso,
// human ink, snapshots, the minimap. Each node type has its own renderer
// component (node-*.js, chosen in renderers.js). The AX panel (axpanel.js)
// is the human's side of the AX layer: it answers the gates agents wait
// on, through the interaction route as the workbench surface, and with
// axfeed.js names the agent behind each change and who is present. Parts
// of the reference's workbench are not here yet (the attention field, the
// expanded overlay); see docs/CHANGELOG.md "Not yet available".
package web

import (
	"embed"
	"io/fs"
	"path"
)

//go:embed workbench
var files embed.FS

// Workbench is the workbench's files as the HTTP surface serves them at
// /workbench/<name>: index.html, app.css, favicon.svg (served at
// /favicon.svg and /favicon.ico), nodes.css (the renderers' styles), the
// page's ES modules (app.js and the modules it imports), and the vendored
// libraries' modules at vendor/<name>.module.js (preact, hooks, signals,
// signals-core, htm). VendorServed says which vendor files are served.
var Workbench, _ = fs.Sub(files, "workbench")

// VendorServed reports whether a vendor/ file is served: the modules, not
// the README, licences or refresh script.
func VendorServed(name string) bool { return path.Ext(name) == ".js" && path.Base(name) == name }
