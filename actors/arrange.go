package actors

import (
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// arrangeStep runs arrange inside a batch.
func arrangeStep(tx *canvas.Tx, in *messages.ArrangeInput) (any, *messages.Error) {
	return nil, messages.BadRequest("arrange is not available in this build yet.")
}
