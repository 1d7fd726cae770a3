package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// statusKiB reads one kB field of /proc/<pid>/status.
func statusKiB(t *testing.T, pid int, field string) int {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, field) {
			n, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// The idle trim drops the real binary's code and read-only pages from its
// page table (internal/memtrim.DropImagePages). This binary is linked with
// cgo, so it has a RELRO page the loader wrote: dropping that one would
// crash the process on its next libc call. The server must keep serving
// every kind of request after the trim, and its file-backed residency must
// fall well below the start-up figure.
func TestIdleTrimDropsImagePagesAndTheServerKeepsWorking(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("image pages are dropped on Linux only")
	}
	p := startServer(t, "")
	pid := p.cmd.Process.Pid
	startFile := statusKiB(t, pid, "RssFile:")
	base := len(nodesOf(p.state("")))
	var nodes []string
	for i := 0; i < 50; i++ {
		nodes = append(nodes, p.addNode(fmt.Sprintf(`{"type":"markdown","title":"n%d","content":"# item %d"}`, i, i)))
	}
	// Idle: the trim runs at the first quiet second, the drop a second later.
	var low int
	until(t, "the idle trim to drop the binary's pages", func() bool {
		low = statusKiB(t, pid, "RssFile:")
		return low < startFile/2
	})
	t.Logf("RssFile %d KiB at start, %d KiB after the idle trim", startFile, low)
	// Everything still works: concurrent writes (new OS threads come from
	// libc's pthread_create through the relocated GOT), a batch, reads,
	// search, SSE, errors.
	var wg sync.WaitGroup
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				body := fmt.Sprintf(`{"type":"markdown","title":"w%d-%d","content":"burst"}`, w, i)
				if r := p.do("POST", "/api/canvas/node", body); r.status != 200 {
					t.Errorf("concurrent add after the trim: %d %s", r.status, r.raw)
				}
			}
		}(w)
	}
	wg.Wait()
	var batch strings.Builder
	batch.WriteString(`{"operations":[`)
	for i := 0; i < 500; i++ {
		if i > 0 {
			batch.WriteString(",")
		}
		fmt.Fprintf(&batch, `{"op":"node.add","args":{"type":"markdown","title":"b%d","content":"batch"}}`, i)
	}
	batch.WriteString("]}")
	p.must(200, "POST", "/api/canvas/batch", batch.String())
	id := p.addNode(`{"type":"markdown","title":"after the trim","content":"still here"}`)
	p.must(200, "GET", "/api/canvas/node/"+id, nil)
	p.must(200, "GET", "/api/canvas/search?q=item", nil)
	p.must(400, "POST", "/api/canvas/node", `{"type":"no-such-type"}`)
	p.must(200, "DELETE", "/api/canvas/node/"+nodes[0], nil)
	s := p.openStream("")
	_ = s.next(t)
	s.close()
	if got := len(nodesOf(p.state(""))); got != base+50+160+500 {
		t.Fatalf("after the trim the canvas has %d nodes, want %d", got, base+50+160+500)
	}
	select {
	case err := <-p.exited:
		t.Fatalf("server exited after the trim: %v\n%s", err, p.stderr.String())
	case <-time.After(100 * time.Millisecond):
	}
}
