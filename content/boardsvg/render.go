package boardsvg

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Card geometry, as the workbench draws it (web/workbench/app.css).
const (
	titleBarHeight = 32
	bodyPad        = 12
	bodyFont       = 12
	lineHeight     = 17
	titleFont      = 12
	// charWidth estimates a glyph's advance at 1px of font size: there are
	// no font metrics on the server, so lines are wrapped by this estimate
	// and every card is clipped to its box, whatever the font draws.
	charWidth = 0.58
	monoWidth = 0.61
	// Bounds on the text laid out per node: a card taller than this many
	// lines or wider than this many characters is clipped anyway.
	maxLines     = 240
	maxLineChars = 400
	maxTextBytes = 64 << 10
	maxRows      = 64
	maxLabel     = 60
)

// palette is a theme's colours (the workbench's tokens).
type palette struct {
	bg, panel, line, text, soft, muted, dim, accent, ok, warn, danger, purple string
}

var palettes = map[string]palette{
	"dark": {bg: "#081524", panel: "#0f1d31", line: "#1b2c44", text: "#e6eef7", soft: "#c7d3ea", muted: "#8ea3bd",
		dim: "#5c6b80", accent: "#4BBCFF", ok: "#2fd07f", warn: "#f4c542", danger: "#ff6a7f", purple: "#b07aff"},
	"light": {bg: "#F4EFE6", panel: "#EFE7D4", line: "#D6CBB4", text: "#081524", soft: "#3d4d63", muted: "#5c6b80",
		dim: "#8794a6", accent: "#1A7ABF", ok: "#1a9f55", warn: "#c89b2a", danger: "#d32f2f", purple: "#7c4dff"},
	"high-contrast": {bg: "#000000", panel: "#0a0a0a", line: "#ffffff", text: "#ffffff", soft: "#dddddd", muted: "#aaaaaa",
		dim: "#888888", accent: "#00ffff", ok: "#00ff00", warn: "#ffff00", danger: "#ff0000", purple: "#e040fb"},
}

// badges are the title-bar labels of the workbench (reference §5.1).
var badges = map[string]string{
	"markdown": "MD", "mcp-app": "APP", "external-app": "APP", "web-artifact": "APP", "webpage": "WEB",
	"json-render": "UI", "graph": "GRAPH", "prompt": "ASK", "response": "ANS", "status": "STATUS",
	"context": "CONTEXT", "ledger": "LOG", "trace": "TRACE", "file": "FILE", "image": "IMG", "html": "HTML",
	"group": "GROUP", "diff": "DIFF", "mermaid": "MERMAID",
}

