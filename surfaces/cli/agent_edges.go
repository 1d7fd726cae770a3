package cli

// edge add / list / remove, group create / add / remove, and pin
// (reference cli.md §7.3, §7.5, §7.7).

import (
	"github.com/spf13/cobra"
)

const edgeSelectorExample = `Example: pmx-canvas edge add --from-search "DVT O3 — GitOps" --to-search "deep work trend" --type relation`

func init() {
	setUX(map[string]*commandUX{
		"edge.add": {
			short: "Add an edge between two nodes",
			example: []string{
				"pmx-canvas edge add --from <node-id> --to <node-id> --type flow",
				`pmx-canvas edge add --from-search "Design Doc" --to-search "Build" --type depends-on --label imports`,
				"pmx-canvas edge add --from n1 --to n2 --type references --style dashed --animated",
			},
			flags: map[string]flagUX{"type": {def: "flow"}},
			prepare: func(c *opCall) error {
				if c.in["from"] == nil && c.in["fromSearch"] == nil {
					return die(`Use --from <id> or --from-search "query". Search queries must resolve to exactly one node. `+edgeSelectorExample, "Missing source selector")
				}
				if c.in["to"] == nil && c.in["toSearch"] == nil {
					return die(`Use --to <id> or --to-search "query". Search queries must resolve to exactly one node. `+edgeSelectorExample, "Missing target selector")
				}
				return nil
			},
		},
		"edge.remove": {
			short:   "Remove an edge by ID",
			example: []string{"pmx-canvas edge remove edge-abc123"},
			args:    []argUX{{name: "edge-id"}},
		},
		"group.create": {
			short: "Create a group node",
			example: []string{
				`pmx-canvas group create --title "API Layer" node1 node2`,
				`pmx-canvas group create --title "Quarterly board" --x 40 --y 60 --width 1600 --height 900 --child-layout column node1 node2`,
				`pmx-canvas group create --title "Frontend" --color "#ff6b6b"`,
			},
			args:          []argUX{{name: "child-ids", optional: true}},
			flags:         withGeometry(map[string]flagUX{}),
			completeNodes: true,
		},
		"group.add": {
			short:         "Add nodes to an existing group",
			example:       []string{"pmx-canvas group add --group <group-id> node1 node2", "pmx-canvas group add --group <group-id> --child-layout flow node1 node2"},
			hint:          "pmx-canvas group add --group <group-id> node1 node2",
			args:          []argUX{{name: "node-ids", missing: "No node IDs provided"}},
			flags:         map[string]flagUX{"groupId": {required: true}},
			completeNodes: true,
		},
		"group.remove": {
			short:   "Ungroup all children from a group (the frame stays)",
			example: []string{"pmx-canvas group remove <group-id>"},
			args:    []argUX{{name: "group-id"}},
		},
		"pin.set": {
			short: "Manage context pins",
			long: `Set the context pins (the nodes an agent reads as context; at most 20), clear
them, or list them with their text. With no ids and no flag, list.`,
			example: []string{
				"pmx-canvas pin node1 node2 node3",
				"pmx-canvas pin --set node1 node2 node3",
				"pmx-canvas pin --list",
				"pmx-canvas pin --clear",
			},
			args: []argUX{{name: "node-ids", optional: true}},
			extra: func(cmd *cobra.Command) {
				f := cmd.Flags()
				f.Bool("set", false, "replace the pins with the given ids (none: clear)")
				f.Bool("list", false, "print the pinned context")
				f.Bool("clear", false, "remove every pin")
			},
			prepare: func(c *opCall) error {
				switch {
				case c.flag("list") || (len(c.args) == 0 && !c.flag("set") && !c.flag("clear")):
					c.op, c.in = "pinned.get", nil
				case c.flag("clear") || c.in["nodeIds"] == nil:
					c.in["nodeIds"] = []string{}
				}
				return nil
			},
			completeNodes: true,
		},
	})
}
