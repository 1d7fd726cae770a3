package viewer_test

// The viewer documents in Debian's Chromium (go-rod): each is served from a
// loopback server with the sandbox CSP the canvas server sends, and the
// test checks what is drawn, the messages posted, and that valid documents
// log no console error and load nothing.

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/web/viewer"
)

var (
	update = flag.Bool("update", false, "write the reference screenshots into docs/shots")
	shots  = flag.String("shots", "", "also write a screenshot of every case into this directory")
)

// obj is a JSON object literal in the test specs.
type obj = map[string]any

// browser is one Chromium for the whole test, a loopback server for the
// documents, and what the current page logged.
type browser struct {
	t    *testing.T
	page *rod.Page
	srv  *httptest.Server

	mu       sync.Mutex
	docs     map[string][]byte
	problems []string // console errors, exceptions, log errors
	requests []string // every URL the page requested
}

func newBrowser(t *testing.T) *browser {
	browsertest.Require(t, &automation.Chromium{})
	b := &browser{t: t, docs: map[string][]byte{}}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		doc, ok := b.docs[strings.TrimPrefix(r.URL.Path, "/")]
		b.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", viewer.SandboxCSP)
		w.Header().Set("Cache-Control", "no-store")
		w.Write(doc)
	}))
	t.Cleanup(b.srv.Close)
	b.page = browsertest.Open(t, "about:blank", 760, 520)
	for _, enable := range []interface{ Call(proto.Client) error }{proto.RuntimeEnable{}, proto.LogEnable{}, proto.NetworkEnable{}} {
		if err := enable.Call(b.page); err != nil {
			t.Fatal(err)
		}
	}
	// Messages the viewer posts "to the parent" land on the page itself
	// when it is opened on its own; record them before any script runs.
	if _, err := b.page.EvalOnNewDocument(`window.__msgs = []; addEventListener("message", (e) => window.__msgs.push(e.data));`); err != nil {
		t.Fatal(err)
	}
	go b.page.EachEvent(
		func(e *proto.RuntimeConsoleAPICalled) {
			if e.Type == proto.RuntimeConsoleAPICalledTypeError || e.Type == proto.RuntimeConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, a.Value.String()+a.Description)
				}
				b.problem(fmt.Sprintf("console.%s: %s", e.Type, strings.Join(parts, " ")))
			}
		},
		func(e *proto.RuntimeExceptionThrown) {
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			b.problem("exception: " + msg)
		},
		func(e *proto.LogEntryAdded) {
			if e.Entry.Level == proto.LogLogEntryLevelError || e.Entry.Level == proto.LogLogEntryLevelWarning {
				b.problem("log: " + e.Entry.Text)
			}
		},
		func(e *proto.NetworkRequestWillBeSent) {
			b.mu.Lock()
			b.requests = append(b.requests, e.Request.URL)
			b.mu.Unlock()
		},
	)()
	return b
}

func (b *browser) problem(s string) {
	b.mu.Lock()
	b.problems = append(b.problems, s)
	b.mu.Unlock()
}

// open serves doc as name and loads it at width × height, waiting for
// selector to appear.
func (b *browser) open(name string, doc []byte, width, height int, selector string) {
	b.t.Helper()
	b.mu.Lock()
	b.docs[name] = doc
	b.problems, b.requests = nil, nil
	b.mu.Unlock()
	if err := b.page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: 1}); err != nil {
		b.t.Fatal(err)
	}
	if err := b.page.Navigate(b.srv.URL + "/" + name); err != nil {
		b.t.Fatal(err)
	}
	if err := b.page.Timeout(20 * time.Second).WaitLoad(); err != nil {
		b.t.Fatal(err)
	}
	if _, err := b.page.Timeout(20 * time.Second).Element(selector); err != nil {
		b.t.Fatalf("%s: %s never appeared: %v\n%s", name, selector, err, b.text("#pmx-root"))
	}
}

// clean fails the test if the page logged an error or warning, or
// requested anything but its own document.
func (b *browser) clean(name string) {
	b.t.Helper()
	time.Sleep(200 * time.Millisecond) // let late console events arrive
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("%s: %s", name, p)
	}
	for _, u := range b.requests {
		if u != b.srv.URL+"/"+name {
			b.t.Errorf("%s: the document requested %s", name, u)
		}
	}
}

// eval runs a function body in the page and returns its result as JSON.
func (b *browser) eval(body string) string {
	b.t.Helper()
	res, err := b.page.Eval("() => { " + body + " }")
	if err != nil {
		b.t.Fatalf("eval %q: %v", body, err)
	}
	return res.Value.JSON("", "")
}

