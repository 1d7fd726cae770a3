package cli

// The command builder: every catalog operation's command is made here from
// the operation's input fields (messages.Field) and its CLI binding
// (messages.CLIBinding: path, positional arguments, flag names). A field
// becomes a flag of its type, the flags that were given become the JSON
// input, and the input goes to the operation through the remote invoker,
// which prints the reply or fails with the operation's own error. So an
// operation added to the catalog is on the command line with no edit here,
// and a field cannot be accepted and then dropped.
//
// What is left by hand is UX (commandUX): the reference's wording, help and
// examples, and its quirks (a flag that takes true|false, a default the
// reference sends, a client-side check with the reference's message).

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// commandUX is the hand-written part of an operation's command.
type commandUX struct {
	short, long string
	example     []string
	// hint is the usage hint of a missing argument or required flag and
	// of bad JSON (default: "pmx-canvas <path> <arguments>").
	hint  string
	args  []argUX           // the positional arguments, in the binding's order
	flags map[string]flagUX // by field name
	// extra registers flags that are not fields (--stdin, --yes) and
	// subcommands.
	extra func(cmd *cobra.Command)
	// prepare adjusts the input (or the operation: c.op) before it is sent.
	prepare func(c *opCall) error
	// print replaces printing the reply as it is.
	print func(c *opCall, body json.RawMessage) error
	// run replaces sending and printing (dry runs, files, progress).
	run func(c *opCall) error
	// aliases are more commands for the same operation.
	aliases []alias
	// completeNodes completes the positional arguments with node ids.
	completeNodes bool
}

// alias is another path for an operation's command, with its own help.
type alias struct {
	path, short string
	example     []string
}

// argUX says how a positional argument reads.
type argUX struct {
	name     string // the placeholder (node-id); default the field's kebab name
	optional bool
	missing  string // the failure when absent; default "Missing <name as words>"
	flag     string // a flag that may give it instead (--id, --query)
}

// flagUX is the CLI's wording and parsing of one field's flag.
type flagUX struct {
	short    string   // one-letter shorthand (-x)
	also     []string // more names for it (the reference's aliases)
	usage    string   // help, when the field's doc is not the CLI's wording
	def      string   // sent when the flag is absent, as if given (the reference's default)
	positive bool     // a number must be greater than zero
	integer  bool     // a number is floored
	word     bool     // a boolean given as true|false (--pinned false)
	each     bool     // a list given one item per flag (--slide-title A --slide-title B)
	required bool     // refused before sending: "Missing required flag: --<name>"
	strict   bool     // a value outside the field's enum is refused before sending
	eg       string   // an example value for the bad-number hint
	hint     string   // the bad-value hint, when eg does not make it
}

// uxOf holds the commandUX of each operation that has one; each file adds
// its operations' in an init function.
var uxOf = map[string]*commandUX{}

func setUX(m map[string]*commandUX) {
	for op, u := range m {
		if _, ok := messages.Lookup(op); !ok {
			panic("cli: UX for unknown operation " + op)
		}
		uxOf[op] = u
	}
}

// flagKind is how a flag's text becomes a JSON value.
type flagKind int

const (
	kindString flagKind = iota // text; empty means not given (as the reference)
	kindNumber                 // a finite number, checked as it is parsed
	kindSwitch                 // a boolean flag
	kindWord                   // true or false
	kindList                   // a JSON array, or comma-separated strings
	kindJSON                   // any JSON value
)

// kindOf derives a field's flag kind from its JSON Schema.
func kindOf(f messages.Field) flagKind {
	s := f.Schema()
	if len(s.AnyOf) > 0 {
		s = s.AnyOf[0]
	}
	switch s.Type {
	case "string":
		return kindString
	case "number", "integer":
		return kindNumber
	case "boolean":
		return kindSwitch
	case "array":
		if s.Items == nil || s.Items.Type == "" || s.Items.Type == "string" {
			return kindList
		}
	}
	return kindJSON
}

