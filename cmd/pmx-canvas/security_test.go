package main

import (
	"os/exec"
	"strings"
	"testing"
)

func TestHostAndOriginGuards(t *testing.T) {
	p := startServer(t, "")
	port := p.url[strings.LastIndex(p.url, ":"):]

	for _, host := range []string{"evil.example" + port, "evil.example", "192.168.1.5" + port} {
		r := p.must(403, "GET", "/api/canvas/state", nil, "Host", host)
		if r.str("code") != "forbidden-host" {
			t.Fatalf("Host %s: %s", host, r.raw)
		}
	}
	for _, host := range []string{"localhost" + port, "127.0.0.1" + port, "[::1]" + port} {
		p.must(200, "GET", "/api/canvas/state", nil, "Host", host)
	}

	// A foreign page may not change the canvas, even with a "simple"
	// text/plain POST that skips CORS preflight.
	r := p.must(403, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "http://evil.example", "Content-Type", "text/plain")
	if r.str("code") != "forbidden-origin" {
		t.Fatalf("%s", r.raw)
	}
	p.must(403, "DELETE", "/api/canvas/node/x", nil, "Origin", "https://evil.example")
	p.must(403, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Sec-Fetch-Site", "cross-site")
	p.must(403, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "null")
	if n := len(nodesOf(p.state(""))); n != 2 {
		t.Fatalf("a refused request changed the canvas: %d nodes", n)
	}
	// Our own origin, and clients that send none (curl, agents), may.
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "http://localhost"+port)
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`)
	// Reads from a foreign origin are served without CORS headers, so the
	// browser keeps the response from that page.
	g := p.must(200, "GET", "/api/canvas/state", nil, "Origin", "http://evil.example")
	if g.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("no CORS headers")
	}
}

func TestNonLoopbackBindRequiresToken(t *testing.T) {
	out, err := exec.Command(binary, "serve", "--host", "0.0.0.0", "--port", "0", "--workspace", t.TempDir()).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "set a token") {
		t.Fatalf("binding 0.0.0.0 without a token: err=%v out=%s", err, out)
	}
}

func TestTokenIsRequiredOnEveryRequest(t *testing.T) {
	p := startServer(t, "", "--host", "0.0.0.0", "--token", "s3cret-0123456789abcdef")
	p.url = strings.Replace(p.url, "localhost", "127.0.0.1", 1)
	if r := p.must(401, "GET", "/api/canvas/state", nil); r.str("code") != "unauthorized" || r.header.Get("WWW-Authenticate") == "" {
		t.Fatalf("%s", r.raw)
	}
	p.must(401, "GET", "/health", nil)
	p.must(401, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Authorization", "Bearer wrong")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Authorization", "Bearer s3cret-0123456789abcdef")
	// With a token, any Host may be used (the token is the boundary).
	p.must(200, "GET", "/api/canvas/state", nil, "Authorization", "Bearer s3cret-0123456789abcdef", "Host", "canvas.lan:4313")
	// EventSource cannot set headers: ?token= works for it.
	s := p.openStream("?token=s3cret-0123456789abcdef")
	if f := s.next(t); f.event != "connected" {
		t.Fatalf("stream with query token: %s", f.event)
	}
}
