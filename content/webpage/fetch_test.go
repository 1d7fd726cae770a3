package webpage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// serve starts a loopback server for the test.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// htmlPage serves body as text/html with the given charset-less type.
func htmlPage(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}
}

// localFetcher is a Fetcher as a loopback-bound server has it.
func localFetcher(t *testing.T, opt Options) *Fetcher {
	t.Helper()
	opt.Policy.AllowPrivate = true
	return newFetcher(t, opt)
}

func newFetcher(t *testing.T, opt Options) *Fetcher {
	t.Helper()
	f, err := NewFetcher(opt)
	if err != nil {
		t.Fatalf("NewFetcher: %v", err)
	}
	t.Cleanup(f.CloseIdleConnections)
	return f
}

// fetchError asserts that err is a *FetchError of kind k.
func fetchError(t *testing.T, err error, k Kind) *FetchError {
	t.Helper()
	var fe *FetchError
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v (%T), want a *FetchError of kind %s", err, err, k)
	}
	if fe.Kind != k {
		t.Fatalf("error kind = %s (%v), want %s", fe.Kind, err, k)
	}
	return fe
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestFetchMetadata(t *testing.T) {
	tests := []struct {
		name               string
		head               string
		title, desc, image string
	}{
		{"og wins", `<title>Doc</title><meta name="twitter:title" content="Tw"><meta property="og:title" content="OG">`, "OG", "<nil>", "<nil>"},
		{"twitter before title", `<title>Doc</title><meta name="twitter:title" content="Tw">`, "Tw", "<nil>", "<nil>"},
		{"title decoded and normalized", "<title>\n  Fish &amp; \t Chips &#x2014; A\u00a0Guide </title>", "Fish & Chips \u2014 A Guide", "<nil>", "<nil>"},
		{"no title", `<meta name="keywords" content="x">`, "<nil>", "<nil>", "<nil>"},
		{"empty og falls back", `<meta property="og:title" content="  "><title>Doc</title>`, "Doc", "<nil>", "<nil>"},
		{"first of a key wins", `<meta property="og:title" content="One"><meta property="og:title" content="Two">`, "One", "<nil>", "<nil>"},
		{"keys case-insensitive, name or property", `<meta NAME="OG:Title" CONTENT="Named"><meta property="Description" content="D &lt;b&gt;">`, "Named", "D <b>", "<nil>"},
		{"description first", `<meta name="twitter:description" content="Tw"><meta property="og:description" content="OG"><meta name="description" content="Plain">`, "<nil>", "Plain", "<nil>"},
		{"og description second", `<meta name="twitter:description" content="Tw"><meta property="og:description" content="OG">`, "<nil>", "OG", "<nil>"},
		{"twitter description last", `<meta name="twitter:description" content="Tw">`, "<nil>", "Tw", "<nil>"},
		{"svg title ignored", `</head><body><svg><title>Icon</title></svg>`, "<nil>", "<nil>", "<nil>"},
		{"image resolved against final URL", `<meta property="og:image" content="img/a.png?x=1">`, "<nil>", "<nil>", "{{base}}/dir/img/a.png?x=1"},
		{"twitter image fallback", `<meta name="twitter:image" content="/t.png">`, "<nil>", "<nil>", "{{base}}/t.png"},
		{"og image before twitter", `<meta name="twitter:image" content="/t.png"><meta property="og:image" content="https://cdn.example/o.png">`, "<nil>", "<nil>", "https://cdn.example/o.png"},
		{"non-http image dropped", `<meta property="og:image" content="javascript:alert(1)">`, "<nil>", "<nil>", "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := "<!doctype html><html><head>" + tt.head + "</head><body><p>Hello.</p></body></html>"
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/start" {
					http.Redirect(w, r, "/dir/page", http.StatusFound)
					return
				}
				htmlPage(page)(w, r)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/start")
			if err != nil {
				t.Fatal(err)
			}
			wantImage := strings.ReplaceAll(tt.image, "{{base}}", srv.URL)
			if str(snap.PageTitle) != tt.title || str(snap.Description) != tt.desc || str(snap.ImageURL) != wantImage {
				t.Errorf("title, description, image = %q, %q, %q; want %q, %q, %q",
					str(snap.PageTitle), str(snap.Description), str(snap.ImageURL), tt.title, tt.desc, wantImage)
			}
		})
	}
}

