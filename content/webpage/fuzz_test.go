package webpage

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// The seed corpora are in testdata/fuzz/<FuzzName>.

// FuzzNormalizeURL checks that NormalizeURL fails only with its three
// messages and that what it returns is printable ASCII, its own
// normalization, and an http(s) URL that Go can request.
func FuzzNormalizeURL(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		out, err := NormalizeURL(raw)
		if err != nil {
			var fe *FetchError
			if !errors.As(err, &fe) || fe.Kind != KindBadURL {
				t.Fatalf("NormalizeURL(%q) error %v is not a bad-url *FetchError", raw, err)
			}
			switch fe.Msg {
			case msgEmptyURL, msgInvalidURL, msgSchemeURL:
			default:
				t.Fatalf("NormalizeURL(%q) error %q is not one of the three messages", raw, fe.Msg)
			}
			return
		}
		for i := 0; i < len(out); i++ {
			if out[i] <= 0x20 || out[i] >= 0x7f {
				t.Fatalf("NormalizeURL(%q) = %q has byte %#x", raw, out, out[i])
			}
		}
		if !strings.HasPrefix(out, "http://") && !strings.HasPrefix(out, "https://") {
			t.Fatalf("NormalizeURL(%q) = %q is not http(s)", raw, out)
		}
		again, err := NormalizeURL(out)
		if err != nil || again != out {
			t.Fatalf("NormalizeURL(%q) = %q, but NormalizeURL of that = %q, %v", raw, out, again, err)
		}
		u, err := url.Parse(requestURL(out))
		if err != nil {
			// Go is stricter about host characters than the standard
			// (it refuses "{" in a host name, which DNS never has).
			if strings.Contains(err.Error(), "invalid character") && strings.Contains(err.Error(), "host name") {
				return
			}
			t.Fatalf("url.Parse(%q) = %v", out, err)
		}
		if u.Host == "" {
			t.Fatalf("url.Parse(%q) has no host", out)
		}
	})
}

// FuzzPageMeta checks that whatever HTML a page has, the metadata is nil
// or normalized non-empty text, the image an http(s) URL in normal form,
// and the content valid UTF-8 within its caps.
func FuzzPageMeta(f *testing.F) {
	base, _ := url.Parse("https://example.com/dir/page")
	fetcher, err := NewFetcher(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page string) {
		// As renderHTML does: the parser gets the body decoded to UTF-8.
		doc, err := html.Parse(strings.NewReader(decode([]byte(page), "text/html", false)))
		if err != nil {
			t.Fatal(err)
		}
		title, desc, image := pageMeta(doc, base)
		for _, v := range []*string{title, desc, image} {
			if v != nil && (*v == "" || normalizeSpace(*v) != *v || !utf8.ValidString(*v)) {
				t.Fatalf("metadata %q is not normalized text", *v)
			}
		}
		if image != nil {
			if n, err := NormalizeURL(*image); err != nil || n != *image || !strings.HasPrefix(n, "http") {
				t.Fatalf("image %q is not a normalized http(s) URL (%q, %v)", *image, n, err)
			}
		}
		p := fetcher.renderHTML([]byte(page), "text/html", base, false)
		if !utf8.ValidString(p.content) || utf8.RuneCountInString(p.content) > maxContentRunes ||
			!utf8.ValidString(p.excerpt) || utf8.RuneCountInString(p.excerpt) > excerptRunes {
			t.Fatalf("content %q / excerpt %q break their caps or UTF-8", p.content, p.excerpt)
		}
	})
}

// FuzzFrameBlocking checks that a block always has a reason, that
// without a frame-ancestors directive only X-Frame-Options counts, and
// that a later permissive policy never lifts a block by an earlier one.
func FuzzFrameBlocking(f *testing.F) {
	f.Fuzz(func(t *testing.T, xfo, csp string) {
		h := http.Header{}
		h.Set("X-Frame-Options", xfo)
		h.Set("Content-Security-Policy", csp)
		blocked, reason := frameBlocking(h)
		if blocked != (reason != nil) || (reason != nil && *reason == "") {
			t.Fatalf("frameBlocking(%q, %q) = %v, %v: a block needs a reason and only a block has one", xfo, csp, blocked, reason)
		}
		if !strings.Contains(strings.ToLower(csp), "frame-ancestors") {
			withoutCSP, _ := frameBlocking(http.Header{"X-Frame-Options": {xfo}})
			if blocked != withoutCSP {
				t.Fatalf("a CSP without frame-ancestors changed the verdict for X-Frame-Options %q", xfo)
			}
			// A policy allowing every ancestor overrides X-Frame-Options.
			h.Add("Content-Security-Policy", "frame-ancestors *")
			if b, _ := frameBlocking(h); b {
				t.Fatalf("frame-ancestors * did not override X-Frame-Options %q", xfo)
			}
			return
		}
		if blocked && strings.HasPrefix(*reason, "Content-Security-Policy") {
			h.Add("Content-Security-Policy", "frame-ancestors *")
			if b, _ := frameBlocking(h); !b {
				t.Fatalf("a second, permissive policy unblocked %q", csp)
			}
		}
	})
}
