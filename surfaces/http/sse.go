package httpapi

import (
	"bufio"
	"context"
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
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	s.streams.Add(1)
	c.Context().SetBodyStreamWriter(fasthttp.StreamWriter(func(w *bufio.Writer) {
		defer s.streams.Done()
		defer sub.Close()
		s.stream(w, sub)
	}))
	return nil
}

func (s *Server) stream(w *bufio.Writer, sub *messages.Subscription) {
	lastSeq := sub.Head
	for _, ev := range sub.Initial {
		if writeFrame(w, ev) != nil {
			return
		}
		lastSeq = ev.Seq
	}
	if w.Flush() != nil {
		return
	}
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	for {
		select {
		case ev, open := <-sub.Events:
			if !open {
				return // dropped (too slow) or canvas stopped: the client resumes
			}
			if writeFrame(w, ev) != nil {
				return
			}
			lastSeq = ev.Seq
			// Send what is already queued before flushing once.
			for drained := false; !drained; {
				select {
				case more, ok := <-sub.Events:
					if !ok {
						_ = w.Flush()
						return
					}
					if writeFrame(w, more) != nil {
						return
					}
					lastSeq = more.Seq
				default:
					drained = true
				}
			}
			if w.Flush() != nil {
				return
			}
		case now := <-ping.C:
			p := &messages.StreamEvent{Seq: lastSeq, Name: "ping", Data: map[string]any{"ts": now.UnixMilli(), "sessionId": s.sessionID()}}
			if writeFrame(w, p) != nil || w.Flush() != nil {
				return
			}
		case <-s.closing:
			return
		}
	}
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
