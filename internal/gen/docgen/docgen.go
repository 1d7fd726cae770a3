// Package docgen writes the generated regions of docs/: the HTTP route and
// field tables (from messages.Catalog), the MCP tool tables (from the
// advertised tool schemas), the Go method table (from the catalog, as
// opsgen names the methods) and the CLI command reference (from the cobra
// tree). Each region sits between marker comments; the prose around it
// stays hand-written.
package docgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Region is one generated part of a doc file.
type Region struct {
	// File is the doc's path from the module root.
	File string
	// Begin and End are the marker lines around the region.
	Begin, End string
	Render     func() (string, error)
}

func marker(name string) (begin, end string) {
	return "<!-- generated:" + name + " (go generate ./pmxcanvas) -->", "<!-- /generated -->"
}

// region is a region of ours: its content ends with one newline, so one
// blank line separates it from each marker.
func region(file, name string, render func() (string, error)) Region {
	begin, end := marker(name)
	return Region{File: file, Begin: begin, End: end, Render: func() (string, error) {
		s, err := render()
		return strings.TrimRight(s, "\n") + "\n", err
	}}
}

// Regions lists every generated region, file by file.
func Regions() []Region {
	return []Region{
		region("docs/http-api.md", "http-routes", httpRoutes),
		region("docs/http-api.md", "http-fields", httpFields),
		region("docs/http-api.md", "ax-interaction-payloads", interactionPayloads),
		region("docs/mcp.md", "mcp-tools", mcpTools),
		region("docs/go-package.md", "go-methods", goMethods),
		cliRegion(),
	}
}

// Apply returns doc with r's content rendered between its markers: the
// begin marker, a blank line, the content and a newline, the end marker
// (the CLI's own test frames its reference the same way).
func Apply(doc []byte, r Region) ([]byte, error) {
	content, err := r.Render()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.File, err)
	}
	begin := bytes.Index(doc, []byte(r.Begin))
	if begin < 0 {
		return nil, fmt.Errorf("%s lacks the marker %s", r.File, r.Begin)
	}
	head := begin + len(r.Begin)
	end := bytes.Index(doc[head:], []byte(r.End))
	if end < 0 {
		return nil, fmt.Errorf("%s: %s is not closed by %s", r.File, r.Begin, r.End)
	}
	var out bytes.Buffer
	out.Write(doc[:head])
	out.WriteString("\n\n" + content + "\n")
	out.Write(doc[head+end:])
	return out.Bytes(), nil
}

// Files renders every doc file that has regions: path from the module
// root → its content with fresh regions.
func Files(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, r := range Regions() {
		doc, ok := out[r.File]
		if !ok {
			var err error
			if doc, err = os.ReadFile(filepath.Join(root, r.File)); err != nil {
				return nil, err
			}
		}
		doc, err := Apply(doc, r)
		if err != nil {
			return nil, err
		}
		out[r.File] = doc
	}
	return out, nil
}

// Root finds the module root (the directory holding go.mod) from the
// working directory up.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// table renders a markdown table; cells have | escaped and newlines
// folded.
func table(head []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	b.WriteString(strings.Repeat("---|", len(head)) + "\n")
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = strings.NewReplacer("|", `\|`, "\n", " ").Replace(c)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

// slug is GitHub's anchor for a heading's text: lower case, spaces to
// hyphens, other punctuation dropped.
func slug(heading string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ':
			return '-'
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z':
			return r
		}
		return -1
	}, strings.ToLower(heading))
}

func code(s string) string { return "`" + s + "`" }

func codes(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = code(s)
	}
	return strings.Join(out, ", ")
}
