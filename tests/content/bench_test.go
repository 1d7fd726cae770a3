package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

func benchServer(b *testing.B) (*pmxcanvas.Server, string) {
	b.Helper()
	ws := b.TempDir()
	srv, err := pmxcanvas.Start(pmxcanvas.Options{Workspace: ws, NoHTTP: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close(context.Background()) })
	ws, _ = filepath.EvalSymlinks(ws)
	return srv, ws
}

func invoke(b *testing.B, srv *pmxcanvas.Server, op string, in any) *messages.Reply {
	raw, _ := json.Marshal(in)
	r, err := srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: op, Input: raw})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkFileNodeAdd100KB adds file nodes showing one 100 KB source
// file: resolve, read, digest and the durable write (fsync) per op.
func BenchmarkFileNodeAdd100KB(b *testing.B) {
	srv, ws := benchServer(b)
	line := "const value = computeSomething(alpha, beta, gamma); // a typical line\n"
	if err := os.WriteFile(filepath.Join(ws, "big.ts"), []byte(strings.Repeat(line, 100<<10/len(line))), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		invoke(b, srv, "node.add", map[string]any{"type": "file", "content": "big.ts"})
	}
}

// BenchmarkWatcherLatency is the time from a write to a watched file to
// the layout frame that carries the new content (50 ms debounce included).
func BenchmarkWatcherLatency(b *testing.B) {
	srv, ws := benchServer(b)
	p := filepath.Join(ws, "watched.txt")
	if err := os.WriteFile(p, []byte("v0"), 0o644); err != nil {
		b.Fatal(err)
	}
	invoke(b, srv, "node.add", map[string]any{"type": "file", "content": "watched.txt"})
	time.Sleep(500 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub, err := srv.Canvas().Subscribe(ctx, pmxcanvas.SubscribeOptions{SkipInitial: true, Buffer: 256})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		want := fmt.Sprintf("v%d", i+1)
		if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
			b.Fatal(err)
		}
		for done := false; !done; {
			select {
			case ev := <-sub.Events:
				done = ev.Name == "canvas-layout-update" && strings.Contains(string(ev.Data), `"fileContent":"`+want+`"`)
			case <-time.After(10 * time.Second):
				b.Fatalf("no frame for write %d", i+1)
			}
		}
	}
}
