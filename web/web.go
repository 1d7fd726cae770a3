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
// component (node-*.js, chosen in renderers.js). Parts of the reference's
// workbench are not here yet (AX panels, the attention field, the expanded
// overlay); see docs/CHANGELOG.md "Not yet available".
package web

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"strings"
)

//go:embed workbench
var files embed.FS

// Workbench is the workbench's files as the HTTP surface serves them, one
// level deep at /workbench/<name>: index.html, app.css, favicon.svg
// (served at /favicon.svg and /favicon.ico), nodes.css (the renderers' styles), the page's ES modules (app.js
// and the modules it imports), and beside them the vendored libraries'
// modules from workbench/vendor (preact.module.js, hooks.module.js,
// signals.module.js, signals-core.module.js, htm.module.js). A page module
// and a vendored one never share a name (TestVendoredFilesAreServed).
var Workbench fs.FS = pageFiles{page: sub("workbench"), vendor: sub("workbench/vendor")}

func sub(dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		panic(err) // the directories are embedded: unreachable
	}
	return f
}

// pageFiles serves the page's files, and a top-level .js name the page
// does not have from the vendored modules.
type pageFiles struct{ page, vendor fs.FS }

func (p pageFiles) Open(name string) (fs.File, error) {
	f, err := p.page.Open(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || strings.Contains(name, "/") || path.Ext(name) != ".js" {
		return f, err
	}
	return p.vendor.Open(name)
}
