package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSmokeOnAFreshMachine runs "pmx-canvas smoke" with an empty HOME, no
// PMX_* variables and a fresh working directory: every check passes, the
// report is one JSON document, the table goes to stderr, and nothing is
// left behind.
func TestSmokeOnAFreshMachine(t *testing.T) {
	home := t.TempDir()
	cwd := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	code, out, errOut := dwRun(t, cwd, "smoke")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var rep struct {
		OK        bool   `json:"ok"`
		Version   string `json:"version"`
		Workspace string `json:"workspace"`
		URL       string `json:"url"`
		Checks    []struct {
			Name  string `json:"name"`
			OK    bool   `json:"ok"`
			Ms    int64  `json:"ms"`
			Error string `json:"error"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
		if !c.OK || c.Error != "" || c.Ms < 0 {
			t.Errorf("check %+v", c)
		}
	}
	want := "start server,http: health,sse: connect,http: add nodes and an edge,http: read state,sse: layout frames," +
		"sse: resume with Last-Event-ID,mcp: initialize,mcp: tool call,mcp: node visible over http,stop server"
	if !rep.OK || strings.Join(names, ",") != want || !strings.HasPrefix(rep.URL, "http://127.0.0.1:") {
		t.Fatalf("report %+v", rep)
	}
	if !strings.HasPrefix(rep.Workspace, tmp) {
		t.Fatalf("workspace %q is not under TMPDIR %q", rep.Workspace, tmp)
	}
	if !strings.Contains(errOut, "PASS  sse: resume with Last-Event-ID") || !strings.HasSuffix(errOut, "11/11 checks passed\n") {
		t.Fatalf("table:\n%s", errOut)
	}
	for _, dir := range []string{cwd, home, tmp} {
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("smoke left files in %s: %v", dir, left)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, ".pmx-canvas")); !os.IsNotExist(err) {
		t.Fatal("smoke touched the working directory's canvas")
	}

	// --keep keeps the temporary workspace and its store.
	code, out, _ = dwRun(t, cwd, "smoke", "--keep", "--quiet")
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("--keep: exit %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(rep.Workspace, ".pmx-canvas")); err != nil {
		t.Fatalf("--keep: %v", err)
	}
}
