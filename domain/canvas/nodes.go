package canvas

import (
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/content/primitives"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// NodeTypes are the types node.add accepts, in the reference's order.
var NodeTypes = messages.NodeTypes

// StoredTypes are every type a stored node may have.
var StoredTypes = append(append([]string{}, NodeTypes...), "json-render", "graph", "prompt", "response")

// DefaultSizes are the frame sizes used when width/height are omitted.
var DefaultSizes = map[string]Size{
	"markdown":    {640, 420},
	"html":        {720, 640},
	"mcp-app":     {960, 600},
	"image":       {480, 360},
	"ledger":      {420, 280},
	"webpage":     {520, 420},
	"json-render": {840, 620},
	"graph":       {760, 520},
	"status":      {360, 200},
	"context":     {360, 200},
	"trace":       {360, 200},
	"file":        {360, 200},
	"diff":        {720, 520},
	"mermaid":     {720, 520},
	"group":       {600, 400},
	"prompt":      {360, 200},
	"response":    {360, 200},
}

const missingTypeMessage = `node creation requires a 'type' — pass it in the JSON body ({ "type": "markdown", ... }) or as a ?type= query param. Valid types: markdown, status, context, ledger, trace, file, image, mcp-app, webpage, html, group, diff, mermaid (json-render / graph / web-artifact have dedicated endpoints).`

var redirectMessages = map[string]string{
	"json-render":  `Node type "json-render" is created via POST /api/canvas/json-render. See /api/canvas/schema for the required spec shape.`,
	"graph":        `Node type "graph" is created via POST /api/canvas/graph. See /api/canvas/schema for graphType + data fields.`,
	"web-artifact": `Node type "web-artifact" is created via POST /api/canvas/web-artifact with appTsx + title.`,
}

const (
	msgBadSize     = "Size width and height must be greater than zero."
	msgBadPosition = "Position must contain finite x and y values."
)

// NodeNotFound is the reference's 404 for a missing node.
func NodeNotFound(id string) *messages.Error {
	return messages.NotFound("Node %q not found.", id)
}

// AddOptions carry what an actor resolved for node.add outside the core:
// the workspace file or image the input names (the core does no I/O).
type AddOptions struct {
	// AllowInternal accepts the internal types prompt and response (batch).
	AllowInternal bool
	// File is the file a file node shows; FilePath (absolute) names a
	// file that does not exist (yet): the node is created marked missing.
	File     *FileSnapshot
	FilePath string
	// Image is a validated workspace image; ImageSrc a data URL or
	// http(s) URL (with ImageMime for data URLs).
	Image     *ImageInfo
	ImageSrc  string
	ImageMime string
	// WebpageURL is the webpage node's normalized URL.
	WebpageURL string
}

// AddNode creates a node from node.add input.
func AddNode(tx *Tx, in *messages.NodeAddInput, opts AddOptions) (*Node, *messages.Error) {
	allowInternal := opts.AllowInternal
	typ := strings.TrimSpace(in.Type)
	switch {
	case typ == "":
		return nil, messages.BadRequest(missingTypeMessage)
	case redirectMessages[typ] != "":
		return nil, messages.BadRequest("%s", redirectMessages[typ])
	case PrimitiveOf(in) != "":
		kind := strings.TrimSpace(PrimitiveOf(in))
		if kind == "" {
			return nil, messages.BadRequest("html-primitive nodes require a kind (or primitive): %s", primitives.KnownKinds()).With("field", "kind")
		}
		return addPrimitiveNode(tx, in, kind)
	case !contains(NodeTypes, typ) && !(allowInternal && (typ == "prompt" || typ == "response")):
		return nil, messages.BadRequest("Invalid node type: %q.", typ)
	}

	if typ == "group" {
		return addGroupNode(tx, in)
	}
	data, err := buildNodeData(typ, in)
	if err != nil {
		return nil, err
	}
	if err := applyResolved(typ, data, in, &opts, tx.Env().Now()); err != nil {
		return nil, err
	}
	size := DefaultSizes[typ]
	w, h := in.WH()
	if w != nil {
		size.Width = *w
	}
	if h != nil {
		size.Height = *h
	}
	if size.Width <= 0 || size.Height <= 0 {
		return nil, messages.BadRequest(msgBadSize)
	}

	n := &Node{Type: typ, Size: size, ZIndex: 1, Data: data}
	if x, y := in.XY(); x != nil && y != nil {
		n.Position = Point{X: *x, Y: *y}
	} else {
		n.Position = FindOpenPosition(&tx.State().Nodes, n.Size.Width, n.Size.Height)
	}
	if typ == "context" {
		// The reference docks new context widgets to the right, collapsed.
		n.DockPosition = "right"
		n.Collapsed = true
	}
	n.ID = tx.NewNodeID("node")
	if typ == "mermaid" {
		n.Data["url"] = ViewerURL(n.ID)
	}
	tx.PutNode(n)
	tx.Describe("addNode", "Added "+typ+` node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return n, nil
}

// addGroupNode creates a group from node.add input (children, childIds or
// data.children).
func addGroupNode(tx *Tx, in *messages.NodeAddInput) (*Node, *messages.Error) {
	field, raw := "childIds", in.ChildIDs
	if in.Children != nil {
		field, raw = "children", in.Children
	} else if raw == nil {
		if c, ok := in.Data["children"]; ok {
			field, raw = "data.children", c
		}
	}
	var ids []string
	if raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, messages.BadRequest("Cannot create group: %q must be an array of node IDs.", field)
		}
		for _, e := range list {
			id, isString := e.(string)
			if !isString || id == "" {
				return nil, messages.BadRequest("Cannot create group: %q must contain only non-empty node IDs.", field)
			}
			ids = append(ids, id)
		}
	}
	ids, err := checkMembers(tx, "", ids, "Cannot create group", true)
	if err != nil {
		return nil, err
	}
	spec := GroupSpec{ChildIDs: ids, Data: in.Data}
	spec.X, spec.Y = in.XY()
	spec.W, spec.H = in.WH()
	if in.Title != nil {
		spec.Title = *in.Title
	} else if t, ok := in.Data["title"].(string); ok {
		spec.Title = t
	}
	if in.Color != nil {
		spec.Color = *in.Color
	}
	if in.ChildLayout != nil {
		spec.ChildLayout = *in.ChildLayout
	}
	delete(spec.Data, "children")
	return CreateGroup(tx, spec)
}

// titleOrID names a node in history descriptions: data.title, else its id.
func titleOrID(n *Node) string {
	if t, ok := n.Data["title"].(string); ok && t != "" {
		return t
	}
	return n.ID
}

func itoa(n int) string { return strconv.Itoa(n) }

// buildNodeData builds node.data for a new node: the given data object, then
// the type's top-level fields, which win over the same keys in data.
func buildNodeData(typ string, in *messages.NodeAddInput) (map[string]any, *messages.Error) {
	data := make(map[string]any, len(in.Data)+4)
	for k, v := range in.Data {
		data[k] = v
	}
	setIf := func(key string, v *string) {
		if v != nil && *v != "" {
			data[key] = *v
		}
	}
	content := in.Content
	switch typ {
	case "image":
		if content == nil {
			content = in.Path
		}
	case "webpage":
		u := in.URL
		if u == nil || *u == "" {
			u = content
		}
		if u == nil || strings.TrimSpace(*u) == "" {
			return nil, messages.BadRequest("Webpage nodes require a non-empty URL.").With("field", "url")
		}
		data["url"] = strings.TrimSpace(*u)
		title := ""
		if in.Title != nil {
			title = strings.TrimSpace(*in.Title)
		} else if t, ok := in.Data["title"].(string); ok {
			title = strings.TrimSpace(t)
		}
		if title != "" {
			data["title"], data["titleSource"] = title, "user"
		} else {
			data["title"], data["titleSource"] = data["url"], "page"
		}
		// The fetch follows at once (the invoker's, or the Content
		// actor's for batch entries).
		data["status"] = "fetching"
		for _, k := range []string{"content", "excerpt"} {
			if _, isString := data[k].(string); !isString {
				data[k] = ""
			}
		}
	}
	setIf("title", in.Title)
	if typ != "webpage" {
		setIf("content", content)
	} else if in.URL != nil && content != nil {
		setIf("content", content)
	}
	if typ == "image" && in.Path != nil && *in.Path != "" {
		data["path"] = *in.Path
	}
	if in.StrictSize != nil && *in.StrictSize {
		data["strictSize"] = true
	}
	switch typ {
	case "trace":
		applyTraceFields(data, &in.TraceFields)
	case "html":
		if err := applyHTMLFields(data, &in.HTMLFields); err != nil {
			return nil, err
		}
	}
	return data, nil
}

func applyTraceFields(data map[string]any, t *messages.TraceFields) {
	for key, v := range map[string]*string{
		"toolName": t.ToolName, "category": t.Category, "status": t.Status,
		"duration": t.Duration, "resultSummary": t.ResultSummary, "error": t.Error,
	} {
		if v != nil {
			data[key] = *v
		}
	}
}

func applyHTMLFields(data map[string]any, f *messages.HTMLFields) *messages.Error {
	if v, ok := data["html"]; ok && v != nil {
		if _, isString := v.(string); !isString {
			return messages.BadRequest(`HTML node field "data.html" must be a string.`)
		}
	}
	if f.HTML != nil {
		s, ok := f.HTML.(string)
		if !ok {
			return messages.BadRequest(`HTML node field "html" must be a string.`)
		}
		data["html"] = s
	}
	for key, v := range map[string]*string{"summary": f.Summary, "agentSummary": f.AgentSummary, "description": f.Description} {
		if v != nil {
			data[key] = *v
		}
	}
	if b, ok := f.Presentation.(bool); ok && b {
		data["presentation"] = true
	}
	if f.SlideTitles != nil {
		data["slideTitles"] = f.SlideTitles
	}
	if f.EmbeddedNodeIDs != nil {
		data["embeddedNodeIds"] = f.EmbeddedNodeIDs
	}
	if f.EmbeddedURLs != nil {
		data["embeddedUrls"] = f.EmbeddedURLs
	}
	if f.AxCapabilities != nil {
		data["axCapabilities"] = f.AxCapabilities
	}
	return nil
}

func toAnyList(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// UpdateNode applies node.update's merge rules.
func UpdateNode(tx *Tx, in *messages.NodeUpdateInput) (*Node, *messages.Error) {
	old, ok := tx.Node(in.ID)
	if !ok {
		return nil, NodeNotFound(in.ID)
	}
	if in.Type != nil && *in.Type != old.Type && old.Type != "graph" && old.Type != "json-render" {
		return nil, messages.BadRequest("Cannot change the type of node %q (a %s node) to %q: PATCH does not take a \"type\" field.",
			old.ID, old.Type, *in.Type)
	}
	n := old.Clone()

	x, y := in.XY()
	if x != nil {
		n.Position.X = *x
	}
	if y != nil {
		n.Position.Y = *y
	}
	w, h := in.WH()
	if w != nil {
		n.Size.Width = *w
	}
	if h != nil {
		n.Size.Height = *h
	}
	if (w != nil || h != nil) && (n.Size.Width <= 0 || n.Size.Height <= 0) {
		return nil, messages.BadRequest(msgBadSize)
	}
	if in.Collapsed != nil {
		n.Collapsed = *in.Collapsed
	}
	if in.Pinned != nil {
		n.Pinned = bool(*in.Pinned)
	}
	if in.DockPosition.Set {
		switch {
		case in.DockPosition.Null:
			n.DockPosition = ""
		case in.DockPosition.Value == "left" || in.DockPosition.Value == "right":
			n.DockPosition = in.DockPosition.Value
		default:
			return nil, messages.BadRequest(`dockPosition must be "left", "right" or null, got %q.`, in.DockPosition.Value)
		}
	}
	var childrenField string
	var childrenRaw any
	patch, isObject := in.DataObject()
	if in.Data != nil && !isObject {
		if _, rows := in.DataRows(); !rows || old.Type != "graph" {
			return nil, messages.BadRequest(`invalid input for node.update: field "data" must be an object, got %s (an array of rows patches a graph node only)`,
				messages.JSONKind(in.Data)).With("field", "data")
		}
	}
	for k, v := range patch {
		switch k {
		case "parentGroup":
			continue // membership changes go through the group routes
		case "children":
			if n.Type == "group" {
				childrenField, childrenRaw = "data.children", v
				continue
			}
		}
		n.Data[k] = v
	}
	if in.ChildIDs != nil {
		childrenField, childrenRaw = "childIds", in.ChildIDs
	}
	if in.Children != nil {
		childrenField, childrenRaw = "children", in.Children
	}
	if childrenRaw != nil && n.Type != "group" {
		return nil, messages.BadRequest("Cannot update %q: %s only applies to group nodes.", n.ID, childrenField)
	}
	if in.ArrangeLocked != nil {
		n.Data["arrangeLocked"] = *in.ArrangeLocked
	}
	if in.StrictSize != nil {
		n.Data["strictSize"] = *in.StrictSize
	}
	if in.Title != nil {
		n.Data["title"] = *in.Title
		if n.Type == "webpage" {
			n.Data["titleSource"] = "user"
		}
	}
	if in.Content != nil {
		n.Data["content"] = *in.Content
		if n.Type == "diff" {
			delete(n.Data, "summary")
			if t, _ := old.Data["title"].(string); t == diffTitleOf(old) {
				delete(n.Data, "title") // a generated title follows the diff
			}
			if err := applyDiff(n.Data, *in.Content, "content"); err != nil {
				return nil, err
			}
		}
	}
	if in.HTML != nil {
		if n.Type != "html" {
			return nil, messages.BadRequest(`Field "html" only applies to html nodes; node %q is a %s node.`, n.ID, n.Type)
		}
		s, isString := in.HTML.(string)
		if !isString {
			return nil, messages.BadRequest(`HTML node field "html" must be a string.`)
		}
		n.Data["html"] = s
	}
	if n.Type == "html" {
		_, dataHTML := patch["html"]
		explicit, _ := patch["agentSummary"].(string)
		if in.HTML != nil || dataHTML || in.Content != nil || explicit != "" || patch["summary"] != nil || patch["description"] != nil {
			applyHTMLSidecar(n.Data, explicit)
		}
	}
	if in.URL != nil && n.Type == "webpage" {
		n.Data["url"] = strings.TrimSpace(*in.URL)
	}
	if in.AxCapabilities != nil {
		merged := map[string]any{}
		if prev, ok := n.Data["axCapabilities"].(map[string]any); ok {
			for k, v := range prev {
				merged[k] = v
			}
		}
		for k, v := range in.AxCapabilities {
			merged[k] = v
		}
		n.Data["axCapabilities"] = merged
	}
	if n.Type == "trace" {
		applyTraceFields(n.Data, &in.TraceFields)
	}
	tx.PutNode(n)
	moved := n.Position != old.Position
	if n.Type == "group" {
		if moved {
			// Moving a group moves its members with it.
			dx, dy := n.Position.X-old.Position.X, n.Position.Y-old.Position.Y
			for _, m := range members(tx, n) {
				mc := m.Clone()
				mc.Position = Point{m.Position.X + dx, m.Position.Y + dy}
				tx.PutNode(mc)
			}
		}
		if childrenRaw != nil {
			if err := replaceChildren(tx, n, childrenField, childrenRaw); err != nil {
				return nil, err
			}
		}
	} else if parent := n.ParentGroup(); parent != "" && (moved || n.Size != old.Size) {
		refitGroup(tx, parent)
	}
	tx.Describe("updateNode", `Updated node "`+titleOrID(old)+`"`)
	tx.EmitLayout()
	n, _ = tx.Node(n.ID)
	return n, nil
}

// RemoveNode deletes a node with its edges, its context pin and its group
// membership.
func RemoveNode(tx *Tx, id string) *messages.Error {
	n, ok := tx.Node(id)
	if !ok {
		return NodeNotFound(id)
	}
	for _, eid := range tx.State().Edges.Touching(id) {
		tx.DeleteEdge(eid)
	}
	if tx.State().IsPinned(id) {
		pins := make([]string, 0, len(tx.State().Pins))
		for _, p := range tx.State().Pins {
			if p != id {
				pins = append(pins, p)
			}
		}
		tx.SetPins(pins)
	}
	if parent := n.ParentGroup(); parent != "" {
		if g, found := tx.Node(parent); found {
			kept := []string{}
			for _, c := range g.Children() {
				if c != id {
					kept = append(kept, c)
				}
			}
			gc := g.Clone()
			gc.Data["children"] = toAnyList(kept)
			tx.PutNode(gc)
		}
		defer refitGroup(tx, parent) // after the member is gone
	}
	if n.Type == "group" {
		for _, cid := range n.Children() {
			if child, found := tx.Node(cid); found && child.ParentGroup() == id {
				c := child.Clone()
				delete(c.Data, "parentGroup")
				tx.PutNode(c)
			}
		}
	}
	tx.DeleteNode(id)
	tx.Describe("removeNode", "Removed "+n.Type+` node "`+titleOrID(n)+`"`)
	tx.EmitLayout()
	return nil
}
