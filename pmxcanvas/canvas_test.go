package pmxcanvas

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// openT opens a canvas without HTTP in a temp workspace, closed at cleanup.
func openT(t *testing.T) *Canvas {
	t.Helper()
	c, err := Open(context.Background(), Options{Workspace: t.TempDir(), NoHTTP: true, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// wantErr asserts err is a *messages.Error with status and code, and that
// its message contains msg.
func wantErr(t *testing.T, err error, status int, code messages.Code, msg string) *messages.Error {
	t.Helper()
	var e *messages.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *messages.Error %d %s", err, err, status, code)
	}
	if e.Status != status || e.Code != code || !strings.Contains(e.Message, msg) {
		t.Fatalf("error %d %s %q, want %d %s containing %q", e.Status, e.Code, e.Message, status, code, msg)
	}
	return e
}

func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var bg = context.Background()

func TestOpenServesHTTPAndCloses(t *testing.T) {
	c, err := Open(bg, Options{Workspace: t.TempDir(), Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	n := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "shared"}))
	// The HTTP surface sees what the Go API wrote.
	res, err := http.Get(c.URL() + "/api/canvas/node/" + n.ID)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET node over HTTP: %d", res.StatusCode)
	}
	if c.Server() == nil || c.ID() != "main" {
		t.Fatalf("Server %v, ID %q", c.Server(), c.ID())
	}
	noErr(t, c.Close(bg))
	noErr(t, c.Close(bg)) // again: same result
	_, err = c.Layout(bg)
	wantErr(t, err, 503, messages.CodeUnavailable, "closed")
	_, err = c.WithCanvas("other").Layout(bg)
	wantErr(t, err, 503, messages.CodeUnavailable, "closed")
	_, err = c.Subscribe(bg, SubscribeOptions{})
	wantErr(t, err, 503, messages.CodeUnavailable, "closed")
	if _, err := http.Get(c.URL() + "/health"); err == nil {
		t.Fatal("HTTP still answers after Close")
	}
}

func TestOpenFailures(t *testing.T) {
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := Open(ctx, Options{Workspace: t.TempDir(), NoHTTP: true, Logger: quietLogger()}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open with a cancelled context: %v", err)
	}
	if _, err := Open(bg, Options{Workspace: t.TempDir(), Host: "0.0.0.0", Logger: quietLogger()}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("Open on 0.0.0.0 without a token: %v", err)
	}
	ws := t.TempDir()
	c, err := Open(bg, Options{Workspace: ws, NoHTTP: true, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(bg)
	if _, err := Open(bg, Options{Workspace: ws, NoHTTP: true, Logger: quietLogger()}); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("second Open of one workspace: %v", err)
	}
}

// One process may run several workspaces, each with its own server.
func TestOpenTwoWorkspacesInOneProcess(t *testing.T) {
	a, b := openT(t), openT(t)
	must[*Node](t)(a.AddNode(bg, NodeInput{Type: "markdown", Title: "in a"}))
	if n := must[[]Node](t)(b.Nodes(bg)); len(n) != 0 {
		t.Fatalf("workspace b sees %d nodes of a", len(n))
	}
	if n := must[[]Node](t)(a.Nodes(bg)); len(n) != 1 {
		t.Fatalf("workspace a: %d nodes", len(n))
	}
}

func TestOpenPersistsAcrossReopen(t *testing.T) {
	ws := t.TempDir()
	c := must[*Canvas](t)(Open(bg, Options{Workspace: ws, NoHTTP: true, Logger: quietLogger()}))
	n := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "durable"}))
	noErr(t, c.Close(bg))
	c = must[*Canvas](t)(Open(bg, Options{Workspace: ws, NoHTTP: true, Logger: quietLogger()}))
	defer c.Close(bg)
	if got := must[*Node](t)(c.Node(bg, n.ID)); got.Title != "durable" {
		t.Fatalf("after reopen: %+v", got)
	}
}

func TestServerCanvasLeavesServerRunning(t *testing.T) {
	s := startT(t, "")
	c := s.Canvas()
	must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "x"}))
	noErr(t, c.Close(bg))
	res, err := http.Get(s.URL() + "/api/canvas/state")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("server after Canvas.Close: %d", res.StatusCode)
	}
}

