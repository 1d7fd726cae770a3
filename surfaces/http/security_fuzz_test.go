package httpapi

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Whatever Origin, Host and Sec-Fetch-Site a request carries, the guard
// answers below 500, and it lets a state-changing request through only
// when the Origin is absent (with no cross-site or same-site fetch
// metadata), in the allow-list, or names the host and port the request was
// addressed to.
func FuzzOriginGuard(f *testing.F) {
	f.Add("http://localhost:3000", "localhost:4313", "same-site", "POST")
	f.Add("http://127.0.0.1:4313", "localhost:4313", "same-origin", "POST")
	f.Add("http://[::1]:4313", "127.0.0.1:4313", "", "DELETE")
	f.Add("null", "localhost:4313", "cross-site", "PATCH")
	f.Add("", "localhost:4313", "cross-site", "GET")
	f.Add("http://allowed.example:8443", "localhost:1", "cross-site", "PUT")
	f.Add("https://localhost", "localhost:443", "", "POST")
	f.Add("http://LOCALHOST:4313/", "localhost:4313", "none", "POST")
	app := New(Options{Invoker: echoInvoker{}, AllowOrigins: []string{"http://allowed.example:8443"},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).App()
	f.Fuzz(func(t *testing.T, origin, host, site, method string) {
		switch method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			method = "POST"
		}
		// Header values lose their surrounding whitespace on the wire.
		origin, host, site = strings.Trim(origin, " \t"), strings.Trim(host, " \t"), strings.Trim(site, " \t")
		req := httptest.NewRequest(method, "/api/canvas/viewport", strings.NewReader(`{}`))
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		if strings.ContainsAny(origin+host+site, "\r\n\x00") {
			return // not a header value a client can send
		}
		res, err := app.Test(req, -1)
		if err != nil {
			return // fasthttp refused the request line itself
		}
		defer res.Body.Close()
		if res.StatusCode >= 500 {
			t.Fatalf("status %d", res.StatusCode)
		}
		if method == "GET" || res.StatusCode == 403 && res.Header.Get(HeaderError) != "forbidden-origin" {
			return // a read, or refused by the Host check first
		}
		passed := res.Header.Get(HeaderError) != "forbidden-origin"
		if !passed {
			return
		}
		if origin == "" {
			if site == "cross-site" || site == "same-site" {
				t.Fatalf("a %s request without Origin passed", site)
			}
			return
		}
		if norm, err := NormalizeOrigin(origin); err == nil && norm == "http://allowed.example:8443" {
			return
		}
		u, err := url.Parse(origin)
		if err != nil {
			t.Fatalf("an unparsable Origin %q passed", origin)
		}
		oport := u.Port()
		if oport == "" {
			oport = defaultPort(u.Scheme)
		}
		hport := defaultPort(u.Scheme)
		if i := strings.LastIndex(host, ":"); i >= 0 && !strings.HasSuffix(host, "]") {
			hport = host[i+1:]
		}
		if oport != hport || site == "cross-site" {
			t.Fatalf("Origin %q (site %q) passed for Host %q", origin, site, host)
		}
	})
}

// NormalizeOrigin is idempotent: a normalised origin normalises to itself.
func FuzzNormalizeOrigin(f *testing.F) {
	for _, s := range []string{"http://localhost:3000", "HTTPS://Canvas.Example:443", "http://[::1]:80/", "ftp://x", "localhost:3000", "http://a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, origin string) {
		norm, err := NormalizeOrigin(origin)
		if err != nil {
			return
		}
		again, err := NormalizeOrigin(norm)
		if err != nil || again != norm {
			t.Fatalf("%q -> %q -> %q, %v", origin, norm, again, err)
		}
	})
}