// Render draws the board inside view (board coordinates; the document is
// view.W × view.H pixels). Nodes and edges outside view are clipped by the
// viewBox.
func Render(b Board, view Rect) []byte {
	pal, ok := palettes[b.Theme]
	theme := b.Theme
	if !ok {
		pal, theme = palettes["dark"], "dark"
	}
	view = Rect{finite(view.X), finite(view.Y), math.Max(finite(view.W), 1), math.Max(finite(view.H), 1)}
	w := &writer{pal: pal}
	w.s("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	w.s(`<svg xmlns="http://www.w3.org/2000/svg" width="`).n(view.W).s(`" height="`).n(view.H).
		s(`" viewBox="`).n(view.X).s(" ").n(view.Y).s(" ").n(view.W).s(" ").n(view.H).
		s(`" data-theme="`).s(theme).s("\">\n")
	w.s("<title>pmx-canvas board</title>\n")
	w.s("<desc>").s(strconv.Itoa(len(b.Nodes))).s(" nodes, ").s(strconv.Itoa(len(b.Edges))).s(" edges</desc>\n")
	w.style()
	w.defs()
	w.s(`<rect class="bg" x="`).n(view.X).s(`" y="`).n(view.Y).s(`" width="`).n(view.W).s(`" height="`).n(view.H).s("\"/>\n")
	if len(b.Nodes) == 0 {
		w.s(`<text class="empty" x="`).n(view.X + view.W/2).s(`" y="`).n(view.Y + view.H/2).s(`" text-anchor="middle">Empty board</text>`).s("\n")
	}

	groups, cards := order(b.Nodes)
	rects := make(map[string]Rect, len(b.Nodes))
	for i := range b.Nodes {
		rects[b.Nodes[i].ID] = b.Nodes[i].rect()
	}
	w.s("<g class=\"groups\">\n")
	for _, g := range groups {
		w.group(g)
	}
	w.s("</g>\n<g class=\"edges\">\n")
	w.edges(b.Edges, rects)
	w.s("</g>\n<g class=\"nodes\">\n")
	for _, n := range cards {
		w.card(n)
	}
	w.s("</g>\n</svg>\n")
	return []byte(w.b.String())
}

// order splits nodes into groups (largest first, so a frame lies beneath
// the frames inside it) and cards (by ZIndex, then layout order).
func order(nodes []Node) (groups, cards []*Node) {
	for i := range nodes {
		if nodes[i].Kind == "group" {
			groups = append(groups, &nodes[i])
		} else {
			cards = append(cards, &nodes[i])
		}
	}
	sort.SliceStable(groups, func(i, j int) bool {
		return finite(groups[i].W)*finite(groups[i].H) > finite(groups[j].W)*finite(groups[j].H)
	})
	sort.SliceStable(cards, func(i, j int) bool { return cards[i].ZIndex < cards[j].ZIndex })
	return groups, cards
}

type writer struct {
	b    strings.Builder
	pal  palette
	clip int
}

func (w *writer) s(str string) *writer { w.b.WriteString(str); return w }

// n writes a coordinate: rounded to 1/100, never NaN or -0.
func (w *writer) n(v float64) *writer {
	w.b.WriteString(num(v))
	return w
}

// t writes text content or an attribute value, escaped.
func (w *writer) t(str string) *writer { escape(&w.b, str); return w }

func num(v float64) string {
	v = math.Round(finite(v)*100) / 100
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// finite clamps a coordinate to a drawable value (NaN is 0).
func finite(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v > 1e9:
		return 1e9
	case v < -1e9:
		return -1e9
	}
	return v
}

// escape writes s with the XML specials escaped, invalid UTF-8 and
// characters XML forbids replaced by U+FFFD, and other control characters
// dropped (tabs become a space).
func escape(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&apos;")
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError && size == 1, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			b.WriteRune('\uFFFD')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// control characters have no glyph; XML 1.0 forbids most
		default:
			b.WriteRune(r)
		}
	}
}

func (w *writer) style() {
	p := w.pal
	w.s("<style>\n")
	w.s("text{font-family:\"IBM Plex Sans\",\"Helvetica Neue\",Arial,sans-serif;font-size:12px;white-space:pre;fill:" + p.soft + "}\n")
	w.s(".mono{font-family:\"IBM Plex Mono\",\"DejaVu Sans Mono\",Menlo,monospace;font-size:11px}\n")
	w.s(".bg{fill:" + p.bg + "}\n")
	w.s(".card{fill:" + p.panel + ";stroke:" + p.line + ";stroke-width:1}\n")
	w.s(".bar{stroke:" + p.line + ";stroke-width:1}\n")
	w.s(".title{font-weight:600;fill:" + p.text + "}\n")
	w.s(".badge{fill:" + p.accent + ";fill-opacity:.15}\n")
	w.s(".badge-text{font-size:10px;fill:" + p.accent + ";letter-spacing:.04em}\n")
	w.s(".h{font-weight:600;fill:" + p.text + "}\n")
	w.s(".muted,.key,.empty{fill:" + p.muted + "}\n")
	w.s(".add{fill:" + p.ok + "}.del{fill:" + p.danger + "}.hunk{fill:" + p.accent + "}\n")
	w.s(".warn{fill:" + p.warn + "}.error{fill:" + p.danger + "}.tool{fill:" + p.warn + "}\n")
	w.s(".phase{font-weight:600;letter-spacing:.06em}\n")
	w.s(".edge{fill:none;stroke-width:1.5;stroke-opacity:.85}\n")
	w.s(".label-bg{fill:" + p.panel + ";fill-opacity:.92;stroke:" + p.line + ";stroke-width:.5}\n")
	w.s(".label{font-size:11px;fill:" + p.soft + "}\n")
	w.s(".frame{stroke-width:2;stroke-dasharray:6 4}\n")
	w.s("</style>\n")
}