func TestNodes(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A", Content: "alpha"}))
	if a.ID == "" || a.Type != "markdown" || a.Kind != "markdown" || a.Title != "A" || a.Content != "alpha" ||
		a.Position != (Point{X: 40, Y: 80}) || a.Size != (Size{Width: 640, Height: 420}) || a.DockPosition != "" || a.Data["content"] != "alpha" {
		t.Fatalf("AddNode: %+v", a)
	}
	b := must[*Node](t)(c.AddNode(bg, NodeInput{
		Type: "trace", Title: "run", Position: &Point{X: -100, Y: 2000}, Size: &Size{Width: 300, Height: 100}, StrictSize: true,
		Data: map[string]any{"k": "v"}, Extra: map[string]any{"toolName": "go test", "title": "ignored: typed wins"},
	}))
	if b.Position != (Point{X: -100, Y: 2000}) || b.Size != (Size{Width: 300, Height: 100}) || b.Data["strictSize"] != true ||
		b.Data["toolName"] != "go test" || b.Data["k"] != "v" || b.Title != "run" {
		t.Fatalf("AddNode with geometry and extras: %+v", b)
	}
	got := must[*Node](t)(c.Node(bg, a.ID))
	if got.ID != a.ID || got.Title != "A" || got.Position != a.Position {
		t.Fatalf("Node: %+v", got)
	}

	u := must[*Node](t)(c.UpdateNode(bg, a.ID, NodePatch{
		Title: Ptr("A2"), Content: Ptr("beta"), Position: &Point{X: 5, Y: 6}, Size: &Size{Width: 200, Height: 100},
		Collapsed: Ptr(true), Pinned: Ptr(true), ArrangeLocked: Ptr(true), Data: map[string]any{"x": 1.0},
		DockPosition: Ptr("right"),
	}))
	if u.Title != "A2" || u.Content != "beta" || u.Position != (Point{X: 5, Y: 6}) || u.Size != (Size{Width: 200, Height: 100}) ||
		!u.Collapsed || !u.Pinned || u.Data["arrangeLocked"] != true || u.Data["x"] != 1.0 || u.DockPosition != "right" {
		t.Fatalf("UpdateNode: %+v", u)
	}
	u = must[*Node](t)(c.UpdateNode(bg, a.ID, NodePatch{DockPosition: Ptr("")}))
	if u.DockPosition != "" || u.Title != "A2" {
		t.Fatalf("undock: %+v", u)
	}

	nodes := must[[]Node](t)(c.Nodes(bg))
	if len(nodes) != 2 || nodes[0].ID != a.ID || nodes[1].ID != b.ID {
		t.Fatalf("Nodes: %+v", nodes)
	}
	noErr(t, c.RemoveNode(bg, a.ID))
	if nodes = must[[]Node](t)(c.Nodes(bg)); len(nodes) != 1 || nodes[0].ID != b.ID {
		t.Fatalf("Nodes after remove: %+v", nodes)
	}

	_, err := c.AddNode(bg, NodeInput{Title: "no type"})
	wantErr(t, err, 400, messages.CodeBadRequest, "type")
	_, err = c.AddNode(bg, NodeInput{Type: "nope"})
	wantErr(t, err, 400, messages.CodeBadRequest, `Invalid node type: "nope"`)
	_, err = c.AddNode(bg, NodeInput{Type: "markdown", Size: &Size{Width: 0, Height: 10}})
	wantErr(t, err, 400, messages.CodeBadRequest, "greater than zero")
	_, err = c.Node(bg, a.ID)
	wantErr(t, err, 404, messages.CodeNotFound, `Node "`+a.ID+`" not found.`)
	_, err = c.UpdateNode(bg, "missing", NodePatch{Title: Ptr("x")})
	wantErr(t, err, 404, messages.CodeNotFound, "not found")
	_, err = c.UpdateNode(bg, b.ID, NodePatch{HTML: Ptr("<p>")})
	wantErr(t, err, 400, messages.CodeBadRequest, "html")
	_, err = c.UpdateNode(bg, b.ID, NodePatch{DockPosition: Ptr("top")})
	wantErr(t, err, 400, messages.CodeBadRequest, "dockPosition")
	err = c.RemoveNode(bg, a.ID)
	wantErr(t, err, 404, messages.CodeNotFound, "not found")
}

