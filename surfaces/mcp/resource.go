package mcpapi

// Change classes: which kind of state an event touched. Resource
// notifications go to the resources whose class matches (reference §1.5).
const (
	ClassNodes      = "nodes"
	ClassPins       = "pins"
	ClassAX         = "ax"
	ClassAXTimeline = "ax-timeline"
)

// Resource is one MCP resource.
type Resource struct {
	URI         string
	Name        string
	Description string
	MimeType    string
	// Meta is the content's _meta (an MCP App's ui: csp, prefersBorder).
	Meta map[string]any
	// Read renders the resource's text for the call's canvas.
	Read func(c *Call) (string, error)
	// Classes are the change classes after which subscribers of this
	// resource are notified (empty: never).
	Classes []string
}

// resources collects the fixed resources in resources/list order
// (registered by resources_*.go).
var resources []*Resource

func defineResources(rs ...*Resource) { resources = append(resources, rs...) }

// Resources returns the fixed resources in resources/list order.
func Resources() []*Resource { return resources }

// Prompt is the one prompt, pmx-current-context.
type Prompt struct {
	Name        string
	Description string
	// Text renders the prompt's single user message.
	Text func(c *Call) (string, error)
}

var prompts []*Prompt

func definePrompts(ps ...*Prompt) { prompts = append(prompts, ps...) }

// Prompts returns the prompts.
func Prompts() []*Prompt { return prompts }
