package actors

import (
	"crypto/rand"
	"slices"
	"time"

	"github.com/pmxcanvas/pmx-canvas/domain/ax"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Context and summary limits (the reference's).
const (
	contextEventLimit    = 20
	contextEvidenceLimit = 10
	contextSteeringLimit = 10
)

func init() {
	for name, h := range axReadHandlers {
		readHandlers[name] = h
	}
}

// axReadHandlers answer AX reads from the published views; none of them
// queues behind a writer.
var axReadHandlers = map[string]readHandler{
	"ax.get": func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.AxGetInput)
		bv := ref.boardView.Load()
		body := map[string]any{"ok": true, "state": ax.StateOf(bv.Board, *ref.gatesView.Load()), "host": bv.Host}
		if !isFalse(in.IncludeContext) {
			body["context"] = buildContext(s, ref, in.Consumer)
		}
		return body, nil
	},
	"ax.context.get": func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return buildContext(s, ref, env.Args.(*messages.AxContextInput).Consumer), nil
	},
	"ax.surface-snapshot.get": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return surfaceSnapshot(ref), nil
	},
	"ax.policy.get": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("policy", ref.boardView.Load().Board.Policy), nil
	},
	"ax.host-capability.get": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("host", ref.boardView.Load().Host), nil
	},
	"ax.work.list": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("workItems", nonNil(ref.boardView.Load().Board.WorkItems)), nil
	},
	"ax.review.list": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("reviewAnnotations", nonNil(ref.boardView.Load().Board.Reviews)), nil
	},
	"ax.approval.list": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("approvalGates", nonNil(ref.gatesView.Load().Approvals)), nil
	},
	"ax.elicitation.list": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("elicitations", nonNil(ref.gatesView.Load().Elicitations)), nil
	},
	"ax.mode.list": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return okBody("modeRequests", nonNil(ref.gatesView.Load().Modes)), nil
	},
	"ax.approval.get":    gateRead(gateApproval),
	"ax.elicitation.get": gateRead(gateElicitation),
	"ax.mode.get":        gateRead(gateMode),
	"ax.timeline.get": func(_ *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		limit := ax.ParseLimit(env.Args.(*messages.AxTimelineInput).Limit)
		rows := *ref.timelineView.Load()
		return map[string]any{"ok": true,
			"events": newestFirst(rows.Events, limit), "evidence": newestFirst(rows.Evidence, limit),
			"steering": newestFirst(rows.Steering, limit), "summary": summarize(rows)}, nil
	},
	"ax.delivery.pending": func(_ *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.AxDeliveryPendingInput)
		pending := pendingSteering(*ref.timelineView.Load(), *ref.leases.Load(), in.Consumer, ax.ParseLimit(in.Limit), time.Now())
		return claimReply(ref, in.Consumer, pending), nil
	},
	"ax.command.list": func(_ *canvas.State, _ *messages.Envelope, _ *canvasRef) (any, *messages.Error) {
		return okBody("commands", ax.Commands()), nil
	},
	"ax.surface-token": func(s *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		in := env.Args.(*messages.AxSurfaceTokenInput)
		if in.Surface == ax.WorkbenchSurface {
			return map[string]any{"ok": true, "surface": in.Surface, "token": ax.WorkbenchToken(ref.sys.cfg.SurfaceSecret, ref.id)}, nil
		}
		id := in.NodeID
		if id == "" {
			return nil, messages.BadRequest("surface token requires a nodeId.").With("field", "nodeId")
		}
		if _, ok := s.Nodes.Get(id); !ok {
			return nil, canvas.NodeNotFound(id)
		}
		return map[string]any{"ok": true, "nodeId": id, "token": ax.SurfaceToken(ref.sys.cfg.SurfaceSecret, ref.id, id)}, nil
	},
	"ax.stats": func(_ *canvas.State, _ *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		return map[string]any{"ok": true, "canvas": ref.id,
			"gateWaiters": ref.gateWaiters.Load(), "deliveryWaiters": ref.claimWaiters.Load(),
			"leases": ref.leaseCount.Load(), "subscribers": ref.subscribers.Load()}, nil
	},
}

func gateRead(kind string) readHandler {
	return func(_ *canvas.State, env *messages.Envelope, ref *canvasRef) (any, *messages.Error) {
		id := env.Args.(*messages.AxAwaitInput).ID
		return gateReply(kind, lookupGate(*ref.gatesView.Load(), kind, id)), nil
	}
}

// isFalse is the reference's includeContext test: false or "false".
func isFalse(v any) bool {
	switch b := v.(type) {
	case bool:
		return !b
	case string:
		return b == "false"
	}
	return false
}

func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// newestFirst returns up to limit of the newest rows, newest first.
func newestFirst[T any](rows []T, limit int) []T {
	n := min(limit, len(rows))
	out := make([]T, n)
	for i := range n {
		out[i] = rows[len(rows)-1-i]
	}
	return out
}

// timelineCounts are the row counts per table.
type timelineCounts struct {
	Events   int `json:"events"`
	Evidence int `json:"evidence"`
	Steering int `json:"steering"`
}

// timelineSummary is the reference's PmxAxTimelineSummary.
type timelineSummary struct {
	RecentEvents    []*ax.Event    `json:"recentEvents"`
	RecentEvidence  []*ax.Evidence `json:"recentEvidence"`
	PendingSteering []*ax.Steering `json:"pendingSteering"`
	Counts          timelineCounts `json:"counts"`
}

