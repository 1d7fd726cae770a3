package cli

// edge add / list / remove, group create / add / remove, and pin
// (reference cli.md §7.3, §7.5, §7.7).

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

const edgeSelectorExample = `Example: pmx-canvas edge add --from-search "DVT O3 — GitOps" --to-search "deep work trend" --type relation`

func newEdgeCommand(s *ioStreams) *cobra.Command {
	add := leaf("add", "Add an edge between two nodes",
		examples(
			"pmx-canvas edge add --from <node-id> --to <node-id> --type flow",
			`pmx-canvas edge add --from-search "Design Doc" --to-search "Build" --type depends-on --label imports`,
			"pmx-canvas edge add --from n1 --to n2 --type references --style dashed --animated",
		),
		func(cmd *cobra.Command, _ []string) error {
			from, fromSearch := str(cmd, "from"), str(cmd, "from-search")
			to, toSearch := str(cmd, "to"), str(cmd, "to-search")
			if from == nil && fromSearch == nil {
				return die(`Use --from <id> or --from-search "query". Search queries must resolve to exactly one node. `+edgeSelectorExample, "Missing source selector")
			}
			if to == nil && toSearch == nil {
				return die(`Use --to <id> or --to-search "query". Search queries must resolve to exactly one node. `+edgeSelectorExample, "Missing target selector")
			}
			in := map[string]any{"type": "flow"}
			setStr(in, "type", cmd, "type")
			setStr(in, "from", cmd, "from")
			setStr(in, "to", cmd, "to")
			setStr(in, "fromSearch", cmd, "from-search")
			setStr(in, "toSearch", cmd, "to-search")
			setStr(in, "label", cmd, "label")
			setStr(in, "style", cmd, "style")
			if flagBool(cmd, "animated") {
				in["animated"] = true
			}
			return runOp(cmd, s, "edge.add", in)
		})
	f := add.Flags()
	f.String("type", "flow", "relation, depends-on, flow or references")
	f.String("from", "", "source node id")
	f.String("to", "", "target node id")
	f.String("from-search", "", "source node by search (must match exactly one node)")
	f.String("to-search", "", "target node by search (must match exactly one node)")
	f.String("label", "", "label")
	f.String("style", "", "solid, dashed or dotted")
	f.Bool("animated", false, "animate the edge")
	completeValues(add, "type", "flow", "depends-on", "relation", "references")
	completeValues(add, "style", "solid", "dashed", "dotted")

	list := leaf("list", "List all edges on the canvas", examples("pmx-canvas edge list"),
		func(cmd *cobra.Command, _ []string) error {
			var st struct {
				Edges []json.RawMessage `json:"edges"`
			}
			if err := call(cmd, "layout.get", nil, &st); err != nil {
				return err
			}
			if st.Edges == nil {
				st.Edges = []json.RawMessage{}
			}
			return output(s.Out, st.Edges)
		})

	remove := leaf("remove <edge-id>", "Remove an edge by ID", examples("pmx-canvas edge remove edge-abc123"),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing edge ID", "pmx-canvas edge remove <edge-id>")
			if err != nil {
				return err
			}
			return runOp(cmd, s, "edge.remove", map[string]any{"edge_id": id})
		})
	return newGroup("edge", "Add, list and remove edges",
		examples("pmx-canvas edge add --from node-a --to node-b --type depends-on", "pmx-canvas edge list"), add, list, remove)
}

func newGroupCommand(s *ioStreams) *cobra.Command {
	create := leaf("create [child-ids...]", "Create a group node",
		examples(
			`pmx-canvas group create --title "API Layer" node1 node2`,
			`pmx-canvas group create --title "Quarterly board" --x 40 --y 60 --width 1600 --height 900 --child-layout column node1 node2`,
			`pmx-canvas group create --title "Frontend" --color "#ff6b6b"`,
		),
		func(cmd *cobra.Command, args []string) error {
			in := map[string]any{}
			setStr(in, "title", cmd, "title")
			setStr(in, "color", cmd, "color")
			setGeometry(in, cmd)
			setStr(in, "childLayout", cmd, "child-layout")
			if len(args) > 0 {
				in["childIds"] = args
			}
			return runOp(cmd, s, "group.create", in)
		})
	create.Flags().String("title", "", "title")
	create.Flags().String("color", "", "frame colour")
	addGeometryFlags(create, true)
	create.Flags().String("child-layout", "", "lay the members out: grid, column or flow")
	completeValues(create, "child-layout", "grid", "column", "flow")
	create.ValidArgsFunction = completeNodeIDs

	add := leaf("add <node-ids...>", "Add nodes to an existing group",
		examples("pmx-canvas group add --group <group-id> node1 node2", "pmx-canvas group add --group <group-id> --child-layout flow node1 node2"),
		func(cmd *cobra.Command, args []string) error {
			gid := str(cmd, "group")
			if gid == nil {
				return die("pmx-canvas group add --group <group-id> node1 node2", "Missing required flag: --group")
			}
			if len(args) == 0 {
				return die("pmx-canvas group add --group <group-id> node1 node2", "No node IDs provided")
			}
			in := map[string]any{"groupId": *gid, "childIds": args}
			setStr(in, "childLayout", cmd, "child-layout")
			return runOp(cmd, s, "group.add", in)
		})
	add.Flags().String("group", "", "the group's id (required)")
	add.Flags().String("child-layout", "", "lay the members out: grid, column or flow")
	completeValues(add, "child-layout", "grid", "column", "flow")
	add.ValidArgsFunction = completeNodeIDs

	remove := leaf("remove <group-id>", "Ungroup all children from a group (the frame stays)",
		examples("pmx-canvas group remove <group-id>"),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing group ID", "pmx-canvas group remove <group-id>")
			if err != nil {
				return err
			}
			return runOp(cmd, s, "group.remove", map[string]any{"groupId": id})
		})
	return newGroup("group", "Create groups and change their members",
		examples(`pmx-canvas group create --title "API Layer" node1 node2`), create, add, remove)
}

func newPinCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("pin [node-ids...]", "Manage context pins",
		examples(
			"pmx-canvas pin node1 node2 node3",
			"pmx-canvas pin --set node1 node2 node3",
			"pmx-canvas pin --list",
			"pmx-canvas pin --clear",
		),
		func(cmd *cobra.Command, args []string) error {
			switch {
			case flagBool(cmd, "list"):
				return runOp(cmd, s, "pinned.get", nil)
			case flagBool(cmd, "clear"):
				return runOp(cmd, s, "pin.set", map[string]any{"nodeIds": []string{}})
			case len(args) > 0 || flagBool(cmd, "set"):
				if args == nil {
					args = []string{}
				}
				return runOp(cmd, s, "pin.set", map[string]any{"nodeIds": args})
			}
			return runOp(cmd, s, "pinned.get", nil)
		})
	cmd.Long = `Set the context pins (the nodes an agent reads as context; at most 20), clear
them, or list them with their text. With no ids and no flag, list.`
	f := cmd.Flags()
	f.Bool("set", false, "replace the pins with the given ids (none: clear)")
	f.Bool("list", false, "print the pinned context")
	f.Bool("clear", false, "remove every pin")
	cmd.ValidArgsFunction = completeNodeIDs
	return cmd
}
