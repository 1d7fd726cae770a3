// Package parity holds the cross-surface property test of issue 13: every
// catalog operation, given bad input, answers the same way over HTTP, MCP
// and the Go package (one decoder, one validation, one text per field).
package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
	"github.com/pmxcanvas/pmx-canvas/surfaces/cli"
	mcpapi "github.com/pmxcanvas/pmx-canvas/surfaces/mcp"
)

// badCase is one bad input for an operation.
type badCase struct {
	what  string
	input map[string]any
	field string // the field the case is about ("" for the whole input)
	// mustFail: the declaration alone says the input is refused (a wrong
	// type for a typed field, a bound, a decoder-checked required field).
	mustFail bool
}

// badInputs derives bad inputs from the operation's declared fields: a
// missing required field, a value of the wrong JSON type, an unknown enum
// value, a number out of its bounds.
func badInputs(op *messages.Op) []badCase {
	var out []badCase
	for _, f := range op.Fields() {
		if f.Required {
			out = append(out, badCase{"missing " + f.Name, map[string]any{}, f.Name, !f.HandlerChecks})
		}
		if v, ok := wrongType(f); ok {
			out = append(out, badCase{"wrong type " + f.Name, map[string]any{f.Name: v}, f.Name, true})
		}
		if len(f.Enum) > 0 && scalarString(f.Type) {
			// Some enums fall back instead (an unknown source label is the
			// surface's own), so only agreement is checked.
			out = append(out, badCase{"unknown enum " + f.Name, map[string]any{f.Name: "no-such-value"}, f.Name, false})
		}
		if f.Min != nil {
			out = append(out, badCase{"below min " + f.Name, map[string]any{f.Name: *f.Min - 1}, f.Name, true})
		}
		if f.Max != nil {
			out = append(out, badCase{"above max " + f.Name, map[string]any{f.Name: *f.Max + 1}, f.Name, true})
		}
	}
	return out
}

// wrongType is a value of another JSON type than the field's Go type
// decodes (none for untyped fields, which the domain checks itself).
func wrongType(f messages.Field) (any, bool) {
	t := f.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && strings.HasPrefix(t.Name(), "Opt[") {
		v, _ := t.FieldByName("Value")
		t = v.Type
	}
	switch t.Kind() {
	case reflect.String:
		return 12345, true
	case reflect.Float64, reflect.Int:
		return "ten", true
	case reflect.Bool:
		return "yes", true
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage
			return nil, false
		}
		return "not-a-list", true
	case reflect.Map:
		return "not-an-object", true
	}
	return nil, false
}

// withRequired fills the other required fields with a plausible value of
// their type, so a case is about its own field on every surface (a surface
// checks presence before types).
func withRequired(op *messages.Op, bc badCase) {
	for _, f := range op.Fields() {
		if !f.Required || f.Name == bc.field {
			continue
		}
		t := f.Type
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			bc.input[f.Name] = []any{}
		case reflect.Map:
			bc.input[f.Name] = map[string]any{}
		case reflect.Float64, reflect.Int:
			bc.input[f.Name] = 1
		case reflect.Bool:
			bc.input[f.Name] = false
		default:
			bc.input[f.Name] = "nope"
		}
	}
}

func fieldType(op *messages.Op, name string) reflect.Type {
	f, _ := op.Field(name)
	return f.Type
}

func scalarString(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.String
}

// answer is one surface's outcome: ok, or the error status class and text.
type answer struct {
	ok    bool
	class int // status / 100
	text  string
	// body marks a refusal the operation answers as a body ({ok:false,
	// …}: an interaction's refusal, a missing gate's read), which the MCP
	// tools return as a normal result, as the reference's do.
	body bool
}

func (a answer) String() string {
	if a.ok {
		return "ok"
	}
	return fmt.Sprintf("%dxx %q", a.class, a.text)
}

// skipped operations: the browser session (its start needs a browser) and
// operations whose input is a whole document the domain parses itself.
var skipped = map[string]bool{"webview.start": true, "webview.screenshot": true}

