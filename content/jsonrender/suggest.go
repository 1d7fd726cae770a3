package jsonrender

import (
	"sort"
	"strings"
)

// maxSuggestions is how many names a "did you mean" offers.
const maxSuggestions = 3

// suggest returns up to maxSuggestions candidates near input, nearest
// first: those within an edit distance of a third of input's length (at
// least 1, at most 3), and, when input has three or more characters, those
// that start with it or of which it is an abbreviation (same first letter,
// the rest in order: "btn" for "button"). key reduces a name for comparison; canonical maps a
// candidate to the name offered, so aliases suggest their component once.
func suggest(input string, candidates []string, key func(string) string, canonical func(string) string) []string {
	in := key(input)
	limit := max(1, min(3, len([]rune(in))/3))
	type hit struct {
		name string
		d    int
	}
	best := map[string]int{}
	for _, c := range candidates {
		ck := key(c)
		d := distance(in, ck)
		if d > limit {
			// A prefix ranks with the near typos, an abbreviation after them.
			switch {
			case len(in) < 3:
				continue
			case strings.HasPrefix(ck, in):
				d = limit
			case abbreviates(in, ck):
				d = limit + 1
			default:
				continue
			}
		}
		name := canonical(c)
		if old, ok := best[name]; !ok || d < old {
			best[name] = d
		}
	}
	hits := make([]hit, 0, len(best))
	for name, d := range best {
		hits = append(hits, hit{name, d})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, 0, maxSuggestions)
	for _, h := range hits {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, h.name)
	}
	return out
}

// abbreviates reports whether a starts like b and the rest of a's
// characters appear in b in order.
func abbreviates(a, b string) bool {
	if a == "" || b == "" || a[0] != b[0] {
		return false
	}
	j := 1
	for i := 1; i < len(a); i++ {
		for j < len(b) && b[j] != a[i] {
			j++
		}
		if j == len(b) {
			return false
		}
		j++
	}
	return true
}

// didYouMean formats suggestions as " (did you mean A, B or C?)", or ""
// when there are none.
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (did you mean " + names[0] + "?)"
	}
	return " (did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?)"
}

// distance is the optimal string alignment distance between a and b: the
// Levenshtein distance where swapping two neighbouring characters counts
// as one edit, the commonest typo ("Crad" for "Card").
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	// Three rows: two back (for swaps), one back, and this one.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// componentSuggestions names the components nearest an unknown type.
func componentSuggestions(t string) []string {
	return suggest(t, typeNames, fold, func(c string) string {
		name, _ := resolveType(c)
		return name
	})
}

// directiveSuggestions names the known "$" keys nearest an unknown one.
func directiveSuggestions(k string) []string {
	return suggest(k, knownNames, func(s string) string {
		return strings.ToLower(strings.TrimPrefix(s, "$"))
	}, func(s string) string { return s })
}
