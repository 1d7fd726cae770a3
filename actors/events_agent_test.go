package actors

import (
	"context"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// TestPinsFrameNamesItsAgent: a commit that changes only the context pins
// sends no canvas-changes frame, so its context-pins-changed frame names
// the commit's agent (a feed attributes it from that); without an agent
// the frame has none.
func TestPinsFrameNamesItsAgent(t *testing.T) {
	h := start(t, "")
	sub, err := h.sys.Subscribe(context.Background(), messages.SubscribeRequest{Changes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	id, _ := h.mustCall("", "node.add", `{"type":"markdown"}`)["id"].(string)
	next := func(name string) map[string]any {
		t.Helper()
		for {
			select {
			case ev := <-sub.Events:
				if ev.Name == name {
					d, _ := ev.Data.(map[string]any)
					return d
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no %s frame", name)
			}
		}
	}
	next(canvas.EventChanges)
	h.mustCall("", "pin.set", `{"nodeIds":["`+id+`"]}`, func(e *messages.Envelope) { e.Agent = "alice" })
	if d := next(canvas.EventPinsChanged); d["agent"] != "alice" || d["revision"] == nil {
		t.Errorf("alice's pins frame: %v", d)
	}
	h.mustCall("", "pin.set", `{"nodeIds":[]}`)
	if d := next(canvas.EventPinsChanged); d["agent"] != nil {
		t.Errorf("an unattributed pins frame names an agent: %v", d)
	}
}
