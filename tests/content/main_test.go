package content_test

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
