package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/surfaces/remote"
)

// watch: the semantic delta stream (cli.md §8). It follows the canvas's
// SSE stream and prints what changed in meaning, one line per event:
// compact text, or NDJSON with --json. Unlike the reference it reports node
// additions and survives a dropped connection: it reconnects with backoff
// and sends Last-Event-ID, so the server replays the events it missed (or,
// past its replay ring or after a restart, sends the full layout, which is
// diffed against the last one seen: nothing is silently skipped).
//
// Exit codes: 0 when --max-events is reached or on Ctrl+C/SIGTERM; 1 when
// the first connection fails, the server refuses the stream, or the stream
// stays down longer than --reconnect.

func init() {
	commandAdders = append(commandAdders, func(root *cobra.Command, s *ioStreams) {
		root.AddCommand(newWatchCommand(s))
	})
}

type watchOptions struct {
	json      bool
	compact   bool
	events    string
	maxEvents int
	reconnect time.Duration
	idle      time.Duration
}

func newWatchCommand(s *ioStreams) *cobra.Command {
	o := &watchOptions{}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Stream semantic canvas changes (adds, pins, connections, removals, groups, meaningful moves)",
		Long: `Follow the canvas's event stream and print what changed in meaning, one event a
line: nodes added, context pins changed, edges connected, nodes or edges
removed, groups created or changed, and moves that changed a node's cluster or
pinned neighbourhood ("move-end"). A move that changes nothing spatially is
quiet.

Default output is one human line per event; --json prints one JSON object per
line (NDJSON): {"type", "timestamp", "sessionId", ...}.

If the connection drops, watch reconnects with backoff and resumes with
Last-Event-ID, so events made meanwhile are still reported. It gives up (exit
1) when the stream stays down longer than --reconnect (0: at once).`,
		Example: `  pmx-canvas watch
  pmx-canvas watch --json --max-events 5
  pmx-canvas watch --events context-pin,move-end
  pmx-canvas watch --server-url http://127.0.0.1:4400 --canvas design`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runWatch(cmd, o, s) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print NDJSON: one JSON object per event")
	f.BoolVar(&o.compact, "compact", false, "print one human line per event (the default)")
	f.StringVar(&o.events, "events", strings.Join(watchKinds, ","), "comma-separated event kinds to print: "+strings.Join(watchKinds, ","))
	f.IntVar(&o.maxEvents, "max-events", 0, "exit 0 after printing this many events")
	f.DurationVar(&o.reconnect, "reconnect", 30*time.Second, "how long to keep reconnecting after the stream drops (0: exit 1 at once)")
	f.DurationVar(&o.idle, "idle-timeout", 30*time.Second, "treat a stream silent this long (no event, no ping) as dropped")
	_ = f.MarkHidden("idle-timeout")
	addClientFlags(cmd)
	return cmd
}

func runWatch(cmd *cobra.Command, o *watchOptions, s *ioStreams) error {
	if o.json && o.compact {
		return die("Use one of them.", "--json and --compact cannot be combined")
	}
	if cmd.Flags().Changed("max-events") && o.maxEvents <= 0 {
		return die("Use a positive number, e.g. --max-events 5", "Invalid value for --max-events: %d", o.maxEvents)
	}
	if o.idle <= 0 {
		return die("Use a positive duration, e.g. --idle-timeout 30s", "Invalid value for --idle-timeout: %s", o.idle)
	}
	kinds := map[string]bool{}
	for _, k := range strings.Split(o.events, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(watchKinds, k) {
			return die("Use a comma-separated subset of: "+strings.Join(watchKinds, ","), "Invalid value in --events: %s", k)
		}
		kinds[k] = true
	}
	if len(kinds) == 0 {
		return die("Use a comma-separated subset of: "+strings.Join(watchKinds, ","), "Invalid value in --events: %q", o.events)
	}
	found, err := locate(cmd)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w := &watcher{
		base: found.Base, token: clientToken(), found: found, canvas: canvasID(), opts: o, kinds: kinds,
		out: cmd.OutOrStdout(), errOut: s.Err, reducer: newWatchReducer(),
		http: &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, DisableCompression: true}},
	}
	return w.run(ctx)
}

// watcher is one watch run across reconnections.
type watcher struct {
	base, token, canvas string
	found               *remote.Found // how base was found, for messages
	opts                *watchOptions
	kinds               map[string]bool
	out, errOut         io.Writer
	http                *http.Client
	reducer             *watchReducer

	lastID    *uint64 // the last event number seen: Last-Event-ID
	connected bool    // a stream was open at least once
	emitted   int
}

var errWatchMaxEvents = errors.New("max events reached")

const watchDownHint = "Check that the server still runs (pmx-canvas serve status), then watch again; a longer --reconnect (e.g. 2m) waits for it to come back."

// watchFatalError is a refusal that retrying will not fix.
type watchFatalError struct{ err error }

func (e *watchFatalError) Error() string { return e.err.Error() }

// watchOutputError is a failed write of a line (stdout closed).
type watchOutputError struct{ err error }

func (e *watchOutputError) Error() string { return "write output: " + e.err.Error() }