func TestNodeTypes(t *testing.T) {
	c := openT(t)
	img := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "image", Path: "https://example.com/docs/arch.png"}))
	if img.Content != "https://example.com/docs/arch.png" || img.Data["title"] != "arch.png" || img.Size != (Size{Width: 480, Height: 360}) {
		t.Fatalf("image: %+v", img)
	}
	page := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "webpage", URL: "https://example.com/"}))
	if page.URL != "https://example.com/" || page.Size != (Size{Width: 520, Height: 420}) {
		t.Fatalf("webpage: %+v", page)
	}
	h := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "html", Title: "Chart", HTML: "<p>hi</p>", Extra: map[string]any{"summary": "a chart"}}))
	if h.Data["html"] != "<p>hi</p>" || h.Data["summary"] != "a chart" || !strings.HasPrefix(h.SurfaceURL, "/api/canvas/surface/") {
		t.Fatalf("html: %+v", h)
	}
	h = must[*Node](t)(c.UpdateNode(bg, h.ID, NodePatch{HTML: Ptr("<p>bye</p>")}))
	if h.Data["html"] != "<p>bye</p>" {
		t.Fatalf("html update: %+v", h.Data)
	}
	g := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "group", Title: "G", ChildIDs: []string{img.ID}, Color: "#ff0000"}))
	if g.Type != "group" || g.Data["color"] != "#ff0000" || len(g.Data["children"].([]any)) != 1 {
		t.Fatalf("group via AddNode: %+v", g)
	}
}

func TestEdges(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "Alpha"}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "Beta"}))
	e := must[*Edge](t)(c.AddEdge(bg, EdgeInput{From: a.ID, To: b.ID, Type: "flow", Label: "next", Style: "dashed", Animated: Ptr(false)}))
	if e.ID == "" || e.From != a.ID || e.To != b.ID || e.Type != "flow" || e.Label != "next" || e.Style != "dashed" || e.Animated == nil || *e.Animated {
		t.Fatalf("AddEdge: %+v", e)
	}
	s := must[*Edge](t)(c.AddEdge(bg, EdgeInput{FromSearch: "beta", ToSearch: "alpha", Type: "relation"}))
	if s.From != b.ID || s.To != a.ID || s.Animated != nil || s.Label != "" {
		t.Fatalf("AddEdge by search: %+v", s)
	}
	edges := must[[]Edge](t)(c.Edges(bg))
	if len(edges) != 2 || edges[0].ID != e.ID || edges[1].ID != s.ID {
		t.Fatalf("Edges: %+v", edges)
	}

	_, err := c.AddEdge(bg, EdgeInput{From: a.ID, To: b.ID, Type: "flow"})
	wantErr(t, err, 400, messages.CodeBadRequest, "Duplicate or self-edge.")
	_, err = c.AddEdge(bg, EdgeInput{From: a.ID, To: b.ID, Type: "likes"})
	wantErr(t, err, 400, messages.CodeBadRequest, `Invalid edge type: "likes"`)
	_, err = c.AddEdge(bg, EdgeInput{From: a.ID, To: "ghost", Type: "flow"})
	wantErr(t, err, 400, messages.CodeBadRequest, `Node "ghost" not found.`)
	_, err = c.AddEdge(bg, EdgeInput{FromSearch: "nothing-matches", To: a.ID, Type: "flow"})
	wantErr(t, err, 400, messages.CodeBadRequest, "No node matches")

	noErr(t, c.RemoveEdge(bg, e.ID))
	if edges = must[[]Edge](t)(c.Edges(bg)); len(edges) != 1 || edges[0].ID != s.ID {
		t.Fatalf("Edges after remove: %+v", edges)
	}
	wantErr(t, c.RemoveEdge(bg, e.ID), 404, messages.CodeNotFound, "not found")
}

