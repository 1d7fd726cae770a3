package main

// The security suite (docs/security.md): each test plays one attack against
// the real binary and fails if the hole it names comes back.

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// fakeBrowser writes a script that, if anything ever runs it, leaves a
// marker file behind. It returns the script and the marker path.
func fakeBrowser(t *testing.T, dir string) (script, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "ran")
	script = filepath.Join(dir, "evil.sh")
	body := "#!/bin/sh\necho \"$@\" > " + marker + "\nexit 1\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, marker
}

func mustNotExist(t *testing.T, path, what string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("%s: the fake browser ran (args %q)", what, data)
	}
}

// Hole 1: a webview.start request could run any program as the server.
func TestWebviewRequestCannotRunAProgram(t *testing.T) {
	ws := t.TempDir()
	script, marker := fakeBrowser(t, ws)
	p := startServer(t, ws)
	for _, tc := range []struct{ body, field string }{
		{`{"chromePath":"./evil.sh"}`, "chromePath"},
		{fmt.Sprintf(`{"chromePath":%q}`, script), "chromePath"},
		{fmt.Sprintf(`{"chromeArgv":["--renderer-cmd-prefix=%s"]}`, script), "chromeArgv"},
		{fmt.Sprintf(`{"chromeArgv":["--browser-subprocess-path=%s"],"width":800}`, script), "chromeArgv"},
		{`{"dataStoreDir":"profile"}`, "dataStoreDir"},
	} {
		r := p.must(400, "POST", "/api/workbench/webview/start", tc.body)
		if r.str("code") != "invalid-input" || r.body["field"] != tc.field ||
			!strings.Contains(r.str("error"), "is server configuration, not a request field") {
			t.Fatalf("%s: %s", tc.body, r.raw)
		}
	}
	// The same through MCP (a local MCP server hosting the workspace) and the CLI.
	s := startMCP(t, t.TempDir(), nil)
	if text, isErr := s.call("canvas_webview_start", map[string]any{"chromePath": script}); !isErr || !strings.Contains(text, `field "chromePath" is server configuration`) {
		t.Fatalf("MCP: %v %s", isErr, text)
	}
	if text, isErr := s.call("canvas_webview", map[string]any{"action": "start", "chromeArgv": []any{"--renderer-cmd-prefix=" + script}}); !isErr || !strings.Contains(text, `field "chromeArgv" is server configuration`) {
		t.Fatalf("MCP composite: %v %s", isErr, text)
	}
	out, err := refusedCommand(t, "webview", "start", "--server-url", p.url, "--chrome-path", script)
	if err == nil || !strings.Contains(string(out), `field \"chromePath\" is server configuration`) {
		t.Fatalf("CLI: %v %s", err, out)
	}
	mustNotExist(t, marker, "request fields")

	// The browser is server configuration: the flag is what runs.
	p.stop()
	cfg := startServer(t, ws, "--webview-chrome-path", script, "--webview-chrome-argv", "--disable-gpu")
	if r := cfg.must(500, "POST", "/api/workbench/webview/start", `{}`); r.str("code") != "webview-start-failed" {
		t.Fatalf("configured start: %s", r.raw)
	}
	ran, err := os.ReadFile(marker)
	if err != nil || !strings.Contains(string(ran), "--disable-gpu") {
		t.Fatalf("the configured browser did not run with its switches: %v %q", err, ran)
	}
	_ = os.Remove(marker)
	cfg.stop()

	// Only an explicit, documented-unsafe flag lets a request choose.
	unsafe := startServer(t, ws, "--webview-allow-request-browser")
	if r := unsafe.must(500, "POST", "/api/workbench/webview/start", fmt.Sprintf(`{"chromePath":%q}`, script)); r.str("code") != "webview-start-failed" {
		t.Fatalf("allowed request start: %s", r.raw)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("with --webview-allow-request-browser the requested browser should have run")
	}
	// Even then a profile may not leave the workspace through a link.
	if err := os.Symlink(t.TempDir(), filepath.Join(ws, "outside")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"outside", "outside/profile", "../x", "/tmp"} {
		r := unsafe.must(400, "POST", "/api/workbench/webview/start", fmt.Sprintf(`{"dataStoreDir":%q}`, dir))
		if r.body["field"] != "dataStoreDir" || !strings.Contains(r.str("error"), "resolves outside workspace") {
			t.Fatalf("dataStoreDir %s: %s", dir, r.raw)
		}
	}
}

