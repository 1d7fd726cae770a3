package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func dwWriteFrame(w http.ResponseWriter, id int, event string, data json.RawMessage) {
	fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", id, event, data)
	w.(http.Flusher).Flush()
}

func dwExecute(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Execute(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestWatchResumesWithLastEventID: the first connection drops after one
// live event; the watcher reconnects with Last-Event-ID and reports what
// the replay brings.
func TestWatchResumesWithLastEventID(t *testing.T) {
	t.Setenv("PMX_CANVAS_URL", "")
	x := "x:markdown:0:0:10:10:X"
	y := "y:markdown:3000:0:10:10:Y"
	var mu sync.Mutex
	var lastIDs []string
	var canvases []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := len(lastIDs)
		lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
		canvases = append(canvases, r.URL.Query().Get("canvas"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		switch n {
		case 0:
			dwWriteFrame(w, 5, "connected", json.RawMessage(`{"resumed":false}`))
			dwWriteFrame(w, 5, "canvas-layout-update", dwLayout(nil, nil, nil))
			dwWriteFrame(w, 5, "context-pins-changed", dwPins())
			dwWriteFrame(w, 6, "canvas-layout-update", dwLayout([]string{x}, nil, nil))
			// and the connection drops
		case 1:
			dwWriteFrame(w, 6, "connected", json.RawMessage(`{"resumed":true,"replayed":1}`))
			dwWriteFrame(w, 7, "canvas-layout-update", dwLayout([]string{x, y}, nil, nil))
			<-r.Context().Done()
		default:
			t.Errorf("unexpected connection %d", n)
		}
	}))
	defer srv.Close()
	code, out, errOut := dwExecute("watch", "--json", "--max-events", "2", "--server-url", srv.URL, "--canvas", "design")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 2 || !strings.Contains(got[0], `"nodes":[{"id":"x"`) || !strings.Contains(got[1], `"nodes":[{"id":"y"`) {
		t.Fatalf("lines %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(lastIDs, ",") != ",6" || strings.Join(canvases, ",") != "design,design" {
		t.Fatalf("Last-Event-ID headers %q, canvases %q", lastIDs, canvases)
	}
}

func TestWatchFailures(t *testing.T) {
	t.Setenv("PMX_CANVAS_URL", "")
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"ok":false,"error":"missing or wrong bearer token"}`))
	}))
	defer refusing.Close()

	var mu sync.Mutex
	calls := 0
	dropping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if !first {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		dwWriteFrame(w, 1, "connected", json.RawMessage(`{}`))
	}))
	defer dropping.Close()

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing listening", []string{"watch", "--server-url", deadURL},
			`"error":"Cannot connect to pmx-canvas event stream at ` + deadURL},
		{"refused", []string{"watch", "--server-url", refusing.URL},
			`"error":"Watch stream refused: HTTP 401: missing or wrong bearer token"`},
		{"stream stays down", []string{"watch", "--server-url", dropping.URL, "--reconnect", "300ms"},
			`"error":"Watch stream failed: HTTP 503","hint":"Check that the server still runs (pmx-canvas serve status), then watch again; a longer --reconnect (e.g. 2m) waits for it to come back."`},
		{"no reconnect", []string{"watch", "--server-url", dropping.URL, "--reconnect", "0"},
			`"error":"Watch stream failed: the server closed the stream"`},
		{"bad kind", []string{"watch", "--events", "bogus"},
			`{"error":"Invalid value in --events: bogus","hint":"Use a comma-separated subset of: add,context-pin,connect,remove,group,move-end"}`},
		{"json and compact", []string{"watch", "--json", "--compact"}, `"error":"--json and --compact cannot be combined"`},
		{"max events", []string{"watch", "--max-events", "0"}, `"error":"Invalid value for --max-events: 0"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			calls = 0
			mu.Unlock()
			code, out, errOut := dwExecute(tc.args...)
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want stderr containing %s", code, out, errOut, tc.want)
			}
		})
	}
}

// TestWatchDiffsAFreshBurstAfterReconnect: when the server cannot replay
// (its ring moved on, or it restarted), the reconnection gets a fresh
// full layout; it is compared with the last one seen, so changes made
// meanwhile are still reported.
func TestWatchDiffsAFreshBurstAfterReconnect(t *testing.T) {
	t.Setenv("PMX_CANVAS_URL", "")
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		conn := n
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if conn == 1 {
			dwWriteFrame(w, 3, "connected", json.RawMessage(`{"resumed":false}`))
			dwWriteFrame(w, 3, "canvas-layout-update", dwLayout([]string{"a:markdown:0:0:10:10:A"}, nil, nil))
			dwWriteFrame(w, 3, "context-pins-changed", dwPins("a"))
			return
		}
		dwWriteFrame(w, 1, "connected", json.RawMessage(`{"resumed":false}`))
		dwWriteFrame(w, 1, "canvas-layout-update", dwLayout([]string{"a:markdown:0:0:10:10:A", "b:markdown:900:0:10:10:B"}, nil, nil))
		dwWriteFrame(w, 1, "context-pins-changed", dwPins())
		<-r.Context().Done()
	}))
	defer srv.Close()
	code, out, errOut := dwExecute("watch", "--max-events", "2", "--server-url", srv.URL)
	if code != 0 || out != "add 1 node: \"B\"\ncontext-pin removed: \"A\"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
