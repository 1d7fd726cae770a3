package main

// Benchmarks of the workbench in Chromium (make bench; the figures and how
// to read them are in docs/benchmarks.md). Each runs once (-benchtime 1x)
// against the real server and reports what it measured in the page with
// performance.now() and requestAnimationFrame: first paint of a large
// board, the frame times of panning and zooming it, how soon a change
// another client makes is on screen while 8 agents write, and what one
// node's change costs on a 10,000-node board. They are figures to read,
// not thresholds: nothing here fails on a slow machine.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
)

// seedGrid adds n markdown nodes (each its own text) on a grid of cols
// columns, 340 × 240 px apart, 500 per batch.
func seedGrid(b testing.TB, p *proc, n, cols int) {
	b.Helper()
	for done := 0; done < n; {
		k := min(500, n-done)
		ops := make([]string, k)
		for i := range ops {
			j := done + i
			ops[i] = fmt.Sprintf(`{"op":"node.add","args":{"type":"markdown","title":"card %d","content":"Notes on **item %05d**: topic %d, deploy %d.","x":%d,"y":%d,"width":300,"height":200}}`,
				j, j, j%97, j%13, (j%cols)*340, (j/cols)*240)
		}
		p.must(200, "POST", "/api/canvas/batch", "["+strings.Join(ops, ",")+"]")
		done += k
	}
}

// benchPage opens the workbench with preload run in the page before its
// own modules (it installs the measuring hooks).
func benchPage(b testing.TB, url, preload string) *rod.Page {
	b.Helper()
	page := browsertest.Open(b, "about:blank", 1280, 800)
	if preload != "" {
		if _, err := page.EvalOnNewDocument(preload); err != nil {
			b.Fatal(err)
		}
	}
	if err := page.Navigate(url); err != nil {
		b.Fatal(err)
	}
	return page
}

// evalJSON runs fn(args...) in the page (awaiting a promise) and decodes
// its JSON value into out.
func evalJSON(b testing.TB, page *rod.Page, out any, fn string, args ...any) {
	b.Helper()
	res, err := page.Timeout(5*time.Minute).Eval(fn, args...)
	if err != nil {
		b.Fatalf("eval: %v", err)
	}
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), out); err != nil {
		b.Fatalf("decode %s: %v", res.Value.JSON("", ""), err)
	}
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// paintHook records, in window.__boardPaint, the time (ms since the
// navigation started) of the first frame painted after the counts show
// the whole board: the frame after the one in which they first do.
const paintHook = `(() => {
  const want = %q;
  const check = () => {
    const c = document.querySelector(".counts");
    if (c && c.textContent.startsWith(want)) {
      requestAnimationFrame(() => requestAnimationFrame((ts) => { window.__boardPaint = performance.now(); }));
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`

// waitPaint waits for the board's first paint and returns it (ms) and the
// number of cards in the DOM.
func waitPaint(b testing.TB, page *rod.Page) (ms float64, cards int) {
	b.Helper()
	var got struct {
		Ms    float64
		Cards int
	}
	evalJSON(b, page, &got, `() => new Promise((resolve) => {
	  const wait = () => window.__boardPaint ? resolve({ms: window.__boardPaint, cards: document.querySelectorAll(".canvas-node").length}) : setTimeout(wait, 20);
	  wait();
	})`)
	return got.Ms, got.Cards
}

// panZoom drives the view with wheel events, one per frame (zoom: with
// Ctrl, about the viewport's centre, in and out), and returns the frame
// intervals (ms) requestAnimationFrame saw.
func panZoom(b testing.TB, page *rod.Page, frames int, zoom bool) []float64 {
	b.Helper()
	var got []float64
	evalJSON(b, page, &got, `(frames, zoom) => new Promise((resolve) => {
	  const vp = document.querySelector(".canvas-viewport"), r = vp.getBoundingClientRect();
	  const times = [];
	  let last = 0, i = 0;
	  const step = (ts) => {
	    if (last) times.push(ts - last);
	    last = ts;
	    if (i++ >= frames) { resolve(times); return; }
	    const dir = Math.floor(i / 40) % 2 ? 1 : -1;
	    vp.dispatchEvent(zoom
	      ? new WheelEvent("wheel", { deltaY: 10 * dir, ctrlKey: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true })
	      : new WheelEvent("wheel", { deltaX: 14 * dir, deltaY: 9 * dir, bubbles: true, cancelable: true }));
	    requestAnimationFrame(step);
	  };
	  requestAnimationFrame(step);
	})`, frames, zoom)
	return got
}

