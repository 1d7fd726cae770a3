package ax

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// The interaction envelope (ax.md §8): a node-originated, capability-gated
// request that maps onto one AX operation.

// Delivery modes of node capabilities (stored, unused).
var Deliveries = []string{"record-only", "notify-agent", "send-to-agent"}

// ActorKinds are the accepted envelope actor kinds.
var ActorKinds = []string{"human", "agent", "system"}

// envelopeSurfaces is Surfaces in the reference's schema order (for the
// error text).
var envelopeSurfaces = messages.InteractionSurfaces

// Interaction rejection codes (ax.md §8.2).
const (
	RejectInvalidEnvelope  = "invalid-envelope"
	RejectUnknownNode      = "unknown-node"
	RejectAXDisabled       = "ax-disabled"
	RejectNotAllowed       = "not-allowed"
	RejectRequiresApproval = "requires-approval"
	RejectInvalidPayload   = "invalid-payload"
	RejectWorkItemNotFound = "work-item-not-found"
	RejectApprovalNotFound = "approval-not-found"
	// Ours: the targets of the workbench's answers.
	RejectElicitationNotFound = "elicitation-not-found"
	RejectModeRequestNotFound = "mode-request-not-found"
	RejectInvalidReviewAnchor = "invalid-review-anchor"
	RejectUnknownCommand      = "unknown-command"
	RejectNotExecutable       = "not-executable"
)

func ix(types ...string) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = "ax." + t
	}
	return out
}

// defaultCapabilities are the per-type defaults and ceilings (ax.md §8.3).
var defaultCapabilities = map[string]Capabilities{
	"markdown":    {true, ix("steer", "work.create", "evidence.add", "command.invoke", "event.record"), nil, "notify-agent"},
	"context":     {true, ix("focus.set", "steer", "evidence.add", "command.invoke", "event.record"), nil, "notify-agent"},
	"status":      {true, ix("work.create", "work.update", "approval.request", "mode.request", "event.record"), nil, "notify-agent"},
	"file":        {true, ix("evidence.add", "review.add", "focus.set", "event.record"), nil, "record-only"},
	"json-render": {true, ix("work.create", "work.update", "evidence.add", "elicitation.request", "event.record"), nil, "record-only"},
	"graph":       {true, ix("evidence.add", "focus.set", "event.record"), nil, "record-only"},
	"ledger":      {true, ix("evidence.add", "event.record"), nil, "record-only"},
	"trace":       {true, ix("evidence.add", "event.record"), nil, "record-only"},
	"image":       {true, ix("evidence.add", "review.add"), nil, "record-only"},
	"webpage":     {true, ix("evidence.add", "review.add", "focus.set", "event.record"), nil, "record-only"},
	"group":       {true, ix("focus.set", "work.create", "command.invoke", "event.record"), nil, "record-only"},
	"html": {false, ix("work.create", "work.update", "steer", "approval.request", "review.add", "evidence.add",
		"focus.set", "elicitation.request", "mode.request", "command.invoke", "event.record"), nil, "notify-agent"},
	"mcp-app":  {false, ix("event.record", "evidence.add", "work.create", "work.update", "focus.set", "elicitation.request"), nil, "record-only"},
	"prompt":   {false, ix("event.record"), nil, "record-only"},
	"response": {false, ix("event.record"), nil, "record-only"},
}

