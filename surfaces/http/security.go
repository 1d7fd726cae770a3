package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// MinTokenLength is the shortest bearer token a server accepts.
const MinTokenLength = 16

// EventsPath is the event stream; EventSource cannot set headers, so it is
// the one API route that takes the token as ?token=.
const EventsPath = "/api/workbench/events"

// CheckToken reports why token cannot guard a server: shorter than
// MinTokenLength, or holding whitespace or control characters (which no
// header carries intact). The empty token means "no token" and is fine.
func CheckToken(token string) error {
	if token == "" {
		return nil
	}
	if n := len([]rune(token)); n < MinTokenLength {
		return fmt.Errorf("the token is %d characters long; use at least %d (e.g. openssl rand -hex 16)", n, MinTokenLength)
	}
	for _, r := range token {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("the token holds whitespace or control characters; use letters, digits and punctuation only")
		}
	}
	return nil
}

// NormalizeOrigin turns an --allow-origin value into the form browsers send
// in the Origin header (scheme://host[:port], lower case, no default port),
// or reports why it is not an origin.
func NormalizeOrigin(origin string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an origin: use scheme://host[:port], e.g. http://localhost:3000", origin)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q is not an origin: leave out the path, query and credentials", origin)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if host == "" {
		return "", fmt.Errorf("%q is not an origin: it names no host", origin)
	}
	if n, err := strconv.Atoi(port); port != "" && (err != nil || n < 1 || n > 65535) {
		return "", fmt.Errorf("%q is not an origin: the port must be 1-65535", origin)
	}
	if port == defaultPort(u.Scheme) {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// guard enforces the server's trust boundary before any route runs:
//
//   - Every response carries the security headers (securityHeaders).
//   - With a token (required when binding a non-loopback address), every
//     request must carry it as "Authorization: Bearer <token>"; only the
//     event stream, which EventSource opens without headers, may pass it
//     as "?token=". The workbench shell (HTML, CSS, JS) holds no canvas
//     data and loads without it.
//   - Without a token the Host header must be a loopback name or the
//     bound host (DNS-rebinding guard).
//   - In both modes a request that changes state must come from this
//     server's own origin, an --allow-origin origin, or no browser at all
//     (sameOrigin). Reads that change state despite their GET (a
//     delivery claim that takes a lease) are checked once their input is
//     decoded (see operation).
func (s *Server) guard(c *fiber.Ctx) error {
	securityHeaders(c)
	if s.opts.Token != "" {
		if !isWorkbenchShell(c) {
			if err := s.checkToken(c); err != nil {
				c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pmx-canvas"`)
				return writeError(c, err)
			}
		}
	} else if !s.hostAllowed(hostOnly(string(c.Request().Host()))) {
		return writeError(c, messages.Make(messages.CodeForbiddenHost,
			"Host %q is not served here; use http://127.0.0.1 or http://localhost", string(c.Request().Host())))
	}
	if isStateChanging(c.Method()) {
		if err := s.sameOrigin(c); err != nil {
			return writeError(c, err)
		}
	}
	return c.Next()
}

// Content-Security-Policy values: the workbench may run only its own
// scripts, talk only to this server and be framed only by itself (it may
// frame web pages: a webpage node's live preview, sandboxed and asked for
// in the focus overlay); every
// other response (JSON, binary) may load nothing and be framed only by the
// workbench.
const (
	workbenchCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: http: https:; font-src 'self' data:; connect-src 'self'; " +
		"frame-src 'self' http: https:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
	apiCSP = "default-src 'none'; frame-ancestors 'self'"
)

// securityHeaders sets the headers every response carries: a CSP with
// frame-ancestors (no clickjacking of the workbench's approve button), no
// MIME sniffing, no Referer (a ?token= URL never leaks), and no embedding
// of responses by another origin's page.
func securityHeaders(c *fiber.Ctx) {
	csp := apiCSP
	if isWorkbenchShell(c) {
		csp = workbenchCSP
	}
	c.Set(fiber.HeaderContentSecurityPolicy, csp)
	c.Set(fiber.HeaderXFrameOptions, "SAMEORIGIN")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	corp := "same-origin"
	if p := c.Path(); p == "/favicon.ico" || p == "/favicon.svg" {
		// A page opened as a site (a sandboxed surface, an opaque origin)
		// asks for the favicon too; it is public, so anyone may load it.
		corp = "cross-origin"
	}
	c.Set("Cross-Origin-Resource-Policy", corp)
}

func isWorkbenchShell(c *fiber.Ctx) bool {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return false
	}
	p := c.Path()
	return p == "/" || p == "/workbench" || strings.HasPrefix(p, "/workbench/") || p == "/favicon.ico" || p == "/favicon.svg"
}

