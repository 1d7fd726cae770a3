package pmxcanvas

import (
	"context"
	"fmt"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The trace state is an event on the stream, and a connection made while
// the trace is on starts with it; generic intents are queued, the newest
// 120 kept, each sent as workbench-intent.
func TestTraceStateAndIntentQueue(t *testing.T) {
	c := openT(t)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	sub := must[*Subscription](t)(c.Subscribe(ctx, SubscribeOptions{}))
	defer sub.Close()
	for range 4 {
		next(t, sub)
	}
	toggle := "trace-toggle"
	must[*messages.IntentResult](t)(c.WorkbenchIntent(bg, &messages.WorkbenchIntentInput{Type: &toggle, Payload: map[string]any{"enabled": true}}))
	var st struct {
		Enabled bool `json:"enabled"`
	}
	if ev := next(t, sub); ev.Name != "trace-state" || ev.Decode(&st) != nil || !st.Enabled {
		t.Fatalf("after toggle: %s %s", ev.Name, ev.Data)
	}
	late := must[*Subscription](t)(c.Subscribe(ctx, SubscribeOptions{}))
	defer late.Close()
	var burst []string
	for range 5 {
		burst = append(burst, next(t, late).Name)
	}
	if burst[4] != "trace-state" {
		t.Fatalf("connect burst while the trace is on: %v", burst)
	}

	typ := "open-aux"
	for i := range messages.IntentQueueMax + 10 {
		must[*messages.IntentResult](t)(c.WorkbenchIntent(bg, &messages.WorkbenchIntentInput{Type: &typ, Payload: map[string]any{"i": i}}))
	}
	if ev := next(t, sub); ev.Name != "workbench-intent" {
		t.Fatalf("a generic intent's event: %s", ev.Name)
	}
	list := must[*messages.IntentList](t)(c.WorkbenchIntents(bg, nil))
	if len(list.Intents) != messages.IntentQueueMax || fmt.Sprint(list.Intents[0].Payload["i"]) != "10" || !list.TraceEnabled {
		t.Fatalf("queue: %d intents, first %v", len(list.Intents), list.Intents[0].Payload)
	}
	after := list.Intents[len(list.Intents)-3].ID
	if tail := must[*messages.IntentList](t)(c.WorkbenchIntents(bg, &messages.WorkbenchIntentsInput{After: after})); len(tail.Intents) != 2 {
		t.Fatalf("after %s: %d intents", after, len(tail.Intents))
	}
}
