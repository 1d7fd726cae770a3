package ax

import (
	"reflect"
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// referencePayloads are the reference's interaction payload schemas (ax.md
// §8.4: required, optional and nullish fields per type). The payloads are
// derived from the operations' input types; this table pins that the
// derivation still says what the reference's contract does.
var referencePayloads = map[string][]field{
	"ax.event.record": {req("kind", fEnum, InteractionEventKinds...), req("summary", fText), nullish("detail", fString),
		nodeIDs, nullish("data", fRecord)},
	"ax.steer":       {req("message", fText), opt("to", fString)}, // to: ours, one consumer
	"ax.work.create": {req("title", fText), opt("status", fEnum, WorkStatuses...), nullish("detail", fString), nodeIDs},
	"ax.work.update": {req("id", fText), opt("title", fString), opt("status", fEnum, WorkStatuses...),
		nullish("detail", fString), nodeIDs},
	"ax.evidence.add": {req("kind", fEnum, EvidenceKinds...), req("title", fText), nullish("body", fString),
		nullish("ref", fString), nodeIDs, nullish("data", fRecord)},
	"ax.approval.request": {req("title", fText), nullish("detail", fString), nullish("action", fString), nodeIDs},
	"ax.approval.resolve": {req("id", fText), req("decision", fEnum, Decisions...), opt("resolution", fString)},
	"ax.review.add": {req("body", fText), opt("kind", fEnum, ReviewKinds...), opt("severity", fEnum, Severities...),
		opt("anchorType", fEnum, AnchorTypes...), opt("nodeId", fString), opt("file", fString), opt("author", fString)},
	"ax.focus.set":           {nodeIDs},
	"ax.elicitation.request": {req("prompt", fText), opt("fields", fStringArray), nodeIDs},
	"ax.mode.request":        {req("mode", fEnum, Modes...), nullish("reason", fString), nodeIDs},
	"ax.command.invoke":      {req("name", fText), opt("args", fRecord)},
	// Ours, not the reference's: the workbench's answers to an elicitation
	// and a mode request, with the payloads of the operations they run.
	"ax.elicitation.respond": {req("id", fText), req("response", fRecord)},
	"ax.mode.resolve":        {req("id", fText), req("decision", fEnum, Decisions...), opt("resolution", fString)},
}

var nodeIDs = opt("nodeIds", fStringArray)

func req(name string, kind messages.PayloadKind, enum ...string) field {
	return field{Name: name, Kind: kind, Required: true, Enum: enum}
}

func opt(name string, kind messages.PayloadKind, enum ...string) field {
	return field{Name: name, Kind: kind, Enum: enum}
}

func nullish(name string, kind messages.PayloadKind) field {
	return field{Name: name, Kind: kind, Nullable: true}
}

func TestPayloadsAreTheReferences(t *testing.T) {
	if len(referencePayloads) != len(messages.InteractionTypes) {
		t.Fatalf("%d reference payloads for %d interaction types", len(referencePayloads), len(messages.InteractionTypes))
	}
	for typ, want := range referencePayloads {
		got, ok := messages.InteractionPayload(typ)
		if !ok {
			t.Fatalf("%s: no payload", typ)
		}
		for i := range got {
			got[i].Doc = "" // docs are the operation's; the table pins the shape
		}
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s payload:\n got %+v\nwant %+v", typ, got, want)
		}
	}
}
