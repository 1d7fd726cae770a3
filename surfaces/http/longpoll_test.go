package httpapi

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// parkingInvoker holds every call until its wait ends or its context is
// cancelled, and reports which happened.
type parkingInvoker struct {
	cancelled chan string
}

func (p *parkingInvoker) Invoke(ctx context.Context, env *messages.Envelope) (*messages.Reply, error) {
	wait, _ := env.Args.(messages.Parker).Park()
	select {
	case <-time.After(wait):
		return &messages.Reply{Body: map[string]any{"ok": true, "waited": wait.Milliseconds()}}, nil
	case <-ctx.Done():
		p.cancelled <- env.Op
		return nil, messages.Unavailable("the caller went away")
	}
}

func serveTest(t *testing.T, inv messages.Invoker, readTimeout time.Duration) string {
	t.Helper()
	s := New(Options{Invoker: inv, ReadTimeout: readTimeout, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return ln.Addr().String()
}

// A long-poll outlives the server's read timeout: the watch clears the
// deadline fasthttp set for reading the request.
func TestLongPollOutlivesReadTimeout(t *testing.T) {
	inv := &parkingInvoker{cancelled: make(chan string, 1)}
	addr := serveTest(t, inv, 200*time.Millisecond)
	res, err := http.Get("http://" + addr + "/api/canvas/ax/approval/appr-x?waitMs=700")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), `"waited":700`) {
		t.Fatalf("long-poll: %d %s", res.StatusCode, body)
	}
	select {
	case op := <-inv.cancelled:
		t.Fatalf("%s was cancelled although its client stayed", op)
	default:
	}
}

// A client that hangs up cancels its long-poll at once.
func TestLongPollIsCancelledWhenTheClientGoesAway(t *testing.T) {
	inv := &parkingInvoker{cancelled: make(chan string, 1)}
	addr := serveTest(t, inv, 0)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte("GET /api/canvas/ax/delivery/pending?consumer=a&waitMs=60000 HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_ = conn.Close()
	select {
	case op := <-inv.cancelled:
		if op != "ax.delivery.pending" {
			t.Fatalf("cancelled %s", op)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the long-poll outlived its client")
	}
}

// A read without a wait is not a long-poll: no watch, keep-alive kept.
func TestReadWithoutWaitKeepsTheConnection(t *testing.T) {
	inv := &parkingInvoker{cancelled: make(chan string, 1)}
	addr := serveTest(t, inv, 0)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for range 2 {
		if _, err := conn.Write([]byte("GET /api/canvas/ax/approval/appr-x HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		if res.StatusCode != 200 || res.Close {
			t.Fatalf("plain read: %d close=%v", res.StatusCode, res.Close)
		}
	}
}

// The connection of a long-poll serves the client's next request.
func TestLongPollKeepsTheConnectionAlive(t *testing.T) {
	inv := &parkingInvoker{cancelled: make(chan string, 1)}
	addr := serveTest(t, inv, 0)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for _, wait := range []string{"100", "0", "50"} {
		if _, err := conn.Write([]byte("GET /api/canvas/ax/mode/m?waitMs=" + wait + " HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("after waitMs=%s: %v", wait, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		if res.StatusCode != 200 || res.Close {
			t.Fatalf("waitMs=%s: %d close=%v", wait, res.StatusCode, res.Close)
		}
	}
}
