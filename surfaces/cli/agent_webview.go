package cli

// The automation webview: webview status|start|stop|evaluate|resize|
// screenshot, and the top-level screenshot alias (reference cli.md §7.13,
// webview.md).

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func webviewCommands(s *ioStreams) []*cobra.Command {
	return []*cobra.Command{newWebviewCommand(s), newScreenshotCommand(s)}
}

func newWebviewCommand(s *ioStreams) *cobra.Command {
	status := leaf("status", "Show the automation webview status", examples("pmx-canvas webview status"),
		func(cmd *cobra.Command, _ []string) error { return runOp(cmd, s, "webview.status", nil) })
	start := leaf("start", "Start or replace the automation webview session",
		examples("pmx-canvas webview start", "pmx-canvas webview start --backend chrome --width 1440 --height 900",
			"pmx-canvas webview start --chrome-argv=--disable-gpu,--lang=en"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{}
			if b := str(cmd, "backend"); b != nil {
				if *b != "chrome" && *b != "webkit" {
					return die("Use: --backend chrome", "Invalid value for --backend")
				}
				in["backend"] = *b
			}
			setNum(in, "width", cmd, "width")
			setNum(in, "height", cmd, "height")
			setStr(in, "chromePath", cmd, "chrome-path")
			if argv := str(cmd, "chrome-argv"); argv != nil {
				in["chromeArgv"] = csv(*argv)
			}
			setStr(in, "dataStoreDir", cmd, "data-dir")
			// Unlike the reference, a failed start fails the command
			// (exit 1, the error on stderr), so scripts can test it.
			return runOp(cmd, s, "webview.start", in)
		})
	sf := start.Flags()
	sf.String("backend", "", "chrome (webkit is not available in this build)")
	addCount(start, "width", "viewport width", "Use a positive integer width, e.g. --width 1440")
	addCount(start, "height", "viewport height", "Use a positive integer height, e.g. --height 900")
	sf.String("chrome-path", "", "browser executable")
	sf.String("chrome-argv", "", "extra browser arguments, comma-separated")
	sf.String("data-dir", "", "persistent browser profile directory, inside the workspace")
	stop := leaf("stop", "Stop the automation webview session", examples("pmx-canvas webview stop"),
		func(cmd *cobra.Command, _ []string) error { return runOp(cmd, s, "webview.stop", nil) })
	evaluate := leaf("evaluate", "Evaluate JavaScript in the automation webview",
		examples(`pmx-canvas webview evaluate --expression "document.title"`,
			`pmx-canvas webview evaluate --script "const t = document.title; return t.toUpperCase()"`,
			"pmx-canvas webview evaluate --file ./probe.js"),
		func(cmd *cobra.Command, _ []string) error {
			in, err := evaluateInput(cmd)
			if err != nil {
				return err
			}
			return runOp(cmd, s, "webview.evaluate", in)
		})
	evaluate.Flags().String("expression", "", "an expression")
	evaluate.Flags().String("script", "", "a function body (may await and return)")
	evaluate.Flags().String("file", "", "a file holding a function body")
	resize := leaf("resize", "Resize the automation webview viewport",
		examples("pmx-canvas webview resize --width 1280 --height 800"),
		func(cmd *cobra.Command, _ []string) error {
			if !given(cmd, "width") || !given(cmd, "height") {
				return die("Use: pmx-canvas webview resize --width 1280 --height 800", "Missing required flags: --width, --height")
			}
			in := map[string]any{}
			setNum(in, "width", cmd, "width")
			setNum(in, "height", cmd, "height")
			return runOp(cmd, s, "webview.resize", in)
		})
	addCount(resize, "width", "viewport width", "Use: pmx-canvas webview resize --width 1280 --height 800")
	addCount(resize, "height", "viewport height", "Use: pmx-canvas webview resize --width 1280 --height 800")
	shot := leaf("screenshot", "Save a screenshot of the automation webview",
		examples("pmx-canvas webview screenshot --output ./canvas.png",
			"pmx-canvas webview screenshot --output ./canvas.webp --format webp --quality 80"),
		func(cmd *cobra.Command, _ []string) error { return runScreenshot(cmd, s) })
	addScreenshotFlags(shot)
	return newGroup("webview", "Headless automation webview", examples("pmx-canvas webview status", "pmx-canvas webview start --width 1440 --height 900"),
		status, start, stop, evaluate, resize, shot)
}

func newScreenshotCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("screenshot", "Save a screenshot of the automation webview (alias of webview screenshot)",
		examples("pmx-canvas screenshot --output ./canvas.png", "pmx-canvas screenshot --output ./canvas.jpg --format jpeg --quality 70"),
		func(cmd *cobra.Command, _ []string) error { return runScreenshot(cmd, s) })
	addScreenshotFlags(cmd)
	return cmd
}

func addScreenshotFlags(cmd *cobra.Command) {
	cmd.Flags().String("output", "", "file to write the image to (required)")
	cmd.Flags().String("format", "", "png, jpeg or webp")
	addNum(cmd, "quality", "jpeg/webp quality (0-100)", "Use a numeric quality, e.g. --quality 80")
	completeValues(cmd, "format", "png", "jpeg", "webp")
}

// evaluateInput takes exactly one of --expression, --script or --file.
func evaluateInput(cmd *cobra.Command) (map[string]any, error) {
	var sources []string
	for _, f := range []string{"expression", "script", "file"} {
		if given(cmd, f) {
			sources = append(sources, "--"+f)
		}
	}
	switch {
	case len(sources) == 0:
		return nil, die(`Use: pmx-canvas webview evaluate --expression "document.title"`, "Missing required flag: --expression")
	case len(sources) > 1:
		return nil, die("Pass only one of --expression, --script or --file", "Conflicting flags: %s", strings.Join(sources, ", "))
	}
	if e := str(cmd, "expression"); e != nil {
		return map[string]any{"expression": *e}, nil
	}
	if sc := str(cmd, "script"); sc != nil {
		return map[string]any{"script": *sc}, nil
	}
	path := *str(cmd, "file")
	body, err := readFile("--file", path, "Use: pmx-canvas webview evaluate --file ./probe.js")
	if err != nil {
		return nil, err
	}
	return map[string]any{"script": body}, nil
}

// runScreenshot writes the image to --output and prints
// {ok, output, bytes, mimeType}.
func runScreenshot(cmd *cobra.Command, s *ioStreams) error {
	out := str(cmd, "output")
	if out == nil || *out == "" {
		return die("Use: pmx-canvas webview screenshot --output ./canvas.png", "Missing required flag: --output")
	}
	in := map[string]any{}
	if f := str(cmd, "format"); f != nil {
		if _, ok := screenshotFormats[*f]; !ok {
			return die("Use: --format png, jpeg, or webp", "Invalid value for --format")
		}
		in["format"] = *f
	}
	setNum(in, "quality", cmd, "quality")
	reply, err := invokeReply(cmd, "webview.screenshot", in)
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
	return output(s.Out, ordered{{"ok", true}, {"output", *out}, {"bytes", len(blob.Data)}, {"mimeType", blob.ContentType}})
}

var screenshotFormats = map[string]bool{"png": true, "jpeg": true, "webp": true}