// edgeKinds are the edge colours and whether the edge has an arrowhead
// (reference §6.1: only depends-on and flow point).
func (w *writer) edgeColor(kind string) (color string, arrow bool) {
	switch kind {
	case "depends-on":
		return w.pal.warn, true
	case "flow":
		return w.pal.accent, true
	case "references":
		return w.pal.dim, false
	}
	return w.pal.muted, false
}

func (w *writer) defs() {
	w.s("<defs>\n")
	for _, kind := range []string{"depends-on", "flow"} {
		c, _ := w.edgeColor(kind)
		w.s(`<marker id="arrow-` + kind + `" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">`)
		w.s(`<path d="M0 0L10 5L0 10z" fill="` + c + `"/></marker>` + "\n")
	}
	w.s("</defs>\n")
}

// phaseColor is a status phase's dot (reference §5: idle muted; running,
// drafting, tooling accent; planning, thinking purple; review green;
// waiting amber).
func (w *writer) phaseColor(phase string) string {
	switch strings.ToLower(phase) {
	case "running", "drafting", "tooling":
		return w.pal.accent
	case "planning", "thinking":
		return w.pal.purple
	case "review", "done", "complete", "completed", "success":
		return w.pal.ok
	case "waiting-approval", "waiting", "blocked":
		return w.pal.warn
	case "error", "failed", "failure":
		return w.pal.danger
	}
	return w.pal.muted
}

var (
	hexColor  = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)
	funcColor = regexp.MustCompile(`^(?:rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,60}\)$`)
	nameColor = regexp.MustCompile(`^[a-zA-Z]{3,24}$`)
	// presets are JSON Canvas's colour numbers.
	presets = map[string]string{"1": "#ef4444", "2": "#f97316", "3": "#eab308", "4": "#22c55e", "5": "#06b6d4", "6": "#a855f7"}
)

// color is c when it is a plain CSS colour, else def. Attribute escaping
// alone would keep the document well formed; this keeps it meaningful.
func color(c, def string) string {
	c = strings.TrimSpace(c)
	if p, ok := presets[c]; ok {
		return p
	}
	if hexColor.MatchString(c) || funcColor.MatchString(c) || nameColor.MatchString(c) {
		return c
	}
	return def
}

func (w *writer) group(g *Node) {
	r := g.rect()
	c := color(g.Color, w.pal.accent)
	w.s(`<g class="group" data-id="`).t(g.ID).s("\">")
	w.s(`<rect class="frame" x="`).n(r.X).s(`" y="`).n(r.Y).s(`" width="`).n(r.W).s(`" height="`).n(r.H).
		s(`" rx="12" fill="`).t(c).s(`" fill-opacity=".04" stroke="`).t(c).s("\"/>")
	bar := math.Min(titleBarHeight, r.H)
	w.s(`<path d="M`).n(r.X + 1).s(" ").n(r.Y + bar).s("V").n(r.Y + 12).s("a11 11 0 0 1 11 -11H").n(r.right() - 12).
		s("a11 11 0 0 1 11 11V").n(r.Y + bar).s(`z" fill="`).t(c).s(`" fill-opacity=".12"/>`)
	w.titleBar(g, r, c)
	if !g.Collapsed && r.H > titleBarHeight+bodyPad+lineHeight {
		members := strconv.Itoa(len(g.Children)) + " nodes"
		if len(g.Children) == 1 {
			members = "1 node"
		}
		w.s(`<text class="muted" x="`).n(r.X + bodyPad).s(`" y="`).n(r.Y + titleBarHeight + bodyPad + 10).s(`">`).s(members).s("</text>")
	}
	w.s("</g>\n")
}