// Flag annotations: the field a flag sets, and the reference's hint for a
// bad value (flagError prints it).
const (
	fieldAnnotation = "pmx-canvas/field"
	hintAnnotation  = "pmx-canvas/hint"
	opAnnotation    = "pmx-canvas/op"
)

// fieldFlag is one field's flag on a built command.
type fieldFlag struct {
	field messages.Field
	names []string // the flag, then its aliases
	kind  flagKind
	ux    flagUX
}

// builtCommand is a built command and what its run needs.
type builtCommand struct {
	cmd   *cobra.Command
	op    *messages.Op
	path  string
	ux    *commandUX
	args  []string // positional fields
	rest  bool
	flags []*fieldFlag
	s     *ioStreams
}

// build makes the command of op at path (its name is the last word).
func build(s *ioStreams, op *messages.Op, path string, u *commandUX) *builtCommand {
	if u == nil {
		u = &commandUX{}
	}
	b := &builtCommand{op: op, path: path, ux: u, s: s}
	b.args, b.rest = op.CLIArgs()
	name := path[strings.LastIndex(path, " ")+1:]
	short := u.short
	if short == "" {
		short = strings.TrimSuffix(op.Summary, ".")
	}
	example := u.example
	if len(example) == 0 {
		example = []string{b.defaultExample()}
	}
	cmd := leaf(name+b.argsUse(), short, examples(example...), b.runE)
	cmd.Long = u.long
	cmd.Annotations = map[string]string{opAnnotation: op.Name}
	for _, f := range op.Fields() {
		flag := op.CLIFlag(f)
		if flag == "" || f.Name == "source" { // source is always "cli"
			continue
		}
		ff := &fieldFlag{field: f, names: append([]string{flag}, u.flags[f.Name].also...), kind: kindOf(f), ux: u.flags[f.Name]}
		if ff.ux.word {
			ff.kind = kindWord
		}
		ff.register(cmd)
		b.flags = append(b.flags, ff)
	}
	for i := range b.args {
		if a := b.arg(i); a.flag != "" {
			cmd.Flags().String(a.flag, "", "the "+words(a.name)+" (instead of the argument)")
		}
	}
	if u.extra != nil {
		u.extra(cmd)
	}
	if u.completeNodes {
		cmd.ValidArgsFunction = completeNodeIDs
	}
	b.cmd = cmd
	return b
}

// arg is the UX of positional argument i.
func (b *builtCommand) arg(i int) argUX {
	var a argUX
	if i < len(b.ux.args) {
		a = b.ux.args[i]
	}
	if a.name == "" {
		a.name = messages.Kebab(b.args[i])
	}
	if a.missing == "" {
		a.missing = "Missing " + words(a.name)
	}
	if b.rest && i == len(b.args)-1 && b.listField(b.args[i]) && i >= len(b.ux.args) {
		a.optional = true // a list argument is optional unless its UX says otherwise
	}
	return a
}

// argsUse is the arguments part of the usage line: " <node-id>", " [node-ids...]".
func (b *builtCommand) argsUse() string {
	var out string
	for i := range b.args {
		a := b.arg(i)
		name := a.name
		if b.rest && i == len(b.args)-1 {
			name += "..."
		}
		if a.optional {
			out += " [" + name + "]"
		} else {
			out += " <" + name + ">"
		}
	}
	return out
}

// hint is the command's usage hint.
func (b *builtCommand) hint() string {
	if b.ux.hint != "" {
		return b.ux.hint
	}
	return strings.TrimSpace("pmx-canvas " + b.path + b.argsUse())
}

// defaultExample is the usage with the flags of the fields the operation
// requires: "pmx-canvas ax activity --kind tool-start --title <title>".
func (b *builtCommand) defaultExample() string {
	ex := "pmx-canvas " + b.path + b.argsUse()
	for _, f := range b.op.Fields() {
		if flag := b.op.CLIFlag(f); f.Required && flag != "" {
			v := "<" + flag + ">"
			if len(f.Enum) > 0 {
				v = f.Enum[0]
			}
			ex += " --" + flag + " " + v
		}
	}
	return ex
}

