package cli

// The automation webview: webview status|start|stop|evaluate|resize|
// screenshot, and the top-level screenshot alias (reference cli.md §7.13,
// webview.md).

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func init() {
	setUX(map[string]*commandUX{
		"webview.status": {short: "Show the automation webview status", example: []string{"pmx-canvas webview status"}},
		"webview.start": {
			short: "Start or replace the automation webview session",
			example: []string{"pmx-canvas webview start", "pmx-canvas webview start --backend chrome --width 1440 --height 900",
				"pmx-canvas webview start --chrome-argv=--disable-gpu,--lang=en"},
			flags: map[string]flagUX{
				"width":  {positive: true, integer: true, hint: "Use a positive integer width, e.g. --width 1440"},
				"height": {positive: true, integer: true, hint: "Use a positive integer height, e.g. --height 900"},
			},
			// Unlike the reference, a failed start fails the command (exit
			// 1, the error on stderr), so scripts can test it.
			prepare: func(c *opCall) error {
				if b, ok := c.in["backend"].(string); ok && !slices.Contains(messages.WebviewBackends, b) {
					return die("Use: --backend chrome", "Invalid value for --backend")
				}
				return nil
			},
		},
		"webview.stop": {short: "Stop the automation webview session", example: []string{"pmx-canvas webview stop"}},
		"webview.evaluate": {
			short: "Evaluate JavaScript in the automation webview",
			example: []string{`pmx-canvas webview evaluate --expression "document.title"`,
				`pmx-canvas webview evaluate --script "const t = document.title; return t.toUpperCase()"`,
				"pmx-canvas webview evaluate --file ./probe.js"},
			extra:   func(cmd *cobra.Command) { cmd.Flags().String("file", "", "a file holding a function body") },
			prepare: prepareEvaluate,
		},
		"webview.resize": {
			short:   "Resize the automation webview viewport",
			example: []string{"pmx-canvas webview resize --width 1280 --height 800"},
			flags: map[string]flagUX{
				"width":  {positive: true, integer: true, hint: resizeHint},
				"height": {positive: true, integer: true, hint: resizeHint},
			},
			prepare: func(c *opCall) error {
				if c.in["width"] == nil || c.in["height"] == nil {
					return die(resizeHint, "Missing required flags: --width, --height")
				}
				return nil
			},
		},
		"webview.screenshot": {
			short: "Save a screenshot of the automation webview",
			example: []string{"pmx-canvas webview screenshot --output ./canvas.png",
				"pmx-canvas webview screenshot --output ./canvas.webp --format webp --quality 80"},
			flags: map[string]flagUX{"format": {usage: "png, jpeg or webp"}, "quality": {hint: "Use a numeric quality, e.g. --quality 80"}},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("output", "", "file to write the image to (required)")
				completeValues(cmd, "format", screenshotFormats...)
			},
			run: runScreenshot,
			aliases: []alias{{path: "screenshot", short: "Save a screenshot of the automation webview (alias of webview screenshot)",
				example: []string{"pmx-canvas screenshot --output ./canvas.png", "pmx-canvas screenshot --output ./canvas.jpg --format jpeg --quality 70"}}},
		},
	})
}

const resizeHint = "Use: pmx-canvas webview resize --width 1280 --height 800"

// prepareEvaluate takes exactly one of --expression, --script or --file
// (a file's body runs as a script).
func prepareEvaluate(c *opCall) error {
	var sources []string
	for _, f := range []string{"expression", "script", "file"} {
		if c.given(f) {
			sources = append(sources, "--"+f)
		}
	}
	switch {
	case len(sources) == 0:
		return die(`Use: pmx-canvas webview evaluate --expression "document.title"`, "Missing required flag: --expression")
	case len(sources) > 1:
		return die("Pass only one of --expression, --script or --file", "Conflicting flags: %s", strings.Join(sources, ", "))
	}
	if path := str(c.cmd, "file"); path != nil {
		body, err := readFile("file", *path, "Use: pmx-canvas webview evaluate --file ./probe.js")
		if err != nil {
			return err
		}
		c.in["script"] = body
	}
	return nil
}

// runScreenshot writes the image to --output and prints
// {ok, output, bytes, mimeType}.
func runScreenshot(c *opCall) error {
	out := str(c.cmd, "output")
	if out == nil || *out == "" {
		return die("Use: pmx-canvas webview screenshot --output ./canvas.png", "Missing required flag: --output")
	}
	if f, ok := c.in["format"].(string); ok && !slices.Contains(screenshotFormats, f) {
		return die("Use: --format png, jpeg, or webp", "Invalid value for --format")
	}
	reply, err := invokeReply(c.cmd, c.op, c.in)
	if err != nil {
		return err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		return fmt.Errorf("webview screenshot: the server answered JSON, not an image")
	}
	if err := os.WriteFile(*out, blob.Data, 0o644); err != nil {
		return die("Pick a path in a directory you can write, e.g. --output ./canvas.png", "Cannot write %s: %v", *out, err)
	}
	return c.show(ordered{{"ok", true}, {"output", *out}, {"bytes", len(blob.Data)}, {"mimeType", blob.ContentType}})
}

var screenshotFormats = []string{"png", "jpeg", "webp"}
