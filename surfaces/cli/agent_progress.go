package cli

// Progress lines for long commands (batch from a file, snapshot gc,
// import): shown on stderr only when stderr is a terminal, so scripts and
// agents reading stderr see only the {error, hint} line of a failure.

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// isTerminal reports whether w is a character device (a TTY). Tests
// replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressTick is how often a running command's elapsed time is redrawn.
var progressTick = time.Second

// progress is one command's progress line; a nil *progress does nothing.
type progress struct {
	w     io.Writer
	label string
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
}

// startProgress prints "<label> ..." and redraws it with the elapsed time
// every tick until done; nil when w is not a terminal.
func startProgress(w io.Writer, label string) *progress {
	if w == nil || !isTerminal(w) {
		return nil
	}
	p := &progress{w: w, label: label, start: time.Now(), stop: make(chan struct{})}
	fmt.Fprintf(w, "%s ...", label)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				fmt.Fprintf(w, "\r\033[K%s ... %s", label, time.Since(p.start).Round(time.Second))
			}
		}
	}()
	return p
}

// done ends the line with the outcome and the elapsed time.
func (p *progress) done(outcome string) {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.stop)
		p.wg.Wait()
		fmt.Fprintf(p.w, "\r\033[K%s: %s (%s)\n", p.label, outcome, time.Since(p.start).Round(time.Millisecond))
	})
}
