package messages

// Inputs of the hosted-app operations: external MCP Apps (mcpapp.open),
// the Excalidraw diagram preset (diagram.open) and the ext-app bridge the
// browser's app host calls (extapp.*).

// AppTransport says how to reach an external MCP server: a command the
// server starts (stdio) or a Streamable HTTP endpoint.
type AppTransport struct {
	Type    string            `json:"type" doc:"stdio or http."`
	Command string            `json:"command" doc:"stdio: the command to run."`
	Args    []string          `json:"args" doc:"stdio: its arguments."`
	Cwd     string            `json:"cwd" doc:"stdio: its working directory."`
	Env     map[string]string `json:"env" doc:"stdio: environment variables added to the server's."`
	URL     string            `json:"url" doc:"http: the endpoint URL."`
	Headers map[string]string `json:"headers" doc:"http: request headers (for example Authorization)."`
}

// MCPAppOpenInput is the input of mcpapp.open (POST /api/canvas/mcp-app/open).
type MCPAppOpenInput struct {
	ToolName      *string        `json:"toolName" doc:"Tool to call on the external server; it must declare a ui:// app resource (_meta.ui.resourceUri)." pmx:"required,handler"`
	ServerName    *string        `json:"serverName" doc:"Display name of the external server (default: the name it reports)."`
	ToolArguments map[string]any `json:"toolArguments" cli:"-" doc:"Arguments passed to the tool."`
	NodeID        *string        `json:"nodeId" doc:"An external-app node to open the app in, in place; absent: a new node (or a pending one of the same server and tool)."`
	Title         *string        `json:"title" doc:"Node title (default: the tool's title)."`
	X             *float64       `json:"x" doc:"World x; auto-placed when absent."`
	Y             *float64       `json:"y" doc:"World y; auto-placed when absent."`
	Width         *float64       `json:"width" min:"1" doc:"Frame width." default:"720"`
	Height        *float64       `json:"height" min:"1" doc:"Frame height." default:"500"`
	TimeoutMs     *float64       `json:"timeoutMs" min:"1" max:"1800000" doc:"Timeout of each request to the external server, in milliseconds." default:"30000"`
	Transport     *AppTransport  `json:"transport" cli:"-" schema:"appTransport" doc:"How to reach the server: {type:\"stdio\", command, args?, cwd?, env?} or {type:\"http\", url, headers?}. stdio servers start only on a loopback-bound server unless serve --allow-app-command names the command." pmx:"required,handler"`
}

// DiagramOpenInput is the input of diagram.open (POST /api/canvas/diagram).
type DiagramOpenInput struct {
	Elements  any      `json:"elements" schema:"excalidrawElements" doc:"Excalidraw elements: an array of element objects, or that array as a JSON string." pmx:"required,handler"`
	NodeID    *string  `json:"nodeId" doc:"An existing diagram node to update in place."`
	Title     *string  `json:"title" doc:"Node title (default: the app's)."`
	X         *float64 `json:"x" doc:"World x; auto-placed when absent."`
	Y         *float64 `json:"y" doc:"World y; auto-placed when absent."`
	Width     *float64 `json:"width" min:"1" doc:"Frame width." default:"720"`
	Height    *float64 `json:"height" min:"1" doc:"Frame height." default:"500"`
	TimeoutMs *float64 `json:"timeoutMs" min:"1" max:"1800000" doc:"Timeout of each request to the diagram app, in milliseconds (cold starts can be slow; default 30000)."`
}

// ExtAppSessionInput is the input of the ext-app list calls.
type ExtAppSessionInput struct {
	SessionID *string `json:"sessionId" doc:"The app session (data.appSessionId of its node)." pmx:"required,handler"`
}

// ExtAppCallToolInput is the input of extapp.call-tool.
type ExtAppCallToolInput struct {
	SessionID *string        `json:"sessionId" doc:"The app session (data.appSessionId of its node)." pmx:"required,handler"`
	ToolName  *string        `json:"toolName" doc:"Tool to call on the app's server (app-only tools included)." pmx:"required,handler"`
	Arguments map[string]any `json:"arguments" cli:"-" doc:"The tool's arguments."`
	NodeID    *string        `json:"nodeId" doc:"The app's node: its toolResult (a call of its own tool) or appModelContext (any other tool) records the result."`
}

// ExtAppReadResourceInput is the input of extapp.read-resource.
type ExtAppReadResourceInput struct {
	SessionID *string `json:"sessionId" doc:"The app session (data.appSessionId of its node)." pmx:"required,handler"`
	URI       *string `json:"uri" doc:"The resource to read (ui://…)." pmx:"required,handler"`
}

// ExtAppModelContextInput is the input of extapp.model-context.
type ExtAppModelContextInput struct {
	NodeID            *string        `json:"nodeId" doc:"The node whose appModelContext the app sets." pmx:"required,handler"`
	Content           []any          `json:"content" cli:"-" doc:"MCP content blocks the app wants the model to see."`
	StructuredContent map[string]any `json:"structuredContent" cli:"-" doc:"Structured data the app wants the model to see."`
}
