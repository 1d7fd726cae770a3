package httpapi

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// events serves GET /api/workbench/events: the canvas's event stream as
// Server-Sent Events. Frames are "id: <event number>\nevent: <name>\ndata:
// <json>\n\n". A client that reconnects with Last-Event-ID (header, or
// ?lastEventId=) gets exactly the events it missed while they are still in
// the canvas's replay ring, and a fresh full layout otherwise.
func (s *Server) events(c *fiber.Ctx) error {
	req := messages.SubscribeRequest{Canvas: c.Query(messages.MetaCanvas, c.Get(HeaderCanvas)), Session: c.Query("session")}
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
	// The connection ends with the stream: a client dropped for being
	// slow is cut off (and reconnects with Last-Event-ID) instead of
	// idling on a kept-alive socket with its unread buffers.
	c.Context().SetConnectionClose()
	c.Set("X-Accel-Buffering", "no")
	s.streams.Add(1)
	conn := c.Context().Conn()
	c.Context().SetBodyStreamWriter(fasthttp.StreamWriter(func(w *bufio.Writer) {
		defer s.streams.Done()
		defer sub.Close()
		s.stream(&deadlineWriter{Writer: w, conn: conn, timeout: s.opts.StreamWriteTimeout}, sub)
	}))
	return nil
}

// deadlineWriter writes an event stream under a deadline: a client that
// stops reading fills its socket buffers, a write blocks, and when it has
// not finished within the timeout the connection is reset, so the kernel
// memory and the goroutine it held are freed at once (a plain close would
// queue the FIN behind the unread data and keep both for as long as the
// client lives). The client reconnects with Last-Event-ID.
type deadlineWriter struct {
	*bufio.Writer
	conn    net.Conn
	timeout time.Duration
}

// within runs write (frames, then a flush) under the deadline.
func (d *deadlineWriter) within(write func() error) error {
	t := time.AfterFunc(d.timeout, d.reset)
	err := write()
	if !t.Stop() {
		return errStreamLagged
	}
	return err
}

func (d *deadlineWriter) reset() {
	if d.conn == nil {
		return
	}
	if tc, ok := d.conn.(interface{ SetLinger(int) error }); ok {
		_ = tc.SetLinger(0) // discard the unsent frames: the close is a reset
	}
	_ = d.conn.Close()
}

var errStreamLagged = errors.New("event stream client did not read within the write timeout")

// maxBatch caps the frames written between two flushes.
const maxBatch = 512

// stream writes the subscription's frames until the client goes or lags
// (a write misses its deadline, or the canvas dropped its queue for falling
// behind), or the server shuts down.
func (s *Server) stream(w *deadlineWriter, sub *messages.Subscription) {
	lastSeq := sub.Head
	write := func(frames []*messages.StreamEvent) error {
		return w.within(func() error {
			for _, f := range frames {
				if err := writeFrame(w.Writer, f); err != nil {
					return err
				}
				lastSeq = f.Seq
			}
			return w.Flush()
		})
	}
	if write(sub.Initial) != nil {
		return
	}
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	batch := make([]*messages.StreamEvent, 0, maxBatch)
	for {
		select {
		case ev, open := <-sub.Events:
			if !open {
				return // dropped (too slow) or canvas stopped: the client resumes
			}
			// Take what is already queued too, and flush once.
			var closed bool
			batch, closed = drain(append(batch[:0], ev), sub.Events)
			if write(coalesce(batch)) != nil || closed {
				return
			}
		case now := <-ping.C:
			p := &messages.StreamEvent{Seq: lastSeq, Name: "ping", Data: map[string]any{"ts": now.UnixMilli(), "sessionId": s.sessionID()}}
			if write([]*messages.StreamEvent{p}) != nil {
				return
			}
		case <-s.closing:
			return
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
const LayoutEvent = "canvas-layout-update"

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

func writeFrame(w *bufio.Writer, ev *messages.StreamEvent) error {
	data, err := ev.JSON()
	if err != nil {
		return err
	}
	w.WriteString("id: ")
	w.WriteString(strconv.FormatUint(ev.Seq, 10))
	w.WriteString("\nevent: ")
	w.WriteString(ev.Name)
	w.WriteString("\ndata: ")
	w.Write(data)
	_, err = w.WriteString("\n\n")
	return err
}
