package htmlmeta

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The seed corpus is in testdata/fuzz/FuzzDerive.

// FuzzDerive checks that Derive never panics, keeps every length within
// its cap, lists each id and URL once, and finds only ids that fit the
// pattern and URLs that are embeddable.
func FuzzDerive(f *testing.F) {
	f.Fuzz(func(t *testing.T, doc, summary, primitive string) {
		sc := Derive(Input{HTML: doc, Summary: summary, Primitive: primitive})
		if n := utf8.RuneCountInString(sc.ContentSummary); n > MaxContentSummary {
			t.Fatalf("ContentSummary has %d runes", n)
		}
		if n := utf8.RuneCountInString(sc.AgentSummary); n > MaxAgentSummary {
			t.Fatalf("AgentSummary has %d runes", n)
		}
		if strings.Contains(sc.ContentSummary, "  ") || strings.TrimSpace(sc.ContentSummary) != sc.ContentSummary {
			t.Fatalf("ContentSummary %q has uncollapsed whitespace", sc.ContentSummary)
		}
		for name, list := range map[string][]string{"EmbeddedNodeIDs": sc.EmbeddedNodeIDs, "EmbeddedURLs": sc.EmbeddedURLs} {
			if list == nil || len(list) > MaxEmbedded {
				t.Fatalf("%s = %q", name, list)
			}
			seen := map[string]bool{}
			for _, v := range list {
				if seen[v] || v == "" {
					t.Fatalf("%s = %q has a blank or repeated entry", name, list)
				}
				seen[v] = true
			}
		}
		for _, id := range sc.EmbeddedNodeIDs {
			if nodeIDPattern.FindString(id) != id {
				t.Fatalf("EmbeddedNodeIDs has %q, which does not fit the pattern", id)
			}
		}
		for _, u := range sc.EmbeddedURLs {
			if !embeddable(u) {
				t.Fatalf("EmbeddedURLs has %q, which is not embeddable", u)
			}
		}
		again := Derive(Input{HTML: doc, Summary: summary, Primitive: primitive})
		if again.AgentSummary != sc.AgentSummary || again.ContentSummary != sc.ContentSummary {
			t.Fatal("Derive is not deterministic")
		}
	})
}
