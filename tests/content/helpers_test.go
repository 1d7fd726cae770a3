// Package content_test drives workspace content — file, image, webpage
// and diff nodes, the code graph, the file routes — black-box over HTTP
// against a real server, with fixture web servers on loopback. Nothing
// here reaches the internet.
package content_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

type server struct {
	*pmxcanvas.Server
	t    *testing.T
	ws   string
	base string
	http *http.Client
	hdr  http.Header
}

func start(t *testing.T, opts pmxcanvas.Options) *server {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = t.TempDir()
	}
	if opts.Host == "" {
		opts.Host = "127.0.0.1"
	}
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := pmxcanvas.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	ws, _ := filepath.EvalSymlinks(opts.Workspace)
	s := &server{Server: srv, t: t, ws: ws, base: "http://" + srv.Addr().String(), http: &http.Client{Timeout: 30 * time.Second}, hdr: http.Header{}}
	if opts.Token != "" {
		s.hdr.Set("Authorization", "Bearer "+opts.Token)
	}
	return s
}

// do sends a request and decodes a JSON reply (raw bytes for others).
func (s *server) do(method, path string, body any) (int, map[string]any, []byte, http.Header) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.base+path, rd)
	for k, v := range s.hdr {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &out)
	}
	return res.StatusCode, out, raw, res.Header
}

// ok sends a request that must answer 200 and returns its JSON.
func (s *server) ok(method, path string, body any) map[string]any {
	s.t.Helper()
	code, out, raw, _ := s.do(method, path, body)
	if code != 200 {
		s.t.Fatalf("%s %s: %d %s", method, path, code, raw)
	}
	return out
}

// fails sends a request that must answer status with an error naming want.
func (s *server) fails(status int, want, method, path string, body any) map[string]any {
	s.t.Helper()
	code, out, raw, _ := s.do(method, path, body)
	msg, _ := out["error"].(string)
	if code != status || !strings.Contains(msg, want) {
		s.t.Fatalf("%s %s: %d %s, want %d with %q", method, path, code, raw, status, want)
	}
	return out
}

func (s *server) write(name, content string) string {
	s.t.Helper()
	p := filepath.Join(s.ws, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// node reads a node's data.
func (s *server) node(id string) map[string]any {
	s.t.Helper()
	n := s.ok("GET", "/api/canvas/node/"+id, nil)
	d, _ := n["data"].(map[string]any)
	return d
}

// eventually polls cond until it holds or 10 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func nodeID(t *testing.T, reply map[string]any) string {
	t.Helper()
	id, _ := reply["id"].(string)
	if id == "" {
		t.Fatalf("no id in %v", reply)
	}
	return id
}

// pngBytes is a real w×h PNG.
func pngBytes(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func historyLen(s *server) int {
	h := s.ok("GET", "/api/canvas/history", nil)
	entries, _ := h["entries"].([]any)
	return len(entries)
}
