package main

import (
	"testing"
)

// With the trace on, the real "pmx-canvas mcp" process turns each
// tools/call on the canvas into a trace pill: finished with the result, or
// failed with the error.
func TestMCPToolCallsBecomeTracePills(t *testing.T) {
	s := startMCP(t, "", nil)
	p := &proc{t: t, url: "http://127.0.0.1:" + s.port}
	if _, isErr := s.call("canvas_add_node", map[string]any{"type": "markdown", "title": "untraced"}); isErr {
		t.Fatal("add failed")
	}
	if n := boardNodes(p, "trace"); len(n) != 0 {
		t.Fatalf("pills with the trace off: %v", n)
	}
	p.must(200, "POST", "/api/workbench/intent", map[string]any{"type": "trace-toggle", "payload": map[string]any{"enabled": true}})
	if _, isErr := s.call("canvas_add_node", map[string]any{"type": "markdown", "title": "traced"}); isErr {
		t.Fatal("add failed")
	}
	if _, isErr := s.call("canvas_remove_node", map[string]any{"id": "nope"}); !isErr {
		t.Fatal("removing a missing node succeeded")
	}
	pills := boardNodes(p, "trace")
	if len(pills) != 2 {
		t.Fatalf("pills: %v", pills)
	}
	if d := dataOf(pills[0]); d["toolName"] != "canvas_add_node" || d["status"] != "success" || d["category"] != "mcp" || d["duration"] == nil {
		t.Fatalf("the add's pill: %v", d)
	}
	if d := dataOf(pills[1]); d["toolName"] != "canvas_remove_node" || d["status"] != "failed" || d["error"] == nil {
		t.Fatalf("the failed call's pill: %v", d)
	}
}
