package mcpapp

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// FuzzTransport decodes arbitrary JSON as a Transport: Validate never
// panics, its errors name a transport field, what it accepts can be
// started or dialled, and the verdict survives a JSON round trip.
func FuzzTransport(f *testing.F) {
	for _, s := range []string{
		`{"type":"stdio","command":"bun","args":["fixture.ts"],"cwd":"/tmp","env":{"A":"1"}}`,
		`{"type":"http","url":"https://mcp.excalidraw.com/mcp","headers":{"Authorization":"Bearer x"}}`,
		`{"type":"stdio","command":"  "}`,
		`{"type":"http","url":"ftp://x"}`,
		`{"type":"http","url":"http://127.0.0.1:1/mcp","headers":{"X":"a\r\nb"}}`,
		`{"type":"stdio","command":"x","env":{"=":""}}`,
		`{"type":"sse"}`,
		`{}`,
		`{"type":null,"args":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var tr Transport
		if json.Unmarshal([]byte(data), &tr) != nil {
			return
		}
		err := tr.Validate()
		if err != nil {
			if !strings.HasPrefix(err.Error(), "transport.") {
				t.Fatalf("error %q does not name a transport field", err)
			}
		} else {
			switch tr.Type {
			case "stdio":
				if strings.TrimSpace(tr.Command) == "" || strings.ContainsRune(tr.Command, 0) {
					t.Fatalf("accepted command %q", tr.Command)
				}
				for k := range tr.Env {
					if k == "" || strings.ContainsAny(k, "=\x00") {
						t.Fatalf("accepted env key %q", k)
					}
				}
			case "http":
				u, perr := url.Parse(tr.URL)
				if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					t.Fatalf("accepted url %q", tr.URL)
				}
			default:
				t.Fatalf("accepted type %q", tr.Type)
			}
		}
		enc, merr := json.Marshal(tr)
		if merr != nil {
			t.Fatal(merr)
		}
		var again Transport
		if uerr := json.Unmarshal(enc, &again); uerr != nil {
			t.Fatal(uerr)
		}
		if (again.Validate() == nil) != (err == nil) {
			t.Fatalf("verdict changed over a round trip: %v vs %v", err, again.Validate())
		}
	})
}

// cspDirectives are the directive names CSP may emit, in order.
var cspDirectives = []string{"default-src", "script-src", "style-src", "img-src", "font-src", "media-src",
	"connect-src", "frame-src", "object-src", "base-uri"}

// FuzzPrepareHTML checks that PrepareHTML only inserts (the document is
// otherwise unchanged), always inserts the shim, and that whatever the
// declared domains, the policy keeps exactly its ten directives with no
// smuggled keyword and nothing that leaves the <meta> attribute.
func FuzzPrepareHTML(f *testing.F) {
	for _, s := range [][2]string{
		{`<!doctype html><html><head><title>x</title></head><body></body></html>`, `{"csp":{"connectDomains":["https://a.example"]}}`},
		{`<html><body>x</body></html>`, ``},
		{`<!-- <head> --><p>x`, `{"csp":{}}`},
		{``, `{"csp":{"resourceDomains":["https://x.example; script-src *","'unsafe-eval'"]}}`},
		{`<HEAD a=">"><script>`, `{"csp":{"frameDomains":["a\"b"],"baseUriDomains":[1,"https://b.example"]}}`},
		{`</head><head>`, `{"csp":"x"}`},
		{"<html\x00><head>", `{"csp":{"connectDomains":["\u00e9.example","a\tb"]}}`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, doc, meta string) {
		out := PrepareHTML(doc, json.RawMessage(meta))
		policy, ok := CSP(json.RawMessage(meta))
		inject := StorageShim
		if ok {
			inject = `<meta http-equiv="Content-Security-Policy" content="` + escapeAttr(policy) + `">` + inject
		}
		if !onlyInserted(out, doc, inject) && !onlyInserted(out, doc, "<head>"+inject+"</head>") {
			t.Fatalf("PrepareHTML changed more than it inserted:\n%q\n->\n%q", doc, out)
		}
		if !ok {
			return
		}
		parts := strings.Split(policy, "; ")
		if len(parts) != len(cspDirectives) {
			t.Fatalf("policy has %d directives: %q", len(parts), policy)
		}
		for i, p := range parts {
			words := strings.Split(p, " ")
			if words[0] != cspDirectives[i] || len(words) < 2 {
				t.Fatalf("directive %d is %q", i, p)
			}
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "'") && w != "'self'" && w != "'none'" && w != "'unsafe-inline'" {
					t.Fatalf("smuggled keyword %q in %q", w, policy)
				}
			}
		}
		if strings.ContainsAny(policy, "\"<>,\\\n\r\t") {
			t.Fatalf("policy %q can leave its attribute or directive", policy)
		}
	})
}

// onlyInserted reports whether out is doc with inject inserted somewhere.
func onlyInserted(out, doc, inject string) bool {
	if len(out) != len(doc)+len(inject) {
		return false
	}
	prefix := 0
	for prefix < len(doc) && out[prefix] == doc[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(doc) && out[len(out)-1-suffix] == doc[len(doc)-1-suffix] {
		suffix++
	}
	for i := len(doc) - suffix; i <= prefix; i++ {
		if out[i:i+len(inject)] == inject {
			return true
		}
	}
	return false
}