// interactionTypeList keeps the entries of v that are interaction types
// (dropping unknown strings and non-strings), de-duplicated.
func interactionTypeList(v any) ([]string, bool) {
	list, ok := stringsOnly(v)
	if !ok {
		return nil, false
	}
	out := []string{}
	for _, s := range list {
		if slices.Contains(InteractionTypes, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, true
}

func effectiveCapabilities(n *canvas.Node) Capabilities {
	base := Capabilities{Allowed: []string{}, RequiresApproval: []string{}, Delivery: "record-only"}
	if n == nil {
		return base
	}
	if d, ok := defaultCapabilities[n.Type]; ok {
		base = d
	}
	eff := Capabilities{
		Enabled:          base.Enabled,
		Allowed:          slices.Clone(orEmpty(base.Allowed)),
		RequiresApproval: []string{},
		Delivery:         base.Delivery,
	}
	override, _ := n.Data["axCapabilities"].(map[string]any)
	if override == nil {
		return eff
	}
	if v, ok := override["enabled"].(bool); ok {
		eff.Enabled = v
	}
	if list, ok := interactionTypeList(override["allowed"]); ok {
		eff.Allowed = slices.DeleteFunc(list, func(t string) bool { return !slices.Contains(base.Allowed, t) })
	}
	if list, ok := interactionTypeList(override["requiresApproval"]); ok {
		eff.RequiresApproval = slices.DeleteFunc(list, func(t string) bool { return !slices.Contains(eff.Allowed, t) })
	}
	if v, ok := override["delivery"].(string); ok && slices.Contains(Deliveries, v) {
		eff.Delivery = v
	}
	return eff
}

// --- Envelope validation (zod-like issue texts, ax.md §8.2) ---

// issues collects validation problems as "<path>: <message>".
type issues []string

func (is *issues) add(path, msg string) { *is = append(*is, path+": "+msg) }

// received names a decoded JSON value's type the way zod does.
func received(v any, present bool) string {
	if !present {
		return "undefined"
	}
	return messages.JSONKind(v)
}

func expected(kind string, v any, present bool) string {
	return "Invalid input: expected " + kind + ", received " + received(v, present)
}

func invalidOption(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = `"` + v + `"`
	}
	return "Invalid option: expected one of " + strings.Join(quoted, "|")
}

func rejectEnvelope(in *messages.AxInteractionInput, is issues) *Rejection {
	r := &Rejection{Status: 400, Code: RejectInvalidEnvelope, Error: strings.Join(is, "; "), Type: "unknown"}
	if in != nil {
		if s, ok := in.Type.(string); ok {
			r.Type = s
		}
		if s, ok := in.SourceNodeID.(string); ok {
			r.SourceNodeID = s
		}
	}
	return r
}

func parseInteraction(in *messages.AxInteractionInput) (*Interaction, *Rejection) {
	if in == nil {
		in = &messages.AxInteractionInput{}
	}
	var is issues
	typ, ok := in.Type.(string)
	if !ok || !slices.Contains(InteractionTypes, typ) {
		is.add("type", invalidOption(InteractionTypes))
	}
	surface, badSurface := "", false
	if in.SourceSurface != nil {
		s, ok := in.SourceSurface.(string)
		badSurface = !ok || !slices.Contains(Surfaces, s)
		if !badSurface {
			surface = s
		}
	}
	// The workbench speaks for no node: its sourceNodeId is optional.
	src, ok := in.SourceNodeID.(string)
	switch {
	case surface == WorkbenchSurface && in.SourceNodeID == nil:
	case !ok:
		is.add("sourceNodeId", expected("string", in.SourceNodeID, in.SourceNodeID != nil))
	case src == "" && surface != WorkbenchSurface:
		is.add("sourceNodeId", "sourceNodeId is required")
	}
	if badSurface {
		is.add("sourceSurface", invalidOption(envelopeSurfaces))
	}
	if in.Actor != nil {
		actor, ok := in.Actor.(map[string]any)
		if !ok {
			is.add("actor", expected("object", in.Actor, true))
		} else {
			if k, ok := actor["kind"].(string); !ok || !slices.Contains(ActorKinds, k) {
				is.add("actor.kind", invalidOption(ActorKinds))
			}
			for _, key := range []string{"id", "displayName"} {
				if v, present := actor[key]; present {
					if _, ok := v.(string); !ok {
						is.add("actor."+key, expected("string", v, true))
					}
				}
			}
		}
	}
	payload := map[string]any{}
	if raw := strings.TrimSpace(string(in.Payload)); raw != "" {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			is.add("payload", "Invalid input: malformed JSON")
		} else if m, ok := v.(map[string]any); ok {
			payload = m
		} else {
			is.add("payload", expected("record", v, true))
		}
	}
	if in.CorrelationID != nil {
		if _, ok := in.CorrelationID.(string); !ok {
			is.add("correlationId", expected("string", in.CorrelationID, true))
		}
	}
	if in.Metadata != nil {
		if _, ok := in.Metadata.(map[string]any); !ok {
			is.add("metadata", expected("record", in.Metadata, true))
		}
	}
	if len(is) > 0 {
		return nil, rejectEnvelope(in, is)
	}
	source := in.Source
	if surface == WorkbenchSurface {
		source = WorkbenchSource // the person deciding is at the browser
	}
	return &Interaction{
		Type:          typ,
		SourceNodeID:  src,
		SourceSurface: surface,
		Payload:       payload,
		Scoped:        slices.Contains(Surfaces[:3], surface),
		Source:        source,
	}, nil
}

func (it *Interaction) reject(status int, code, msg string) *Rejection {
	return &Rejection{Status: status, Code: code, Error: msg, Type: it.Type, SourceNodeID: it.SourceNodeID}
}