// startServer runs a server with HTTP on a loopback port, closed with the test.
func startServer(t *testing.T) *pmxcanvas.Server {
	t.Helper()
	srv, err := pmxcanvas.Start(pmxcanvas.Options{Workspace: t.TempDir(), Host: "127.0.0.1", Port: 0,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	return srv
}

func TestBadInputGetsOneAnswerOnEverySurface(t *testing.T) {
	srv := startServer(t)
	base := "http://" + srv.Addr().String()
	reg, err := mcpapi.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	caller := &mcpapi.Caller{Registry: reg, Invoker: srv.Invoker(), DefaultCanvas: "main"}
	tools := map[string]*mcpapi.Tool{}
	for _, tl := range reg.Tools(false) {
		if tl.Op != "" && tools[tl.Op] == nil && len(tl.Actions) == 0 {
			tools[tl.Op] = tl
		}
	}

	cases, cliCases := 0, 0
	root := cli.NewRoot(io.Discard, io.Discard)
	for _, op := range messages.Catalog {
		if skipped[op.Name] || len(op.HTTP) == 0 {
			continue
		}
		route := op.HTTP[0]
		query := route.Method == "GET" || (route.Method == "DELETE" && !op.DeleteReadsBody)
		for _, bc := range badInputs(op) {
			if bc.input[bc.field] != nil && (pathParam(route.Path, bc.field) || query && scalarString(fieldType(op, bc.field))) {
				continue // a path segment or query value is always a string
			}
			withRequired(op, bc)
			name := op.Name + "/" + bc.what
			goAns := viaGo(srv, op, bc.input)
			if goAns.ok && bc.mustFail {
				t.Errorf("%s: accepted; the field declares this refused", name)
			}
			httpAns := viaHTTP(t, base, op, route, bc.input)
			// An empty last segment is the parent path (/snapshots/ is
			// /snapshots, as in the reference's router): not comparable.
			trailing := strings.HasSuffix(route.Path, "/:"+bc.field) && bc.input[bc.field] == nil
			if (goAns.ok != httpAns.ok || goAns.class != httpAns.class || goAns.text != httpAns.text) && !trailing {
				t.Errorf("%s: Go package %v, HTTP %v", name, goAns, httpAns)
			}
			if cliAns, ran := viaCLI(root, base, op, bc); ran && !goAns.body {
				cliCases++
				// The CLI refuses a value it cannot take in the flag itself,
				// naming the flag (the reference CLI's words).
				ownFlag := !goAns.ok && strings.HasPrefix(cliAns.text, "Invalid value for --"+messages.Kebab(bc.field)+":")
				if !ownFlag && (cliAns.ok != goAns.ok || (!goAns.ok && cliAns.text != goAns.text)) {
					t.Errorf("%s: CLI %v, Go package %v", name, cliAns, goAns)
				}
			}
			if tl := tools[op.Name]; tl != nil && mcpVisible(tl, bc.input) {
				mcpAns := viaMCP(caller, tl, bc.input)
				if goAns.body {
					if !strings.Contains(mcpAns.text, `"ok":false`) || !strings.Contains(mcpAns.text, jsonText(goAns.text)) {
						t.Errorf("%s: MCP %s %q, want the refusal {ok:false, %q}", name, tl.Name, mcpAns.text, goAns.text)
					}
				} else if mcpAns.ok != goAns.ok || (!goAns.ok && mcpAns.text != goAns.text) {
					t.Errorf("%s: MCP %s %v, Go package %v", name, tl.Name, mcpAns, goAns)
				}
			}
			cases++
		}
	}
	if cases < 100 {
		t.Fatalf("only %d cases ran; the generator lost its inputs", cases)
	}
	if cliCases < 20 {
		t.Fatalf("only %d cases ran through the CLI", cliCases)
	}
	t.Logf("%d bad inputs, each the same on every surface (%d of them through the CLI too)", cases, cliCases)
}

func viaGo(srv *pmxcanvas.Server, op *messages.Op, input map[string]any) answer {
	raw, _ := json.Marshal(input)
	reply, err := srv.Invoker().Invoke(context.Background(), &messages.Envelope{Op: op.Name, Source: "sdk", Input: raw})
	var me *messages.Error
	if errors.As(err, &me) {
		return answer{class: me.Status / 100, text: me.Message}
	}
	if err != nil {
		return answer{class: 5, text: err.Error()}
	}
	if code := reply.StatusCode(); code >= 400 {
		// A refusal answered as a body (an interaction's {ok:false}, a
		// missing gate's read): the HTTP status it renders.
		body, _ := json.Marshal(reply.Body)
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		return answer{class: code / 100, text: e.Error, body: true}
	}
	return answer{ok: true}
}

func viaHTTP(t *testing.T, base string, op *messages.Op, r messages.Route, input map[string]any) answer {
	path := r.Path
	rest := map[string]any{}
	for k, v := range input {
		if pathParam(path, k) {
			path = strings.Replace(path, ":"+k, url.PathEscape(fmt.Sprint(v)), 1)
			continue
		}
		rest[k] = v
	}
	// Path parameters the case leaves out stay empty (the missing-id case).
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, ":") {
			path = strings.Replace(path, seg, "", 1)
		}
	}
	var body io.Reader
	if r.Method == "GET" || (r.Method == "DELETE" && !op.DeleteReadsBody) {
		q := url.Values{}
		for k, v := range rest {
			if s, ok := v.(string); ok {
				q.Set(k, s)
			} else {
				b, _ := json.Marshal(v)
				q.Set(k, string(b))
			}
		}
		if len(q) > 0 {
			path += "?" + q.Encode()
		}
	} else {
		b, _ := json.Marshal(rest)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(r.Method, base+path, body)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode < 400 {
		return answer{ok: true}
	}
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return answer{class: res.StatusCode / 100, text: e.Error}
}

func viaMCP(c *mcpapi.Caller, tl *mcpapi.Tool, input map[string]any) answer {
	r := c.Call(context.Background(), tl.Name, mcpapi.Args(input))
	if r.IsError {
		return answer{class: 4, text: r.Text}
	}
	return answer{ok: true, text: r.Text}
}

// mcpVisible reports whether the tool advertises every field of the input.
func mcpVisible(tl *mcpapi.Tool, input map[string]any) bool {
	for k := range input {
		found := false
		for _, f := range tl.Fields {
			if f.Name == k {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func pathParam(path, field string) bool {
	return field != "" && strings.Contains(path+"/", "/:"+field+"/")
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// viaCLI runs a case through the operation's CLI command when the case is
// one the command line can carry to the server: an unknown enum value or
// a number out of bounds, in a flag (a wrong JSON type cannot be typed
// into a flag: the CLI refuses the text itself, naming the flag; missing
// arguments get the reference CLI's own usage messages). ran is false for
// the others.
func viaCLI(root *cobra.Command, base string, op *messages.Op, bc badCase) (answer, bool) {
	if !strings.HasPrefix(bc.what, "unknown enum") && !strings.HasPrefix(bc.what, "below min") && !strings.HasPrefix(bc.what, "above max") {
		return answer{}, false
	}
	if cliChecksFirst[op.Name] {
		return answer{}, false
	}
	path, selector := op.CLIPath()
	if len(selector) > 0 {
		return answer{}, false
	}
	cmd, _, err := root.Find(path)
	if err != nil {
		return answer{}, false
	}
	args := append([]string(nil), path...)
	positional, _ := op.CLIArgs()
	for _, name := range positional {
		v, ok := bc.input[name]
		if list, isList := v.([]any); !ok || name == bc.field || isList && len(list) == 0 {
			return answer{}, false
		}
		args = append(args, fmt.Sprint(v))
	}
	for name, v := range bc.input {
		if slices.Contains(positional, name) {
			continue
		}
		f, ok := op.Field(name)
		flag := op.CLIFlag(f)
		if !ok || flag == "" || flag == "-" || cmd.Flags().Lookup(flag) == nil {
			return answer{}, false // not offered (source is always cli)
		}
		text := fmt.Sprint(v)
		if _, isStr := v.(string); !isStr {
			b, _ := json.Marshal(v)
			text = string(b)
		}
		args = append(args, "--"+flag+"="+text)
	}
	args = append(args, "--server-url", base)
	var out, errOut bytes.Buffer
	if cli.Execute(args, &out, &errOut) == 0 {
		return answer{ok: true}, true
	}
	var e struct {
		Error string `json:"error"`
	}
	// The error is the last line; progress lines (web-artifact build) come first.
	lines := bytes.Split(bytes.TrimSpace(errOut.Bytes()), []byte("\n"))
	if json.Unmarshal(lines[len(lines)-1], &e) != nil {
		e.Error = strings.TrimSpace(errOut.String())
	}
	return answer{class: 4, text: e.Error}, true
}

// cliChecksFirst are commands whose reference usage check runs before the
// request (edge add wants --from or --from-search: "Missing source
// selector"; external-app add wants --kind excalidraw).
var cliChecksFirst = map[string]bool{"edge.add": true, "diagram.open": true}
