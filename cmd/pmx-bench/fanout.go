package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// fanoutBench opens subs event-stream subscribers, then one writer adds
// writes nodes one after another. For every write it measures, per
// subscriber, when the write's canvas-layout-update frame arrived relative
// to the writer's reply (negative: before it), the spread between the first
// and the last subscriber, and whether every subscriber got every frame.
func fanoutBench(cfg config, client *fasthttp.HostClient, url string, subs, writes int) error {
	type arrival struct {
		rev uint64
		at  time.Time
	}
	got := make([][]arrival, subs)
	var ready, done sync.WaitGroup
	conns := make([]io.Closer, subs)
	tr := &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: subs, DisableCompression: true}
	for i := range subs {
		res, err := (&http.Client{Transport: tr}).Get(url + "/api/workbench/events")
		if err != nil {
			return fmt.Errorf("subscriber %d: %w", i, err)
		}
		conns[i] = res.Body
		ready.Add(1)
		done.Add(1)
		go func(i int, c io.Reader) {
			defer done.Done()
			r := bufio.NewReaderSize(c, 1<<16)
			var event string
			signalled := false
			for {
				line, err := r.ReadSlice('\n')
				isData := bytes.HasPrefix(line, []byte("data: "))
				if err == bufio.ErrBufferFull {
					// A long data line (a layout past 64 KiB): only its
					// tail (the revision) matters.
					rest := append([]byte(nil), line...)
					for err == bufio.ErrBufferFull {
						line, err = r.ReadSlice('\n')
						rest = append(rest[max(0, len(rest)-256):], line...)
					}
					line = rest
				}
				if err != nil {
					return
				}
				switch {
				case bytes.HasPrefix(line, []byte("event: ")):
					event = string(bytes.TrimSpace(line[7:]))
				case isData && event == "canvas-layout-update":
					now := time.Now()
					if rev, ok := tailRevision(line); ok {
						got[i] = append(got[i], arrival{rev, now})
					}
					if !signalled {
						signalled = true
						ready.Done() // the connect burst's layout arrived
					}
				}
			}
		}(i, res.Body)
	}
	ready.Wait()
	replies := make(map[uint64]time.Time, writes)
	var took []time.Duration // each write's own latency
	for w := range writes {
		body := fmt.Sprintf(`{"type":"markdown","title":"fan-out %d","x":%d,"y":0}`, w, w*10)
		req := fasthttp.AcquireRequest()
		res := fasthttp.AcquireResponse()
		req.SetRequestURI(url + "/api/canvas/node")
		req.Header.SetMethod("POST")
		req.SetBodyString(body)
		began := time.Now()
		if err := client.Do(req, res); err != nil || res.StatusCode() != 200 {
			return fmt.Errorf("write %d: %v %d", w, err, res.StatusCode())
		}
		at := time.Now()
		took = append(took, at.Sub(began))
		rev, _ := strconv.ParseUint(string(res.Header.Peek("X-PMX-Revision")), 10, 64)
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(res)
		replies[rev] = at
	}
	time.Sleep(2 * time.Second) // let the last frames arrive
	for _, c := range conns {
		_ = c.Close()
	}
	done.Wait()

	// A frame a subscriber did not get is coalesced when it got a later
	// layout (the server sends only the newest of those queued for a
	// subscriber that fell behind), lost otherwise.
	newest := make([]uint64, subs)
	for i := range subs {
		for _, a := range got[i] {
			newest[i] = max(newest[i], a.rev)
		}
	}
	var deltas, spreads []time.Duration
	early, total, missing, lost := 0, 0, 0, 0
	for rev, reply := range replies {
		for i := range subs {
			if newest[i] < rev {
				lost++
			}
		}
		var firstAt, lastAt time.Time
		seen := 0
		for i := range subs {
			for _, a := range got[i] {
				if a.rev != rev {
					continue
				}
				seen++
				d := a.at.Sub(reply)
				deltas = append(deltas, d)
				if d < 0 {
					early++
				}
				if firstAt.IsZero() || a.at.Before(firstAt) {
					firstAt = a.at
				}
				if a.at.After(lastAt) {
					lastAt = a.at
				}
				break
			}
		}
		total += seen
		missing += subs - seen
		if seen > 0 {
			spreads = append(spreads, lastAt.Sub(firstAt))
		}
	}
	slices.Sort(deltas)
	slices.Sort(spreads)
	slices.Sort(took)
	pct := func(xs []time.Duration, p float64) time.Duration {
		if len(xs) == 0 {
			return 0
		}
		return xs[min(len(xs)-1, int(p*float64(len(xs))))]
	}
	fmt.Printf("%-10s subscribers %d, writes %d: frames %d of %d (coalesced %d, lost %d); after the reply p50 %s p99 %s max %s; "+
		"spread first->last p50 %s p99 %s; before the reply %.0f%%; the write itself p50 %s p99 %s\n",
		cfg.label, subs, writes, total, subs*writes, missing-lost, lost,
		fmtSigned(pct(deltas, 0.5)), fmtSigned(pct(deltas, 0.99)), fmtSigned(pct(deltas, 1)),
		fmtDur(pct(spreads, 0.5)), fmtDur(pct(spreads, 0.99)), 100*float64(early)/float64(max(1, total)),
		fmtDur(pct(took, 0.5)), fmtDur(pct(took, 0.99)))
	return nil
}

// tailRevision reads the layout frame's top-level revision, the last key
// of its data line.
func tailRevision(line []byte) (uint64, bool) {
	i := bytes.LastIndex(line, []byte(`"revision":`))
	if i < 0 {
		return 0, false
	}
	rest := line[i+len(`"revision":`):]
	end := bytes.IndexAny(rest, ",}")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(bytes.TrimSpace(rest[:end])), 10, 64)
	return n, err == nil
}

func fmtSigned(d time.Duration) string {
	if d < 0 {
		return "-" + fmtDur(-d)
	}
	return fmtDur(d)
}
