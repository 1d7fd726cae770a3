package actors

import (
	"fmt"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestPresenceKeepsRecentWritersBounded(t *testing.T) {
	var p presenceCore
	ref := &canvasRef{id: "main"}
	node := &canvas.Node{ID: "n1"}
	for i := range messages.PresenceAgentsMax + 5 {
		p.wrote(fmt.Sprintf("agent-%d", i), &canvas.Change{Nodes: []canvas.RecordChange[*canvas.Node]{{ID: "n1", After: node}}}, uint64(i+1), "t")
	}
	p.wrote("agent-10", &canvas.Change{Nodes: []canvas.RecordChange[*canvas.Node]{{ID: "n1", Before: node}}}, 99, "later")
	p.publish(ref)
	got := ref.presence.Load()
	if len(got.Agents) != messages.PresenceAgentsMax {
		t.Fatalf("%d agents kept, want %d", len(got.Agents), messages.PresenceAgentsMax)
	}
	first := got.Agents[0]
	if first.Agent != "agent-10" || !first.LastRemoved || first.Revision != 99 || first.Changes != 2 || first.LastAt != "later" {
		t.Fatalf("most recent writer: %+v", first)
	}
	for _, a := range got.Agents {
		if a.Agent == "agent-0" {
			t.Fatal("the oldest writer was not dropped")
		}
	}
}

func TestPresenceClientsJoinAndLeave(t *testing.T) {
	var p presenceCore
	ref := &canvasRef{id: "main"}
	for i := range messages.PresenceClientsMax + 3 {
		p.joined(uint64(i+1), fmt.Sprintf("tab-%d", i), "t")
	}
	p.publish(ref)
	before := ref.presence.Load()
	if before.ClientCount != messages.PresenceClientsMax+3 || len(before.Clients) != messages.PresenceClientsMax || before.Clients[0].Client != "tab-0" {
		t.Fatalf("clients: count %d listed %d first %+v", before.ClientCount, len(before.Clients), before.Clients[0])
	}
	p.left(1)
	p.left(1000) // not a subscriber: nothing changes
	p.publish(ref)
	after := ref.presence.Load()
	if after.ClientCount != messages.PresenceClientsMax+2 || after.Clients[0].Client != "tab-1" {
		t.Fatalf("after leave: %d %+v", after.ClientCount, after.Clients[0])
	}
	if before.Clients[0].Client != "tab-0" {
		t.Fatal("a published view changed")
	}
	p.publish(ref)
	if ref.presence.Load() != after {
		t.Fatal("publish without a change replaced the view")
	}
}
