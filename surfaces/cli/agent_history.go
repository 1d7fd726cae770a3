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

func newUndoCommand(s *ioStreams) *cobra.Command {
	return leaf("undo", "Undo the last canvas mutation", examples("pmx-canvas undo"),
		func(cmd *cobra.Command, _ []string) error { return runOp(cmd, s, "canvas.undo", nil) })
}

func newRedoCommand(s *ioStreams) *cobra.Command {
	return leaf("redo", "Redo the last undone mutation", examples("pmx-canvas redo"),
		func(cmd *cobra.Command, _ []string) error { return runOp(cmd, s, "canvas.redo", nil) })
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

func newHistoryCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("history", "Show canvas mutation history",
		examples("pmx-canvas history", "pmx-canvas history --summary", "pmx-canvas history --compact"),
		func(cmd *cobra.Command, _ []string) error {
			summary, compact := flagBool(cmd, "summary"), flagBool(cmd, "compact")
			if !summary && !compact {
				return runOp(cmd, s, "history.get", nil)
			}
			var h struct {
				Entries []historyEntry `json:"entries"`
				CanUndo bool           `json:"canUndo"`
				CanRedo bool           `json:"canRedo"`
			}
			if err := call(cmd, "history.get", nil, &h); err != nil {
				return err
			}
			if summary {
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
				return output(s.Out, ordered{
					{"totalMutations", len(h.Entries)}, {"currentIndex", current},
					{"canUndo", h.CanUndo}, {"canRedo", h.CanRedo},
					{"countsByOperation", counts}, {"recent", recentEntries(h.Entries, 10)},
				})
			}
			return output(s.Out, ordered{
				{"totalMutations", len(h.Entries)}, {"canUndo", h.CanUndo}, {"canRedo", h.CanRedo},
				{"entries", recentEntries(h.Entries, 20)},
			})
		})
	cmd.Flags().Bool("summary", false, "counts per operation and the last 10 entries")
	cmd.Flags().Bool("compact", false, "the last 20 entries")
	return cmd
}

func newSnapshotCommand(s *ioStreams) *cobra.Command {
	save := leaf("save", "Save a named snapshot of the current canvas",
		examples(`pmx-canvas snapshot save --name "before-refactor"`),
		func(cmd *cobra.Command, _ []string) error {
			name := str(cmd, "name")
			if name == nil {
				return die(`pmx-canvas snapshot save --name "my-snapshot"`, "Missing required flag: --name")
			}
			return runOp(cmd, s, "snapshot.save", map[string]any{"name": *name})
		})
	save.Flags().String("name", "", "the snapshot's name (required)")

	list := leaf("list", "List saved snapshots, newest first",
		examples("pmx-canvas snapshot list", "pmx-canvas snapshot list --query refactor --limit 5",
			"pmx-canvas snapshot list --after 2026-01-01T00:00:00Z --all"),
		func(cmd *cobra.Command, _ []string) error {
			in := map[string]any{}
			setNum(in, "limit", cmd, "limit")
			setStr(in, "query", cmd, "query", "q")
			setStr(in, "before", cmd, "before")
			setStr(in, "after", cmd, "after")
			if flagBool(cmd, "all") {
				in["all"] = true
			}
			return runOp(cmd, s, "snapshot.list", in)
		})
	addCount(list, "limit", "at most this many (server default 20)", "Use a positive integer, e.g. --limit 20")
	list.Flags().String("query", "", "only ids or names containing this text")
	list.Flags().String("q", "", "alias of --query")
	list.Flags().String("before", "", "only snapshots created at or before this ISO time")
	list.Flags().String("after", "", "only snapshots created at or after this ISO time")
	list.Flags().Bool("all", false, "no limit")

	gc := leaf("gc", "Delete all but the newest snapshots",
		examples("pmx-canvas snapshot gc --keep 10 --dry-run", "pmx-canvas snapshot gc --keep 10 --yes"),
		func(cmd *cobra.Command, _ []string) error {
			dry := flagBool(cmd, "dry-run")
			if !dry && !flagBool(cmd, "yes") {
				return die("pmx-canvas snapshot gc --keep 20 --yes (or preview with --dry-run)", "Destructive operation requires --yes flag")
			}
			in := map[string]any{"dryRun": dry}
			keep := "20"
			if v := num(cmd, "keep"); v != nil {
				in["keep"] = *v
				keep = fmt.Sprint(*v)
			}
			p := startProgress(s.Err, "[snapshot gc] keeping the newest "+keep)
			body, err := invokeOK(cmd, "snapshot.gc", in)
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
			return output(s.Out, body)
		})
	gc.Long = "Delete all but the newest --keep snapshots (server default 20). Needs --yes, or --dry-run to preview. Progress goes to stderr when it is a terminal."
	addCount(gc, "keep", "how many of the newest to keep (default 20)", "Use a positive integer, e.g. --keep 20")
	gc.Flags().Bool("dry-run", false, "list what would be deleted")
	gc.Flags().Bool("yes", false, "really delete")

	restore := leaf("restore <snapshot-id-or-name>", "Restore the canvas from a snapshot (undoable)",
		examples("pmx-canvas snapshot restore before-refactor"),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing snapshot ID or name", "pmx-canvas snapshot restore <snapshot-id-or-name>")
			if err != nil {
				return err
			}
			return runOp(cmd, s, "snapshot.restore", map[string]any{"id": id})
		})

	del := leaf("delete <snapshot-id-or-name>", "Delete a saved snapshot",
		examples("pmx-canvas snapshot delete snap-abc123"),
		func(cmd *cobra.Command, args []string) error {
			id, err := firstArg(args, "Missing snapshot ID", "pmx-canvas snapshot delete <snapshot-id>")
			if err != nil {
				return err
			}
			return runOp(cmd, s, "snapshot.delete", map[string]any{"id": id})
		})

	diff := newSnapshotDiffCommand(s, "diff <snapshot-id-or-name>", "Compare the current canvas against a saved snapshot",
		examples("pmx-canvas snapshot diff before-refactor"))
	return newGroup("snapshot", "Save, list, diff, restore and delete snapshots",
		examples("pmx-canvas snapshot save --name before-refactor", "pmx-canvas snapshot diff before-refactor"),
		save, list, gc, restore, del, diff)
}

