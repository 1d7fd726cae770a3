// Command pmx-bench drives concurrent clients against a pmx-canvas server and
// reports throughput and latency percentiles.
//
// By default it starts the pmx-canvas binary itself in a fresh temporary
// workspace (so every run measures a clean, durable server) and runs each
// scenario against it:
//
//	pmx-bench -bin ./bin/pmx-canvas -c 1,8,32,128 -n 20000
//	pmx-bench -url http://127.0.0.1:4313 -c 32 -d 10s
//	pmx-bench -bin ./bin/pmx-canvas -growth 100000 -c 32
//	pmx-bench -bin old/pmx-canvas,bin/pmx-canvas -c 32 -n 40000 -repeat 5
//	pmx-bench -bin ./bin/pmx-canvas -c 64 -canvases 1,32 -repeat 6
//
// With -repeat, or more than one binary or canvas count, each variant runs
// with a fresh server, interleaved, and a summary gives the medians and the
// ratios to the first variant.
//
// Server flags after "--" are passed to the started server, e.g.
// "-- --journal-max-batch 1" to measure without group commit.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

type config struct {
	url      string
	bin      string
	levels   []int
	n        int
	duration time.Duration
	op       string
	growth   int
	segments int
	label    string
	jsonOut  bool
	startups int
	seed     int
	rss      bool
	readers  int
	readOp   string
	readWait time.Duration
	server   []string
	await    int
	spread   bool
	fanout   int
	canvases int
	// bins, canvasCounts and repeat are the load mode's variants
	// (repeat.go); bin and canvases are the one being run.
	bins         []string
	canvasCounts []int
	repeat       int
}

func main() {
	var cfg config
	var levels string
	flag.StringVar(&cfg.url, "url", "", "server to load (default: start -bin in a temp workspace)")
	var bins, canvases string
	flag.StringVar(&bins, "bin", "pmx-canvas", "pmx-canvas binary to start when -url is empty; a comma-separated list compares binaries (load mode)")
	flag.StringVar(&levels, "c", "1,8,32,128", "comma-separated client counts")
	flag.IntVar(&cfg.n, "n", 20000, "operations per level (ignored with -d)")
	flag.DurationVar(&cfg.duration, "d", 0, "run each level for this long instead of -n operations")
	flag.StringVar(&cfg.op, "op", "node.add", "operation: node.add | node.move | state.get | search.get")
	flag.IntVar(&cfg.growth, "growth", 0, "growth mode: add this many nodes with the first -c level, reporting each segment")
	flag.IntVar(&cfg.segments, "segments", 10, "segments reported in growth mode")
	flag.StringVar(&cfg.label, "label", "", "label printed with the results")
	flag.BoolVar(&cfg.jsonOut, "json", false, "print results as JSON lines")
	flag.IntVar(&cfg.seed, "seed", 0, "first add this many nodes (in batches of 500)")
	flag.BoolVar(&cfg.rss, "rss", false, "memory mode: after -seed, report the server's resident memory at once and once idle (5 s)")
	flag.IntVar(&cfg.readers, "readers", 0, "clients reading concurrently with the writers (reported separately)")
	flag.StringVar(&cfg.readOp, "read-op", "state.get", "what the readers do: state.get | search.get")
	flag.DurationVar(&cfg.readWait, "read-interval", 0, "each reader's pause between reads (0: back to back)")
	flag.IntVar(&cfg.await, "await", 0, "await mode: park this many gate waiters over HTTP, resolve, report release latency and memory per waiter")
	flag.BoolVar(&cfg.spread, "spread", false, "await mode: one waiter per gate, all resolved together (default: all on one gate)")
	flag.StringVar(&canvases, "canvases", "1", "spread the writers over this many canvases (writer w writes to canvas bench-<w mod N>); a comma-separated list compares counts (load mode)")
	flag.IntVar(&cfg.repeat, "repeat", 1, "load mode: run every variant this many times, interleaved, each with a fresh server, and print medians")
	flag.IntVar(&cfg.fanout, "fanout", 0, "fan-out mode: open this many event-stream subscribers, add -n nodes one by one, report frame latency relative to each write's reply")
	flag.IntVar(&cfg.startups, "startup", 0, "startup mode: start the server this many times; report time to a healthy /health and idle memory")
	flag.Parse()
	cfg.server = flag.Args()
	var err error
	if cfg.levels, err = parseInts("c", levels); err != nil {
		fatalf("%v", err)
	}
	if cfg.canvasCounts, err = parseInts("canvases", canvases); err != nil {
		fatalf("%v", err)
	}
	cfg.bins = strings.Split(bins, ",")
	cfg.bin, cfg.canvases = cfg.bins[0], cfg.canvasCounts[0]
	if cfg.repeat < 1 {
		fatalf("bad -repeat value %d", cfg.repeat)
	}
	if err := run(cfg); err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pmx-bench: "+format+"\n", args...)
	os.Exit(1)
}

