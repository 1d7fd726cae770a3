package content_test

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/internal/mcpappfixture"
	"github.com/pmxcanvas/pmx-canvas/internal/testenv"
)

// TestMain first lets the test binary serve as the stdio MCP-App fixture
// (the app tests start it as their app server), then runs the tests.
func TestMain(m *testing.M) {
	mcpappfixture.MaybeRunChild()
	testenv.Main(m)
}