// writeRoutes lists every state-changing route of the catalog with its
// path parameters filled in.
func writeRoutes() [][2]string {
	var out [][2]string
	for _, op := range messages.Catalog {
		for _, r := range op.HTTP {
			if r.Method == "GET" || r.Method == "HEAD" {
				continue
			}
			parts := strings.Split(r.Path, "/")
			for i, s := range parts {
				if strings.HasPrefix(s, ":") {
					parts[i] = "x"
				}
			}
			out = append(out, [2]string{r.Method, strings.Join(parts, "/")})
		}
	}
	return out
}

// boardSnapshot is what a refused request must leave unchanged.
func boardSnapshot(p *proc) string { return boardSnapshotAuth(p, nil) }

// Hole 2: a page on another localhost port could write (approve a gate).
func TestCrossPortOriginIsRefusedOnEveryWrite(t *testing.T) {
	for _, mode := range []struct {
		name string
		args []string
		auth []string
	}{
		{"loopback", nil, nil},
		{"token", []string{"--token", "0123456789abcdef-tok"}, []string{"Authorization", "Bearer 0123456789abcdef-tok"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			p := startServer(t, "", mode.args...)
			port := p.url[strings.LastIndex(p.url, ":")+1:]
			other := "http://localhost:3000"
			gate := obj(p.must(200, "POST", "/api/canvas/ax/approval", `{"title":"Deploy"}`, mode.auth...).body, "approvalGate")["id"].(string)
			withAuth := func(h ...string) []string { return append(append([]string{}, mode.auth...), h...) }
			before := boardSnapshotAuth(p, mode.auth)

			attacks := [][]string{
				{"Origin", other, "Content-Type", "text/plain"},
				{"Origin", "http://127.0.0.1:3000"},
				{"Origin", "http://localhost"},
				{"Origin", "http://localhost:" + port + "0"},
				{"Origin", "null"},
				{"Origin", "http://localhost:" + port, "Sec-Fetch-Site", "cross-site"},
				{"Sec-Fetch-Site", "same-site"},
				{"Sec-Fetch-Site", "cross-site"},
			}
			routes := append(writeRoutes(), [2]string{"POST", "/api/canvas/ax/approval/" + gate + "/resolve"})
			for _, rt := range routes {
				for _, h := range attacks {
					r := p.do(rt[0], rt[1], `{"decision":"approved","type":"markdown","title":"x"}`, withAuth(h...)...)
					if r.status != 403 || r.str("code") != "forbidden-origin" {
						t.Fatalf("%s %s with %v: %d %s", rt[0], rt[1], h, r.status, r.raw)
					}
				}
			}
			if after := boardSnapshotAuth(p, mode.auth); after != before {
				t.Fatal("a refused request changed the board")
			}
			// This server's own origin, in each loopback spelling, may.
			for _, o := range []string{"http://localhost:" + port, "http://127.0.0.1:" + port, "http://[::1]:" + port} {
				p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, withAuth("Origin", o, "Sec-Fetch-Site", "same-origin")...)
			}
			p.must(200, "POST", "/api/canvas/ax/approval/"+gate+"/resolve", `{"decision":"approved"}`, withAuth("Origin", "http://localhost:"+port)...)
		})
	}

	// --allow-origin trusts exactly the origins it names.
	p := startServer(t, "", "--allow-origin", "http://localhost:3000", "--allow-origin", "https://canvas.example")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "http://localhost:3000", "Sec-Fetch-Site", "same-site")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "https://canvas.example:443", "Sec-Fetch-Site", "cross-site")
	p.must(403, "POST", "/api/canvas/node", `{"type":"markdown"}`, "Origin", "http://localhost:3001")
	out, err := refusedCommand(t, "serve", "--port", "0", "--workspace", t.TempDir(), "--allow-origin", "localhost:3000")
	if err == nil || !strings.Contains(string(out), "is not an origin") {
		t.Fatalf("a bad --allow-origin: %v %s", err, out)
	}
}

func boardSnapshotAuth(p *proc, auth []string) string {
	p.t.Helper()
	var b strings.Builder
	for _, path := range []string{"/api/canvas/state", "/api/canvas/ax", "/api/canvas/ax/timeline", "/api/canvas/snapshots", "/api/canvas/history"} {
		b.Write(p.must(200, "GET", path, nil, auth...).raw)
	}
	// The AX read is stamped with the time it was generated.
	return generatedAt.ReplaceAllString(b.String(), "")
}

var generatedAt = regexp.MustCompile(`"generatedAt":"[^"]*"`)

