package ax

// Wholesale replacement of the canvas-bound state: snapshot restore, clear,
// and the undo and redo of those. AX records are not on the canvas undo
// stack, so these rules keep two promises the reference breaks: an undo or
// restore never puts a decided gate back to pending, and an undo never
// removes what the AX layer did after the step it undoes.

// Split divides a canvas-bound state into the AxState and Gates parts.
func Split(s State) (Board, GateSet) {
	b := Board{Focus: s.Focus, WorkItems: s.WorkItems, Reviews: s.ReviewAnnotations, Policy: s.Policy}
	g := GateSet{Approvals: s.ApprovalGates, Elicitations: s.Elicitations, Modes: s.ModeRequests}
	if b.Focus.NodeIDs == nil {
		b.Focus.NodeIDs = []string{}
	}
	return b, g
}

// ReplaceBoard is the board after a restore (or its redo): the target's.
func ReplaceBoard(_ Board, target Board) Board { return target }

// ReplaceGates is the gate set after a restore (or its redo): the target's
// gates, except that a gate decided now and pending in the target keeps its
// decision.
func ReplaceGates(current, target GateSet) GateSet {
	return GateSet{
		Approvals:    keepDecided(current.Approvals, target.Approvals, ApprovalID, approvalDecided),
		Elicitations: keepDecided(current.Elicitations, target.Elicitations, ElicitationID, elicitationDecided),
		Modes:        keepDecided(current.Modes, target.Modes, ModeID, modeDecided),
	}
}

// RevertBoard is the board after undoing a restore or clear that ran at
// since: the target (the board before the step) comes back, a record
// changed since keeps its newer version, and records the AX layer created
// after the step stay.
func RevertBoard(current, target Board, since string) Board {
	work := newer(current.WorkItems, target.WorkItems, WorkID, func(w *WorkItem) string { return w.UpdatedAt })
	reviews := newer(current.Reviews, target.Reviews, ReviewID, func(r *ReviewAnnotation) string { return r.UpdatedAt })
	return Board{
		Focus:     target.Focus,
		Policy:    target.Policy,
		WorkItems: appendCreatedSince(work, current.WorkItems, WorkID, func(w *WorkItem) string { return w.CreatedAt }, since),
		Reviews:   appendCreatedSince(reviews, current.Reviews, ReviewID, func(r *ReviewAnnotation) string { return r.CreatedAt }, since),
	}
}

// RevertGates is RevertBoard for gates: a gate decided now stays decided.
func RevertGates(current, target GateSet, since string) GateSet {
	g := ReplaceGates(current, target)
	g.Approvals = appendCreatedSince(g.Approvals, current.Approvals, ApprovalID, func(a *ApprovalGate) string { return a.CreatedAt }, since)
	g.Elicitations = appendCreatedSince(g.Elicitations, current.Elicitations, ElicitationID, func(e *Elicitation) string { return e.CreatedAt }, since)
	g.Modes = appendCreatedSince(g.Modes, current.Modes, ModeID, func(m *ModeRequest) string { return m.CreatedAt }, since)
	return g
}

// Record ids, for the list helpers of this package and the actors.
func WorkID(w *WorkItem) string              { return w.ID }
func ReviewID(r *ReviewAnnotation) string    { return r.ID }
func ApprovalID(a *ApprovalGate) string      { return a.ID }
func ElicitationID(e *Elicitation) string    { return e.ID }
func ModeID(m *ModeRequest) string           { return m.ID }
func approvalDecided(a *ApprovalGate) bool   { return a.Status != "pending" }
func elicitationDecided(e *Elicitation) bool { return e.Status != "pending" }
func modeDecided(m *ModeRequest) bool        { return m.Status != "pending" }

// keepDecided returns target, with current's version of a record that is
// decided in current and pending in target.
func keepDecided[T any](current, target []T, id func(T) string, decided func(T) bool) []T {
	now := make(map[string]T, len(current))
	for _, r := range current {
		now[id(r)] = r
	}
	out := make([]T, len(target))
	for i, r := range target {
		if c, ok := now[id(r)]; ok && decided(c) && !decided(r) {
			r = c
		}
		out[i] = r
	}
	return out
}

// newer returns target with current's version of each record that was
// updated later (ISO-8601 UTC timestamps compare as strings).
func newer[T any](current, target []T, id func(T) string, updated func(T) string) []T {
	now := make(map[string]T, len(current))
	for _, r := range current {
		now[id(r)] = r
	}
	out := make([]T, len(target))
	for i, r := range target {
		if c, ok := now[id(r)]; ok && updated(c) > updated(r) {
			r = c
		}
		out[i] = r
	}
	return out
}

// appendCreatedSince appends current's records that are not in list and
// were created at or after since.
func appendCreatedSince[T any](list, current []T, id func(T) string, created func(T) string, since string) []T {
	in := make(map[string]bool, len(list))
	for _, r := range list {
		in[id(r)] = true
	}
	for _, r := range current {
		if !in[id(r)] && created(r) >= since {
			list = append(list, r)
		}
	}
	return list
}
