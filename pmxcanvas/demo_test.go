package pmxcanvas

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The demo board has a node of every type, edges, a coloured group, a
// pending approval and steering, made through the operations; it seeds an
// empty canvas only, and never overwrites the user's files.
func TestSeedDemo(t *testing.T) {
	ws := t.TempDir()
	mine := filepath.Join(ws, "pmx-demo", "metrics.csv")
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("mine,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Start(Options{Workspace: ws, Port: 0, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	seeded, err := s.SeedDemo(ctx)
	if err != nil || !seeded {
		t.Fatalf("SeedDemo: %v %v", seeded, err)
	}
	c := s.Canvas()
	layout, err := c.LayoutGet(ctx, &messages.LayoutGetInput{})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	var group, csv *messages.Node
	for i, n := range layout.Nodes {
		types[n.Type]++
		switch {
		case n.Type == "group":
			group = &layout.Nodes[i]
		case n.Type == "file" && strings.HasSuffix(n.Path, "metrics.csv"):
			csv = &layout.Nodes[i]
		}
	}
	for _, typ := range append(slices.Clone(messages.NodeTypes), "graph", "json-render") {
		if types[typ] == 0 {
			t.Errorf("the demo board has no %s node (types: %v)", typ, types)
		}
	}
	if len(layout.Edges) < 4 {
		t.Errorf("%d edges, want at least 4", len(layout.Edges))
	}
	if group == nil || group.Data["color"] != "#a855f7" || len(group.Data["children"].([]any)) != 3 {
		t.Errorf("group: %+v", group)
	}
	if csv == nil || !strings.Contains(csv.Data["fileContent"].(string), "mine,1") {
		t.Errorf("the user's metrics.csv was overwritten or not read: %+v", csv)
	}
	gates, err := c.AxApprovalList(ctx)
	if err != nil || len(gates.ApprovalGates) != 1 || gates.ApprovalGates[0].Status != "pending" {
		t.Fatalf("approvals: %+v %v", gates, err)
	}
	consumer := "test"
	delivery, err := c.AxDeliveryPending(ctx, &messages.AxDeliveryPendingInput{Consumer: consumer})
	if err != nil || len(delivery.Pending) != 1 {
		t.Fatalf("steering: %+v %v", delivery, err)
	}
	if b, err := os.ReadFile(filepath.Join(ws, DemoImage)); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Fatalf("demo image: %v", err)
	}

	again, err := s.SeedDemo(ctx)
	if err != nil || again {
		t.Fatalf("second SeedDemo: %v %v (want false: the canvas is not empty)", again, err)
	}
	after, _ := c.LayoutGet(ctx, &messages.LayoutGetInput{})
	if len(after.Nodes) != len(layout.Nodes) {
		t.Fatalf("a second seed changed the board: %d → %d nodes", len(layout.Nodes), len(after.Nodes))
	}
}
