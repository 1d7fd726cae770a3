package codegraph

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// rustImports returns the out-of-line module declarations ("mod x;") and
// the crate-local use paths ("use crate::a::b", "use super::x",
// "use self::y", with {…} groups expanded) of a Rust file. It is a best
// effort on top of a small lexer that knows Rust's comments (nested), and
// string, raw string, byte string and char literals, so that text inside
// them never counts; macros and cfg attributes are not evaluated.
func rustImports(name, content string) ([]Import, error) {
	toks, err := rustLex(content)
	var set importSet
	for i := 0; i < len(toks); i++ {
		switch toks[i].text {
		case "mod":
			// mod NAME ; — an inline "mod NAME { … }" names no file.
			if i+2 < len(toks) && toks[i+1].ident && toks[i+2].text == ";" && (i == 0 || toks[i-1].text != "::") {
				set.add(Import{Spec: toks[i+1].text, Kind: KindMod})
			}
		case "use":
			if i > 0 && toks[i-1].text == "::" {
				continue
			}
			end := i + 1
			for end < len(toks) && toks[end].text != ";" {
				end++
			}
			var paths []string
			rustUseTree(toks[i+1:end], "", &paths)
			for _, p := range paths {
				first, _, _ := strings.Cut(p, "::")
				if first == "crate" || first == "super" || first == "self" {
					set.add(Import{Spec: p, Kind: KindUse})
				}
			}
			i = end
		}
	}
	if err != nil {
		return set.list, fmt.Errorf("codegraph: rust %s: %w", name, err)
	}
	return set.list, nil
}

// rustUseTree appends to out the module paths of a use tree: "a::{b, c::d}"
// gives "a::b" and "a::c::d"; an alias ("as x") or a glob ("*") ends a
// path, and "self" first in a group stands for the group's prefix.
func rustUseTree(toks []rustToken, prefix string, out *[]string) {
	cur, self := prefix, false
loop:
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.text == "::":
		case t.text == "{":
			depth, start := 1, i+1
			for j := i + 1; j < len(toks); j++ {
				switch toks[j].text {
				case "{":
					depth++
				case "}":
					depth--
				}
				if depth == 0 || depth == 1 && toks[j].text == "," {
					rustUseTree(toks[start:j], cur, out)
					start = j + 1
				}
				if depth == 0 {
					return
				}
			}
			rustUseTree(toks[start:], cur, out) // unclosed group
			return
		case t.text == "self" && i == 0 && prefix != "":
			self = true
		case t.ident && t.text != "as":
			cur = joinRust(cur, t.text)
		default: // "as", "*", or anything a use path cannot hold
			break loop
		}
	}
	if cur != "" && (cur != prefix || self) {
		*out = append(*out, cur)
	}
}

func joinRust(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

type rustToken struct {
	text  string
	ident bool
}

// rustLex splits Rust source into identifiers and punctuation, dropping
// whitespace, comments and literals. It returns the tokens read before an
// unterminated comment or literal together with an error naming the line.
func rustLex(s string) ([]rustToken, error) {
	var toks []rustToken
	line := 1
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			start := line
			depth := 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					if s[i] == '\n' {
						line++
					}
					i++
				}
			}
			if depth != 0 {
				return toks, fmt.Errorf("unterminated block comment from line %d", start)
			}
		case c == '"':
			j, n, ok := rustString(s, i+1)
			if !ok {
				return toks, fmt.Errorf("unterminated string from line %d", line)
			}
			line += n
			i = j
		case (c == 'r' || c == 'b' || c == 'c') && rustRawOrPrefixed(s, i) > 0:
			start := line
			j, n, ok := rustPrefixedLiteral(s, i)
			if !ok {
				return toks, fmt.Errorf("unterminated literal from line %d", start)
			}
			line += n
			i = j
		case c == '\'':
			i = rustQuote(s, i)
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			toks = append(toks, rustToken{text: s[i:j], ident: true})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && (isIdentPart(s[j]) || s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
				j++
			}
			i = j
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			toks = append(toks, rustToken{text: "::"})
			i += 2
		default:
			toks = append(toks, rustToken{text: s[i : i+1]})
			i++
		}
	}
	return toks, nil
}

// rustString scans a "…" body from i (after the quote) and returns the
// index after the closing quote and the newlines crossed.
func rustString(s string, i int) (int, int, bool) {
	n := 0
	for i < len(s) {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				n++
			}
			i += 2
			continue
		case '\n':
			n++
		case '"':
			return i + 1, n, true
		}
		i++
	}
	return len(s), n, false
}

// rustRawOrPrefixed reports the length of a literal prefix at i: r", r#,
// b", b', br", br#, c", cr", cr#; 0 when s[i:] starts an identifier.
func rustRawOrPrefixed(s string, i int) int {
	for _, p := range []string{"br", "cr", "r", "b", "c"} {
		if !strings.HasPrefix(s[i:], p) {
			continue
		}
		j := i + len(p)
		if j >= len(s) {
			return 0
		}
		raw := strings.HasSuffix(p, "r")
		if s[j] == '"' || (raw && s[j] == '#') || (p == "b" && s[j] == '\'') {
			if i > 0 && isIdentPart(s[i-1]) {
				return 0
			}
			return len(p)
		}
	}
	return 0
}

// rustPrefixedLiteral scans a raw, byte or C string (or byte char) at i.
func rustPrefixedLiteral(s string, i int) (int, int, bool) {
	p := rustRawOrPrefixed(s, i)
	j := i + p
	if s[j] == '\'' {
		return rustQuote(s, j), 0, true
	}
	if !strings.HasSuffix(s[i:j], "r") {
		return rustString(s, j+1)
	}
	hashes := 0
	for j < len(s) && s[j] == '#' {
		hashes++
		j++
	}
	if j >= len(s) || s[j] != '"' {
		return j, 0, true // r#ident: a raw identifier, not a string
	}
	end := "\"" + strings.Repeat("#", hashes)
	k := strings.Index(s[j+1:], end)
	if k < 0 {
		return len(s), strings.Count(s[j:], "\n"), false
	}
	stop := j + 1 + k + len(end)
	return stop, strings.Count(s[i:stop], "\n"), true
}

// rustQuote skips a char literal ('a', '\n', '\u{1F600}', 'é') at i, or
// only the quote of a lifetime or label ('a, 'static).
func rustQuote(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	if s[j] == '\\' {
		if k := strings.IndexAny(s[j+1:], "'\n"); k >= 0 && s[j+1+k] == '\'' {
			if k == 0 && j+2 < len(s) && s[j+2] == '\'' { // '\''
				return j + 3
			}
			return j + 1 + k + 1
		}
		return j
	}
	_, size := utf8.DecodeRuneInString(s[j:])
	if j+size < len(s) && s[j+size] == '\'' {
		return j + size + 1
	}
	return j
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9'
}
