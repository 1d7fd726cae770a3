package messages

import "strings"

// CLIBinding is how an operation appears on the command line. Every part is
// optional, so an operation with no binding still gets a command:
//
//   - Path: the command words, e.g. "ax work add"; by default the name with
//     dots as spaces ("edge.list" → "edge list"). Words after the first
//     "--" word select this operation on a command another operation owns
//     ("layout --summary" is summary.get, run by layout.get's command).
//   - Args: the fields taken from positional arguments, in order; "name..."
//     takes the remaining arguments (a list, or words joined by spaces for
//     a string field). By default the route's path parameters (":id").
//   - Flags: flag names where the default (the field's JSON name in
//     kebab case, fromSearch → --from-search) does not fit; "-" offers no
//     flag for the field on this command.
//
// Fields tagged cli:"-" never get a flag (output shapes for MCP, ignored
// inputs). What a command says and the reference's parsing quirks are the
// CLI's own (surfaces/cli); the binding holds only what the command line
// contract freezes.
type CLIBinding struct {
	Path  string
	Args  []string
	Flags map[string]string
}

// CLIPath is the command that runs the operation: its words and the words
// that select it there (empty unless another operation owns the command).
func (op *Op) CLIPath() (command, selector []string) {
	path := strings.ReplaceAll(op.Name, ".", " ")
	if op.CLI != nil && op.CLI.Path != "" {
		path = op.CLI.Path
	}
	words := strings.Fields(path)
	for i, w := range words {
		if strings.HasPrefix(w, "-") {
			return words[:i], words[i:]
		}
	}
	return words, nil
}

// CLIArgs lists the fields the command takes as positional arguments; rest
// reports whether the last one takes every remaining argument.
func (op *Op) CLIArgs() (fields []string, rest bool) {
	if op.CLI != nil && op.CLI.Args != nil {
		for _, a := range op.CLI.Args {
			name, more := strings.CutSuffix(a, "...")
			fields = append(fields, name)
			rest = more
		}
		return fields, rest
	}
	if len(op.HTTP) > 0 {
		for _, seg := range strings.Split(op.HTTP[0].Path, "/") {
			if p, ok := strings.CutPrefix(seg, ":"); ok {
				fields = append(fields, p)
			}
		}
	}
	return fields, false
}

// CLIFlag is the flag name of an input field on the operation's command:
// the binding's name, else the JSON name in kebab case; "" when the field
// has no flag (cli:"-", "-" in the binding, or a positional argument).
func (op *Op) CLIFlag(f Field) string {
	if f.OmittedFrom("cli") {
		return ""
	}
	args, _ := op.CLIArgs()
	for _, a := range args {
		if a == f.Name {
			return ""
		}
	}
	if op.CLI != nil {
		if name, ok := op.CLI.Flags[f.Name]; ok {
			if name == "-" {
				return ""
			}
			return name
		}
	}
	return Kebab(f.Name)
}

// Kebab writes a camelCase name in kebab case (toolName → tool-name); an
// underscore becomes a dash too (edge_id → edge-id).
func Kebab(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r - 'A' + 'a')
		case r == '_':
			b.WriteByte('-')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