// words turns a placeholder into words: node-id → "node ID".
func words(name string) string {
	parts := strings.Split(name, "-")
	for i, p := range parts {
		switch p {
		case "id":
			parts[i] = "ID"
		case "ids":
			parts[i] = "IDs"
		}
	}
	return strings.Join(parts, " ")
}

func (b *builtCommand) listField(name string) bool {
	f, _ := b.op.Field(name)
	return kindOf(f) == kindList
}

// register adds the flag and its aliases to cmd.
func (ff *fieldFlag) register(cmd *cobra.Command) {
	for i, name := range ff.names {
		usage := ff.usage()
		if i > 0 {
			usage = "alias of --" + ff.names[0]
		}
		short := ""
		if i == 0 {
			short = ff.ux.short
		}
		fs := cmd.Flags()
		switch ff.kind {
		case kindNumber:
			fs.VarP(&numValue{positive: ff.ux.positive, integer: ff.ux.integer || ff.integerField()}, name, short, usage)
			_ = fs.SetAnnotation(name, hintAnnotation, []string{ff.ux.badHint(name)})
		case kindSwitch:
			fs.BoolP(name, short, ff.ux.def == "true", usage)
		case kindList:
			if ff.ux.each {
				fs.StringArrayP(name, short, nil, usage)
				break
			}
			fs.StringP(name, short, ff.ux.def, usage)
		default:
			fs.StringP(name, short, ff.ux.def, usage)
		}
		_ = fs.SetAnnotation(name, fieldAnnotation, []string{ff.field.Name})
		switch {
		case len(ff.field.Enum) > 0:
			completeValues(cmd, name, ff.field.Enum...)
		case ff.kind == kindWord:
			completeValues(cmd, name, "true", "false")
		}
	}
}

// usage is the flag's help: the field's doc (or the CLI's wording), the
// allowed values, the reference's camelCase spelling, and "required".
func (ff *fieldFlag) usage() string {
	u := ff.ux.usage
	if u == "" {
		u = ff.field.Doc
	}
	if len(ff.field.Enum) > 0 && ff.ux.usage == "" {
		u = strings.TrimSpace(u + " One of: " + strings.Join(ff.field.Enum, ", ") + ".")
	}
	if ff.field.Default != nil && ff.ux.usage == "" {
		u += " (default " + strings.Trim(string(ff.field.Default), `"`) + ")"
	}
	if ff.field.Name != strings.ToLower(ff.field.Name) && ff.names[0] == messages.Kebab(ff.field.Name) {
		u += " (also --" + ff.field.Name + ")"
	}
	if ff.ux.required {
		u += " (required)"
	}
	return strings.TrimSpace(u)
}

