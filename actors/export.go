package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/content/boardsvg"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// canvas.export: the JSON Canvas document (unchanged), or the board drawn
// as an image. Both read the published view; the SVG is a pure function of
// it (content/boardsvg), and the PNG is that SVG rasterised in a short-lived
// headless Chromium, the browser the automation webview uses.
func init() {
	readHandlers["canvas.export"] = func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.ExportInput)
		format := "jsoncanvas"
		if in.Format != nil && *in.Format != "" {
			format = *in.Format
		}
		switch format {
		case "jsoncanvas", "canvas":
			for _, f := range []struct {
				name string
				v    *string
			}{{"nodes", in.Nodes}, {"region", in.Region}, {"theme", in.Theme}} {
				if f.v != nil {
					return nil, messages.InvalidInput("invalid input for canvas.export: field %q applies to svg and png exports, not %s", f.name, format).With("field", f.name)
				}
			}
			return canvas.ExportJSONCanvas(s), nil
		case "svg", "png":
		default:
			return nil, messages.BadRequest("Unsupported export format %q (field \"format\"). Use: jsoncanvas, svg or png", format).With("field", "format")
		}
		svg, view, err := exportSVG(s, in)
		if err != nil {
			return nil, err
		}
		if format == "svg" {
			return &messages.Blob{ContentType: "image/svg+xml", Data: svg, CSP: exportCSP}, nil
		}
		png, err := rasterise(ref.sys, svg, view, env.Deadline)
		if err != nil {
			return nil, err
		}
		return &messages.Blob{ContentType: "image/png", Data: png}, nil
	}
}

// exportCSP is what the SVG is served with: opened on its own in a
// browser it may apply its inline style and nothing else (it holds no
// script, but a document that could run one would not be served so).
const exportCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// exportSVG draws the part of the board the input names: the whole board
// (docked widgets are screen furniture and are left out), the nodes listed
// (fitted), or a region.
func exportSVG(s *canvas.State, in *messages.ExportInput) ([]byte, boardsvg.Rect, *messages.Error) {
	theme := s.Theme
	if in.Theme != nil && *in.Theme != "" {
		if !slices.Contains(messages.Themes, *in.Theme) {
			return nil, boardsvg.Rect{}, messages.InvalidInput("invalid input for canvas.export: field \"theme\" must be dark, light or high-contrast, got %q", *in.Theme).With("field", "theme")
		}
		theme = *in.Theme
	}
	if in.Nodes != nil && in.Region != nil {
		return nil, boardsvg.Rect{}, messages.InvalidInput("invalid input for canvas.export: give field \"nodes\" or field \"region\", not both").With("field", "region")
	}
	var named []string
	if in.Nodes != nil {
		named = boardsvg.ParseIDs(*in.Nodes)
		if len(named) == 0 {
			return nil, boardsvg.Rect{}, messages.InvalidInput("invalid input for canvas.export: field \"nodes\" must list node ids (comma-separated)").With("field", "nodes")
		}
	}
	board := boardOf(s, theme, named)
	switch {
	case in.Nodes != nil:
		only, missing := board.Only(named)
		if len(missing) > 0 {
			return nil, boardsvg.Rect{}, messages.InvalidInput("invalid input for canvas.export: field \"nodes\": no node %s on the canvas", quoted(missing)).With("field", "nodes")
		}
		view := only.Fit()
		return boardsvg.Render(only, view), view, nil
	case in.Region != nil:
		region, err := boardsvg.ParseRegion(*in.Region)
		if err != nil {
			return nil, boardsvg.Rect{}, messages.InvalidInput("invalid input for canvas.export: field \"region\" %v", err).With("field", "region")
		}
		return boardsvg.Render(board.Within(region), region), region, nil
	}
	view := board.Fit()
	return boardsvg.Render(board, view), view, nil
}

