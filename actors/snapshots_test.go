package actors

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// Snapshots cost the canvas no memory (the published state keeps their
// metadata; the content is a blob file read on restore), report their
// size, and stay within the canvas's caps: a save past a cap deletes the
// oldest, and their files go with them.
func TestSnapshotsAreCappedAndKeptOnDisk(t *testing.T) {
	ws := t.TempDir()
	h := start(t, ws, func(c *Config, _ *persistence.Options) { c.MaxSnapshots = 3 })
	h.mustCall("", "node.add", `{"type":"markdown","title":"kept"}`)
	var ids []string
	for i := range 5 {
		r := h.mustCall("", "snapshot.save", `{"name":"s`+string(rune('0'+i))+`"}`)
		ids = append(ids, r["id"].(string))
		if i >= 3 {
			if d, _ := r["deleted"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != ids[i-3] {
				t.Fatalf("save %d deleted %v, want %s", i, r["deleted"], ids[i-3])
			}
		}
	}
	list := snapshotList(t, h)
	if len(list) != 3 || list[0].(map[string]any)["id"] != ids[4] || list[2].(map[string]any)["id"] != ids[2] {
		t.Fatalf("list after caps: %v", list)
	}
	if b, _ := list[0].(map[string]any)["bytes"].(float64); b < 100 {
		t.Fatalf("snapshot size not reported: %v", list[0])
	}
	for _, sn := range refOf(t, h.sys, "main").view.Load().Snapshots.NewestFirst() {
		if sn.Content != nil {
			t.Fatalf("the published state holds snapshot %s's content", sn.ID)
		}
	}
	files, _ := os.ReadDir(filepath.Join(ws, persistence.Dir, persistence.BlobsDir))
	if len(files) != 3 {
		t.Fatalf("%d blob files, want 3", len(files))
	}
	// Restore reads the content back from its file.
	h.mustCall("", "node.add", `{"type":"markdown","title":"later"}`)
	h.mustCall("", "snapshot.restore", `{"id":"`+ids[4]+`"}`)
	titles := map[string]bool{}
	for _, n := range h.mustCall("", "layout.get", `{}`)["nodes"].([]any) {
		if s, ok := n.(map[string]any)["title"].(string); ok {
			titles[s] = true
		}
	}
	if !titles["kept"] || titles["later"] {
		t.Fatalf("restore: %v", titles)
	}

	bytesCapped := start(t, "", func(c *Config, _ *persistence.Options) { c.MaxSnapshotBytes = 1 })
	bytesCapped.mustCall("", "snapshot.save", `{"name":"a"}`)
	r := bytesCapped.mustCall("", "snapshot.save", `{"name":"b"}`)
	if d, _ := r["deleted"].([]any); len(d) != 1 {
		t.Fatalf("a byte cap deletes the older: %v", r)
	}
	if n := len(snapshotList(t, bytesCapped)); n != 1 {
		t.Fatalf("the newest is always kept, alone: %d", n)
	}
}

// snapshotList is snapshot.list's reply: a bare array.
func snapshotList(t *testing.T, h *harness) []any {
	t.Helper()
	reply, err := h.sys.Invoke(context.Background(), &messages.Envelope{Op: "snapshot.list", Input: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(reply.Body)
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("snapshot.list: %s", b)
	}
	return out
}
