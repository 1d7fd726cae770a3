package actors

import (
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// A canvas with a live app session is not passivated (that would kill
// the app the human is using); once the app node goes, it is.
func TestLiveAppKeepsItsCanvasOpen(t *testing.T) {
	url := mcpappfixture.StartHTTP(t)
	h := start(t, "", func(c *Config, _ *persistence.Options) {
		c.PassivateAfter, c.PassivateEvery = 100*time.Millisecond, 10*time.Millisecond
	})
	out := h.mustCall("apps", "mcpapp.open", `{"toolName":"show_counter","transport":{"type":"http","url":"`+url+`"}}`)
	time.Sleep(400 * time.Millisecond) // many passivation ticks
	if n := h.sys.Stats().Passivations; n != 0 {
		t.Fatalf("a canvas with a live app was passivated (%d)", n)
	}
	h.mustCall("apps", "extapp.list-tools", `{"sessionId":"`+out["sessionId"].(string)+`"}`)
	h.mustCall("apps", "node.remove", `{"id":"`+out["nodeId"].(string)+`"}`)
	deadline := time.Now().Add(5 * time.Second)
	for h.sys.Stats().Passivations < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the canvas was not passivated after its app closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
