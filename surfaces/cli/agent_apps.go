package cli

// Hosted apps: external-app add --kind excalidraw (and diagram add) run
// diagram.open; external-app open runs mcpapp.open with the transport
// from flags; the external-app bridge commands call an app session.

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/content/diagram"

	"github.com/pmxcanvas/pmx-canvas/internal/jsonobj"
)

const diagramHint = `Use: pmx-canvas external-app add --kind excalidraw --title "Diagram" --elements-file ./scene.json`

const appOpenHint = `Use: pmx-canvas external-app open --tool-name show_view --command ./my-app-server (or --url https://host/mcp)`

func init() {
	setUX(map[string]*commandUX{
		"diagram.open": {
			short: "Create a hosted external app node (Excalidraw diagram)",
			long: `Open Excalidraw elements in the Excalidraw MCP app (its create_view tool) as an
external-app node; --node-id updates that diagram in place. Elements come from
--elements-file (or --initial-file), else --elements / --elements-json, else a
default scene. The app's endpoint is the server's --diagram-server-url.`,
			example: []string{
				`pmx-canvas external-app add --kind excalidraw --title "Diagram"`,
				`pmx-canvas external-app add --kind excalidraw --elements-file ./scene.json`,
				`pmx-canvas diagram add --title "Architecture" --node-id ext-app-abc --elements '[{"type":"ellipse","x":0,"y":0,"width":80,"height":80}]'`,
			},
			hint: diagramHint,
			flags: withGeometry(map[string]flagUX{
				"title":     {def: "Excalidraw Diagram"},
				"nodeId":    {also: []string{"id"}},
				"elements":  {also: []string{"elements-json"}},
				"timeoutMs": {positive: true, eg: "30000"},
			}),
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.String("kind", "", "external app kind: excalidraw (the only one)")
				f.String("elements-file", "", "file holding the Excalidraw elements (wins over --elements)")
				f.String("initial-file", "", "alias of --elements-file")
			},
			prepare: prepareDiagram,
			print:   printAppOpened,
			aliases: []alias{{path: "diagram add", short: "Add an Excalidraw diagram (external-app add --kind excalidraw)",
				example: []string{`pmx-canvas diagram add --title "Architecture"`, `pmx-canvas external-app add --kind excalidraw --title "Diagram"`}}},
		},
		"mcpapp.open": {
			short: "Open an external MCP App (a tool's ui:// app) as an external-app node",
			long: `Connect to an MCP server — a command started over stdio (--command, --arg,
--cwd, --env) or a Streamable HTTP endpoint (--url, --header) — call --tool-name
with --tool-arguments and show the ui:// app it declares. --node-id reopens the
app in that node. A server bound beyond loopback starts only the commands its
--allow-app-command names.`,
			example: []string{
				`pmx-canvas external-app open --tool-name show_counter --command ./counter-server`,
				`pmx-canvas external-app open --tool-name create_view --url https://mcp.excalidraw.com/mcp --tool-arguments '{"elements":"[]"}'`,
			},
			hint: appOpenHint,
			flags: withGeometry(map[string]flagUX{
				"toolName":  {required: true},
				"nodeId":    {also: []string{"id"}},
				"timeoutMs": {positive: true, eg: "30000"},
			}),
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.String("command", "", "stdio: the app server's command")
				f.StringArray("arg", nil, "stdio: an argument of the command (repeatable)")
				f.String("cwd", "", "stdio: the command's working directory")
				f.StringArray("env", nil, "stdio: NAME=VALUE added to its environment (repeatable)")
				f.String("url", "", "http: the app server's Streamable HTTP endpoint")
				f.StringArray("header", nil, "http: Name: value request header (repeatable)")
				f.String("tool-arguments", "", "the tool's arguments, a JSON object")
			},
			prepare: prepareAppOpen,
			print:   printAppOpened,
		},
		"extapp.call-tool": {
			short: "Call a tool of an app session's server (what an app does through its host)",
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("arguments", "", "the tool's arguments, a JSON object")
			},
			prepare: func(c *opCall) error { return jsonObjectFlag(c, "arguments", "arguments") },
		},
		"extapp.model-context": {
			short: "Set what an app wants the model to see on its node (appModelContext)",
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("content", "", "MCP content blocks, a JSON array")
				cmd.Flags().String("structured-content", "", "structured content, a JSON object")
			},
			prepare: func(c *opCall) error {
				if err := jsonFlag(c, "content", "content", "["); err != nil {
					return err
				}
				return jsonObjectFlag(c, "structured-content", "structuredContent")
			},
		},
	})
}

