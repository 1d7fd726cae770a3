package httpapi

import (
	"crypto/subtle"
	"net"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// guard enforces the server's trust boundary before any route runs:
//
//   - With a token (required when binding a non-loopback address), every
//     request must carry it as "Authorization: Bearer <token>" or, for
//     clients that cannot set headers (EventSource), "?token=".
//   - Without a token the server trusts only this machine's browser
//     context: the Host header must be a loopback name or the bound host
//     (DNS-rebinding guard), and a state-changing request from a browser
//     must come from such an origin (CSRF guard).
func (s *Server) guard(c *fiber.Ctx) error {
	if s.opts.Token != "" {
		// The workbench shell (HTML, CSS, JS) holds no canvas data; the
		// page passes the token on to the event stream it opens.
		if !s.tokenOK(c) && !isWorkbenchShell(c) {
			c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pmx-canvas"`)
			return writeError(c, messages.Make(messages.CodeUnauthorized, "missing or wrong bearer token"))
		}
		return c.Next()
	}
	if !s.hostAllowed(hostOnly(string(c.Request().Host()))) {
		return writeError(c, messages.Make(messages.CodeForbiddenHost,
			"Host %q is not served here; use http://127.0.0.1 or http://localhost", string(c.Request().Host())))
	}
	if isStateChanging(c.Method()) {
		if origin := c.Get(fiber.HeaderOrigin); origin != "" && !s.originAllowed(origin) {
			return writeError(c, messages.Make(messages.CodeForbiddenOrigin, "requests from origin %q may not change this canvas", origin))
		}
		if c.Get("Sec-Fetch-Site") == "cross-site" {
			return writeError(c, messages.Make(messages.CodeForbiddenOrigin, "cross-site requests may not change this canvas"))
		}
	}
	return c.Next()
}

func isWorkbenchShell(c *fiber.Ctx) bool {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return false
	}
	p := c.Path()
	return p == "/" || p == "/workbench" || strings.HasPrefix(p, "/workbench/")
}

func (s *Server) tokenOK(c *fiber.Ctx) bool {
	got := ""
	if auth := c.Get(fiber.HeaderAuthorization); strings.HasPrefix(auth, "Bearer ") {
		got = strings.TrimSpace(strings.TrimPrefix(auth, "Bearer "))
	} else {
		got = c.Query("token")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

func isStateChanging(method string) bool {
	switch method {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return false
	}
	return true
}

// IsLoopback reports whether host names this machine's loopback interface.
func IsLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) hostAllowed(host string) bool {
	if IsLoopback(host) {
		return true
	}
	bound := strings.Trim(s.opts.Host, "[]")
	return bound != "" && strings.EqualFold(host, bound) && !isWildcard(bound)
}

func (s *Server) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return s.hostAllowed(u.Hostname())
}

func isWildcard(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// hostOnly strips the port from a Host header value.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}
