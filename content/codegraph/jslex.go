package codegraph

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the two source rewrites that parseJSBatch applies before
// esbuild parses a file. Both keep every byte offset, so esbuild's error
// positions stay true to the original text.

// neutralizeGlobs renames, in place and at equal length, each "import" or
// "require" that is followed by "(" and an argument other than one plain
// string literal ("import" → "imp0rt", "require" → "r3quire"). esbuild
// would turn such a call into a glob import and list real directories to
// expand it; renamed, it is an ordinary call that names no module. The
// scan is byte by byte over the whole text, strings and comments included,
// so it cannot miss a call; renaming inside a string or comment changes
// nothing that matters here. A call with a literal specifier is kept.
//
// sure is false when the text holds something the byte scan cannot judge:
// a \u escape that may spell "require", or a non-ASCII character (perhaps
// Unicode whitespace) right after either word.
func neutralizeGlobs(s string) (out string, sure bool) {
	sure = !escapedRequire(s)
	var b []byte
	for i := 0; i < len(s); i++ {
		var word string
		switch {
		case s[i] == 'i' && strings.HasPrefix(s[i:], "import"):
			word = "import"
		case s[i] == 'r' && strings.HasPrefix(s[i:], "require"):
			word = "require"
		default:
			continue
		}
		if i > 0 && isASCIIIdent(s[i-1]) {
			continue // the tail of a longer name
		}
		j, ok := skipJSSpace(s, i+len(word))
		if !ok {
			sure = false
			continue
		}
		if j < len(s) && s[j] >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(s[j:])
			if j == i+len(word) && isIdentRune(r) {
				continue // "importé": a longer name
			}
			sure = false
			continue
		}
		if j < len(s) && isASCIIIdent(s[j]) && j == i+len(word) {
			continue // "imports", "required"
		}
		if !globCapable(s, word, j) {
			continue
		}
		if b == nil {
			b = []byte(s)
		}
		if word == "import" {
			copy(b[i:], "imp0rt")
		} else {
			copy(b[i:], "r3quire")
		}
	}
	if b == nil {
		return s, sure
	}
	return string(b), sure
}

// globCapable reports whether the text at j, after the word, may make a
// call that esbuild expands as a glob: "(" then anything but a lone string
// literal, or (for import) a phase such as import.defer(…).
func globCapable(s, word string, j int) bool {
	if j >= len(s) {
		return false
	}
	if word == "import" && s[j] == '.' {
		k, _ := skipJSSpace(s, j+1)
		meta := strings.HasPrefix(s[k:], "meta") && (k+4 >= len(s) || !isASCIIIdent(s[k+4]))
		return !meta
	}
	if s[j] != '(' {
		return false
	}
	k, ok := skipJSSpace(s, j+1)
	if !ok || k >= len(s) {
		return true
	}
	var end int
	switch s[k] {
	case '"', '\'':
		end = scanJSString(s, k)
	case '`': // a template without substitutions is a constant
		e := strings.IndexByte(s[k+1:], '`')
		if e < 0 || strings.Contains(s[k+1:k+1+e], "${") || strings.Contains(s[k+1:k+1+e], "\\") {
			return true
		}
		end = k + 1 + e + 1
	default:
		return true
	}
	m, ok := skipJSSpace(s, end)
	return !ok || m >= len(s) || s[m] != ')' && s[m] != ','
}

// escapedRequire reports whether a \u escape in s sits in a run of name
// characters that, decoded, contains "require".
func escapedRequire(s string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], `\u`)
		if k < 0 {
			return false
		}
		k += off
		lo, hi := k, k
		for lo > 0 && k-lo < 64 && (isASCIIIdent(s[lo-1]) || strings.IndexByte(`\{}`, s[lo-1]) >= 0) {
			lo--
		}
		for hi < len(s) && hi-k < 64 && (isASCIIIdent(s[hi]) || strings.IndexByte(`\{}`, s[hi]) >= 0) {
			hi++
		}
		if strings.Contains(decodeJSEscapes(s[lo:hi]), "require") {
			return true
		}
		off = k + 2
	}
}

// decodeJSEscapes replaces \uXXXX and \u{X…} escapes by their characters.
func decodeJSEscapes(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u' {
			j := i + 2
			var hex string
			if j < len(s) && s[j] == '{' {
				if e := strings.IndexByte(s[j:], '}'); e > 0 {
					hex, i = s[j+1:j+e], j+e
				}
			} else if j+4 <= len(s) {
				hex, i = s[j:j+4], j+3
			}
			r := rune(0)
			for _, c := range hex {
				d := strings.IndexRune("0123456789abcdef", unicode.ToLower(c))
				if d < 0 || r > 0x10FFFF {
					r = -1
					break
				}
				r = r*16 + rune(d)
			}
			if r > 0 {
				sb.WriteRune(r)
			}
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// skipJSSpace skips ASCII whitespace and comments from i. ok is false at an
// unterminated block comment.
func skipJSSpace(s string, i int) (int, bool) {
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			e := strings.Index(s[i+2:], "*/")
			if e < 0 {
				return len(s), false
			}
			i += 2 + e + 2
		default:
			return i, true
		}
	}
	return i, true
}

// scanJSString returns the index after the string literal that starts with
// the quote at i; an unescaped line break ends it (it is a syntax error).
func scanJSString(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(s)
}

func isASCIIIdent(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isIdentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == '\u200c' || r == '\u200d'
}

