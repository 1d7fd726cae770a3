package pmxcanvas_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	_ "image/png"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/internal/browsertest"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

func TestCanvasWebview(t *testing.T) {
	browsertest.Require(t, &automation.Chromium{})
	ctx := context.Background()
	c, err := pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: t.TempDir(), SeedDockedWidgets: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)

	_, err = c.Evaluate(ctx, "1")
	var me *messages.Error
	if !errors.As(err, &me) || me.Code != messages.CodeWebviewInactive || me.Extra["webview"] == nil {
		t.Fatalf("evaluate before start: %v", err)
	}
	if _, err := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "From Go"}); err != nil {
		t.Fatal(err)
	}
	st, err := c.StartWebview(ctx, pmxcanvas.WebviewOptions{Width: 700, Height: 500})
	if err != nil || !st.Active || *st.Width != 700 {
		t.Fatalf("start: %+v %v", st, err)
	}
	if v, err := c.Evaluate(ctx, "document.title"); err != nil || string(v) != `"PMX Canvas"` {
		t.Fatalf("title %s %v", v, err)
	}
	if v, err := c.Evaluate(ctx, "undefined"); err != nil || v != nil {
		t.Fatalf("undefined %s %v", v, err)
	}
	v, err := c.EvaluateScript(ctx, `for (let i = 0; i < 100; i++) { const t = document.querySelector(".canvas-node .node-title"); if (t) return t.textContent; await new Promise(r => setTimeout(r, 50)); } return null;`)
	if err != nil || string(v) != `"From Go"` {
		t.Fatalf("board %s %v", v, err)
	}
	if st, err := c.ResizeWebview(ctx, 640, 480); err != nil || *st.Height != 480 {
		t.Fatalf("resize %+v %v", st, err)
	}
	img, mime, err := c.Screenshot(ctx, "", nil)
	if err != nil || mime != "image/png" {
		t.Fatalf("screenshot %s %v", mime, err)
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(img)); err != nil || cfg.Width != 640 || cfg.Height != 480 {
		t.Fatalf("image %+v %v", cfg, err)
	}
	if stopped, err := c.StopWebview(ctx); err != nil || !stopped {
		t.Fatalf("stop %v %v", stopped, err)
	}
	if st, err := c.WebviewStatus(ctx); err != nil || st.Active {
		t.Fatalf("status after stop %+v %v", st, err)
	}
}

// Without HTTP there is no workbench to load.
func TestCanvasWebviewNeedsHTTP(t *testing.T) {
	ctx := context.Background()
	c, err := pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: t.TempDir(), NoHTTP: true,
		WebviewEngine: &automation.Chromium{Bin: "/bin/true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	_, err = c.StartWebview(ctx, pmxcanvas.WebviewOptions{})
	var me *messages.Error
	if !errors.As(err, &me) || me.Status != 503 || me.Message != "Canvas server is not running." {
		t.Fatalf("start without HTTP: %v", err)
	}
}
