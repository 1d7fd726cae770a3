package actors

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/content/boardsvg"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

func exportCall(t *testing.T, h *harness, input string) (*messages.Reply, error) {
	t.Helper()
	return h.sys.Invoke(context.Background(), &messages.Envelope{Op: "canvas.export", Input: json.RawMessage(input)})
}

// A PNG export draws the SVG in a browser of its own: about:blank at the
// picture's size, the SVG put in as an image, one screenshot, closed —
// never the canvas's webview session.
func TestPNGExportRasterisesTheSVGInItsOwnBrowser(t *testing.T) {
	eng := &fakeEngine{supported: true}
	h := startWebview(t, eng, func(c *WebviewConfig) {
		c.Browser.ChromePath = "/opt/chromium"
		c.Browser.ChromeArgv = []string{"--lang=en"}
	})
	a := h.mustCall("", "node.add", `{"type":"markdown","title":"Plan","content":"# Ship it","x":0,"y":0,"width":400,"height":200}`)
	id := a["id"].(string)

	reply, err := exportCall(t, h, `{"format":"png","nodes":"`+id+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	blob := reply.Body.(*messages.Blob)
	if blob.ContentType != "image/png" || string(blob.Data) != "image:png" {
		t.Fatalf("png export %+v", blob)
	}
	calls := eng.calls()
	// 400×200 plus the 40-unit margin, at 2 pixels per unit.
	if len(calls) != 4 || calls[0] != `start about:blank 960x560 bin="/opt/chromium" argv=[--lang=en] dir=""` ||
		!strings.HasPrefix(calls[1], "evaluate#1 ") || calls[2] != "screenshot#1 png q=nil" || calls[3] != "close#1" {
		t.Fatalf("engine calls:\n%s", strings.Join(calls, "\n"))
	}
	// The page gets exactly the SVG the svg export answers.
	m := regexp.MustCompile(`const svg = ("(?:[^"\\]|\\.)*");`).FindStringSubmatch(calls[1])
	if m == nil || !strings.Contains(calls[1], "new Image(960, 560)") || !strings.Contains(calls[1], `type: "image/svg+xml"`) ||
		!strings.Contains(calls[1], "await img.decode()") {
		t.Fatalf("evaluate: %s", calls[1])
	}
	var drawn string
	if err := json.Unmarshal([]byte(m[1]), &drawn); err != nil {
		t.Fatal(err)
	}
	svgReply, err := exportCall(t, h, `{"format":"svg","nodes":"`+id+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if svg := svgReply.Body.(*messages.Blob); svg.ContentType != "image/svg+xml" || string(svg.Data) != string(drawn) || !strings.Contains(string(drawn), ">Plan</text>") {
		t.Fatalf("the page drew another SVG than the export's:\n%s", drawn)
	}
}

func TestPNGExportWithoutABrowserIs501(t *testing.T) {
	h := startWebview(t, &fakeEngine{supported: false})
	_, err := exportCall(t, h, `{"format":"png"}`)
	e := messages.AsError(err)
	if e == nil || e.Status != 501 || e.Code != messages.CodeWebviewUnsupported || !strings.Contains(e.Message, "install chromium") {
		t.Fatalf("png without a browser: %v", err)
	}
	// The SVG needs no browser.
	if reply, err := exportCall(t, h, `{"format":"svg"}`); err != nil || reply.Body.(*messages.Blob).ContentType != "image/svg+xml" {
		t.Fatalf("svg without a browser: %v", err)
	}
}

func TestRasterSize(t *testing.T) {
	for _, tc := range []struct {
		view boardsvg.Rect
		w, h int
	}{
		{boardsvg.Rect{W: 480, H: 240}, 960, 480},             // small: 2×
		{boardsvg.Rect{W: 4096, H: 1024}, 4096, 1024},         // 1× fits
		{boardsvg.Rect{W: 20000, H: 5000}, 4096, 1024},        // scaled down
		{boardsvg.Rect{W: 0.1, H: 0.1}, 1, 1},                 // never empty
		{boardsvg.Rect{X: -50, W: 1000, H: 3000}, 1365, 4096}, // tall
	} {
		if w, h := rasterSize(tc.view); w != tc.w || h != tc.h {
			t.Errorf("rasterSize(%+v) = %dx%d, want %dx%d", tc.view, w, h, tc.w, tc.h)
		}
	}
}

// What each node type puts on its card comes from its data.
func TestBoardNodeShowsEachType(t *testing.T) {
	h := startWebview(t, &fakeEngine{supported: true})
	h.mustCall("", "node.add", `{"type":"status","title":"Agent","data":{"phase":"thinking","activeTool":"grep","message":"looking","level":"error"}}`)
	h.mustCall("", "node.add", `{"type":"ledger","title":"Checks","content":"a\\nb","data":{"passedChecks":3,"note":"ok"}}`)
	h.mustCall("", "node.add", `{"type":"trace","title":"t","toolName":"Read","status":"success","resultSummary":"read 3 files","duration":"1.2s"}`)
	reply, err := exportCall(t, h, `{"format":"svg","theme":"light"}`)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(reply.Body.(*messages.Blob).Data)
	for _, want := range []string{`data-theme="light"`, `>THINKING</text>`, `⚙ grep`, `class="error"`, `>looking</text>`,
		`>Passed Checks</text>`, `>3</text>`, `>Note</text>`, `>a</text>`, `>b</text>`, `⚙ Read`, `read 3 files`, `>1.2s</text>`, `>SUCCESS</text>`} {
		if !strings.Contains(svg, want) {
			t.Errorf("missing %q in\n%s", want, svg)
		}
	}
	// The docked HUD widgets are not board content.
	if strings.Contains(svg, `data-id="status-main"`) || strings.Contains(svg, `data-id="context-main"`) {
		t.Error("a docked widget was drawn on the whole-board export")
	}
	named, err := exportCall(t, h, `{"format":"svg","nodes":"status-main"}`)
	if err != nil || !strings.Contains(string(named.Body.(*messages.Blob).Data), `data-id="status-main"`) {
		t.Errorf("a named docked widget is drawn: %v", err)
	}
}
