package automation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/proto"
)

// Chromium is the real Engine: Debian's chromium (or any Chrome) driven over
// the DevTools protocol with go-rod. It never downloads a browser.
type Chromium struct {
	// Bin is the default browser binary. Empty means $PMX_CANVAS_CHROME_PATH
	// when set (and then only that), else the first of go-rod's usual
	// names found (chromium, google-chrome, ...).
	Bin string
}

// Supported reports whether a browser binary can be resolved.
func (c *Chromium) Supported() bool {
	_, ok := c.bin("")
	return ok
}

// bin resolves the browser binary: the start option, then Bin, then the
// environment, then go-rod's search. An explicit path must exist.
func (c *Chromium) bin(override string) (string, bool) {
	for _, p := range []string{override, c.Bin, os.Getenv("PMX_CANVAS_CHROME_PATH")} {
		if p != "" {
			found, err := exec.LookPath(p)
			return found, err == nil
		}
	}
	return launcher.LookPath()
}

// Start launches a headless browser, sets the viewport to exactly the
// requested size (the reference's Chrome backend sized the window instead,
// leaving the viewport ~87 px short), and loads url.
func (c *Chromium) Start(ctx context.Context, url string, opts Options) (Session, error) {
	s, err := c.open(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// OpenPage is Start for browser tests that drive the page with real mouse
// and keyboard input: it returns the go-rod page and the function that
// ends the browser.
func (c *Chromium) OpenPage(ctx context.Context, url string, opts Options) (*rod.Page, func() error, error) {
	s, err := c.open(ctx, url, opts)
	if err != nil {
		return nil, nil, err
	}
	return s.page, s.Close, nil
}

func (c *Chromium) open(ctx context.Context, url string, opts Options) (*rodSession, error) {
	bin, ok := c.bin(opts.ChromePath)
	if !ok {
		return nil, ErrNoBrowser
	}
	// go-rod's leakless guard kills the browser if this process dies
	// (kill -9). It runs a small helper from the temp directory; where that
	// cannot run, the browser starts without the guard (any other launch
	// failure is reported as it is, not retried).
	l, controlURL, err := launch(ctx, bin, opts, true)
	if err != nil && ctx.Err() == nil && strings.Contains(err.Error(), "leakless") {
		l, controlURL, err = launch(ctx, bin, opts, false)
	}
	if err != nil {
		return nil, launchError(err)
	}
	s := &rodSession{launcher: l, keepProfile: opts.DataStoreDir != ""}
	s.browser = rod.New().ControlURL(controlURL).NoDefaultDevice()
	if err := s.browser.Connect(); err != nil {
		s.Close()
		return nil, launchError(err)
	}
	page, err := s.browser.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		s.Close()
		return nil, launchError(err)
	}
	s.page = page
	if err := s.Resize(ctx, opts.Width, opts.Height); err != nil {
		s.Close()
		return nil, err
	}
	p := page.Context(ctx)
	if err := p.Navigate(url); err != nil {
		s.Close()
		return nil, stepError(ctx, err)
	}
	if err := p.WaitLoad(); err != nil {
		s.Close()
		return nil, stepError(ctx, err)
	}
	return s, nil
}

// launch starts the browser process and returns its DevTools URL.
func launch(ctx context.Context, bin string, opts Options, guarded bool) (l *launcher.Launcher, controlURL string, err error) {
	l = launcher.New().Context(ctx).Bin(bin).Headless(true).Leakless(guarded).
		// A root process (a container) cannot use Chromium's sandbox; the
		// reference failed with "Chrome process closed the pipe" there.
		NoSandbox(os.Geteuid() == 0).
		Set("window-size", fmt.Sprintf("%d,%d", opts.Width, opts.Height)).
		Set("hide-scrollbars").Set("mute-audio")
	if opts.DataStoreDir != "" {
		l = l.UserDataDir(opts.DataStoreDir)
	}
	for _, arg := range opts.ChromeArgv {
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name == "" {
			continue
		}
		if hasValue {
			l = l.Set(flags.Flag(name), value)
		} else {
			l = l.Set(flags.Flag(name))
		}
	}
	defer func() {
		// The guard's installer panics when it cannot write its helper.
		if r := recover(); r != nil {
			err = fmt.Errorf("leakless guard: %v", r)
		}
		if err != nil {
			l.Kill()
		}
	}()
	controlURL, err = l.Launch()
	return l, controlURL, err
}

// launchError keeps the cause's text: it is what a user needs to fix the
// setup (a missing library, a sandbox refusal).
func launchError(err error) error {
	return fmt.Errorf("browser did not start: %w", err)
}

// stepError reports a context end as such, so the caller can word it as a
// timeout, and anything else as it is.
func stepError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

type rodSession struct {
	launcher    *launcher.Launcher
	browser     *rod.Browser
	page        *rod.Page
	keepProfile bool
	closeOnce   sync.Once
}

func (s *rodSession) Evaluate(ctx context.Context, expression string) (json.RawMessage, bool, error) {
	res, err := proto.RuntimeEvaluate{
		Expression:    expression,
		AwaitPromise:  true,
		ReturnByValue: true,
		UserGesture:   true,
	}.Call(s.page.Context(ctx))
	if err != nil {
		return nil, false, stepError(ctx, err)
	}
	if ex := res.ExceptionDetails; ex != nil {
		desc := ""
		if ex.Exception != nil {
			desc = ex.Exception.Description
			if desc == "" && ex.Exception.Value.Nil() == false {
				desc = ex.Exception.Value.String()
			}
		}
		return nil, false, &ScriptError{Message: exceptionMessage(desc, ex.Text)}
	}
	r := res.Result
	if r == nil || r.Type == proto.RuntimeRemoteObjectTypeUndefined || r.UnserializableValue != "" {
		return nil, false, nil
	}
	raw, err := json.Marshal(r.Value)
	if err != nil {
		return nil, false, err
	}
	if len(raw) == 0 {
		return nil, false, nil
	}
	return raw, true, nil
}

func (s *rodSession) Resize(ctx context.Context, width, height int) error {
	err := proto.EmulationSetDeviceMetricsOverride{
		Width: width, Height: height, DeviceScaleFactor: 1,
	}.Call(s.page.Context(ctx))
	return stepError(ctx, err)
}

func (s *rodSession) Screenshot(ctx context.Context, format string, quality *int) ([]byte, error) {
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormat(format)}
	if quality != nil && format != "png" {
		req.Quality = quality
	}
	res, err := req.Call(s.page.Context(ctx))
	if err != nil {
		return nil, stepError(ctx, err)
	}
	return res.Data, nil
}

// Close ends the browser process; a temporary profile is removed.
func (s *rodSession) Close() error {
	var err error
	s.closeOnce.Do(func() {
		if s.browser != nil {
			// A wedged browser does not answer Browser.close: the kill
			// below ends it either way.
			err = s.browser.Timeout(2 * time.Second).Close()
		}
		s.launcher.Kill()
		if !s.keepProfile {
			s.launcher.Cleanup()
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			err = nil
		}
	})
	return err
}