const articlePage = `<!doctype html>
<html><head><title>Gardening notes</title>
<script>var secretTracker = "do-not-keep";</script>
<style>.x { color: red }</style></head>
<body>
<nav class="menu"><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/shop">Shop</a></nav>
<article>
<h1>Growing tomatoes</h1>
<p>Tomatoes want <b>sun</b>, water and patience. This guide walks through the whole season, from seed to
harvest, for gardeners who have a balcony, a yard or just a sunny window sill to work with.</p>
<h2>What you need</h2>
<ul><li>Seeds of a variety that suits your climate</li><li>Pots with drainage holes</li><li>Good compost</li></ul>
<p>Read the <a href="/guides/soil">soil guide</a> before you start, because soil makes or breaks the harvest, and
nothing else you do later can make up for a poor start in compost that holds too much or too little water.</p>
<h2>Planting out</h2>
<p>Plant the seedlings out once the nights stay above ten degrees. Water them deeply twice a week rather than a
little every day, so that the roots grow down instead of staying near the surface where they dry out.</p>
<script>document.write("injected text");</script>
</article>
<footer class="site-footer">Copyright footer text</footer>
</body></html>`

func TestFetchReadableMarkdown(t *testing.T) {
	srv := serve(t, htmlPage(articlePage))
	snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/garden")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## What you need",
		"- Seeds of a variety",
		"[soil guide](" + srv.URL + "/guides/soil)",
		"**sun**",
		"Plant the seedlings out",
	} {
		if !strings.Contains(snap.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, snap.Content)
		}
	}
	for _, unwanted := range []string{"secretTracker", "injected text", "color: red", "About us", "Copyright footer"} {
		if strings.Contains(snap.Content, unwanted) {
			t.Errorf("content keeps %q:\n%s", unwanted, snap.Content)
		}
	}
	if !strings.HasPrefix(snap.Excerpt, "Growing tomatoes Tomatoes want sun, water and patience. This guide") {
		t.Errorf("excerpt = %q, want the article's plain text", snap.Excerpt)
	}
	if n := utf8.RuneCountInString(snap.Excerpt); n != excerptRunes {
		t.Errorf("excerpt has %d characters, want %d (the text is longer)", n, excerptRunes)
	}
	if strings.ContainsAny(snap.Excerpt, "#*[\n") {
		t.Errorf("excerpt has markdown or line breaks: %q", snap.Excerpt)
	}
	if snap.Truncated || snap.StatusCode != 200 || snap.ContentType != "text/html; charset=utf-8" || snap.URL != srv.URL+"/garden" {
		t.Errorf("snapshot = %+v", snap)
	}
}

func TestFetchFallbackContent(t *testing.T) {
	// Readability finds no text in a page of images; the <main> is kept
	// rather than nothing.
	srv := serve(t, htmlPage(`<html><body><header><img src="/logo.png" alt="Logo"></header>
		<main><img src="chart.png" alt="Chart"><script>x()</script></main></body></html>`))
	snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/p/")
	if err != nil {
		t.Fatal(err)
	}
	if want := "![Chart](" + srv.URL + "/p/chart.png)"; snap.Content != want {
		t.Errorf("content = %q, want %q", snap.Content, want)
	}
}

