package canvas

import (
	"strings"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// NodeTypes are the types node.add accepts, in the reference's order.
var NodeTypes = []string{"markdown", "status", "context", "ledger", "trace", "file", "image", "mcp-app", "webpage", "html", "group"}

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
	"group":       {600, 400},
	"prompt":      {360, 200},
	"response":    {360, 200},
}

const missingTypeMessage = `node creation requires a 'type' — pass it in the JSON body ({ "type": "markdown", ... }) or as a ?type= query param. Valid types: markdown, status, context, ledger, trace, file, image, mcp-app, webpage, html, group (json-render / graph / web-artifact have dedicated endpoints).`

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

// AddNode creates a node from node.add input. Internal types (prompt,
// response) are accepted only when allowInternal is set (batch).
func AddNode(tx *Tx, in *messages.NodeAddInput, allowInternal bool) (*Node, *messages.Error) {
	typ := strings.TrimSpace(in.Type)
	switch {
	case typ == "":
		return nil, messages.BadRequest(missingTypeMessage)
	case redirectMessages[typ] != "":
		return nil, messages.BadRequest("%s", redirectMessages[typ])
	case typ == "html-primitive" || (typ == "html" && (in.Primitive != nil || in.Kind != nil)):
		return nil, messages.BadRequest(`HTML primitives are not available in this build yet; create a plain "html" node with your own markup.`)
	case !contains(NodeTypes, typ) && !(allowInternal && (typ == "prompt" || typ == "response")):
		return nil, messages.BadRequest("Invalid node type: %q.", typ)
	}

	data, err := buildNodeData(typ, in)
	if err != nil {
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
	placed := false
	x, y := in.XY()
	if x != nil && y != nil {
		n.Position = Point{X: *x, Y: *y}
		placed = true
	}
	var members []string
	if typ == "group" {
		n.ZIndex = 0
		var err *messages.Error
		if members, placed, err = initGroup(tx, n, in, placed); err != nil {
			return nil, err
		}
	}
	if typ == "context" {
		// The reference docks new context widgets to the right, collapsed.
		n.DockPosition = "right"
		n.Collapsed = true
	}
	if !placed {
		n.Position = FindOpenPosition(tx.State().Nodes, n.Size.Width, n.Size.Height)
	}
	prefix := "node"
	if typ == "group" {
		prefix = "group"
	}
	n.ID = tx.NewNodeID(prefix)
	tx.PutNode(n)
	for _, id := range members {
		if child, ok := tx.Node(id); ok {
			c := child.Clone()
			c.Data["parentGroup"] = n.ID
			tx.PutNode(c)
		}
	}
	tx.EmitLayout()
	return n, nil
}

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
		if u != nil && *u != "" {
			data["url"] = strings.TrimSpace(*u)
		}
		if in.Title == nil || *in.Title == "" {
			if s, ok := data["url"].(string); ok {
				data["title"] = s
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
	case "group":
		if in.Title == nil || *in.Title == "" {
			if _, ok := data["title"].(string); !ok {
				data["title"] = "Group"
			}
		}
		if in.Color != nil && *in.Color != "" {
			data["color"] = *in.Color
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

// initGroup validates a group's children from node.add input, fills the
// group's data and, for a fit frame, its geometry. It returns the members
// (which AddNode points at the group once it has an id) and whether the frame
// is now positioned.
func initGroup(tx *Tx, n *Node, in *messages.NodeAddInput, placed bool) ([]string, bool, *messages.Error) {
	field, raw := "childIds", in.ChildIDs
	if in.Children != nil {
		field, raw = "children", in.Children
	} else if raw == nil {
		if c, ok := n.Data["children"]; ok {
			field, raw = "data.children", c
		}
	}
	children := []string{}
	if raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, false, messages.BadRequest("Cannot create group: %q must be an array of node IDs.", field)
		}
		var missing, invalid []string
		for _, e := range list {
			id, isString := e.(string)
			if !isString || id == "" {
				return nil, false, messages.BadRequest("Cannot create group: %q must contain only non-empty node IDs.", field)
			}
			child, found := tx.Node(id)
			switch {
			case !found:
				missing = append(missing, id)
			case child.Type == "group":
				invalid = append(invalid, id)
			case !contains(children, id):
				children = append(children, id)
			}
		}
		if len(missing) > 0 {
			return nil, false, messages.BadRequest("Cannot create group: Missing child node ID(s): %s.", strings.Join(missing, ", "))
		}
		if len(invalid) > 0 {
			return nil, false, messages.BadRequest("Cannot create group: Invalid group child ID(s): %s.", strings.Join(invalid, ", "))
		}
	}
	x, y := in.XY()
	w, h := in.WH()
	frameMode := "fit"
	if x != nil || y != nil || w != nil || h != nil {
		frameMode = "manual"
	}
	n.Data["children"] = toAnyList(children)
	n.Data["frameMode"] = frameMode
	if len(children) > 0 && x == nil && y == nil {
		b := fitBounds(tx, children)
		n.Position = Point{X: b.X, Y: b.Y}
		n.Size = Size{Width: b.W, Height: b.H}
		placed = true
	}
	return children, placed, nil
}

func toAnyList(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// Group frame geometry (server side).
const (
	GroupPad      = 56.0
	GroupTitlebar = 32.0
)

// fitBounds is the fit frame around the given (non-group) members.
func fitBounds(tx *Tx, ids []string) Rect {
	first := true
	var minX, minY, maxX, maxY float64
	for _, id := range ids {
		n, ok := tx.Node(id)
		if !ok || n.Type == "group" {
			continue
		}
		r := n.Rect()
		if first {
			minX, minY, maxX, maxY = r.X, r.Y, r.Right(), r.Bottom()
			first = false
			continue
		}
		minX, minY = min(minX, r.X), min(minY, r.Y)
		maxX, maxY = max(maxX, r.Right()), max(maxY, r.Bottom())
	}
	if first {
		return Rect{}
	}
	return Rect{
		X: minX - GroupPad, Y: minY - GroupPad - GroupTitlebar,
		W: (maxX - minX) + 2*GroupPad, H: (maxY - minY) + 2*GroupPad + GroupTitlebar,
	}
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
	for k, v := range in.Data {
		n.Data[k] = v
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
	tx.EmitLayout()
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
	tx.EmitLayout()
	return nil
}
