package diagram

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// OpenInput is what the host needs to open the Excalidraw app: the MCP
// server to connect to over Streamable HTTP, the serverName recorded on the
// node, the tool to call and its arguments.
type OpenInput struct {
	ServerURL     string
	ServerName    string
	ToolName      string
	ToolArguments map[string]any
}

// BuildOpen normalises elements (see NormalizeElements), adds a camera
// unless one is given (WithCamera) and returns the open input, with
// ToolArguments {"elements": <the final array as a JSON string>} as
// create_view takes it. serverURL "" (after trimming spaces) is
// DefaultServerURL; anything but an absolute http or https URL with a host
// is an *InputError for "serverURL".
func BuildOpen(elements any, serverURL string) (OpenInput, error) {
	els, err := NormalizeElements(elements)
	if err != nil {
		return OpenInput{}, err
	}
	u := strings.TrimSpace(serverURL)
	if u == "" {
		u = DefaultServerURL
	} else if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return OpenInput{}, inputErr("serverURL", "must be an absolute http(s) URL (got %q)", serverURL)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // labels stay readable; the value is JSON inside JSON, not HTML
	if err := enc.Encode(WithCamera(els)); err != nil {
		return OpenInput{}, inputErr("elements", "cannot be encoded as JSON: %v", err)
	}
	return OpenInput{
		ServerURL:     u,
		ServerName:    ServerName,
		ToolName:      ToolName,
		ToolArguments: map[string]any{"elements": strings.TrimRight(buf.String(), "\n")},
	}, nil
}