// titleBar draws the badge and the title, clipped to the bar.
func (w *writer) titleBar(n *Node, r Rect, badgeColor string) {
	label := badges[n.Kind]
	if label == "" {
		label = strings.ToUpper(truncate(n.Kind, 12))
	}
	bw := float64(utf8.RuneCountInString(label))*6.4 + 12
	y := r.Y + titleBarHeight/2
	w.s(`<rect x="`).n(r.X + 10).s(`" y="`).n(y - 9).s(`" width="`).n(bw).s(`" height="18" rx="4" fill="`).t(badgeColor).s(`" fill-opacity=".18"/>`)
	w.s(`<text class="badge-text" x="`).n(r.X + 10 + bw/2).s(`" y="`).n(y + 3.5).s(`" text-anchor="middle" fill="`).t(badgeColor).s(`">`).t(label).s("</text>")
	avail := int((r.W - bw - 30) / (titleFont * charWidth))
	if title := oneLine(n.Title); title != "" && avail > 0 {
		w.s(`<text class="title" x="`).n(r.X + 18 + bw).s(`" y="`).n(y + 4).s(`">`).t(truncate(title, avail)).s("</text>")
	}
}

func (w *writer) card(n *Node) {
	r := n.rect()
	w.clip++
	id := "c" + strconv.Itoa(w.clip)
	w.s(`<g class="node" data-id="`).t(n.ID).s(`" data-kind="`).t(n.Kind).s("\">")
	w.s(`<clipPath id="`).s(id).s(`"><rect x="`).n(r.X).s(`" y="`).n(r.Y).s(`" width="`).n(r.W).s(`" height="`).n(r.H).s(`" rx="10"/></clipPath>`)
	stroke := ""
	if n.Color != "" {
		if c := color(n.Color, ""); c != "" {
			stroke = c
		}
	}
	w.s(`<rect class="card" x="`).n(r.X).s(`" y="`).n(r.Y).s(`" width="`).n(r.W).s(`" height="`).n(r.H).s(`" rx="10"`)
	if stroke != "" {
		w.s(` stroke="`).t(stroke).s(`"`)
	}
	w.s("/>")
	w.s(`<g clip-path="url(#`).s(id).s(")\">")
	w.titleBar(n, r, w.pal.accent)
	if !n.Collapsed {
		w.s(`<path class="bar" d="M`).n(r.X).s(" ").n(r.Y + titleBarHeight).s("H").n(r.right()).s(`"/>`)
		w.body(n, r)
	}
	w.s("</g></g>\n")
}

// line is one laid-out line of a card body and its class.
type line struct{ text, class string }

func (w *writer) body(n *Node, r Rect) {
	x := r.X + bodyPad
	y := r.Y + titleBarHeight + bodyPad + 9 // first baseline
	bottom := r.bottom() - 6
	width := r.W - 2*bodyPad
	room := func() bool { return y <= bottom }
	text := func(class, s string) {
		w.s(`<text`)
		if class != "" {
			w.s(` class="`).s(class).s(`"`)
		}
		w.s(` x="`).n(x).s(`" y="`).n(y).s(`">`).t(s).s("</text>")
		y += lineHeight
	}
	if n.Kind == "status" || n.Phase != "" {
		phase := n.Phase
		if phase == "" {
			phase = "idle"
		}
		w.s(`<circle cx="`).n(x + 4).s(`" cy="`).n(y - 4).s(`" r="4" fill="`).s(w.phaseColor(phase)).s(`"/>`)
		w.s(`<text class="phase" x="`).n(x + 14).s(`" y="`).n(y).s(`" fill="`).s(w.phaseColor(phase)).s(`">`).
			t(strings.ToUpper(truncate(oneLine(phase), 40))).s("</text>")
		y += lineHeight
		if n.Tool != "" && room() {
			text("mono tool", "⚙ "+truncate(oneLine(n.Tool), charsFor(width, true)))
		}
	}
	if n.Subtitle != "" && room() {
		text("mono muted", truncate(oneLine(n.Subtitle), charsFor(width, true)))
	}
	lines := int((bottom-y)/lineHeight) + 1
	if lines > 0 && n.Text != "" {
		cls := ""
		if n.Level == "warn" || n.Level == "warning" {
			cls = "warn"
		} else if n.Level == "error" {
			cls = "error"
		}
		for _, l := range layout(n.Kind, n.Text, width, min(lines, maxLines)) {
			c := l.class
			if c == "" {
				c = cls
			}
			text(c, l.text)
		}
	}
	for i, row := range n.Rows {
		if i >= maxRows || !room() {
			break
		}
		chars := charsFor(width, false)
		key := truncate(oneLine(row.Key), chars/2)
		w.s(`<text class="key" x="`).n(x).s(`" y="`).n(y).s(`">`).t(key).s("</text>")
		w.s(`<text class="mono" x="`).n(r.right() - bodyPad).s(`" y="`).n(y).s(`" text-anchor="end">`).
			t(truncate(oneLine(row.Value), max(chars-utf8.RuneCountInString(key)-2, 4))).s("</text>")
		y += lineHeight
	}
}

