package webpage

import (
	"net/http"
	"strings"
)

// frameBlocking reads the response headers that keep a browser from
// showing a page in an iframe on the canvas, and says why.
//
// As in browsers, a Content-Security-Policy with a frame-ancestors
// directive decides alone; X-Frame-Options counts only without one.
// A frame-ancestors list blocks when it is 'none' or empty, and is taken
// to block ("likely") when it names neither any scheme ("*", "http:",
// "https:") nor a localhost source, since the canvas is served from
// localhost. Every policy of several must allow framing.
func frameBlocking(h http.Header) (bool, *string) {
	sawFrameAncestors := false
	for _, policy := range h.Values("Content-Security-Policy") {
		for _, directive := range strings.Split(policy, ";") {
			fields := strings.FieldsFunc(directive, isASCIISpace)
			if len(fields) == 0 || strings.ToLower(fields[0]) != "frame-ancestors" {
				continue
			}
			sawFrameAncestors = true
			if reason, blocked := frameAncestorsBlock(fields[1:]); blocked {
				return true, &reason
			}
			break // a policy's first frame-ancestors directive is the one that counts
		}
	}
	if sawFrameAncestors {
		return false, nil
	}
	for _, v := range h.Values("X-Frame-Options") {
		for _, opt := range strings.Split(v, ",") {
			var reason string
			switch strings.ToLower(strings.TrimSpace(opt)) {
			case "deny":
				reason = "X-Frame-Options: DENY forbids showing this page in a frame."
			case "sameorigin":
				reason = "X-Frame-Options: SAMEORIGIN lets only the page's own site show it in a frame."
			default:
				continue
			}
			return true, &reason
		}
	}
	return false, nil
}

// frameAncestorsBlock judges the sources of one frame-ancestors directive.
func frameAncestorsBlock(sources []string) (string, bool) {
	if len(sources) == 0 {
		return "Content-Security-Policy frame-ancestors with no sources forbids showing this page in a frame.", true
	}
	for _, s := range sources {
		if strings.ToLower(s) == "'none'" {
			return "Content-Security-Policy frame-ancestors 'none' forbids showing this page in a frame.", true
		}
	}
	for _, s := range sources {
		s = strings.ToLower(s)
		if s == "*" || s == "http:" || s == "https:" || strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") {
			return "", false
		}
	}
	return "Content-Security-Policy frame-ancestors " + strings.Join(sources, " ") +
		" likely forbids showing this page in a frame on the canvas.", true
}

// isASCIISpace is white space as CSP has it: ASCII only.
func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}