// long counts the frames that took more than 20 ms (a missed 60 Hz frame).
func long(frames []float64) int {
	n := 0
	for _, f := range frames {
		if f > 20 {
			n++
		}
	}
	return n
}

func requireBenchBrowser(b *testing.B) {
	b.Helper()
	browsertest.Require(b, &automation.Chromium{})
}

// BenchmarkWorkbenchBoard: first paint of a large board and the pan and
// zoom frame times on it: 1,000 and 10,000 nodes, opened fitted to the
// board (about 10 %: the far layer draws the cards as boxes) and at 50 %
// from the top left (DOM cards, culled to those near the view).
func BenchmarkWorkbenchBoard(b *testing.B) {
	requireBenchBrowser(b)
	for _, c := range []struct {
		name     string
		n, cols  int
		viewport string
	}{
		{"1000/fitted", 1000, 40, ""},
		{"1000/at50", 1000, 40, `{"x":1,"y":1,"scale":0.5}`},
		{"10000/fitted", 10000, 100, ""},
		{"10000/at50", 10000, 100, `{"x":1,"y":1,"scale":0.5}`},
	} {
		b.Run(c.name, func(b *testing.B) { boardBench(b, c.n, c.cols, c.viewport) })
	}
}

func boardBench(b *testing.B, n, cols int, viewport string) {
	p := startServer(b, "")
	seedGrid(b, p, n, cols)
	if viewport != "" {
		p.must(200, "POST", "/api/canvas/viewport", viewport)
	}
	want := fmt.Sprintf("%d nodes", n+2) // and the docked status and context widgets
	page := benchPage(b, p.url+"/workbench", fmt.Sprintf(paintHook, want))
	paint, cards := waitPaint(b, page)
	time.Sleep(2 * time.Second) // markdown renders arrive, the page settles
	pan := panZoom(b, page, 240, false)
	zoom := panZoom(b, page, 240, true)
	var after int
	evalJSON(b, page, &after, `() => document.querySelectorAll(".canvas-node").length`)
	b.ReportMetric(paint, "firstpaint-ms")
	b.ReportMetric(float64(cards), "cards-in-dom")
	b.ReportMetric(percentile(pan, 50), "pan-p50-ms")
	b.ReportMetric(percentile(pan, 95), "pan-p95-ms")
	b.ReportMetric(percentile(zoom, 50), "zoom-p50-ms")
	b.ReportMetric(percentile(zoom, 95), "zoom-p95-ms")
	b.ReportMetric(float64(long(pan)+long(zoom)), "frames>20ms")
	b.Logf("%d nodes, viewport %s: first paint %.0f ms with %d cards in the DOM; pan frames p50 %.1f p95 %.1f max %.1f ms (%d of %d over 20 ms); zoom frames p50 %.1f p95 %.1f max %.1f ms (%d of %d over 20 ms); %d cards after",
		n, cmp.Or(viewport, "fitted"), paint, cards, percentile(pan, 50), percentile(pan, 95), percentile(pan, 100), long(pan), len(pan),
		percentile(zoom, 50), percentile(zoom, 95), percentile(zoom, 100), long(zoom), len(zoom), after)
}

// changeHook times, in the page, each canvas-changes frame's handling (the
// page's listener, synchronously: parse, apply, patch) and the frame
// interval it fell in, into window.__changes: [{script, frame}].
const changeHook = `(() => {
  window.__changes = [];
  let pending = [];
  let last = 0;
  const tick = (ts) => {
    if (last) for (const c of pending) { c.frame = ts - last; window.__changes.push(c); }
    pending = [];
    last = ts;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (name, fn, opts) {
    if (name !== "canvas-changes") return add.call(this, name, fn, opts);
    return add.call(this, name, (e) => {
      const t0 = performance.now();
      fn(e);
      pending.push({ script: performance.now() - t0 });
    }, opts);
  };
})();`