// checkToken accepts the bearer header on every route and ?token= on the
// event stream only. Tokens are compared through their SHA-256 digests, so
// the comparison takes the same time whatever the token's length.
func (s *Server) checkToken(c *fiber.Ctx) *messages.Error {
	auth := c.Get(fiber.HeaderAuthorization)
	got, hasHeader := strings.CutPrefix(auth, "Bearer ")
	if !hasHeader {
		q := c.Query("token")
		if q != "" && c.Path() != EventsPath {
			return messages.Make(messages.CodeUnauthorized,
				"?token= is accepted only on %s; send the token as the header Authorization: Bearer <token>", EventsPath)
		}
		got = q
	}
	want := sha256.Sum256([]byte(s.opts.Token))
	have := sha256.Sum256([]byte(strings.TrimSpace(got)))
	if subtle.ConstantTimeCompare(have[:], want[:]) != 1 {
		return messages.Make(messages.CodeUnauthorized, "missing or wrong bearer token")
	}
	return nil
}

func isStateChanging(method string) bool {
	switch method {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return false
	}
	return true
}

// sameOrigin refuses a state-changing request that a browser sent on
// behalf of another site. A browser names the page's origin in Origin on
// every cross-origin POST/PUT/PATCH/DELETE; it must be this server's own
// origin (scheme aside, the host and port the request was addressed to,
// with localhost, 127.0.0.1 and [::1] as one host) or one listed in
// --allow-origin. Without an Origin, Sec-Fetch-Site tells a cross-site or
// same-site (another port) browser request, e.g. an <img> GET; clients
// that are no browser (the CLI, agents, MCP forwarding) send neither.
func (s *Server) sameOrigin(c *fiber.Ctx) *messages.Error {
	origin := c.Get(fiber.HeaderOrigin)
	site := c.Get("Sec-Fetch-Site")
	if origin != "" {
		if s.allowedOrigin(origin) {
			return nil
		}
		if site != "cross-site" && s.ownOrigin(origin, string(c.Request().Host())) {
			return nil
		}
		return messages.Make(messages.CodeForbiddenOrigin,
			"requests from origin %q may not change this canvas: only pages this server serves may (start the server with --allow-origin %s to trust that origin)", origin, origin)
	}
	if site == "cross-site" || site == "same-site" {
		return messages.Make(messages.CodeForbiddenOrigin, "cross-site requests may not change this canvas")
	}
	return nil
}

func (s *Server) allowedOrigin(origin string) bool {
	if len(s.opts.AllowOrigins) == 0 {
		return false
	}
	norm, err := NormalizeOrigin(origin)
	if err != nil {
		return false
	}
	for _, o := range s.opts.AllowOrigins {
		if o == norm {
			return true
		}
	}
	return false
}

// ownOrigin reports whether origin names the server the request reached
// at hostHeader: the same host (loopback spellings are one host) and the
// same port.
func (s *Server) ownOrigin(origin, hostHeader string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	oport := u.Port()
	if oport == "" {
		oport = defaultPort(u.Scheme)
	}
	hhost, hport, err := net.SplitHostPort(hostHeader)
	if err != nil {
		hhost, hport = hostHeader, defaultPort(u.Scheme)
	}
	if oport != hport {
		return false
	}
	ohost, hhost := strings.Trim(u.Hostname(), "[]"), strings.Trim(hhost, "[]")
	if IsLoopback(ohost) && IsLoopback(hhost) {
		return true
	}
	return ohost != "" && strings.EqualFold(ohost, hhost) && (s.opts.Token != "" || s.hostAllowed(ohost))
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
