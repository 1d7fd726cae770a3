package primitives

import "strings"

// normalizeWord lowercases a status-like word and joins its parts with
// dashes, so "In progress", "in_progress" and "in-progress" read the same.
func normalizeWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '_' || r == '-' || r == '\t'
	}), "-")
}

// tones maps the words agents use for severity, status and mood to the
// five tones the stylesheet colours: ok, info, warn, danger and neutral.
var tones = map[string]string{}

func init() {
	for t, words := range map[string]string{
		"danger": "critical crit blocker blocking sev0 sev1 p0 high error failed failure fail failing blocked danger bad down red broken major outage severe regressed urgent fatal negative off-track behind",
		"warn":   "medium med moderate warn warning at-risk risk risky slipped slipping delayed late degraded amber yellow orange p1 sev2 mitigating monitoring investigating partial review in-review needs-review hold on-hold paused flaky",
		"ok":     "done complete completed shipped resolved fixed ok good success succeeded green passed pass passing healthy up positive merged closed approved ready live on-track ahead stable",
		"info":   "info low minor active in-progress doing current running ongoing next started wip identified p2 p3 sev3 sev4 new open",
	} {
		for _, w := range strings.Fields(words) {
			tones[w] = t
		}
	}
}

// tone returns the tone of a word or short phrase: the whole phrase if it
// is known, else its first known part ("blocked by infra" is danger), else
// neutral. The result is one of a fixed set, safe in a class attribute.
func tone(s string) string {
	w := normalizeWord(s)
	if t, ok := tones[w]; ok {
		return t
	}
	for _, part := range strings.Split(w, "-") {
		if t, ok := tones[part]; ok {
			return t
		}
	}
	return "neutral"
}