func TestGroups(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B"}))
	g := must[*Node](t)(c.CreateGroup(bg, GroupInput{Title: "Fit", ChildIDs: []string{a.ID}}))
	if g.Type != "group" || g.Title != "Fit" || g.Data["frameMode"] != "fit" {
		t.Fatalf("CreateGroup fit: %+v", g)
	}
	noErr(t, c.GroupNodes(bg, g.ID, []string{b.ID}, ""))
	got := must[*Node](t)(c.Node(bg, g.ID))
	if ch := got.Data["children"].([]any); len(ch) != 2 || ch[1] != b.ID {
		t.Fatalf("after GroupNodes: %v", got.Data["children"])
	}
	if m := must[*Node](t)(c.Node(bg, b.ID)); m.Data["parentGroup"] != g.ID {
		t.Fatalf("member parentGroup: %v", m.Data)
	}
	noErr(t, c.UngroupNodes(bg, g.ID))
	if got = must[*Node](t)(c.Node(bg, g.ID)); len(got.Data["children"].([]any)) != 0 {
		t.Fatalf("after UngroupNodes: %v", got.Data["children"])
	}

	m := must[*Node](t)(c.CreateGroup(bg, GroupInput{Title: "Manual", ChildIDs: []string{a.ID, b.ID},
		Position: &Point{X: 0, Y: 2000}, Size: &Size{Width: 1000, Height: 1200}, ChildLayout: "column", Color: "#00ff00"}))
	if m.Data["frameMode"] != "manual" || m.Position != (Point{X: 0, Y: 2000}) || m.Size != (Size{Width: 1000, Height: 1200}) || m.Data["color"] != "#00ff00" {
		t.Fatalf("CreateGroup manual: %+v", m)
	}
	ma, mb := must[*Node](t)(c.Node(bg, a.ID)), must[*Node](t)(c.Node(bg, b.ID))
	if ma.Position.X != mb.Position.X || mb.Position.Y <= ma.Position.Y || ma.Position.Y < 2000 {
		t.Fatalf("column layout inside the frame: %v %v", ma.Position, mb.Position)
	}

	_, err := c.CreateGroup(bg, GroupInput{ChildIDs: []string{"ghost"}})
	wantErr(t, err, 400, messages.CodeBadRequest, "ghost")
	wantErr(t, c.GroupNodes(bg, "no-group", []string{a.ID}, ""), 400, messages.CodeBadRequest, "Group not found")
	wantErr(t, c.UngroupNodes(bg, ""), 400, messages.CodeBadRequest, "Missing groupId")
}

func TestContextPins(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A", Content: "alpha text"}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B"}))
	p := must[*Pins](t)(c.SetContextPins(bg, []string{a.ID}, ""))
	if p.Count != 1 || p.NodeIDs[0] != a.ID {
		t.Fatalf("set: %+v", p)
	}
	p = must[*Pins](t)(c.SetContextPins(bg, []string{b.ID}, PinAdd))
	if p.Count != 2 || p.NodeIDs[1] != b.ID {
		t.Fatalf("add: %+v", p)
	}
	pc := must[*PinnedContext](t)(c.PinnedContext(bg))
	if pc.Count != 2 || len(pc.Nodes) != 2 || pc.Nodes[0].Title != "A" || pc.Nodes[0].Content != "alpha text" ||
		!strings.Contains(pc.Preamble, `[Context from "A" (markdown)]`) {
		t.Fatalf("PinnedContext: %+v", pc)
	}
	p = must[*Pins](t)(c.SetContextPins(bg, []string{a.ID}, PinRemove))
	if p.Count != 1 || p.NodeIDs[0] != b.ID {
		t.Fatalf("remove: %+v", p)
	}
	if n := must[*Node](t)(c.Node(bg, b.ID)); !n.Pinned {
		t.Fatal("a context-pinned node reads pinned")
	}
	p = must[*Pins](t)(c.SetContextPins(bg, nil, PinSet))
	if p.Count != 0 || len(p.NodeIDs) != 0 {
		t.Fatalf("clear: %+v", p)
	}
	_, err := c.SetContextPins(bg, []string{"ghost"}, PinSet)
	wantErr(t, err, 400, messages.CodeBadRequest, "unknown node ID(s): ghost")
}

func TestSearch(t *testing.T) {
	c := openT(t)
	for _, title := range []string{"auth one", "auth two", "billing"} {
		must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: title}))
	}
	r := must[*SearchResults](t)(c.Search(bg, "auth", 1))
	if r.Query != "auth" || r.ResultCount != 2 || len(r.Results) != 1 || r.Results[0].Title != "auth one" || r.Results[0].Score != 3 {
		t.Fatalf("Search limit 1: %+v", r)
	}
	if r = must[*SearchResults](t)(c.Search(bg, "auth", 0)); len(r.Results) != 2 {
		t.Fatalf("Search no limit: %+v", r)
	}
	if r = must[*SearchResults](t)(c.Search(bg, "  ", 0)); r.ResultCount != 0 || len(r.Results) != 0 {
		t.Fatalf("blank Search: %+v", r)
	}
}

