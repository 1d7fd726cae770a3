package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Subscribe implements messages.Streamer over the server's SSE stream. The
// stream reconnects after a failure (1 s later) with Last-Event-ID, so
// events are not lost while the server's replay ring holds them; Events is
// closed only when the subscription is closed or ctx ends.
func (c *Client) Subscribe(ctx context.Context, req messages.SubscribeRequest) (*messages.Subscription, error) {
	ctx, cancel := context.WithCancel(ctx)
	events := make(chan *messages.StreamEvent, 256)
	last := req.LastEventID
	go func() {
		defer close(events)
		for ctx.Err() == nil {
			last = c.stream(ctx, req.Canvas, last, events)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	return &messages.Subscription{Events: events, Close: cancel}, nil
}

// stream reads one SSE connection until it ends; it returns the last event
// number seen.
func (c *Client) stream(ctx context.Context, canvas string, last *uint64, out chan<- *messages.StreamEvent) *uint64 {
	u := strings.TrimSuffix(c.Base, "/") + "/api/workbench/events"
	if canvas != "" {
		u += "?canvas=" + url.QueryEscape(canvas)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return last
	}
	req.Header.Set("Accept", "text/event-stream")
	if last != nil {
		req.Header.Set("Last-Event-ID", strconv.FormatUint(*last, 10))
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.httpClient().Do(req)
	if err != nil {
		return last
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return last
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	var ev messages.StreamEvent
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Name != "" {
				e := &messages.StreamEvent{Seq: ev.Seq, Name: ev.Name, Data: json.RawMessage(data.String())}
				if e.Seq > 0 {
					seq := e.Seq
					last = &seq
				}
				select {
				case out <- e:
				case <-ctx.Done():
					return last
				}
			}
			ev = messages.StreamEvent{}
			data.Reset()
		case strings.HasPrefix(line, "id: "):
			ev.Seq, _ = strconv.ParseUint(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			ev.Name = line[7:]
		case strings.HasPrefix(line, "data: "):
			data.WriteString(line[6:])
		}
	}
	return last
}

// Health is what /health reports.
type Health struct {
	OK        bool   `json:"ok"`
	Workspace string `json:"workspace"`
	Version   string `json:"version"`
	// PID is the server's process id (0 from servers that do not say).
	PID int `json:"pid,omitempty"`
}

// Probe asks base for /health within timeout.
func Probe(ctx context.Context, base string, timeout time.Duration) (*Health, error) {
	return ProbeToken(ctx, base, "", timeout)
}
