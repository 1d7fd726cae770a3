package mcpapp

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// Transport says how to reach an MCP App server. Its JSON form is the
// reference product's: {type:"stdio", command, args?, cwd?, env?} or
// {type:"http", url, headers?}.
type Transport struct {
	// Type is "stdio" or "http".
	Type string `json:"type"`
	// Command is the program a stdio server is started as.
	Command string `json:"command,omitempty"`
	// Args are the stdio command's arguments.
	Args []string `json:"args,omitempty"`
	// Cwd is the stdio command's working directory; empty is ours.
	Cwd string `json:"cwd,omitempty"`
	// Env is added to our environment for the stdio command.
	Env map[string]string `json:"env,omitempty"`
	// URL is the streamable HTTP endpoint of an http server.
	URL string `json:"url,omitempty"`
	// Headers are sent with every HTTP request to an http server.
	Headers map[string]string `json:"headers,omitempty"`
}

// Validate reports the first thing wrong with t, naming the field, so a bad
// transport is refused before anything is started or dialled.
func (t Transport) Validate() error {
	switch t.Type {
	case "stdio":
		if strings.TrimSpace(t.Command) == "" {
			return errors.New(`transport.command is required for type "stdio"`)
		}
		if strings.ContainsRune(t.Command, 0) {
			return errors.New("transport.command must not contain a NUL byte")
		}
		for i, a := range t.Args {
			if strings.ContainsRune(a, 0) {
				return fmt.Errorf("transport.args[%d] must not contain a NUL byte", i)
			}
		}
		if strings.ContainsRune(t.Cwd, 0) {
			return errors.New("transport.cwd must not contain a NUL byte")
		}
		for k, v := range t.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return fmt.Errorf("transport.env key %q is not a valid environment variable name", k)
			}
			if strings.ContainsRune(v, 0) {
				return fmt.Errorf("transport.env[%q] must not contain a NUL byte", k)
			}
		}
		return nil
	case "http":
		if strings.TrimSpace(t.URL) == "" {
			return errors.New(`transport.url is required for type "http"`)
		}
		u, err := url.Parse(t.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("transport.url must be an http or https URL")
		}
		for k, v := range t.Headers {
			if !httpguts.ValidHeaderFieldName(k) {
				return fmt.Errorf("transport.headers key %q is not a valid HTTP header name", k)
			}
			if !httpguts.ValidHeaderFieldValue(v) {
				return fmt.Errorf("transport.headers[%q] is not a valid HTTP header value", k)
			}
		}
		return nil
	default:
		return errors.New(`transport.type must be "stdio" or "http"`)
	}
}
