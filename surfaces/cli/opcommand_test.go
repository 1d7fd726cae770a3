package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// probeInput has one field of each kind the builder knows.
type probeInput struct {
	ID         string         `json:"id" doc:"The probe."`
	Title      *string        `json:"title" doc:"A title."`
	Count      *float64       `json:"count" doc:"How many."`
	Whole      *int           `json:"whole" doc:"A count."`
	On         *bool          `json:"on" doc:"A switch."`
	Style      *string        `json:"style" doc:"Stroke style." enum:"edgeStyles"`
	Data       map[string]any `json:"data" doc:"An object."`
	Tags       []string       `json:"tags" doc:"Some tags."`
	Any        any            `json:"any" doc:"Any JSON."`
	Loose      any            `json:"loose" doc:"A string the handler checks." type:"string"`
	FromSearch *string        `json:"fromSearch" doc:"Find it."`
	Hidden     *string        `json:"hidden" cli:"-"`
	Renamed    *string        `json:"renamed"`
	Source     string         `json:"source" enum:"sources"`
}

var probeOp = &messages.Op{
	Name: "probe.run", Summary: "Run the probe.",
	NewInput: func() any { return new(probeInput) },
	HTTP:     []messages.Route{{Method: "POST", Path: "/api/probe/:id"}},
	CLI:      &messages.CLIBinding{Flags: map[string]string{"renamed": "other-name"}},
}

// probe builds the probe command with ux, parses args and returns the
// input the command would send, or the error it would print.
func probe(t *testing.T, u *commandUX, args ...string) (string, error) {
	t.Helper()
	b := build(&ioStreams{}, probeOp, "probe run", u)
	b.cmd.SetGlobalNormalizationFunc(kebabFlags)
	if err := b.cmd.ParseFlags(args); err != nil {
		return "", flagError(b.cmd, err)
	}
	c := &opCall{cmd: b.cmd, op: probeOp.Name, args: b.cmd.Flags().Args(), in: map[string]any{}, b: b}
	if err := b.input(c); err != nil {
		return "", err
	}
	raw, _ := json.Marshal(c.in)
	return string(raw), nil
}

func TestBuilderInputIsTheFlagsGiven(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"p1"}, `{"id":"p1","source":"cli"}`},
		{[]string{"p1", "--title", "T"}, `{"id":"p1","source":"cli","title":"T"}`},
		{[]string{"p1", "--title", ""}, `{"id":"p1","source":"cli"}`}, // the reference ignores empty values
		{[]string{"p1", "--count", "-2.5"}, `{"count":-2.5,"id":"p1","source":"cli"}`},
		{[]string{"p1", "--whole", "3.7"}, `{"id":"p1","source":"cli","whole":3}`},
		{[]string{"p1", "--on"}, `{"id":"p1","on":true,"source":"cli"}`},
		{[]string{"p1", "--on=false"}, `{"id":"p1","on":false,"source":"cli"}`},
		{[]string{"p1", "--style", "wavy"}, `{"id":"p1","source":"cli","style":"wavy"}`}, // the operation judges it
		{[]string{"p1", "--data", `{"k":1}`}, `{"data":{"k":1},"id":"p1","source":"cli"}`},
		{[]string{"p1", "--tags", "a, b,"}, `{"id":"p1","source":"cli","tags":["a","b"]}`},
		{[]string{"p1", "--tags", `["x, y"]`}, `{"id":"p1","source":"cli","tags":["x, y"]}`},
		{[]string{"p1", "--any", "[1,2]"}, `{"any":[1,2],"id":"p1","source":"cli"}`},
		{[]string{"p1", "--any", `"text"`}, `{"any":"text","id":"p1","source":"cli"}`},
		{[]string{"p1", "--loose", "text"}, `{"id":"p1","loose":"text","source":"cli"}`},
		{[]string{"p1", "--from-search", "q"}, `{"fromSearch":"q","id":"p1","source":"cli"}`},
		{[]string{"p1", "--fromSearch", "q"}, `{"fromSearch":"q","id":"p1","source":"cli"}`},
		{[]string{"p1", "--other-name", "r"}, `{"id":"p1","renamed":"r","source":"cli"}`},
	}
	for _, c := range cases {
		got, err := probe(t, nil, c.args...)
		if err != nil || got != c.want {
			t.Errorf("%v: %s, %v; want %s", c.args, got, err, c.want)
		}
	}
}

