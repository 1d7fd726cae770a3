package canvas

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func traceIn(phase, name, id string) *messages.TraceRecordInput {
	return &messages.TraceRecordInput{Phase: &phase, Name: name, ToolCallID: id}
}

// The trace grid, its flow edges and their animation, durations, the
// subagent spawn edge and the cap, as domain.md §2.5 says.
func TestTraceManager(t *testing.T) {
	env := testEnv()
	clock := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	env.Now = func() time.Time { return clock }
	s := NewState()
	tx := Begin(s, env)
	mustAdd(t, tx, `{"type":"markdown","title":"A","x":0,"y":0,"width":100,"height":300}`)
	old := mustAdd(t, tx, `{"type":"trace","toolName":"earlier","x":0,"y":5000}`)
	s, _, _ = tx.Commit()

	tr := SetTraceEnabled(Trace{}, s, true)
	if tr.OriginX != 40 || tr.OriginY != 380 || len(tr.Pills) != 1 || tr.Pills[0] != old.ID {
		t.Fatalf("origin %v,%v, want 40,380 (below the non-trace nodes); pills %v", tr.OriginX, tr.OriginY, tr.Pills)
	}
	var ids []string
	for i := 0; i < 7; i++ {
		tx := Begin(s, env)
		var id string
		var err *messages.Error
		tr, id, err = RecordTrace(tx, tr, traceIn("start", "Read", "c"+itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ = tx.Commit()
		ids = append(ids, id)
	}
	for i, id := range ids {
		n, _ := s.Nodes.Get(id)
		wx, wy := 40+float64(i%6)*224, 380+float64(i/6)*136
		if n.Position.X != wx || n.Position.Y != wy || n.Size != (Size{200, 56}) || !n.Pinned || n.Data["status"] != "running" || n.Data["category"] != "file" {
			t.Errorf("pill %d: %+v at %v, want (%v,%v)", i, n.Data, n.Position, wx, wy)
		}
	}
	if s.Edges.Len() != 6 {
		t.Fatalf("%d flow edges, want 6", s.Edges.Len())
	}

	// Finishing c1 after 1.5 s: success, duration, its incoming edge stops.
	clock = clock.Add(1500 * time.Millisecond)
	tx = Begin(s, env)
	ok := true
	fin := traceIn("finish", "", "c1")
	fin.Success, fin.ResultSummary = &ok, "done"
	tr, id, err := RecordTrace(tx, tr, fin)
	if err != nil || id != ids[1] {
		t.Fatalf("finish: %v %v", id, err)
	}
	s, _, _ = tx.Commit()
	n, _ := s.Nodes.Get(ids[1])
	if n.Data["status"] != "success" || n.Data["duration"] != "1.5s" || n.Data["resultSummary"] != "done" {
		t.Fatalf("finished pill: %+v", n.Data)
	}
	for _, eid := range s.Edges.Touching(ids[1]) {
		e, _ := s.Edges.Get(eid)
		if want := e.From == ids[1]; *e.Animated != want {
			t.Errorf("edge %s→%s animated %v", e.From, e.To, *e.Animated)
		}
	}
	// A finish by name with an error, no id.
	tx = Begin(s, env)
	tr, _, _ = RecordTrace(tx, tr, traceIn("start", "mcp_tool", ""))
	s, _, _ = tx.Commit()
	tx = Begin(s, env)
	failed := traceIn("finish", "mcp_tool", "")
	failed.Error = "boom"
	tr, id, _ = RecordTrace(tx, tr, failed)
	s, _, _ = tx.Commit()
	if n, _ := s.Nodes.Get(id); n.Data["status"] != "failed" || n.Data["error"] != "boom" || n.Data["duration"] != "0ms" {
		t.Fatalf("failed pill: %+v", n.Data)
	}

	// A subagent hangs below the grid under its parent, on a spawn edge.
	tx = Begin(s, env)
	sub := traceIn("start", "explore", "s1")
	sub.ParentToolCallID = "c3"
	tr, id, _ = RecordTrace(tx, tr, sub)
	s, _, _ = tx.Commit()
	parent, _ := s.Nodes.Get(ids[3])
	child, _ := s.Nodes.Get(id)
	if child.Position.X != parent.Position.X || child.Position.Y <= 380+136 || child.Data["category"] != "subagent" {
		t.Fatalf("subagent at %v (parent %v): %+v", child.Position, parent.Position, child.Data)
	}
	spawn := false
	for _, eid := range s.Edges.Touching(id) {
		e, _ := s.Edges.Get(eid)
		spawn = spawn || (e.From == ids[3] && e.Label == "spawn")
	}
	if !spawn {
		t.Fatal("no spawn edge from the parent")
	}

	// The cap: the oldest pills go.
	for i := 0; i < messages.TraceNodesMax; i++ {
		tx := Begin(s, env)
		tr, _, _ = RecordTrace(tx, tr, traceIn("start", "Bash", "x"+itoa(i)))
		s, _, _ = tx.Commit()
	}
	count := 0
	s.Nodes.Each(func(n *Node) bool {
		if n.Type == "trace" {
			count++
		}
		return true
	})
	_, earlier := s.Nodes.Get(old.ID)
	if _, still := s.Nodes.Get(ids[0]); count != messages.TraceNodesMax || still || earlier || len(tr.Pills) != messages.TraceNodesMax {
		t.Fatalf("%d trace nodes (first still there: %v), want %d", count, still, messages.TraceNodesMax)
	}

	tx = Begin(s, env)
	tr, removed := ClearTrace(tx, tr)
	s, _, _ = tx.Commit()
	if removed != messages.TraceNodesMax || s.Nodes.Len() != 1 || s.Edges.Len() != 0 || len(tr.Pills) != 0 {
		t.Fatalf("clear removed %d, left %d nodes %d edges", removed, s.Nodes.Len(), s.Edges.Len())
	}
	for _, bad := range []*messages.TraceRecordInput{traceIn("", "x", ""), traceIn("begin", "x", ""), traceIn("start", " ", "")} {
		if _, _, err := RecordTrace(Begin(s, env), tr, bad); err == nil || err.Extra["field"] == nil {
			t.Errorf("%+v accepted or unnamed: %v", bad, err)
		}
	}
}

func TestTraceCategoryAndDuration(t *testing.T) {
	for _, c := range [][3]string{{"Read", "", "file"}, {"bash_run", "", "file"}, {"canvas_add_node", "pmx", "mcp"}, {"think", "", "other"}} {
		if got := TraceCategory(c[0], c[1]); got != c[2] {
			t.Errorf("TraceCategory(%q, %q) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
	for ms, want := range map[int64]string{0: "0ms", 999: "999ms", 1000: "1.0s", 12345: "12.3s"} {
		if got := TraceDuration(ms); got != want {
			t.Errorf("TraceDuration(%d) = %s, want %s", ms, got, want)
		}
	}
}

// A prompt thread: creation with its edges, the answer streamed in, a
// reply, the turn cap and the refusals.
func TestPromptThread(t *testing.T) {
	env := testEnv()
	s := NewState()
	tx := Begin(s, env)
	a := mustAdd(t, tx, `{"type":"markdown","title":"A"}`)
	b := mustAdd(t, tx, `{"type":"markdown","title":"B"}`)
	tx.SetPins([]string{b.ID})
	s, _, _ = tx.Commit()

	text := "  why?  "
	tx = Begin(s, env)
	n, q, err := CreatePrompt(tx, &messages.PromptInput{Text: &text, ParentNodeID: a.ID})
	if err != nil || q != "why?" {
		t.Fatal(q, err)
	}
	s, _, evs := tx.Commit()
	if n.Size != (Size{520, 400}) || n.Position != (Point{380, 1260}) || n.Data["threadStatus"] != "pending" {
		t.Fatalf("prompt node: %+v", n)
	}
	if _, ok := s.Edges.Get("edge-" + a.ID + "-" + n.ID); !ok {
		t.Fatal("no parent edge")
	}
	if e, ok := s.Edges.Get("edge-ctx-" + b.ID + "-" + n.ID); !ok || e.Type != "references" || e.Style != "dashed" {
		t.Fatalf("context edge (the pin by default): %+v", e)
	}
	if len(evs) != 2 || evs[0].Name != EventPromptCreated || evs[1].Name != EventLayoutUpdate {
		t.Fatalf("events %+v", evs)
	}

	respond := func(text string, done bool) (*Node, []Event, *messages.Error) {
		tx := Begin(s, env)
		n, err := RespondPrompt(tx, &messages.PromptRespondInput{NodeID: n.ID, Text: &text, Done: &done})
		if err == nil {
			var evs []Event
			s, _, evs = tx.Commit()
			return n, evs, nil
		}
		return nil, nil, err
	}
	got, evs, err := respond("Be", false)
	if err != nil || got.Data["threadStatus"] != "streaming" || evs[0].Name != EventResponseStart || evs[1].Name != EventResponseDelta {
		t.Fatalf("first piece: %+v %+v %v", got, evs, err)
	}
	got, evs, _ = respond("cause.", true)
	turns := got.Data["turns"].([]any)
	if len(turns) != 2 || turns[1].(map[string]any)["text"] != "Because." || got.Data["threadStatus"] != "answered" || evs[len(evs)-2].Name != EventResponseDone {
		t.Fatalf("answered: %+v %+v", got.Data, evs)
	}
	if _, _, err := respond("more", true); err == nil {
		t.Fatal("an answered thread took another answer")
	}

	reply := "and?"
	for i := 2; i < messages.PromptTurnsMax; i++ {
		tx := Begin(s, env)
		if _, _, err := CreatePrompt(tx, &messages.PromptInput{Text: &reply, ThreadNodeID: n.ID}); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		s, _, _ = tx.Commit()
	}
	if _, _, err := CreatePrompt(Begin(s, env), &messages.PromptInput{Text: &reply, ThreadNodeID: n.ID}); err == nil || err.Message != "Thread has reached the maximum number of turns" {
		t.Fatalf("turn 101: %v", err)
	}
	blank := " "
	for _, in := range []*messages.PromptInput{{Text: &blank}, {}, {Text: &reply, ThreadNodeID: a.ID}, {Text: &reply, ParentNodeID: "nope"}} {
		if _, _, err := CreatePrompt(Begin(s, env), in); err == nil || err.Extra["field"] == nil {
			t.Errorf("%+v: %v", in, err)
		}
	}
}

// Any decoded input to the trace manager and the prompt thread either
// applies or is refused with a field named; nothing panics.
func FuzzTraceAndPrompt(f *testing.F) {
	f.Add(`{"phase":"start","name":"Read","toolCallId":"a"}`, `{"text":"q"}`, `{"text":"x","done":true}`)
	f.Add(`{"phase":"finish","name":"","parentToolCallId":"a"}`, `{"text":" ","threadNodeId":"p"}`, `{"error":"e"}`)
	f.Fuzz(func(t *testing.T, trace, prompt, respond string) {
		env := testEnv()
		s := NewState()
		tr := SetTraceEnabled(Trace{}, s, true)
		for i := 0; i < 3; i++ {
			var in messages.TraceRecordInput
			if json.Unmarshal([]byte(trace), &in) != nil {
				return
			}
			tx := Begin(s, env)
			next, _, err := RecordTrace(tx, tr, &in)
			if err != nil {
				if err.Extra["field"] == nil {
					t.Fatalf("unnamed refusal %v", err)
				}
				continue
			}
			tr = next
			s, _, _ = tx.Commit()
		}
		var pin messages.PromptInput
		if json.Unmarshal([]byte(prompt), &pin) != nil {
			return
		}
		tx := Begin(s, env)
		n, _, err := CreatePrompt(tx, &pin)
		if err != nil {
			if err.Extra["field"] == nil {
				t.Fatalf("unnamed refusal %v", err)
			}
			return
		}
		s, _, _ = tx.Commit()
		var rin messages.PromptRespondInput
		if json.Unmarshal([]byte(respond), &rin) != nil {
			return
		}
		rin.NodeID = n.ID
		for i := 0; i < 2; i++ {
			tx := Begin(s, env)
			if _, err := RespondPrompt(tx, &rin); err != nil {
				return
			}
			s, _, _ = tx.Commit()
		}
	})
}
