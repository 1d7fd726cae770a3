package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/automation"
	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/persistence"
)

// fakeEngine records every call the Webview actor makes, so tests assert
// the messages the browser gets, in order.
type fakeEngine struct {
	mu        sync.Mutex
	supported bool
	startErr  error
	log       []string
	sessions  int
	// hold, when set, makes evaluating "slow" wait for it (or for its
	// deadline).
	hold chan struct{}
	// wedged makes every call of its sessions block until released,
	// ignoring the deadline, and Close too: a browser that stopped
	// answering.
	wedged        chan struct{}
	wedgedSession int
	// busy counts sessions' steps in flight, to catch overlapping calls.
	busy    atomic.Int32
	overlap atomic.Bool
}

func (e *fakeEngine) record(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}

func (e *fakeEngine) calls() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.log)
}

func (e *fakeEngine) Supported() bool { return e.supported }

func (e *fakeEngine) Start(_ context.Context, url string, o automation.Options) (automation.Session, error) {
	e.record("start %s %dx%d bin=%q argv=%v dir=%q", url, o.Width, o.Height, o.ChromePath, o.ChromeArgv, o.DataStoreDir)
	if e.startErr != nil {
		return nil, e.startErr
	}
	e.mu.Lock()
	e.sessions++
	n := e.sessions
	e.mu.Unlock()
	return &fakeSession{e: e, n: n}, nil
}

type fakeSession struct {
	e *fakeEngine
	n int
}

func (s *fakeSession) enter() func() {
	if s.e.busy.Add(1) > 1 {
		s.e.overlap.Store(true)
	}
	return func() { s.e.busy.Add(-1) }
}

