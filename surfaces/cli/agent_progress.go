package cli

import (
	"fmt"
	"io"
	"time"
)

// Progress for a long single request (batch from a file, snapshot gc,
// import): an indeterminate Progress line whose elapsed time is redrawn
// every progressTick until Finish prints the outcome.

// progressTick is how often a running command's elapsed time is redrawn.
var progressTick = time.Second

// startProgress starts an indeterminate progress line on w (nil unless w
// is a terminal, see newProgress) and keeps its elapsed time current.
func startProgress(w io.Writer, label string) *Progress {
	p := newProgress(w, label, 0)
	if p == nil {
		return nil
	}
	p.ticker = make(chan struct{})
	p.tickDone = make(chan struct{})
	go func() {
		defer close(p.tickDone)
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.ticker:
				return
			case <-t.C:
				p.mu.Lock()
				if !p.finished {
					p.draw()
				}
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// finish ends the line with the outcome and the elapsed time; later calls do
// nothing.
func (p *Progress) finish(outcome string) {
	if p == nil {
		return
	}
	if p.ticker != nil {
		p.stopTicker.Do(func() { close(p.ticker); <-p.tickDone })
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	fmt.Fprintf(p.w, "\r\033[K%s: %s (%s)\n", p.label, outcome, time.Since(p.start).Round(time.Millisecond))
}