func checkInteraction(it *Interaction, nodes *canvas.State) *Rejection {
	if it == nil {
		return rejectEnvelope(nil, issues{"envelope: missing"})
	}
	if it.SourceSurface == WorkbenchSurface {
		return checkWorkbench(it)
	}
	var node *canvas.Node
	if nodes != nil {
		node, _ = nodes.Nodes.Get(it.SourceNodeID)
	}
	if node == nil {
		return it.reject(404, RejectUnknownNode, `Source node "`+it.SourceNodeID+`" not found.`)
	}
	caps := effectiveCapabilities(node)
	switch {
	case !caps.Enabled:
		return it.reject(403, RejectAXDisabled, `AX interactions are not enabled for node "`+it.SourceNodeID+`".`)
	case !slices.Contains(caps.Allowed, it.Type):
		return it.reject(403, RejectNotAllowed, `Node type "`+node.Type+`" cannot emit "`+it.Type+`".`)
	case slices.Contains(caps.RequiresApproval, it.Type):
		return it.reject(403, RejectRequiresApproval, `"`+it.Type+`" requires approval routing, which is not yet available.`)
	}
	return nil
}

// workItemNotFound is the rejection for an ax.work.update whose target is
// missing (ax.md §8.2 7a).
func workItemNotFound(it *Interaction, id string) *Rejection {
	return it.reject(404, RejectWorkItemNotFound, `Work item "`+id+`" not found.`)
}

// approvalNotFound is the rejection for an ax.approval.resolve whose target
// is missing or resolved (ax.md §8.2 7b).
func approvalNotFound(it *Interaction, id string) *Rejection {
	return it.reject(404, RejectApprovalNotFound, `Approval "`+id+`" not found or already resolved.`)
}

// --- Payload schemas (ax.md §8.4) ---

// A payload's fields are the input fields of the operation its type runs
// (messages.InteractionPayload): one schema for an operation and the
// interaction that runs it. Required text fields must have non-whitespace
// content: unlike the reference (whose min(1) accepted "   "),
// interactions validate like the operations they map onto.

type field = messages.PayloadField

const (
	fString      = messages.PayloadString
	fText        = messages.PayloadText
	fEnum        = messages.PayloadEnum
	fStringArray = messages.PayloadStringArray
	fRecord      = messages.PayloadRecord
)

func validatePayload(fields []field, p map[string]any) issues {
	var is issues
	for _, f := range fields {
		v, present := p[f.Name]
		if !present || (v == nil && f.Nullable) {
			if f.Required {
				if f.Kind == fEnum {
					is.add(f.Name, invalidOption(f.Enum))
				} else {
					is.add(f.Name, expected(kindWord(f.Kind), v, present))
				}
			}
			continue
		}
		switch f.Kind {
		case fString, fText:
			s, ok := v.(string)
			switch {
			case !ok:
				is.add(f.Name, expected("string", v, true))
			case f.Kind == fText && s == "":
				is.add(f.Name, "Too small: expected string to have >=1 characters")
			case f.Kind == fText && strings.TrimSpace(s) == "":
				is.add(f.Name, "Too small: expected string to have >=1 non-whitespace characters")
			}
		case fEnum:
			if s, ok := v.(string); !ok || !slices.Contains(f.Enum, s) {
				is.add(f.Name, invalidOption(f.Enum))
			}
		case fStringArray:
			list, ok := v.([]any)
			if !ok {
				is.add(f.Name, expected("array", v, true))
				continue
			}
			for i, e := range list {
				if _, ok := e.(string); !ok {
					is.add(f.Name+"."+strconv.Itoa(i), expected("string", e, true))
				}
			}
		case fRecord:
			if _, ok := v.(map[string]any); !ok {
				is.add(f.Name, expected("record", v, true))
			}
		}
	}
	return is
}

func kindWord(k messages.PayloadKind) string {
	switch k {
	case fStringArray:
		return "array"
	case fRecord:
		return "record"
	}
	return "string"
}

// --- Actions (ax.md §8.5) ---

// pstr reads an optional string field (absent or null is nil).
func pstr(p map[string]any, key string) *string {
	if s, ok := p[key].(string); ok {
		return &s
	}
	return nil
}

// nodeTargets applies the scope clamp to a requested node list: scoped
// surfaces always target the source node; trusted ones get what they asked
// for (even []) or the source node when they asked for nothing.
func (it *Interaction) nodeTargets(p map[string]any) []any {
	if it.Scoped {
		return []any{it.SourceNodeID}
	}
	if list, ok := p["nodeIds"].([]any); ok {
		return slices.Clone(list)
	}
	if it.SourceNodeID == "" { // the workbench, speaking for no node
		return []any{}
	}
	return []any{it.SourceNodeID}
}