func newSnapshotDiffCommand(s *ioStreams, use, short, example string) *cobra.Command {
	return leaf(use, short, example, func(cmd *cobra.Command, args []string) error {
		id, err := firstArg(args, "Missing snapshot ID or name", "pmx-canvas snapshot diff <snapshot-id-or-name>")
		if err != nil {
			return err
		}
		return runOp(cmd, s, "snapshot.diff", map[string]any{"id": id})
	})
}

func newDiffCommand(s *ioStreams) *cobra.Command {
	return newSnapshotDiffCommand(s, "diff <snapshot-id-or-name>", "Compare the current canvas against a snapshot (alias of snapshot diff)",
		examples("pmx-canvas diff before-refactor"))
}

const batchHint = "Use: pmx-canvas batch --file ./canvas-ops.json"

func newBatchCommand(s *ioStreams) *cobra.Command {
	cmd := leaf("batch", "Run a batch of canvas operations from JSON",
		examples(
			"pmx-canvas batch --file ./canvas-ops.json",
			`pmx-canvas batch --json '[{"op":"node.add","assign":"a","args":{"type":"markdown","title":"A"}},{"op":"node.add","assign":"b","args":{"type":"markdown","title":"B"}},{"op":"edge.add","args":{"from":"$a","to":"$b","type":"flow"}}]'`,
			"cat ops.json | pmx-canvas batch --stdin",
		),
		func(cmd *cobra.Command, _ []string) error {
			var raw, source string
			switch {
			case str(cmd, "file") != nil:
				source = *str(cmd, "file")
				text, err := readFile("file", source, batchHint)
				if err != nil {
					return err
				}
				raw = text
			case str(cmd, "json") != nil:
				raw = *str(cmd, "json")
			case flagBool(cmd, "stdin"):
				text, err := readAll(s.In)
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
				p = startProgress(s.Err, fmt.Sprintf("[batch] %d operations from %s", len(ops), source))
			}
			body, err := invokeOK(cmd, "canvas.batch", in)
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
			return output(s.Out, body)
		})
	cmd.Long = `Run several operations atomically, in one undo step: node.add, node.update,
node.remove, edge.add, group.create, group.add, group.remove, pin.set, pin.add,
pin.remove, snapshot.save, arrange. Each entry is {op, assign?, args}; "$name"
is the id of the entry assigned that name and "$name.path" walks into its
result. The input is a JSON array or {"operations":[...]}, from --file,
--json (both --json '<ops>' and --json='<ops>' work) or --stdin. When a file
is given and stderr is a terminal, progress goes to stderr.

A failing entry fails the whole batch: nothing is applied, and the error names
the entry (failedIndex).`
	cmd.Flags().String("file", "", "file holding the operations")
	cmd.Flags().String("json", "", "the operations inline")
	cmd.Flags().Bool("stdin", false, "read the operations from stdin")
	return cmd
}
