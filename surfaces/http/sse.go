package httpapi

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// clientLabel bounds a subscriber's ?client= label: at most 64 bytes of
// printable text, since every presence reader gets it back.
func clientLabel(s string) string {
	out := make([]rune, 0, len(s))
	n := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			continue
		}
		if n += len(string(r)); n > 64 {
			break
		}
		out = append(out, r)
	}
	return string(out)
}

// events serves GET /api/workbench/events: the canvas's event stream as
// Server-Sent Events. Frames are "id: <event number>\nevent: <name>\ndata:
// <json>\n\n". A client that reconnects with Last-Event-ID (header, or
// ?lastEventId=) gets exactly the events it missed while they are still in
// the canvas's replay ring, and a fresh full layout otherwise.
//
// With ?changes=1 the stream sends, after the first full layout, one
// canvas-changes frame per commit (the nodes, edges and annotations it
// changed) instead of a canvas-layout-update with the whole board; without
// it the stream is the reference's, with no canvas-changes frames.
func (s *Server) events(c *fiber.Ctx) error {
	req := messages.SubscribeRequest{Canvas: c.Query(messages.MetaCanvas, c.Get(HeaderCanvas)), Session: c.Query("session"),
		Changes: c.Query("changes") == "1", Client: clientLabel(c.Query("client")), Acks: true}
	last := c.Get("Last-Event-ID")
	if last == "" {
		last = c.Query("lastEventId")
	}
	if last != "" {
		n, err := strconv.ParseUint(last, 10, 64)
		if err != nil {
			return writeError(c, messages.InvalidInput("Last-Event-ID must be an event number, got %q", last))
		}
		req.LastEventID = &n
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.RequestTimeout)
	sub, err := s.opts.Streamer.Subscribe(ctx, req)
	cancel()
	if err != nil {
		return writeError(c, messages.AsError(err))
	}

	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache, no-store, must-revalidate")
	c.Set("X-Accel-Buffering", "no")
	// The stream writes to the connection itself: one write system call
	// per batch of frames, instead of fasthttp's body pipe, its goroutine
	// and its 4 KiB chunks (several calls per frame per subscriber). The
	// body is delimited by the connection's end, which is also the
	// stream's: nothing else is sent on this connection.
	head := responseHead(c)
	raw := c.Context().Conn() // the TCP connection under fasthttp's hijack wrapper
	s.streams.Add(1)
	c.Context().HijackSetNoResponse(true)
	c.Context().Hijack(func(conn net.Conn) {
		defer s.streams.Done()
		defer sub.Close()
		w := &streamConn{conn: conn, raw: raw, timeout: s.opts.StreamWriteTimeout}
		if w.write(head) != nil {
			return
		}
		if ended := s.stream(w, sub); ended {
			w.reset()
		}
	})
	return nil
}

// responseHead renders the status line and the headers set so far (the
// security headers of every response, and the stream's own), for a
// hijacked connection.
func responseHead(c *fiber.Ctx) []byte {
	var b []byte
	b = append(b, "HTTP/1.1 200 OK\r\n"...)
	c.Response().Header.VisitAll(func(k, v []byte) {
		switch string(k) {
		case fiber.HeaderContentLength, fiber.HeaderConnection, fiber.HeaderTransferEncoding:
			return
		}
		b = append(append(append(append(b, k...), ": "...), v...), "\r\n"...)
	})
	return append(b, "Connection: close\r\n\r\n"...)
}

// streamConn writes an event stream to its connection under a deadline: a
// client that stops reading fills its socket buffers, a write blocks, and
// when it has not finished within the timeout the connection is reset, so
// the kernel memory and the goroutine it held are freed at once (a plain
// close would queue the FIN behind the unread data and keep both for as
// long as the client lives). The client reconnects with Last-Event-ID.
type streamConn struct {
	conn    net.Conn
	raw     net.Conn
	timeout time.Duration
	buf     []byte // the frames' head and tail lines

	// Scratch reused between writes.
	vec      net.Buffers
	ends     []int
	payloads [][]byte
}

// write sends b; a failed or timed-out write resets the connection.
func (w *streamConn) write(b []byte) error {
	_ = w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
	if _, err := w.conn.Write(b); err != nil {
		w.reset()
		return err
	}
	return nil
}

// reset makes the coming close a TCP reset: the unsent frames are
// discarded at once instead of kept in the kernel ahead of the FIN.
func (w *streamConn) reset() {
	if tc, ok := w.raw.(interface{ SetLinger(int) error }); ok {
		_ = tc.SetLinger(0)
	}
}

// frames writes frames with one system call. Each frame's payload is the
// event's shared rendered JSON, handed to the kernel as it is (a gathered
// write): a layout frame goes to a hundred subscribers without a hundred
// copies of it in user space. Only the short "id:/event:/data:" lines are
// rendered per subscriber.
func (w *streamConn) frames(frames []*messages.StreamEvent) error {
	w.buf = w.buf[:0]
	w.vec = w.vec[:0]
	ends := w.ends[:0]
	payloads := w.payloads[:0]
	for _, f := range frames {
		data, err := f.JSON()
		if err != nil {
			return err
		}
		w.buf = appendFrameHead(w.buf, f)
		ends = append(ends, len(w.buf))
		w.buf = append(w.buf, "\n\n"...)
		payloads = append(payloads, data)
	}
	// The heads live in w.buf, which the loop above may have moved: slice
	// it only now.
	start := 0
	for i, data := range payloads {
		w.vec = append(w.vec, w.buf[start:ends[i]], data)
		start = ends[i]
	}
	if len(payloads) > 0 {
		w.vec = append(w.vec, w.buf[start:])
	}
	clear(payloads) // the stream does not keep old frames alive
	w.ends, w.payloads = ends, payloads
	err := w.writev()
	if cap(w.buf) > maxKeptBuffer {
		w.buf = nil
	}
	return err
}