// Hole 3: an <img> on any site took a 24 h lease on the human's steering.
func TestCrossSiteGetTakesNoLease(t *testing.T) {
	p := startServer(t, "")
	port := p.url[strings.LastIndex(p.url, ":")+1:]
	steer := obj(p.must(200, "POST", "/api/canvas/ax/steer", `{"message":"stop and ask me","source":"browser"}`).body, "steering")["id"].(string)
	lease := "/api/canvas/ax/delivery/pending?consumer=x&leaseMs=86400000"
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Dest", "image"},
		{"Sec-Fetch-Site", "same-site", "Sec-Fetch-Dest", "image"},
		{"Origin", "http://localhost:3000"},
		{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"},
	} {
		if r := p.must(403, "GET", lease, nil, h...); r.str("code") != "forbidden-origin" {
			t.Fatalf("%v: %s", h, r.raw)
		}
	}
	// The agent still sees the steering: no lease was taken.
	pend := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent", nil).body, "pending")
	if len(pend) != 1 || pend[0]["id"] != steer {
		t.Fatalf("after refused leases the agent sees %v", pend)
	}
	// Reads without a lease stay open to any context; a lease from this
	// server's own page or a non-browser client is capped at 10 minutes.
	p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=x", nil, "Sec-Fetch-Site", "cross-site")
	r := p.must(200, "GET", lease, nil, "Origin", "http://127.0.0.1:"+port, "Sec-Fetch-Site", "same-origin")
	if r.body["leaseMs"] != float64(messages.AxLeaseMax.Milliseconds()) {
		t.Fatalf("lease not capped: %s", r.raw)
	}
	if pend := list(p.must(200, "GET", "/api/canvas/ax/delivery/pending?consumer=agent", nil).body, "pending"); len(pend) != 0 {
		t.Fatalf("the lease taken by x should hide the row from agent: %v", pend)
	}
}

// Hole 4: token and header hygiene.
func TestTokenRules(t *testing.T) {
	for _, bad := range []string{" ", "short", "fifteen-chars!!", "sixteen chars ok"} {
		out, err := refusedCommand(t, "serve", "--port", "0", "--workspace", t.TempDir(), "--token", bad)
		if err == nil || !strings.Contains(string(out), "Refusing the token") {
			t.Fatalf("--token %q accepted: %v %s", bad, err, out)
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte("from-a-file-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServer(t, "", "--host", "0.0.0.0", "--token-file", file)
	p.url = strings.Replace(p.url, "localhost", "127.0.0.1", 1)
	p.must(401, "GET", "/api/canvas/state", nil)
	p.must(200, "GET", "/api/canvas/state", nil, "Authorization", "Bearer from-a-file-0123456789")
	// ?token= only where a browser cannot send a header: the event stream.
	r := p.must(401, "GET", "/api/canvas/state?token=from-a-file-0123456789", nil)
	if !strings.Contains(r.str("error"), "?token= is accepted only on /api/workbench/events") {
		t.Fatalf("query token on an API route: %s", r.raw)
	}
	p.must(401, "POST", "/api/canvas/node?token=from-a-file-0123456789", `{"type":"markdown"}`)
	if f := p.openStream("?token=" + url.QueryEscape("from-a-file-0123456789")).next(t); f.event != "connected" {
		t.Fatalf("stream with query token: %s", f.event)
	}
	// The workbench shell and its icon load without the token (no data).
	p.must(200, "GET", "/workbench", nil)
	p.must(200, "GET", "/favicon.ico", nil)
	if ps, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.cmd.Process.Pid)); err == nil && strings.Contains(string(ps), "from-a-file") {
		t.Fatal("the token is on the command line")
	}

	env := exec.Command(binary, "serve", "--port", "0", "--workspace", t.TempDir(), "--no-open")
	env.Env = append(os.Environ(), "PMX_CANVAS_TOKEN=from-the-environment-01")
	e := runUntilHealthyAuth(t, env, "from-the-environment-01")
	e.must(401, "GET", "/api/canvas/state", nil)

	for _, tc := range []struct{ args []string }{
		{[]string{"--token-file", filepath.Join(dir, "missing")}},
		{[]string{"--token-file", file, "--token", "0123456789abcdefgh"}},
	} {
		args := append([]string{"serve", "--port", "0", "--workspace", t.TempDir()}, tc.args...)
		if out, err := refusedCommand(t, args...); err == nil {
			t.Fatalf("%v accepted: %s", tc.args, out)
		}
	}
}

// refusedCommand runs the binary with args, which should fail at once; a
// command that runs on (a server that accepted what it should refuse) is
// killed after 10 s and reported as a success.
func refusedCommand(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, args...).CombinedOutput()
	if ctx.Err() != nil {
		return out, nil
	}
	return out, err
}