func (s *fakeSession) Evaluate(ctx context.Context, src string) (json.RawMessage, bool, error) {
	defer s.enter()()
	s.e.record("evaluate#%d %s", s.n, strings.ReplaceAll(src, "\n", " "))
	if w := s.wedged(); w != nil {
		<-w
		return nil, false, errors.New("target closed")
	}
	if s.e.hold != nil && strings.Contains(src, "slow") {
		select {
		case <-s.e.hold:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	switch {
	case strings.Contains(src, "throw"):
		return nil, false, &automation.ScriptError{Message: "Unexpected token 'throw'"}
	case strings.Contains(src, "undefined"):
		return nil, false, nil
	}
	return json.RawMessage(`"PMX Canvas"`), true, nil
}

func (s *fakeSession) Resize(_ context.Context, w, h int) error {
	defer s.enter()()
	s.e.record("resize#%d %dx%d", s.n, w, h)
	return nil
}

func (s *fakeSession) Screenshot(_ context.Context, format string, quality *int) ([]byte, error) {
	defer s.enter()()
	q := "nil"
	if quality != nil {
		q = fmt.Sprint(*quality)
	}
	s.e.record("screenshot#%d %s q=%s", s.n, format, q)
	return []byte("image:" + format), nil
}

func (s *fakeSession) Close() error {
	s.e.record("close#%d", s.n)
	if w := s.wedged(); w != nil {
		<-w
	}
	return nil
}

// wedged is the release channel when this session's browser is wedged.
func (s *fakeSession) wedged() chan struct{} {
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if s.n == s.e.wedgedSession {
		return s.e.wedged
	}
	return nil
}

func startWebview(t *testing.T, eng *fakeEngine, mut ...func(*WebviewConfig)) *harness {
	t.Helper()
	return start(t, "", func(c *Config, _ *persistence.Options) {
		c.Webview = WebviewConfig{Engine: eng, WorkbenchURL: "http://127.0.0.1:1/workbench", StepTimeout: 2 * time.Second}
		c.Webview.Workspace = t.TempDir()
		for _, m := range mut {
			m(&c.Webview)
		}
	})
}

func TestWebviewLifecycleMessages(t *testing.T) {
	eng := &fakeEngine{supported: true}
	var ws string
	h := startWebview(t, eng, func(c *WebviewConfig) { c.Token = "s3cret"; c.AllowRequestBrowser = true; ws = c.Workspace })

	st := h.mustCall("", "webview.status", `{}`)
	if st["active"] != false || st["supported"] != true || st["headlessOnly"] != true || st["url"] != nil {
		t.Fatalf("idle status %v", st)
	}
	started := h.mustCall("", "webview.start", `{"width":1024.7,"height":700,"chromeArgv":[" --disable-gpu ",""],"dataStoreDir":"profiles/a"}`)
	wv := started["webview"].(map[string]any)
	if wv["active"] != true || wv["width"] != 1024.0 || wv["height"] != 700.0 || wv["backend"] != "chrome" ||
		wv["url"] != "http://127.0.0.1:1/workbench" || wv["dataStoreDir"] != filepath.Join(ws, "profiles/a") || wv["startedAt"] == nil {
		t.Fatalf("started status %v", wv)
	}
	// The published status matches the reply; the token is never shown.
	if st := h.mustCall("", "webview.status", `{}`); st["active"] != true || strings.Contains(fmt.Sprint(st), "s3cret") {
		t.Fatalf("status after start %v", st)
	}
	if v := h.mustCall("", "webview.evaluate", `{"expression":"document.title;"}`); v["value"] != "PMX Canvas" {
		t.Fatalf("evaluate %v", v)
	}
	if v := h.mustCall("", "webview.evaluate", `{"script":"return undefined"}`); len(v) != 1 || v["ok"] != true {
		t.Fatalf("undefined result must have no value key: %v", v)
	}
	if r := h.mustCall("", "webview.resize", `{"width":800.9,"height":600}`); r["webview"].(map[string]any)["width"] != 800.0 {
		t.Fatalf("resize %v", r)
	}
	reply, err := h.sys.Invoke(context.Background(), &messages.Envelope{Op: "webview.screenshot", Input: json.RawMessage(`{"format":"jpeg","quality":70}`)})
	if err != nil {
		t.Fatal(err)
	}
	blob := reply.Body.(*messages.Blob)
	if blob.ContentType != "image/jpeg" || string(blob.Data) != "image:jpeg" {
		t.Fatalf("screenshot %+v", blob)
	}
	// Start again replaces the session: the old one closes first.
	h.mustCall("", "webview.start", `{}`)
	stopped := h.mustCall("", "webview.stop", `{}`)
	if stopped["stopped"] != true || stopped["webview"].(map[string]any)["active"] != false {
		t.Fatalf("stop %v", stopped)
	}
	if again := h.mustCall("", "webview.stop", `{}`); again["stopped"] != false {
		t.Fatalf("second stop %v", again)
	}
	want := []string{
		`start http://127.0.0.1:1/workbench?token=s3cret 1024x700 bin="" argv=[--disable-gpu] dir="` + filepath.Join(ws, "profiles/a") + `"`,
		`evaluate#1 ( document.title )`,
		`evaluate#1 (async () => { return undefined })()`,
		`resize#1 800x600`,
		`screenshot#1 jpeg q=70`,
		`close#1`,
		`start http://127.0.0.1:1/workbench?token=s3cret 1280x800 bin="" argv=[] dir=""`,
		`close#2`,
	}
	if got := eng.calls(); !slices.Equal(got, want) {
		t.Fatalf("engine calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWebviewErrors(t *testing.T) {
	eng := &fakeEngine{supported: true}
	h := startWebview(t, eng)
	cases := []struct {
		op, input string
		code      messages.Code
		msg       string
		webview   bool // the body carries the status
	}{
		{"webview.evaluate", `{"expression":"1"}`, messages.CodeWebviewInactive, "Canvas automation webview is not active. Start it before issuing automation commands.", true},
		{"webview.resize", `{"width":10,"height":10}`, messages.CodeWebviewInactive, "not active", true},
		{"webview.screenshot", `{}`, messages.CodeWebviewInactive, "not active", true},
		{"webview.evaluate", `{}`, messages.CodeBadRequest, `Pass exactly one of "expression"`, false},
		{"webview.evaluate", `{"expression":"1","script":"return 1"}`, messages.CodeBadRequest, "exactly one", false},
		{"webview.evaluate", `{"expression":"   "}`, messages.CodeBadRequest, "exactly one", false},
		{"webview.resize", `{"width":0,"height":10}`, messages.CodeInvalidInput, "Missing required positive numeric fields: width, height.", false},
		{"webview.resize", `{"width":"10","height":10}`, messages.CodeInvalidInput, `field "width" must be a number`, false},
		{"webview.screenshot", `{"format":"gif"}`, messages.CodeInvalidInput, `field "format" must be png, jpeg or webp`, false},
		{"webview.screenshot", `{"quality":101}`, messages.CodeInvalidInput, `field "quality"`, false},
		{"webview.start", `{"backend":"webkit"}`, messages.CodeInvalidInput, "webkit backend is not available", false},
		{"webview.start", `{"backend":"firefox"}`, messages.CodeInvalidInput, `field "backend" must be "chrome"`, false},
		{"webview.start", `{"chromePath":"./evil.sh"}`, messages.CodeInvalidInput, `field "chromePath" is server configuration, not a request field: start the server with --webview-chrome-path instead`, false},
		{"webview.start", `{"chromeArgv":["--renderer-cmd-prefix=/bin/sh"]}`, messages.CodeInvalidInput, `field "chromeArgv" is server configuration`, false},
		{"webview.start", `{"dataStoreDir":"profiles/a"}`, messages.CodeInvalidInput, `field "dataStoreDir" is server configuration`, false},
		{"webview.start", `{"width":"wide"}`, messages.CodeInvalidInput, `field "width" must be a number`, false},
		{"webview.start", `{"width":1e308}`, messages.CodeInvalidInput, `field "width" must be at most 16384 pixels`, false},
		{"webview.resize", `{"width":10,"height":20000}`, messages.CodeInvalidInput, `field "height" must be at most 16384 pixels`, false},
	}
	for _, tc := range cases {
		t.Run(tc.op+" "+tc.input, func(t *testing.T) {
			_, err := h.call("", tc.op, tc.input)
			if err == nil || err.Code != tc.code || !strings.Contains(err.Message, tc.msg) {
				t.Fatalf("got %v, want %s %q", err, tc.code, tc.msg)
			}
			if _, has := err.Extra["webview"]; has != tc.webview {
				t.Fatalf("webview in body = %v, want %v (%v)", has, tc.webview, err.Extra)
			}
		})
	}
	if calls := eng.calls(); len(calls) != 0 {
		t.Fatalf("refused calls reached the browser: %v", calls)
	}
}

// The browser binary, its switches and its profile are server
// configuration: every start uses them, a request may not name them unless
// the server allows it, and a profile may not leave the workspace, not even
// through a symbolic link.
func TestWebviewBrowserIsServerConfiguration(t *testing.T) {
	eng := &fakeEngine{supported: true}
	var ws string
	h := startWebview(t, eng, func(c *WebviewConfig) {
		ws = c.Workspace
		c.Browser = automation.Options{ChromePath: "/usr/bin/chromium", ChromeArgv: []string{"--disable-gpu"}, DataStoreDir: "profile"}
	})
	h.mustCall("", "webview.start", `{"width":900,"height":600,"chromePath":"  ","chromeArgv":[""],"dataStoreDir":""}`)
	want := `start http://127.0.0.1:1/workbench 900x600 bin="/usr/bin/chromium" argv=[--disable-gpu] dir="` + filepath.Join(ws, "profile") + `"`
	if got := eng.calls(); len(got) != 1 || got[0] != want {
		t.Fatalf("engine calls %q, want %q", got, want)
	}

	outside := t.TempDir()
	allowed := startWebview(t, &fakeEngine{supported: true}, func(c *WebviewConfig) {
		c.AllowRequestBrowser = true
		if err := os.Symlink(outside, filepath.Join(c.Workspace, "link")); err != nil {
			t.Fatal(err)
		}
	})
	for _, dir := range []string{"../elsewhere", "/opt/elsewhere", "link", "link/profile", "link/../link/x"} {
		_, err := allowed.call("", "webview.start", `{"dataStoreDir":"`+dir+`"}`)
		if err == nil || err.Code != messages.CodeInvalidInput || !strings.Contains(err.Message, "resolves outside workspace") || err.Extra["field"] != "dataStoreDir" {
			t.Fatalf("dataStoreDir %q: %v", dir, err)
		}
	}
	allowed.mustCall("", "webview.start", `{"chromePath":"/opt/chrome","dataStoreDir":"inside/new"}`)

	escaping := startWebview(t, &fakeEngine{supported: true}, func(c *WebviewConfig) { c.Browser.DataStoreDir = outside })
	if _, err := escaping.call("", "webview.start", `{}`); err == nil || !strings.Contains(err.Message, "resolves outside workspace") {
		t.Fatalf("a configured profile outside the workspace: %v", err)
	}
}

func TestWebviewStartFailureKeepsLastError(t *testing.T) {
	eng := &fakeEngine{supported: true, startErr: errors.New("browser did not start: Chrome process closed the pipe")}
	h := startWebview(t, eng)
	_, err := h.call("", "webview.start", `{}`)
	if err == nil || err.Code != messages.CodeWebviewStartFailed || err.Status != 500 {
		t.Fatalf("start error %v", err)
	}
	if st := h.mustCall("", "webview.status", `{}`); st["lastError"] != err.Message || st["active"] != false {
		t.Fatalf("status after failed start %v", st)
	}
	// lastError survives a stop and clears on a successful start.
	h.mustCall("", "webview.stop", `{}`)
	if st := h.mustCall("", "webview.status", `{}`); st["lastError"] != err.Message {
		t.Fatalf("lastError lost on stop: %v", st)
	}
	eng.startErr = nil
	h.mustCall("", "webview.start", `{}`)
	if st := h.mustCall("", "webview.status", `{}`); st["lastError"] != nil {
		t.Fatalf("lastError not cleared: %v", st)
	}
}

func TestWebviewUnsupportedAndNoServer(t *testing.T) {
	h := startWebview(t, &fakeEngine{supported: false})
	_, err := h.call("", "webview.start", `{}`)
	if err == nil || err.Code != messages.CodeWebviewUnsupported || err.Status != 501 {
		t.Fatalf("unsupported start: %v", err)
	}
	if st := h.mustCall("", "webview.status", `{}`); st["supported"] != false || st["lastError"] == nil {
		t.Fatalf("status %v", st)
	}

	h2 := startWebview(t, &fakeEngine{supported: true}, func(c *WebviewConfig) { c.WorkbenchURL = "" })
	if _, err := h2.call("", "webview.start", `{}`); err == nil || err.Status != 503 || err.Message != "Canvas server is not running." {
		t.Fatalf("start without HTTP: %v", err)
	}
}

// Steps run one at a time in arrival order, a slow step times out with the
// reference's message, and the status read never queues behind a step.
func TestWebviewStepsAreSerialisedAndTimed(t *testing.T) {
	eng := &fakeEngine{supported: true}
	h := startWebview(t, eng, func(c *WebviewConfig) { c.StepTimeout = 300 * time.Millisecond })
	h.mustCall("", "webview.start", `{}`)

	eng.hold = make(chan struct{})
	done := make(chan *messages.Error, 1)
	go func() {
		_, err := h.call("", "webview.evaluate", `{"expression":"slow"}`)
		done <- err
	}()
	for len(eng.calls()) < 2 { // start, then the slow evaluate has begun
		time.Sleep(time.Millisecond)
	}
	if st := h.mustCall("", "webview.status", `{}`); st["active"] != true {
		t.Fatalf("status while a step runs: %v", st)
	}
	err := <-done
	if err == nil || err.Code != messages.CodeWebviewFailed ||
		err.Message != "Timed out after 300ms while evaluating JavaScript in the workbench automation webview." {
		t.Fatalf("slow step: %v", err)
	}
	eng.hold = nil

	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op, in := "webview.evaluate", `{"expression":"1"}`
			if i%2 == 1 {
				op, in = "webview.resize", `{"width":100,"height":100}`
			}
			h.mustCall("", op, in)
		}()
	}
	wg.Wait()
	if eng.overlap.Load() {
		t.Fatal("two browser steps ran at once")
	}
	// The slow step was followed by a probe, which the browser answered:
	// it was kept.
	if got := eng.calls()[:3]; got[1] != "evaluate#1 ( slow )" || got[2] != "evaluate#1 1" {
		t.Fatalf("slow step and probe: %q", got)
	}
	if n := len(eng.calls()); n != 3+16 {
		t.Fatalf("%d engine calls, want 19", n)
	}
}

// A browser that stops answering (its steps ignore their deadline, its
// close hangs) is killed and replaced by a new one with the same options:
// the failing step says so, and the next steps run at once on the new
// browser instead of queueing behind the dead one.
func TestWebviewWedgedBrowserIsReplaced(t *testing.T) {
	eng := &fakeEngine{supported: true}
	h := startWebview(t, eng, func(c *WebviewConfig) { c.StepTimeout = 200 * time.Millisecond })
	h.mustCall("", "webview.start", `{"width":900,"height":700}`)
	release := make(chan struct{})
	defer close(release)
	eng.mu.Lock()
	eng.wedged, eng.wedgedSession = release, 1
	eng.mu.Unlock()

	_, err := h.call("", "webview.evaluate", `{"expression":"document.title"}`)
	want := "Timed out after 200ms while evaluating JavaScript in the workbench automation webview. The browser stopped answering; it was killed and a new one started."
	if err == nil || err.Code != messages.CodeWebviewFailed || err.Message != want {
		t.Fatalf("wedged step: %v", err)
	}
	st := h.mustCall("", "webview.status", `{}`)
	if st["active"] != true || st["lastError"] != "The browser stopped answering; it was killed and a new one started." || st["width"] != 900.0 {
		t.Fatalf("status after the replacement: %v", st)
	}
	if v := h.mustCall("", "webview.evaluate", `{"expression":"document.title"}`); v["value"] != "PMX Canvas" {
		t.Fatalf("step on the new browser: %v", v)
	}
	h.mustCall("", "webview.stop", `{}`)
	// The wedged browser is closed in the background (its close hangs
	// until released), so wait for that call to be made.
	var calls []string
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if calls = eng.calls(); slices.Contains(calls, "close#1") {
			break
		}
	}
	for _, want := range []string{"start http://127.0.0.1:1/workbench 900x700", "evaluate#1 ( document.title )", "close#1", "start http://127.0.0.1:1/workbench 900x700", "evaluate#2 ( document.title )", "close#2"} {
		found := false
		for _, c := range calls {
			if strings.HasPrefix(c, want) {
				found = true
			}
		}
		if !found {
			t.Fatalf("engine calls %q lack %q", calls, want)
		}
	}
}

func TestWebviewPerCanvasAndClosedOnShutdown(t *testing.T) {
	eng := &fakeEngine{supported: true}
	h := startWebview(t, eng)
	h.mustCall("", "webview.start", `{}`)
	st := h.mustCall("review", "webview.start", `{}`)["webview"].(map[string]any)
	if st["url"] != "http://127.0.0.1:1/workbench?canvas=review" {
		t.Fatalf("second canvas url %v", st["url"])
	}
	if h.mustCall("other", "webview.status", `{}`)["active"] != false {
		t.Fatal("a third canvas shows an active webview")
	}
	h.stop()
	closes := 0
	for _, c := range eng.calls() {
		if strings.HasPrefix(c, "close#") {
			closes++
		}
	}
	if closes != 2 {
		t.Fatalf("shutdown closed %d sessions, want 2: %v", closes, eng.calls())
	}
}

// Whatever input a webview operation gets, the answer is a reply or a 4xx
// (the browser is a fake that always works), and the status stays
// consistent: active exactly when a session is open.
func FuzzWebviewOperations(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"width":1e308,"height":-0}`, `{"width":0.5,"height":1.5}`, `{"backend":"chrome","chromeArgv":[""," "]}`,
		`{"dataStoreDir":"a/../../b"}`, `{"dataStoreDir":"./"}`, `{"expression":"1","script":""}`, `{"script":"  "}`,
		`{"format":"JPEG","quality":100.4}`, `{"format":"","quality":-1}`, `{"chromeArgv":"x"}`, `{"width":null}`,
	} {
		f.Add(seed)
	}
	store, err := persistence.Open(f.TempDir(), persistence.Options{Logger: quiet(), NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	eng := &fakeEngine{supported: true}
	sys, err := Start(Config{Store: store, Logger: quiet(), Webview: WebviewConfig{Engine: eng, WorkbenchURL: "http://127.0.0.1:1/workbench", Workspace: f.TempDir()}})
	if err != nil {
		f.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	f.Fuzz(func(t *testing.T, raw string) {
		for _, op := range messages.Catalog {
			if op.Owner != messages.OwnerWebview {
				continue
			}
			reply, err := sys.Invoke(context.Background(), &messages.Envelope{Op: op.Name, Source: "api", Input: json.RawMessage(raw)})
			if e := messages.AsError(err); e != nil && e.Status >= 500 {
				t.Fatalf("%s %s: %d %s", op.Name, raw, e.Status, e.Message)
			}
			if op.Name == "webview.start" && err == nil {
				st := reply.Body.(map[string]any)["webview"].(messages.WebviewStatus)
				if !st.Active || *st.Width < 1 || *st.Height < 1 {
					t.Fatalf("start %s gave status %+v", raw, st)
				}
			}
		}
		st, _ := sys.Invoke(context.Background(), &messages.Envelope{Op: "webview.status"})
		if st.Body.(messages.WebviewStatus).Active {
			t.Fatalf("after stop the status is active")
		}
	})
}
