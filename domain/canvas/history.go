package canvas

import (
	"fmt"
	"strings"
	"time"
)

// HistoryLimit is how many entries the undo log keeps.
const HistoryLimit = 200

// HistoryEntry is one undoable step: the whole Change of one operation.
// Because a Change holds the before and after value of every record it
// touched, undo and redo restore exactly (group members, pins, edge order
// and all), unlike the reference's hand-written inverse closures.
type HistoryEntry struct {
	ID            string
	Timestamp     string // ISO-8601 UTC
	Description   string
	OperationType string
	// Agent is who acted (X-PMX-Agent / agentId), "" when unknown.
	Agent  string
	Change *Change
}

// History is the undo log as two persistent stacks: done (applied entries,
// newest first) and undone (undone entries, next redo first). Recording,
// undo and redo are O(1) and share structure, so every published State can
// hold its History at no cost. Only the newest HistoryLimit entries count.
type History struct {
	done, undone   *histNode
	nDone, nUndone int
}

type histNode struct {
	e    *HistoryEntry
	next *histNode
}

// record pushes e as the newest applied entry and drops the redo tail.
func (h History) record(e *HistoryEntry) History {
	done, n := &histNode{e: e, next: h.done}, h.nDone+1
	if n > 2*HistoryLimit { // trim now and then: amortised O(1)
		done, n = truncate(done, HistoryLimit), HistoryLimit
	}
	return History{done: done, nDone: n}
}

// truncate copies the first k nodes of a stack.
func truncate(l *histNode, k int) *histNode {
	var head, tail *histNode
	for ; l != nil && k > 0; l, k = l.next, k-1 {
		c := &histNode{e: l.e}
		if head == nil {
			head = c
		} else {
			tail.next = c
		}
		tail = c
	}
	return head
}

// applied is how many applied entries count (at most HistoryLimit).
func (h History) applied() int { return min(h.nDone, HistoryLimit-min(h.nUndone, HistoryLimit)) }

// CanUndo reports whether an applied entry exists.
func (h History) CanUndo() bool { return h.applied() > 0 }

// CanRedo reports whether an undone entry exists.
func (h History) CanRedo() bool { return h.nUndone > 0 }

// Len returns the number of entries kept.
func (h History) Len() int { return h.applied() + h.nUndone }

// entries lists the kept entries oldest first and the index of the current one.
func (h History) list() ([]*HistoryEntry, int) {
	n := h.applied()
	out := make([]*HistoryEntry, n, n+h.nUndone)
	l := h.done
	for i := n - 1; i >= 0; i-- {
		out[i] = l.e
		l = l.next
	}
	for u := h.undone; u != nil; u = u.next {
		out = append(out, u.e)
	}
	return out, n - 1
}

// Undo reverts the entry at the cursor. It reports the entry's description
// and false when there is nothing to undo.
func Undo(tx *Tx) (string, bool) {
	h := tx.state.History
	if !h.CanUndo() {
		return "", false
	}
	e := h.done.e
	tx.replaying = true
	applyChange(tx, e.Change, true)
	if e.Change.AX != nil {
		tx.change.AXReplay = &AXReplay{Swap: e.Change.AX, Undo: true}
	}
	tx.state.History = History{done: h.done.next, nDone: h.nDone - 1,
		undone: &histNode{e: e, next: h.undone}, nUndone: h.nUndone + 1}
	tx.Emit(Event{Name: EventViewportUpdate, Data: map[string]any{"viewport": tx.state.Viewport}})
	tx.EmitLayout()
	return e.Description, true
}