func interactionAction(it *Interaction, nodes *canvas.State) (Action, *Rejection) {
	if it == nil {
		return Action{}, rejectEnvelope(nil, issues{"envelope: missing"})
	}
	fields, ok := messages.InteractionPayload(it.Type)
	if !ok {
		return Action{}, it.reject(501, RejectNotExecutable, `"`+it.Type+`" is recognized but not yet executable.`)
	}
	p := it.Payload
	if p == nil {
		p = map[string]any{}
	}
	if is := validatePayload(fields, p); len(is) > 0 {
		return Action{}, it.reject(400, RejectInvalidPayload, strings.Join(is, "; "))
	}
	src := it.Source
	var input any
	switch it.Type {
	case "ax.event.record":
		data, _ := p["data"].(map[string]any)
		input = &messages.AxEventInput{Kind: pstr(p, "kind"), Summary: pstr(p, "summary"), Detail: pstr(p, "detail"),
			NodeIDs: it.nodeTargets(p), Data: cloneMap(data), Source: src}
	case "ax.steer":
		input = &messages.AxSteerInput{Message: pstr(p, "message"), To: pstr(p, "to"), Source: src}
	case "ax.work.create":
		input = &messages.AxWorkCreateInput{Title: pstr(p, "title"), Status: pstr(p, "status"), Detail: pstr(p, "detail"),
			NodeIDs: it.nodeTargets(p), Source: src}
	case "ax.work.update":
		in := &messages.AxWorkUpdateInput{ID: *pstr(p, "id"), Title: pstr(p, "title"), Status: pstr(p, "status"), Source: src}
		if v, present := p["detail"]; present {
			in.Detail.Set = true
			if s, ok := v.(string); ok {
				in.Detail.Value = s
			} else {
				in.Detail.Null = true
			}
		}
		if _, present := p["nodeIds"]; present {
			in.NodeIDs = it.nodeTargets(p)
		}
		input = in
	case "ax.evidence.add":
		data, _ := p["data"].(map[string]any)
		input = &messages.AxEvidenceInput{Kind: pstr(p, "kind"), Title: pstr(p, "title"), Body: pstr(p, "body"),
			Ref: pstr(p, "ref"), NodeIDs: it.nodeTargets(p), Data: cloneMap(data), Source: src}
	case "ax.approval.request":
		input = &messages.AxApprovalRequestInput{Title: pstr(p, "title"), Detail: pstr(p, "detail"), Action: pstr(p, "action"),
			NodeIDs: it.nodeTargets(p), Source: src}
	case "ax.approval.resolve":
		input = &messages.AxResolveInput{ID: *pstr(p, "id"), Decision: pstr(p, "decision"), Resolution: pstr(p, "resolution"), Source: src}
	case "ax.review.add":
		in := &messages.AxReviewAddInput{Body: pstr(p, "body"), Kind: pstr(p, "kind"), Severity: pstr(p, "severity"),
			Author: pstr(p, "author"), Source: src}
		source := strPtr(it.SourceNodeID)
		if it.Scoped {
			in.AnchorType, in.NodeID = strPtr("node"), source
		} else {
			in.AnchorType = pstr(p, "anchorType")
			if in.AnchorType == nil {
				in.AnchorType = strPtr("node")
			}
			in.NodeID = pstr(p, "nodeId")
			if *in.AnchorType == "node" && in.NodeID == nil {
				in.NodeID = source
			}
			in.File = pstr(p, "file")
		}
		if *in.AnchorType == "node" && !liveNode(nodes, *in.NodeID) {
			return Action{}, it.reject(400, RejectInvalidReviewAnchor, "Node-anchored review requires a nodeId that exists on the canvas.")
		}
		input = in
	case "ax.focus.set":
		input = &messages.AxFocusInput{NodeIDs: it.nodeTargets(p), Source: src}
	case "ax.elicitation.request":
		in := &messages.AxElicitationRequestInput{Prompt: pstr(p, "prompt"), NodeIDs: it.nodeTargets(p), Source: src}
		if fields, ok := p["fields"].([]any); ok {
			in.Fields = slices.Clone(fields)
		}
		input = in
	case "ax.elicitation.respond":
		input = &messages.AxElicitationRespondInput{ID: *pstr(p, "id"), Response: cloneMap(p["response"].(map[string]any)), Source: src}
	case "ax.mode.resolve":
		input = &messages.AxResolveInput{ID: *pstr(p, "id"), Decision: pstr(p, "decision"), Resolution: pstr(p, "resolution"), Source: src}
	case "ax.mode.request":
		input = &messages.AxModeRequestInput{Mode: pstr(p, "mode"), Reason: pstr(p, "reason"), NodeIDs: it.nodeTargets(p), Source: src}
	case "ax.command.invoke":
		name := *pstr(p, "name")
		if _, ok := lookupCommand(name); !ok {
			return Action{}, it.reject(400, RejectUnknownCommand, errUnknownCommand(name))
		}
		var args any
		if m, ok := p["args"].(map[string]any); ok {
			args = cloneMap(m)
		}
		input = &messages.AxCommandInput{Name: name, Args: args, Source: src}
	}
	return Action{Op: it.Type, Input: input}, nil
}
