package mcpapp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
)

// Errors Open can return, for errors.Is; the messages themselves are the
// reference product's.
var (
	// ErrToolNotFound: the server has no tool of that name.
	ErrToolNotFound = errors.New("tool not found")
	// ErrNoAppResource: the tool declares no ui:// resource.
	ErrNoAppResource = errors.New("tool declares no MCP App resource")
	// ErrNoAppHTML: the resource has no text/html content.
	ErrNoAppHTML = errors.New("resource has no HTML content")
)

// openError has an exact message and a sentinel to match.
type openError struct {
	msg  string
	kind error
}

func (e *openError) Error() string { return e.msg }
func (e *openError) Unwrap() error { return e.kind }

// maxListPages bounds how many pages a List call follows.
const maxListPages = 1000

// Opened is what Open found and got.
type Opened struct {
	// Tool is the tool's definition as the server sent it in tools/list.
	Tool json.RawMessage
	// ResourceURI is the ui:// resource the tool declares.
	ResourceURI string
	// HTML is RawHTML after PrepareHTML.
	HTML string
	// RawHTML is the resource's HTML as the server sent it.
	RawHTML string
	// ResourceMeta is the HTML content's _meta.ui (csp, permissions, ...),
	// nil when it has none.
	ResourceMeta json.RawMessage
	// Result is the tools/call result (a CallToolResult) as the server sent it.
	Result json.RawMessage
	// IsError is the result's isError.
	IsError bool
	// Title is the tool's title, else its annotations' title, else its name.
	Title string
}

