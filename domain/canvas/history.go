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

// History is the undo log: entries oldest first and a cursor at the last
// applied one (-1: none). It is a value whose entries slice is never
// modified in place, so a published State can share it.
type History struct {
	entries []*HistoryEntry
	cursor  int
}

// record appends e after the cursor (dropping the redo tail) and keeps the
// newest HistoryLimit entries.
func (h History) record(e *HistoryEntry) History {
	keep := h.entries[:h.cursor+1]
	if len(keep) >= HistoryLimit {
		keep = keep[len(keep)-HistoryLimit+1:]
	}
	next := make([]*HistoryEntry, len(keep), len(keep)+1)
	copy(next, keep)
	next = append(next, e)
	return History{entries: next, cursor: len(next) - 1}
}

// CanUndo reports whether an applied entry exists.
func (h History) CanUndo() bool { return h.cursor >= 0 }

// CanRedo reports whether an undone entry exists.
func (h History) CanRedo() bool { return h.cursor < len(h.entries)-1 }

// Len returns the number of entries.
func (h History) Len() int { return len(h.entries) }

// Undo reverts the entry at the cursor. It reports the entry's description
// and false when there is nothing to undo.
func Undo(tx *Tx) (string, bool) {
	h := tx.state.History
	if !h.CanUndo() {
		return "", false
	}
	e := h.entries[h.cursor]
	tx.replaying = true
	applyChange(tx, e.Change, true)
	tx.state.History.cursor--
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
	e := h.entries[h.cursor+1]
	tx.replaying = true
	applyChange(tx, e.Change, false)
	tx.state.History.cursor++
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
	v := HistoryView{Entries: make([]HistoryItem, 0, len(h.entries)), CanUndo: h.CanUndo(), CanRedo: h.CanRedo(), Revision: revision}
	if len(h.entries) == 0 {
		v.Text = "Canvas History: empty (no mutations recorded this session)"
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Canvas History (%d mutations, position %d/%d)\n\n", len(h.entries), h.cursor+1, len(h.entries))
	for i, e := range h.entries {
		item := HistoryItem{ID: e.ID, Timestamp: e.Timestamp, Description: e.Description, OperationType: e.OperationType,
			Agent: e.Agent, IsCurrent: i == h.cursor, IsUndone: i > h.cursor}
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
