package httpapi

import (
	"io/fs"
	"mime"
	"path"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/web"
)

// workbenchPage serves the workbench's HTML at / and /workbench. It is
// never cached: a new server version must not meet an old page.
func (s *Server) workbenchPage(c *fiber.Ctx) error {
	return serveWorkbenchFile(c, "index.html", "no-store")
}

// favicon serves the workbench icon at /favicon.ico and /favicon.svg, as
// the reference does: image/svg+xml, cached for an hour.
func (s *Server) favicon(c *fiber.Ctx) error {
	data, err := fs.ReadFile(web.Workbench, "favicon.svg")
	if err != nil {
		return writeError(c, messages.Internal("favicon: %v", err))
	}
	c.Set(fiber.HeaderContentType, "image/svg+xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.Send(data)
}

// workbenchAsset serves the page's script and stylesheet.
func (s *Server) workbenchAsset(c *fiber.Ctx) error {
	name := c.Params("file")
	if name == "index.html" || path.Base(name) != name {
		return writeError(c, messages.Make(messages.CodeRouteNotFound, "Not found: %s %s", c.Method(), c.Path()))
	}
	return serveWorkbenchFile(c, name, "no-cache")
}

// workbenchVendor serves GET /workbench/vendor/:file, the vendored
// libraries' ES modules (web.VendorServed).
func (s *Server) workbenchVendor(c *fiber.Ctx) error {
	name := c.Params("file")
	if !web.VendorServed(name) {
		return writeError(c, messages.Make(messages.CodeRouteNotFound, "Not found: %s %s", c.Method(), c.Path()))
	}
	return serveWorkbenchFile(c, "vendor/"+name, "no-cache")
}

func serveWorkbenchFile(c *fiber.Ctx, name, cache string) error {
	data, err := fs.ReadFile(web.Workbench, name)
	if err != nil {
		return writeError(c, messages.Make(messages.CodeRouteNotFound, "Not found: %s %s", c.Method(), c.Path()))
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderCacheControl, cache)
	return c.Send(data)
}
