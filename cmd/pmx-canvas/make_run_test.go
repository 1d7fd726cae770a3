package main

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMakeRunSmoke runs the README's first command as a new user would:
// "make run" (with PORT= and WORKSPACE= overrides) says it is building,
// then prints the banner with the workbench URL and the MCP config line,
// and the server answers /health for that workspace.
func TestMakeRunSmoke(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	port := freePort(t)
	cmd := exec.Command("make", "--no-print-directory", "-C", root, "run", "PORT="+port, "WORKSPACE="+ws)
	cmd.Env = dwEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
	})

	workbench := regexp.MustCompile(`Workbench: (http://localhost:` + port + `/workbench)`)
	deadline := time.Now().Add(5 * time.Minute) // a cold build is slow
	for workbench.FindStringSubmatch(out.String()) == nil {
		select {
		case err := <-exited:
			t.Fatalf("make run exited (%v) before the banner:\n%s", err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no banner with the workbench URL:\n%s", out.String())
		}
	}
	text := out.String()
	if i, j := strings.Index(text, "building pmx-canvas"), strings.Index(text, "running at"); i < 0 || j < i {
		t.Fatalf("make run must say it is building before the banner:\n%s", text)
	}
	if !strings.Contains(text, `"command": "pmx-canvas", "args": ["mcp"]`) || !strings.Contains(text, "Workspace: "+ws) {
		t.Fatalf("the banner lacks the MCP config line or the workspace:\n%s", text)
	}
	res, err := http.Get("http://127.0.0.1:" + port + "/health")
	if err != nil {
		t.Fatalf("/health: %v\n%s", err, text)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/health: %d", res.StatusCode)
	}
	// Ctrl+C (SIGINT to the foreground group) stops the server cleanly
	// (make itself reports the interrupt).
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-exited:
		if !strings.Contains(out.String(), "Shutting down...") || dwHealthy("http://127.0.0.1:"+port) {
			t.Fatalf("the server did not shut down on Ctrl+C:\n%s", out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("make run did not stop on Ctrl+C:\n%s", out.String())
	}
}
