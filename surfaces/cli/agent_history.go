package cli

// undo, redo, history, snapshots, diff and batch (reference cli.md §7.6,
// §7.8).

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func init() {
	setUX(map[string]*commandUX{
		"canvas.undo": {short: "Undo the last canvas mutation", example: []string{"pmx-canvas undo"}},
		"canvas.redo": {short: "Redo the last undone mutation", example: []string{"pmx-canvas redo"}},
		"history.get": {
			short:   "Show canvas mutation history",
			example: []string{"pmx-canvas history", "pmx-canvas history --summary", "pmx-canvas history --compact"},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().Bool("summary", false, "counts per operation and the last 10 entries")
				cmd.Flags().Bool("compact", false, "the last 20 entries")
			},
			print: printHistory,
		},
		"snapshot.save": {
			short:   "Save a named snapshot of the current canvas",
			example: []string{`pmx-canvas snapshot save --name "before-refactor"`},
			hint:    `pmx-canvas snapshot save --name "my-snapshot"`,
			flags:   map[string]flagUX{"name": {required: true}},
		},
		"snapshot.list": {
			short: "List saved snapshots, newest first",
			example: []string{"pmx-canvas snapshot list", "pmx-canvas snapshot list --query refactor --limit 5",
				"pmx-canvas snapshot list --after 2026-01-01T00:00:00Z --all"},
			flags: map[string]flagUX{"limit": {positive: true, integer: true, eg: "20"}, "query": {also: []string{"q"}}},
		},
		"snapshot.gc": {
			short:   "Delete all but the newest snapshots",
			long:    "Delete all but the newest --keep snapshots (server default 20). Needs --yes, or --dry-run to preview. Progress goes to stderr when it is a terminal.",
			example: []string{"pmx-canvas snapshot gc --keep 10 --dry-run", "pmx-canvas snapshot gc --keep 10 --yes"},
			flags:   map[string]flagUX{"keep": {positive: true, integer: true, eg: "20"}, "dryRun": {def: "false"}},
			extra:   func(cmd *cobra.Command) { cmd.Flags().Bool("yes", false, "really delete") },
			run:     runSnapshotGC,
		},
		"snapshot.restore": {
			short:   "Restore the canvas from a snapshot (undoable)",
			example: []string{"pmx-canvas snapshot restore before-refactor"},
			args:    []argUX{{name: "snapshot-id-or-name"}},
		},
		"snapshot.delete": {
			short:   "Delete a saved snapshot",
			example: []string{"pmx-canvas snapshot delete snap-abc123"},
			hint:    "pmx-canvas snapshot delete <snapshot-id>",
			args:    []argUX{{name: "snapshot-id-or-name", missing: "Missing snapshot ID"}},
		},
		"snapshot.diff": {
			short:   "Compare the current canvas against a saved snapshot",
			example: []string{"pmx-canvas snapshot diff before-refactor"},
			hint:    "pmx-canvas snapshot diff <snapshot-id-or-name>",
			args:    []argUX{{name: "snapshot-id-or-name"}},
			aliases: []alias{{path: "diff", short: "Compare the current canvas against a snapshot (alias of snapshot diff)",
				example: []string{"pmx-canvas diff before-refactor"}}},
		},
		"canvas.batch": {
			short: "Run a batch of canvas operations from JSON",
			long: `Run several operations atomically, in one undo step: node.add, node.update,
node.remove, edge.add, group.create, group.add, group.remove, pin.set, pin.add,
pin.remove, snapshot.save, arrange. Each entry is {op, assign?, args}; "$name"
is the id of the entry assigned that name and "$name.path" walks into its
result. The input is a JSON array or {"operations":[...]}, from --file,
--json (both --json '<ops>' and --json='<ops>' work) or --stdin. When a file
is given and stderr is a terminal, progress goes to stderr.

A failing entry fails the whole batch: nothing is applied, and the error names
the entry (failedIndex).`,
			example: []string{
				"pmx-canvas batch --file ./canvas-ops.json",
				`pmx-canvas batch --json '[{"op":"node.add","assign":"a","args":{"type":"markdown","title":"A"}},{"op":"node.add","assign":"b","args":{"type":"markdown","title":"B"}},{"op":"edge.add","args":{"from":"$a","to":"$b","type":"flow"}}]'`,
				"cat ops.json | pmx-canvas batch --stdin",
			},
			extra: func(cmd *cobra.Command) {
				cmd.Flags().String("file", "", "file holding the operations")
				cmd.Flags().String("json", "", "the operations inline")
				cmd.Flags().Bool("stdin", false, "read the operations from stdin")
			},
			run: runBatch,
		},
	})
}

// historyEntry is what history summaries read of an entry.
type historyEntry struct {
	Description   any  `json:"description"`
	OperationType any  `json:"operationType"`
	IsCurrent     bool `json:"isCurrent"`
	IsUndone      bool `json:"isUndone"`
}

func (e historyEntry) status() string {
	switch {
	case e.IsCurrent:
		return "current"
	case e.IsUndone:
		return "undone"
	}
	return "applied"
}

