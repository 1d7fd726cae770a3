package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Workspace-content commands: the byte-serving operations write what the
// server sends to --output ("-" for stdout) and print a JSON receipt.

func init() {
	blob := func(example ...string) *commandUX {
		return &commandUX{
			example: example,
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("output", "-", `file to write the bytes to ("-": stdout)`)
			},
			run: runBlob,
		}
	}
	setUX(map[string]*commandUX{
		"file.bytes":         blob("pmx-canvas file bytes docs/spec.pdf --output ./spec.pdf"),
		"image.get":          blob("pmx-canvas image get node-abc --output ./shot.png"),
		"artifact.get":       blob("pmx-canvas artifact notes/plan.md --output ./plan.html"),
		"surface.get":        blob("pmx-canvas surface node-abc --theme light --output ./surface.html"),
		"frame-document.get": blob("pmx-canvas frame-document get 3f2a… --output ./frame.html"),
		"node.refresh":       {example: []string{"pmx-canvas node refresh node-abc", "pmx-canvas node refresh node-abc --url https://example.com/docs"}},
		"file.save":          {example: []string{`pmx-canvas file save notes/plan.md --content "# Plan"`}},
	})
}

// runBlob sends the operation and writes the bytes of its reply.
func runBlob(c *opCall) error {
	out, _ := c.cmd.Flags().GetString("output")
	words := commandWords(c.cmd)
	if out == "" {
		out = "-"
	}
	reply, err := invokeReply(c.cmd, c.op, c.in)
	if err != nil {
		return err
	}
	blob, ok := reply.Body.(*messages.Blob)
	if !ok {
		return fmt.Errorf("%s: the server answered JSON, not file bytes", words)
	}
	if out == "-" {
		_, err := c.s.Out.Write(blob.Data)
		return err
	}
	if err := os.WriteFile(out, blob.Data, 0o644); err != nil {
		return die("Pick a path in a directory you can write", "Cannot write %s: %v", out, err)
	}
	return c.show(ordered{{"ok", true}, {"output", out}, {"bytes", len(blob.Data)}, {"mimeType", blob.ContentType}})
}