// integerField reports whether the field is a Go integer (a count the
// flag floors).
func (ff *fieldFlag) integerField() bool {
	t := ff.field.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

// badHint is the hint of a bad number: "Use a finite number, e.g. --x 500".
func (fx flagUX) badHint(name string) string {
	if fx.hint != "" {
		return fx.hint
	}
	what := "a finite number"
	if fx.positive {
		what = "a positive number"
		if fx.integer {
			what = "a positive integer"
		}
	}
	if fx.eg == "" {
		return "Use " + what
	}
	return fmt.Sprintf("Use %s, e.g. --%s %s", what, name, fx.eg)
}

// value returns the flag's JSON value: ok is false when it was not given
// (or given empty, which the reference ignores) and has no default.
func (ff *fieldFlag) value(cmd *cobra.Command, hint string) (v any, ok bool, err error) {
	var f *pflag.Flag
	for _, n := range ff.names {
		g := cmd.Flags().Lookup(n)
		switch {
		case !g.Changed:
		case f == nil:
			f = g
		case g.Value.String() != f.Value.String(): // an alias with another value
			return nil, false, die(fmt.Sprintf("--%s is an alias of --%s: keep one.", g.Name, f.Name),
				"Use either --%s/--%s, not both.", f.Name, g.Name)
		}
	}
	if f == nil {
		if ff.ux.def == "" {
			return nil, false, nil
		}
		f = cmd.Flags().Lookup(ff.names[0])
	}
	name := f.Name
	switch ff.kind {
	case kindNumber:
		return f.Value.(*numValue).v, true, nil
	case kindSwitch:
		return f.Value.String() == "true", true, nil
	case kindList:
		if ff.ux.each {
			items, _ := cmd.Flags().GetStringArray(name)
			return items, true, nil
		}
	}
	text := f.Value.String()
	if text == "" && ff.ux.def != "" {
		text = ff.ux.def
	}
	if text == "" {
		return nil, false, nil
	}
	switch ff.kind {
	case kindWord:
		switch text {
		case "true":
			return true, true, nil
		case "false":
			return false, true, nil
		}
		return nil, false, die(fmt.Sprintf("Use --%s true or --%s false", name, name), "Invalid value for --%s: %s", name, text)
	case kindList:
		list, err := listValue(name, text, hint)
		if err != nil {
			return nil, false, err
		}
		return list, true, nil
	case kindJSON:
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, false, die(hint, "Invalid --%s JSON: %v", name, err)
		}
		return v, true, nil
	}
	if ff.ux.strict && !slices.Contains(ff.field.Enum, text) {
		return nil, false, die(hint, "Invalid value for --%s: %s", name, text)
	}
	return text, true, nil
}

// listValue reads a list flag's text: a JSON array, or comma-separated
// strings (empty: an empty list).
func listValue(name, text, hint string) (any, error) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "[") {
		list := csv(t)
		if list == nil {
			list = []string{}
		}
		return list, nil
	}
	var list []any
	if err := json.Unmarshal([]byte(t), &list); err != nil {
		return nil, die(hint, "Invalid value for --%s: expected a JSON array or comma-separated values (%v)", name, err)
	}
	return list, nil
}

// opCall is one run of a built command: hooks read and change its input.
type opCall struct {
	cmd  *cobra.Command
	s    *ioStreams
	op   string // the operation to run (a hook may pick another)
	args []string
	in   map[string]any
	b    *builtCommand
}

func (c *opCall) given(name string) bool { return given(c.cmd, name) }
func (c *opCall) flag(name string) bool  { return flagBool(c.cmd, name) }

// send runs the operation with the input.
func (c *opCall) send() (json.RawMessage, error) { return invokeOK(c.cmd, c.op, c.in) }

// show prints v as the command's JSON document.
func (c *opCall) show(v any) error { return output(c.s.Out, v) }

// sendAndPrint is the default run: send, then print the reply.
func (c *opCall) sendAndPrint() error {
	body, err := c.send()
	if err != nil {
		return err
	}
	if c.b.ux.print != nil {
		return c.b.ux.print(c, body)
	}
	return c.show(body)
}

func (b *builtCommand) runE(cmd *cobra.Command, args []string) error {
	c := &opCall{cmd: cmd, s: b.s, op: b.op.Name, args: args, in: map[string]any{}, b: b}
	if err := b.input(c); err != nil {
		return err
	}
	if b.ux.prepare != nil {
		if err := b.ux.prepare(c); err != nil {
			return err
		}
	}
	if b.ux.run != nil {
		return b.ux.run(c)
	}
	return c.sendAndPrint()
}