func TestBuilderErrorsNameTheFlag(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, "Missing ID"},
		{[]string{"p1", "p2"}, "Unexpected argument: p2"},
		{[]string{"p1", "--count", "ten"}, "Invalid value for --count: ten"},
		{[]string{"p1", "--count", "NaN"}, "Invalid value for --count: NaN"},
		{[]string{"p1", "--data", "not json"}, "Invalid --data JSON: invalid character 'o' in literal null (expecting 'u')"},
		{[]string{"p1", "--any", "{"}, "Invalid --any JSON: unexpected end of JSON input"},
		{[]string{"p1", "--tags", "[1"}, "Invalid value for --tags: expected a JSON array or comma-separated values (unexpected end of JSON input)"},
		{[]string{"p1", "--hidden", "x"}, "unknown flag: --hidden"},
		{[]string{"p1", "--renamed", "x"}, "unknown flag: --renamed"},
		{[]string{"p1", "--source", "x"}, "unknown flag: --source"}, // the CLI is always source "cli"
	}
	for _, c := range cases {
		got, err := probe(t, nil, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: %s, %v; want error %q", c.args, got, err, c.want)
		}
	}
	if _, err := probe(t, nil, "p1", "--count", "x"); err.(*cliError).Hint != "Use a finite number" {
		t.Errorf("bad number hint: %q", err.(*cliError).Hint)
	}
}

