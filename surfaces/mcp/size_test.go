package mcpapi_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pmxcanvas/pmx-canvas/messages"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// toolsListBytes is the size of the tools/list result as sent on the wire
// (compact JSON), for the full or the compact surface.
func toolsListBytes(t *testing.T, compact bool) int {
	t.Helper()
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s := mcpapi.NewServer(mcpapi.Options{Caller: &mcpapi.Caller{Registry: reg}, Compact: compact, Version: messages.Version})
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// The compact surface must cost an agent's context at most 30 % of the full
// one (sizes are data, not timings: asserting them is safe). The figures
// are recorded in docs/benchmarks.md.
func TestCompactToolsListIsSmall(t *testing.T) {
	full, compact := toolsListBytes(t, false), toolsListBytes(t, true)
	t.Logf("tools/list result: full %d bytes, compact %d bytes (%.1f %%)", full, compact, 100*float64(compact)/float64(full))
	if float64(compact) > 0.30*float64(full) {
		t.Fatalf("compact tools/list is %d bytes, %.1f %% of the full %d", compact, 100*float64(compact)/float64(full), full)
	}
}
