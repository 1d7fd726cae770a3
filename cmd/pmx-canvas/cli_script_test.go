package main

// The CLI's testscript suite: testdata/script/*.txtar run the real binary
// (built once in TestMain) against a live server that each script's setup
// starts in the script's work directory; PMX_CANVAS_URL points at it.
//
// Commands the scripts get beyond testscript's own:
//
//	pmx args...            run pmx-canvas; "! pmx" expects a non-zero exit
//	rc N                   the last pmx exit code was N
//	json PATH WANT         stdout's JSON at PATH equals WANT (JSON, else a string)
//	jsonerr PATH WANT      the same for stderr (the {error, hint} line)
//	jsonlen PATH N         the array or object at PATH has N entries
//	capture VAR PATH       set $VAR to stdout's JSON value at PATH
//	http METHOD PATH [BODY] call the server directly; the reply becomes stdout
//
// PATH is dotted (node.position.x, results.0.id); "." is the whole document.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pmxcanvas/pmx-canvas/automation"
)

func TestCLIScripts(t *testing.T) {
	appURL = mcpappfixture.StartHTTP(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Setup:               scriptServer,
		RequireExplicitExec: true,
		Condition:           scriptCondition,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"pmx":     cmdPMX,
			"rc":      cmdRC,
			"json":    func(ts *testscript.TestScript, neg bool, args []string) { cmdJSON(ts, neg, args, "stdout") },
			"jsonerr": func(ts *testscript.TestScript, neg bool, args []string) { cmdJSON(ts, neg, args, "stderr") },
			"jsonlen": cmdJSONLen,
			"capture": cmdCapture,
			"http":    cmdHTTP,
		},
	})
}

// scriptCondition adds [chromium]: a browser for the automation webview
// is installed. Under PMX_REQUIRE_CHROMIUM=1 (CI) a missing one is an error,
// not a skip.
func scriptCondition(cond string) (bool, error) {
	if cond != "chromium" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if (&automation.Chromium{}).Supported() {
		return true, nil
	}
	if os.Getenv("PMX_REQUIRE_CHROMIUM") == "1" {
		return false, errors.New("PMX_REQUIRE_CHROMIUM=1 but no Chromium was found")
	}
	return false, nil
}

// appURL is the fixture MCP-App server over HTTP (the diagram app of
// the scripts' servers).
var appURL string

// scriptServer starts "pmx-canvas serve" on a free port with a workspace
// inside the script's work directory and points PMX_CANVAS_URL at it.
func scriptServer(env *testscript.Env) error {
	ws := filepath.Join(env.WorkDir, ".server")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	cmd := exec.Command(binary, "serve", "--port", "0", "--workspace", ws, "--no-open", "--diagram-server-url", appURL)
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	env.Defer(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.After(15 * time.Second)
	for {
		if m := bannerURL.FindStringSubmatch(logs.String()); m != nil {
			env.Setenv("PMX_CANVAS_URL", strings.Replace(m[1], "localhost", "127.0.0.1", 1))
			env.Setenv("SERVER_WS", ws)
			self, _ := os.Executable()
			env.Setenv("APP_FIXTURE", self) // run with PMX_MCPAPP_FIXTURE=stdio: the stdio app server
			env.Setenv("APP_URL", appURL)
			return nil
		}
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("server exited before it was ready: %v\n%s", err, logs.String())
		case <-deadline:
			return fmt.Errorf("server did not start:\n%s", logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// cmdPMX runs the binary and records its exit code.
func cmdPMX(ts *testscript.TestScript, neg bool, args []string) {
	err := ts.Exec(binary, args...)
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("pmx-canvas %s: %v", strings.Join(args, " "), err)
		}
		code = exit.ExitCode()
	}
	ts.Setenv("PMX_RC", strconv.Itoa(code))
	if neg && code == 0 {
		ts.Fatalf("pmx-canvas %s succeeded, want a failure", strings.Join(args, " "))
	}
	if !neg && code != 0 {
		ts.Fatalf("pmx-canvas %s exited %d", strings.Join(args, " "), code)
	}
}

func cmdRC(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: rc N")
	}
	if got := ts.Getenv("PMX_RC"); (got == args[0]) == neg {
		ts.Fatalf("exit code %s, want %s%s", got, map[bool]string{true: "not ", false: ""}[neg], args[0])
	}
}

// docAt parses a captured stream and walks the path.
func docAt(ts *testscript.TestScript, stream, path string) any {
	text := ts.ReadFile(stream)
	var doc any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		ts.Fatalf("%s is not one JSON document: %v\n%s", stream, err, text)
	}
	v, ok := walk(doc, path)
	if !ok {
		ts.Fatalf("%s has nothing at %q:\n%s", stream, path, text)
	}
	return v
}

