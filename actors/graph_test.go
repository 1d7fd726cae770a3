package actors

import (
	"slices"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/content/graphspec"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The chart kinds the contract advertises are the ones graphspec builds.
func TestGraphTypesMatchTheBuilder(t *testing.T) {
	if !slices.Equal(messages.GraphTypes, graphspec.Types) {
		t.Errorf("messages.GraphTypes %v != graphspec.Types %v", messages.GraphTypes, graphspec.Types)
	}
}
