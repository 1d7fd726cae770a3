package cli

// The agent commands: every command of the reference's agent CLI
// (reference cli.md §7) as a cobra tree. Each catalog operation's command is
// built from the catalog (opcommand.go) and runs it through the remote
// invoker, so the JSON is the HTTP route's; the groups below carry the
// reference's help, and a few commands that read the layout (status,
// node list, edge list) or do not run an operation (open, copilot
// install-extension) are written by hand.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

func init() {
	commandAdders = append(commandAdders, addAgentCommands)
}

// addAgentCommands registers the agent commands on the root: the groups
// with the reference's help, the hand-written commands, then every catalog
// operation's command; each top-level command takes the client flags.
func addAgentCommands(root *cobra.Command, s *ioStreams) {
	agents := &cobra.Command{Use: "agents"}
	for _, g := range agentGroups {
		i := strings.LastIndex(g.path, " ")
		under(agents, g.path[:max(i, 0)], newGroup(g.path[i+1:], g.short, examples(g.example...)))
	}
	for _, add := range handCommands {
		add(agents, s)
	}
	addOpCommands(agents, s)
	for _, g := range agents.Commands() {
		agents.RemoveCommand(g)
		addClientFlags(g)
		g.SetFlagErrorFunc(flagError)
		g.SetGlobalNormalizationFunc(kebabFlags)
		root.AddCommand(g)
	}
	fixRoot(root)
}

// handCommands add the commands that are not one operation's (status,
// node list, ...) to the agent tree; each file appends its own.
var handCommands []func(agents *cobra.Command, s *ioStreams)

// under adds cmd below the group at path ("" is the top level).
func under(agents *cobra.Command, path string, cmd *cobra.Command) {
	parent := agents
	for _, w := range strings.Fields(path) {
		parent = childNamed(parent, w)
	}
	parent.AddCommand(cmd)
}

// agentGroups are the command groups with the reference's help, parents
// first; the builder fills them with the operations' commands.
var agentGroups = []struct {
	path, short string
	example     []string
}{
	{"node", "Add, list, read, update and remove nodes", []string{
		`pmx-canvas node add --type markdown --title "Design Doc" --content "# Overview"`,
		`pmx-canvas node list --type markdown --ids`,
		`pmx-canvas node get node-abc123 --summary`,
		`pmx-canvas node update node-abc123 --x -100 --y 40`,
		`pmx-canvas node remove node-abc123`,
	}},
	{"edge", "Add, list and remove edges", []string{"pmx-canvas edge add --from node-a --to node-b --type depends-on", "pmx-canvas edge list"}},
	{"group", "Create groups and change their members", []string{`pmx-canvas group create --title "API Layer" node1 node2`}},
	{"snapshot", "Save, list, diff, restore and delete snapshots", []string{"pmx-canvas snapshot save --name before-refactor", "pmx-canvas snapshot diff before-refactor"}},
	{"ax", "Agent experience: focus, work items, gates, timeline, steering, policy", []string{
		"pmx-canvas ax status",
		`pmx-canvas ax work add --title "Wire up auth" --status in-progress node-abc123`,
		`pmx-canvas ax approval request --title "Deploy to prod?"`,
		`pmx-canvas ax steer "focus on the tests first"`,
	}},
	{"ax event", "Timeline events", []string{`pmx-canvas ax event add --kind note --summary "Started"`}},
	{"ax delivery", "Steering delivery", []string{"pmx-canvas ax delivery list --consumer codex"}},
	{"ax elicitation", "Questions for the human", []string{`pmx-canvas ax elicitation request --prompt "Which database?"`}},
	{"ax mode", "Mode requests (plan, execute, autonomous)", []string{"pmx-canvas ax mode request --mode execute"}},
	{"ax command", "Allowlisted commands", []string{"pmx-canvas ax command list"}},
	{"ax policy", "The AX tool policy", []string{"pmx-canvas ax policy get"}},
	{"ax work", "Work items", []string{`pmx-canvas ax work add --title "Wire up auth"`}},
	{"ax approval", "Approval gates", []string{`pmx-canvas ax approval request --title "Deploy?"`}},
	{"ax evidence", "Evidence items", []string{`pmx-canvas ax evidence add --kind logs --title "Build log"`}},
	{"ax review", "Review annotations", []string{`pmx-canvas ax review add --body "..." --node node-abc123`}},
	{"ax host", "Agent host capability", []string{"pmx-canvas ax host report --host codex --tools"}},
	{"webview", "Headless automation webview", []string{"pmx-canvas webview status", "pmx-canvas webview start --width 1440 --height 900"}},
}

