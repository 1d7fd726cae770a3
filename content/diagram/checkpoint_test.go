package diagram

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestCheckpointID(t *testing.T) {
	long := strings.Repeat("a", 100)
	tests := []struct {
		seed, want string
	}{
		{"ext-app-123", "pmx-ext-app-123"},
		{"node_1", "pmx-node_1"},
		{"My Diagram!", "pmx-My-Diagram"},
		{"a  /\\.b", "pmx-a-b"},
		{"a---b", "pmx-a-b"},
		{"--a--", "pmx-a"},
		{"  spaced  ", "pmx-spaced"},
		{"ünïcode", "pmx-n-code"},
		{"<script>", "pmx-script"},
		{"", "pmx-diagram"},
		{"!!!", "pmx-diagram"},
		{"---", "pmx-diagram"},
		{strings.Repeat("b", 80), "pmx-" + strings.Repeat("b", 80)},
	}
	for _, tt := range tests {
		t.Run(tt.seed, func(t *testing.T) {
			if got := CheckpointID(tt.seed); got != tt.want {
				t.Errorf("CheckpointID(%q) = %q, want %q", tt.seed, got, tt.want)
			}
		})
	}
	valid := regexp.MustCompile(`^pmx-[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?$`)
	a, b := CheckpointID(long), CheckpointID(long+"x")
	if a == b {
		t.Errorf("long seeds collide: %q", a)
	}
	for _, id := range []string{a, b} {
		if len(id) > len("pmx-")+80 || !valid.MatchString(id) {
			t.Errorf("long seed gave %q (%d)", id, len(id))
		}
	}
	if a != CheckpointID(long) {
		t.Error("CheckpointID is not stable")
	}
}

func TestRestoreElements(t *testing.T) {
	restore := map[string]any{"type": "restoreCheckpoint", "id": "pmx-n"}
	tests := []struct {
		name   string
		camera map[string]any
		want   map[string]any
	}{
		{"4:3 kept", cam(10, 20, 800, 600), cam(10, 20, 800, 600)},
		{"too wide gets taller", cam(0, 0, 800, 300), cam(0, -150, 800, 600)},
		{"too tall gets wider", cam(0, 0, 300, 600), cam(-250, 0, 800, 600)},
		{"no camera", nil, cam(-200, -150, 400, 300)},
		{"zero size", cam(0, 0, 0, 300), cam(-200, -150, 400, 300)},
		{"not numbers", map[string]any{"width": "800", "height": 600.0}, cam(-200, -150, 400, 300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RestoreElements("pmx-n", tt.camera)
			want := []map[string]any{restore, tt.want}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
	// The camera is a fresh map.
	c := cam(0, 0, 400, 300)
	RestoreElements("x", c)[1]["x"] = 99.0
	if c["x"] != 0.0 {
		t.Error("RestoreElements shares the caller's camera")
	}
}
