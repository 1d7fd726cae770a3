package mcpapp

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/prepare golden files")

// TestPrepareHTMLGolden runs PrepareHTML on testdata/prepare/NAME.html with
// NAME.meta.json (when there is one) as the resource's _meta.ui, and
// compares with NAME.golden. Run with -update to rewrite the goldens.
func TestPrepareHTMLGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/prepare/*.html")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".html")
		t.Run(name, func(t *testing.T) {
			doc, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			meta, err := os.ReadFile(strings.TrimSuffix(in, ".html") + ".meta.json")
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			got := PrepareHTML(string(doc), meta)
			golden := strings.TrimSuffix(in, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("PrepareHTML(%s) =\n%s\nwant\n%s", name, got, want)
			}
		})
	}
}

func TestCSP(t *testing.T) {
	strict := "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data:; font-src 'self' data:; media-src 'self' data:; connect-src 'none'; " +
		"frame-src 'none'; object-src 'none'; base-uri 'self'"
	for _, tc := range []struct {
		name, meta string
		want       string
		ok         bool
	}{
		{"no meta", ``, "", false},
		{"not json", `{`, "", false},
		{"not an object", `[1]`, "", false},
		{"no csp", `{"permissions":{}}`, "", false},
		{"null csp", `{"csp":null}`, "", false},
		{"empty csp", `{"csp":{}}`, strict, true},
		{"empty lists", `{"csp":{"connectDomains":[],"resourceDomains":[]}}`, strict, true},
		{"csp not an object", `{"csp":"https://x.example"}`, strict, true},
		{"list not a list", `{"csp":{"connectDomains":"https://x.example"}}`, strict, true},
		{"all lists", `{"csp":{"connectDomains":["https://api.example","wss://ws.example"],"resourceDomains":["https://cdn.example"],"frameDomains":["https://www.youtube.com"],"baseUriDomains":["https://base.example"]}}`,
			"default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example; style-src 'self' 'unsafe-inline' https://cdn.example; " +
				"img-src 'self' data: https://cdn.example; font-src 'self' data: https://cdn.example; media-src 'self' data: https://cdn.example; " +
				"connect-src https://api.example wss://ws.example; frame-src https://www.youtube.com; object-src 'none'; base-uri https://base.example", true},
		{"injections skipped", `{"csp":{"connectDomains":["a; script-src *","'unsafe-eval'","x y","a\nb","a,b","\"q\"","<x>","ü.example","",7]}}`, strict, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := CSP(json.RawMessage(tc.meta))
			if got != tc.want || ok != tc.ok {
				t.Errorf("CSP(%s) = %q, %v\nwant %q, %v", tc.meta, got, ok, tc.want, tc.ok)
			}
		})
	}
}
