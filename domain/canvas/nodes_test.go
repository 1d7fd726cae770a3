package canvas

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

// testEnv is a deterministic clock and id source.
func testEnv() *Env {
	n := 0
	return &Env{
		Now: func() time.Time { return time.Date(2026, 11, 30, 6, 42, 49, 0, time.UTC) },
		Rand: func(k int) string {
			n++
			s := strings.Repeat("0", k) + itoa36(n)
			return s[len(s)-k:]
		},
	}
}

func itoa36(n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 36 {
		b = append([]byte{digits[n%36]}, b...)
	}
	return string(b)
}

func decode[T any](t *testing.T, js string) *T {
	t.Helper()
	v := new(T)
	if err := json.Unmarshal([]byte(js), v); err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return v
}

func mustAdd(t *testing.T, tx *Tx, js string) *Node {
	t.Helper()
	n, err := AddNode(tx, decode[messages.NodeAddInput](t, js), AddOptions{})
	if err != nil {
		t.Fatalf("AddNode(%s): %v", js, err)
	}
	return n
}

func TestAddNodeDefaults(t *testing.T) {
	tests := []struct {
		input      string
		wantSize   Size
		wantPrefix string
		check      func(t *testing.T, n *Node)
	}{
		{`{"type":"markdown","title":"Hello","content":"# World"}`, Size{640, 420}, "node-", func(t *testing.T, n *Node) {
			if n.Data["title"] != "Hello" || n.Data["content"] != "# World" || n.ZIndex != 1 {
				t.Errorf("data/zIndex = %v/%d", n.Data, n.ZIndex)
			}
		}},
		{`{"type":"mcp-app"}`, Size{960, 600}, "node-", nil},
		{`{"type":"image","path":"a.png"}`, Size{480, 360}, "node-", func(t *testing.T, n *Node) {
			if n.Data["content"] != "a.png" || n.Data["path"] != "a.png" {
				t.Errorf("image path alias: %v", n.Data)
			}
		}},
		{`{"type":"ledger"}`, Size{420, 280}, "node-", nil},
		{`{"type":"webpage","url":" https://example.com "}`, Size{520, 420}, "node-", func(t *testing.T, n *Node) {
			if n.Data["url"] != "https://example.com" || n.Data["title"] != "https://example.com" {
				t.Errorf("webpage data: %v", n.Data)
			}
		}},
		{`{"type":"html","html":"<p>x</p>","presentation":true,"summary":"s"}`, Size{720, 640}, "node-", func(t *testing.T, n *Node) {
			if n.Data["html"] != "<p>x</p>" || n.Data["presentation"] != true || n.Data["summary"] != "s" {
				t.Errorf("html data: %v", n.Data)
			}
		}},
		{`{"type":"status"}`, Size{360, 200}, "node-", nil},
		{`{"type":"file","content":"README.md"}`, Size{360, 200}, "node-", nil},
		{`{"type":"trace","toolName":"bash","status":"running"}`, Size{360, 200}, "node-", func(t *testing.T, n *Node) {
			if n.Data["toolName"] != "bash" || n.Data["status"] != "running" {
				t.Errorf("trace data: %v", n.Data)
			}
		}},
		{`{"type":"context"}`, Size{360, 200}, "node-", func(t *testing.T, n *Node) {
			if n.DockPosition != "right" || !n.Collapsed {
				t.Errorf("context widgets dock right, collapsed: got %q %v", n.DockPosition, n.Collapsed)
			}
		}},
		{`{"type":"group"}`, Size{600, 400}, "group-", func(t *testing.T, n *Node) {
			if n.ZIndex != 0 || n.Data["title"] != "Group" || n.Data["frameMode"] != "fit" {
				t.Errorf("group: z=%d data=%v", n.ZIndex, n.Data)
			}
		}},
		{`{"type":"markdown","size":{"width":100},"strictSize":true,"data":{"title":"from data","k":1}}`, Size{100, 420}, "node-", func(t *testing.T, n *Node) {
			if n.Data["title"] != "from data" || n.Data["k"] != 1.0 || n.Data["strictSize"] != true {
				t.Errorf("data merge: %v", n.Data)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			tx := Begin(NewState(), testEnv())
			n := mustAdd(t, tx, tc.input)
			if n.Size != tc.wantSize {
				t.Errorf("size = %v, want %v", n.Size, tc.wantSize)
			}
			if !strings.HasPrefix(n.ID, tc.wantPrefix) {
				t.Errorf("id %q lacks prefix %q", n.ID, tc.wantPrefix)
			}
			if n.Position != (Point{40, 80}) {
				t.Errorf("first node position = %v, want (40,80)", n.Position)
			}
			if tc.check != nil {
				tc.check(t, n)
			}
		})
	}
}

func TestAddNodeIDFormat(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	n := mustAdd(t, tx, `{"type":"markdown"}`)
	// node-<ms base36>-<4 base36>
	if n.ID != "node-mx2wih0k-0001" && !strings.HasPrefix(n.ID, "node-") {
		t.Fatalf("id = %q", n.ID)
	}
	parts := strings.Split(n.ID, "-")
	if len(parts) != 3 || len(parts[2]) != 4 {
		t.Fatalf("id %q is not node-<time36>-<4>", n.ID)
	}
}

func TestAddNodeExplicitPositionNeedsBothCoordinates(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	mustAdd(t, tx, `{"type":"markdown"}`)
	onlyX := mustAdd(t, tx, `{"type":"markdown","x":-100}`)
	if onlyX.Position.X == -100 {
		t.Errorf("x alone must not place the node: %v", onlyX.Position)
	}
	both := mustAdd(t, tx, `{"type":"markdown","position":{"x":-100,"y":5}}`)
	if both.Position != (Point{-100, 5}) {
		t.Errorf("position object: %v", both.Position)
	}
	flatWins := mustAdd(t, tx, `{"type":"markdown","x":7,"y":8,"position":{"x":1,"y":2}}`)
	if flatWins.Position != (Point{7, 8}) {
		t.Errorf("flat keys must win: %v", flatWins.Position)
	}
}

func TestAddNodeErrors(t *testing.T) {
	tests := []struct{ input, want string }{
		{`{}`, "node creation requires a 'type'"},
		{`{"type":"json-render"}`, "POST /api/canvas/json-render"},
		{`{"type":"graph"}`, "POST /api/canvas/graph"},
		{`{"type":"web-artifact"}`, "POST /api/canvas/web-artifact"},
		{`{"type":"prompt"}`, `Invalid node type: "prompt".`},
		{`{"type":"bogus"}`, `Invalid node type: "bogus".`},
		{`{"type":"html","html":5}`, `HTML node field "html" must be a string.`},
		{`{"type":"html","data":{"html":[1]}}`, `HTML node field "data.html" must be a string.`},
		{`{"type":"markdown","width":0}`, "Size width and height must be greater than zero."},
		{`{"type":"group","childIds":["ghost"]}`, "Cannot create group: Missing child node ID(s): ghost."},
		{`{"type":"group","childIds":"x"}`, `"childIds" must be an array of node IDs`},
		{`{"type":"group","children":[""]}`, `"children" must contain only non-empty node IDs`},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			tx := Begin(NewState(), testEnv())
			_, err := AddNode(tx, decode[messages.NodeAddInput](t, tc.input), AddOptions{})
			if err == nil || err.Status != 400 || !strings.Contains(err.Message, tc.want) {
				t.Fatalf("err = %v, want 400 containing %q", err, tc.want)
			}
			if st, ch, _ := tx.Commit(); !ch.Empty() || st.Nodes.Len() != 0 {
				t.Fatalf("a failed add changed state: %d nodes", st.Nodes.Len())
			}
		})
	}
}

