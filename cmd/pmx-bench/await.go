package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// awaitBench parks waiters on approval gates over HTTP long-polls and
// measures how fast a resolve releases them: the time from sending the
// resolve(s) to each waiter's reply, and the server's resident memory per
// parked waiter (whole process: connection, handler, actor-side waiter).
//
// spread=false: all waiters on one gate, released by one resolve.
// spread=true: one waiter per gate, all gates resolved together by 32
// clients (the reference's measurement: 500 awaiters on 500 gates).
func awaitBench(cfg config, client *fasthttp.HostClient, url string, pid int, waiters int, spread bool) error {
	host := strings.TrimPrefix(url, "http://")
	gates := 1
	if spread {
		gates = waiters
	}
	ids := make([]string, gates)
	for i := range ids {
		body, err := post(client, url+"/api/canvas/ax/approval", fmt.Sprintf(`{"title":"bench %d"}`, i))
		if err != nil {
			return err
		}
		var r struct {
			ApprovalGate struct{ ID string } `json:"approvalGate"`
		}
		if err := json.Unmarshal(body, &r); err != nil || r.ApprovalGate.ID == "" {
			return fmt.Errorf("approval request: %s", body)
		}
		ids[i] = r.ApprovalGate.ID
	}
	time.Sleep(500 * time.Millisecond)
	rssBefore := residentKiB(pid)

	arrived := make([]time.Time, waiters)
	statuses := make([]string, waiters)
	// A reply counts when its first byte arrives; parsing waits until every
	// reply is in, so the client's own work does not delay later arrivals.
	var wg, firstBytes sync.WaitGroup
	parse := make(chan struct{})
	conns := make([]net.Conn, waiters)
	for i := range waiters {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			return fmt.Errorf("waiter %d: %w", i, err)
		}
		conns[i] = conn
		req := fmt.Sprintf("GET /api/canvas/ax/approval/%s?waitMs=120000 HTTP/1.1\r\nHost: %s\r\n\r\n", ids[i%gates], host)
		if _, err := conn.Write([]byte(req)); err != nil {
			return err
		}
		wg.Add(1)
		firstBytes.Add(1)
		go func() {
			defer wg.Done()
			br := bufio.NewReader(conn)
			_, perr := br.Peek(1)
			arrived[i] = time.Now()
			firstBytes.Done()
			<-parse
			if perr != nil {
				statuses[i] = perr.Error()
				return
			}
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				statuses[i] = err.Error()
				return
			}
			var body struct {
				Pending      bool `json:"pending"`
				ApprovalGate struct {
					Status string `json:"status"`
				} `json:"approvalGate"`
			}
			_ = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			statuses[i] = body.ApprovalGate.Status
		}()
	}
	// Wait until the server holds every waiter.
	deadline := time.Now().Add(120 * time.Second)
	for {
		body, err := get(client, url+"/api/canvas/ax/stats")
		if err != nil {
			return err
		}
		var st struct {
			GateWaiters int `json:"gateWaiters"`
		}
		_ = json.Unmarshal(body, &st)
		if st.GateWaiters == waiters {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("only %d of %d waiters parked", st.GateWaiters, waiters)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	rssParked := residentKiB(pid)

	t0 := time.Now()
	if spread {
		var rwg sync.WaitGroup
		next := make(chan string, gates)
		for _, id := range ids {
			next <- id
		}
		close(next)
		for range 32 {
			rwg.Add(1)
			go func() {
				defer rwg.Done()
				for id := range next {
					_, _ = post(client, url+"/api/canvas/ax/approval/"+id+"/resolve", `{"decision":"approved"}`)
				}
			}()
		}
		rwg.Wait()
	} else if _, err := post(client, url+"/api/canvas/ax/approval/"+ids[0]+"/resolve", `{"decision":"approved"}`); err != nil {
		return err
	}
	firstBytes.Wait()
	close(parse)
	wg.Wait()
	for _, c := range conns {
		_ = c.Close()
	}
	lat := make([]time.Duration, 0, waiters)
	bad := 0
	for i, at := range arrived {
		if statuses[i] != "approved" {
			bad++
			continue
		}
		lat = append(lat, at.Sub(t0))
	}
	slices.Sort(lat)
	r := result{lat: lat, elapsed: lat[len(lat)-1]}
	mode := "one-gate"
	if spread {
		mode = "per-gate"
	}
	perWaiter := float64(rssParked-rssBefore) * 1024 / float64(waiters)
	fmt.Printf("%-10s waiters=%d mode=%s released=%d wrong=%d  release p50=%s p99=%s max=%s  server RSS +%.1f MiB parked (%.1f KiB/waiter)\n",
		cfg.label, waiters, mode, len(lat), bad, fmtDur(r.percentile(50)), fmtDur(r.percentile(99)), fmtDur(lat[len(lat)-1]),
		float64(rssParked-rssBefore)/1024, perWaiter/1024)
	return nil
}

func post(client *fasthttp.HostClient, url, body string) ([]byte, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(url)
	req.Header.SetMethod("POST")
	req.Header.SetContentType("application/json")
	req.SetBodyString(body)
	if err := client.Do(req, res); err != nil {
		return nil, err
	}
	if res.StatusCode() != 200 {
		return nil, fmt.Errorf("POST %s: %d %s", url, res.StatusCode(), res.Body())
	}
	return append([]byte(nil), res.Body()...), nil
}

func get(client *fasthttp.HostClient, url string) ([]byte, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(url)
	if err := client.Do(req, res); err != nil {
		return nil, err
	}
	return append([]byte(nil), res.Body()...), nil
}