// input builds the JSON input from the arguments and the flags that were
// given (never a zero value for a flag that was not), checking in the
// order the commands always have: single arguments, required flags, flag
// values, then a list argument.
func (b *builtCommand) input(c *opCall) error {
	hint := b.hint()
	last := len(b.args)
	if b.rest {
		last--
	} else if len(c.args) > last { // an argument nothing takes is refused, not dropped
		return die(hint, "Unexpected argument: %s", c.args[last])
	}
	for i := 0; i < last; i++ {
		a := b.arg(i)
		v := ""
		if i < len(c.args) {
			v = c.args[i]
		}
		if v == "" && a.flag != "" {
			v = c.cmd.Flags().Lookup(a.flag).Value.String()
		}
		if v == "" {
			if a.optional {
				continue
			}
			return die(hint, "%s", a.missing)
		}
		c.in[b.args[i]] = v
	}
	for _, ff := range b.flags {
		if ff.ux.required && !anyGiven(c.cmd, ff.names) {
			return die(hint, "Missing required flag: --%s", ff.names[0])
		}
	}
	for _, ff := range b.flags {
		v, ok, err := ff.value(c.cmd, hint)
		if err != nil {
			return err
		}
		if ok {
			c.in[ff.field.Name] = v
		}
	}
	if b.rest {
		if err := b.restArg(c, hint); err != nil {
			return err
		}
	}
	if _, ok := b.op.Field("source"); ok {
		c.in["source"] = axSource
	}
	return nil
}

// restArg takes the remaining arguments: a list, or (for a string field)
// the words joined by spaces.
func (b *builtCommand) restArg(c *opCall, hint string) error {
	i := len(b.args) - 1
	a, field := b.arg(i), b.args[i]
	var rest []string
	if len(c.args) > i {
		rest = c.args[i:]
	}
	if !b.listField(field) {
		v := strings.Join(rest, " ")
		if strings.TrimSpace(v) == "" && a.flag != "" {
			v = c.cmd.Flags().Lookup(a.flag).Value.String()
		}
		if strings.TrimSpace(v) == "" {
			if a.optional {
				return nil
			}
			return die(hint, "%s", a.missing)
		}
		c.in[field] = v
		return nil
	}
	if len(rest) == 0 {
		if a.optional {
			return nil
		}
		return die(hint, "%s", a.missing)
	}
	c.in[field] = rest
	return nil
}

func anyGiven(cmd *cobra.Command, names []string) bool {
	for _, n := range names {
		if given(cmd, n) {
			return true
		}
	}
	return false
}

// ---- the tree ----

// addOpCommands gives every catalog operation its command at its path,
// making the groups on the way that hand-written code did not make. An
// operation whose path selects it on another's command (layout --summary)
// is run by that command's UX.
func addOpCommands(root *cobra.Command, s *ioStreams) {
	var made []*cobra.Command
	for _, op := range messages.Catalog {
		path, selector := op.CLIPath()
		if len(selector) > 0 {
			continue
		}
		u := uxOf[op.Name]
		attach(root, path, build(s, op, strings.Join(path, " "), u).cmd, &made)
		if u == nil {
			continue
		}
		for _, a := range u.aliases {
			au := *u
			au.short, au.example, au.aliases = a.short, a.example, nil
			words := strings.Fields(a.path)
			attach(root, words, build(s, op, a.path, &au).cmd, &made)
		}
	}
	for _, g := range made {
		var subs []string
		for _, c := range g.Commands() {
			subs = append(subs, c.Name())
		}
		sort.Strings(subs)
		g.Short = strings.ToUpper(g.Name()[:1]) + g.Name()[1:] + ": " + strings.Join(subs, ", ")
		var lines []string
		for _, c := range g.Commands() {
			lines = append(lines, strings.SplitN(strings.TrimSpace(c.Example), "\n", 2)[0])
		}
		g.Example = examples(lines...)
	}
}

// attach adds cmd under the command at path[:len-1], making missing groups
// (their help lists their subcommands).
func attach(root *cobra.Command, path []string, cmd *cobra.Command, made *[]*cobra.Command) {
	parent := root
	for _, w := range path[:len(path)-1] {
		next := childNamed(parent, w)
		if next == nil {
			next = newGroup(w, "", "")
			parent.AddCommand(next)
			*made = append(*made, next)
		}
		parent = next
	}
	if childNamed(parent, cmd.Name()) != nil {
		panic(fmt.Sprintf("cli: two commands at %q", strings.Join(path, " ")))
	}
	parent.AddCommand(cmd)
}

func childNamed(parent *cobra.Command, name string) *cobra.Command {
	for _, c := range parent.Commands() {
		if c.Name() == name {
			return c
		}
	}
	return nil
}