// fixRoot applies the reference quirk fixes that live on the root command:
// an unknown first word is an error (the reference started a server), and
// -v is not a version flag (the reference printed the version for -v
// anywhere in argv); the version is --version only.
func fixRoot(root *cobra.Command) {
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		hint := "Run: pmx-canvas --help"
		var names []string
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				names = append(names, c.Name())
			}
		}
		if s := closest(args[0], names); s != "" {
			hint = fmt.Sprintf("Did you mean: pmx-canvas %s? %s", s, hint)
		}
		return die(hint, "Unknown command: %s", args[0])
	}
	if root.Flags().Lookup("version") == nil {
		root.Flags().Bool("version", false, "print the version and exit")
	}
}

// ---- groups and their failures ----

// newGroup builds a command that only holds subcommands. Run without one,
// or with an unknown one, it fails with the reference's router messages
// (cli.md §1 "Agent router") instead of printing help or starting anything.
func newGroup(use, short, example string, subs ...*cobra.Command) *cobra.Command {
	g := &cobra.Command{
		Use:     use + " <subcommand>",
		Short:   short,
		Example: example,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return subcommandError(cmd, args)
		},
		Annotations: map[string]string{groupAnnotation: "true"},
	}
	g.AddCommand(subs...)
	return g
}

// groupAnnotation marks commands made by newGroup (they run only to fail).
const groupAnnotation = "pmx-canvas/group"

// subcommandAliases suggest the right word for a known wrong one (the
// reference refuses to guess for destructive commands).
var subcommandAliases = map[string]map[string]string{
	"node": {"delete": "remove", "rm": "remove"},
	"edge": {"delete": "remove", "rm": "remove"},
}

// subcommandHints add a pointer for words that belong elsewhere.
var subcommandHints = map[string]map[string]string{
	"node": {"pin": "Use the top-level pin command instead: pmx-canvas pin <node-id>"},
}

// subcommandError is the failure of a group run without a known subcommand:
// "Missing <word> subcommand." or "Unknown <word> subcommand: \"<x>\".",
// with a suggestion and the available subcommands as the hint.
func subcommandError(cmd *cobra.Command, args []string) error {
	word := commandWords(cmd)
	var avail []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			avail = append(avail, c.Name())
		}
	}
	sort.Strings(avail)
	var hints []string
	var msg string
	if len(args) == 0 {
		msg = fmt.Sprintf("Missing %s subcommand.", word)
		if len(avail) == 1 {
			hints = append(hints, fmt.Sprintf("Did you mean: pmx-canvas %s %s?", word, avail[0]))
		}
	} else {
		x := args[0]
		msg = fmt.Sprintf("Unknown %s subcommand: %q.", word, x)
		switch alias := subcommandAliases[word][x]; {
		case alias != "":
			hints = append(hints, fmt.Sprintf("Did you mean: pmx-canvas %s %s?", word, alias))
		case len(avail) == 1:
			hints = append(hints, fmt.Sprintf("Did you mean: pmx-canvas %s %s?", word, avail[0]))
		default:
			if s := closest(x, avail); s != "" {
				hints = append(hints, fmt.Sprintf("Did you mean: pmx-canvas %s %s?", word, s))
			}
		}
		if extra := subcommandHints[word][x]; extra != "" {
			hints = append(hints, extra)
		}
	}
	hints = append(hints, "Available subcommands: "+strings.Join(avail, ", "))
	return &cliError{Msg: msg, Hint: strings.Join(hints, " ")}
}