func TestAddGroupWithChildrenFitsFrame(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"status","x":100,"y":200,"width":360,"height":200}`)
	b := mustAdd(t, tx, `{"type":"status","x":520,"y":260,"width":300,"height":240}`)
	g := mustAdd(t, tx, `{"type":"group","title":"G","childIds":["`+a.ID+`","`+b.ID+`"]}`)
	if g.Rect() != (Rect{44, 112, 832, 444}) {
		t.Fatalf("fit frame = %v, want {44 112 832 444}", g.Rect())
	}
	for _, id := range []string{a.ID, b.ID} {
		n, _ := tx.Node(id)
		if n.ParentGroup() != g.ID {
			t.Errorf("%s parentGroup = %q", id, n.ParentGroup())
		}
	}
	_, err := AddNode(tx, decode[messages.NodeAddInput](t, `{"type":"group","childIds":["`+g.ID+`"]}`), AddOptions{})
	if err == nil || !strings.Contains(err.Message, "Invalid group child ID(s)") {
		t.Fatalf("group as child: %v", err)
	}
}

func TestUpdateNode(t *testing.T) {
	base := Begin(NewState(), testEnv())
	md := mustAdd(t, base, `{"type":"markdown","title":"T","x":10,"y":20}`)
	web := mustAdd(t, base, `{"type":"webpage","url":"https://a.example"}`)
	tr := mustAdd(t, base, `{"type":"trace"}`)
	state, _, _ := base.Commit()

	tests := []struct {
		name    string
		input   string
		wantErr string
		check   func(t *testing.T, n *Node)
	}{
		{"partial position keeps the other coordinate", `{"id":"` + md.ID + `","x":99}`, "", func(t *testing.T, n *Node) {
			if n.Position != (Point{99, 20}) {
				t.Errorf("position %v", n.Position)
			}
		}},
		{"size object merges", `{"id":"` + md.ID + `","size":{"height":50}}`, "", func(t *testing.T, n *Node) {
			if n.Size != (Size{640, 50}) {
				t.Errorf("size %v", n.Size)
			}
		}},
		{"flags and data merge", `{"id":"` + md.ID + `","collapsed":true,"pinned":1,"dockPosition":"left","data":{"k":"v"},"arrangeLocked":true}`, "", func(t *testing.T, n *Node) {
			if !n.Collapsed || !n.Pinned || n.DockPosition != "left" || n.Data["k"] != "v" || n.Data["title"] != "T" || n.Data["arrangeLocked"] != true {
				t.Errorf("node %+v", n)
			}
		}},
		{"dockPosition null undocks", `{"id":"` + md.ID + `","dockPosition":null}`, "", func(t *testing.T, n *Node) {
			if n.DockPosition != "" {
				t.Errorf("dock %q", n.DockPosition)
			}
		}},
		{"webpage title marks user source", `{"id":"` + web.ID + `","title":"Mine"}`, "", func(t *testing.T, n *Node) {
			if n.Data["title"] != "Mine" || n.Data["titleSource"] != "user" {
				t.Errorf("data %v", n.Data)
			}
		}},
		{"trace fields go to data", `{"id":"` + tr.ID + `","status":"success","duration":"12ms"}`, "", func(t *testing.T, n *Node) {
			if n.Data["status"] != "success" || n.Data["duration"] != "12ms" {
				t.Errorf("data %v", n.Data)
			}
		}},
		{"same type is accepted", `{"id":"` + md.ID + `","type":"markdown","title":"U"}`, "", nil},
		{"missing node", `{"id":"nope"}`, `Node "nope" not found.`, nil},
		{"non-positive size", `{"id":"` + md.ID + `","width":-1}`, "Size width and height must be greater than zero.", nil},
		{"type change is refused", `{"id":"` + md.ID + `","type":"html"}`, "Cannot change the type", nil},
		{"bad dock", `{"id":"` + md.ID + `","dockPosition":"top"}`, `dockPosition must be "left", "right" or null`, nil},
		{"html on markdown", `{"id":"` + md.ID + `","html":"<p>"}`, `only applies to html nodes`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tx := Begin(state, testEnv())
			n, err := UpdateNode(tx, decode[messages.NodeUpdateInput](t, tc.input))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Message, tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, n)
			}
			if old, _ := state.Nodes.Get(n.ID); old == n {
				t.Fatal("update must not modify the node of the base state")
			}
		})
	}
}

func TestRemoveNodeCascades(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"markdown","title":"A"}`)
	b := mustAdd(t, tx, `{"type":"markdown","title":"B"}`)
	c := mustAdd(t, tx, `{"type":"markdown","title":"C"}`)
	g := mustAdd(t, tx, `{"type":"group","childIds":["`+a.ID+`","`+c.ID+`"]}`)
	e1, _ := AddEdge(tx, decode[messages.EdgeAddInput](t, `{"from":"`+a.ID+`","to":"`+b.ID+`","type":"flow"}`))
	e2, _ := AddEdge(tx, decode[messages.EdgeAddInput](t, `{"from":"`+b.ID+`","to":"`+c.ID+`","type":"flow"}`))
	tx.SetPins([]string{a.ID, b.ID})

	if err := RemoveNode(tx, a.ID); err != nil {
		t.Fatal(err)
	}
	s := tx.State()
	if _, ok := s.Edges.Get(e1.ID); ok {
		t.Error("edge from the removed node survived")
	}
	if _, ok := s.Edges.Get(e2.ID); !ok {
		t.Error("an unrelated edge was removed")
	}
	if s.IsPinned(a.ID) || !s.IsPinned(b.ID) {
		t.Errorf("pins = %v", s.Pins)
	}
	group, _ := s.Nodes.Get(g.ID)
	if got := group.Children(); len(got) != 1 || got[0] != c.ID {
		t.Errorf("group children = %v", got)
	}
	if err := RemoveNode(tx, g.ID); err != nil {
		t.Fatal(err)
	}
	if child, _ := tx.Node(c.ID); child.ParentGroup() != "" {
		t.Error("removing a group must release its members")
	}
	if err := RemoveNode(tx, "ghost"); err == nil || err.Status != 404 {
		t.Errorf("missing node: %v", err)
	}
}