// blankTypeImports replaces with spaces the word "type" of TypeScript
// type-only imports and re-exports, so that esbuild, which drops them
// while parsing, records them like value imports:
//
//	import type { A } from './a'     import type * as B from './b'
//	import type C from './c'          export type { D } from './d'
//	export type * from './e'          import type F = require('./f')
//
// It reports whether anything changed. It works on tokens from a small
// lexer (strings, templates, comments, and regular expressions told from
// division by the token before), so the words inside literals do not
// count; JSX text can mislead it, which parseJSBatch guards against.
func blankTypeImports(s string) (string, bool) {
	if !strings.Contains(s, "type") {
		return s, false
	}
	toks := jsTokens(s)
	is := func(i int, text string) bool {
		return i < len(toks) && toks[i].text(s) == text && toks[i].kind != tokString
	}
	ident := func(i int) bool { return i < len(toks) && toks[i].kind == tokIdent }
	var b []byte
	for i, t := range toks {
		if t.kind != tokIdent || !is(i+1, "type") || i > 0 && is(i-1, ".") {
			continue
		}
		blank := false
		switch t.text(s) {
		case "import":
			switch {
			case is(i+2, "{"), is(i+2, "*"):
				blank = true
			case ident(i+2) && !is(i+2, "from"):
				blank = is(i+3, "from") || is(i+3, "=")
			case is(i+2, "from"):
				blank = is(i+3, "from") // import type from from './x'
			}
		case "export":
			switch {
			case is(i+2, "*"):
				blank = true
			case is(i+2, "{"):
				depth := 0
				for j := i + 2; j < len(toks); j++ {
					if is(j, "{") {
						depth++
					} else if is(j, "}") {
						depth--
						if depth == 0 {
							blank = is(j+1, "from")
							break
						}
					}
				}
			}
		}
		if blank {
			if b == nil {
				b = []byte(s)
			}
			ty := toks[i+1]
			for k := ty.start; k < ty.end; k++ {
				b[k] = ' '
			}
		}
	}
	if b == nil {
		return s, false
	}
	return string(b), true
}

type tokKind uint8

const (
	tokIdent tokKind = iota
	tokPunct
	tokString
	tokNumber
	tokTemplate
	tokRegexp
)

type jsToken struct {
	kind       tokKind
	start, end int
}

func (t jsToken) text(s string) string { return s[t.start:t.end] }

// regexpAfter lists the keywords after which a slash starts a regular
// expression rather than a division.
var regexpAfter = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "case": true,
	"do": true, "else": true, "yield": true, "await": true, "extends": true,
}

// jsTokens splits JavaScript or TypeScript into tokens. Template literals
// with ${…} are split so their expressions are tokens too. It never fails:
// an unterminated literal runs to the end of its line (strings) or of the
// text (templates, comments, regular expressions).
func jsTokens(s string) []jsToken {
	var toks []jsToken
	var braces []bool // true: a "${" of a template, false: a plain "{"
	regexOK := func() bool {
		if len(toks) == 0 {
			return true
		}
		p := toks[len(toks)-1]
		switch p.kind {
		case tokIdent:
			return regexpAfter[p.text(s)]
		case tokPunct:
			c := s[p.start]
			return c != ')' && c != ']'
		case tokTemplate:
			return s[p.end-1] != '`'
		}
		return false
	}
	template := func(i, start int) int {
		// i is just after the backtick or the closing "}" of a ${…}.
		for ; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '`':
				toks = append(toks, jsToken{tokTemplate, start, i + 1})
				return i + 1
			case '$':
				if i+1 < len(s) && s[i+1] == '{' {
					toks = append(toks, jsToken{tokTemplate, start, i + 2})
					braces = append(braces, true)
					return i + 2
				}
			}
		}
		toks = append(toks, jsToken{tokTemplate, start, len(s)})
		return len(s)
	}
	for i := 0; i < len(s); {
		j, _ := skipJSSpace(s, i)
		if j >= len(s) {
			break
		}
		i = j
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			e := scanJSString(s, i)
			toks = append(toks, jsToken{tokString, i, e})
			i = e
		case c == '`':
			i = template(i+1, i)
		case c == '{':
			braces = append(braces, false)
			toks = append(toks, jsToken{tokPunct, i, i + 1})
			i++
		case c == '}':
			if n := len(braces); n > 0 && braces[n-1] {
				braces = braces[:n-1]
				i = template(i+1, i)
				continue
			} else if n > 0 {
				braces = braces[:n-1]
			}
			toks = append(toks, jsToken{tokPunct, i, i + 1})
			i++
		case c == '/' && regexOK():
			e := scanJSRegexp(s, i)
			toks = append(toks, jsToken{tokRegexp, i, e})
			i = e
		case '0' <= c && c <= '9' || c == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9':
			e := i + 1
			for e < len(s) && (isASCIIIdent(s[e]) || s[e] == '.') {
				e++
			}
			toks = append(toks, jsToken{tokNumber, i, e})
			i = e
		case isASCIIIdent(c) || c == '\\' || c == '#' || c == '@':
			e := i + 1
			for e < len(s) && (isASCIIIdent(s[e]) || s[e] >= utf8.RuneSelf) {
				e++
			}
			toks = append(toks, jsToken{tokIdent, i, e})
			i = e
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isIdentRune(r) {
				i += size // Unicode whitespace and the like
				continue
			}
			e := i + size
			for e < len(s) && (isASCIIIdent(s[e]) || s[e] >= utf8.RuneSelf) {
				e++
			}
			toks = append(toks, jsToken{tokIdent, i, e})
			i = e
		default:
			toks = append(toks, jsToken{tokPunct, i, i + 1})
			i++
		}
	}
	return toks
}

// scanJSRegexp returns the index after the regular expression literal at
// i, flags included; a line break ends an unterminated one.
func scanJSRegexp(s string, i int) int {
	inClass := false
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '\n':
			return i
		case '/':
			if !inClass {
				i++
				for i < len(s) && isASCIIIdent(s[i]) {
					i++
				}
				return i
			}
		}
	}
	return len(s)
}
