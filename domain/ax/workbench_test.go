package ax

import (
	"testing"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestWorkbenchInteractionsNeedNoNode(t *testing.T) {
	nodes := interactionNodes()
	it := parse(t, `{"type":"ax.mode.resolve","sourceSurface":"workbench","source":"cli","payload":{"id":"mode-1","decision":"rejected","resolution":"not now"}}`)
	if it.SourceNodeID != "" || it.Scoped || it.Source != WorkbenchSource {
		t.Fatalf("workbench envelope: %+v", it)
	}
	if rej := CheckInteraction(it, nodes); rej != nil {
		t.Fatalf("checked: %+v", rej)
	}
	a, rej := InteractionAction(it, nodes)
	if rej != nil {
		t.Fatalf("action: %+v", rej)
	}
	in, ok := a.Input.(*messages.AxResolveInput)
	if !ok || a.Op != "ax.mode.resolve" || in.ID != "mode-1" || *in.Decision != "rejected" || *in.Resolution != "not now" {
		t.Fatalf("action = %s %+v", a.Op, a.Input)
	}
	it = parse(t, `{"type":"ax.elicitation.respond","sourceSurface":"workbench","payload":{"id":"elic-1","response":{"name":"Ada"}}}`)
	a, rej = InteractionAction(it, nodes)
	if rej != nil {
		t.Fatalf("respond: %+v", rej)
	}
	if r := a.Input.(*messages.AxElicitationRespondInput); r.ID != "elic-1" || r.Response.(map[string]any)["name"] != "Ada" {
		t.Fatalf("respond input %+v", r)
	}
	// Work created from the workbench is about no node unless it names some.
	a, _ = InteractionAction(parse(t, `{"type":"ax.work.create","sourceSurface":"workbench","payload":{"title":"t"}}`), nodes)
	if ids := a.Input.(*messages.AxWorkCreateInput).NodeIDs; len(ids) != 0 {
		t.Fatalf("node targets %v", ids)
	}
}

func TestWorkbenchMayNotSpeakForNodeOnlyTypes(t *testing.T) {
	for _, typ := range []string{"ax.approval.request", "ax.elicitation.request", "ax.mode.request", "ax.review.add", "ax.command.invoke"} {
		rej := CheckInteraction(parse(t, `{"type":"`+typ+`","sourceSurface":"workbench"}`), interactionNodes())
		if rej == nil || rej.Status != 403 || rej.Code != RejectNotAllowed {
			t.Errorf("%s: %+v", typ, rej)
		}
	}
}

func TestNodeSurfacesCannotAnswerGates(t *testing.T) {
	// No node type's defaults (its ceiling) include the human's answers,
	// so data.axCapabilities cannot grant them either.
	nodes := canvasOf(testNode{id: "H", typ: "html", data: map[string]any{"axCapabilities": map[string]any{
		"enabled": true, "allowed": []any{"ax.elicitation.respond", "ax.mode.resolve"}}}})
	for _, typ := range []string{"ax.elicitation.respond", "ax.mode.resolve"} {
		rej := CheckInteraction(parse(t, `{"type":"`+typ+`","sourceNodeId":"H","sourceSurface":"native-node"}`), nodes)
		if rej == nil || rej.Code != RejectNotAllowed {
			t.Errorf("%s from a node: %+v", typ, rej)
		}
	}
	// A node surface still needs its node.
	if _, rej := ParseInteraction(&messages.AxInteractionInput{Type: "ax.steer", SourceSurface: "html-node"}); rej == nil {
		t.Fatal("a node surface without sourceNodeId was accepted")
	}
}

func TestWorkbenchToken(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	tok := WorkbenchToken(secret, "main")
	if !ValidWorkbenchToken(secret, "main", tok) {
		t.Fatal("own token refused")
	}
	for name, bad := range map[string]bool{
		"other canvas":       ValidWorkbenchToken(secret, "other", tok),
		"node token":         ValidWorkbenchToken(secret, "main", SurfaceToken(secret, "main", "")),
		"no secret":          ValidWorkbenchToken(nil, "main", WorkbenchToken(nil, "main")),
		"empty":              ValidWorkbenchToken(secret, "main", ""),
		"workbench for node": ValidSurfaceToken(secret, "main", "workbench", tok),
	} {
		if bad {
			t.Errorf("%s accepted", name)
		}
	}
}
