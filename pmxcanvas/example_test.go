package pmxcanvas_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
	"github.com/pmxcanvas/pmx-canvas/pmxcanvas"
)

// openExample opens a canvas in a throwaway workspace, without HTTP; the
// returned func closes it and removes the workspace.
func openExample() (*pmxcanvas.Canvas, func()) {
	dir, err := os.MkdirTemp("", "pmx-canvas-example")
	if err != nil {
		log.Fatal(err)
	}
	c, err := pmxcanvas.Open(context.Background(), pmxcanvas.Options{Workspace: dir, NoHTTP: true})
	if err != nil {
		log.Fatal(err)
	}
	return c, func() {
		_ = c.Close(context.Background())
		_ = os.RemoveAll(dir)
	}
}

// Embed a canvas in a Go program: open it on a workspace, put nodes on it,
// connect them, read the board back, close it.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "pmx-canvas-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// Port 0 picks a free port; NoHTTP would skip the HTTP surface.
	c, err := pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: dir, Port: 0})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(ctx)

	plan, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Plan", Content: "1. read\n2. write"})
	notes, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Notes"})
	if _, err := c.AddEdge(ctx, pmxcanvas.EdgeInput{From: plan.ID, To: notes.ID, Type: "flow"}); err != nil {
		log.Fatal(err)
	}

	layout, _ := c.Layout(ctx)
	fmt.Println("nodes:", len(layout.Nodes), "edges:", len(layout.Edges))
	fmt.Println("served over HTTP too:", c.URL() != "")
	// Output:
	// nodes: 2 edges: 1
	// served over HTTP too: true
}

// Errors are *messages.Error: check the HTTP status and the stable code.
func Example_errors() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, err := c.Node(ctx, "no-such-node")
	var e *messages.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Code)
		fmt.Println(e.Message)
	}
	_, err = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "spreadsheet"})
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Code)
	}
	// Output:
	// 404 not-found
	// Node "no-such-node" not found.
	// 400 bad-request
}

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "pmx-canvas-example")
	defer os.RemoveAll(dir)

	// The same store the pmx-canvas binary uses: <dir>/.pmx-canvas/.
	c, err := pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: dir, NoHTTP: true})
	if err != nil {
		log.Fatal(err)
	}
	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "kept"})
	_ = c.Close(ctx)

	// Reopening finds what was written.
	c, _ = pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: dir, NoHTTP: true})
	defer c.Close(ctx)
	nodes, _ := c.Nodes(ctx)
	fmt.Println(c.ID(), len(nodes), nodes[0].Title)
	// Output: main 1 kept
}

func ExampleCanvas_AddNode() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	// Auto-placed: the first node of an empty canvas lands at (40,80).
	a, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Auto", Content: "# hello"})
	fmt.Println(a.Type, a.Title, a.Position, a.Size)

	// Placed where asked, with a size of its own.
	b, _ := c.AddNode(ctx, pmxcanvas.NodeInput{
		Type: "status", Title: "Build",
		Position: &pmxcanvas.Point{X: 100, Y: 900},
		Size:     &pmxcanvas.Size{Width: 300, Height: 120},
		Data:     map[string]any{"phase": "green"},
	})
	fmt.Println(b.Type, b.Position, b.Size, b.Data["phase"])
	// Output:
	// markdown Auto {40 80} {640 420}
	// status {100 900} {300 120} green
}

func ExampleCanvas_UpdateNode() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	n, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Draft"})
	n, _ = c.UpdateNode(ctx, n.ID, pmxcanvas.NodePatch{
		Title:     pmxcanvas.Ptr("Final"),
		Position:  &pmxcanvas.Point{X: 500, Y: 500},
		Collapsed: pmxcanvas.Ptr(true),
	})
	fmt.Println(n.Title, n.Position, n.Collapsed)

	_ = c.RemoveNode(ctx, n.ID)
	nodes, _ := c.Nodes(ctx)
	fmt.Println(len(nodes))
	// Output:
	// Final {500 500} true
	// 0
}

func ExampleCanvas_AddEdge() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "API design"})
	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Client"})
	// Ends may be searches that match exactly one node.
	e, _ := c.AddEdge(ctx, pmxcanvas.EdgeInput{FromSearch: "Client", ToSearch: "API design", Type: "depends-on", Label: "uses"})
	fmt.Println(e.Type, e.Label)
	// Output: depends-on uses
}

func ExampleCanvas_CreateGroup() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	a, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "A"})
	b, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "B"})
	g, _ := c.CreateGroup(ctx, pmxcanvas.GroupInput{Title: "Both", ChildIDs: []string{a.ID, b.ID}})
	fmt.Println(g.Type, g.Title, g.Data["frameMode"], len(g.Data["children"].([]any)))
	// Output: group Both fit 2
}

func ExampleCanvas_SetContextPins() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	n, _ := c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Spec", Content: "Must be fast."})
	pins, _ := c.SetContextPins(ctx, []string{n.ID}, pmxcanvas.PinSet)
	fmt.Println(pins.Count)

	pinned, _ := c.PinnedContext(ctx)
	fmt.Print(pinned.Preamble)
	// Output:
	// 1
	// [Context from "Spec" (markdown)]
	// Must be fast.
}

