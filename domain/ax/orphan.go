package ax

import (
	"slices"
	"strconv"

	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
)

// Node deletion soft-orphans AX state (ax.md §11.1): items lose the node id
// but survive, node-anchored reviews on the node are dropped, the focus
// loses it. Restore puts it back for undo.

func orphanBoard(b Board, nodeID string) (Board, Orphaned) {
	o := Orphaned{NodeID: nodeID, positioned: true}
	next := b

	if ids, hit := without(b.Focus.NodeIDs, nodeID); hit {
		o.Focus = true
		o.focusPos = slices.Index(b.Focus.NodeIDs, nodeID)
		o.focusWasPrimary = b.Focus.PrimaryNodeID != nil && *b.Focus.PrimaryNodeID == nodeID
		next.Focus.NodeIDs = ids
		if o.focusWasPrimary || b.Focus.PrimaryNodeID == nil {
			next.Focus.PrimaryNodeID = primaryOf(ids)
		}
	}

	var work []*WorkItem
	for i, w := range b.WorkItems {
		ids, hit := without(w.NodeIDs, nodeID)
		if !hit {
			continue
		}
		if work == nil {
			work = slices.Clone(b.WorkItems)
			o.workPos = map[string]int{}
		}
		c := *w
		c.NodeIDs = ids
		work[i] = &c
		o.ReanchoredIDs = append(o.ReanchoredIDs, w.ID)
		o.workPos[w.ID] = slices.Index(w.NodeIDs, nodeID)
	}
	if work != nil {
		next.WorkItems = work
	}

	var reviews []*ReviewAnnotation
	for i, r := range b.Reviews {
		if r.AnchorType == "node" && r.NodeID != nil && *r.NodeID == nodeID {
			if o.reviewPos == nil {
				o.reviewPos = map[string]int{}
			}
			o.RemovedReviews = append(o.RemovedReviews, r)
			o.reviewPos[r.ID] = i
			continue
		}
		reviews = append(reviews, r)
	}
	if len(o.RemovedReviews) > 0 {
		next.Reviews = orEmpty(reviews)
	}
	return next, o
}

// gateNodes is the part of a gate orphaning and restore touch.
type gateNodes interface {
	*ApprovalGate | *Elicitation | *ModeRequest
}

// rewrite returns items with fn applied to the nodeIds of every item it
// changes (a new slice when any changed) and the ids of those items.
func rewrite[T gateNodes](items []T, fn func(id string, nodeIDs []string) ([]string, bool)) ([]T, []string) {
	var out []T
	var ids []string
	for i, it := range items {
		id, nodeIDs := gateFields(it)
		next, changed := fn(id, nodeIDs)
		if !changed {
			continue
		}
		if out == nil {
			out = slices.Clone(items)
		}
		out[i] = withNodeIDs(it, next)
		ids = append(ids, id)
	}
	if out == nil {
		return items, ids
	}
	return out, ids
}

func gateFields[T gateNodes](it T) (string, []string) {
	switch g := any(it).(type) {
	case *ApprovalGate:
		return g.ID, g.NodeIDs
	case *Elicitation:
		return g.ID, g.NodeIDs
	case *ModeRequest:
		return g.ID, g.NodeIDs
	}
	return "", nil
}

func withNodeIDs[T gateNodes](it T, ids []string) T {
	switch g := any(it).(type) {
	case *ApprovalGate:
		c := *g
		c.NodeIDs = ids
		return any(&c).(T)
	case *Elicitation:
		c := *g
		c.NodeIDs = ids
		return any(&c).(T)
	case *ModeRequest:
		c := *g
		c.NodeIDs = ids
		return any(&c).(T)
	}
	return it
}

func orphanGates(g GateSet, nodeID string) (GateSet, []string) {
	strip := func(_ string, ids []string) ([]string, bool) { return without(ids, nodeID) }
	var all, ids []string
	next := g
	next.Approvals, ids = rewrite(g.Approvals, strip)
	all = append(all, ids...)
	next.Elicitations, ids = rewrite(g.Elicitations, strip)
	all = append(all, ids...)
	next.Modes, ids = rewrite(g.Modes, strip)
	all = append(all, ids...)
	return next, all
}