func TestFetchCharset(t *testing.T) {
	longASCII := strings.Repeat("<!-- padding past the first kilobyte -->\n", 40)
	tests := []struct {
		name        string
		contentType string
		body        []byte
		want        string
	}{
		{"windows-1252 from header", "text/html; charset=windows-1252",
			[]byte("<title>Caf\xe9 \x93quoted\x94 \x80</title>"), "Café “quoted” €"},
		{"Shift_JIS from meta", "text/html",
			[]byte("<meta charset=\"Shift_JIS\"><title>\x93\xfa\x96\x7b\x8c\xea</title>"), "日本語"},
		{"meta http-equiv", "text/html",
			[]byte(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><title>Gr` + "\xfc\xdf" + `e</title>`), "Grüße"},
		{"header wins over meta", "text/html; charset=utf-8",
			[]byte(`<meta charset="windows-1252"><title>Caf` + "\xc3\xa9" + `</title>`), "Café"},
		{"utf-8 found past the first kilobyte", "text/html",
			[]byte(longASCII + "<title>Caf\xc3\xa9</title>"), "Café"},
		{"undeclared legacy bytes read as windows-1252", "text/html",
			[]byte("<title>Caf\xe9</title>"), "Café"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.Write(tt.body)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if got := str(snap.PageTitle); got != tt.want {
				t.Errorf("title = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFetchText(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		content, excerpt        string
	}{
		{"plain", "text/plain; charset=utf-8", "  Line one\n\n  line   two\t\n", "Line one\n\n  line   two", "Line one line two"},
		{"markdown", "text/markdown", "# Notes\n\n- a\n", "# Notes\n\n- a", "# Notes - a"},
		{"latin-1", "text/plain; charset=iso-8859-1", "na\xefve", "naïve", "naïve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				io.WriteString(w, tt.body)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/notes.txt")
			if err != nil {
				t.Fatal(err)
			}
			if snap.Content != tt.content || snap.Excerpt != tt.excerpt || snap.PageTitle != nil || snap.ContentType != tt.contentType {
				t.Errorf("content %q, excerpt %q, title %v, type %q; want %q, %q, nil, %q",
					snap.Content, snap.Excerpt, snap.PageTitle, snap.ContentType, tt.content, tt.excerpt, tt.contentType)
			}
		})
	}
}

func TestFetchOtherTypes(t *testing.T) {
	tests := []struct {
		contentType string
		body        string
	}{
		{"application/pdf", "%PDF-1.7 <title>not html</title>"},
		{"image/png", "\x89PNG\r\n\x1a\n"},
		{"application/json", `{"title": "<title>x</title>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				io.WriteString(w, tt.body)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/file")
			if err != nil {
				t.Fatal(err)
			}
			if snap.Content != "" || snap.Excerpt != "" || snap.PageTitle != nil || snap.ContentType != tt.contentType || snap.StatusCode != 200 {
				t.Errorf("snapshot = %+v, want empty content and type %q", snap, tt.contentType)
			}
		})
	}
}

func TestFetchSniffsMissingContentType(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // keep net/http from sniffing on the server
		io.WriteString(w, "<!DOCTYPE html><html><head><title>Sniffed</title></head><body><p>x</p></body></html>")
	})
	snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if str(snap.PageTitle) != "Sniffed" || snap.ContentType != "" {
		t.Errorf("title %q, content type %q; want \"Sniffed\", \"\"", str(snap.PageTitle), snap.ContentType)
	}
}

func TestFetchRequestHeaders(t *testing.T) {
	var accept, agent atomic.Value
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		accept.Store(r.Header.Get("Accept"))
		agent.Store(r.Header.Get("User-Agent"))
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/next", http.StatusMovedPermanently)
		}
	})
	if _, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	// The values seen are those of the redirected request.
	if accept.Load() != acceptHeader || agent.Load() != userAgentHeader {
		t.Errorf("Accept %q, User-Agent %q; want %q, %q", accept.Load(), agent.Load(), acceptHeader, userAgentHeader)
	}
}

func TestFetchStatusError(t *testing.T) {
	tests := []struct {
		code int
		want string
	}{
		{404, "Request failed with 404 Not Found"},
		{503, "Request failed with 503 Service Unavailable"},
		{301, "Request failed with 301 Moved Permanently"}, // a redirect without Location is final
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.code), func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(tt.code)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL+"/missing")
			fe := fetchError(t, err, KindStatus)
			if snap != nil || fe.Error() != tt.want || fe.StatusCode != tt.code || fe.ContentType != "text/html" || fe.URL != srv.URL+"/missing" {
				t.Errorf("got %v, %+v; want %q with status %d", snap, fe, tt.want, tt.code)
			}
		})
	}
}

func TestFetchTimeout(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"no response", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}},
		{"slow body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><title>start")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.handler)
			start := time.Now()
			_, err := localFetcher(t, Options{Timeout: 80 * time.Millisecond}).Fetch(context.Background(), srv.URL+"/slow")
			fe := fetchError(t, err, KindTimeout)
			if want := "Timed out after 80ms while fetching " + srv.URL + "/slow."; fe.Error() != want {
				t.Errorf("message %q, want %q", fe.Error(), want)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("errors.Is(%v, context.DeadlineExceeded) = false", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("fetch took %v, want about 80ms", d)
			}
		})
	}
}

