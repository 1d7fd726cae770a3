package webpage

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// The three messages NormalizeURL fails with. They are the reference's
// exact texts: clients show them as they are.
const (
	msgEmptyURL   = "Webpage nodes require a non-empty URL."
	msgInvalidURL = "Webpage nodes require a valid http(s) URL."
	msgSchemeURL  = "Webpage nodes only support http(s) URLs."
)

// NormalizeURL validates the URL of a webpage node and returns it in the
// serialization of the WHATWG URL standard, the form a browser shows and the
// reference stores: "Example.COM" becomes "https://example.com/".
//
// Surrounding white space is trimmed; a URL without a "scheme:" prefix is
// taken to be https. Only http and https URLs are accepted. The error is a
// *FetchError of kind KindBadURL whose message is one of the reference's three
// texts (empty, not a valid URL, not http(s)).
//
// The parser is the standard's parser for special schemes: backslashes count
// as slashes, dot segments are removed, default ports dropped, hosts are
// percent-decoded, mapped to ASCII with IDNA (UTS #46, non-transitional) and
// IPv4 hosts in any of the standard's number forms ("0x7f.1") are written as
// dotted decimal; everything else that must be is percent-encoded.
func NormalizeURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", badURL(msgEmptyURL)
	}
	if !hasScheme(s) {
		s = "https://" + s
	}
	u, ok := parseSpecial(s)
	if !ok {
		return "", badURL(msgInvalidURL)
	}
	if u == "" {
		return "", badURL(msgSchemeURL)
	}
	return u, nil
}

func badURL(msg string) *FetchError { return &FetchError{Kind: KindBadURL, Msg: msg} }

// hasScheme reports whether s starts with "scheme:", a letter followed by
// letters, digits, "+", "-" or "." and a colon.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIIAlpha(c):
		case i > 0 && (isASCIIDigit(c) || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// defaultPorts are the special schemes of the standard but "file", whose
// URLs have the same syntax, and their default ports.
var defaultPorts = map[string]int{"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}

// parseSpecial parses s with the WHATWG basic URL parser for special
// schemes and returns its serialization. It returns ("", true) for a URL
// that is valid but not http(s), and ok=false when s is not a URL. Only
// URLs with special schemes are checked for validity; any other scheme
// (mailto:, javascript:, file:) is taken to be valid.
func parseSpecial(s string) (serialized string, ok bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if !hasScheme(s) {
		return "", false
	}
	colon := strings.IndexByte(s, ':')
	scheme := strings.ToLower(s[:colon])
	if _, special := defaultPorts[scheme]; !special {
		return "", true
	}
	rest := strings.TrimLeft(s[colon+1:], `/\`)

	end := strings.IndexAny(rest, `/\?#`)
	if end < 0 {
		end = len(rest)
	}
	authority, rest := rest[:end], rest[end:]

	var userinfo string
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		user, pass, hasPass := strings.Cut(authority[:at], ":")
		user = percentEncode(user, userinfoSet)
		pass = percentEncode(pass, userinfoSet)
		if user != "" || pass != "" {
			userinfo = user
			if hasPass && pass != "" {
				userinfo += ":" + pass
			}
			userinfo += "@"
		}
		authority = authority[at+1:]
		if authority == "" {
			return "", false
		}
	}

	hostText, portText := splitHostPort(authority)
	host, ok := parseHost(hostText)
	if !ok {
		return "", false
	}
	port, ok := parsePort(portText, scheme)
	if !ok {
		return "", false
	}

	pathText, query, hasQuery := rest, "", false
	fragment, hasFragment := "", false
	if i := strings.IndexByte(pathText, '#'); i >= 0 {
		fragment, hasFragment = pathText[i+1:], true
		pathText = pathText[:i]
	}
	if i := strings.IndexByte(pathText, '?'); i >= 0 {
		query, hasQuery = pathText[i+1:], true
		pathText = pathText[:i]
	}

	var b strings.Builder
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(userinfo)
	b.WriteString(host)
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteString(parsePath(pathText))
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(percentEncode(query, specialQuerySet))
	}
	if hasFragment {
		b.WriteByte('#')
		b.WriteString(percentEncode(fragment, fragmentSet))
	}
	if scheme != "http" && scheme != "https" {
		return "", true
	}
	return b.String(), true
}

// splitHostPort splits an authority (without credentials) at the last colon
// that is not inside an IPv6 literal's brackets.
func splitHostPort(a string) (host, port string) {
	inBrackets := false
	for i := 0; i < len(a); i++ {
		switch a[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				return a[:i], a[i+1:]
			}
		}
	}
	return a, ""
}

// parsePort returns the port as the standard writes it: without leading
// zeros, and empty when it is the scheme's default.
func parsePort(p, scheme string) (string, bool) {
	if p == "" {
		return "", true
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if !isASCIIDigit(p[i]) {
			return "", false
		}
		n = n*10 + int(p[i]-'0')
		if n > 65535 {
			return "", false
		}
	}
	if n == defaultPorts[scheme] {
		return "", true
	}
	return strconv.Itoa(n), true
}

