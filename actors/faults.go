package actors

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// messageFaultHook, when set (tests only), runs at the top of every canvas
// actor's Receive with the actor's name and the message it got; it may
// panic to inject a fault at exactly that actor and message kind.
var messageFaultHook atomic.Pointer[func(actorName string, msg any)]

func injectFault(name string, ctx actor.Context) {
	if h := messageFaultHook.Load(); h != nil {
		(*h)(name, ctx.Message())
	}
}

// answerPanics, deferred at the top of an actor's Receive, answers the
// request a panicking actor was handling before the panic restarts it: a
// call, a parked wait or a delivery claim gets a 500 instead of sitting
// out its deadline (the message that panicked is not delivered again).
func answerPanics(ctx actor.Context) {
	r := recover()
	if r == nil {
		return
	}
	err := messages.Internal("internal error while handling the request (%v); it may or may not have been applied", r)
	switch m := ctx.Message().(type) {
	case *invokeRequest, *subscribe:
		ctx.Respond(&invokeResult{err: err})
	case *awaitGate:
		m.reply <- &invokeResult{err: err}
	case *claimSteering:
		m.reply <- &invokeResult{err: err}
	}
	panic(r)
}

// reloadCanvas asks a canvas supervisor to reload the canvas from the
// store, failing every pending write and wait: sent when an actor finds it
// cannot vouch for what it holds (a write the Journal never received).
type reloadCanvas struct{ reason string }
