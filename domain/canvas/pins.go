package canvas

import (
	"slices"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// MaxContextPins caps the context pins of a canvas.
const MaxContextPins = 20

// PinResult is pin.set's reply.
type PinResult struct {
	OK      bool     `json:"ok"`
	Count   int      `json:"count"`
	NodeIDs []string `json:"nodeIds"`
}

// SetContextPins changes the context pins ("what matters now" for the
// agent): mode set (default) replaces them, add appends, remove removes.
// Unlike the reference, which silently dropped unknown ids and truncated at
// 20, unknown ids and a result over 20 pins are a 400 naming the problem.
func SetContextPins(tx *Tx, in *messages.PinSetInput) (PinResult, *messages.Error) {
	mode := "set"
	if in.Mode != nil && *in.Mode != "" {
		mode = *in.Mode
	}
	var req []string
	for _, id := range in.NodeIDs {
		if !slices.Contains(req, id) {
			req = append(req, id)
		}
	}
	st := tx.State()
	if mode != "remove" {
		var missing []string
		for _, id := range req {
			if _, ok := st.Nodes.Get(id); !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return PinResult{}, messages.BadRequest("Cannot pin: unknown node ID(s): %s.", strings.Join(missing, ", "))
		}
	}
	var next []string
	switch mode {
	case "set":
		next = req
	case "add":
		next = slices.Clone(st.Pins)
		for _, id := range req {
			if !slices.Contains(next, id) {
				next = append(next, id)
			}
		}
	case "remove":
		for _, id := range st.Pins {
			if !slices.Contains(req, id) {
				next = append(next, id)
			}
		}
	default:
		return PinResult{}, messages.BadRequest("Invalid pin mode: %q. Use: set, add, remove", mode)
	}
	if len(next) > MaxContextPins {
		return PinResult{}, messages.BadRequest("Cannot pin %d nodes: at most %d context pins are allowed.", len(next), MaxContextPins)
	}
	if next == nil {
		next = []string{}
	}
	tx.SetPins(next)
	tx.Describe("setPins", "Set context pins ("+itoa(len(next))+" nodes)")
	tx.Emit(Event{Name: EventPinsChanged, Data: map[string]any{"count": len(next), "nodeIds": next}})
	return PinResult{OK: true, Count: len(next), NodeIDs: next}, nil
}