// recentEntries numbers the last n entries from 1 (the reference's
// summarize/compactHistoryResult).
func recentEntries(entries []historyEntry, n int) []ordered {
	start := len(entries) - n
	if start < 0 {
		start = 0
	}
	out := []ordered{}
	for i := start; i < len(entries); i++ {
		e := entries[i]
		out = append(out, ordered{{"index", i + 1}, {"operationType", e.OperationType}, {"description", e.Description}, {"status", e.status()}})
	}
	return out
}

// printHistory prints the history, or its --summary or --compact form.
func printHistory(c *opCall, body json.RawMessage) error {
	summary, compact := c.flag("summary"), c.flag("compact")
	if !summary && !compact {
		return c.show(body)
	}
	var h struct {
		Entries []historyEntry `json:"entries"`
		CanUndo bool           `json:"canUndo"`
		CanRedo bool           `json:"canRedo"`
	}
	if err := json.Unmarshal(body, &h); err != nil {
		return fmt.Errorf("history.get: unexpected reply: %w", err)
	}
	if compact && !summary {
		return c.show(ordered{
			{"totalMutations", len(h.Entries)}, {"canUndo", h.CanUndo}, {"canRedo", h.CanRedo},
			{"entries", recentEntries(h.Entries, 20)},
		})
	}
	counts := ordered{}
	tally := map[string]int{}
	current := 0
	for i, e := range h.Entries {
		op, _ := e.OperationType.(string)
		if op == "" {
			op = "unknown"
		}
		tally[op]++
		counts.set(op, tally[op])
		if e.IsCurrent {
			current = i + 1
		}
	}
	return c.show(ordered{
		{"totalMutations", len(h.Entries)}, {"currentIndex", current},
		{"canUndo", h.CanUndo}, {"canRedo", h.CanRedo},
		{"countsByOperation", counts}, {"recent", recentEntries(h.Entries, 10)},
	})
}

// runSnapshotGC needs --yes (or --dry-run) and shows progress on a terminal.
func runSnapshotGC(c *opCall) error {
	dry := c.flag("dry-run")
	if !dry && !c.flag("yes") {
		return die("pmx-canvas snapshot gc --keep 20 --yes (or preview with --dry-run)", "Destructive operation requires --yes flag")
	}
	keep := "20"
	if v := num(c.cmd, "keep"); v != nil {
		keep = fmt.Sprint(*v)
	}
	p := startProgress(c.s.Err, "[snapshot gc] keeping the newest "+keep)
	body, err := c.send()
	if err != nil {
		p.finish("failed")
		return err
	}
	var res struct {
		Deleted []json.RawMessage `json:"deleted"`
	}
	_ = json.Unmarshal(body, &res)
	verb := "deleted"
	if dry {
		verb = "would delete"
	}
	p.finish(fmt.Sprintf("%s %d", verb, len(res.Deleted)))
	return c.show(body)
}

const batchHint = "Use: pmx-canvas batch --file ./canvas-ops.json"

// runBatch reads the operations from --file, --json or stdin and runs
// them; a failing entry's error names it.
func runBatch(c *opCall) error {
	var raw, source string
	switch {
	case str(c.cmd, "file") != nil:
		source = *str(c.cmd, "file")
		text, err := readFile("file", source, batchHint)
		if err != nil {
			return err
		}
		raw = text
	case str(c.cmd, "json") != nil:
		raw = *str(c.cmd, "json")
	case c.flag("stdin"):
		text, err := readAll(c.s.In)
		if err != nil {
			return err
		}
		raw = text
	default:
		return die(batchHint, "Batch operations require --file, --json, or --stdin.")
	}
	var parsed any
	if err := json.Unmarshal([]byte(raw), &parsed); err != nil {
		return die(`Use a JSON array of operations or an object with an "operations" array.`, "Invalid batch JSON: %v", err)
	}
	in, ok := parsed.(map[string]any)
	if list, isList := parsed.([]any); isList {
		in, ok = map[string]any{"operations": list}, true
	}
	if !ok {
		return die(`Use a JSON array of operations or an object with an "operations" array.`, "Invalid batch JSON: expected an array or an object")
	}
	var p *Progress
	if source != "" {
		ops, _ := in["operations"].([]any)
		p = startProgress(c.s.Err, fmt.Sprintf("[batch] %d operations from %s", len(ops), source))
	}
	c.in = in
	body, err := c.send()
	if err != nil {
		p.finish("failed")
		var me *messages.Error
		if errors.As(err, &me) {
			if i, ok := me.Extra["failedIndex"].(float64); ok {
				return die(fmt.Sprintf("Operation %d failed; nothing was applied (batches are atomic).", int(i)), "%s", me.Message)
			}
		}
		return err
	}
	var res struct {
		Results []json.RawMessage `json:"results"`
	}
	_ = json.Unmarshal(body, &res)
	p.finish(fmt.Sprintf("%d results", len(res.Results)))
	return c.show(body)
}
