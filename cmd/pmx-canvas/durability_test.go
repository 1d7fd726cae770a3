package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestRestartKeepsEverything(t *testing.T) {
	p := startServer(t, "")
	a := p.addNode(`{"type":"markdown","title":"A","content":"alpha"}`)
	b := p.addNode(`{"type":"html","html":"<b>x</b>","x":10,"y":20}`)
	p.addNode(`{"type":"context"}`)
	p.must(200, "POST", "/api/canvas/edge", fmt.Sprintf(`{"from":%q,"to":%q,"type":"flow","animated":false,"label":"next"}`, a, b))
	p.must(200, "PATCH", "/api/canvas/node/"+a, `{"collapsed":true,"dockPosition":"left","data":{"k":[1,2]}}`)
	p.must(200, "POST", "/api/canvas/node?canvas=second", `{"type":"ledger"}`)
	before := p.must(200, "GET", "/api/canvas/state", nil).raw
	beforeSecond := p.must(200, "GET", "/api/canvas/state?canvas=second", nil).raw
	stream := p.openStream("") // an open event stream must not hold up shutdown
	stream.next(t)
	p.stop()
	if !strings.Contains(p.stderr.String(), "running at") {
		t.Fatal("banner missing from stderr")
	}

	q := startServer(t, p.ws)
	if after := q.must(200, "GET", "/api/canvas/state", nil).raw; !bytes.Equal(before, after) {
		t.Fatalf("state changed across a restart:\nbefore %s\nafter  %s", before, after)
	}
	if after := q.must(200, "GET", "/api/canvas/state?canvas=second", nil).raw; !bytes.Equal(beforeSecond, after) {
		t.Fatalf("second canvas changed across a restart")
	}
	// A restarted server places new nodes after the restored ones.
	next := q.must(200, "POST", "/api/canvas/node", `{"type":"markdown"}`)
	var st map[string]any
	_ = json.Unmarshal(before, &st)
	if next.body["revision"].(float64) != st["revision"].(float64)+1 {
		t.Fatalf("revision continues across restarts: %v after %v", next.body["revision"], st["revision"])
	}
}

func TestSecondServerOnOneWorkspaceIsRefused(t *testing.T) {
	p := startServer(t, "")
	out, err := exec.Command(binary, "serve", "--port", "0", "--workspace", p.ws).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "locked by another process") {
		t.Fatalf("second server: err=%v out=%s", err, out)
	}
}

// ack is one write a client saw succeed.
type ack struct {
	id    string
	title string
	x     float64
}

// writer adds nodes and moves them, recording every 2xx reply, until the
// server dies.
func writer(url string, n int, acks chan<- ack, wg *sync.WaitGroup) {
	defer wg.Done()
	c := &http.Client{Timeout: 10 * time.Second}
	post := func(method, path, body string) map[string]any {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		res, err := c.Do(req)
		if err != nil {
			return nil
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			return nil
		}
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return out
	}
	for i := 0; ; i++ {
		title := fmt.Sprintf("w%d-%d", n, i)
		r := post("POST", "/api/canvas/node", fmt.Sprintf(`{"type":"markdown","title":%q,"content":"body of %s","x":0,"y":%d}`, title, title, i*500))
		if r == nil {
			return
		}
		id := r["id"].(string)
		acks <- ack{id: id, title: title, x: 0}
		for x := 1; x <= 3; x++ {
			if post("PATCH", "/api/canvas/node/"+id, fmt.Sprintf(`{"x":%d}`, x)) == nil {
				return
			}
			acks <- ack{id: id, title: title, x: float64(x)}
		}
	}
}

// loadThenStop runs 8 writers for d, stops the server with stop, and returns
// the last acknowledged write per node and the number of acknowledgements.
func loadThenStop(p *proc, d time.Duration, stop func()) (map[string]ack, int) {
	acks := make(chan ack, 1<<16)
	var wg sync.WaitGroup
	for n := 0; n < 8; n++ {
		wg.Add(1)
		go writer(p.url, n, acks, &wg)
	}
	time.Sleep(d)
	stop()
	wg.Wait()
	close(acks)
	latest := map[string]ack{}
	count := 0
	for a := range acks {
		count++
		if prev, ok := latest[a.id]; !ok || a.x > prev.x {
			latest[a.id] = a
		}
	}
	return latest, count
}

// assertAcknowledged restarts on p's workspace and checks every acknowledged
// write is there, whole.
func assertAcknowledged(t *testing.T, p *proc, latest map[string]ack, how string) {
	t.Helper()
	q := startServer(t, p.ws)
	nodes := map[string]map[string]any{}
	for _, n := range nodesOf(q.state("")) {
		nodes[n["id"].(string)] = n
	}
	for id, a := range latest {
		n, ok := nodes[id]
		if !ok {
			t.Fatalf("acknowledged node %s (%s) is missing after %s", id, a.title, how)
		}
		data := n["data"].(map[string]any)
		if data["title"] != a.title || data["content"] != "body of "+a.title {
			t.Fatalf("node %s is half-applied: %v", id, data)
		}
		// Moves are sequential per node: the stored x is the last
		// acknowledged one or a later one that committed just before the stop.
		if x := n["position"].(map[string]any)["x"].(float64); x < a.x {
			t.Fatalf("node %s lost an acknowledged move after %s: x=%v, acknowledged %v", id, how, x, a.x)
		}
	}
}

func TestKill9KeepsEveryAcknowledgedWrite(t *testing.T) {
	p := startServer(t, "")
	latest, count := loadThenStop(p, 1500*time.Millisecond, func() {
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	})
	if count < 100 {
		t.Fatalf("only %d writes were acknowledged before the kill; the test proves little", count)
	}
	assertAcknowledged(t, p, latest, "kill -9")
	t.Logf("%d acknowledged writes, %d nodes, all present after kill -9", count, len(latest))
}

func TestSIGTERMFinishesInFlightWrites(t *testing.T) {
	p := startServer(t, "")
	latest, _ := loadThenStop(p, 500*time.Millisecond, p.stop) // stop fails the test unless exit 0
	assertAcknowledged(t, p, latest, "SIGTERM")
}

// A workspace on a read-only file system opens read-only: the board is
// served as stored, and writes are refused with 503 naming the reason.
func TestReadOnlyWorkspaceServesReads(t *testing.T) {
	if _, err := exec.LookPath("unshare"); err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare to mount the workspace read-only")
	}
	ws := t.TempDir()
	p := startServer(t, ws)
	p.must(200, "POST", "/api/canvas/node", `{"type":"markdown","title":"stored before"}`)
	p.stop()

	ro := t.TempDir()
	port := freePort(t)
	script := fmt.Sprintf("mount --bind %s %s && mount -o remount,bind,ro %s && exec %s serve --port %s --workspace %s --no-open",
		ws, ro, ro, binary, port, ro)
	cmd := exec.Command("unshare", "-m", "sh", "-c", script)
	r := runUntilHealthy(t, cmd, "http://127.0.0.1:"+port, ro)
	if !strings.Contains(string(r.must(200, "GET", "/api/canvas/state", nil).raw), "stored before") {
		t.Fatal("the read-only workspace does not serve its board")
	}
	w := r.must(503, "POST", "/api/canvas/node", `{"type":"markdown"}`)
	if w.str("code") != "store-failed" || !strings.Contains(w.str("error"), "read-only") {
		t.Fatalf("a write to a read-only workspace: %s", w.raw)
	}
	r.stop()
}
