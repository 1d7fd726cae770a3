package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The trace manager's feed from MCP: every tools/call on a canvas whose
// trace is on becomes a trace pill, running until the call ends
// (trace.record start, then finish with the result's first line or the
// error). An invoker that can say cheaply whether a canvas's trace is on
// (the local actor system) is asked first, so a call on a canvas without
// a trace costs nothing. Other invokers (a daemon over HTTP) learn it from
// trace.record's reply: after an answer "off" the canvas is not asked
// again for traceRecheck.

// traceTool is trace.record's own tool: recording it would recurse.
const traceTool = "canvas_record_trace"

// traceRecheck is how long a remote canvas whose trace is off is not
// asked again.
const traceRecheck = time.Second

type traceArmer interface{ TraceArmed(canvas string) bool }

var (
	traceOff  sync.Map // "<invoker>|<canvas>" -> time.Time (not before)
	traceCall atomic.Uint64
	traceBoot = time.Now().UnixMilli()
)

// traceStart records the start of tool name on canvas, if its trace is
// on; it returns the call's id ("" when not traced).
func (c *Caller) traceStart(ctx context.Context, canvas, name string) string {
	if name == traceTool {
		return ""
	}
	a, local := c.Invoker.(traceArmer)
	if local && !a.TraceArmed(canvas) {
		return ""
	}
	key := fmt.Sprintf("%p|%s", c.Invoker, canvas)
	if until, ok := traceOff.Load(key); !local && ok && time.Now().Before(until.(time.Time)) {
		return ""
	}
	id := fmt.Sprintf("mcp-%x-%d", traceBoot, traceCall.Add(1))
	res := c.traceRecord(ctx, canvas, map[string]any{"phase": "start", "name": name, "toolCallId": id, "mcpServerName": "pmx-canvas"})
	if res == nil || !res.TraceEnabled {
		traceOff.Store(key, time.Now().Add(traceRecheck))
		return ""
	}
	traceOff.Delete(key)
	return id
}

// traceFinish records the end of a traced call.
func (c *Caller) traceFinish(ctx context.Context, canvas, name, id string, res *Result) {
	in := map[string]any{"phase": "finish", "name": name, "toolCallId": id, "success": !res.IsError}
	line := firstLine(res.Text, 120)
	if res.IsError {
		in["error"] = line
	} else if line != "" {
		in["resultSummary"] = line
	}
	c.traceRecord(context.WithoutCancel(ctx), canvas, in)
}

func (c *Caller) traceRecord(ctx context.Context, canvas string, in map[string]any) *messages.TraceRecordResult {
	raw, _ := json.Marshal(in)
	reply, err := c.Invoker.Invoke(ctx, &messages.Envelope{Canvas: canvas, Op: "trace.record", Source: "mcp", Input: raw})
	if err != nil || reply == nil {
		return nil
	}
	switch b := reply.Body.(type) {
	case *messages.TraceRecordResult:
		return b
	default:
		body, err := messages.BodyJSON(reply.Body)
		if err != nil {
			return nil
		}
		var r messages.TraceRecordResult
		if json.Unmarshal(body, &r) != nil {
			return nil
		}
		return &r
	}
}

// firstLine is s's first non-blank line, at most n runes.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > n {
				return string(r[:n-1]) + "…"
			}
			return l
		}
	}
	return ""
}
