package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestEventStreamFramingAndConnectBurst(t *testing.T) {
	p := startServer(t, "", "--sse-ping", "300ms")
	s := p.openStream("?session=abc")
	if h := s.res.Header; h.Get("Cache-Control") != "no-cache, no-store, must-revalidate" || h.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("stream headers %v", h)
	}
	want := []string{"connected", "mcp-app-host-snapshot", "canvas-layout-update", "context-pins-changed"}
	var head string
	for i, name := range want {
		f := s.next(t)
		if f.event != name {
			t.Fatalf("frame %d is %q, want %q", i, f.event, name)
		}
		if i == 0 {
			head = f.id
			if f.data["continuity"] != "rotated" || f.data["requestedSessionId"] != "abc" || !strings.HasPrefix(f.data["sessionId"].(string), "pmx-") {
				t.Fatalf("connected payload %v", f.data)
			}
		}
		if f.id != head {
			t.Fatalf("connect-burst frames carry the head event number %s, got %s", head, f.id)
		}
		if name == "canvas-layout-update" {
			nodes := f.data["layout"].(map[string]any)["nodes"].([]any)
			if len(nodes) != 2 {
				t.Fatalf("connect layout has %d nodes", len(nodes))
			}
			if _, derived := nodes[0].(map[string]any)["kind"]; derived {
				t.Fatal("SSE layout frames carry raw nodes")
			}
		}
	}
	// Pings arrive on the configured interval with ts and sessionId.
	deadline := time.After(5 * time.Second)
	for {
		select {
		case f := <-s.frames:
			if f.event == "ping" {
				if _, ok := f.data["ts"].(float64); !ok || f.id != head {
					t.Fatalf("ping %v id %s", f.data, f.id)
				}
				return
			}
			t.Fatalf("unexpected frame %s", f.event)
		case <-deadline:
			t.Fatal("no ping")
		}
	}
}

