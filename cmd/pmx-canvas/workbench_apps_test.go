package main

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// The workbench hosts an MCP App: the app node's document (the fixture's
// counter, from a stdio app server the pmx-canvas server started) runs in a
// sandboxed frame with an opaque origin, initialises through the host
// bridge, and a click in it round-trips a tool call through the host to the
// app server and back, recording the app's model context on the node.
func TestWorkbenchHostsAnMCPApp(t *testing.T) {
	requireChromium(t)
	p := startServer(t, "")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	transport, _ := json.Marshal(map[string]any{"type": "stdio", "command": self, "env": map[string]string{"PMX_MCPAPP_FIXTURE": "stdio"}})
	opened := p.must(200, "POST", "/api/canvas/mcp-app/open",
		fmt.Sprintf(`{"toolName":"show_counter","toolArguments":{"start":5},"transport":%s,"x":80,"y":80,"width":520,"height":360}`, transport))
	id := opened.str("nodeId")

	page := browsertest.Open(t, p.url+"/workbench", 1280, 800)
	problems := browsertest.Problems(t, page)
	sel := fmt.Sprintf(`.canvas-node[data-node-id=%q] iframe.ext-app-frame`, id)
	until(t, "the app frame", func() bool {
		return js(t, page, fmt.Sprintf(`return String(!!document.querySelector(%q))`, sel)) == "true"
	})
	if got := js(t, page, fmt.Sprintf(`return document.querySelector(%q).getAttribute("sandbox")`, sel)); got != "allow-scripts allow-popups allow-popups-to-escape-sandbox" {
		t.Errorf("frame sandbox %q", got)
	}
	frame := page.MustElement(sel).MustFrame()
	until(t, "the app to initialise through the host", func() bool {
		v, err := frame.Eval(`() => document.body && document.body.getAttribute("data-initialized")`)
		return err == nil && v.Value.Str() == "true"
	})
	if v := frame.MustEval(`() => String(window.origin)`).Str(); v != "null" {
		t.Errorf("the app runs in origin %q, want an opaque one", v)
	}
	until(t, "the tool input to reach the app", func() bool {
		return frame.MustEval(`() => document.getElementById("count").textContent`).Str() == "5"
	})
	frame.MustElement("#inc").MustClick()
	until(t, "the tool call to come back through the host", func() bool {
		return frame.MustEval(`() => document.getElementById("status").textContent`).Str() == "Counter incremented to 1."
	})
	until(t, "the app's model context on the node", func() bool {
		d, _ := p.must(200, "GET", "/api/canvas/node/"+id, nil).body["data"].(map[string]any)
		ctx, _ := d["appModelContext"].(map[string]any)
		sc, _ := ctx["structuredContent"].(map[string]any)
		return sc["count"] == float64(1)
	})
	// The frame survives the layout updates its own calls cause (the app
	// keeps its state).
	if v := frame.MustEval(`() => document.getElementById("status").textContent`).Str(); v != "Counter incremented to 1." {
		t.Errorf("the app was reloaded: status %q", v)
	}
	if got := problems(); len(got) > 0 {
		t.Errorf("browser problems: %v", got)
	}
}