// uts46 is the WHATWG "domain to ASCII" with beStrict false: no STD3 rules,
// no hyphen or DNS length checks, non-transitional processing. It leaves
// out the Bidi rule, which x/net applies more strictly than browsers do
// (it refuses "1مثال.com"); a name that breaks it cannot resolve anyway.
var uts46 = idna.New(
	idna.MapForLookup(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// parseHost applies the standard's host parser to a special URL's host.
func parseHost(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") || strings.ContainsRune(h, '%') {
			return "", false
		}
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() {
			return "", false
		}
		return "[" + serializeIPv6(a) + "]", true
	}
	domain, ok := percentDecode(h)
	if !ok {
		return "", false
	}
	ascii := strings.ToLower(domain)
	if needsIDNA(domain) {
		var err error
		if ascii, err = uts46.ToASCII(domain); err != nil {
			return "", false
		}
	}
	if ascii == "" {
		return "", false
	}
	for i := 0; i < len(ascii); i++ {
		if isForbiddenDomainByte(ascii[i]) {
			return "", false
		}
	}
	if endsInNumber(ascii) {
		a, ok := parseIPv4(ascii)
		if !ok {
			return "", false
		}
		return a.String(), true
	}
	return ascii, true
}

// needsIDNA reports whether the domain leaves the standard's ASCII fast
// path: it has a non-ASCII character or a label starting with "xn--".
func needsIDNA(d string) bool {
	for i := 0; i < len(d); i++ {
		if d[i] >= 0x80 {
			return true
		}
	}
	for _, label := range strings.Split(d, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			return true
		}
	}
	return false
}

func isForbiddenDomainByte(c byte) bool {
	if c <= 0x20 || c == 0x7f {
		return true
	}
	return strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0
}

// endsInNumber reports whether the last label (ignoring one trailing dot)
// is a number, which makes the host an IPv4 address or invalid.
func endsInNumber(h string) bool {
	labels := strings.Split(h, ".")
	if labels[len(labels)-1] == "" {
		if len(labels) == 1 {
			return false
		}
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last != "" && strings.TrimLeft(last, "0123456789") == "" {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		return strings.TrimLeft(last[2:], "0123456789abcdefABCDEF") == ""
	}
	return false
}

// parseIPv4 is the standard's IPv4 parser: up to four parts, each decimal,
// hexadecimal ("0x") or octal (leading "0"), the last filling the
// remaining bytes.
func parseIPv4(h string) (netip.Addr, bool) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	var n uint64
	for i := 0; i < len(p); i++ {
		d, ok := digitValue(p[i])
		if !ok || d >= base {
			return 0, false
		}
		n = n*base + d
		if n > 1<<32 {
			return 0, false // already too large for any part
		}
	}
	return n, true
}

func digitValue(c byte) (uint64, bool) {
	switch {
	case isASCIIDigit(c):
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// serializeIPv6 writes an IPv6 address as the standard does: lowercase hex
// pieces without leading zeros, the first longest run of two or more zero
// pieces compressed to "::", and never a dotted IPv4 tail.
func serializeIPv6(a netip.Addr) string {
	b := a.As16()
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	bestStart, bestLen := -1, 1
	for i := 0; i < 8; {
		if pieces[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > bestLen {
			bestStart, bestLen = i, j-i
		}
		i = j
	}
	var s strings.Builder
	for i := 0; i < 8; i++ {
		if i == bestStart {
			s.WriteString("::")
			i += bestLen - 1
			continue
		}
		if i > 0 && i != bestStart+bestLen {
			s.WriteByte(':')
		}
		s.WriteString(strconv.FormatUint(uint64(pieces[i]), 16))
	}
	return s.String()
}

// parsePath turns a special URL's path text into its serialization: always
// starting with "/", backslashes read as slashes, "." and ".." segments
// (also percent-encoded as "%2e") resolved.
func parsePath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	p = strings.TrimPrefix(p, "/")
	var segs []string
	parts := strings.Split(p, "/")
	for i, seg := range parts {
		last := i == len(parts)-1
		switch {
		case isDoubleDot(seg):
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
			if last {
				segs = append(segs, "")
			}
		case isSingleDot(seg):
			if last {
				segs = append(segs, "")
			}
		default:
			segs = append(segs, percentEncode(seg, pathSet))
		}
	}
	return "/" + strings.Join(segs, "/")
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }

func isDoubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

// Percent-encode sets of the standard, beyond the C0 controls and
// non-ASCII bytes every set includes.
const (
	fragmentSet     = " \"<>`"
	specialQuerySet = " \"#<>'"
	pathSet         = " \"#<>?`{}"
	userinfoSet     = " \"#<>?`{}/:;=@[\\]^|"
)

// percentEncode encodes the UTF-8 bytes of s that are controls, non-ASCII
// or in set; a "%" is left as it is, as the standard does.
func percentEncode(s, set string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || strings.IndexByte(set, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// percentDecode decodes %XX escapes (leaving malformed ones) and reports
// whether the result is valid UTF-8.
func percentDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := digitValue(s[i+1])
			lo, ok2 := digitValue(s[i+2])
			if ok1 && ok2 {
				b = append(b, byte(hi<<4|lo))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b), utf8.Valid(b)
}

func isASCIIAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }
