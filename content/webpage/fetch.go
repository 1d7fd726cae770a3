package webpage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
)

// Defaults of Options, the reference's numbers except the redirect limit,
// which the reference does not have.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBytes     = 1_000_000
	DefaultMaxRedirects = 10
)

// The request headers of every fetch, the reference's.
const (
	acceptHeader    = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"
	userAgentHeader = "pmx-canvas webpage node"
)

// Options configure a Fetcher. The zero value is the reference's
// behaviour, plus the redirect limit and the public-addresses-only Policy.
type Options struct {
	// Timeout bounds the whole fetch, body included. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes caps the body read, in bytes after any Content-Encoding is
	// undone; a longer page is cut and marked Truncated. Zero means
	// DefaultMaxBytes.
	MaxBytes int64
	// MaxRedirects is how many redirects are followed. Zero means
	// DefaultMaxRedirects; a negative value follows none.
	MaxRedirects int
	// Policy says which addresses may be connected to.
	Policy Policy
	// Resolver resolves host names; nil means net.DefaultResolver. The
	// policy applies to what it returns.
	Resolver Resolver
	// Now gives Snapshot.FetchedAt; nil means time.Now.
	Now func() time.Time
}

// Snapshot is what a successful fetch learned about a page.
type Snapshot struct {
	// URL is the final URL, after redirects, WHATWG-serialized.
	URL         string
	StatusCode  int
	ContentType string // the Content-Type header as sent, "" if none
	// PageTitle, Description and ImageURL come from the page's meta tags
	// and <title>; nil when the page has none (JSON null in node data).
	PageTitle   *string
	Description *string
	ImageURL    *string // absolute http(s) URL
	// Content is the page's readable content as Markdown (HTML) or the
	// text itself (text/plain, text/markdown); empty for other types.
	Content string
	// Excerpt is the start of the readable content as one line of plain text.
	Excerpt string
	// FrameBlocked says the response headers keep a browser from showing
	// the page in an iframe on the canvas; FrameBlockedReason says why.
	FrameBlocked       bool
	FrameBlockedReason *string
	FetchedAt          time.Time
	// Truncated says the body was longer than MaxBytes or the content
	// longer than its cap, and was cut.
	Truncated bool
}

// Fetcher fetches pages. It holds one HTTP client, so a server makes all
// its fetches with one Fetcher; it is safe for concurrent use.
type Fetcher struct {
	timeout      time.Duration
	maxBytes     int64
	maxRedirects int
	now          func() time.Time
	client       *http.Client
	transport    *http.Transport
	markdown     *converter.Converter
}

// NewFetcher returns a Fetcher for opt. It fails only when an entry of
// opt.Policy.Allow is neither a host name, an IP address nor a CIDR prefix.
func NewFetcher(opt Options) (*Fetcher, error) {
	policy, err := opt.Policy.compile()
	if err != nil {
		return nil, err
	}
	f := &Fetcher{
		timeout:      opt.Timeout,
		maxBytes:     opt.MaxBytes,
		maxRedirects: opt.MaxRedirects,
		now:          opt.Now,
	}
	if f.timeout <= 0 {
		f.timeout = DefaultTimeout
	}
	if f.maxBytes <= 0 {
		f.maxBytes = DefaultMaxBytes
	}
	switch {
	case f.maxRedirects == 0:
		f.maxRedirects = DefaultMaxRedirects
	case f.maxRedirects < 0:
		f.maxRedirects = 0
	}
	if f.now == nil {
		f.now = time.Now
	}
	resolver := opt.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	d := &dialer{policy: policy, resolver: resolver}
	f.transport = &http.Transport{
		Proxy:                  nil, // a proxy would connect for us, past the policy
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    f.timeout,
		MaxIdleConns:           16,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	f.client = &http.Client{Transport: f.transport, CheckRedirect: f.checkRedirect}
	f.markdown = converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	return f, nil
}

// Fetch fetches rawURL once with a Fetcher made from opt. A server should
// keep one Fetcher instead, to reuse connections.
func Fetch(ctx context.Context, rawURL string, opt Options) (*Snapshot, error) {
	f, err := NewFetcher(opt)
	if err != nil {
		return nil, err
	}
	defer f.CloseIdleConnections()
	return f.Fetch(ctx, rawURL)
}

// CloseIdleConnections closes the connections kept for later fetches.
func (f *Fetcher) CloseIdleConnections() { f.transport.CloseIdleConnections() }

// errTimedOut is the cause of the context of a fetch that ran out of time,
// which tells it apart from a caller's deadline.
var errTimedOut = errors.New("webpage: fetch timed out")

// redirectLimitError is checkRedirect's error; to is the absolute URL of
// the redirect not followed.
type redirectLimitError struct{ to string }

func (e *redirectLimitError) Error() string {
	return "webpage: too many redirects, the last to " + e.to
}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.maxRedirects {
		return &redirectLimitError{to: req.URL.String()}
	}
	return nil
}