func charsFor(width float64, mono bool) int {
	cw := charWidth * bodyFont
	if mono {
		cw = monoWidth * 11
	}
	return max(int(width/cw), 1)
}

// monoKinds show their text as code.
var monoKinds = map[string]bool{"file": true, "diff": true, "mermaid": true}

// layout wraps text into at most limit lines of the card's width, with a
// little markdown for markdown nodes (headings bold, bullets and task boxes
// as glyphs, fenced code in mono) and coloured lines for diffs. A cut
// text ends with "…".
func layout(kind, text string, width float64, limit int) []line {
	if len(text) > maxTextBytes {
		text = text[:maxTextBytes]
	}
	mono := monoKinds[kind]
	md := kind == "markdown" || kind == "prompt" || kind == "response"
	var out []line
	code := false
	cut := false
	for _, src := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if len(out) >= limit {
			cut = true
			break
		}
		src = strings.ReplaceAll(src, "\t", "    ")
		class, isMono := "", mono
		if md {
			trimmed := strings.TrimSpace(src)
			switch {
			case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
				code = !code
				continue
			case code:
				isMono = true
			case strings.HasPrefix(trimmed, "#"):
				h := strings.TrimLeft(trimmed, "#")
				if len(trimmed)-len(h) <= 6 && (h == "" || h[0] == ' ') {
					src, class = strings.TrimSpace(h), "h"
				}
			default:
				src = bullet(src)
			}
		}
		if kind == "diff" {
			switch {
			case strings.HasPrefix(src, "+++"), strings.HasPrefix(src, "---"):
				class = "muted"
			case strings.HasPrefix(src, "+"):
				class = "add"
			case strings.HasPrefix(src, "-"):
				class = "del"
			case strings.HasPrefix(src, "@@"):
				class = "hunk"
			}
		}
		if isMono {
			if class == "" {
				class = "mono"
			} else {
				class = "mono " + class
			}
		}
		chars := min(charsFor(width, isMono), maxLineChars)
		for _, part := range wrap(src, chars) {
			if len(out) >= limit {
				cut = true
				break
			}
			out = append(out, line{part, class})
		}
	}
	if cut && len(out) > 0 {
		last := &out[len(out)-1]
		last.text = strings.TrimRight(last.text, " ") + "…"
	}
	return out
}

// bullet draws markdown list markers and task boxes as glyphs.
func bullet(src string) string {
	indent := len(src) - len(strings.TrimLeft(src, " "))
	rest := src[indent:]
	for _, m := range []struct{ from, to string }{
		{"- [ ] ", "☐ "}, {"- [x] ", "☑ "}, {"- [X] ", "☑ "}, {"* [ ] ", "☐ "}, {"* [x] ", "☑ "},
		{"- ", "• "}, {"* ", "• "}, {"+ ", "• "},
	} {
		if strings.HasPrefix(rest, m.from) {
			return src[:indent] + m.to + rest[len(m.from):]
		}
	}
	return src
}

// wrap breaks one paragraph into lines of at most chars runes, at spaces
// where it can; an empty paragraph is one empty line.
func wrap(s string, chars int) []string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if s == "" {
		return []string{""}
	}
	var out []string
	runes := []rune(s)
	for len(runes) > chars {
		cut := -1
		for i := chars; i > chars/3; i-- {
			if runes[i] == ' ' {
				cut = i
				break
			}
		}
		if cut < 0 {
			out = append(out, string(runes[:chars]))
			runes = runes[chars:]
			continue
		}
		out = append(out, string(runes[:cut]))
		runes = runes[cut+1:]
	}
	return append(out, string(runes))
}

// oneLine is s on one line (a title with newlines).
func oneLine(s string) string {
	if len(s) > 4096 {
		s = s[:4096]
	}
	return strings.Join(strings.Fields(s), " ")
}

// truncate shortens s to at most n runes, ending with "…" when cut.
func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
