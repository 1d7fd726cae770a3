package webartifact

import "strings"

// MaxSlug is the most bytes Slug returns, the reference's limit.
const MaxSlug = 48

// DefaultSlug is the slug of a title that has no letter or digit.
const DefaultSlug = "web-artifact"

// Slug names the artifact's project directory and output file after its
// title: lowercased, each run of characters other than a-z and 0-9 turned
// into one "-", trimmed of "-" and cut to MaxSlug bytes (then trimmed
// again, so it never ends in "-"). A title with no ASCII letter or digit
// gives DefaultSlug.
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > MaxSlug {
		s = strings.TrimRight(s[:MaxSlug], "-")
	}
	if s == "" {
		return DefaultSlug
	}
	return s
}