func TestAddEdge(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	a := mustAdd(t, tx, `{"type":"markdown","title":"Hello"}`)
	b := mustAdd(t, tx, `{"type":"markdown","title":"Second node","content":"auth flow notes"}`)
	mustAdd(t, tx, `{"type":"markdown","title":"Twin"}`)
	mustAdd(t, tx, `{"type":"markdown","title":"twin"}`)

	e, err := AddEdge(tx, decode[messages.EdgeAddInput](t, `{"fromSearch":"hello","toSearch":"auth","type":"relation","style":"dashed","animated":1,"label":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if e.From != a.ID || e.To != b.ID || e.Animated == nil || !*e.Animated || e.Label != "x" {
		t.Fatalf("edge %+v", e)
	}
	resp := EdgeResponse(e)
	if resp["animated"] != true || resp["style"] != "dashed" {
		t.Fatalf("response %v", resp)
	}

	errs := []struct{ input, want string }{
		{`{"from":"` + a.ID + `","to":"` + b.ID + `"}`, "Missing required fields"},
		{`{"from":"` + a.ID + `","type":"flow"}`, "Missing required fields"},
		{`{"from":"` + a.ID + `","to":"` + b.ID + `","type":"x"}`, `Invalid edge type: "x".`},
		{`{"from":"` + a.ID + `","to":"` + b.ID + `","type":"flow","style":"wavy"}`, `Invalid edge style: "wavy". Use solid, dashed, or dotted.`},
		{`{"from":"nope","to":"x","type":"flow"}`, `Node "nope" not found.`},
		{`{"fromSearch":"zzz","to":"` + b.ID + `","type":"flow"}`, `No node matches search "zzz".`},
		{`{"fromSearch":"twin","to":"` + b.ID + `","type":"flow"}`, `is ambiguous`},
		{`{"from":"` + a.ID + `","to":"` + a.ID + `","type":"flow"}`, "Duplicate or self-edge."},
		{`{"from":"` + a.ID + `","to":"` + b.ID + `","type":"relation"}`, "Duplicate or self-edge."},
	}
	for _, tc := range errs {
		if _, err := AddEdge(tx, decode[messages.EdgeAddInput](t, tc.input)); err == nil || err.Status != 400 || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%s: err = %v, want 400 %q", tc.input, err, tc.want)
		}
	}
	// Reverse direction and another type are fine.
	if _, err := AddEdge(tx, decode[messages.EdgeAddInput](t, `{"from":"`+b.ID+`","to":"`+a.ID+`","type":"relation"}`)); err != nil {
		t.Errorf("reverse edge: %v", err)
	}
	if err := RemoveEdge(tx, ""); err == nil || err.Message != "Missing edge_id." {
		t.Errorf("empty edge id: %v", err)
	}
	if err := RemoveEdge(tx, "edge-x"); err == nil || err.Status != 404 {
		t.Errorf("missing edge: %v", err)
	}
	if err := RemoveEdge(tx, e.ID); err != nil {
		t.Errorf("remove: %v", err)
	}
}

// fromSearch/toSearch also take a node id and the type of a docked widget:
// the README's tour links a note to the status widget, which has no title.
func TestResolveNodeByIDAndDockedKind(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	SeedDockedWidgets(tx)
	a := mustAdd(t, tx, `{"type":"markdown","title":"Plan","content":"# Ship it"}`)
	mustAdd(t, tx, `{"type":"status","title":"Build status"}`) // a status node on the board
	for _, q := range []string{"status-main", "status", "STATUS"} {
		e, err := AddEdge(tx, decode[messages.EdgeAddInput](t, `{"fromSearch":"Plan","toSearch":"`+q+`","type":"flow"}`))
		if err != nil {
			t.Fatalf("toSearch %q: %v", q, err)
		}
		if e.From != a.ID || e.To != "status-main" {
			t.Fatalf("toSearch %q linked %s -> %s", q, e.From, e.To)
		}
		_ = RemoveEdge(tx, e.ID)
	}
	if n, err := ResolveNode(tx.State(), nil, ptr(a.ID)); err != nil || n.ID != a.ID {
		t.Fatalf("search by a node id: %v %v", n, err)
	}
	// An exact title still wins over an id.
	b := mustAdd(t, tx, `{"type":"markdown","title":"context-main"}`)
	if n, err := ResolveNode(tx.State(), nil, ptr("context-main")); err != nil || n.ID != b.ID {
		t.Fatalf("exact title vs id: %v %v", n, err)
	}
}

func TestSearchScoring(t *testing.T) {
	tx := Begin(NewState(), testEnv())
	mustAdd(t, tx, `{"type":"markdown","title":"Deploy Trend","content":"weekly deploy trend"}`)
	mustAdd(t, tx, `{"type":"markdown","title":"Deploy"}`)
	mustAdd(t, tx, `{"type":"markdown","title":"Other","content":"`+strings.Repeat("x", 60)+` needle here"}`)
	got := Search(tx.State(), "deploy trend", 0)
	if len(got) != 2 || got[0].Score != 8 || got[1].Score != 3 || *got[0].Title != "Deploy Trend" {
		t.Fatalf("results = %+v", got)
	}
	sn := Search(tx.State(), "NEEDLE", 0)
	if len(sn) != 1 || !strings.HasPrefix(sn[0].Snippet, "...") || !strings.Contains(sn[0].Snippet, "needle here") {
		t.Fatalf("snippet = %+v", sn)
	}
	if len(Search(tx.State(), "  ", 0)) != 0 {
		t.Fatal("blank query must match nothing")
	}
	if len(Search(tx.State(), "deploy", 1)) != 1 {
		t.Fatal("limit is honoured")
	}
}