// toolDef is what Open reads from a tool definition.
type toolDef struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Annotations struct {
		Title string `json:"title"`
	} `json:"annotations"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

// resourceURI is _meta.ui.resourceUri, else the older flat
// _meta["ui/resourceUri"].
func (t toolDef) resourceURI() string {
	var ui struct {
		ResourceURI string `json:"resourceUri"`
	}
	if raw, ok := t.Meta["ui"]; ok && json.Unmarshal(raw, &ui) == nil && ui.ResourceURI != "" {
		return ui.ResourceURI
	}
	var flat string
	if raw, ok := t.Meta["ui/resourceUri"]; ok && json.Unmarshal(raw, &flat) == nil {
		return flat
	}
	return ""
}

// Open puts tool toolName's app together: it lists the tools, finds the
// tool and the ui:// resource it declares, calls the tool with args, reads
// the resource and prepares its HTML. A tool result with isError is
// returned (IsError), not treated as a failure.
func (c *Client) Open(ctx context.Context, toolName string, args map[string]any) (*Opened, error) {
	list, err := c.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	var tools struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(list, &tools); err != nil {
		return nil, fmt.Errorf("tools/list: malformed result: %w", err)
	}
	var raw json.RawMessage
	var def toolDef
	for _, t := range tools.Tools {
		var d toolDef
		if json.Unmarshal(t, &d) == nil && d.Name == toolName {
			raw, def = t, d
			break
		}
	}
	if raw == nil {
		return nil, &openError{fmt.Sprintf("Tool %q not found on the MCP server.", toolName), ErrToolNotFound}
	}
	uri := def.resourceURI()
	if uri == "" {
		return nil, &openError{fmt.Sprintf("Tool %q does not declare an MCP App resource.", toolName), ErrNoAppResource}
	}

	result, err := c.CallTool(ctx, toolName, args)
	if err != nil {
		return nil, err
	}
	var status struct {
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(result, &status); err != nil {
		return nil, fmt.Errorf("tools/call %q: malformed result: %w", toolName, err)
	}

	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	htmlText, meta, err := appHTML(uri, res)
	if err != nil {
		return nil, err
	}

	title := def.Title
	if title == "" {
		title = def.Annotations.Title
	}
	if title == "" {
		title = def.Name
	}
	return &Opened{
		Tool:         raw,
		ResourceURI:  uri,
		HTML:         PrepareHTML(htmlText, meta),
		RawHTML:      htmlText,
		ResourceMeta: meta,
		Result:       result,
		IsError:      status.IsError,
		Title:        title,
	}, nil
}

// appHTML takes the first HTML content of a resources/read result, and its
// _meta.ui.
func appHTML(uri string, result json.RawMessage) (string, json.RawMessage, error) {
	var res struct {
		Contents []struct {
			MIMEType string                     `json:"mimeType"`
			Text     *string                    `json:"text"`
			Blob     *string                    `json:"blob"`
			Meta     map[string]json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return "", nil, fmt.Errorf("resources/read %q: malformed result: %w", uri, err)
	}
	for _, content := range res.Contents {
		if !isAppMIMEType(content.MIMEType) {
			continue
		}
		var meta json.RawMessage
		if m, ok := content.Meta["ui"]; ok && string(m) != "null" {
			meta = m
		}
		switch {
		case content.Text != nil:
			return *content.Text, meta, nil
		case content.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*content.Blob)
			if err != nil {
				return "", nil, fmt.Errorf("resources/read %q: the HTML blob is not valid base64: %w", uri, err)
			}
			return string(b), meta, nil
		}
	}
	return "", nil, &openError{fmt.Sprintf("Resource %q has no text/html content.", uri), ErrNoAppHTML}
}

// isAppMIMEType accepts text/html, plain or with the mcp-app profile.
func isAppMIMEType(s string) bool {
	mt, params, err := mime.ParseMediaType(s)
	if err != nil || mt != "text/html" {
		return false
	}
	p, ok := params["profile"]
	return !ok || p == "mcp-app"
}

// CallTool calls tools/call and returns the CallToolResult as sent. Nil
// args are sent as {}.
func (c *Client) CallTool(ctx context.Context, name string, args map[string]any) (json.RawMessage, error) {
	if args == nil {
		args = map[string]any{}
	}
	return c.call(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
}

// ReadResource calls resources/read and returns the result as sent.
func (c *Client) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	return c.call(ctx, "resources/read", map[string]any{"uri": uri})
}

// ListTools is tools/list with every page followed: {"tools":[...]}.
func (c *Client) ListTools(ctx context.Context) (json.RawMessage, error) {
	return c.list(ctx, "tools/list", "tools")
}

// ListResources is resources/list with every page followed:
// {"resources":[...]}.
func (c *Client) ListResources(ctx context.Context) (json.RawMessage, error) {
	return c.list(ctx, "resources/list", "resources")
}

// ListResourceTemplates is resources/templates/list with every page
// followed: {"resourceTemplates":[...]}.
func (c *Client) ListResourceTemplates(ctx context.Context) (json.RawMessage, error) {
	return c.list(ctx, "resources/templates/list", "resourceTemplates")
}

// ListPrompts is prompts/list with every page followed: {"prompts":[...]}.
func (c *Client) ListPrompts(ctx context.Context) (json.RawMessage, error) {
	return c.list(ctx, "prompts/list", "prompts")
}

// list follows nextCursor until the last page and returns the items, as
// sent, under key. A cursor that repeats is an error, not a loop.
func (c *Client) list(ctx context.Context, method, key string) (json.RawMessage, error) {
	items := []json.RawMessage{}
	seen := map[string]bool{}
	cursor := ""
	for page := 1; ; page++ {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		raw, err := c.call(ctx, method, params)
		if err != nil {
			return nil, err
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, fmt.Errorf("%s: malformed result: %w", method, err)
		}
		if v, ok := fields[key]; ok && string(v) != "null" {
			var more []json.RawMessage
			if err := json.Unmarshal(v, &more); err != nil {
				return nil, fmt.Errorf("%s: malformed %s: %w", method, key, err)
			}
			items = append(items, more...)
		}
		var next string
		if v, ok := fields["nextCursor"]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, &next); err != nil {
				return nil, fmt.Errorf("%s: malformed nextCursor: %w", method, err)
			}
		}
		if next == "" {
			break
		}
		if seen[next] {
			return nil, fmt.Errorf("%s: the server repeated the cursor %q", method, next)
		}
		if page >= maxListPages {
			return nil, fmt.Errorf("%s: more than %d pages", method, maxListPages)
		}
		seen[next] = true
		cursor = next
	}
	return json.Marshal(map[string]any{key: items})
}
