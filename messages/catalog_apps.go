package messages

import "time"

// appOps are the hosted-app operations. mcpapp.open and diagram.open
// connect to an external MCP server, call its tool and show the ui:// app
// it returns in an external-app node; the extapp.* calls are the browser
// app host's bridge to that server (tool calls, resources, model context).
// The I/O runs in the caller's goroutine (OwnerWorkspace); each app
// session's lifecycle is one actor, and nodes are written by the Layout.
var appOps = []*Op{
	{
		Name: "mcpapp.open", Owner: OwnerWorkspace, Kind: Write, GoMethod: "OpenMCPApp",
		Runs:     AppMaxTimeout + time.Minute,
		Summary:  "Connect to an external MCP server (stdio or Streamable HTTP), call a tool that declares a ui:// app and show the app in an external-app node (or refresh one in place).",
		NewInput: input[MCPAppOpenInput](),
		Output:   output[AppOpened](),
		CLI:      &CLIBinding{Path: "external-app open"},
		HTTP:     []Route{{"POST", "/api/canvas/mcp-app/open"}},
		MCP: []MCPBinding{{Tool: "canvas_open_mcp_app", Composite: "canvas_app", Action: "open-mcp-app",
			Description: "Call a tool on an external MCP server (stdio or Streamable HTTP) and show the ui:// app it returns in an " +
				"mcp-app node, or refresh an existing app node in place with nodeId. Returns the node id, tool call id, session id " +
				"and resource URI."}},
	},
	{
		Name: "diagram.open", Owner: OwnerWorkspace, Kind: Write, GoMethod: "OpenDiagram",
		Runs:     AppMaxTimeout + time.Minute,
		Summary:  "Show Excalidraw elements through the Excalidraw MCP app (create_view) in an external-app node, or update a diagram node in place.",
		NewInput: input[DiagramOpenInput](),
		Output:   output[AppOpened](),
		CLI:      &CLIBinding{Path: "external-app add"},
		HTTP:     []Route{{"POST", "/api/canvas/diagram"}},
		MCP: []MCPBinding{{Tool: "canvas_add_diagram", Composite: "canvas_app", Action: "diagram",
			Description: "Show an Excalidraw diagram on the canvas from a list of elements, through the hosted Excalidraw app; " +
				"nodeId updates an existing diagram in place. Returns the same shape as canvas_open_mcp_app."}},
	},
	{
		Name: "extapp.call-tool", Owner: OwnerWorkspace, Kind: Write, GoMethod: "ExtAppCallTool",
		Summary:  "Call a tool of an app session's server for the app (the MCP Apps host bridge); the result is recorded on the app's node when nodeId names it.",
		NewInput: input[ExtAppCallToolInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app call-tool"},
		HTTP:     []Route{{"POST", "/api/ext-app/call-tool"}},
	},
	{
		Name: "extapp.read-resource", Owner: OwnerWorkspace, Kind: Read, GoMethod: "ExtAppReadResource",
		Summary:  "Read a resource of an app session's server (the MCP Apps host bridge).",
		NewInput: input[ExtAppReadResourceInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app read-resource"},
		HTTP:     []Route{{"POST", "/api/ext-app/read-resource"}},
	},
	{
		Name: "extapp.list-tools", Owner: OwnerWorkspace, Kind: Read, GoMethod: "ExtAppListTools",
		Summary:  "List the tools of an app session's server.",
		NewInput: input[ExtAppSessionInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app list-tools"},
		HTTP:     []Route{{"POST", "/api/ext-app/list-tools"}},
	},
	{
		Name: "extapp.list-resources", Owner: OwnerWorkspace, Kind: Read, GoMethod: "ExtAppListResources",
		Summary:  "List the resources of an app session's server.",
		NewInput: input[ExtAppSessionInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app list-resources"},
		HTTP:     []Route{{"POST", "/api/ext-app/list-resources"}},
	},
	{
		Name: "extapp.list-resource-templates", Owner: OwnerWorkspace, Kind: Read, GoMethod: "ExtAppListResourceTemplates",
		Summary:  "List the resource templates of an app session's server.",
		NewInput: input[ExtAppSessionInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app list-resource-templates"},
		HTTP:     []Route{{"POST", "/api/ext-app/list-resource-templates"}},
	},
	{
		Name: "extapp.list-prompts", Owner: OwnerWorkspace, Kind: Read, GoMethod: "ExtAppListPrompts",
		Summary:  "List the prompts of an app session's server.",
		NewInput: input[ExtAppSessionInput](),
		Output:   output[ExtAppResult](),
		CLI:      &CLIBinding{Path: "external-app list-prompts"},
		HTTP:     []Route{{"POST", "/api/ext-app/list-prompts"}},
	},
	{
		Name: "extapp.model-context", Owner: OwnerLayout, Kind: Write, GoMethod: "ExtAppModelContext",
		Summary:  "Record what an app wants the model to see (content, structuredContent) as its node's appModelContext.",
		NewInput: input[ExtAppModelContextInput](),
		CLI:      &CLIBinding{Path: "external-app model-context", Args: []string{"nodeId"}},
		HTTP:     []Route{{"POST", "/api/ext-app/model-context"}},
	},
}

// AppMaxTimeout is the most an app request's timeoutMs may ask for (the
// default is content/mcpapp's, 30 s).
const AppMaxTimeout = 30 * time.Minute
