package parity

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// presence.get was added through the recipe; one answer on HTTP, MCP, the
// CLI and the Go package: a labelled stream subscriber and an agent's
// last write.
func TestPresenceOnEverySurface(t *testing.T) {
	srv := startServer(t)
	ctx := context.Background()
	base := "http://" + srv.Addr().String()
	n, err := srv.Canvas().WithAgent("alice").AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "By alice"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(base + "/api/workbench/events?client=tab-1")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if line, _ := bufio.NewReader(res.Body).ReadString('\n'); !strings.HasPrefix(line, "id:") {
		t.Fatalf("stream: %q", line)
	}
	c := srv.Canvas()
	var got *messages.Presence
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, err = c.PresenceGet(ctx); err == nil && got.ClientCount == 1 {
			break
		}
	}
	if got == nil || got.ClientCount != 1 || len(got.Clients) != 1 || got.Clients[0].Client != "tab-1" {
		t.Fatalf("Go package clients: %+v %v", got, err)
	}
	if len(got.Agents) != 1 || got.Agents[0].Agent != "alice" || got.Agents[0].LastNodeID != n.ID || got.Agents[0].Changes != 1 {
		t.Fatalf("Go package agents: %+v", got.Agents)
	}
	want, _ := json.Marshal(got)

	hres, err := http.Get(base + "/api/canvas/presence")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(hres.Body)
	hres.Body.Close()
	if hres.StatusCode != 200 || compact(t, body) != string(want) {
		t.Fatalf("HTTP %d %s, want %s", hres.StatusCode, body, want)
	}

	reg, _ := mcpapi.NewRegistry()
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}
	if r := caller.Call(ctx, "canvas_get_presence", mcpapi.Args{}); r.IsError || compact(t, []byte(r.Text)) != string(want) {
		t.Fatalf("MCP: %+v, want %s", r, want)
	}

	var out, errOut bytes.Buffer
	if code := cli.Execute([]string{"presence", "--server-url", base}, &out, &errOut); code != 0 || compact(t, out.Bytes()) != string(want) {
		t.Fatalf("CLI exit %d %s %s, want %s", code, out.String(), errOut.String(), want)
	}
}