func run(cfg config) error {
	if cfg.startups > 0 {
		return startup(cfg)
	}
	if !cfg.rss && cfg.growth == 0 && cfg.await == 0 && cfg.fanout == 0 {
		return repeatLoads(cfg)
	}
	srv, client, url, err := open(cfg)
	if err != nil {
		return err
	}
	if srv != nil {
		defer srv.stop()
	}
	switch {
	case cfg.rss:
		return rssReport(cfg, srv.pid())
	case cfg.growth > 0:
		return growth(cfg, client, url)
	case cfg.await > 0:
		return awaitBench(cfg, client, url, srv.pid(), cfg.await, cfg.spread)
	default:
		return fanoutBench(cfg, client, url, cfg.fanout, cfg.n)
	}
}

// open starts cfg.bin (unless -url names a server) and seeds it. srv is
// nil for a server pmx-bench did not start.
func open(cfg config) (srv *server, client *fasthttp.HostClient, url string, err error) {
	url = cfg.url
	if url == "" {
		if srv, err = startServer(cfg.bin, cfg.server); err != nil {
			return nil, nil, "", err
		}
		url = srv.url
	}
	host := strings.TrimPrefix(url, "http://")
	client = &fasthttp.HostClient{Addr: host, MaxConns: 1024, ReadTimeout: 60 * time.Second, WriteTimeout: 60 * time.Second}
	if cfg.seed > 0 {
		if err := seedBatches(client, url, cfg.seed); err != nil {
			if srv != nil {
				srv.stop()
			}
			return nil, nil, "", err
		}
	}
	return srv, client, url, nil
}

// labelWidth is the label column's width (wider when variants are named).
var labelWidth = 10

func printHeader(cfg config) {
	for _, v := range cfg.variants() {
		labelWidth = max(labelWidth, len(v.label(cfg)))
	}
	if !cfg.jsonOut {
		fmt.Printf("%-*s %-10s %6s %10s %10s %9s %9s %9s %9s\n", labelWidth, "label", "op", "C", "ops", "ops/s", "p50", "p95", "p99", "max")
	}
}

// loadLevels runs every -c level once against a fresh server (or -url),
// printing a row per level, and returns the results by level.
func loadLevels(cfg config) (map[int]result, error) {
	srv, client, url, err := open(cfg)
	if err != nil {
		return nil, err
	}
	if srv != nil {
		defer srv.stop()
	}
	out := map[int]result{}
	for _, c := range cfg.levels {
		var ids []string
		if cfg.op == "node.move" {
			ids = seed(client, url, c*4)
		}
		stop := make(chan struct{})
		readRes := make(chan result, 1)
		if cfg.readers > 0 {
			go func() { readRes <- readLoop(client, url, cfg.readOp, cfg.readers, cfg.readWait, stop) }()
		}
		res := load(client, url, cfg.op, c, cfg.n, cfg.duration, ids, cfg.canvases)
		close(stop)
		report(cfg, cfg.op, c, res)
		if cfg.readers > 0 {
			report(cfg, cfg.readOp+"(r)", cfg.readers, <-readRes)
		}
		out[c] = res
	}
	return out, nil
}