func TestFetchDefaultTimeoutMessage(t *testing.T) {
	// The reference's text with its default timeout, without waiting 10s:
	// the fetch's context is ended as its timer would end it.
	fctx, cancel := context.WithCancelCause(context.Background())
	cancel(errTimedOut)
	fe := localFetcher(t, Options{}).fetchError(context.Background(), fctx, "https://example.com/", context.DeadlineExceeded)
	if want := "Timed out after 10000ms while fetching https://example.com/."; fe.Error() != want || fe.Kind != KindTimeout {
		t.Errorf("got %s %q, want %s %q", fe.Kind, fe.Error(), KindTimeout, want)
	}
}

func TestFetchCanceled(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := localFetcher(t, Options{}).Fetch(ctx, srv.URL)
	fetchError(t, err, KindCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("errors.Is(%v, context.Canceled) = false", err)
	}
}

func TestFetchBadURL(t *testing.T) {
	_, err := localFetcher(t, Options{}).Fetch(context.Background(), "ftp://example.com/")
	if fe := fetchError(t, err, KindBadURL); fe.Error() != msgSchemeURL {
		t.Errorf("message %q, want %q", fe.Error(), msgSchemeURL)
	}
}

func TestFetchNetworkError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // nothing listens there now
	_, err := localFetcher(t, Options{}).Fetch(context.Background(), addr)
	fe := fetchError(t, err, KindNetwork)
	if !strings.Contains(fe.Error(), addr) || !strings.Contains(fe.Error(), "refused") {
		t.Errorf("message %q should name %s and the cause", fe.Error(), addr)
	}
}

func TestFetchOversizePage(t *testing.T) {
	// 5 MB of paragraphs with two-byte characters, streamed.
	para := "<p>" + strings.Repeat("Crème brûlée é ", 60) + "</p>\n"
	var served atomic.Int64
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><head><title>Big</title></head><body><article>")
		for served.Load() < 5_000_000 {
			n, err := io.WriteString(w, para)
			served.Add(int64(n))
			if err != nil {
				return // the client stopped reading
			}
		}
	})
	snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Truncated || str(snap.PageTitle) != "Big" {
		t.Errorf("Truncated %v, title %q; want true, \"Big\"", snap.Truncated, str(snap.PageTitle))
	}
	if n := utf8.RuneCountInString(snap.Content); n != maxContentRunes || !utf8.ValidString(snap.Content) {
		t.Errorf("content has %d characters (valid UTF-8: %v), want %d", n, utf8.ValidString(snap.Content), maxContentRunes)
	}
}

// endless is an infinite reader that counts what is read from it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadCappedReadsOneByteOverTheCap(t *testing.T) {
	tests := []struct {
		name      string
		src       func() (io.Reader, *endless)
		max       int64
		wantLen   int
		truncated bool
	}{
		{"endless", func() (io.Reader, *endless) { e := &endless{}; return e, e }, 1_000_000, 1_000_000, true},
		{"exactly the cap", func() (io.Reader, *endless) { return strings.NewReader("abcd"), nil }, 4, 4, false},
		{"one over", func() (io.Reader, *endless) { return strings.NewReader("abcde"), nil }, 4, 4, true},
		{"short", func() (io.Reader, *endless) { return strings.NewReader("ab"), nil }, 4, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, counter := tt.src()
			body, truncated, err := readCapped(r, tt.max)
			if err != nil || len(body) != tt.wantLen || truncated != tt.truncated {
				t.Fatalf("readCapped = %d bytes, %v, %v; want %d, %v", len(body), truncated, err, tt.wantLen, tt.truncated)
			}
			if counter != nil && counter.n > tt.max+1 {
				t.Errorf("read %d bytes from the source, want at most %d", counter.n, tt.max+1)
			}
		})
	}
}

