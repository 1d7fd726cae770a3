package main

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// readable is how many bytes the kernel holds for c, unread.
func readable(t *testing.T, c *net.TCPConn) int {
	t.Helper()
	raw, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var ioctlErr error
	if err := raw.Control(func(fd uintptr) { n, ioctlErr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil {
		t.Fatal(err)
	}
	if ioctlErr != nil {
		t.Fatal(ioctlErr)
	}
	return n
}

// A write's reply goes out after its frame was written to every event
// stream that keeps up (the reference writes its frames before it answers):
// when the POST answers, the frame is already in the stream's socket. The
// wait is set to a minute, so a stream that never reported its writes would
// show as a write taking that long.
func TestReplyFollowsItsFrames(t *testing.T) {
	p := startServer(t, "", "--frame-wait", "1m")
	addr := strings.TrimPrefix(p.url, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := conn.(*net.TCPConn)
	t.Cleanup(func() { _ = c.Close() })
	if _, err := fmt.Fprintf(c, "GET /api/workbench/events HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	// frame reads one frame's event name and data line.
	frame := func() (event, data string) {
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimSpace(line[len("event: "):])
			case strings.HasPrefix(line, "data: "):
				data = line
			case line == "\n" && event != "":
				return event, data
			}
		}
	}
	for ev := ""; ev != "context-pins-changed"; { // the connect burst's last frame
		ev, _ = frame()
	}
	if br.Buffered() != 0 {
		t.Fatalf("%d bytes after the connect burst", br.Buffered())
	}

	for i := range 5 {
		began := time.Now()
		id := p.addNode(fmt.Sprintf(`{"type":"markdown","title":"ordered %d"}`, i))
		if took := time.Since(began); took > 30*time.Second {
			t.Fatalf("write %d took %v: the stream did not report its write", i, took)
		}
		if n := readable(t, c); n == 0 {
			t.Fatalf("write %d was answered before its frame reached the stream", i)
		}
		ev, data := frame()
		if ev != "canvas-layout-update" || !strings.Contains(data, id) {
			t.Fatalf("write %d: frame %q without node %s", i, ev, id)
		}
		if br.Buffered() != 0 {
			t.Fatalf("write %d: %d bytes after its frame", i, br.Buffered())
		}
	}
}