// closest returns the name nearest to a mistyped word (a prefix of it,
// or at most one edit per three letters away), or "".
func closest(word string, names []string) string {
	best, bestD := "", max(1, len(word)/3)+1
	for _, n := range names {
		d := editDistance(strings.ToLower(word), n)
		if len(word) >= 2 && strings.HasPrefix(n, strings.ToLower(word)) {
			d = 0
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// commandWords is a command's path without the binary name ("ax work").
func commandWords(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// flagError turns a flag parse failure into {error, hint}: a bad value is
// "Invalid value for --<name>: <value>" with the flag's own hint, as the
// reference says it; anything else points at the command's help.
func flagError(cmd *cobra.Command, err error) error {
	help := "Run: pmx-canvas " + commandWords(cmd) + " --help"
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		f := bad.GetFlag()
		hint := help
		if h := f.Annotations[hintAnnotation]; len(h) > 0 {
			hint = h[0]
		}
		return &cliError{Msg: fmt.Sprintf("Invalid value for --%s: %s", f.Name, bad.GetValue()), Hint: hint}
	}
	return &cliError{Msg: err.Error(), Hint: help}
}

// kebabFlags accepts the reference's camelCase flag spellings (--xKey,
// --toolName, --agentSummary, --nodeHeight, ...) as their kebab-case names.
func kebabFlags(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	return pflag.NormalizedName(messages.Kebab(name))
}

// ---- flags ----

// numValue is a number flag: finite, optionally > 0, optionally an
// integer (floored, as the reference's optionalNumberFlag). A negative value
// after a space works: --x -100.
type numValue struct {
	v        float64
	positive bool
	integer  bool
}

func (n *numValue) String() string {
	if n.v == 0 {
		return ""
	}
	return strconv.FormatFloat(n.v, 'f', -1, 64)
}

func (n *numValue) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return errors.New("not a finite number")
	}
	if n.positive && v <= 0 {
		return errors.New("must be greater than zero")
	}
	if n.integer {
		v = math.Floor(v)
	}
	n.v = v
	return nil
}

func (n *numValue) Type() string {
	if n.integer {
		return "int"
	}
	return "number"
}

// addNumber registers a number flag that is not a field's (node add's
// flags of other types), with its bad-value hint.
func addNumber(cmd *cobra.Command, name, short, usage, hint string, positive, integer bool) {
	cmd.Flags().VarP(&numValue{positive: positive, integer: integer}, name, short, usage)
	if hint != "" {
		_ = cmd.Flags().SetAnnotation(name, hintAnnotation, []string{hint})
	}
}

// given reports whether the flag was set on the command line.
func given(cmd *cobra.Command, name string) bool {
	f := cmd.Flags().Lookup(name)
	return f != nil && f.Changed
}

// num returns a number flag's value, or nil when it was not given.
func num(cmd *cobra.Command, name string) *float64 {
	if !given(cmd, name) {
		return nil
	}
	v := cmd.Flags().Lookup(name).Value.(*numValue).v
	return &v
}

// str returns a string flag's value, or nil when it was not given or is
// empty (the reference ignores empty values).
func str(cmd *cobra.Command, name string) *string {
	if !given(cmd, name) {
		return nil
	}
	if v := cmd.Flags().Lookup(name).Value.String(); v != "" {
		return &v
	}
	return nil
}

// flagBool returns a boolean flag's value.
func flagBool(cmd *cobra.Command, name string) bool {
	v, _ := cmd.Flags().GetBool(name)
	return v
}

// csv splits a comma-separated list, trimming entries and dropping empty
// ones.
func csv(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// readAll reads r whole (stdin for --stdin), untrimmed.
func readAll(r io.Reader) (string, error) {
	if r == nil {
		return "", nil
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("read stdin: %w", err)
	}
	return string(b), nil
}

// readFile reads a file named by a flag, failing with the flag's name.
func readFile(flag, path, hint string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", die(hint, "Unable to read --%s: %v", flag, err)
	}
	return string(b), nil
}

// ---- running operations ----

// invokeOK runs one catalog operation; a reply with an error status that
// is not an error reply (a refused interaction answers {ok:false, status,
// code, error} with its status) fails the command too, as the reference's
// api() does for any non-2xx answer.
func invokeOK(cmd *cobra.Command, op string, input map[string]any) (json.RawMessage, error) {
	body, reply, err := invoke(cmd, op, input)
	if err != nil {
		return nil, err
	}
	if reply != nil && reply.StatusCode() >= 400 {
		var refused struct {
			Error string `json:"error"`
			Code  string `json:"code"`
			Hint  string `json:"hint"`
		}
		_ = json.Unmarshal(body, &refused)
		e := &messages.Error{Status: reply.StatusCode(), Code: messages.Code(refused.Code), Message: refused.Error}
		if e.Message == "" {
			e.Message = fmt.Sprintf("HTTP %d", reply.StatusCode())
		}
		if refused.Hint != "" {
			e.Extra = map[string]any{"hint": refused.Hint}
		}
		return nil, e
	}
	return body, nil
}

// call runs one catalog operation and decodes its reply.
func call(cmd *cobra.Command, op string, input map[string]any, into any) error {
	body, err := invokeOK(cmd, op, input)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("%s: unexpected reply: %w", op, err)
	}
	return nil
}

