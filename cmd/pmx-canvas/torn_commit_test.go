package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitStderr waits until the server's stderr contains s.
func (p *proc) waitStderr(s string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(p.stderr.String(), s) {
		if time.Now().After(deadline) {
			p.t.Fatalf("server never wrote %q to stderr:\n%s", s, p.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func batchOfNodes(tag string, n int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"%s-%d","content":"%s"}}`, tag, i, strings.Repeat("x", 200))
	}
	return "[" + strings.Join(ops, ",") + "]"
}

// The slow-disk kill loop: the binary's disk is made slow (PMX_FAULT_WRITE
// writes a large commit in 4 KiB write(2) calls, 1 ms apart) and stops at a
// different point of a 500-node batch's commit in each round; the process
// is killed with SIGKILL right there. After a restart the batch is there
// whole or not at all (here: not at all, it never finished), every write
// acknowledged before it is there, and the ordinals are fresh: each node
// reads back as itself and a delete removes only its own node.
func TestKill9DuringASlowCommitLeavesNoPartOfIt(t *testing.T) {
	ws := t.TempDir()
	stops := []string{"0.01", "0.13", "0.27", "0.41", "0.55", "0.69", "0.83", "0.97"}
	acked := map[string]string{} // node id -> title
	for round, stop := range stops {
		t.Setenv("PMX_FAULT_WRITE", "min=65536,chunk=4096,delay=1ms,stall="+stop)
		p := startServer(t, ws)
		for i := 0; i < 3; i++ {
			title := fmt.Sprintf("acked-%d-%d", round, i)
			acked[p.addNode(fmt.Sprintf(`{"type":"markdown","title":%q}`, title))] = title
		}
		done := make(chan *response, 1)
		go func() {
			r, _ := tryDo(p.url, "POST", "/api/canvas/batch", batchOfNodes(fmt.Sprintf("batch%d", round), 500))
			done <- r
		}()
		p.waitStderr("pmx-fault: stalled after")
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r != nil && r.status == 200 {
			t.Fatalf("round %d: the batch was acknowledged although its commit never finished", round)
		}
		p.kill()

		t.Setenv("PMX_FAULT_WRITE", "")
		q := startServer(t, ws)
		if !strings.Contains(q.stderr.String(), "unfinished commit") {
			t.Fatalf("round %d (stall at %s): the restart did not report dropping the unfinished commit:\n%s", round, stop, q.stderr.String())
		}
		checkNodes(t, q, acked, round)
		// Fresh ordinals: a new node does not take an existing one's place.
		extra := q.addNode(`{"type":"markdown","title":"extra"}`)
		checkNodes(t, q, acked, round)
		q.must(200, "DELETE", "/api/canvas/node/"+extra, nil)
		checkNodes(t, q, acked, round)
		q.stop()
	}
	t.Logf("%d rounds: each batch cut mid-commit was dropped whole; %d acknowledged nodes all present and distinct", len(stops), len(acked))
}

// checkNodes asserts the canvas holds exactly the acknowledged markdown
// nodes (no node of a torn batch), each reading back as itself.
func checkNodes(t *testing.T, q *proc, acked map[string]string, round int) {
	t.Helper()
	seen := 0
	for _, n := range nodesOf(q.state("")) {
		title, _ := n["data"].(map[string]any)["title"].(string)
		if strings.HasPrefix(title, "batch") {
			t.Fatalf("round %d: node %s of an unacknowledged batch is on disk", round, title)
		}
		if strings.HasPrefix(title, "acked-") {
			seen++
		}
	}
	if seen != len(acked) {
		t.Fatalf("round %d: %d acknowledged nodes on the canvas; want %d", round, seen, len(acked))
	}
	for id, title := range acked {
		r := q.must(200, "GET", "/api/canvas/node/"+id, nil)
		if r.str("id") != id || r.body["data"].(map[string]any)["title"] != title {
			t.Fatalf("round %d: GET /node/%s returned another node: %s", round, id, r.raw)
		}
	}
}

// tryDo sends a request to a server that may die under it; nil when it did.
func tryDo(url, method, path, body string) (*response, error) {
	req, err := http.NewRequest(method, url+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	r := &response{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r, nil
}

// A snapshot save is acknowledged by its own commit: killed with SIGKILL
// the moment its 200 arrives (while other writers keep committing at the
// same revision), the snapshot is listed after the restart and its content
// is there (diff and restore work). 20 rounds on one workspace.
func TestKill9RightAfterASnapshotSaveKeepsIt(t *testing.T) {
	ws := t.TempDir()
	var saved []string
	for round := 0; round < 20; round++ {
		p := startServer(t, ws)
		stop := make(chan struct{})
		writersDone := make(chan struct{})
		go func() {
			defer close(writersDone)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if r, _ := tryDo(p.url, "POST", "/api/canvas/node", fmt.Sprintf(`{"type":"markdown","title":"r%d-%d"}`, round, i)); r == nil {
					return
				}
			}
		}()
		// Let the writer get going so the save shares revisions with adds.
		p.addNode(`{"type":"markdown","title":"first"}`)
		r := p.must(200, "POST", "/api/canvas/snapshots", fmt.Sprintf(`{"name":"snap-%d"}`, round))
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		close(stop)
		<-writersDone
		p.kill()
		id := r.str("id")
		if id == "" {
			t.Fatalf("round %d: snapshot save reply without an id: %s", round, r.raw)
		}
		saved = append(saved, id)

		q := startServer(t, ws)
		list := q.must(200, "GET", "/api/canvas/snapshots", nil)
		for _, want := range saved {
			if !strings.Contains(string(list.raw), want) {
				t.Fatalf("round %d: acknowledged snapshot %s is missing after kill -9: %s", round, want, list.raw)
			}
		}
		for _, sid := range saved {
			q.must(200, "GET", "/api/canvas/snapshots/"+sid+"/diff", nil)
		}
		q.stop()
	}
	t.Logf("20 kills right after an acknowledged snapshot save: all %d snapshots listed with their content (diff)", len(saved))
}