func (w *watcher) run(ctx context.Context) error {
	const firstBackoff = 250 * time.Millisecond
	backoff := firstBackoff
	var lostAt time.Time
	for {
		opened, err := w.session(ctx)
		switch {
		case errors.Is(err, errWatchMaxEvents), ctx.Err() != nil:
			return nil
		}
		var outErr *watchOutputError
		if errors.As(err, &outErr) {
			return outErr
		}
		var fatal *watchFatalError
		if errors.As(err, &fatal) {
			return die("Check --server-url, --canvas and --token.", "Watch stream refused: %v", fatal.err)
		}
		if !w.connected {
			return unreachable(w.found, "pmx-canvas event stream", err)
		}
		if opened {
			lostAt, backoff = time.Now(), firstBackoff
		}
		msg := "the stream ended"
		if err != nil {
			msg = err.Error()
		}
		if w.opts.reconnect <= 0 || time.Since(lostAt) > w.opts.reconnect {
			return die(watchDownHint, "Watch stream failed: %s", msg)
		}
		w.note("watch: connection lost (%s); reconnecting in %s", msg, backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// note tells a human on a terminal what the watcher is doing.
func (w *watcher) note(format string, args ...any) {
	if isTerminal(w.errOut) {
		fmt.Fprintf(w.errOut, format+"\n", args...)
	}
}

// session runs one connection until it ends. opened says the stream was
// established (so a later failure starts a new reconnect window).
func (w *watcher) session(parent context.Context) (opened bool, err error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	u := w.base + "/api/workbench/events?canvas=" + url.QueryEscape(w.canvas)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, &watchFatalError{err}
	}
	req.Header.Set("Accept", "text/event-stream")
	if w.lastID != nil {
		req.Header.Set("Last-Event-ID", strconv.FormatUint(*w.lastID, 10))
	}
	if w.token != "" {
		req.Header.Set("Authorization", "Bearer "+w.token)
	}
	res, err := w.http.Do(req)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		var e struct {
			Error string `json:"error"`
		}
		msg := fmt.Sprintf("HTTP %d", res.StatusCode)
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			msg += ": " + e.Error
		}
		if res.StatusCode >= 500 {
			return false, errors.New(msg)
		}
		return false, &watchFatalError{errors.New(msg)}
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		return false, &watchFatalError{fmt.Errorf("%s is not an event stream (Content-Type %q)", u, ct)}
	}
	first := !w.connected
	w.connected = true

	// A stream silent for longer than the idle timeout (the server pings
	// every 8 s) is a dead connection: drop it and reconnect.
	idle := time.AfterFunc(w.opts.idle, cancel)
	defer idle.Stop()
	var burstID string
	inBurst := first
	err = readSSE(res.Body, func() { idle.Reset(w.opts.idle) }, func(f sseFrame) error {
		if f.id != "" {
			if n, err := strconv.ParseUint(f.id, 10, 64); err == nil {
				w.lastID = &n
			}
		}
		if f.event == "connected" {
			burstID = f.id
			if !first {
				var c struct {
					Resumed  bool `json:"resumed"`
					Replayed int  `json:"replayed"`
				}
				_ = json.Unmarshal(f.data, &c)
				if c.Resumed {
					w.note("watch: reconnected; %d missed events replayed", c.Replayed)
				} else {
					w.note("watch: reconnected; comparing with the current layout")
				}
			}
			return nil
		}
		// The first connection's opening burst (frames numbered with the
		// head event) is the starting point, not news.
		if inBurst && f.id == burstID {
			w.reducer.baseline(f.event, f.data)
			return nil
		}
		inBurst = false
		return w.emit(w.reducer.handle(f.event, f.data))
	})
	var fatal *watchFatalError
	switch {
	case errors.Is(err, errWatchMaxEvents), errors.As(err, &fatal), errors.As(err, new(*watchOutputError)), parent.Err() != nil:
		return true, err
	case ctx.Err() != nil:
		return true, fmt.Errorf("no data for %s", w.opts.idle)
	case err == nil:
		return true, errors.New("the server closed the stream")
	}
	return true, err
}

func (w *watcher) emit(events []watchEvent) error {
	for _, ev := range events {
		if !w.kinds[ev.kind()] {
			continue
		}
		var line string
		if w.opts.json {
			b, err := plainJSON(ev)
			if err != nil {
				return err
			}
			line = string(b)
		} else {
			line = ev.compact()
		}
		if _, err := fmt.Fprintln(w.out, line); err != nil {
			return &watchOutputError{err}
		}
		w.emitted++
		if w.opts.maxEvents > 0 && w.emitted >= w.opts.maxEvents {
			return errWatchMaxEvents
		}
	}
	return nil
}

// sseFrame is one server-sent event.
type sseFrame struct {
	id    string
	event string
	data  json.RawMessage
}

// readSSE parses an event stream: frames end at a blank line, ":" lines
// are comments, fields are id, event (default "message") and data (lines
// joined with "\n"); a frame without data is skipped. onLine runs for every
// line read (keep-alive), fn for every frame; an error from fn stops the
// read and is returned. The end of the stream returns nil.
func readSSE(r io.Reader, onLine func(), fn func(sseFrame) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var f sseFrame
	var data strings.Builder
	hasData := false
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if onLine != nil {
			onLine()
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if hasData {
				if f.event == "" {
					f.event = "message"
				}
				f.data = json.RawMessage(data.String())
				if err := fn(f); err != nil {
					return err
				}
			}
			id := f.id // the last event id carries over
			f, hasData = sseFrame{id: id}, false
			data.Reset()
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "id":
			f.id = value
		case "event":
			f.event = value
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			hasData = true
		}
	}
}
