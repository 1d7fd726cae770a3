package webartifact

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// BuildError is a failed bundle: the sources do not compile or an import
// does not resolve. It is the agent's error (an HTTP caller answers 400),
// unlike a failure to write files or run npm.
type BuildError struct {
	// Messages are esbuild's errors, each "file:line:col: text" with the
	// file relative to the project and line and column counted from 1.
	Messages []string
}

func (e *BuildError) Error() string {
	return "web artifact build failed:\n" + strings.Join(e.Messages, "\n")
}

// formatMessage renders an esbuild message as "file:line:col: text".
func formatMessage(m api.Message) string {
	text := m.Text
	if m.PluginName != "" {
		text = "[" + m.PluginName + "] " + text
	}
	for _, n := range m.Notes {
		if n.Text != "" {
			text += " (" + n.Text + ")"
		}
	}
	if m.Location == nil {
		return text
	}
	return fmt.Sprintf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column+1, text)
}
