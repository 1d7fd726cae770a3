package pmxcanvas

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// demoBoard is the demo board (serve --demo): workspace files to write
// and the operations that lay out one node of every type, edges, a
// coloured group, context pins, a pending approval, a steering message
// and a work item. A string "$name" in a step's input is the id of the
// node an earlier step created "as" name; "$server" is the server's URL.
//
//go:embed demo/board.json
var demoBoard []byte

type demoStep struct {
	As    string          `json:"as"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
}

// DemoImage is the demo board's image file, drawn at seed time.
const DemoImage = "pmx-demo/board.png"

// SeedDemo lays the demo board out on the default canvas when it has no
// nodes (it reports false and changes nothing otherwise). It writes its
// files under pmx-demo/ in the workspace, never over an existing file,
// and runs every step through the same operations agents call; the first
// failing step stops it with an error naming the step.
func (s *Server) SeedDemo(ctx context.Context) (bool, error) {
	c := s.Canvas().WithSource("system")
	layout, err := c.LayoutGet(ctx, &messages.LayoutGetInput{})
	if err != nil {
		return false, err
	}
	if len(layout.Nodes) > 0 {
		return false, nil
	}
	var board struct {
		Files map[string]string `json:"files"`
		Steps []demoStep        `json:"steps"`
	}
	if err := json.Unmarshal(demoBoard, &board); err != nil {
		return false, fmt.Errorf("demo board: %w", err)
	}
	for name, text := range board.Files {
		if err := writeNew(filepath.Join(s.Workspace, name), []byte(text)); err != nil {
			return false, fmt.Errorf("demo file %s: %w", name, err)
		}
	}
	if err := writeNew(filepath.Join(s.Workspace, DemoImage), demoPNG()); err != nil {
		return false, fmt.Errorf("demo file %s: %w", DemoImage, err)
	}
	ids := map[string]string{"server": s.URL()}
	for i, st := range board.Steps {
		var in any
		if err := json.Unmarshal(st.Input, &in); err != nil {
			return false, fmt.Errorf("demo step %d (%s): %w", i+1, st.Op, err)
		}
		var out struct {
			NodeID string `json:"nodeId"`
			ID     string `json:"id"`
		}
		if err := c.call(ctx, st.Op, substitute(in, ids), &out); err != nil {
			return false, fmt.Errorf("demo step %d (%s): %w", i+1, st.Op, err)
		}
		if st.As != "" {
			if out.NodeID == "" {
				return false, fmt.Errorf("demo step %d (%s) created no node", i+1, st.Op)
			}
			ids[st.As] = out.NodeID
		}
	}
	return true, nil
}

// substitute replaces "$name" strings (and a "$name" prefix, for
// "$server/health") with the named value, everywhere in v.
func substitute(v any, ids map[string]string) any {
	switch t := v.(type) {
	case string:
		if !strings.HasPrefix(t, "$") {
			return t
		}
		name, rest, slash := strings.Cut(t[1:], "/")
		id, ok := ids[name]
		switch {
		case !ok:
			return t
		case slash:
			return id + "/" + rest
		}
		return id
	case []any:
		for i := range t {
			t[i] = substitute(t[i], ids)
		}
	case map[string]any:
		for k := range t {
			t[k] = substitute(t[k], ids)
		}
	}
	return v
}

// writeNew writes a file that does not exist yet (an existing one is the
// user's and is left alone).
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// demoPNG draws the demo image: a small bar chart on the board's dark
// background.
func demoPNG() []byte {
	const w, h = 320, 180
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := color.RGBA{0x14, 0x17, 0x1f, 0xff}
	bars := []color.RGBA{{0x60, 0xa5, 0xfa, 0xff}, {0xa8, 0x55, 0xf7, 0xff}, {0x34, 0xd3, 0x99, 0xff}, {0xfb, 0xbf, 0x24, 0xff}}
	heights := []int{90, 120, 105, 150}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, bg)
		}
	}
	for i, bh := range heights {
		x0 := 40 + i*65
		for y := h - 15 - bh; y < h-15; y++ {
			for x := x0; x < x0+45; x++ {
				img.Set(x, y, bars[i])
			}
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
