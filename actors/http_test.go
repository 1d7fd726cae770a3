package actors

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
	httpapi "github.com/pmxcanvas/pmx-canvas/surfaces/http"
)

// A fault inside the Layout actor reaches an HTTP client as a 500 with the
// error body, and the very next request works.
func TestPanicOverHTTP(t *testing.T) {
	h := start(t, "")
	app := httpapi.New(httpapi.Options{Invoker: h.sys, Streamer: h.sys, Logger: quiet()}).App()
	panicHook = func(env *messages.Envelope) {
		if strings.Contains(string(env.Input), "boom") {
			panic("injected fault")
		}
	}
	t.Cleanup(func() { panicHook = nil })

	send := func(body string) (int, map[string]any) {
		req := httptest.NewRequest("POST", "http://127.0.0.1/api/canvas/node", strings.NewReader(body))
		res, err := app.Test(req, 10000)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return res.StatusCode, out
	}
	if code, out := send(`{"type":"markdown","title":"boom"}`); code != 500 || out["ok"] != false || out["code"] != "internal" {
		t.Fatalf("fault: %d %v", code, out)
	}
	if code, out := send(`{"type":"markdown","title":"fine"}`); code != 200 || out["title"] != "fine" {
		t.Fatalf("after the fault: %d %v", code, out)
	}
}
