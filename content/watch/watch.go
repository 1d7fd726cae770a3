// Package watch tells owners when workspace files they show change on
// disk. One fsnotify watcher serves the whole workspace: it watches the
// directories of watched files (not the files, so editors that save by
// writing a new file and renaming it over the old one are seen), collapses
// a burst of events on one file into one notice after a quiet period, and
// counts owners per file so a file stays watched while anyone shows it.
package watch

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long a file must be quiet before its notice goes
// out.
const DefaultDebounce = 50 * time.Millisecond

// Notify receives one notice per settled change: the file's absolute path
// and the owners watching it when the notice went out.
type Notify func(path string, owners []string)

// Watcher is the workspace watcher. Its methods are safe for concurrent
// use; Notify runs on the watcher's timer goroutines, never under its lock.
type Watcher struct {
	fs       *fsnotify.Watcher
	notify   Notify
	debounce time.Duration
	log      *slog.Logger

	mu     sync.Mutex
	files  map[string]map[string]int // path -> owner -> count
	dirs   map[string]int            // watched directory -> files in it
	timers map[string]*pending
	closed bool
	done   chan struct{}
}

// New starts a watcher. debounce <= 0 means DefaultDebounce.
func New(debounce time.Duration, notify Notify, log *slog.Logger) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("file watcher: %w", err)
	}
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	if log == nil {
		log = slog.Default()
	}
	w := &Watcher{fs: fw, notify: notify, debounce: debounce, log: log,
		files: map[string]map[string]int{}, dirs: map[string]int{}, timers: map[string]*pending{}, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// Watch adds owner to the watchers of the absolute path. A file whose
// directory does not exist cannot be watched: the error says so and
// nothing is recorded.
func (w *Watcher) Watch(path, owner string) error {
	path = filepath.Clean(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("watch %s: watcher closed", path)
	}
	owners := w.files[path]
	if owners == nil {
		dir := filepath.Dir(path)
		if w.dirs[dir] == 0 {
			if err := w.fs.Add(dir); err != nil {
				return fmt.Errorf("watch %s: %w", path, err)
			}
		}
		w.dirs[dir]++
		owners = map[string]int{}
		w.files[path] = owners
	}
	owners[owner]++
	return nil
}

// Unwatch removes one Watch of path by owner.
func (w *Watcher) Unwatch(path, owner string) {
	path = filepath.Clean(path)
	w.mu.Lock()
	defer w.mu.Unlock()
	owners := w.files[path]
	if owners == nil || owners[owner] == 0 {
		return
	}
	if owners[owner]--; owners[owner] == 0 {
		delete(owners, owner)
	}
	if len(owners) == 0 {
		w.dropFile(path)
	}
}

// UnwatchOwner removes every watch of owner (a canvas that stops).
func (w *Watcher) UnwatchOwner(owner string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for path, owners := range w.files {
		if owners[owner] == 0 {
			continue
		}
		delete(owners, owner)
		if len(owners) == 0 {
			w.dropFile(path)
		}
	}
}

// dropFile forgets a file nobody watches (caller holds mu).
func (w *Watcher) dropFile(path string) {
	delete(w.files, path)
	if p := w.timers[path]; p != nil {
		p.timer.Stop()
		delete(w.timers, path)
	}
	dir := filepath.Dir(path)
	if w.dirs[dir]--; w.dirs[dir] <= 0 {
		delete(w.dirs, dir)
		_ = w.fs.Remove(dir)
	}
}

// Watched reports how many files are watched (stats, tests).
func (w *Watcher) Watched() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Close stops the watcher; pending notices are dropped.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	for _, p := range w.timers {
		p.timer.Stop()
	}
	w.mu.Unlock()
	err := w.fs.Close()
	<-w.done
	return err
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			w.changed(filepath.Clean(ev.Name))
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.log.Warn("file watcher error", "err", err)
		}
	}
}

// pending is a file's quiet-period timer; gen tells a timer that fired
// late (after a newer event replaced it) that it is stale.
type pending struct {
	timer *time.Timer
	gen   uint64
}

// changed (re)starts the quiet-period timer of a watched file: a new
// timer each time, so a timer that already fired cannot send a second
// notice for the same quiet period.
func (w *Watcher) changed(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.files[path] == nil {
		return
	}
	var gen uint64 = 1
	if p := w.timers[path]; p != nil {
		p.timer.Stop()
		gen = p.gen + 1
	}
	w.timers[path] = &pending{gen: gen, timer: time.AfterFunc(w.debounce, func() { w.fire(path, gen) })}
}

func (w *Watcher) fire(path string, gen uint64) {
	w.mu.Lock()
	if p := w.timers[path]; p == nil || p.gen != gen {
		w.mu.Unlock()
		return // replaced by a newer event, or unwatched
	}
	delete(w.timers, path)
	owners := make([]string, 0, len(w.files[path]))
	for o := range w.files[path] {
		owners = append(owners, o)
	}
	closed := w.closed
	w.mu.Unlock()
	if !closed && len(owners) > 0 {
		w.notify(path, owners)
	}
}