// Fetch normalizes rawURL (see NormalizeURL), GETs it and returns what the
// page says about itself. Every error is a *FetchError. A non-2xx response
// is an error of KindStatus; a page of a type other than HTML or text is a
// success with empty content.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Snapshot, error) {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return nil, err
	}
	fctx, cancel := context.WithTimeoutCause(ctx, f.timeout, errTimedOut)
	defer cancel()

	req, err := http.NewRequestWithContext(fctx, http.MethodGet, requestURL(u), nil)
	if err != nil {
		return nil, &FetchError{Kind: KindBadURL, Msg: msgInvalidURL, Err: err}
	}
	req.Header.Set("Accept", acceptHeader)
	req.Header.Set("User-Agent", userAgentHeader)

	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.fetchError(ctx, fctx, u, err)
	}
	defer resp.Body.Close()

	final := resp.Request.URL.String()
	if n, err := NormalizeURL(final); err == nil {
		final = n
	}
	contentType := resp.Header.Get("Content-Type")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &FetchError{
			Kind:        KindStatus,
			URL:         final,
			StatusCode:  resp.StatusCode,
			ContentType: contentType,
			Msg:         "Request failed with " + statusLine(resp),
		}
	}

	snap := &Snapshot{URL: final, StatusCode: resp.StatusCode, ContentType: contentType}
	snap.FrameBlocked, snap.FrameBlockedReason = frameBlocking(resp.Header)

	kind := mediaKind(contentType)
	if kind != kindOther {
		body, truncated, err := readCapped(resp.Body, f.maxBytes)
		if err != nil {
			return nil, f.fetchError(ctx, fctx, u, err)
		}
		if kind == kindUnknown {
			kind = mediaKind(http.DetectContentType(body))
		}
		base, _ := url.Parse(final) // it was just serialized from a url.URL
		var p page
		switch kind {
		case kindHTML:
			p = f.renderHTML(body, contentType, base, truncated)
		case kindText:
			p = renderText(body, contentType, truncated)
		}
		snap.PageTitle, snap.Description, snap.ImageURL = p.title, p.description, p.image
		snap.Content, snap.Excerpt, snap.Truncated = p.content, p.excerpt, truncated || p.cut
	}
	snap.FetchedAt = f.now()
	return snap, nil
}

// requestURL is the URL to send for the normalized URL u: without its
// fragment, and with each "%" that starts no escape written "%25", since
// the standard keeps such a "%" but net/url refuses it.
func requestURL(u string) string {
	u, _, _ = strings.Cut(u, "#")
	if !strings.Contains(u, "%") {
		return u
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		if u[i] == '%' && !(i+2 < len(u) && isHex(u[i+1]) && isHex(u[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(u[i])
	}
	return b.String()
}

func isHex(c byte) bool { _, ok := digitValue(c); return ok }

// statusLine is "<code> <reason>", the reason being the server's or, when
// it sent none, the standard text for the code.
func statusLine(resp *http.Response) string {
	code := fmt.Sprint(resp.StatusCode)
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, code))
	if reason == "" {
		reason = http.StatusText(resp.StatusCode)
	}
	return strings.TrimSpace(code + " " + reason)
}

// readCapped reads at most max bytes of r, reading one more byte only to
// learn whether there was more.
func readCapped(r io.Reader, max int64) (body []byte, truncated bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(body)) > max {
		return body[:max], true, nil
	}
	return body, false, nil
}

// fetchError turns an error of the HTTP client or of reading the body into
// a *FetchError. ctx is the caller's context, fctx the fetch's own.
func (f *Fetcher) fetchError(ctx, fctx context.Context, u string, err error) *FetchError {
	hop := u
	var uerr *url.Error
	if errors.As(err, &uerr) {
		hop = uerr.URL
		err = uerr.Err
	}
	var be *blockedError
	var re *redirectLimitError
	switch {
	case ctx.Err() != nil:
		return &FetchError{Kind: KindCanceled, URL: u, Err: ctx.Err(),
			Msg: fmt.Sprintf("Fetching %s was canceled: %v.", u, ctx.Err())}
	case errors.Is(context.Cause(fctx), errTimedOut):
		return &FetchError{Kind: KindTimeout, URL: u, Err: context.DeadlineExceeded,
			Msg: fmt.Sprintf("Timed out after %dms while fetching %s.", f.timeout.Milliseconds(), u)}
	case errors.As(err, &be):
		return &FetchError{Kind: KindBlocked, URL: hop, Err: be, Msg: be.Error()}
	case errors.As(err, &re):
		return &FetchError{Kind: KindTooManyRedirects, URL: re.to, Err: err,
			Msg: fmt.Sprintf("Too many redirects (more than %d) while fetching %s; the last one went to %s.", f.maxRedirects, u, re.to)}
	}
	return &FetchError{Kind: KindNetwork, URL: hop, Err: err,
		Msg: fmt.Sprintf("Could not fetch %s: %v.", hop, err)}
}

// mediaKinds, by how the body is turned into content.
type mediaKindValue int

const (
	kindUnknown mediaKindValue = iota // no Content-Type: sniff the body
	kindHTML
	kindText
	kindOther // not read at all
)

func mediaKind(contentType string) mediaKindValue {
	if strings.TrimSpace(contentType) == "" {
		return kindUnknown
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return kindHTML
	case "text/plain", "text/markdown":
		return kindText
	}
	return kindOther
}