// BenchmarkWorkbenchChange10000: the cost of one node's change on a
// 10,000-node board: the page's handling of the frame (script) and the
// frame it fell in.
func BenchmarkWorkbenchChange10000(b *testing.B) {
	requireBenchBrowser(b)
	p := startServer(b, "")
	seedGrid(b, p, 10000, 100)
	// (0, 0, 1) is the viewport of a canvas never viewed, which the page fits.
	p.must(200, "POST", "/api/canvas/viewport", `{"x":1,"y":1,"scale":1}`)
	page := benchPage(b, p.url+"/workbench", fmt.Sprintf(paintHook, "10002 nodes")+changeHook)
	waitPaint(b, page)
	time.Sleep(2 * time.Second)
	// A card in view (the view shows the top left at 100 %).
	var id string
	evalJSON(b, page, &id, `() => document.querySelector(".canvas-node").dataset.nodeId`)
	const rounds = 40
	for i := 0; i < rounds; i++ {
		p.must(200, "PATCH", "/api/canvas/node/"+id, fmt.Sprintf(`{"title":"changed %d"}`, i))
		time.Sleep(150 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	var got []struct{ Script, Frame float64 }
	evalJSON(b, page, &got, `() => window.__changes`)
	var script, frame []float64
	for _, c := range got {
		script = append(script, c.Script)
		frame = append(frame, c.Frame)
	}
	b.ReportMetric(percentile(script, 50), "script-p50-ms")
	b.ReportMetric(percentile(script, 95), "script-p95-ms")
	b.ReportMetric(percentile(frame, 50), "frame-p50-ms")
	b.ReportMetric(percentile(frame, 95), "frame-p95-ms")
	b.Logf("one node change on 10,000 nodes (%d changes): handling p50 %.2f p95 %.2f ms; its frame p50 %.1f p95 %.1f ms",
		len(got), percentile(script, 50), percentile(script, 95), percentile(frame, 50), percentile(frame, 95))
}

// probeHook records when a probe card's title shows each new text: the
// epoch ms of the frame after the change reached the DOM, into
// window.__seen[text].
const probeHook = `(() => {
  window.__seen = {};
  const watch = () => {
    const layer = document.querySelector(".nodes");
    if (!layer) { setTimeout(watch, 10); return; }
    new MutationObserver(() => {
      for (const t of layer.querySelectorAll(".node-title")) {
        const s = t.textContent;
        if (s.startsWith("probe ") && !(s in window.__seen)) {
          window.__seen[s] = 0;
          requestAnimationFrame(() => { window.__seen[s] = performance.timeOrigin + performance.now(); });
        }
      }
    }).observe(layer, { subtree: true, childList: true, characterData: true });
  };
  watch();
})();`

// BenchmarkWorkbenchChangeLatency: how soon a change is on screen (the
// frame after it reached the DOM) while 8 agents write, each every 50 ms
// (160 writes/s), on a 200-node board.
func BenchmarkWorkbenchChangeLatency(b *testing.B) {
	requireBenchBrowser(b)
	p := startServer(b, "")
	seedGrid(b, p, 200, 20)
	probe := p.addNode(`{"type":"markdown","title":"probe start","content":"the probe","x":40,"y":40,"width":300,"height":200}`)
	page := benchPage(b, p.url+"/workbench", fmt.Sprintf(paintHook, "203 nodes")+probeHook)
	waitPaint(b, page)
	time.Sleep(time.Second)

	var ids []string
	for _, n := range nodesOf(p.state("")) {
		if id, _ := n["id"].(string); strings.HasPrefix(id, "node-") && id != probe {
			ids = append(ids, id)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	for a := 0; a < 8; a++ {
		wg.Add(1)
		go func(a int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
				id := ids[(a*25+i)%len(ids)]
				body := fmt.Sprintf(`{"updates":[{"id":%q,"position":{"x":%d,"y":%d}}]}`, id, 4000+a*340, (i%20)*240)
				req, _ := http.NewRequest("POST", p.url+"/api/canvas/update", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-PMX-Agent", fmt.Sprintf("agent-%d", a))
				if res, err := client.Do(req); err == nil {
					res.Body.Close()
					writes.Add(1)
				}
			}
		}(a)
	}
	const probes = 60
	sent := map[string]float64{}
	start := time.Now()
	for i := 0; i < probes; i++ {
		text := fmt.Sprintf("probe %d", i)
		sent[text] = float64(time.Now().UnixNano()) / 1e6
		p.must(200, "PATCH", "/api/canvas/node/"+probe, fmt.Sprintf(`{"title":%q}`, text))
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	rate := float64(writes.Load()) / time.Since(start).Seconds()
	time.Sleep(500 * time.Millisecond)
	var seen map[string]float64
	evalJSON(b, page, &seen, `() => window.__seen`)
	var lat []float64
	missed := 0
	for text, at := range sent {
		if s, ok := seen[text]; ok && s > 0 {
			lat = append(lat, s-at)
		} else {
			missed++
		}
	}
	b.ReportMetric(percentile(lat, 50), "onscreen-p50-ms")
	b.ReportMetric(percentile(lat, 95), "onscreen-p95-ms")
	b.ReportMetric(rate, "agent-writes/s")
	b.Logf("change on screen while 8 agents write (%.0f writes/s): p50 %.1f p95 %.1f max %.1f ms over %d probes (%d not seen)",
		rate, percentile(lat, 50), percentile(lat, 95), percentile(lat, 100), len(lat), missed)
}
