package actors

import (
	"encoding/json"
	"reflect"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// AX event names (the reference's SSE event names).
const (
	evAxStateChanged = "ax-state-changed"
	evAxEventCreated = "ax-event-created"
	evAxInteraction  = "ax-interaction"
)

// axSource is the AX source label of a call: the input's label when it is
// a known one, else the surface's ("api" over HTTP, "mcp", "cli", ...).
func axSource(label string, env *messages.Envelope) string {
	fallback := env.Source
	if fallback == "" {
		fallback = "api"
	}
	return ax.NormalizeSource(label, ax.NormalizeSource(fallback, "api"))
}

// okBody is {ok:true, key:value}.
func okBody(key string, value any) map[string]any {
	return map[string]any{"ok": true, key: value}
}

// emitAX sends one AX frame to the Events actor, behind every frame sent
// before it.
func (r *canvasRef) emitAX(ctx actor.Context, name string, data map[string]any) {
	ctx.Send(r.eventsPID.Load(), &publish{items: []publishItem{{events: []canvas.Event{{Name: name, Data: data}}}}})
}

// runPure runs a pure AX handler. If it panics, the caller gets a 500 and
// the panic is re-raised so the supervisor restarts the actor; its state is
// untouched because the handler returned nothing.
func runPure[T any](ctx actor.Context, ref *canvasRef, actorName string, env *messages.Envelope, h func() (T, *messages.Error)) (out T, err *messages.Error) {
	defer func() {
		if r := recover(); r != nil {
			ref.sys.cfg.Logger.Error(actorName+" handler panicked; restarting the actor",
				"canvas", ref.id, "op", env.Op, "panic", r)
			ctx.Respond(&invokeResult{err: messages.Internal("Internal error processing the request.")})
			panic(r)
		}
	}()
	if panicHook != nil {
		panicHook(env)
	}
	return h()
}

// recordOrds remembers each canvas-bound record's ordinal (its place in
// list order in the store).
type recordOrds struct {
	ord  map[string]uint64
	next uint64
}

// listOps appends the store records for a list change. Records keep their
// ordinal while the list keeps their order; a record that moved or is new
// gets a fresh one, so ordinals always increase along the list.
func listOps[T comparable](ops []persistence.Op, cid, kind string, ords *recordOrds, old, next []T, id func(T) string) []persistence.Op {
	if ords.ord == nil {
		ords.ord = map[string]uint64{}
	}
	prev := make(map[string]T, len(old))
	for _, r := range old {
		prev[id(r)] = r
	}
	var last uint64
	seen := make(map[string]bool, len(next))
	for _, r := range next {
		k := id(r)
		seen[k] = true
		o, had := ords.ord[k]
		p, existed := prev[k]
		if had && existed && o > last {
			last = o
			if p != r {
				ops = append(ops, persistence.AxPut(cid, kind, k, o, r))
			}
			continue
		}
		ords.next++
		o = ords.next
		ords.ord[k] = o
		last = o
		ops = append(ops, persistence.AxPut(cid, kind, k, o, r))
	}
	for _, r := range old {
		if k := id(r); !seen[k] {
			delete(ords.ord, k)
			ops = append(ops, persistence.AxDelete(cid, kind, k))
		}
	}
	return ops
}

// upsert returns list with item replacing the record of the same id, or
// appended. The list itself is never modified.
func upsert[T any](list []T, item T, id func(T) string) []T {
	k := id(item)
	out := make([]T, len(list), len(list)+1)
	copy(out, list)
	for i, r := range out {
		if id(r) == k {
			out[i] = item
			return out
		}
	}
	return append(out, item)
}

// find returns the record with id k, or the zero value.
func find[T any](list []T, k string, id func(T) string) T {
	for _, r := range list {
		if id(r) == k {
			return r
		}
	}
	var zero T
	return zero
}

func sameList[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameSlice(a, b []string) bool { return reflect.DeepEqual(a, b) || (len(a) == 0 && len(b) == 0) }

// orphanMemory keeps, per deleted node, what deleting it took from AX
// state, for an undo of the deletion. It is bounded: the oldest entries go
// first (undo reaches back at most canvas.HistoryLimit steps anyway).
type orphanMemory[T any] struct {
	byNode map[string]T
	order  []string
}

const orphanMemoryLimit = 4 * canvas.HistoryLimit

func (m *orphanMemory[T]) put(node string, v T) {
	if m.byNode == nil {
		m.byNode = map[string]T{}
	}
	if _, ok := m.byNode[node]; !ok {
		m.order = append(m.order, node)
	}
	m.byNode[node] = v
	for len(m.order) > orphanMemoryLimit {
		delete(m.byNode, m.order[0])
		m.order = m.order[1:]
	}
}

func (m *orphanMemory[T]) take(node string) (T, bool) {
	v, ok := m.byNode[node]
	if ok {
		delete(m.byNode, node)
	}
	return v, ok
}

// decodePatchFocus reads PATCH /api/canvas/ax's focus object.
func decodePatchFocus(raw json.RawMessage) (*messages.AxFocusInput, *messages.Error) {
	var probe any
	if len(raw) == 0 || json.Unmarshal(raw, &probe) != nil {
		return nil, messages.BadRequest("PATCH /api/canvas/ax currently requires a focus object.")
	}
	if _, ok := probe.(map[string]any); !ok {
		return nil, messages.BadRequest("PATCH /api/canvas/ax currently requires a focus object.")
	}
	var in messages.AxFocusInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, messages.InvalidInput("focus: %v", err).With("field", "focus")
	}
	return &in, nil
}

// removedNode is a node a committed layout write deleted.
type removedNode struct {
	id, title string
}

// axSwapTarget is a wholesale replacement of the canvas-bound AX state.
type axSwapTarget struct {
	target ax.State
	// revert merges (undo of a restore or clear that ran at since) instead
	// of replacing.
	revert bool
	since  string
	reason string
}

// axEffect is what a committed layout write means for the AX state. Layout
// sends it to AxState, which passes it to Gates, which passes it to
// Timeline when an audit note is due; the last one answers the write's
// caller, so the caller reads its own write in the AX state too.
type axEffect struct {
	removed []removedNode
	// audit asks for the orphan audit note (not on undo or redo).
	audit    bool
	restored []string
	swap     *axSwapTarget
	focus    *string // node.focus sets the AX focus to this node

	// Filled in along the chain.
	boardOrphans []ax.Orphaned
	gateOrphans  [][]string
	boardChanged bool

	waiters []*actor.PID
	reply   *messages.Reply
}

// finish answers the layout write's callers.
func (e *axEffect) finish(ctx actor.Context, err *messages.Error) {
	for _, w := range e.waiters {
		if err != nil {
			ctx.Send(w, &invokeResult{err: err})
		} else {
			ctx.Send(w, &invokeResult{reply: e.reply})
		}
	}
	e.waiters = nil
}

// reason names the effect in its ax-state-changed frame.
func (e *axEffect) reason() string {
	switch {
	case e.swap != nil:
		return e.swap.reason
	case len(e.removed) > 0:
		return "node-removed"
	case len(e.restored) > 0:
		return "node-restored"
	}
	return "focus"
}