func ExampleCanvas_Search() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Auth flow", Content: "tokens"})
	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Billing", Content: "auth is checked first"})
	res, _ := c.Search(ctx, "auth", 10)
	for _, hit := range res.Results {
		fmt.Println(hit.Title, hit.Score)
	}
	// Output:
	// Auth flow 3
	// Billing 1
}

func ExampleCanvas_SaveSnapshot() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Before"})
	snap, _ := c.SaveSnapshot(ctx, "checkpoint")
	fmt.Println(snap.Name, snap.NodeCount)

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "After"})
	diff, _ := c.DiffSnapshot(ctx, "checkpoint")
	fmt.Println("added:", diff.Diff.AddedNodes[0].Title)

	_, _ = c.RestoreSnapshot(ctx, "checkpoint")
	nodes, _ := c.Nodes(ctx)
	fmt.Println("after restore:", len(nodes))
	// Output:
	// checkpoint 1
	// added: After
	// after restore: 1
}

func ExampleCanvas_Undo() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Oops"})
	step, _ := c.Undo(ctx)
	fmt.Println(step.OK, step.Description)
	step, _ = c.Redo(ctx)
	fmt.Println(step.OK, step.Description)
	_, _ = c.Redo(ctx)
	step, _ = c.Redo(ctx)
	fmt.Println(step.OK, step.Description)
	// Output:
	// true Undid: Added markdown node "Oops"
	// true Redid: Added markdown node "Oops"
	// false Nothing to redo
}

func ExampleCanvas_Batch() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	// All or nothing, one undo step; "$a" is the id of the result assigned "a".
	res, err := c.Batch(ctx, []pmxcanvas.BatchOp{
		{Op: "node.add", Assign: "a", Args: map[string]any{"type": "markdown", "title": "A"}},
		{Op: "node.add", Assign: "b", Args: map[string]any{"type": "markdown", "title": "B"}},
		{Op: "edge.add", Args: map[string]any{"from": "$a", "to": "$b", "type": "flow"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	a, _ := c.Node(ctx, res.Ref("a"))
	fmt.Println(len(res.Results), a.Title)

	// A failing entry applies nothing.
	_, err = c.Batch(ctx, []pmxcanvas.BatchOp{
		{Op: "node.add", Args: map[string]any{"type": "markdown", "title": "C"}},
		{Op: "node.remove", Args: map[string]any{"id": "missing"}},
	})
	var e *messages.Error
	errors.As(err, &e)
	nodes, _ := c.Nodes(ctx)
	fmt.Println(e.Code, e.Extra["failedIndex"], len(nodes))
	// Output:
	// 3 A
	// batch-failed 1 2
}

// An agent asks for approval and waits; a human (here another goroutine)
// decides. The wait is parked in the server, not polled.
func ExampleCanvas_AwaitApproval() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	gate, _ := c.RequestApproval(ctx, pmxcanvas.ApprovalInput{Title: "Deploy to production?", Action: "deploy"})
	go func() {
		_, _ = c.WithSource("browser").ResolveApproval(ctx, gate.ID, pmxcanvas.Approve, "ship it")
	}()

	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	decided, err := c.AwaitApproval(wctx, gate.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(decided.Status, decided.Resolution, decided.ResolvedBy)
	// Output: approved ship it browser
}

// With a short deadline the wait ends with the gate still pending.
func ExampleCanvas_AwaitApproval_deadline() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	gate, _ := c.RequestApproval(ctx, pmxcanvas.ApprovalInput{Title: "Nobody answers"})
	wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	g, err := c.AwaitApproval(wctx, gate.ID)
	fmt.Println(g.Pending(), err)
	// Output: true <nil>
}

func ExampleCanvas_AwaitElicitation() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	q, _ := c.RequestElicitation(ctx, pmxcanvas.ElicitationInput{Prompt: "Which region?", Fields: []string{"region"}})
	go func() {
		_, _ = c.RespondElicitation(ctx, q.ID, map[string]any{"region": "eu-west"})
	}()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	answered, _ := c.AwaitElicitation(wctx, q.ID)
	fmt.Println(answered.Status, answered.Response["region"])
	// Output: answered eu-west
}

func ExampleCanvas_AwaitMode() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	m, _ := c.RequestMode(ctx, pmxcanvas.ModeInput{Mode: "autonomous", Reason: "long refactor"})
	go func() { _, _ = c.ResolveMode(ctx, m.ID, pmxcanvas.Reject, "stay in plan") }()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	decided, _ := c.AwaitMode(wctx, m.ID)
	fmt.Println(decided.Mode, decided.Status, decided.Resolution)
	// Output: autonomous rejected stay in plan
}

