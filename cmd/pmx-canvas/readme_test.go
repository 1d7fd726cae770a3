package main

// The README runs as written. Every fenced block in README.md carries a
// marker on the line before it:
//
//	<!-- readme-test: run against a fresh server -->  each line runs against
//	    a new "pmx-canvas serve" in a temporary workspace
//	<!-- readme-test: run in a fresh workspace -->    each line runs in an
//	    empty temporary workspace (the block starts what it needs)
//	<!-- readme-test: mcp config -->                  the JSON is an MCP
//	    client config: each server's command is started as configured and
//	    must answer initialize and tools/list
//	<!-- readme-test: skip: <reason> -->              not run (builds,
//	    installs, foreground servers), with the reason why
//
// A block without a marker fails the test, so no example goes unchecked
// by accident. What the test changes, and only that: the port 4313 becomes
// a free port (so it never meets a server already running), the working
// directory is a temporary workspace, the binary under test is first on
// PATH, and curl gets --fail-with-body (an HTTP error fails the line, as a
// reader would see it fail). Each line must exit 0; a line whose comment
// says "Ctrl+C" (a stream) must still be running, or have exited 0, after
// two seconds.

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

type readmeBlock struct {
	line   int // of the opening fence
	lang   string
	marker string
	body   []string
}

var readmeMarker = regexp.MustCompile(`^<!--\s*readme-test:\s*(.*?)\s*-->$`)

func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	prev := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && strings.HasPrefix(line, "```"):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.body = append(cur.body, line)
		case strings.HasPrefix(line, "```"):
			cur = &readmeBlock{line: n, lang: strings.TrimPrefix(line, "```")}
			if m := readmeMarker.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				cur.marker = m[1]
			}
		}
		prev = line
	}
	if cur != nil {
		t.Fatalf("README.md:%d: unclosed code block", cur.line)
	}
	return blocks
}

func TestReadmeRunsAsWritten(t *testing.T) {
	dwRequireProc(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	blocks := readmeBlocks(t)
	ran := map[string]int{}
	for _, b := range blocks {
		b := b
		switch {
		case b.marker == "":
			t.Errorf("README.md:%d: a ```%s block without a <!-- readme-test: ... --> marker", b.line, b.lang)
		case strings.HasPrefix(b.marker, "skip:"):
			if strings.TrimSpace(strings.TrimPrefix(b.marker, "skip:")) == "" {
				t.Errorf("README.md:%d: skip needs a reason", b.line)
			}
		case b.marker == "run against a fresh server", b.marker == "run in a fresh workspace":
			ran[b.marker]++
			t.Run("line"+strconv.Itoa(b.line), func(t *testing.T) { readmeRunShell(t, b) })
		case b.marker == "mcp config":
			ran[b.marker]++
			t.Run("line"+strconv.Itoa(b.line), func(t *testing.T) { readmeRunMCPConfig(t, b) })
		default:
			t.Errorf("README.md:%d: unknown marker %q", b.line, b.marker)
		}
	}
	// The README's server-talking examples are all still there and run.
	if ran["run against a fresh server"] == 0 || ran["run in a fresh workspace"] == 0 || ran["mcp config"] == 0 {
		t.Errorf("blocks run: %v; the tour, the CLI and the MCP config must each be run", ran)
	}
}

// readmeEnv is the environment a README reader has, plus the binary under
// test first on PATH and none of the test's own PMX_ variables.
func readmeEnv(extra ...string) []string {
	env := dwEnv(extra...)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + filepath.Dir(binary) + ":" + strings.TrimPrefix(kv, "PATH=")
			return env
		}
	}
	return append(env, "PATH="+filepath.Dir(binary))
}

var readmePort = regexp.MustCompile(`\b4313\b`)

func readmeRunShell(t *testing.T, b readmeBlock) {
	ws := t.TempDir()
	dwReapOnCleanup(t, ws)
	var port string
	if b.marker == "run against a fresh server" {
		p := startServer(t, ws)
		port = p.url[strings.LastIndexByte(p.url, ':')+1:]
	} else {
		port = freePort(t)
	}
	for i, line := range b.body {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		where := "README.md:" + strconv.Itoa(b.line+1+i)
		cmdline := readmePort.ReplaceAllString(line, port)
		stream := strings.Contains(line, "Ctrl+C")
		script := `set -o pipefail; curl() { command curl --fail-with-body --max-time 20 "$@"; }; ` + cmdline
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir, cmd.Env = ws, readmeEnv()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		limit := 60 * time.Second
		if stream {
			limit = 2 * time.Second
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %s\nfailed (%v):\n%s", where, line, err, out.String())
			}
		case <-time.After(limit):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			if !stream {
				t.Fatalf("%s: %s\ndid not finish in %s:\n%s", where, line, limit, out.String())
			}
		}
		t.Logf("%s: %s\n%s", where, cmdline, truncate(out.String(), 400))
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func readmeRunMCPConfig(t *testing.T, b readmeBlock) {
	var cfg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(strings.Join(b.body, "\n")), &cfg); err != nil {
		t.Fatalf("README.md:%d: not an MCP config: %v", b.line, err)
	}
	if len(cfg.MCPServers) == 0 {
		t.Fatalf("README.md:%d: no mcpServers", b.line)
	}
	for name, s := range cfg.MCPServers {
		ws := t.TempDir()
		env := readmeEnv("PMX_CANVAS_PORT=" + freePort(t)) // the port, as for the shell blocks
		for k, v := range s.Env {
			env = append(env, k+"="+v)
		}
		// The command is looked up on PATH, as an MCP client does.
		cmd := exec.Command("bash", append([]string{"-c", `exec "$0" "$@"`, s.Command}, s.Args...)...)
		cmd.Dir, cmd.Env = ws, env
		replies := mcpExchange(t, cmd,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		)
		if len(replies) < 2 {
			t.Fatalf("%s: replies %v", name, replies)
		}
		var list struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(replies[1]), &list); err != nil || len(list.Result.Tools) != len(mcpapi.ListOrder()) {
			t.Fatalf("%s: tools/list gave %d tools (%v): %s", name, len(list.Result.Tools), err, truncate(replies[1], 300))
		}
	}
}