// leaf builds a command with the common settings: any number of
// positional arguments (commands check their own, with the reference's
// messages) and interspersed flags.
func leaf(use, short, example string, run func(cmd *cobra.Command, args []string) error) *cobra.Command {
	return &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args:    cobra.ArbitraryArgs,
		RunE:    run,
	}
}

// examples joins example lines with the two-space indent cobra prints.
func examples(lines ...string) string {
	if len(lines) == 0 {
		return ""
	}
	return "  " + strings.Join(lines, "\n  ")
}

// ordered is the shared ordered JSON object (internal/jsonobj; the
// reference builds its outputs as JavaScript objects, whose keys keep
// insertion order) with the lookups the commands use.
type ordered jsonobj.Object

// MarshalJSON writes the keys in order.
func (o ordered) MarshalJSON() ([]byte, error) { return jsonobj.Object(o).MarshalJSON() }

// set appends a key, or replaces its value in place.
func (o *ordered) set(k string, v any) { (*jsonobj.Object)(o).Set(k, v) }

// get returns a key's value (nil when absent).
func (o ordered) get(k string) any {
	v, _ := jsonobj.Object(o).Get(k)
	return v
}

// has reports whether the key is present.
func (o ordered) has(k string) bool {
	_, ok := jsonobj.Object(o).Get(k)
	return ok
}

// rawObject decodes a JSON object into its keys, in order, with their raw
// values (so nested objects keep their key order when printed again).
func rawObject(raw []byte) (ordered, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out ordered
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, jsonobj.KV{K: key, V: v})
	}
	return out, nil
}

// decoded returns a raw value decoded into plain Go values.
func decoded(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok {
		return v
	}
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

// ---- shell completion ----

// completeValues offers a fixed list of values for a flag.
func completeValues(cmd *cobra.Command, flag string, values ...string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
}

// completeNodeIDs completes node ids (with their titles) from the server
// the command would talk to; nothing when it does not answer.
func completeNodeIDs(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var st struct {
		Nodes []struct {
			ID    string  `json:"id"`
			Type  string  `json:"type"`
			Title *string `json:"title"`
		} `json:"nodes"`
	}
	if call(cmd, "layout.get", nil, &st) != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := make([]cobra.Completion, 0, len(st.Nodes))
	for _, n := range st.Nodes {
		desc := n.Type
		if n.Title != nil && *n.Title != "" {
			desc = *n.Title + " (" + n.Type + ")"
		}
		out = append(out, cobra.CompletionWithDesc(n.ID, desc))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
