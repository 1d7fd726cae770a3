package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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

// BenchmarkStreamPatchEndToEnd streams patches one call each into one
// json-render node through the whole write path (decode, Layout, durable
// commit) and reports the p99 of the calls.
func BenchmarkStreamPatchEndToEnd(b *testing.B) {
	srv, _ := benchServer(b)
	r := invoke(b, srv, "jsonrender.stream", map[string]any{"patches": []any{map[string]any{"op": "add", "path": "/root", "value": "e0"}}})
	var first struct{ ID string }
	raw, _ := json.Marshal(r.Body)
	_ = json.Unmarshal(raw, &first)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := map[string]any{"op": "add", "path": fmt.Sprintf("/elements/e%d", i%2000),
			"value": map[string]any{"type": "Text", "props": map[string]any{"text": "x"}, "children": []any{}}}
		start := time.Now()
		invoke(b, srv, "jsonrender.stream", map[string]any{"nodeId": first.ID, "patches": []any{p}})
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs/patch")
}

// BenchmarkSurfaceDocument renders an html node's surface document (the
// bridges and the theme) through the invoker.
func BenchmarkSurfaceDocument(b *testing.B) {
	srv, _ := benchServer(b)
	r := invoke(b, srv, "node.add", map[string]any{"type": "html", "html": "<h1>Hi</h1>" + strings.Repeat("<p>paragraph text</p>", 500)})
	raw, _ := json.Marshal(r.Body)
	var n struct{ ID string }
	_ = json.Unmarshal(raw, &n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		invoke(b, srv, "surface.get", map[string]any{"id": n.ID, "theme": "light", "axToken": "ax-1", "frameToken": "f-1"})
	}
}

// BenchmarkWebArtifactBuildOp is webartifact.build end to end through the
// server: a fresh title each op (a cold project directory), bundling,
// writing the HTML and placing the node durably.
func BenchmarkWebArtifactBuildOp(b *testing.B) {
	srv, _ := benchServer(b)
	app := "import { useState } from 'react'\nexport default function App() {\n  const [n, setN] = useState(0)\n  return <button onClick={() => setN(n + 1)}>{n}</button>\n}\n"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		invoke(b, srv, "webartifact.build", map[string]any{"title": fmt.Sprintf("Bench %d", i), "appTsx": app})
	}
}