func TestOneLayoutFramePerMutationAndNoneForReads(t *testing.T) {
	p := startServer(t, "")
	s := p.openStream("")
	for i := 0; i < 4; i++ {
		s.next(t) // connect burst
	}
	a := p.addNode(`{"type":"markdown","title":"A"}`)
	b := p.addNode(`{"type":"markdown","title":"B"}`)
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, a, b))
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"x":1,"y":2}`)
	p.must(200, "DELETE", "/api/canvas/node/"+b, nil)
	// Reads and failed writes emit nothing.
	p.state("")
	p.must(200, "GET", "/api/canvas/node/"+a, nil)
	p.must(400, "POST", "/api/canvas/node", `{}`)
	p.must(404, "DELETE", "/api/canvas/node/nope", nil)

	var prev uint64
	for i := 0; i < 5; i++ {
		f := s.next(t)
		if f.event != "canvas-layout-update" {
			t.Fatalf("frame %d: %s", i, f.event)
		}
		id, _ := strconv.ParseUint(f.id, 10, 64)
		if i > 0 && id != prev+1 {
			t.Fatalf("event ids must be consecutive: %d after %d", id, prev)
		}
		prev = id
		if f.data["sessionId"] == nil || f.data["timestamp"] == nil || f.data["revision"] == nil {
			t.Fatalf("payload envelope: %v", f.data)
		}
	}
	s.quiet(t, 300*time.Millisecond)
}

func TestResumeWithLastEventID(t *testing.T) {
	p := startServer(t, "")
	s := p.openStream("")
	for i := 0; i < 4; i++ {
		s.next(t)
	}
	p.addNode(`{"type":"markdown","title":"one"}`)
	seen := s.next(t)
	s.close() // the connection drops
	p.addNode(`{"type":"markdown","title":"two"}`)
	p.addNode(`{"type":"markdown","title":"three"}`)

	r := p.openStream("", "Last-Event-ID", seen.id)
	c := r.next(t)
	if c.event != "connected" || c.data["resumed"] != true || c.data["replayed"] != 2.0 || c.id != seen.id {
		t.Fatalf("resume connected frame: id=%s %v", c.id, c.data)
	}
	last := seen.id
	for _, title := range []string{"two", "three"} {
		f := r.next(t)
		n, _ := strconv.Atoi(f.id)
		l, _ := strconv.Atoi(last)
		if f.event != "canvas-layout-update" || n != l+1 {
			t.Fatalf("replayed %s id %s after %s", f.event, f.id, last)
		}
		nodes := f.data["layout"].(map[string]any)["nodes"].([]any)
		if got := nodes[len(nodes)-1].(map[string]any)["data"].(map[string]any)["title"]; got != title {
			t.Fatalf("replayed frame shows %v, want %q", got, title)
		}
		last = f.id
	}
	// Live events continue after the replay.
	p.addNode(`{"type":"markdown","title":"four"}`)
	if f := r.next(t); f.event != "canvas-layout-update" {
		t.Fatalf("live after replay: %s", f.event)
	}

	// An id the server never issued (or one that fell out of the ring)
	// gets a fresh connect burst with the full layout.
	q := p.openStream("?lastEventId=99999999999")
	if c := q.next(t); c.data["resumed"] != false {
		t.Fatalf("unknown id resumed: %v", c.data)
	}
	if f := q.next(t); f.event != "mcp-app-host-snapshot" {
		t.Fatalf("fresh burst: %s", f.event)
	}
	if f := q.next(t); f.event != "canvas-layout-update" || len(f.data["layout"].(map[string]any)["nodes"].([]any)) != 6 {
		t.Fatalf("fresh layout: %v", f.data)
	}
}

func TestStreamTooFarBehindGetsFreshLayout(t *testing.T) {
	p := startServer(t, "")
	s := p.openStream("")
	first := s.next(t)
	for i := 0; i < 1100; i++ { // more than the 1024-event replay ring
		p.must(200, "POST", "/api/canvas/node", `{"type":"status","x":0,"y":0}`)
	}
	r := p.openStream("", "Last-Event-ID", first.id)
	if c := r.next(t); c.data["resumed"] != false {
		t.Fatalf("a client past the ring cannot resume: %v", c.data)
	}
	r.next(t)
	if f := r.next(t); f.event != "canvas-layout-update" || len(f.data["layout"].(map[string]any)["nodes"].([]any)) != 1102 {
		t.Fatalf("fresh layout frame: %s", f.event)
	}
}

// A client that connects to the event stream and never reads is dropped
// once its socket stays full for the write timeout, instead of pinning
// kernel memory and a goroutine for as long as it lives; a client that
// reads keeps receiving every change.
func TestSlowSubscribersAreDropped(t *testing.T) {
	p := startServer(t, "", "--sse-write-timeout", "2s")
	content := strings.Repeat("x", 2000)
	for b := 0; b < 3; b++ {
		var ops []string
		for i := 0; i < 500; i++ {
			ops = append(ops, fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"n%d-%d","content":%q}}`, b, i, content))
		}
		p.must(200, "POST", "/api/canvas/batch", "{\"operations\":["+strings.Join(ops, ",")+"]}")
	}
	addr := strings.TrimPrefix(p.url, "http://")
	var stuck []*net.TCPConn
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		tc := c.(*net.TCPConn)
		_ = tc.SetReadBuffer(4096)
		if _, err := fmt.Fprintf(tc, "GET /api/workbench/events HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
			t.Fatal(err)
		}
		stuck = append(stuck, tc)
		t.Cleanup(func() { _ = tc.Close() })
	}
	reader := p.openStream("")
	var last string
	for i := 0; i < 20; i++ {
		last = p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"w`+strconv.Itoa(i)+`"}`).str("id")
	}
	// The reading client sees the last write.
	for {
		f := reader.next(t)
		if f.event == "canvas-layout-update" && strings.Contains(fmt.Sprint(f.data), last) {
			break
		}
	}
	// Each stuck client was cut off: reading it now ends (the server
	// closed it) long before the ~60 MB the writes would have sent.
	for i, c := range stuck {
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
		n, err := io.Copy(io.Discard, c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("stuck client %d was never dropped (%d bytes read)", i, n)
		}
		if n > 40<<20 {
			t.Fatalf("stuck client %d received %d bytes: not dropped", i, n)
		}
	}
}

// ?changes=1 sends the full layout once, then one canvas-changes frame per
// commit with only what changed (named by agent, numbered like the layout
// frame it stands for); the reference stream never sees canvas-changes.
func TestChangesStream(t *testing.T) {
	p := startServer(t, "")
	legacy := p.openStream("")
	s := p.openStream("?changes=1")
	for _, st := range []*sseStream{legacy, s} {
		want := []string{"connected", "mcp-app-host-snapshot", "canvas-layout-update", "context-pins-changed"}
		for i, name := range want {
			if f := st.next(t); f.event != name {
				t.Fatalf("frame %d is %s, want %s", i, f.event, name)
			}
		}
	}
	a := p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"A"}`, "X-PMX-Agent", "alice").str("id")
	f := s.next(t)
	if f.event != "canvas-changes" || f.data["agent"] != "alice" {
		t.Fatalf("first change frame: %s %v", f.event, f.data)
	}
	nodes := f.data["nodes"].([]any)
	if len(nodes) != 1 || nodes[0].(map[string]any)["id"] != a || f.data["baseRevision"].(float64)+1 != f.data["revision"].(float64) {
		t.Fatalf("add frame: %v", f.data)
	}
	if l := legacy.next(t); l.event != "canvas-layout-update" || l.id != f.id {
		t.Fatalf("the reference stream got %s id %s (change frame id %s)", l.event, l.id, f.id)
	}

	b := p.addNode(`{"type":"markdown","title":"B"}`)
	s.next(t)
	e := p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow"}`, a, b)).str("id")
	if f := s.next(t); len(f.data["edges"].([]any)) != 1 || len(f.data["nodes"].([]any)) != 0 {
		t.Fatalf("edge frame: %v", f.data)
	}
	// Pins have their own frame on both streams (no layout changes).
	p.must(200, "POST", "/api/canvas/context-pins", fmt.Sprintf(`{"nodeIds":[%q]}`, b))
	if f := s.next(t); f.event != "context-pins-changed" || f.data["nodeIds"].([]any)[0] != b {
		t.Fatalf("pin frame: %s %v", f.event, f.data)
	}
	p.must(200, "DELETE", "/api/canvas/node/"+b, nil)
	for f = s.next(t); f.event != "canvas-changes"; f = s.next(t) {
	}
	if removed := f.data["removedNodes"].([]any); len(removed) != 1 || removed[0] != b {
		t.Fatalf("delete frame: %v", f.data)
	}
	if removed := f.data["removedEdges"].([]any); len(removed) != 1 || removed[0] != e {
		t.Fatalf("the node's edge is removed with it: %v", f.data)
	}

	// Resuming a changes stream replays change frames, not layouts.
	last := f.id
	s.close()
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"x":5,"y":6}`)
	r := p.openStream("?changes=1", "Last-Event-ID", last)
	if c := r.next(t); c.data["resumed"] != true || c.data["replayed"] != 1.0 {
		t.Fatalf("resume: %v", c.data)
	}
	if f := r.next(t); f.event != "canvas-changes" || f.data["nodes"].([]any)[0].(map[string]any)["position"].(map[string]any)["x"] != 5.0 {
		t.Fatalf("replayed change: %s %v", f.event, f.data)
	}
	deadline := time.After(300 * time.Millisecond)
	for {
		select {
		case f, ok := <-legacy.frames:
			if !ok {
				t.Fatal("the reference stream closed")
			}
			if f.event == "canvas-changes" {
				t.Fatal("the reference stream got a canvas-changes frame")
			}
		case <-deadline:
			return
		}
	}
}