func TestFetchRedirects(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/chain/"))
		switch {
		case r.URL.Path == "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case r.URL.Path == "/moved":
			http.Redirect(w, r, "/new/place?q=1", http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, "/chain/") && n > 0:
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusTemporaryRedirect)
		default:
			htmlPage("<title>"+r.URL.Path+"</title>")(w, r)
		}
	})
	tests := []struct {
		name     string
		path     string
		max      int
		wantURL  string // on success
		wantKind Kind   // on failure
		wantMsg  string
	}{
		{"moved", "/moved", 0, "/new/place?q=1", "", ""},
		{"ten redirects are followed", "/chain/10", 0, "/chain/0", "", ""},
		{"eleven are too many", "/chain/11", 0, "", KindTooManyRedirects, "Too many redirects (more than 10) while fetching {{base}}/chain/11; the last one went to {{base}}/chain/0."},
		{"loop", "/loop", 0, "", KindTooManyRedirects, "Too many redirects (more than 10) while fetching {{base}}/loop; the last one went to {{base}}/loop."},
		{"own limit", "/chain/3", 2, "", KindTooManyRedirects, "Too many redirects (more than 2) while fetching {{base}}/chain/3; the last one went to {{base}}/chain/0."},
		{"none followed", "/moved", -1, "", KindTooManyRedirects, "Too many redirects (more than 0) while fetching {{base}}/moved; the last one went to {{base}}/new/place?q=1."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, err := localFetcher(t, Options{MaxRedirects: tt.max}).Fetch(context.Background(), srv.URL+tt.path)
			if tt.wantKind != "" {
				fe := fetchError(t, err, tt.wantKind)
				if want := strings.ReplaceAll(tt.wantMsg, "{{base}}", srv.URL); fe.Error() != want {
					t.Errorf("message %q, want %q", fe.Error(), want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if snap.URL != srv.URL+tt.wantURL {
				t.Errorf("final URL %q, want %q", snap.URL, srv.URL+tt.wantURL)
			}
		})
	}
}

func TestFetchFrameBlocking(t *testing.T) {
	tests := []struct {
		name    string
		xfo     string
		csp     []string
		blocked bool
		reason  string // a part of it
	}{
		{"no headers", "", nil, false, ""},
		{"XFO DENY", "DENY", nil, true, "DENY"},
		{"XFO sameorigin lowercase", " sameorigin ", nil, true, "SAMEORIGIN"},
		{"XFO ALLOW-FROM is obsolete", "ALLOW-FROM https://example.com", nil, false, ""},
		{"CSP none", "", []string{"default-src 'self'; frame-ancestors 'none'"}, true, "'none'"},
		{"CSP empty list", "", []string{"frame-ancestors ;script-src 'self'"}, true, "no sources"},
		{"CSP self only", "", []string{"frame-ancestors 'self' https://partner.example"}, true, "likely"},
		{"CSP https scheme", "", []string{"frame-ancestors 'self' https:"}, false, ""},
		{"CSP star", "", []string{"FRAME-ANCESTORS *"}, false, ""},
		{"CSP localhost", "", []string{"frame-ancestors 'self' http://localhost:*"}, false, ""},
		{"CSP 127.0.0.1", "", []string{"frame-ancestors http://127.0.0.1:4313"}, false, ""},
		{"CSP without frame-ancestors", "", []string{"default-src 'none'"}, false, ""},
		{"CSP frame-ancestors overrides XFO", "DENY", []string{"frame-ancestors *"}, false, ""},
		{"XFO counts without frame-ancestors", "DENY", []string{"default-src *"}, true, "DENY"},
		{"second policy blocks", "", []string{"frame-ancestors *", "frame-ancestors 'none'"}, true, "'none'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.xfo != "" {
					w.Header().Set("X-Frame-Options", tt.xfo)
				}
				for _, c := range tt.csp {
					w.Header().Add("Content-Security-Policy", c)
				}
				htmlPage("<p>framed?</p>")(w, r)
			})
			snap, err := localFetcher(t, Options{}).Fetch(context.Background(), srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if snap.FrameBlocked != tt.blocked || (snap.FrameBlockedReason != nil) != tt.blocked ||
				!strings.Contains(str(snap.FrameBlockedReason), tt.reason) {
				t.Errorf("FrameBlocked %v, reason %q; want %v, reason with %q", snap.FrameBlocked, str(snap.FrameBlockedReason), tt.blocked, tt.reason)
			}
		})
	}
}

func TestFetchedAt(t *testing.T) {
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	srv := serve(t, htmlPage("<p>x</p>"))
	snap, err := localFetcher(t, Options{Now: func() time.Time { return at }}).Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.FetchedAt.Equal(at) {
		t.Errorf("FetchedAt = %v, want %v", snap.FetchedAt, at)
	}
}