// The human steers; the agent claims the message (with a lease, so other
// consumers do not see it) and marks it delivered.
func ExampleCanvas_ClaimPending() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.WithSource("browser").SendSteering(ctx, "Use the v2 API")
	got, _ := c.ClaimPending(ctx, pmxcanvas.DeliveryClaim{Consumer: "agent-1", Wait: time.Second, Lease: time.Minute})
	fmt.Println(len(got.Pending), got.Pending[0].Message, got.LeaseExpiresAt != nil)

	_ = c.MarkDelivered(ctx, got.Pending[0].ID, "agent-1")
	again, _ := c.ClaimPending(ctx, pmxcanvas.DeliveryClaim{Consumer: "agent-1"})
	fmt.Println(len(again.Pending))
	// Output:
	// 1 Use the v2 API true
	// 0
}

func ExampleCanvas_AddWorkItem() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	w, _ := c.AddWorkItem(ctx, pmxcanvas.WorkItemInput{Title: "Write tests"})
	fmt.Println(w.Title, w.Status, w.Source)
	w, _ = c.UpdateWorkItem(ctx, w.ID, pmxcanvas.WorkItemPatch{Status: pmxcanvas.Ptr("done")})
	fmt.Println(w.Status, w.UpdatedBy)
	// Output:
	// Write tests todo sdk
	// done sdk
}

func ExampleCanvas_IngestActivity() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	// A failure opens a blocked work item, logs evidence and a finding.
	r, _ := c.IngestActivity(ctx, pmxcanvas.ActivityInput{Kind: "failure", Title: "go test failed"})
	fmt.Println(r.Event.Kind, r.WorkItem.Status, r.Evidence.Kind, r.Review.Severity)
	// Output: failure blocked logs error
}

// The policy is enforced: a command that requires approval is refused with
// the gate to approve; once approved, the same call succeeds once.
func ExampleCanvas_SetPolicy() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	_, _ = c.SetPolicy(ctx, pmxcanvas.PolicyPatch{ApprovalRequired: []string{"pmx.execute"}})
	_, err := c.InvokeCommand(ctx, "pmx.execute", nil)
	var e *messages.Error
	errors.As(err, &e)
	fmt.Println(e.Status, e.Code)

	gate := pmxcanvas.RequiredApproval(err)
	fmt.Println(gate.Action, gate.Status)
	_, _ = c.ResolveApproval(ctx, gate.ID, pmxcanvas.Approve, "")
	ev, err := c.InvokeCommand(ctx, "pmx.execute", nil)
	fmt.Println(ev.Kind, ev.Summary, err)
	// Output:
	// 403 approval-required
	// policy:pmx.execute pending
	// command pmx.execute <nil>
}

// Subscribe to the canvas's event stream: every change arrives in order,
// numbered.
func ExampleCanvas_Subscribe() {
	c, done := openExample()
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	sub, err := c.Subscribe(ctx, pmxcanvas.SubscribeOptions{SkipInitial: true})
	if err != nil {
		log.Fatal(err)
	}
	defer sub.Close()

	_, _ = c.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "Watched"})
	_ = c.SetTheme(ctx, "light")

	for ev := range sub.Events {
		switch ev.Name {
		case "canvas-layout-update":
			var frame struct {
				Layout pmxcanvas.Layout `json:"layout"`
			}
			_ = ev.Decode(&frame)
			fmt.Println(ev.Name, len(frame.Layout.Nodes))
		case "theme-changed":
			var t struct{ Theme string }
			_ = ev.Decode(&t)
			fmt.Println(ev.Name, t.Theme)
			return
		}
	}
	// Output:
	// canvas-layout-update 1
	// theme-changed light
}

// One server holds many canvases; WithCanvas addresses another one.
func ExampleCanvas_WithCanvas() {
	c, done := openExample()
	defer done()
	ctx := context.Background()

	scratch := c.WithCanvas("scratch")
	_, _ = scratch.AddNode(ctx, pmxcanvas.NodeInput{Type: "markdown", Title: "only here"})
	mainNodes, _ := c.Nodes(ctx)
	scratchNodes, _ := scratch.Nodes(ctx)
	fmt.Println(c.ID(), len(mainNodes), scratch.ID(), len(scratchNodes))
	// Output: main 0 scratch 1
}

// Let an agent see the board: start a headless browser on the workbench,
// check what it shows, and save a screenshot. (Needs Chromium; not run as
// a test.)
func ExampleCanvas_Screenshot() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "pmx-canvas-example")
	defer os.RemoveAll(dir)
	c, err := pmxcanvas.Open(ctx, pmxcanvas.Options{Workspace: dir}) // the webview needs HTTP
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.StartWebview(ctx, pmxcanvas.WebviewOptions{Width: 1280, Height: 800}); err != nil {
		log.Fatal(err) // e.g. webview-unsupported: install chromium
	}
	count, _ := c.Evaluate(ctx, "document.querySelectorAll('.canvas-node').length")
	fmt.Println("nodes on the board:", string(count))
	img, mime, err := c.Screenshot(ctx, "png", nil)
	if err != nil {
		log.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, "board.png"), img, 0o644)
	fmt.Println(mime)
}
