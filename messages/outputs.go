package messages

import (
	"strings"
	"unicode"
)

// outputs declares each operation's reply body type, by operation name.
// The Go package's generated methods return it and the docs name it; an
// operation missing here answers its JSON as it is (json.RawMessage).
// The table sits beside the catalog rather than in its entries so that
// declaring an output touches one line.
var outputs = map[string]func() any{
	"layout.get":                     output[Layout](),
	"node.add":                       output[NodeResult](),
	"node.get":                       output[Node](),
	"node.update":                    output[NodeResult](),
	"node.remove":                    output[Removed](),
	"edge.add":                       output[EdgeResult](),
	"edge.list":                      output[[]Edge](),
	"edge.remove":                    output[Removed](),
	"group.create":                   output[NodeResult](),
	"group.add":                      output[GroupResult](),
	"group.remove":                   output[GroupResult](),
	"pin.set":                        output[Pins](),
	"pinned.get":                     output[PinnedContext](),
	"search":                         output[SearchResults](),
	"validate.get":                   output[Validation](),
	"history.get":                    output[History](),
	"canvas.undo":                    output[HistoryStep](),
	"canvas.redo":                    output[HistoryStep](),
	"viewport.set":                   output[ViewportResult](),
	"node.focus":                     output[FocusResult](),
	"view.fit":                       output[FitResult](),
	"arrange":                        output[ArrangeResult](),
	"canvas.clear":                   output[Written](),
	"theme.get":                      output[ThemeResult](),
	"theme.set":                      output[ThemeResult](),
	"layout.update":                  output[UpdateResult](),
	"snapshot.list":                  output[[]Snapshot](),
	"snapshot.save":                  output[SnapshotSaved](),
	"snapshot.gc":                    output[SnapshotGC](),
	"snapshot.diff.query":            output[SnapshotDiff](),
	"snapshot.diff":                  output[SnapshotDiff](),
	"snapshot.restore":               output[SnapshotRestored](),
	"snapshot.delete":                output[SnapshotDeleted](),
	"canvas.batch":                   output[BatchResult](),
	"annotation.add":                 output[AnnotationResult](),
	"annotation.remove":              output[Removed](),
	"annotation.list":                output[Annotations](),
	"canvas.import":                  output[ImportResult](),
	"canvas.export":                  output[Blob](),
	"node.refresh":                   output[RefreshResult](),
	"codegraph.get":                  output[CodeGraph](),
	"file.get":                       output[FileDoc](),
	"file.save":                      output[FileSaved](),
	"file.bytes":                     output[Blob](),
	"image.get":                      output[Blob](),
	"artifact.get":                   output[Blob](),
	"markdown.render":                output[Rendered](),
	"open-external":                  output[OpenedExternal](),
	"surface.get":                    output[Blob](),
	"graph.add":                      output[NodeResult](),
	"board.show":                     output[BoardView](),
	"webartifact.build":              output[WebArtifactBuilt](),
	"mcpapp.open":                    output[AppOpened](),
	"diagram.open":                   output[AppOpened](),
	"extapp.call-tool":               output[ExtAppResult](),
	"extapp.read-resource":           output[ExtAppResult](),
	"extapp.list-tools":              output[ExtAppResult](),
	"extapp.list-resources":          output[ExtAppResult](),
	"extapp.list-resource-templates": output[ExtAppResult](),
	"extapp.list-prompts":            output[ExtAppResult](),
	"jsonrender.view":                output[Blob](),
	"jsonrender.add":                 output[NodeResult](),
	"spec.validate":                  output[SpecValidation](),
	"schema.describe":                output[SchemaDocument](),
	"jsonrender.stream":              output[StreamResult](),
	"frame-document.create":          output[FrameDocument](),
	"frame-document.get":             output[Blob](),

	"ax.get":                    output[AxGetResult](),
	"ax.patch":                  output[AxStateResult](),
	"ax.context.get":            output[AgentContext](),
	"ax.focus.set":              output[FocusSet](),
	"ax.policy.get":             output[PolicyResult](),
	"ax.policy.set":             output[PolicyResult](),
	"ax.host-capability.get":    output[HostResult](),
	"ax.host-capability.report": output[HostResult](),
	"ax.work.list":              output[WorkItems](),
	"ax.work.create":            output[WorkItemResult](),
	"ax.work.update":            output[WorkItemResult](),
	"ax.review.list":            output[Reviews](),
	"ax.review.add":             output[ReviewResult](),
	"ax.review.update":          output[ReviewResult](),
	"ax.approval.list":          output[ApprovalGates](),
	"ax.approval.request":       output[ApprovalResult](),
	"ax.approval.get":           output[ApprovalResult](),
	"ax.approval.resolve":       output[ApprovalResult](),
	"ax.elicitation.list":       output[Elicitations](),
	"ax.elicitation.request":    output[ElicitationResult](),
	"ax.elicitation.get":        output[ElicitationResult](),
	"ax.elicitation.respond":    output[ElicitationResult](),
	"ax.mode.list":              output[ModeRequests](),
	"ax.mode.request":           output[ModeRequestResult](),
	"ax.mode.get":               output[ModeRequestResult](),
	"ax.mode.resolve":           output[ModeRequestResult](),
	"ax.event.record":           output[EventResult](),
	"ax.evidence.add":           output[EvidenceResult](),
	"ax.steer":                  output[SteeringResult](),
	"ax.timeline.get":           output[Timeline](),
	"ax.delivery.pending":       output[Delivery](),
	"ax.delivery.mark":          output[DeliveryMarked](),
	"ax.command.list":           output[Commands](),
	"ax.command.invoke":         output[EventResult](),
	"ax.activity":               output[ActivityResult](),
	"ax.interaction":            output[InteractionResult](),
	"ax.surface-token":          output[SurfaceToken](),
	"ax.stats":                  output[AxStats](),

	"webview.status":     output[WebviewStatus](),
	"webview.start":      output[WebviewResult](),
	"webview.stop":       output[WebviewStopped](),
	"webview.evaluate":   output[EvaluateResult](),
	"webview.resize":     output[WebviewResult](),
	"webview.screenshot": output[Blob](),
}

// initialisms keep Go's spelling in method names (snapshot.gc → SnapshotGC).
var initialisms = map[string]string{"gc": "GC", "id": "ID", "url": "URL", "html": "HTML", "json": "JSON"}

func output[T any]() func() any { return func() any { return new(T) } }

// NewOutput returns a pointer to a zero value of the operation's reply
// body type, or nil when the reply is not typed yet.
func (op *Op) NewOutput() any {
	if f, ok := outputs[op.Name]; ok {
		return f()
	}
	return nil
}

// RepliesBytes reports whether the operation's reply is bytes (a *Blob:
// a screenshot, a workspace file), not JSON.
func (op *Op) RepliesBytes() bool {
	_, ok := op.NewOutput().(*Blob)
	return ok
}

// GoName is the operation's method name in the Go package: GoMethod, or
// the name in CamelCase (node.add → NodeAdd, ax.host-capability.get →
// AxHostCapabilityGet).
func (op *Op) GoName() string {
	if op.GoMethod != "" {
		return op.GoMethod
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(op.Name, func(r rune) bool { return r == '.' || r == '-' }) {
		if up, ok := initialisms[part]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}