func TestLayoutValidateThemeViewport(t *testing.T) {
	c := openT(t)
	l0 := must[*Layout](t)(c.Layout(bg))
	if len(l0.Nodes) != 0 || l0.Theme != "dark" || l0.Viewport != (Viewport{X: 0, Y: 0, Scale: 1}) {
		t.Fatalf("empty Layout: %+v", l0)
	}
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A", Position: &Point{X: 0, Y: 0}}))
	must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B", Position: &Point{X: 10, Y: 10}}))
	l := must[*Layout](t)(c.Layout(bg))
	if l.Revision != l0.Revision+2 || len(l.Nodes) != 2 || l.Node(a.ID) == nil || l.Node("ghost") != nil {
		t.Fatalf("Layout: rev %d -> %d, %d nodes", l0.Revision, l.Revision, len(l.Nodes))
	}
	v := must[*Validation](t)(c.Validate(bg))
	if v.OK || len(v.Collisions) != 1 || v.Collisions[0].ATitle != "A" || v.Collisions[0].BTitle != "B" || v.Summary["collisions"] != 1 || v.Summary["nodes"] != 2 {
		t.Fatalf("Validate: %+v", v)
	}

	noErr(t, c.SetTheme(bg, "high-contrast"))
	if th := must[string](t)(c.Theme(bg)); th != "high-contrast" {
		t.Fatalf("Theme %q", th)
	}
	wantErr(t, c.SetTheme(bg, "neon"), 400, messages.CodeBadRequest, "neon")

	vp := must[*Viewport](t)(c.SetViewport(bg, ViewportPatch{X: Ptr(-50.0), Scale: Ptr(2.0)}))
	if *vp != (Viewport{X: -50, Y: 0, Scale: 2}) {
		t.Fatalf("SetViewport: %+v", vp)
	}
	_, err := c.SetViewport(bg, ViewportPatch{Scale: Ptr(-1.0)})
	wantErr(t, err, 400, messages.CodeBadRequest, "scale")
	_, err = c.SetViewport(bg, ViewportPatch{X: Ptr(math.NaN())})
	wantErr(t, err, 400, messages.CodeInvalidInput, "NaN is not a finite number")
	_, err = c.AddNode(bg, NodeInput{Type: "markdown", Position: &Point{X: math.Inf(1), Y: 0}})
	wantErr(t, err, 400, messages.CodeInvalidInput, "+Inf is not a finite number")
}

func TestView(t *testing.T) {
	c := openT(t)
	empty := must[*FitResult](t)(c.FitView(bg, FitOptions{}))
	if empty.NodeCount != 0 || empty.Bounds != nil {
		t.Fatalf("FitView on an empty canvas: %+v", empty)
	}
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A", Position: &Point{X: 0, Y: 0}, Size: &Size{Width: 100, Height: 100}}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B", Position: &Point{X: 1000, Y: 0}, Size: &Size{Width: 100, Height: 100}}))

	f := must[*FocusResult](t)(c.FocusNode(bg, a.ID, false))
	if f.Focused != a.ID || !f.Panned {
		t.Fatalf("FocusNode: %+v", f)
	}
	if f = must[*FocusResult](t)(c.FocusNode(bg, b.ID, true)); f.Focused != b.ID || f.Panned {
		t.Fatalf("FocusNode noPan: %+v", f)
	}
	if st := must[*AxState](t)(c.AxState(bg)); len(st.Focus.NodeIDs) != 1 || st.Focus.NodeIDs[0] != b.ID {
		t.Fatalf("FocusNode sets the AX focus: %+v", st.Focus)
	}
	_, err := c.FocusNode(bg, "ghost", false)
	wantErr(t, err, 404, messages.CodeNotFound, "ghost")

	fit := must[*FitResult](t)(c.FitView(bg, FitOptions{Width: 1000, Height: 500, Padding: 0, NodeIDs: []string{a.ID}}))
	if fit.NodeCount != 1 || fit.Bounds == nil || *fit.Bounds != (Bounds{X: 0, Y: 0, Width: 100, Height: 100}) || fit.Viewport.Scale != 1 {
		t.Fatalf("FitView one node: %+v", fit)
	}
	fit = must[*FitResult](t)(c.FitView(bg, FitOptions{Width: 550, Height: 500, Padding: 0.001, MaxScale: 4}))
	if fit.NodeCount != 2 || fit.Bounds.Width != 1100 || fit.Viewport.Scale >= 0.5 || fit.Viewport.Scale < 0.49 {
		t.Fatalf("FitView all: %+v", fit)
	}
	_, err = c.FitView(bg, FitOptions{NodeIDs: []string{"ghost"}})
	wantErr(t, err, 400, messages.CodeBadRequest, "ghost")

	ar := must[*ArrangeResult](t)(c.Arrange(bg, "column"))
	if !ar.OK || ar.Arranged != 2 || ar.Layout != "column" {
		t.Fatalf("Arrange: %+v", ar)
	}
	pa, pb := must[*Node](t)(c.Node(bg, a.ID)), must[*Node](t)(c.Node(bg, b.ID))
	if pa.Position.X != pb.Position.X {
		t.Fatalf("column arrange: %v %v", pa.Position, pb.Position)
	}
	if ar = must[*ArrangeResult](t)(c.Arrange(bg, "")); ar.Layout != "grid" {
		t.Fatalf("default arrange: %+v", ar)
	}
	_, err = c.Arrange(bg, "spiral")
	wantErr(t, err, 400, messages.CodeBadRequest, `Invalid layout: "spiral"`)

	noErr(t, c.Clear(bg))
	if l := must[*Layout](t)(c.Layout(bg)); len(l.Nodes) != 0 {
		t.Fatalf("after Clear: %d nodes", len(l.Nodes))
	}
	if step := must[*HistoryStep](t)(c.Undo(bg)); !step.OK || !strings.HasPrefix(step.Description, "Undid: Cleared canvas") {
		t.Fatalf("undo clear: %+v", step)
	}
	if l := must[*Layout](t)(c.Layout(bg)); len(l.Nodes) != 2 {
		t.Fatalf("after undoing Clear: %d nodes", len(l.Nodes))
	}
}