// Redo re-applies the entry after the cursor.
func Redo(tx *Tx) (string, bool) {
	h := tx.state.History
	if !h.CanRedo() {
		return "", false
	}
	e := h.undone.e
	tx.replaying = true
	applyChange(tx, e.Change, false)
	if e.Change.AX != nil {
		tx.change.AXReplay = &AXReplay{Swap: e.Change.AX}
	}
	tx.state.History = History{done: &histNode{e: e, next: h.done}, nDone: h.nDone + 1,
		undone: h.undone.next, nUndone: h.nUndone - 1}
	tx.Emit(Event{Name: EventViewportUpdate, Data: map[string]any{"viewport": tx.state.Viewport}})
	tx.EmitLayout()
	return e.Description, true
}

// applyChange sets every record of ch to its before (undo) or after (redo)
// value. Snapshots and theme are not part of undo.
func applyChange(tx *Tx, ch *Change, undo bool) {
	// Every record carries its ordinal, so the order of these puts does
	// not matter: layout order comes back exactly.
	for _, c := range ch.Nodes {
		target := c.After
		if undo {
			target = c.Before
		}
		if target == nil {
			tx.DeleteNode(c.ID)
		} else {
			tx.PutNode(target)
		}
	}
	for _, c := range ch.Edges {
		target := c.After
		if undo {
			target = c.Before
		}
		if target == nil {
			tx.DeleteEdge(c.ID)
		} else {
			tx.PutEdge(target)
		}
	}
	for _, c := range ch.Annotations {
		target := c.After
		if undo {
			target = c.Before
		}
		if target == nil {
			tx.DeleteAnnotation(c.ID)
		} else {
			tx.PutAnnotation(target)
		}
	}
	if ch.PinsChanged {
		if undo {
			tx.SetPins(ch.PinsBefore)
		} else {
			tx.SetPins(ch.PinsAfter)
		}
	}
	if ch.ViewportChanged {
		if undo {
			tx.SetViewport(ch.ViewportBefore)
		} else {
			tx.SetViewport(ch.ViewportAfter)
		}
	}
}

// HistoryItem is one entry as GET /api/canvas/history lists it.
type HistoryItem struct {
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp"`
	Description   string `json:"description"`
	OperationType string `json:"operationType"`
	Agent         string `json:"agent,omitempty"`
	IsCurrent     bool   `json:"isCurrent"`
	IsUndone      bool   `json:"isUndone"`
}

// HistoryView is the reply of GET /api/canvas/history.
type HistoryView struct {
	Text     string        `json:"text"`
	Entries  []HistoryItem `json:"entries"`
	CanUndo  bool          `json:"canUndo"`
	CanRedo  bool          `json:"canRedo"`
	Revision uint64        `json:"revision"`
}

// View renders the history; clock times use loc (the server's zone).
func (h History) View(loc *time.Location, revision uint64) HistoryView {
	entries, cursor := h.list()
	v := HistoryView{Entries: make([]HistoryItem, 0, len(entries)), CanUndo: h.CanUndo(), CanRedo: h.CanRedo(), Revision: revision}
	if len(entries) == 0 {
		v.Text = "Canvas History: empty (no mutations recorded this session)"
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Canvas History (%d mutations, position %d/%d)\n\n", len(entries), cursor+1, len(entries))
	for i, e := range entries {
		item := HistoryItem{ID: e.ID, Timestamp: e.Timestamp, Description: e.Description, OperationType: e.OperationType,
			Agent: e.Agent, IsCurrent: i == cursor, IsUndone: i > cursor}
		v.Entries = append(v.Entries, item)
		clock := e.Timestamp
		if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
			clock = t.In(loc).Format("15:04:05")
		}
		suffix := ""
		switch {
		case item.IsCurrent:
			suffix = " <<< current"
		case item.IsUndone:
			suffix = "  (undone)"
		}
		by := ""
		if e.Agent != "" {
			by = " (by " + e.Agent + ")"
		}
		fmt.Fprintf(&b, "  #%d  [%s] %s%s%s\n", i+1, clock, e.Description, by, suffix)
	}
	fmt.Fprintf(&b, "\nCan undo: %s | Can redo: %s", yesNo(h.CanUndo()), yesNo(h.CanRedo()))
	v.Text = b.String()
	return v
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