// readLoop runs readers until stop closes.
func readLoop(client *fasthttp.HostClient, url, op string, readers int, wait time.Duration, stop <-chan struct{}) result {
	lats := make([][]time.Duration, readers)
	var wg sync.WaitGroup
	start := time.Now()
	errs := atomic.Int64{}
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			req := fasthttp.AcquireRequest()
			res := fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				prepare(req, url, op, i, r, nil)
				t0 := time.Now()
				if err := client.Do(req, res); err != nil || res.StatusCode() != 200 {
					errs.Add(1)
					continue
				}
				lats[r] = append(lats[r], time.Since(t0))
				if wait > 0 {
					select {
					case <-stop:
						return
					case <-time.After(wait):
					}
				}
			}
		}(r)
	}
	wg.Wait()
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	slices.Sort(all)
	return result{ops: len(all), errors: int(errs.Load()), elapsed: time.Since(start), lat: all}
}

// seedBatches adds n nodes through the batch route, 500 per request.
func seedBatches(client *fasthttp.HostClient, url string, n int) error {
	req := fasthttp.AcquireRequest()
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	for done := 0; done < n; {
		k := min(500, n-done)
		var b strings.Builder
		b.WriteString("[")
		for i := 0; i < k; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			j := done + i
			fmt.Fprintf(&b, `{"op":"node.add","args":{"type":"markdown","title":"seed %d","content":"notes about item%05d, topic %d and deploy %d"}}`, j, j, j%97, j%13)
		}
		b.WriteString("]")
		req.Reset()
		req.Header.SetMethod("POST")
		req.SetRequestURI(url + "/api/canvas/batch")
		req.SetBodyString(b.String())
		if err := client.Do(req, res); err != nil || res.StatusCode() != 200 {
			return fmt.Errorf("seed batch: %v %d %s", err, res.StatusCode(), res.Body())
		}
		done += k
	}
	return nil
}

// result is one measured run.
type result struct {
	ops     int
	errors  int
	elapsed time.Duration
	lat     []time.Duration
}

func (r result) percentile(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(r.lat)))) - 1
	return r.lat[max(0, min(i, len(r.lat)-1))]
}