func TestHistoryUndoRedo(t *testing.T) {
	c := openT(t)
	step := must[*HistoryStep](t)(c.Undo(bg))
	if step.OK || step.Description != "Nothing to undo" {
		t.Fatalf("Undo on a new canvas: %+v", step)
	}
	bot := c.WithAgent("bot-7")
	n := must[*Node](t)(bot.AddNode(bg, NodeInput{Type: "markdown", Title: "N"}))
	must[*Node](t)(c.UpdateNode(bg, n.ID, NodePatch{Title: Ptr("N2")}))
	h := must[*History](t)(c.History(bg))
	if len(h.Entries) != 2 || !h.CanUndo || h.CanRedo || h.Entries[0].Agent != "bot-7" || h.Entries[1].Agent != "" ||
		h.Entries[0].Description != `Added markdown node "N"` || h.Entries[0].OperationType != "addNode" ||
		!h.Entries[1].IsCurrent || h.Entries[0].Timestamp.IsZero() || !strings.Contains(h.Text, "Canvas History") {
		t.Fatalf("History: %+v", h)
	}
	step = must[*HistoryStep](t)(c.Undo(bg))
	if !step.OK || step.Description != `Undid: Updated node "N"` {
		t.Fatalf("Undo: %+v", step)
	}
	if got := must[*Node](t)(c.Node(bg, n.ID)); got.Title != "N" {
		t.Fatalf("after undo: %q", got.Title)
	}
	h = must[*History](t)(c.History(bg))
	if !h.CanRedo || !h.Entries[1].IsUndone {
		t.Fatalf("History after undo: %+v", h)
	}
	step = must[*HistoryStep](t)(c.Redo(bg))
	if !step.OK || step.Description != `Redid: Updated node "N"` {
		t.Fatalf("Redo: %+v", step)
	}
	if step = must[*HistoryStep](t)(c.Redo(bg)); step.OK || step.Description != "Nothing to redo" {
		t.Fatalf("Redo at the end: %+v", step)
	}
}

