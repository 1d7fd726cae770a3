package cli

// The command reference of docs/cli.md is generated from the cobra tree, so
// it cannot drift from the binary: TestCLIReferenceDocIsUpToDate compares
// the section between the markers below with ReferenceDoc, and
// `go test ./surfaces/cli -run TestCLIReferenceDoc -update` rewrites it.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Markers around the generated part of docs/cli.md.
const (
	DocBegin = "<!-- BEGIN GENERATED COMMAND REFERENCE (go test ./surfaces/cli -run TestCLIReferenceDoc -update) -->"
	DocEnd   = "<!-- END GENERATED COMMAND REFERENCE -->"
)

// ReferenceDoc renders the command reference of the whole tree as
// markdown: one section per command with its description, usage, flags and
// examples.
func ReferenceDoc() string {
	root := NewRoot(io.Discard, io.Discard)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var b strings.Builder
	b.WriteString("## Command reference\n\n")
	b.WriteString("Generated from the command tree. Every agent command also takes the\n")
	b.WriteString("client flags `--server-url`, `--port`, `--canvas` and `--token` (see\n")
	b.WriteString("[Finding the server](#finding-the-server)).\n\n")

	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		all = append(all, c)
		subs := append([]*cobra.Command(nil), c.Commands()...)
		sort.Slice(subs, func(i, j int) bool { return subs[i].Name() < subs[j].Name() })
		for _, s := range subs {
			if !s.Hidden && s.Name() != "help" && !strings.HasPrefix(s.Name(), "__") {
				walk(s)
			}
		}
	}
	walk(root)

	// An index first.
	b.WriteString("| command | what it does |\n|---|---|\n")
	for _, c := range all[1:] {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.CommandPath(), anchor(c.CommandPath()), mdCell(c.Short))
	}
	b.WriteString("\n")

	for _, c := range all {
		docCommand(&b, c)
	}
	return b.String()
}

func docCommand(b *strings.Builder, c *cobra.Command) {
	fmt.Fprintf(b, "### %s\n\n", c.CommandPath())
	desc := c.Long
	if desc == "" {
		desc = c.Short
	}
	if desc != "" {
		b.WriteString(strings.TrimSpace(desc) + "\n\n")
	}
	if c.Runnable() && c.Annotations[groupAnnotation] == "" {
		fmt.Fprintf(b, "```\n%s\n```\n\n", c.UseLine())
	}
	if op, ok := messages.Lookup(c.Annotations[opAnnotation]); ok && len(op.HTTP) > 0 {
		fmt.Fprintf(b, "Runs `%s` (`%s %s`).\n\n", op.Name, op.HTTP[0].Method, op.HTTP[0].Path)
	}
	if subs := available(c); len(subs) > 0 {
		b.WriteString("Subcommands: ")
		for i, s := range subs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "[`%s`](#%s)", s.Name(), anchor(s.CommandPath()))
		}
		b.WriteString(".\n\n")
	}
	var rows []string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" || isClientFlag(c, f) {
			return
		}
		name := "`--" + f.Name + "`"
		if f.Shorthand != "" {
			name = "`-" + f.Shorthand + "`, " + name
		}
		typ := f.Value.Type()
		if typ == "bool" {
			typ = ""
		}
		def := f.DefValue
		if def == "false" || def == "[]" || def == "0" {
			def = ""
		}
		if def != "" {
			def = "`" + def + "`"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", name, typ, def, mdCell(f.Usage)))
	})
	if len(rows) > 0 {
		b.WriteString("| flag | value | default | meaning |\n|---|---|---|---|\n")
		b.WriteString(strings.Join(rows, "\n") + "\n\n")
	}
	if c.Example != "" {
		fmt.Fprintf(b, "```sh\n%s\n```\n\n", dedent(c.Example))
	}
}

// isClientFlag reports whether f is one of the client flags an agent
// group registers as persistent (documented once, not per command).
func isClientFlag(c *cobra.Command, f *pflag.Flag) bool {
	switch f.Name {
	case "server-url", "port", "canvas", "token":
		return c.PersistentFlags().Lookup(f.Name) == f
	}
	return false
}

func available(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && s.Name() != "help" {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// anchor is the GitHub heading anchor of "### <path>".
func anchor(path string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(path) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}