func TestBuilderUX(t *testing.T) {
	u := &commandUX{
		hint: "probe it",
		args: []argUX{{name: "probe-id", flag: "id"}},
		flags: map[string]flagUX{
			"title": {required: true, also: []string{"name"}},
			"style": {strict: true},
			"on":    {word: true},
			"count": {positive: true, eg: "5", def: ""},
			"tags":  {each: true},
			"whole": {positive: true, integer: true},
			"data":  {def: "{}"},
		},
	}
	cases := []struct {
		args []string
		want string // input JSON, or "error: <message> | <hint>"
	}{
		{[]string{"p1", "--title", "T"}, `{"data":{},"id":"p1","source":"cli","title":"T"}`},
		{[]string{"--id", "p2", "--name", "T"}, `{"data":{},"id":"p2","source":"cli","title":"T"}`},
		{[]string{"--title", "T"}, "error: Missing probe ID | probe it"},
		{[]string{"p1"}, "error: Missing required flag: --title | probe it"},
		{[]string{"p1", "--title", "A", "--name", "B"}, "error: Use either --title/--name, not both. | --name is an alias of --title: keep one."},
		{[]string{"p1", "--title", "T", "--style", "wavy"}, "error: Invalid value for --style: wavy | probe it"},
		{[]string{"p1", "--title", "T", "--on", "false"}, `{"data":{},"id":"p1","on":false,"source":"cli","title":"T"}`},
		{[]string{"p1", "--title", "T", "--on", "maybe"}, "error: Invalid value for --on: maybe | Use --on true or --on false"},
		{[]string{"p1", "--title", "T", "--count", "0"}, "error: Invalid value for --count: 0 | Use a positive number, e.g. --count 5"},
		{[]string{"p1", "--title", "T", "--whole", "-1"}, "error: Invalid value for --whole: -1 | Use a positive integer"},
		{[]string{"p1", "--title", "T", "--tags", "a,b", "--tags", "c"}, `{"data":{},"id":"p1","source":"cli","tags":["a,b","c"],"title":"T"}`},
	}
	for _, c := range cases {
		got, err := probe(t, u, c.args...)
		if err != nil {
			hint := ""
			if ce, ok := err.(*cliError); ok {
				hint = ce.Hint
			}
			got = "error: " + err.Error() + " | " + hint
		}
		if got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}

func TestBuilderFlagsComeFromTheFields(t *testing.T) {
	b := build(&ioStreams{}, probeOp, "probe run", nil)
	if got := b.cmd.Use; got != "run <id>" {
		t.Errorf("use %q", got)
	}
	if got := b.cmd.Short; got != "Run the probe" {
		t.Errorf("short %q (the summary)", got)
	}
	if got := strings.TrimSpace(b.cmd.Example); got != "pmx-canvas probe run <id>" {
		t.Errorf("example %q", got)
	}
	for name, want := range map[string]string{
		"title": "string A title.", "count": "number How many.", "whole": "int A count.", "on": "bool A switch.",
		"style": "string Stroke style. One of: solid, dashed, dotted.", "data": "string An object.",
		"tags": "string Some tags.", "from-search": "string Find it. (also --fromSearch)", "other-name": "string",
	} {
		f := b.cmd.Flags().Lookup(name)
		if f == nil {
			t.Errorf("no --%s", name)
			continue
		}
		if got := strings.TrimSpace(f.Value.Type() + " " + f.Usage); got != want {
			t.Errorf("--%s: %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"id", "hidden", "source", "renamed"} {
		if b.cmd.Flags().Lookup(name) != nil {
			t.Errorf("--%s should not be a flag", name)
		}
	}
	if fn, ok := b.cmd.GetFlagCompletionFunc("style"); !ok || fn == nil {
		t.Error("an enum flag completes its values")
	}
}

func TestKindOf(t *testing.T) {
	for name, want := range map[string]flagKind{
		"id": kindString, "title": kindString, "count": kindNumber, "whole": kindNumber, "on": kindSwitch, "style": kindString,
		"data": kindJSON, "tags": kindList, "any": kindJSON, "loose": kindString,
	} {
		f, _ := probeOp.Field(name)
		if got := kindOf(f); got != want {
			t.Errorf("%s: kind %d, want %d", name, got, want)
		}
	}
}

// reachExtra are the arguments the hand-written parts of some commands need
// before they send anything (a confirmation, an input file, one of several
// sources); every other operation runs with its path, a value per
// positional argument and per required flag.
var reachExtra = map[string][]string{
	"node.update":        {"--title", "t"},
	"edge.add":           {"--from", "a", "--to", "b"},
	"canvas.clear":       {"--yes"},
	"snapshot.gc":        {"--yes"},
	"canvas.batch":       {"--json", "[]"},
	"canvas.import":      {"--file", "{doc}"},
	"webview.evaluate":   {"--expression", "1"},
	"webview.resize":     {"--width", "1", "--height", "1"},
	"webview.screenshot": {"--output", "{shot}"},
	"webartifact.build":  {"--app-tsx", "export default () => null"},
	"mcpapp.open":        {"--url", "http://127.0.0.1:1/mcp"},
	"diagram.open":       {"--kind", "excalidraw"},
}

// TestEveryOperationIsReachable runs each catalog operation's command and
// checks it calls the operation's route: adding an operation to the catalog
// puts it on the command line.
func TestEveryOperationIsReachable(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.canvas")
	if err := os.WriteFile(doc, []byte(`{"nodes":[],"edges":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, run := fakeServer(t, `{"ok":true}`)
	root := NewRoot(os.Stderr, os.Stderr)
	for _, op := range messages.Catalog {
		path, selector := op.CLIPath()
		cmd, _, err := root.Find(path)
		if err != nil || commandWords(cmd) != strings.Join(path, " ") {
			t.Errorf("%s: no command at %q", op.Name, strings.Join(path, " "))
			continue
		}
		args := append(append([]string(nil), path...), selector...)
		if len(selector) == 0 {
			if name := cmd.Annotations[opAnnotation]; name != op.Name {
				t.Errorf("%s: the command at %q runs %q", op.Name, strings.Join(path, " "), name)
			}
			fields, _ := op.CLIArgs()
			for range fields {
				args = append(args, "x1")
			}
			for field, fx := range uxOf[op.Name].flagsOrNil() {
				f, _ := op.Field(field)
				if fx.required {
					v := "x"
					if len(f.Enum) > 0 {
						v = f.Enum[0]
					}
					args = append(args, "--"+op.CLIFlag(f), v)
				}
			}
		}
		for _, a := range reachExtra[op.Name] {
			a = strings.NewReplacer("{doc}", doc, "{shot}", filepath.Join(dir, "shot.png")).Replace(a)
			args = append(args, a)
		}
		*got = nil
		_, errOut, _ := run(args...)
		route := op.HTTP[0]
		pattern := "^" + route.Method + " " + regexp.MustCompile(`:[a-zA-Z_]+`).ReplaceAllString(regexp.QuoteMeta(route.Path), `[^/?]+`) + `\?`
		if len(*got) != 1 || !regexp.MustCompile(pattern).MatchString((*got)[0]) {
			t.Errorf("%s: pmx-canvas %s sent %q, want one %s %s (stderr %s)", op.Name, strings.Join(args, " "), *got, route.Method, route.Path, errOut)
		}
	}
}

func (u *commandUX) flagsOrNil() map[string]flagUX {
	if u == nil {
		return nil
	}
	return u.flags
}

// TestEveryFieldHasAFlag checks no input field is dropped by the command
// line: each is a flag, a positional argument, the source, or hidden on
// purpose (cli:"-", or "-" in the binding).
func TestEveryFieldHasAFlag(t *testing.T) {
	root := NewRoot(os.Stderr, os.Stderr)
	for _, op := range messages.Catalog {
		path, selector := op.CLIPath()
		if len(selector) > 0 {
			continue
		}
		cmd, _, _ := root.Find(path)
		args, _ := op.CLIArgs()
		for _, f := range op.Fields() {
			flag := op.CLIFlag(f)
			if flag == "" || f.Name == "source" {
				continue
			}
			fl := cmd.Flags().Lookup(flag)
			if fl == nil || fl.Annotations[fieldAnnotation] == nil || fl.Annotations[fieldAnnotation][0] != f.Name {
				t.Errorf("%s: field %s has no flag --%s on %q (args %v)", op.Name, f.Name, flag, commandWords(cmd), args)
			}
		}
	}
}