// prepareDiagram checks --kind and reads the elements.
func prepareDiagram(c *opCall) error {
	if commandWords(c.cmd) == "external-app add" {
		if kind, _ := c.cmd.Flags().GetString("kind"); kind != "excalidraw" {
			return die(diagramHint, "Unsupported external app kind.")
		}
	}
	f := c.cmd.Flags()
	for _, name := range []string{"elements-file", "initial-file"} {
		if p, _ := f.GetString(name); p != "" {
			b, err := os.ReadFile(p)
			if err != nil {
				return die(diagramHint, "Cannot read --%s %s: %v", name, p, err)
			}
			c.in["elements"] = string(b)
			return nil
		}
	}
	if _, ok := c.in["elements"]; !ok {
		// The reference's non-empty default: the preset's own drawing.
		c.in["elements"] = []any{diagram.DefaultElement()}
	}
	return nil
}

// prepareAppOpen builds the transport from the flags.
func prepareAppOpen(c *opCall) error {
	f := c.cmd.Flags()
	command, _ := f.GetString("command")
	u, _ := f.GetString("url")
	switch {
	case command != "" && u != "":
		return die(appOpenHint, "Give --command (stdio) or --url (http), not both.")
	case command != "":
		t := map[string]any{"type": "stdio", "command": command}
		if args, _ := f.GetStringArray("arg"); len(args) > 0 {
			t["args"] = args
		}
		if cwd, _ := f.GetString("cwd"); cwd != "" {
			t["cwd"] = cwd
		}
		env, err := pairs(f, "env", "=")
		if err != nil {
			return err
		}
		if len(env) > 0 {
			t["env"] = env
		}
		c.in["transport"] = t
	case u != "":
		t := map[string]any{"type": "http", "url": u}
		headers, err := pairs(f, "header", ":")
		if err != nil {
			return err
		}
		if len(headers) > 0 {
			t["headers"] = headers
		}
		c.in["transport"] = t
	default:
		return die(appOpenHint, "Missing the app server: --command (stdio) or --url (http).")
	}
	return jsonObjectFlag(c, "tool-arguments", "toolArguments")
}

// pairs reads a repeatable NAME<sep>VALUE flag.
func pairs(f interface {
	GetStringArray(string) ([]string, error)
}, name, sep string) (map[string]string, error) {
	list, _ := f.GetStringArray(name)
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, sep)
		if !ok || strings.TrimSpace(k) == "" {
			return nil, die(appOpenHint, "Invalid --%s %q: want NAME%sVALUE", name, kv, sep)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// jsonObjectFlag puts a JSON object flag into field.
func jsonObjectFlag(c *opCall, flag, field string) error { return jsonFlag(c, flag, field, "{") }

// jsonFlag puts a JSON flag into field; its text must start with open
// ("{" an object, "[" an array).
func jsonFlag(c *opCall, flag, field, open string) error {
	text, _ := c.cmd.Flags().GetString(flag)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil || !strings.HasPrefix(strings.TrimSpace(text), open) {
		what := "a JSON object"
		if open == "[" {
			what = "a JSON array"
		}
		return die(c.b.hint(), "Invalid --%s: want %s", flag, what)
	}
	c.in[field] = v
	return nil
}

// printAppOpened prints the reply, with id set to nodeId when the call
// reused a node (the reference's {id: nodeId, …result}).
func printAppOpened(c *opCall, body json.RawMessage) error {
	var m map[string]any
	if json.Unmarshal(body, &m) == nil {
		if _, has := m["id"]; !has && m["nodeId"] != nil {
			out := ordered{{"id", m["nodeId"]}}
			for _, k := range []string{"ok", "nodeId", "toolCallId", "sessionId", "resourceUri"} {
				if v, ok := m[k]; ok {
					out = append(out, jsonobj.KV{K: k, V: v})
				}
			}
			return c.show(out)
		}
	}
	return c.show(body)
}