// count returns the number of elements matching selector.
func (b *browser) count(selector string) int {
	b.t.Helper()
	var n int
	if err := json.Unmarshal([]byte(b.eval(fmt.Sprintf("return document.querySelectorAll(%q).length", selector))), &n); err != nil {
		b.t.Fatal(err)
	}
	return n
}

// text returns the text content of the first element matching selector.
func (b *browser) text(selector string) string {
	b.t.Helper()
	var s string
	_ = json.Unmarshal([]byte(b.eval(fmt.Sprintf("const e = document.querySelector(%q); return e ? e.textContent : ''", selector))), &s)
	return s
}

// messages returns the messages of type typ the page posted.
func (b *browser) messages(typ string) []map[string]any {
	b.t.Helper()
	var all []map[string]any
	if err := json.Unmarshal([]byte(b.eval("return window.__msgs")), &all); err != nil {
		b.t.Fatal(err)
	}
	var out []map[string]any
	for _, m := range all {
		if m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// until polls cond for up to 10 s.
func (b *browser) until(what string, cond func() bool) {
	b.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// screenshot writes the page to docs/shots/<name>.png with -update,
// and to the -shots directory when given.
func (b *browser) screenshot(name string, reference bool) {
	b.t.Helper()
	var dirs []string
	if *update && reference {
		dirs = append(dirs, filepath.Join("..", "..", "docs", "shots"))
	}
	if *shots != "" {
		dirs = append(dirs, *shots)
	}
	if len(dirs) == 0 {
		return
	}
	png, err := b.page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		b.t.Fatal(err)
	}
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
}

// graphSpec is the spec a graph node holds: a full-width Card titled
// title around one chart (reference domain §2.14).
func graphSpec(title, chart string, props obj) obj {
	return obj{"root": "card", "elements": obj{
		"card":  obj{"type": "Card", "props": obj{"title": title, "maxWidth": "full", "centered": false}, "children": []string{"chart"}},
		"chart": obj{"type": chart, "props": props, "children": []string{}},
	}}
}

var months = []obj{
	{"label": "Jan", "value": 12, "rate": 0.31, "a": 5, "b": 7},
	{"label": "Feb", "value": 18, "rate": 0.42, "a": 8, "b": 6},
	{"label": "Mar", "value": 9, "rate": 0.28, "a": 3, "b": 9},
	{"label": "Apr", "value": 24, "rate": 0.55, "a": 11, "b": 4},
	{"label": "May", "value": 16, "rate": 0.47, "a": 7, "b": 8},
}

// charts are one graph per chart component: its props, and the selector
// and count of the marks it must draw.
var charts = []struct {
	chart    string
	props    obj
	selector string
	marks    int
}{
	{"LineChart", obj{"data": months, "xKey": "label", "yKey": "value"}, ".recharts-line-dot", 5},
	{"BarChart", obj{"data": months, "xKey": "label", "yKey": "value", "colorBy": "series", "highlight": "max"}, ".recharts-bar-rectangle", 5},
	{"PieChart", obj{"data": []obj{{"name": "Docs", "value": 40}, {"name": "Code", "value": 35}, {"name": "Tests", "value": 25}}, "nameKey": "name", "valueKey": "value"}, ".recharts-pie-sector", 3},
	{"AreaChart", obj{"data": months, "xKey": "label", "yKey": "value"}, ".recharts-area-area", 1},
	{"ScatterChart", obj{"data": []obj{{"x": 1, "y": 3, "z": 10}, {"x": 2, "y": 5, "z": 40}, {"x": 4, "y": 2, "z": 20}, {"x": 5, "y": 7, "z": 30}}, "xKey": "x", "yKey": "y", "zKey": "z"}, ".recharts-scatter-symbol", 4},
	{"RadarChart", obj{"data": []obj{{"axis": "Speed", "us": 8, "them": 6}, {"axis": "Cost", "us": 5, "them": 7}, {"axis": "Scale", "us": 9, "them": 5}, {"axis": "Ease", "us": 6, "them": 8}}, "axisKey": "axis", "metrics": []string{"us", "them"}}, ".recharts-radar-polygon", 2},
	{"StackedBarChart", obj{"data": months, "xKey": "label", "series": []string{"a", "b"}}, ".recharts-bar-rectangle", 10},
	{"ComposedChart", obj{"data": months, "xKey": "label", "barKey": "value", "lineKey": "rate"}, ".recharts-bar-rectangle, .recharts-line-curve", 6},
	{"Sparkline", obj{"data": months, "valueKey": "value", "showValue": true, "showMinMax": true}, ".recharts-line-curve", 1},
	{"DotPlot", obj{"data": months, "labelKey": "label", "valueKey": "value", "sort": "desc"}, ".recharts-scatter-symbol", 5},
	{"BulletChart", obj{"data": []obj{{"label": "Revenue", "value": 270, "target": 250, "ranges": []int{150, 225, 300}}, {"label": "Profit", "value": 22, "target": 26, "ranges": []int{20, 25, 30}}}, "labelKey": "label", "valueKey": "value", "targetKey": "target", "rangesKey": "ranges"}, ".pmx-bullet", 2},
	{"Slopegraph", obj{"data": []obj{{"label": "North", "before": 40, "after": 55}, {"label": "South", "before": 50, "after": 35}, {"label": "East", "before": 30, "after": 32}}, "beforeLabel": "2024", "afterLabel": "2025", "colorByDirection": true}, ".recharts-line-curve", 3},
}

// formSpec is a Card with a form: an input bound to /form/name, a text
// showing it, and buttons that set state and submit.
var formSpec = obj{
	"root":  "card",
	"state": obj{"form": obj{"name": ""}, "approved": false},
	"elements": obj{
		"card":    obj{"type": "Card", "props": obj{"title": "Release checklist", "description": "Sign off the release"}, "children": []string{"name", "hello", "status", "actions"}},
		"name":    obj{"type": "Input", "props": obj{"label": "Your name", "name": "name", "placeholder": "Ada", "value": obj{"$bindState": "/form/name"}}},
		"hello":   obj{"type": "Text", "props": obj{"text": obj{"$template": "Signed by ${/form/name}"}, "variant": "muted"}},
		"status":  obj{"type": "Badge", "props": obj{"text": "Approved", "variant": "success"}, "visible": obj{"$state": "/approved"}},
		"actions": obj{"type": "Stack", "props": obj{"direction": "horizontal", "gap": "sm"}, "children": []string{"approve", "submit"}},
		"approve": obj{"type": "Button", "props": obj{"label": "Approve", "variant": "secondary"},
			"on": obj{"press": obj{"action": "setState", "params": obj{"statePath": "/approved", "value": true}}}},
		"submit": obj{"type": "Button", "props": obj{"label": "Submit"},
			"on": obj{"press": obj{"action": "submitRelease", "params": obj{"name": obj{"$state": "/form/name"}}}}},
	},
}

func TestViewerInChromium(t *testing.T) {
	b := newBrowser(t)

	t.Run("json-render form", func(t *testing.T) {
		b.t = t
		b.open("form", viewer.Document(viewer.Options{Kind: viewer.KindJSONRender, NodeID: "ui-form", Title: "Form", Spec: formSpec}), 640, 420, "input[name=name]")
		if got := b.text("[data-slot=card-title]"); got != "Release checklist" {
			t.Errorf("card title = %q", got)
		}
		if b.count("[data-slot=badge]") != 0 {
			t.Error("the Approved badge shows before approval")
		}
		input, err := b.page.Element("input[name=name]")
		if err != nil {
			t.Fatal(err)
		}
		if err := input.Input("Ada"); err != nil {
			t.Fatal(err)
		}
		b.until("the text bound to /form/name", func() bool { return strings.Contains(b.text("#pmx-root"), "Signed by Ada") })

		click := func(label string) {
			el, err := b.page.ElementR("button", label)
			if err != nil {
				t.Fatal(err)
			}
			if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
				t.Fatal(err)
			}
		}
		click("Approve")
		b.until("the badge shown by setState", func() bool { return b.count("[data-slot=badge]") == 1 })
		click("Submit")
		b.until("the submit action message", func() bool { return len(b.messages("pmx-json-render-action")) == 2 })
		msgs := b.messages("pmx-json-render-action")
		if msgs[0]["action"] != "setState" || msgs[0]["nodeId"] != "ui-form" {
			t.Errorf("first action = %v", msgs[0])
		}
		sub := msgs[1]
		params, _ := sub["params"].(map[string]any)
		state, _ := sub["state"].(map[string]any)
		form, _ := state["form"].(map[string]any)
		if sub["action"] != "submitRelease" || params["name"] != "Ada" || form["name"] != "Ada" || state["approved"] != true {
			t.Errorf("submit message = %v", sub)
		}
		heights := b.messages("pmx-frame-height")
		if len(heights) == 0 || heights[len(heights)-1]["nodeId"] != "ui-form" || heights[len(heights)-1]["height"].(float64) < 200 {
			t.Errorf("height messages = %v", heights)
		}
		b.clean("form")
		b.screenshot("json-render-form", true)

		// The parent switches the theme.
		b.eval(`window.postMessage({type: "pmx-theme", theme: "light"}, "*")`)
		b.until("the light theme", func() bool {
			return b.eval(`return document.documentElement.dataset.theme + " " + document.documentElement.className`) == `"light "`
		})
		time.Sleep(400 * time.Millisecond) // the controls' colour transitions
		b.screenshot("json-render-form-light", false)
	})

	for _, c := range charts {
		t.Run(c.chart, func(t *testing.T) {
			b.t = t
			title := c.chart + " of sample data"
			b.open(c.chart, viewer.Document(viewer.Options{Kind: viewer.KindGraph, NodeID: "graph-" + c.chart, Spec: graphSpec(title, c.chart, c.props)}), 760, 520, c.selector)
			if n := b.count(c.selector); n != c.marks {
				t.Errorf("%s: %d × %s, want %d", c.chart, n, c.selector, c.marks)
			}
			if b.count(".pmx-error") != 0 {
				t.Errorf("%s: error box: %s", c.chart, b.text(".pmx-error"))
			}
			if b.count(".recharts-surface") == 0 {
				t.Errorf("%s: no chart svg", c.chart)
			}
			if got := b.text("[data-slot=card-title]"); got != title {
				t.Errorf("%s: card title = %q", c.chart, got)
			}
			b.clean(c.chart)
			b.screenshot("graph-"+c.chart, c.chart == "BarChart")
		})
	}

	t.Run("graph expanded", func(t *testing.T) {
		b.t = t
		b.open("expanded", viewer.Document(viewer.Options{Kind: viewer.KindGraph, Display: "expanded", Spec: graphSpec("Deep work trend", "LineChart", charts[0].props)}), 1200, 800, ".recharts-line-dot")
		var h float64
		_ = json.Unmarshal([]byte(b.eval(`return document.querySelector(".recharts-surface").getBoundingClientRect().height`)), &h)
		if h < 0.7*800 {
			t.Errorf("expanded chart is %.0f px high in an 800 px frame, want > 70%%", h)
		}
		b.clean("expanded")
		b.screenshot("graph-expanded", false)
	})

	t.Run("mermaid", func(t *testing.T) {
		b.t = t
		src := "flowchart LR\n  A[Agent] -->|adds| B(Canvas node)\n  B --> C{Render?}\n  C -->|yes| D[Viewer frame]\n  C -->|no| E[Error box]"
		b.open("mermaid", viewer.Document(viewer.Options{Kind: viewer.KindMermaid, NodeID: "mm-1", Source: src}), 760, 420, ".pmx-mermaid svg")
		text := b.text(".pmx-mermaid svg")
		for _, want := range []string{"Agent", "Canvas node", "Viewer frame", "adds"} {
			if !strings.Contains(text, want) {
				t.Errorf("diagram text %q lacks %q", text, want)
			}
		}
		if n := b.count(".pmx-mermaid svg .node"); n != 5 {
			t.Errorf("%d diagram nodes, want 5", n)
		}
		b.until("a height message", func() bool { return len(b.messages("pmx-frame-height")) > 0 })
		b.clean("mermaid")
		b.screenshot("mermaid-flowchart", true)
	})

	t.Run("mermaid syntax error", func(t *testing.T) {
		b.t = t
		b.open("mermaid-bad", viewer.Document(viewer.Options{Kind: viewer.KindMermaid, Source: "flowchart LR\n  A --> (("}), 760, 420, ".pmx-error")
		if got := b.text(".pmx-error-title"); got != "Mermaid syntax error" {
			t.Errorf("error title = %q", got)
		}
		if !strings.Contains(b.text(".pmx-error-detail"), "line 2") {
			t.Errorf("error detail %q does not name the line", b.text(".pmx-error-detail"))
		}
		b.screenshot("mermaid-error", false)
	})

	t.Run("unknown component", func(t *testing.T) {
		b.t = t
		spec := obj{"root": "card", "elements": obj{
			"card":   obj{"type": "Card", "props": obj{"title": "Mixed"}, "children": []string{"widget", "note"}},
			"widget": obj{"type": "FancyWidget", "props": obj{}},
			"note":   obj{"type": "Text", "props": obj{"text": "Still drawn"}},
		}}
		b.open("unknown", viewer.Document(viewer.Options{Spec: spec}), 640, 360, ".pmx-error")
		if got := b.text(".pmx-error-title"); got != `Unknown component "FancyWidget"` {
			t.Errorf("error title = %q", got)
		}
		if !strings.Contains(b.text("#pmx-root"), "Still drawn") {
			t.Error("the rest of the spec is not drawn")
		}
		b.screenshot("unknown-component", false)
	})

	t.Run("invalid spec", func(t *testing.T) {
		b.t = t
		b.open("invalid", viewer.Document(viewer.Options{Spec: obj{"root": "missing", "elements": obj{"a": obj{"type": "Text", "props": obj{"text": "x"}}}}}), 640, 360, ".pmx-error")
		if got := b.text(".pmx-error-title"); got != "Invalid json-render spec" {
			t.Errorf("error title = %q", got)
		}
		if !strings.Contains(b.text(".pmx-error-detail"), `"missing"`) {
			t.Errorf("detail %q does not name the missing root", b.text(".pmx-error-detail"))
		}
	})
}
