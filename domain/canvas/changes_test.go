package canvas

import (
	"encoding/json"
	"testing"
)

// A change frame lists what the commit touched: changed nodes (and those
// whose context pin flipped, drawn pinned), removed ids, the viewport.
func TestChangesFrame(t *testing.T) {
	base := board{nodes: []*Node{nd(t, "a", "markdown", 0, 0, 100, 100, ""), nd(t, "b", "markdown", 200, 0, 100, 100, "")}}.state(t)
	tx := Begin(base, testEnv())
	tx.PutNode(nd(t, "c", "markdown", 400, 0, 100, 100, `{"title":"C"}`))
	tx.DeleteNode("a")
	tx.SetPins([]string{"b"})
	tx.SetViewport(Viewport{X: 1, Y: 2, Scale: 0.5})
	next, ch, _ := tx.Commit()

	b, err := ChangesFrame{State: next, Change: ch, BaseRevision: base.Revision, Agent: "alice"}.JSONBytes()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Revision, BaseRevision uint64
		Nodes                  []struct {
			ID     string `json:"id"`
			Pinned bool   `json:"pinned"`
		}
		RemovedNodes []string
		Pins         []string
		Viewport     *Viewport
		Agent        string
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got.Revision != next.Revision || got.BaseRevision != base.Revision || got.Agent != "alice" {
		t.Fatalf("envelope: %s", b)
	}
	if len(got.Nodes) != 2 || got.Nodes[0].ID != "c" || got.Nodes[1].ID != "b" || !got.Nodes[1].Pinned {
		t.Fatalf("nodes (the added one, then the newly pinned one): %s", b)
	}
	if len(got.RemovedNodes) != 1 || got.RemovedNodes[0] != "a" || len(got.Pins) != 1 {
		t.Fatalf("removed/pins: %s", b)
	}
	if got.Viewport == nil || got.Viewport.Scale != 0.5 {
		t.Fatalf("viewport: %s", b)
	}
}