func restoreGates(g GateSet, nodeID string, ids []string) GateSet {
	if len(ids) == 0 || nodeID == "" {
		return g
	}
	put := func(id string, nodeIDs []string) ([]string, bool) {
		if !slices.Contains(ids, id) || slices.Contains(nodeIDs, nodeID) {
			return nodeIDs, false
		}
		return insertAt(nodeIDs, len(nodeIDs), nodeID), true
	}
	next := g
	next.Approvals, _ = rewrite(g.Approvals, put)
	next.Elicitations, _ = rewrite(g.Elicitations, put)
	next.Modes, _ = rewrite(g.Modes, put)
	return next
}

func restoreBoard(b Board, o Orphaned) Board {
	if o.NodeID == "" {
		return b
	}
	next := b
	if o.Focus && !slices.Contains(b.Focus.NodeIDs, o.NodeID) {
		pos := len(b.Focus.NodeIDs)
		if o.positioned {
			pos = o.focusPos
		}
		ids := insertAt(b.Focus.NodeIDs, pos, o.NodeID)
		next.Focus.NodeIDs = ids
		switch {
		case o.focusWasPrimary:
			next.Focus.PrimaryNodeID = strPtr(o.NodeID)
		case b.Focus.PrimaryNodeID == nil:
			next.Focus.PrimaryNodeID = primaryOf(ids)
		}
	}

	var work []*WorkItem
	for i, w := range b.WorkItems {
		if !slices.Contains(o.ReanchoredIDs, w.ID) || slices.Contains(w.NodeIDs, o.NodeID) {
			continue
		}
		if work == nil {
			work = slices.Clone(b.WorkItems)
		}
		pos, ok := o.workPos[w.ID]
		if !ok {
			pos = len(w.NodeIDs)
		}
		c := *w
		c.NodeIDs = insertAt(w.NodeIDs, pos, o.NodeID)
		work[i] = &c
	}
	if work != nil {
		next.WorkItems = work
	}

	var reviews []*ReviewAnnotation
	for _, r := range o.RemovedReviews {
		if r == nil || slices.ContainsFunc(b.Reviews, func(x *ReviewAnnotation) bool { return x.ID == r.ID }) ||
			slices.ContainsFunc(reviews, func(x *ReviewAnnotation) bool { return x.ID == r.ID }) {
			continue
		}
		if reviews == nil {
			reviews = slices.Clone(orEmpty(b.Reviews))
		}
		pos, ok := o.reviewPos[r.ID]
		if !ok || pos > len(reviews) {
			pos = len(reviews)
		}
		reviews = slices.Insert(reviews, pos, r)
	}
	if reviews != nil {
		next.Reviews = reviews
	}
	return next
}

func orphanNote(title string, o Orphaned, env *canvas.Env) *Event {
	if title == "" {
		title = o.NodeID
	}
	summary := `Node "` + title + `" deleted — re-anchored ` + strconv.Itoa(len(o.ReanchoredIDs)) +
		" AX item(s), removed " + strconv.Itoa(len(o.RemovedReviews)) + " node-anchored review annotation(s)."
	if o.Focus {
		summary += " (focus anchor cleared)"
	}
	removed := make([]string, 0, len(o.RemovedReviews))
	for _, r := range o.RemovedReviews {
		if r != nil {
			removed = append(removed, r.ID)
		}
	}
	return &Event{
		ID:      env.NewID(prefixEvent, idRandLen),
		Kind:    "note",
		Summary: summary,
		NodeIDs: []string{},
		Data: map[string]any{
			"systemEvent":      "ax-node-orphan",
			"removedNodeId":    o.NodeID,
			"reanchoredIds":    slices.Clone(orEmpty(o.ReanchoredIDs)),
			"removedReviewIds": removed,
			"reanchoredFocus":  o.Focus,
		},
		CreatedAt: env.Timestamp(),
		Source:    strPtr("system"),
	}
}