func load(client *fasthttp.HostClient, url, op string, clients, n int, d time.Duration, ids []string, canvases int) result {
	var next atomic.Int64
	var errs atomic.Int64
	deadline := time.Time{}
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	lats := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	// Each canvas is opened (loaded, its actors started) before the clock
	// starts, as the default canvas is at server start: the figure is the
	// steady state, not the first write's start-up.
	for c := 0; c < canvases && canvases > 1; c++ {
		req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		req.SetRequestURI(url + "/api/canvas/state?canvas=bench-" + strconv.Itoa(c))
		if err := client.Do(req, res); err != nil || res.StatusCode() != 200 {
			fatalf("open canvas bench-%d: %v %d", c, err, res.StatusCode())
		}
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(res)
	}
	start := time.Now()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			req := fasthttp.AcquireRequest()
			res := fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			for {
				i := next.Add(1)
				if deadline.IsZero() && i > int64(n) {
					return
				}
				if !deadline.IsZero() && time.Now().After(deadline) {
					return
				}
				prepare(req, url, op, int(i), w, ids)
				if canvases > 1 {
					req.URI().QueryArgs().Set("canvas", "bench-"+strconv.Itoa(w%canvases))
				}
				t0 := time.Now()
				err := client.Do(req, res)
				lat := time.Since(t0)
				if err != nil || res.StatusCode() != 200 {
					errs.Add(1)
					continue
				}
				lats[w] = append(lats[w], lat)
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	slices.Sort(all)
	return result{ops: len(all), errors: int(errs.Load()), elapsed: elapsed, lat: all}
}

func prepare(req *fasthttp.Request, url, op string, i, w int, ids []string) {
	req.Reset()
	switch op {
	case "node.add":
		req.Header.SetMethod("POST")
		req.SetRequestURI(url + "/api/canvas/node")
		req.SetBodyString(`{"type":"markdown","title":"bench ` + strconv.Itoa(i) + `","content":"load test node"}`)
	case "node.move":
		req.Header.SetMethod("PATCH")
		id := ids[(w*4+i%4)%len(ids)]
		req.SetRequestURI(url + "/api/canvas/node/" + id)
		req.SetBodyString(`{"x":` + strconv.Itoa(i%5000) + `,"y":` + strconv.Itoa(w*600) + `}`)
	case "state.get":
		req.Header.SetMethod("GET")
		req.SetRequestURI(url + "/api/canvas/state")
	case "search.get":
		req.Header.SetMethod("GET")
		req.SetRequestURI(url + "/api/canvas/search?q=" + fmt.Sprintf("item%05d", i%10000))
	default:
		fatalf("unknown -op %q", op)
	}
	req.Header.SetContentType("application/json")
}

// seed adds n nodes and returns their ids (for move scenarios).
func seed(client *fasthttp.HostClient, url string, n int) []string {
	ids := make([]string, 0, n)
	req := fasthttp.AcquireRequest()
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	for i := 0; i < n; i++ {
		prepare(req, url, "node.add", i, 0, nil)
		if err := client.Do(req, res); err != nil || res.StatusCode() != 200 {
			fatalf("seed node: %v %d %s", err, res.StatusCode(), res.Body())
		}
		var out struct{ ID string }
		_ = json.Unmarshal(res.Body(), &out)
		ids = append(ids, out.ID)
	}
	return ids
}

func report(cfg config, op string, c int, r result) {
	rate := float64(r.ops) / r.elapsed.Seconds()
	if cfg.jsonOut {
		out, _ := json.Marshal(map[string]any{
			"label": cfg.label, "op": op, "clients": c, "ops": r.ops, "errors": r.errors,
			"opsPerSec": math.Round(rate), "p50ms": ms(r.percentile(50)), "p95ms": ms(r.percentile(95)),
			"p99ms": ms(r.percentile(99)), "maxms": ms(r.percentile(100)),
		})
		fmt.Println(string(out))
		return
	}
	fmt.Printf("%-*s %-10s %6d %10d %10.0f %9s %9s %9s %9s", labelWidth, cfg.label, op, c, r.ops, rate,
		fmtDur(r.percentile(50)), fmtDur(r.percentile(95)), fmtDur(r.percentile(99)), fmtDur(r.percentile(100)))
	if r.errors > 0 {
		fmt.Printf("  (%d errors)", r.errors)
	}
	fmt.Println()
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

func fmtDur(d time.Duration) string { return strconv.FormatFloat(ms(d), 'f', 2, 64) + "ms" }

// growth adds cfg.growth nodes at the first concurrency level and reports
// each segment, to show whether throughput falls as the canvas grows.
func growth(cfg config, client *fasthttp.HostClient, url string) error {
	c := cfg.levels[0]
	per := cfg.growth / cfg.segments
	if !cfg.jsonOut {
		fmt.Printf("%-10s %-12s %6s %10s %9s %9s\n", "label", "nodes", "C", "ops/s", "p50", "p99")
	}
	for s := 0; s < cfg.segments; s++ {
		r := load(client, url, "node.add", c, per, 0, nil, 1)
		rate := float64(r.ops) / r.elapsed.Seconds()
		upto := (s + 1) * per
		if cfg.jsonOut {
			out, _ := json.Marshal(map[string]any{"label": cfg.label, "nodesAfter": upto, "clients": c,
				"opsPerSec": math.Round(rate), "p50ms": ms(r.percentile(50)), "p99ms": ms(r.percentile(99)), "errors": r.errors})
			fmt.Println(string(out))
			continue
		}
		fmt.Printf("%-10s %5d-%-6d %6d %10.0f %9s %9s\n", cfg.label, s*per, upto, c, rate, fmtDur(r.percentile(50)), fmtDur(r.percentile(99)))
	}
	return nil
}

// server is a pmx-canvas process started for the run.
type server struct {
	cmd *exec.Cmd
	url string
	ws  string
}

// pid is the server process's id, 0 for a server pmx-bench did not start.
func (s *server) pid() int {
	if s == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

var bannerURL = regexp.MustCompile(`running at http://localhost:(\d+)`)

func startServer(bin string, extra []string) (*server, error) {
	ws, err := os.MkdirTemp("", "pmx-bench-")
	if err != nil {
		return nil, err
	}
	args := append([]string{"serve", "--port", "0", "--workspace", ws, "--no-open", "--log-level", "warn"}, extra...)
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	found := make(chan string, 1)
	var banner bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		log := serverLog()
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(log, line)
			if !sent {
				banner.WriteString(line + "\n")
				if m := bannerURL.FindStringSubmatch(line); m != nil {
					found <- m[1]
					sent = true
				}
			}
		}
		_, _ = io.Copy(log, stderr)
	}()
	select {
	case port := <-found:
		return &server{cmd: cmd, url: "http://127.0.0.1:" + port, ws: ws}, nil
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("server did not start:\n%s", banner.String())
	}
}

// serverLog is where the server's stderr goes after its banner: the file
// named by PMX_BENCH_SERVER_LOG (to read a run's GC trace or warnings),
// else nowhere.
func serverLog() io.Writer {
	if name := os.Getenv("PMX_BENCH_SERVER_LOG"); name != "" {
		if f, err := os.Create(name); err == nil {
			return f
		}
	}
	return io.Discard
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
	}
	_ = os.RemoveAll(s.ws)
}

