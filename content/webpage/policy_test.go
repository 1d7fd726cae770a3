package webpage

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// hosts is a Resolver with fixed answers, which lets a loopback test
// server pass for a public host.
type hosts map[string][]netip.Addr

func (h hosts) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := h[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// countingServer is a loopback server that counts its requests.
func countingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}), &n
}

func port(t *testing.T, srv *httptest.Server) string {
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

func TestPolicyRefusesLoopback(t *testing.T) {
	srv, hits := countingServer(t, htmlPage("<title>secret</title>"))
	_, err := newFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/admin")
	fe := fetchError(t, err, KindBlocked)
	for _, want := range []string{"127.0.0.1", "loopback", "--fetch-allow 127.0.0.1"} {
		if !strings.Contains(fe.Error(), want) {
			t.Errorf("message %q lacks %q", fe.Error(), want)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the server got %d requests, want none", hits.Load())
	}
}

func TestPolicyAllow(t *testing.T) {
	srv, _ := countingServer(t, htmlPage("<title>ok</title>"))
	loopback := hosts{"dev.internal": {netip.MustParseAddr("127.0.0.1")}}
	tests := []struct {
		name  string
		allow []string
		host  string
		ok    bool
	}{
		{"nothing allowed", nil, "127.0.0.1", false},
		{"CIDR", []string{"127.0.0.0/8"}, "127.0.0.1", true},
		{"IP", []string{"127.0.0.1"}, "127.0.0.1", true},
		{"other CIDR", []string{"10.0.0.0/8"}, "127.0.0.1", false},
		{"host name", []string{"DEV.internal."}, "dev.internal", true},
		{"host name does not allow the IP", []string{"dev.internal"}, "127.0.0.1", false},
		{"IP allows the name's address", []string{"127.0.0.1"}, "dev.internal", true},
		{"name resolving to loopback is refused", nil, "dev.internal", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetcher(t, Options{Policy: Policy{Allow: tt.allow}, Resolver: loopback})
			snap, err := f.Fetch(context.Background(), "http://"+tt.host+":"+port(t, srv)+"/")
			if tt.ok {
				if err != nil || str(snap.PageTitle) != "ok" {
					t.Fatalf("Fetch = %v, %v; want the page", snap, err)
				}
				return
			}
			fe := fetchError(t, err, KindBlocked)
			if !strings.Contains(fe.Error(), tt.host) || !strings.Contains(fe.Error(), "127.0.0.1") || !strings.Contains(fe.Error(), "--fetch-allow "+tt.host) {
				t.Errorf("message %q should name the host %s and the address", fe.Error(), tt.host)
			}
		})
	}
}

func TestPolicyAppliesToRedirects(t *testing.T) {
	inner, innerHits := countingServer(t, htmlPage("<title>inner</title>"))
	innerURL := "http://127.0.0.1:" + port(t, inner) + "/metadata"
	public, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, innerURL, http.StatusFound)
	})
	// public.example stands for a public host: the test allows its name.
	f := newFetcher(t, Options{
		Policy:   Policy{Allow: []string{"public.example"}},
		Resolver: hosts{"public.example": {netip.MustParseAddr("127.0.0.1")}},
	})
	_, err := f.Fetch(context.Background(), "http://public.example:"+port(t, public)+"/start")
	fe := fetchError(t, err, KindBlocked)
	if fe.URL != innerURL {
		t.Errorf("blocked URL %q, want the redirect target %q", fe.URL, innerURL)
	}
	if innerHits.Load() != 0 {
		t.Errorf("the inner server got %d requests, want none", innerHits.Load())
	}
}

func TestPolicyTriesTheNextAddress(t *testing.T) {
	// A name with a refused address and an allowed one: the allowed one
	// is used, the refused one never connected to.
	srv, _ := countingServer(t, htmlPage("<title>second</title>"))
	f := newFetcher(t, Options{
		Policy:   Policy{Allow: []string{"127.0.0.1"}},
		Resolver: hosts{"mixed.example": {netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("127.0.0.1")}},
	})
	snap, err := f.Fetch(context.Background(), "http://mixed.example:"+port(t, srv)+"/")
	if err != nil || str(snap.PageTitle) != "second" {
		t.Fatalf("Fetch = %v, %v; want the page from 127.0.0.1", snap, err)
	}
}

func TestPolicyIgnoresEnvironmentProxy(t *testing.T) {
	proxy, proxyHits := countingServer(t, htmlPage("<title>proxy</title>"))
	srv, _ := countingServer(t, htmlPage("<title>direct</title>"))
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	f := newFetcher(t, Options{
		Policy:   Policy{Allow: []string{"site.example"}},
		Resolver: hosts{"site.example": {netip.MustParseAddr("127.0.0.1")}},
	})
	snap, err := f.Fetch(context.Background(), "http://site.example:"+port(t, srv)+"/")
	if err != nil || str(snap.PageTitle) != "direct" || proxyHits.Load() != 0 {
		t.Fatalf("Fetch = %v, %v with %d proxy requests; want the page directly", snap, err, proxyHits.Load())
	}
}

func TestPolicyCheck(t *testing.T) {
	p, err := Policy{}.compile()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		addr string
		what string // "" when allowed
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"169.254.169.254", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"224.0.0.251", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"2001:4860:4860::8888", ""},
		{"::ffff:8.8.8.8", ""},
	}
	for _, tt := range tests {
		err := p.check("example.com", netip.MustParseAddr(tt.addr))
		switch {
		case tt.what == "" && err != nil:
			t.Errorf("check(%s) = %v, want allowed", tt.addr, err)
		case tt.what != "" && (err == nil || !strings.Contains(err.Error(), tt.what)):
			t.Errorf("check(%s) = %v, want refused as %s", tt.addr, err, tt.what)
		}
	}
	zoned, err := Policy{Allow: []string{"fe80::1%eth0", "::ffff:10.0.0.1"}}.compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"fe80::1%eth1", "10.0.0.1"} {
		if err := zoned.check("h", netip.MustParseAddr(a)); err != nil {
			t.Errorf("check(%s) with it allowed = %v", a, err)
		}
	}
	all, _ := Policy{AllowPrivate: true}.compile()
	if err := all.check("localhost", netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Errorf("AllowPrivate check = %v, want allowed", err)
	}
}

func TestPolicyAllowEntries(t *testing.T) {
	tests := []struct {
		entry string
		ok    bool
	}{
		{"10.0.0.0/8", true},
		{" 192.168.0.0/16 ", true},
		{"fd00::/8", true},
		{"[::1]", true},
		{"10.0.0.5", true},
		{"fe80::1%eth0", true},
		{"intranet.corp", true},
		{"", true},
		{"10.0.0.0/33", false},
		{"example.com/8", false},
		{"two words", false},
		{"host:8080", false},
	}
	for _, tt := range tests {
		_, err := NewFetcher(Options{Policy: Policy{Allow: []string{tt.entry}}})
		if (err == nil) != tt.ok {
			t.Errorf("NewFetcher with Allow %q: error %v, want ok=%v", tt.entry, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.entry)) {
			t.Errorf("error %q does not name the entry %q", err, tt.entry)
		}
	}
}
