package webpage

import (
	"errors"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"example.com", "https://example.com/"},
		{"  Example.COM  ", "https://example.com/"},
		{"HTTP://Example.com", "http://example.com/"},
		{"http://example.com:80/a", "http://example.com/a"},
		{"https://example.com:443", "https://example.com/"},
		{"https://example.com:0443", "https://example.com/"},
		{"http://example.com:8080", "http://example.com:8080/"},
		{"http://localhost:3000/app", "http://localhost:3000/app"},
		{"https://example.com:", "https://example.com/"},
		{"https://example.com/a/./b/../c", "https://example.com/a/c"},
		{"https://example.com/a/%2e%2E/b", "https://example.com/b"},
		{"https://example.com/a/..", "https://example.com/"},
		{"https://example.com//x", "https://example.com//x"},
		{`https:\\example.com\a\b`, "https://example.com/a/b"},
		{"https:example.com", "https://example.com/"},
		{"https:///example.com", "https://example.com/"},
		{"https://example.com/a b?c d#e f", "https://example.com/a%20b?c%20d#e%20f"},
		{"https://example.com/?q='x'", "https://example.com/?q=%27x%27"},
		{"https://example.com/?", "https://example.com/?"},
		{"https://example.com/#", "https://example.com/#"},
		{"https://example.com/caf\u00e9", "https://example.com/caf%C3%A9"},
		{"https://example.com/a%zz", "https://example.com/a%zz"},
		{"https://example.com/a\tb\nc", "https://example.com/abc"},
		{"https://b\u00fccher.de/", "https://xn--bcher-kva.de/"},
		{"https://\uff25xample.com/", "https://example.com/"},
		{"https://1\u0645\u062b\u0627\u0644.com/", "https://xn--1-zmcl5hc.com/"}, // as browsers have it
		{"https://ex%61mple.com/", "https://example.com/"},
		{"https://example.com./", "https://example.com./"},
		{"http://0x7f.1/", "http://127.0.0.1/"},
		{"http://2130706433/", "http://127.0.0.1/"},
		{"http://0177.0.0.1/", "http://127.0.0.1/"},
		{"http://127.1/", "http://127.0.0.1/"},
		{"http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"},
		{"http://[2001:DB8:0:0:1:0:0:1]:8080", "http://[2001:db8::1:0:0:1]:8080/"},
		{"http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"},
		{"https://user:pa:ss@example.com/", "https://user:pa%3Ass@example.com/"},
		{"https://user:@example.com/", "https://user@example.com/"},
		{"https://@example.com/", "https://example.com/"},
		{"https://a@b@example.com/", "https://a%40b@example.com/"},
	}
	for _, tt := range tests {
		got, err := NormalizeURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNormalizeURLErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", msgEmptyURL},
		{" \t\n ", msgEmptyURL},
		{"https://", msgInvalidURL},
		{"https://exa mple.com/", msgInvalidURL},
		{"https://exa<mple.com/", msgInvalidURL},
		{"https://example.com:99999/", msgInvalidURL},
		{"https://example.com:8o/", msgInvalidURL},
		{"https://user@/", msgInvalidURL},
		{"http://256.0.0.1/", msgInvalidURL},
		{"http://1.2.3.4.5/", msgInvalidURL},
		{"http://08/", msgInvalidURL},
		{"http://[::1/", msgInvalidURL},
		{"http://[fe80::1%25eth0]/", msgInvalidURL},
		{"http://[1.2.3.4]/", msgInvalidURL},
		{"https://ex%ffample.com/", msgInvalidURL},
		{"https://xn--a.com/", msgInvalidURL},
		{"ftp://example.com/", msgSchemeURL},
		{"ftp://", msgInvalidURL}, // a special scheme: checked, as the reference's URL parser does
		{"ws://exa mple.com/", msgInvalidURL},
		{"wss://example.com:443/", msgSchemeURL},
		{"javascript:alert(1)", msgSchemeURL},
		{"mailto:someone@example.com", msgSchemeURL},
		{"file:///etc/passwd", msgSchemeURL},
		// Like the reference: "host:port" reads as a scheme.
		{"localhost:3000", msgSchemeURL},
	}
	for _, tt := range tests {
		got, err := NormalizeURL(tt.in)
		var fe *FetchError
		if !errors.As(err, &fe) || fe.Kind != KindBadURL || err.Error() != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want error %q of kind %s", tt.in, got, err, tt.want, KindBadURL)
		}
	}
}