func summarize(rows timelineRows) timelineSummary {
	pending := []*ax.Steering{}
	for i := len(rows.Steering) - 1; i >= 0 && len(pending) < contextSteeringLimit; i-- {
		if s := rows.Steering[i]; !s.Delivered {
			pending = append(pending, s)
		}
	}
	return timelineSummary{
		RecentEvents:    newestFirst(rows.Events, contextEventLimit),
		RecentEvidence:  newestFirst(rows.Evidence, contextEvidenceLimit),
		PendingSteering: pending,
		Counts:          timelineCounts{len(rows.Events), len(rows.Evidence), len(rows.Steering)},
	}
}

// axContext is the reference's PmxAxContext, fields in its order.
type axContext struct {
	Version           int                        `json:"version"`
	GeneratedAt       string                     `json:"generatedAt"`
	Surface           contextSurface             `json:"surface"`
	Delivery          contextDelivery            `json:"delivery"`
	Pinned            canvas.PinnedContextResult `json:"pinned"`
	Focus             contextFocus               `json:"focus"`
	WorkItems         []*ax.WorkItem             `json:"workItems"`
	ApprovalGates     []*ax.ApprovalGate         `json:"approvalGates"`
	ReviewAnnotations []*ax.ReviewAnnotation     `json:"reviewAnnotations"`
	Elicitations      []*ax.Elicitation          `json:"elicitations"`
	ModeRequests      []*ax.ModeRequest          `json:"modeRequests"`
	Policy            ax.Policy                  `json:"policy"`
	Timeline          timelineSummary            `json:"timeline"`
	Host              *ax.HostCapability         `json:"host"`
}

type contextSurface struct {
	NodeCount int `json:"nodeCount"`
	EdgeCount int `json:"edgeCount"`
}

type contextDelivery struct {
	PendingSteering []*ax.Steering   `json:"pendingSteering"`
	PendingActivity []ax.PendingItem `json:"pendingActivity"`
}

type contextFocus struct {
	ax.Focus
	Nodes []canvas.AgentNode `json:"nodes"`
}

// buildContext assembles the agent context from the published views;
// consumer filters only the delivery block.
func buildContext(s *canvas.State, ref *canvasRef, consumer string) *axContext {
	bv := ref.boardView.Load()
	gates := *ref.gatesView.Load()
	rows := *ref.timelineView.Load()
	st := ax.StateOf(bv.Board, gates)
	focusNodes := []canvas.AgentNode{}
	for _, id := range st.Focus.NodeIDs {
		if n, ok := s.Nodes.Get(id); ok {
			focusNodes = append(focusNodes, canvas.AgentContextNode(s, n, true))
		}
	}
	return &axContext{
		Version: 1, GeneratedAt: ref.sys.cfg.Env.Timestamp(),
		Surface: contextSurface{NodeCount: s.Nodes.Len(), EdgeCount: s.Edges.Len()},
		Delivery: contextDelivery{
			PendingSteering: pendingSteering(rows, *ref.leases.Load(), consumer, contextSteeringLimit, time.Now()),
			PendingActivity: pendingActivity(ref, consumer),
		},
		Pinned:            canvas.PinnedContext(s),
		Focus:             contextFocus{Focus: st.Focus, Nodes: focusNodes},
		WorkItems:         nonNil(st.WorkItems),
		ApprovalGates:     nonNil(st.ApprovalGates),
		ReviewAnnotations: nonNil(st.ReviewAnnotations),
		Elicitations:      nonNil(st.Elicitations),
		ModeRequests:      nonNil(st.ModeRequests),
		Policy:            st.Policy,
		Timeline:          summarize(rows),
		Host:              bv.Host,
	}
}

// redactedReview is a review annotation without body and author, as
// sandboxed surfaces see it.
type redactedReview struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	Severity   string     `json:"severity"`
	Status     string     `json:"status"`
	AnchorType string     `json:"anchorType"`
	NodeID     *string    `json:"nodeId"`
	File       *string    `json:"file"`
	Region     *ax.Region `json:"region"`
	CreatedAt  string     `json:"createdAt"`
	UpdatedAt  string     `json:"updatedAt"`
	Source     *string    `json:"source"`
}

// surfaceSnapshot is the board-wide AX state for sandboxed surfaces.
func surfaceSnapshot(ref *canvasRef) map[string]any {
	bv := ref.boardView.Load()
	gates := ref.gatesView.Load()
	reviews := make([]redactedReview, 0, len(bv.Board.Reviews))
	for _, r := range bv.Board.Reviews {
		reviews = append(reviews, redactedReview{ID: r.ID, Kind: r.Kind, Severity: r.Severity, Status: r.Status,
			AnchorType: r.AnchorType, NodeID: r.NodeID, File: r.File, Region: r.Region,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Source: r.Source})
	}
	return map[string]any{
		"focus":             slices.Clone(nonNil(bv.Board.Focus.NodeIDs)),
		"workItems":         nonNil(bv.Board.WorkItems),
		"approvalGates":     nonNil(gates.Approvals),
		"reviewAnnotations": reviews,
		"elicitations":      nonNil(gates.Elicitations),
		"modeRequests":      nonNil(gates.Modes),
		"policy":            bv.Board.Policy,
	}
}

// NewSurfaceSecret returns a random secret for surface tokens.
func NewSurfaceSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}
