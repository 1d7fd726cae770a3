package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// A client written by someone else: the official TypeScript MCP SDK lists
// the tools and creates a node through canvas_node (tests/mcp-ts). make test
// installs the SDK with npm; PMX_REQUIRE_TS=1 (set by make test) turns a
// missing SDK into a failure instead of a skip.
func TestMCPWithTheTypeScriptSDK(t *testing.T) {
	dir, _ := filepath.Abs("../../tests/mcp-ts")
	node, err := exec.LookPath("node")
	_, sdkErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	if err != nil || sdkErr != nil {
		msg := "node or the TypeScript MCP SDK is missing: run `npm ci --prefix tests/mcp-ts` (make test does)"
		if os.Getenv("PMX_REQUIRE_TS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ws := t.TempDir()
	cmd := exec.Command(node, filepath.Join(dir, "client.mjs"), binary, ws, freePort(t))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, out)
	}
	var got struct {
		Server struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"server"`
		ToolCount     int    `json:"toolCount"`
		HasCanvasNode bool   `json:"hasCanvasNode"`
		IsError       bool   `json:"isError"`
		Text          string `json:"text"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("TypeScript client output: %s", out)
	}
	if got.Server.Name != "pmx-canvas" || got.ToolCount != len(mcpapi.ListOrder()) || !got.HasCanvasNode {
		t.Fatalf("TypeScript client saw %+v", got)
	}
	if got.IsError || !strings.Contains(got.Text, "From the TypeScript SDK") {
		t.Fatalf("canvas_node add through the TypeScript SDK: %+v", got)
	}
}