// runUntilHealthyAuth starts cmd (a serve on --port 0) and waits for its
// banner; the server requires token.
func runUntilHealthyAuth(t *testing.T, cmd *exec.Cmd, token string) *proc {
	t.Helper()
	stderr := &syncBuffer{}
	cmd.Stderr, cmd.Stdout = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, stderr: stderr, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(p.kill)
	waitFor(t, func() bool { return bannerURL.FindStringSubmatch(stderr.String()) != nil })
	p.url = strings.Replace(bannerURL.FindStringSubmatch(stderr.String())[1], "localhost", "127.0.0.1", 1)
	p.must(200, "GET", "/health", nil, "Authorization", "Bearer "+token)
	return p
}

func TestSecurityHeaders(t *testing.T) {
	p := startServer(t, "")
	for _, tc := range []struct {
		method, path string
		status       int
		csp          []string
	}{
		{"GET", "/workbench", 200, []string{"frame-ancestors 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'"}},
		{"GET", "/", 200, []string{"frame-ancestors 'self'", "script-src 'self'"}},
		{"GET", "/workbench/app.js", 200, []string{"frame-ancestors 'self'"}},
		{"GET", "/api/canvas/state", 200, []string{"default-src 'none'", "frame-ancestors 'self'"}},
		{"GET", "/health", 200, []string{"default-src 'none'"}},
		{"GET", "/api/nope", 404, []string{"default-src 'none'"}},
		{"POST", "/api/canvas/node", 403, []string{"default-src 'none'"}},
	} {
		var h []string
		if tc.status == 403 {
			h = []string{"Origin", "http://evil.example"}
		}
		r := p.must(tc.status, tc.method, tc.path, `{}`, h...)
		csp := r.header.Get("Content-Security-Policy")
		for _, want := range tc.csp {
			if !strings.Contains(csp, want) {
				t.Fatalf("%s %s: CSP %q lacks %q", tc.method, tc.path, csp, want)
			}
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Referrer-Policy") != "no-referrer" ||
			r.header.Get("X-Frame-Options") != "SAMEORIGIN" || r.header.Get("Cross-Origin-Resource-Policy") != "same-origin" {
			t.Fatalf("%s %s: headers %v", tc.method, tc.path, r.header)
		}
	}
}

// Hole 5: NaN and ±Inf reached the JSON encoder (500).
func TestNonFiniteNumbersAreRefused(t *testing.T) {
	p := startServer(t, "")
	before := boardSnapshot(p)
	for _, q := range []string{"x=NaN", "y=Inf", "scale=-Inf", "x=Infinity", "x=%2BInf", "y=1e999", "x=nan"} {
		r := p.must(400, "POST", "/api/canvas/viewport?"+q, nil)
		field := strings.SplitN(q, "=", 2)[0]
		if r.str("code") != "invalid-input" || r.body["field"] != field || !strings.Contains(r.str("error"), `field "`+field+`" must be a number, got string`) {
			t.Fatalf("%s: %s", q, r.raw)
		}
	}
	for _, q := range []string{"/api/canvas/node?x=NaN", "/api/canvas/node?width=Inf"} {
		p.must(400, "POST", q, `{"type":"markdown"}`)
	}
	if boardSnapshot(p) != before {
		t.Fatal("a refused request changed the board")
	}

	s := startMCP(t, t.TempDir(), nil)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"canvas_add_node", map[string]any{"type": "markdown", "x": "NaN"}, "x"},
		{"canvas_add_node", map[string]any{"type": "markdown", "width": "Infinity"}, "width"},
		{"canvas_node", map[string]any{"action": "add", "type": "markdown", "y": "-Infinity"}, "y"},
	} {
		text, isErr := s.call(tc.tool, tc.args)
		// A non-finite number spelled as a string is a string: refused
		// with the text HTTP gives for the same body.
		if want := `invalid input for node.add: field "` + tc.field + `" must be a number, got string`; !isErr || text != want {
			t.Fatalf("MCP %s %v: %v %s", tc.tool, tc.args, isErr, text)
		}
	}
}

// One runaway agent cannot starve the rest: with --agent-rate its extra
// writes get 429 and Retry-After, while other agents write on.
func TestAgentRateLimitOverHTTP(t *testing.T) {
	p := startServer(t, "", "--agent-rate", "0.01", "--agent-burst", "1")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "X-PMX-Agent", "runaway")
	r := p.must(429, "POST", "/api/canvas/node", `{"type":"markdown","agentId":"runaway"}`)
	if r.str("code") != "rate-limited" || r.header.Get("Retry-After") != "100" || r.body["retryAfterMs"] == nil {
		t.Fatalf("rate-limited write: %v %s", r.header, r.raw)
	}
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`, "X-PMX-Agent", "other")
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`)
	p.must(200, "GET", "/api/canvas/state", nil, "X-PMX-Agent", "runaway")
}
