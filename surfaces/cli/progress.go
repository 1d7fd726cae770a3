package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
)

// Progress for long commands (batch from a file, snapshot gc, import, ...):
// one line on stderr, redrawn in place, only when stderr is a terminal, so
// scripts and agents reading the streams never see it. stdout is never
// touched: it keeps its one JSON document.
//
//	p := newProgress(s.Err, "Importing nodes", len(ops)) // total 0: unknown
//	for _, op := range ops {
//		...
//		p.Add(1)
//	}
//	p.Done() // clears the line
//
// PMX_CANVAS_PROGRESS=always forces it on (any writer), =never turns it off.

// Progress is a progress line; a nil *Progress is valid and does nothing.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	total    int
	done     int
	note     string
	start    time.Time
	lastDraw time.Time
	width    int // length of the last line drawn, to blank it
	finished bool

	// The elapsed-time ticker of startProgress (agent_progress.go).
	ticker, tickDone chan struct{}
	stopTicker       sync.Once
}

// progressInterval throttles redraws.
const progressInterval = 100 * time.Millisecond

// newProgress starts a progress line on w for total steps (0 when the
// total is unknown). It returns nil — a no-op — when w is not a terminal.
func newProgress(w io.Writer, label string, total int) *Progress {
	if !progressEnabled(w) {
		return nil
	}
	p := &Progress{w: w, label: label, total: total, start: time.Now()}
	p.mu.Lock()
	p.draw()
	p.mu.Unlock()
	return p
}

func progressEnabled(w io.Writer) bool {
	switch strings.ToLower(os.Getenv("PMX_CANVAS_PROGRESS")) {
	case "always", "1", "true":
		return w != nil
	case "never", "0", "false":
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal (not a pipe, file or buffer).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Add advances by n steps.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.maybeDraw()
}

// Set sets the number of steps done.
func (p *Progress) Set(done int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	p.maybeDraw()
}

// Notef sets a short note shown after the count (the current item, ...).
func (p *Progress) Notef(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.note = fmt.Sprintf(format, args...)
	p.maybeDraw()
}

// Done clears the progress line; later calls do nothing.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
}

func (p *Progress) maybeDraw() {
	if p.finished || (time.Since(p.lastDraw) < progressInterval && (p.total == 0 || p.done < p.total)) {
		return
	}
	p.draw()
}

func (p *Progress) draw() {
	line := p.render()
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.width = len(line)
	p.lastDraw = time.Now()
}

func (p *Progress) render() string {
	var b strings.Builder
	b.WriteString(p.label)
	b.WriteString(": ")
	if p.total > 0 {
		fmt.Fprintf(&b, "%d/%d (%d%%)", p.done, p.total, p.done*100/p.total)
	} else {
		fmt.Fprintf(&b, "%d", p.done)
	}
	if s := time.Since(p.start); s >= time.Second {
		fmt.Fprintf(&b, " %ds", int(s.Seconds()))
	}
	if p.note != "" {
		note := p.note
		if len(note) > 40 {
			note = note[:37] + "..."
		}
		b.WriteString(" ")
		b.WriteString(note)
	}
	return b.String()
}