func walk(v any, path string) (any, bool) {
	if path == "." || path == "" {
		return v, true
	}
	for _, seg := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		switch t := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = t[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func cmdJSON(ts *testscript.TestScript, neg bool, args []string, stream string) {
	if len(args) != 2 {
		ts.Fatalf("usage: json PATH WANT")
	}
	got := docAt(ts, stream, args[0])
	var want any
	if json.Unmarshal([]byte(args[1]), &want) != nil {
		want = args[1]
	}
	if reflect.DeepEqual(got, want) == neg {
		g, _ := json.Marshal(got)
		ts.Fatalf("%s %s = %s, want %s%s", stream, args[0], g, map[bool]string{true: "not ", false: ""}[neg], args[1])
	}
}

func cmdJSONLen(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonlen PATH N")
	}
	n := -1
	switch t := docAt(ts, "stdout", args[0]).(type) {
	case []any:
		n = len(t)
	case map[string]any:
		n = len(t)
	}
	if (strconv.Itoa(n) == args[1]) == neg {
		ts.Fatalf("stdout %s has %d entries, want %s", args[0], n, args[1])
	}
}

func cmdCapture(ts *testscript.TestScript, _ bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: capture VAR PATH")
	}
	v := docAt(ts, "stdout", args[1])
	s, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	ts.Setenv(args[0], s)
}

func cmdHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: http METHOD PATH [BODY]")
	}
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(args[2])
	}
	req, err := http.NewRequest(args[0], ts.Getenv("PMX_CANVAS_URL")+args[1], body)
	ts.Check(err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	ts.Check(err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	_, _ = io.Copy(ts.Stdout(), bytes.NewReader(raw))
	if (res.StatusCode/100 == 2) == neg {
		ts.Fatalf("%s %s: status %d: %s", args[0], args[1], res.StatusCode, raw)
	}
}

// TestCLIScriptsCoverEveryCommand checks that the scripts run every
// command path of the tree at least once, and that every command's --help
// has an example.
func TestCLIScriptsCoverEveryCommand(t *testing.T) {
	out, err := exec.Command(binary, "completion", "bash").Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("completion bash: %v", err)
	}
	paths := commandPaths(t)
	files, _ := filepath.Glob("testdata/script/*.txtar")
	var scripts strings.Builder
	for _, f := range files {
		b, _ := os.ReadFile(f)
		scripts.Write(b)
	}
	text := scripts.String()
	for _, p := range paths {
		if !strings.Contains(text, "pmx "+p) {
			t.Errorf("no script runs %q", "pmx-canvas "+p)
		}
	}
}

// commandPaths lists the agent command paths from the binary's help.
func commandPaths(t *testing.T) []string {
	t.Helper()
	var paths []string
	var visit func(prefix []string)
	visit = func(prefix []string) {
		out, err := exec.Command(binary, append(prefix, "--help")...).Output()
		if err != nil {
			t.Errorf("%s --help: %v", strings.Join(prefix, " "), err)
		}
		if len(prefix) > 0 && !strings.Contains(string(out), "Examples:\n  pmx-canvas ") && !strings.Contains(string(out), "Examples:\n  cat ") {
			t.Errorf("pmx-canvas %s --help has no example:\n%s", strings.Join(prefix, " "), out)
		}
		section := false
		for _, line := range strings.Split(string(out), "\n") {
			switch {
			case strings.HasPrefix(line, "Available Commands:"):
				section = true
				continue
			case section && strings.TrimSpace(line) == "":
				section = false
			}
			if !section {
				continue
			}
			name := strings.Fields(line)[0]
			if len(prefix) == 0 && (name == "help" || name == "completion" || name == "serve" || name == "mcp" || name == "watch" || name == "smoke") {
				continue
			}
			p := append(append([]string(nil), prefix...), name)
			paths = append(paths, strings.Join(p, " "))
			visit(p)
		}
	}
	visit(nil)
	if len(paths) < 60 {
		t.Fatalf("only %d command paths found: %v", len(paths), paths)
	}
	return paths
}