func TestSnapshots(t *testing.T) {
	c := openT(t)
	a := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "A"}))
	s1 := must[*Snapshot](t)(c.SaveSnapshot(bg, "first"))
	if !strings.HasPrefix(s1.ID, "snap-") || s1.Name != "first" || s1.NodeCount != 1 || s1.EdgeCount != 0 || s1.CreatedAt.IsZero() {
		t.Fatalf("SaveSnapshot: %+v", s1)
	}
	must[*Node](t)(c.UpdateNode(bg, a.ID, NodePatch{Title: Ptr("A*")}))
	b := must[*Node](t)(c.AddNode(bg, NodeInput{Type: "markdown", Title: "B"}))
	s2 := must[*Snapshot](t)(c.SaveSnapshot(bg, "second"))

	list := must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{}))
	if len(list) != 2 || list[0].ID != s2.ID || list[1].ID != s1.ID {
		t.Fatalf("ListSnapshots newest first: %+v", list)
	}
	if list = must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{Limit: 1})); len(list) != 1 || list[0].ID != s2.ID {
		t.Fatalf("ListSnapshots limit: %+v", list)
	}
	if list = must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{Query: "FIR", All: true})); len(list) != 1 || list[0].ID != s1.ID {
		t.Fatalf("ListSnapshots query: %+v", list)
	}
	if list = must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{After: s2.CreatedAt.Add(time.Second)})); len(list) != 0 {
		t.Fatalf("ListSnapshots after: %+v", list)
	}
	if list = must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{Before: s2.CreatedAt.Add(time.Second)})); len(list) != 2 {
		t.Fatalf("ListSnapshots before: %+v", list)
	}

	d := must[*SnapshotDiff](t)(c.DiffSnapshot(bg, "first"))
	if d.Diff.SnapshotName != "first" || len(d.Diff.AddedNodes) != 1 || d.Diff.AddedNodes[0].ID != b.ID ||
		len(d.Diff.ModifiedNodes) != 1 || d.Diff.ModifiedNodes[0].Title != "A*" || len(d.Diff.ModifiedNodes[0].Changes) == 0 ||
		!strings.Contains(d.Text, "Summary: +1 -0 ~1 nodes") {
		t.Fatalf("DiffSnapshot: %+v", d)
	}

	r := must[*Snapshot](t)(c.RestoreSnapshot(bg, s1.ID))
	if r.ID != s1.ID {
		t.Fatalf("RestoreSnapshot: %+v", r)
	}
	if l := must[*Layout](t)(c.Layout(bg)); len(l.Nodes) != 1 || l.Nodes[0].Title != "A" {
		t.Fatalf("after restore: %+v", l.Nodes)
	}

	del := must[*Snapshot](t)(c.DeleteSnapshot(bg, "second"))
	if del.ID != s2.ID {
		t.Fatalf("DeleteSnapshot: %+v", del)
	}
	for i := 0; i < 3; i++ {
		must[*Snapshot](t)(c.SaveSnapshot(bg, "gc"))
	}
	gc := must[*SnapshotGC](t)(c.GCSnapshots(bg, 2, true))
	if !gc.DryRun || gc.Kept != 2 || len(gc.Deleted) != 2 {
		t.Fatalf("GCSnapshots dry run: %+v", gc)
	}
	if n := len(must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{All: true}))); n != 4 {
		t.Fatalf("dry run deleted snapshots: %d left", n)
	}
	gc = must[*SnapshotGC](t)(c.GCSnapshots(bg, 2, false))
	if gc.DryRun || len(gc.Deleted) != 2 || gc.Deleted[len(gc.Deleted)-1].ID != s1.ID {
		t.Fatalf("GCSnapshots: %+v", gc)
	}
	if n := len(must[[]Snapshot](t)(c.ListSnapshots(bg, SnapshotQuery{All: true}))); n != 2 {
		t.Fatalf("after gc: %d left", n)
	}

	_, err := c.SaveSnapshot(bg, "")
	wantErr(t, err, 400, messages.CodeBadRequest, "Missing snapshot name")
	_, err = c.RestoreSnapshot(bg, "ghost")
	wantErr(t, err, 404, messages.CodeNotFound, "Snapshot")
	_, err = c.DeleteSnapshot(bg, "ghost")
	wantErr(t, err, 404, messages.CodeNotFound, "Snapshot")
	_, err = c.DiffSnapshot(bg, "ghost")
	wantErr(t, err, 404, messages.CodeNotFound, `Snapshot "ghost" not found.`)
}

