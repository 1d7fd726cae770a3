package mcpapi

// Snapshot tools (reference mcp.md §7.6). canvas_snapshot also serves as
// the snapshot composite: its optional action runs the matching snapshot
// tool with that tool's arguments and result.

var (
	saveSnapshotFields = opFields("snapshot.save", required("name"))
)

// diffFields are canvas_diff's: the reference names the snapshot
// "snapshot" there (the operation's path id), a UX name kept as it is.
var diffFields = []Field{
	{Name: "id", Check: ByOp, Schema: cvStr("Ignored: use snapshot.")},
	{Name: "snapshot", Check: ByOp, Required: true, Schema: cvStr("Snapshot id or name to compare the canvas with.")},
}

// snapshotActions maps canvas_snapshot's action to the tool it runs.
var snapshotActions = map[string]string{
	"list": "canvas_list_snapshots", "restore": "canvas_restore", "delete": "canvas_delete_snapshot",
	"gc": "canvas_gc_snapshots", "diff": "canvas_diff",
}

func init() {
	define(
		&Tool{
			Name: "canvas_list_snapshots",
			Format: func(r *Reply) (string, error) {
				list, err := cvDecode(r.Body)
				if err != nil {
					return "", err
				}
				if list == nil {
					list = []any{}
				}
				return Pretty(Obj{{"snapshots", list}})
			},
		},
		&Tool{
			Name: "canvas_snapshot",
			Fields: byMember([]Field{
				cvStrict("name", cvStr("Snapshot name (save; required there).")),
				cvStrict("action", cvEnum("save (default), list, restore, delete, gc or diff.", "save", "list", "restore", "delete", "gc", "diff")),
				cvStrict("id", cvStr("Snapshot id or name (restore, delete).")),
				cvStrict("snapshot", cvStr("Snapshot id or name to compare the canvas with (diff).")),
				cvStrict("limit", cvNum("list: most snapshots to list (default 20).")),
				cvAccepted("q", "list: alias of query."),
				cvStrict("query", cvStr("list: case-insensitive filter on id or name.")),
				cvStrict("before", cvStr("list: created at or before this ISO time.")),
				cvStrict("after", cvStr("list: created at or after this ISO time.")),
				cvStrict("all", cvBool("list: true lists every snapshot.")),
				cvStrict("keep", cvNum("gc: newest snapshots to keep (default 20).")),
				cvStrict("dryRun", cvBool("gc: report without deleting.")),
			}),
			Run: runSnapshot,
		},
		&Tool{
			Name:   "canvas_gc_snapshots",
			Format: cvBodyInOrder(false, "ok", "kept", "deleted", "dryRun"),
		},
		&Tool{
			Name:   "canvas_diff",
			Fields: diffFields,
			Build: func(_ *Call, a Args) (Args, error) {
				return Args{"id": a["snapshot"]}, nil
			},
			Format: func(r *Reply) (string, error) {
				body, err := cvReplyObj(r)
				if err != nil {
					return "", err
				}
				text, _ := cvStrAt(body, "text")
				return text, nil
			},
		},
		&Tool{
			Name: "canvas_restore",
			Run:  runRestore,
		},
		&Tool{
			Name: "canvas_delete_snapshot",
			Run: func(c *Call, a Args) (*Result, error) {
				if _, err := c.Invoke("snapshot.delete", Args{"id": a["id"]}); err != nil {
					return nil, err
				}
				return cvText(Compact(Obj{{"ok", true}, {"deleted", a["id"]}}))
			},
		},
	)
}

// runSnapshot saves a snapshot, or runs the snapshot tool its action names.
func runSnapshot(c *Call, a Args) (*Result, error) {
	action, _ := a["action"].(string)
	member := &Tool{Name: "canvas_snapshot", Fields: saveSnapshotFields, Op: "snapshot.save",
		Format: cvBodyInOrder(true, "ok", "id", "snapshot")}
	if action != "" && action != "save" {
		member = bindTool(snapshotActions[action])
		member.Name = "canvas_snapshot" // validation messages name the tool called
	}
	args := cvCopyArgs(a)
	delete(args, "action")
	valid, err := validate(member, args)
	if err != nil {
		return nil, err
	}
	return member.run(c, valid)
}

// runRestore restores a snapshot and summarises the canvas it left:
// {ok, restored:<id as given>, summary:{nodeCount, edgeCount,
// annotationCount, nodesByType, viewport}}.
func runRestore(c *Call, a Args) (*Result, error) {
	if _, err := c.Invoke("snapshot.restore", Args{"id": a["id"]}); err != nil {
		return nil, err
	}
	reply, err := c.Invoke("layout.get", Args{})
	if err != nil {
		return nil, err
	}
	layout, err := cvReplyObj(reply)
	if err != nil {
		return nil, err
	}
	nodes := cvList(cvGet(layout, "nodes"))
	byType := Obj{}
	for _, n := range nodes {
		typ, _ := cvStrAt(n.(Obj), "type")
		if v, ok := byType.Get(typ); ok {
			byType = byType.With(typ, v.(int)+1)
		} else {
			byType = append(byType, KV{typ, 1})
		}
	}
	summary := Obj{
		{"nodeCount", len(nodes)}, {"edgeCount", len(cvList(cvGet(layout, "edges")))},
		{"annotationCount", len(cvList(cvGet(layout, "annotations")))}, {"nodesByType", byType},
		{"viewport", cvGet(layout, "viewport")},
	}
	return cvText(Pretty(Obj{{"ok", true}, {"restored", a["id"]}, {"summary", summary}}))
}

// byMember marks canvas_snapshot's fields as its members': the member tool
// the action selects (and its operation) decodes them; only action is the
// tool's own.
func byMember(fields []Field) []Field {
	for i := range fields {
		if fields[i].Name != "action" {
			fields[i].Check = ByOp
		}
	}
	return fields
}