// writev sends w.vec; a failed or timed-out write resets the connection.
func (w *streamConn) writev() error {
	_ = w.raw.SetWriteDeadline(time.Now().Add(w.timeout))
	bufs := w.vec // WriteTo consumes the slice it is given
	if _, err := bufs.WriteTo(w.raw); err != nil {
		w.reset()
		return err
	}
	clear(w.vec[:cap(w.vec)])
	return nil
}

// maxKeptBuffer is the largest frame buffer a stream keeps between writes.
const maxKeptBuffer = 1 << 20

// maxBatch caps the frames written between two flushes.
const maxBatch = 512

// stream writes the subscription's frames until the client goes or lags
// (a write misses its deadline, or the canvas dropped its queue for falling
// behind), or the server shuts down. It reports whether the canvas ended
// the subscription (the client lagged, or the canvas stopped).
func (s *Server) stream(w *streamConn, sub *messages.Subscription) (ended bool) {
	lastSeq := sub.Head
	if w.frames(sub.Initial) != nil {
		return false
	}
	if n := len(sub.Initial); n > 0 {
		lastSeq = sub.Initial[n-1].Seq
	}
	if sub.Written != nil {
		sub.Written(lastSeq)
	}
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	batch := make([]*messages.StreamEvent, 0, maxBatch)
	for {
		select {
		case ev, open := <-sub.Events:
			if !open {
				return true // dropped (too slow) or canvas stopped: the client resumes
			}
			// Take what is already queued too, and write once.
			var closed bool
			batch, closed = drain(append(batch[:0], ev), sub.Events)
			out := batch
			if behind(batch) {
				out = coalesce(batch)
			}
			if w.frames(out) != nil {
				return false
			}
			lastSeq = out[len(out)-1].Seq
			if sub.Written != nil {
				sub.Written(lastSeq)
			}
			if closed {
				return true
			}
		case now := <-ping.C:
			p := &messages.StreamEvent{Seq: lastSeq, Name: "ping", Data: map[string]any{"ts": now.UnixMilli(), "sessionId": s.sessionID()}}
			if w.frames([]*messages.StreamEvent{p}) != nil {
				return false
			}
		case <-s.closing:
			return false
		}
	}
}

// drain appends the events already queued on ch to batch, up to maxBatch,
// and reports whether ch was closed.
func drain(batch []*messages.StreamEvent, ch <-chan *messages.StreamEvent) ([]*messages.StreamEvent, bool) {
	for len(batch) < maxBatch {
		select {
		case ev, ok := <-ch:
			if !ok {
				return batch, true
			}
			batch = append(batch, ev)
		default:
			return batch, false
		}
	}
	return batch, false
}

// LayoutEvent is the event whose payload is the whole layout (the domain's
// canvas.EventLayoutUpdate, which this surface may not import).
const LayoutEvent = messages.LayoutEvent

// coalesceBytes is how many bytes of queued layout frames a subscriber is
// sent as they are; past it the batch is coalesced to its newest layout.
// Below it every mutation's frame goes out, as the reference's stream
// sends them (clients count on one layout frame per write).
const coalesceBytes = 1 << 20

// behind reports whether a batch holds more layout bytes than
// coalesceBytes: a subscriber that far behind gets only the newest layout.
// The layouts of one batch are of one canvas moments apart, so the newest
// one's size (which is sent anyway) stands for each.
func behind(batch []*messages.StreamEvent) bool {
	n := 0
	var newest *messages.StreamEvent
	for _, f := range batch {
		if f.Name == LayoutEvent {
			n++
			newest = f
		}
	}
	if n < 2 {
		return false
	}
	data, err := newest.JSON()
	return err != nil || n*len(data) > coalesceBytes
}

// coalesce drops from a batch of queued frames every full-layout frame that
// a later one in the same batch replaces: a client that fell behind gets
// only the newest layout, not every one it missed. The other frames keep
// their order. batch is reused.
func coalesce(batch []*messages.StreamEvent) []*messages.StreamEvent {
	last := -1
	for i, f := range batch {
		if f.Name == LayoutEvent {
			last = i
		}
	}
	out := batch[:0]
	for i, f := range batch {
		if f.Name == LayoutEvent && i != last {
			continue
		}
		out = append(out, f)
	}
	return out
}

func (s *Server) sessionID() string {
	if sp, ok := s.opts.Streamer.(interface{ SessionID() string }); ok {
		return sp.SessionID()
	}
	return ""
}

// appendFrameHead appends the lines of an SSE frame before its payload.
func appendFrameHead(b []byte, ev *messages.StreamEvent) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, ev.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, ev.Name...)
	return append(b, "\ndata: "...)
}