func quoted(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// boardOf converts the published view into the renderer's plain board:
// what each node type shows as its subtitle, text and rows. Docked nodes
// are included only when named.
func boardOf(s *canvas.State, theme string, named []string) boardsvg.Board {
	b := boardsvg.Board{Theme: theme}
	for _, n := range s.Nodes.All() {
		if n.DockPosition != "" && !slices.Contains(named, n.ID) {
			continue
		}
		b.Nodes = append(b.Nodes, boardNode(n))
	}
	for _, e := range s.Edges.All() {
		b.Edges = append(b.Edges, boardsvg.Edge{ID: e.ID, From: e.From, To: e.To, Kind: e.Type, Label: e.Label, Style: e.Style})
	}
	return b
}

func boardNode(n *canvas.Node) boardsvg.Node {
	str := func(k string) string { v, _ := n.DataString(k); return v }
	out := boardsvg.Node{ID: n.ID, Kind: canvas.Kind(n), Title: canvas.Title(n), X: n.Position.X, Y: n.Position.Y,
		W: n.Size.Width, H: n.Size.Height, ZIndex: n.ZIndex, Collapsed: n.Collapsed, Color: str("color")}
	switch n.Type {
	case "group":
		out.Children = n.Children()
	case "status":
		out.Phase = firstOf(str("phase"), str("content"), str("status"), "idle")
		out.Tool, out.Level = str("activeTool"), str("level")
		out.Text = firstOf(str("message"), str("detail"))
	case "trace":
		out.Phase = str("status")
		out.Tool = str("toolName")
		out.Text = firstOf(str("error"), str("resultSummary"), str("content"))
		if str("error") != "" {
			out.Level = "error"
		}
		if d := str("duration"); d != "" {
			out.Rows = append(out.Rows, boardsvg.Row{Key: "Duration", Value: d})
		}
	case "ledger":
		out.Text = strings.ReplaceAll(str("content"), `\n`, "\n")
		out.Rows = ledgerRows(n.Data)
	case "context":
		cards, _ := n.Data["cards"].([]any)
		out.Text = fmt.Sprintf("%d pinned context cards", len(cards))
		for _, c := range cards {
			if m, ok := c.(map[string]any); ok {
				if t, _ := m["title"].(string); t != "" {
					out.Text += "\n• " + t
				}
			}
		}
	case "file":
		p := firstOf(str("path"), str("content"))
		out.Subtitle = p
		if out.Title == "" {
			out.Title = path.Base(p)
		}
		out.Text = str("fileContent")
	case "image":
		out.Subtitle = firstOf(str("path"), str("src"), str("url"))
		if strings.HasPrefix(out.Subtitle, "data:") {
			out.Subtitle = "inline image"
		}
		out.Text = str("alt")
	case "webpage":
		out.Subtitle = str("url")
		out.Text = firstOf(str("excerpt"), str("description"), str("content"))
	default:
		out.Text = canvas.ContentText(n)
	}
	return out
}

// ledgerRows are a ledger's other data keys, as the workbench lists them
// (reference §5: keys but the title, content and layout flags), in key
// order so the picture is the same every time.
func ledgerRows(data map[string]any) []boardsvg.Row {
	skip := map[string]bool{"title": true, "__type": true, "content": true, "strictSize": true, "arrangeLocked": true, "color": true}
	var keys []string
	for k := range data {
		if !skip[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	rows := make([]boardsvg.Row, 0, len(keys))
	for _, k := range keys {
		v := data[k]
		text, ok := v.(string)
		if !ok {
			raw, _ := json.Marshal(v)
			text = string(raw)
		}
		rows = append(rows, boardsvg.Row{Key: humanise(k), Value: text})
	}
	return rows
}

// humanise turns camelCase into words: passedChecks → "Passed Checks".
func humanise(k string) string {
	var b strings.Builder
	for i, r := range k {
		if i == 0 {
			b.WriteString(strings.ToUpper(string(r)))
			continue
		}
		if r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// PNG limits: up to 2 pixels per board unit, the longer side at most
// maxRaster pixels (a larger board is scaled down to fit).
const (
	maxRaster   = 4096
	rasterScale = 2
)

// rasterSize is the PNG's size for a view.
func rasterSize(view boardsvg.Rect) (w, h int) {
	scale := math.Min(rasterScale, maxRaster/math.Max(view.W, view.H))
	return max(int(math.Round(view.W*scale)), 1), max(int(math.Round(view.H*scale)), 1)
}

// rasterise draws the SVG in a fresh headless Chromium and screenshots it.
// The page is about:blank with the SVG as an <img> (an image document runs
// no script, whatever it holds). A browser is launched per export, so
// exports never disturb the canvas's webview session; rasterSlots bounds
// how many run at once.
func rasterise(sys *System, svg []byte, view boardsvg.Rect, deadline time.Time) ([]byte, *messages.Error) {
	engine := sys.webviewEngine()
	if !engine.Supported() {
		return nil, messages.Make(messages.CodeWebviewUnsupported,
			"PNG export needs Chromium on the server: install chromium (Debian: apt-get install chromium), or start the server with --webview-chrome-path or PMX_CANVAS_CHROME_PATH. format=svg needs no browser.")
	}
	budget := webviewLaunchBudget + sys.cfg.Webview.stepTimeout()
	if deadline.IsZero() || time.Until(deadline) > budget {
		deadline = time.Now().Add(budget)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	select {
	case sys.rasterSlots <- struct{}{}:
		defer func() { <-sys.rasterSlots }()
	case <-ctx.Done():
		return nil, messages.Unavailable("PNG export: too many exports at once; retry")
	}
	w, h := rasterSize(view)
	cfg := sys.cfg.Webview.Browser
	sess, err := engine.Start(ctx, "about:blank", automation.Options{Width: w, Height: h, ChromePath: cfg.ChromePath, ChromeArgv: cfg.ChromeArgv})
	if err != nil {
		if errors.Is(err, automation.ErrNoBrowser) {
			return nil, messages.Make(messages.CodeWebviewUnsupported, "PNG export needs Chromium on the server: %v", err)
		}
		return nil, messages.Unavailable("PNG export: %v", err)
	}
	defer func() { _ = sess.Close() }()
	if _, _, err := sess.Evaluate(ctx, rasterScript(svg, w, h)); err != nil {
		return nil, messages.Unavailable("PNG export: the browser did not draw the SVG: %v", err)
	}
	png, err := sess.Screenshot(ctx, "png", nil)
	if err != nil {
		return nil, messages.Unavailable("PNG export: screenshot failed: %v", err)
	}
	return png, nil
}

// rasterScript puts the SVG on the page as an image of exactly w×h CSS
// pixels and waits until it is decoded. The SVG travels as a string and
// is shown through a blob: URL, because Chromium refuses data: URLs over
// 2 MB (a board of a few thousand nodes).
func rasterScript(svg []byte, w, h int) string {
	text, _ := json.Marshal(string(svg))
	return automation.ScriptExpression(fmt.Sprintf(`const svg = %s;
const img = new Image(%d, %d);
img.style.display = "block";
document.documentElement.style.margin = document.body.style.margin = "0";
document.body.replaceChildren(img);
img.src = URL.createObjectURL(new Blob([svg], {type: "image/svg+xml"}));
await img.decode();
return true;`, text, w, h))
}