func TestBatch(t *testing.T) {
	c := openT(t)
	rev0 := must[*Layout](t)(c.Layout(bg)).Revision
	r := must[*BatchResult](t)(c.Batch(bg, []BatchOp{
		{Op: "node.add", Assign: "a", Args: map[string]any{"type": "markdown", "title": "A"}},
		{Op: "node.add", Assign: "b", Args: map[string]any{"type": "markdown", "title": "$a"}},
		{Op: "edge.add", Assign: "e", Args: map[string]any{"from": "$a", "to": "$b", "type": "flow"}},
		{Op: "pin.add", Args: map[string]any{"nodeIds": []string{"$a"}}},
	}))
	if len(r.Results) != 4 || r.Ref("a") == "" || r.Ref("e") == "" || r.Ref("missing") != "" {
		t.Fatalf("Batch: %+v", r)
	}
	l := must[*Layout](t)(c.Layout(bg))
	if l.Revision != rev0+1 || len(l.Nodes) != 2 || len(l.Edges) != 1 || l.Node(r.Ref("b")).Title != r.Ref("a") {
		t.Fatalf("Batch applied as one change: rev %d->%d, %d nodes, %d edges", rev0, l.Revision, len(l.Nodes), len(l.Edges))
	}
	if h := must[*History](t)(c.History(bg)); len(h.Entries) != 1 || h.Entries[0].Description != "Batch of 4 operations" {
		t.Fatalf("History of a batch: %+v", h.Entries)
	}

	_, err := c.Batch(bg, []BatchOp{
		{Op: "node.add", Args: map[string]any{"type": "markdown"}},
		{Op: "node.explode"},
	})
	e := wantErr(t, err, 400, messages.CodeBatchFailed, `Unsupported canvas_batch operation "node.explode".`)
	if e.Extra["failedIndex"] != 1.0 {
		t.Fatalf("batch failure extras: %+v", e.Extra)
	}
	if l2 := must[*Layout](t)(c.Layout(bg)); l2.Revision != l.Revision || len(l2.Nodes) != 2 {
		t.Fatal("a failed batch changed the canvas")
	}
}

func TestWithCanvas(t *testing.T) {
	c := openT(t)
	other := c.WithCanvas("team.b-1")
	must[*Node](t)(other.AddNode(bg, NodeInput{Type: "markdown", Title: "b"}))
	if n := must[[]Node](t)(c.Nodes(bg)); len(n) != 0 {
		t.Fatalf("main sees %d nodes of another canvas", len(n))
	}
	if n := must[[]Node](t)(other.Nodes(bg)); len(n) != 1 || other.ID() != "team.b-1" {
		t.Fatalf("other canvas: %d nodes, id %q", len(n), other.ID())
	}
	_, err := c.WithCanvas("bad id!").Layout(bg)
	wantErr(t, err, 400, messages.CodeInvalidInput, "canvas id")
	// Closing through a view closes the shared server.
	noErr(t, other.Close(bg))
	_, err = c.Layout(bg)
	wantErr(t, err, 503, messages.CodeUnavailable, "closed")
}

// The shortcuts' inputs reach the wire as the operation's input encodes
// them: unset fields absent, Ptr("") as the null that clears, extras under
// the typed fields.
func TestShortcutInputs(t *testing.T) {
	wire := func(in any, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := messages.EncodeInput(in)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	policy := func(p PolicyPatch) string { return wire(p.input()) }
	nodeAdd := func(in NodeInput) string { return wire(in.input()) }
	nodePatch := func(p NodePatch) string { return wire(p.input("n1")) }
	cases := []struct{ got, want string }{
		{wire((*messages.NodeAddInput)(nil), nil), `{}`},
		{nodeAdd(NodeInput{Type: "markdown"}), `{"type":"markdown"}`},
		{nodePatch(NodePatch{DockPosition: Ptr("")}), `{"id":"n1","dockPosition":null}`},
		{nodePatch(NodePatch{Title: Ptr(""), Extra: map[string]any{"title": "x", "toolName": "t"}}), `{"id":"n1","toolName":"t","title":""}`},
		{wire(&messages.AxWorkUpdateInput{ID: "w", Detail: nullable("")}, nil), `{"id":"w","detail":null}`},
		{policy(PolicyPatch{Allowed: []string{}, Mode: Ptr("plan")}), `{"tools":{"allowed":[]},"prompt":{"mode":"plan"}}`},
		{policy(PolicyPatch{SystemAppend: Ptr("")}), `{"prompt":{"systemAppend":null}}`},
		{policy(PolicyPatch{}), `{}`},
		{wire(GroupInput{Position: &Point{X: 1, Y: 2}}.input(), nil), `{"x":1,"y":2}`},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("wire input %s, want %s", tc.got, tc.want)
		}
	}
	_, err := NodeInput{Type: "markdown", Extra: map[string]any{"x": "10"}}.input()
	wantErr(t, err, 400, messages.CodeInvalidInput, `field "x" must be a number, got string`)
}