// startup starts the server repeatedly and reports how long it takes until
// /health answers, and its resident memory once idle.
func startup(cfg config) error {
	var times []time.Duration
	var rss []int
	for i := 0; i < cfg.startups; i++ {
		t0 := time.Now()
		srv, err := startServer(cfg.bin, cfg.server)
		if err != nil {
			return err
		}
		c := &fasthttp.Client{}
		for {
			code, _, err := c.Get(nil, srv.url+"/health")
			if err == nil && code == 200 {
				break
			}
			if time.Since(t0) > 15*time.Second {
				srv.stop()
				return fmt.Errorf("server not healthy after 15s")
			}
			time.Sleep(time.Millisecond)
		}
		times = append(times, time.Since(t0))
		time.Sleep(time.Second)
		rss = append(rss, residentKiB(srv.cmd.Process.Pid))
		srv.stop()
	}
	slices.Sort(times)
	slices.Sort(rss)
	fmt.Printf("startups=%d  time-to-healthy p50=%s max=%s  idle RSS p50=%.1f MiB\n", len(times),
		fmtDur(times[len(times)/2]), fmtDur(times[len(times)-1]), float64(rss[len(rss)/2])/1024)
	return nil
}

// rssReport prints the server's resident memory right after seeding and
// once it has been idle for 5 s (the server trims at its first quiet
// second and drops its binary's pages a second later) (all of it, and the anonymous part: the
// heap and stacks without the mapped binary).
func rssReport(cfg config, pid int) error {
	if pid == 0 {
		return fmt.Errorf("-rss needs the server started by pmx-bench (no -url)")
	}
	after, afterAnon := procKiB(pid, "VmRSS:"), procKiB(pid, "RssAnon:")
	time.Sleep(5 * time.Second)
	idle, idleAnon := procKiB(pid, "VmRSS:"), procKiB(pid, "RssAnon:")
	mib := func(k int) float64 { return float64(k) / 1024 }
	fmt.Printf("%-10s nodes=%d  RSS after seeding %.1f MiB (anon %.1f)  idle 5s %.1f MiB (anon %.1f, file %.1f)\n",
		cfg.label, cfg.seed, mib(after), mib(afterAnon), mib(idle), mib(idleAnon), mib(idle-idleAnon))
	return nil
}

// residentKiB reads VmRSS from /proc.
func residentKiB(pid int) int { return procKiB(pid, "VmRSS:") }

// procKiB reads one kB field of /proc/<pid>/status.
func procKiB(pid int, field string) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(line)
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}
