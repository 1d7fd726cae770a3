package pmxcanvas

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func startT(t *testing.T, ws string) *Server {
	t.Helper()
	if ws == "" {
		ws = t.TempDir()
	}
	s, err := Start(Options{Workspace: ws, Port: 0, SeedDockedWidgets: true, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

func request(c *http.Client, method, url, body string) (int, map[string]any, error) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return res.StatusCode, out, nil
}

// 32 clients add and move nodes on one canvas at once. Every acknowledged
// node is there with its last acknowledged position, and the revision
// counts exactly the successful writes. Run with -race.
func TestContention32Clients(t *testing.T) {
	s := startT(t, "")
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	_, st, err := request(c, "GET", s.URL()+"/api/canvas/state", "")
	if err != nil {
		t.Fatal(err)
	}
	rev0 := st["revision"].(float64)

	const clients, perClient = 32, 25
	var okWrites atomic.Int64
	type final struct{ x, y float64 }
	var mu sync.Mutex
	want := map[string]final{}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for n := 0; n < clients; n++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			for i := 0; i < perClient; i++ {
				code, out, err := request(c, "POST", s.URL()+"/api/canvas/node", fmt.Sprintf(`{"type":"markdown","title":"c%d-%d"}`, n, i))
				if err != nil || code != 200 {
					errs <- fmt.Errorf("add: %d %v %v", code, out, err)
					return
				}
				okWrites.Add(1)
				id := out["id"].(string)
				x, y := float64(n*10000+i), float64(i)
				if code, out, err = request(c, "PATCH", s.URL()+"/api/canvas/node/"+id, fmt.Sprintf(`{"x":%v,"y":%v}`, x, y)); err != nil || code != 200 {
					errs <- fmt.Errorf("move: %d %v %v", code, out, err)
					return
				}
				okWrites.Add(1)
				mu.Lock()
				want[id] = final{x, y}
				mu.Unlock()
			}
		}(n)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	_, st, _ = request(c, "GET", s.URL()+"/api/canvas/state", "")
	if got := st["revision"].(float64); got != rev0+float64(okWrites.Load()) {
		t.Fatalf("revision %v, want %v + %d successful writes", got, rev0, okWrites.Load())
	}
	nodes := st["nodes"].([]any)
	if len(nodes) != 2+clients*perClient {
		t.Fatalf("%d nodes, want %d", len(nodes), 2+clients*perClient)
	}
	seen := map[string]bool{}
	for _, raw := range nodes {
		n := raw.(map[string]any)
		id := n["id"].(string)
		if seen[id] {
			t.Fatalf("duplicate node id %s", id)
		}
		seen[id] = true
		if f, ok := want[id]; ok {
			pos := n["position"].(map[string]any)
			if pos["x"] != f.x || pos["y"] != f.y {
				t.Fatalf("node %s at %v, last acknowledged move was %v", id, pos, f)
			}
		}
	}
}
